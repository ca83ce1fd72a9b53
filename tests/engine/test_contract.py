"""The generic contract suite: every registered game, every player count, seeded random playouts.

Checks the engine contract of DESIGN.md: each legal action applies and undo restores the exact
state; copies are independent; JSON round-trips are equal; replaying the record gives the same
state; the same seed gives the same game; views are JSON and reveal nothing a seat may not know;
the notation reads back what it writes.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from parlour.engine import CHANCE, NOBODY, FormatError, Game, MatchRecord, State
from parlour.games import GAMES

PLAYOUTS = 3
MAX_PLIES = 400


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


def check_position(state: State) -> None:
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
    for action in actions:
        if mover != CHANCE:
            text = state.action_to_text(action)
            assert state.parse_action(text) == action, f"notation round trip of {text!r}"
        state.apply(action)
        state.undo()
        assert core(state) == before_core, f"undo after {state.action_to_text(action)}"
    # Views are dearer to build: compare them once, after every action was applied and undone.
    assert snapshot(state) == before, "undo restores what the views show"


def check_views(state: State) -> None:
    for seat in [*range(state.players), None]:
        text = json.dumps(state.view(seat))  # views are JSON
        for secret in state.hidden_from(seat):
            assert secret not in text, f"view({seat}) reveals {secret!r}"


@pytest.mark.parametrize(("game", "players"), cases())
def test_random_playouts_keep_the_contract(game: Game[State], players: int) -> None:
    for seed in range(PLAYOUTS):
        state = game.new(players=players, seed=seed)
        rng = random.Random(seed)
        while True:
            check_position(state)
            check_views(state)
            if state.is_over() or len(state.history) >= MAX_PLIES:
                break
            action = choose(state, rng)
            state.play(action)
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
    rng = random.Random(3)
    for _ in range(10):
        if state.is_over():
            break
        state.apply(choose(state, rng))
    before = snapshot(state)
    clone = state.copy()
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
    assert len(names) == players == len(set(names)) and all(isinstance(n, str) and n for n in names)
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
