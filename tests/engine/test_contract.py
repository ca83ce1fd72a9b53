"""The generic contract suite: every registered game, every player count, seeded random playouts.

Checks the engine contract of DESIGN.md: each legal action applies and undo restores the exact
state; copies are independent and a state has no ``__dict__``; JSON round-trips are equal;
replaying the record gives the same state; the same seed gives the same game; the notation reads
back what it writes, and whatever text a seat sends, ``parse_action`` returns a legal action or
refuses it (legality at the gate); ``is_legal`` agrees with ``legal_actions``; each legal action
has its own parts as data; views share one envelope, hold no record or seed and reveal nothing a
seat may not know; a perfect-information game rebuilds a state from any seat's view, and a
hidden-information game samples from the mover's view a state with the mover's choices.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from parlour.engine import (
    CHANCE,
    NOBODY,
    Action,
    FormatError,
    Game,
    IllegalActionError,
    MatchRecord,
    NotationError,
    State,
)
from parlour.games import GAMES

PLAYOUTS = 3
MAX_PLIES = 400
FULL_UNDO = 8
"""About this many actions of a position get the full comparison after apply and undo."""
NEAR = 3
"""The gate is tried with the texts legal up to this many plies before and after."""
ENVELOPE = {"game", "seat", "seats", "options", "to_move", "outcome", "out", "content"}
FORBIDDEN_KEYS = {"record", "seed", "actions", "history"}
GARBAGE = (
    "", " ", "-", "pass", "end", "x", "e5", "a0-a9", "z9-z9", "99", "-1", "0", "roll 7-7", "roll",
    "play", "draw", "1: order on", "new game", "\x00", "é4-é5", "🙂", "a1-" * 40, "a" * 300,
)


def cases() -> list[Any]:
    return [
        pytest.param(game, players, id=f"{name}-{players}p")
        for name, game in sorted(GAMES.items())
        for players in range(game.info.min_players, game.info.max_players + 1)
    ]


def core(state: State) -> tuple[Any, ...]:
    """The rules' state: record, position, key, whose decision, legal actions, outcome."""
    return (
        state.history.copy(),
        json.dumps(state.position_json(), sort_keys=True),
        state.position_key(),
        state.to_move(),
        state.legal_actions(),
        state.outcome(),
    )


def quick(state: State) -> tuple[Any, ...]:
    """The cheap part of ``core``: record, position key, whose decision, outcome."""
    return (len(state.history), state.history[-1:], state.position_key(), state.to_move(), state.outcome())


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything observable about a state, views included, to compare before and after."""
    seats: list[int | None] = [*range(state.players), None]
    views = [json.dumps(state.view(seat), sort_keys=True) for seat in seats]
    return (*core(state), json.dumps(state.to_json(), sort_keys=True), views)


def choose(state: State, rng: random.Random) -> int:
    if state.to_move() == CHANCE:
        return state.sample_chance()
    return rng.choice(state.legal_actions())


def playout(game: Game[State], players: int, seed: int) -> State:
    state = game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over() and len(state.history) < MAX_PLIES:
        state.apply(choose(state, rng))
    return state


@dataclass
class Line:
    """A seeded random game: the actions played, and per ply the legal actions and their texts."""

    actions: list[Action]
    legal: list[list[Action]]
    texts: list[list[str]]

    def near(self, ply: int) -> Iterator[tuple[list[Action], list[str]]]:
        """The legal actions and texts of the plies around ``ply`` (other seats' among them)."""
        for other in range(max(0, ply - NEAR), min(len(self.legal), ply + NEAR + 1)):
            if other != ply:
                yield self.legal[other], self.texts[other]


def line_of_play(game: Game[State], players: int, seed: int) -> Line:
    state = game.new(players=players, seed=seed)
    rng = random.Random(seed)
    line = Line([], [], [])
    while True:
        legal = state.legal_actions()
        line.legal.append(legal)
        line.texts.append([state.action_to_text(action) for action in legal])
        if state.is_over() or len(state.history) >= MAX_PLIES:
            return line
        action = choose(state, rng)
        line.actions.append(action)
        state.apply(action)


# --- the checks, one position at a time ------------------------------------------------------------


def check_position(state: State, texts: list[str]) -> None:
    """Legal actions listed once, chance odds, the notation round trip, apply/undo exact."""
    before = snapshot(state)
    mover = state.to_move()
    actions = state.legal_actions()
    if mover == NOBODY:
        assert actions == [], "a finished game has no legal actions"
        assert state.outcome() is not None
        return
    assert actions, "a game in progress always has a legal action"
    assert len(set(actions)) == len(actions), "legal actions are listed once each"
    assert state.outcome() is None
    if mover == CHANCE:
        outcomes = state.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == sorted(actions)
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    before_core = core(state)
    before_quick = quick(state)
    # The whole core (legal actions, position) after undo for a spread of about FULL_UNDO actions,
    # the quick part after every one: the core is the dearest thing the suite builds.
    every = max(1, len(actions) // FULL_UNDO)
    for index, (action, text) in enumerate(zip(actions, texts, strict=True)):
        if mover != CHANCE:
            assert state.parse_action(text) == action, f"notation round trip of {text!r}"
        state.apply(action)
        state.undo()
        if index % every == 0:
            assert core(state) == before_core, f"undo after {text}"
        else:
            assert quick(state) == before_quick, f"undo after {text}"
    # Views are dearer to build: compare them once, after every action was applied and undone.
    assert snapshot(state) == before, "undo restores what the views show"


def check_is_legal(state: State, line: Line, ply: int, rng: random.Random) -> None:
    """``is_legal`` says yes to each legal action and no to others: those legal nearby, neighbours
    of legal integers and a sample of any integers."""
    legal = set(state.legal_actions())
    for action in legal:
        assert state.is_legal(action), f"is_legal refuses the legal {state.action_to_text(action)}"
    others = {action for actions, _ in line.near(ply) for action in actions}
    others |= {action + step for action in legal for step in (-1, 1)}
    top = max([*legal, *others, 100])
    others |= {rng.randrange(-10, 2 * top) for _ in range(20)} | {-1, 0, top + 1}
    for action in others - legal:
        assert not state.is_legal(action), f"is_legal accepts {action}, which is not a legal action"


def mutations(text: str, seats: int) -> Iterator[str]:
    """What a person or a broken client might send instead of ``text``."""
    yield text.upper()
    yield f"  {text.replace(' ', '   ').replace('-', ' - ')}  "
    if len(text) > 1:
        for index in (0, len(text) // 2, len(text) - 1):
            yield text[:index] + text[index + 1:]
    for separator in ("-", ">", " "):
        pieces = text.split(separator)
        if len(pieces) > 1:
            yield separator.join(reversed(pieces))  # squares swapped
    for seat in range(seats):
        yield f"{seat}: {text}"
    yield text + text


def gate_texts(state: State, texts: list[str], line: Line, ply: int, rng: random.Random) -> set[str]:
    """Texts a seat can send here: every legal text, texts legal nearby, mutations, garbage."""
    nearby = [text for _, other in line.near(ply) for text in other]
    candidates = set(texts) | set(rng.sample(nearby, min(len(nearby), 24))) | set(GARBAGE)
    for text in rng.sample(texts, min(len(texts), 4)) + rng.sample(nearby, min(len(nearby), 4)):
        candidates.update(mutations(text, state.players))
    return candidates


def check_gate(state: State, candidates: set[str]) -> None:
    """Legality at the gate: ``parse_action`` refuses a text, or returns a legal action."""
    legal = state.legal_actions()
    for text in sorted(candidates):
        try:
            action = state.parse_action(text)
        except (NotationError, IllegalActionError):
            continue
        assert state.is_legal(action), f"{text!r} was accepted as {action}, not legal here (is_legal)"
        assert action in legal, f"{text!r} was accepted as {action}, which is not legal here"


def check_parts(state: State) -> None:
    """Each legal action (chance included) has its parts as JSON, a string kind, and parts that
    no other legal action of the position shares; ``legal_json`` (a game's own faster answer)
    gives the same texts and parts."""
    seen: dict[str, Action] = {}
    for action in state.legal_actions():
        parts = state.action_parts(action)
        assert isinstance(parts, dict)
        assert isinstance(parts.get("kind"), str)
        assert parts["kind"]
        key = json.dumps(parts, sort_keys=True)
        assert json.loads(key) == parts, f"parts of {state.action_to_text(action)} are not JSON"
        assert key not in seen, (
            f"{state.action_to_text(action)} and {state.action_to_text(seen[key])} have the same parts {key}"
        )
        seen[key] = action
    offered = [{"text": state.action_to_text(action), "parts": state.action_parts(action)}
               for action in state.legal_actions()]
    assert state.legal_json() == offered, "legal_json must equal each legal action's text and parts"


def forbidden_keys(value: Any, path: str = "view") -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in FORBIDDEN_KEYS:
                yield f"{path}.{key}"
            yield from forbidden_keys(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from forbidden_keys(item, f"{path}[{index}]")


def check_views(state: State) -> None:
    """One envelope for every view; no record, seed or history in it; no hidden text in it."""
    info = state.game.info
    mover = state.to_move()
    to_move = None if mover == NOBODY else "chance" if mover == CHANCE else mover
    outcome = state.outcome()
    for seat in [*range(state.players), None]:
        text = json.dumps(state.view(seat))  # views are JSON
        view = json.loads(text)
        assert set(view) == ENVELOPE, f"view({seat}) has the keys {sorted(view)}"
        assert (view["game"], view["seat"], view["seats"]) == (info.name, seat, state.seat_names())
        assert view["options"] == json.loads(json.dumps(state.options))
        assert view["to_move"] == to_move, f"view({seat}) says {view['to_move']!r} is to move"
        assert isinstance(view["content"], dict)
        assert not list(forbidden_keys(view)), f"view({seat}) holds {list(forbidden_keys(view))}"
        if outcome is None:
            assert view["outcome"] is None
        else:
            assert outcome.reason in info.end_reasons, f"{outcome.reason!r} is not a declared end reason"
            assert view["outcome"]["reason"] == outcome.reason
            assert view["outcome"]["words"] == info.reason_words(outcome.reason)
        for secret in state.hidden_from(seat):
            assert secret not in text, f"view({seat}) reveals {secret!r}"
        if not info.hidden_information:  # nothing hidden: every seat sees what a spectator sees
            assert view == {**json.loads(json.dumps(state.view(None))), "seat": seat}, \
                f"view({seat}) differs from a spectator's in more than its seat"


def check_sample(state: State, seat: int | None, rng: random.Random) -> None:
    """A perfect-information game rebuilds the position and its legal actions from a view."""
    rebuilt = state.game.sample_state(json.loads(json.dumps(state.view(seat))), rng)
    assert rebuilt.position_json() == state.position_json(), f"sample_state(view({seat})) moved things"
    assert rebuilt.legal_actions() == state.legal_actions(), f"sample_state(view({seat})) changed the moves"


def check_hidden_sample(state: State, rng: random.Random) -> None:
    """A hidden-information game samples, from the view of the seat to move, a state in which that
    seat has the very same choices (what a determinising bot relies on)."""
    mover = state.to_move()
    if mover < 0:
        return
    sampled = state.game.sample_state(json.loads(json.dumps(state.view(mover))), rng)
    assert sampled.to_move() == mover, f"sample_state(view({mover})) gives the move to {sampled.to_move()}"
    assert sampled.legal_actions() == state.legal_actions(), f"sample_state(view({mover})): other choices"


# --- the tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), cases())
def test_random_playouts_keep_the_contract(game: Game[State], players: int) -> None:
    perfect = not game.info.hidden_information
    for seed in range(PLAYOUTS):
        line = line_of_play(game, players, seed)
        rng = random.Random(seed)
        state = game.new(players=players, seed=seed)
        seats: list[int | None] = [*range(players), None]
        for ply, texts in enumerate(line.texts):
            check_position(state, texts)
            check_views(state)
            check_parts(state)
            check_is_legal(state, line, ply, rng)
            check_gate(state, gate_texts(state, texts, line, ply, rng))
            if perfect:
                check_sample(state, seats[ply % len(seats)], rng)  # each seat's view in turn
            else:
                check_hidden_sample(state, rng)
            if ply < len(line.actions):
                state.play(line.actions[ply])
        assert len(state.history) > 0


@pytest.mark.parametrize(("game", "players"), cases())
def test_json_round_trip_and_replay(game: Game[State], players: int) -> None:
    for seed in range(PLAYOUTS):
        state = playout(game, players, seed)
        data = json.loads(json.dumps(state.to_json()))
        loaded = game.state_from_json(data)
        assert snapshot(loaded) == snapshot(state)
        replayed = MatchRecord.from_json(data).replay(game)
        assert snapshot(replayed) == snapshot(state)
        # the loaded state keeps its history: undo walks back to the start
        while loaded.history:
            loaded.undo()
        assert snapshot(loaded) == snapshot(game.new(players=players, seed=seed))


@pytest.mark.parametrize(("game", "players"), cases())
def test_same_seed_same_game(game: Game[State], players: int) -> None:
    first = playout(game, players, seed=7)
    second = playout(game, players, seed=7)
    assert first.to_json() == second.to_json()


@pytest.mark.parametrize(("game", "players"), cases())
def test_copies_are_independent(game: Game[State], players: int) -> None:
    state = game.new(players=players, seed=3)
    assert not hasattr(state, "__dict__"), f"{type(state).__name__} has a __dict__: __slots__ missing"
    rng = random.Random(3)
    for _ in range(10):
        if state.is_over():
            break
        state.apply(choose(state, rng))
    before = snapshot(state)
    clone = state.copy()
    assert not hasattr(clone, "__dict__")
    assert clone == state
    assert snapshot(clone) == before
    while not clone.is_over() and len(clone.history) < 60:
        clone.apply(choose(clone, rng))
    assert snapshot(state) == before


@pytest.mark.parametrize(("game", "players"), cases())
def test_bad_records_are_refused_with_a_reason(game: Game[State], players: int) -> None:
    good = playout(game, players, seed=1).to_json()
    broken: list[Any] = [
        [],
        {**good, "format": "something else"},
        {**good, "version": 99},
        {key: value for key, value in good.items() if key != "actions"},
        {**good, "actions": ["b1-d3"]},
        {**good, "actions": [*good["actions"], -12345]},
    ]
    for data in broken:
        with pytest.raises(FormatError):
            game.state_from_json(data)


@pytest.mark.parametrize(("game", "players"), cases())
def test_every_seat_has_a_name_of_its_own(game: Game[State], players: int) -> None:
    # Seat names are per match (options may pick the seats), the same all game long.
    state = game.new(players=players, seed=2)
    names = state.seat_names()
    assert len(names) == players == len(set(names))
    assert all(isinstance(n, str) and n for n in names)
    assert game.info.seat_names, f"{game.info.name} declares no seat names"
    rng = random.Random(2)
    for _ in range(20):
        if state.is_over():
            break
        state.apply(choose(state, rng))
    assert state.seat_names() == names


def test_conflict_names_the_seats_it_plays() -> None:
    # CON-17: with the option seats [1, 4], the players are Red and Yellow.
    conflict = GAMES["conflict"]
    assert conflict.new(players=2).seat_names() == ["Red", "Orange"]
    assert conflict.new(options={"seats": [1, 4]}).seat_names() == ["Red", "Yellow"]
    assert conflict.new(options={"seats": "2 3 4"}).seat_names() == ["Orange", "Green", "Yellow"]


def test_every_game_declares_its_metadata() -> None:
    for name, game in GAMES.items():
        info = game.info
        assert info.name == name
        assert info.title
        assert 1 <= info.min_players <= info.default_players <= info.max_players
        assert info.resolve_options(None) == {o.name: o.default for o in info.options}
        reasons = info.end_reasons
        assert reasons, f"{name} declares no end reasons"
        assert all(isinstance(words, str) and words for words in reasons.values()), f"{name}: words"


def test_the_gate_check_catches_a_parser_that_accepts_too_much() -> None:
    """The suite's own check fails on a parser that returns an illegal action."""
    state = GAMES["loa"].new()

    class Lenient:
        def __getattr__(self, name: str) -> Any:
            return getattr(state, name)

        def parse_action(self, text: str) -> Action:
            return 0  # a1-a1: never legal

    with pytest.raises(AssertionError, match="not legal here"):
        check_gate(Lenient(), {"a1-a1"})  # type: ignore[arg-type]
