"""The Biloba bots: every kind answers legally for 2, 3 and 4 players, replacements included;
the classic bot follows spec section 15 on hand-built positions; seeds reproduce choices."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour.bots import bot_kinds, make_bot, seen_by
from parlour.bots.alphabeta import AlphaBetaBot
from parlour.bots.by_players import ByPlayers
from parlour.bots.paranoid import ParanoidBot
from parlour.engine import MAX_EVAL, Bot, OptionError, State
from parlour.games import get_game
from parlour.games.biloba import REPLACE, BilobaState
from parlour.games.biloba.classic import ClassicBilobaBot
from parlour.games.biloba.evaluator import BilobaEvaluator

KINDS = ["random", "greedy", "strong", "classic"]
TINY = 0.05
CORNERS = {"a1", "b1", "a2", "h1", "i1", "i2", "a8", "a9", "b9", "i8", "h9", "i9"}
QUIET = {"quiet_limit": 200}


def rows(pawns: str) -> list[str]:
    """BIL-6 rows from ``"O: a4 d6  B: b6"``: each colour letter, then its tiles."""
    cells: dict[str, str] = {}
    colour = ""
    for word in pawns.split():
        if word.endswith(":"):
            colour = word[:-1]
        else:
            cells[word] = colour
    return [
        "".join("#" if (name := f"{'abcdefghi'[x]}{y + 1}") in CORNERS else cells.get(name, ".")
                for x in range(9))
        for y in range(9)
    ]


def position(board: str, players: int = 2, **start: Any) -> BilobaState:
    state = get_game("biloba").new(players, QUIET, start={"board": rows(board), "to_move": "orange", **start})
    assert isinstance(state, BilobaState)
    return state


def random_positions(count: int, players: int, seed: int) -> list[BilobaState]:
    """Positions reached by random play, about a third of them in the middle of replacements."""
    rng = random.Random(seed)
    game = get_game("biloba")
    found: list[BilobaState] = []
    while len(found) < count:
        state = game.new(players, QUIET, seed=rng.randrange(1 << 30))
        assert isinstance(state, BilobaState)
        length = rng.randrange(0, 160)
        want_replacement = len(found) % 3 == 0
        while not state.is_over() and (len(state.history) < length or
                                       (want_replacement and state.phase != REPLACE
                                        and len(state.history) < length + 200)):
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over():
            found.append(state)
    return found


def snapshot(state: State) -> tuple[object, ...]:
    return (state.to_json(), state.position_json(), state.position_key(), state.outcome())


def without_clock(bot: Bot) -> None:
    """Takes the wall-clock safety stop out of reach: results then never depend on timing."""
    for inner in bot.bots.values() if isinstance(bot, ByPlayers) else (bot,):
        if isinstance(inner, AlphaBetaBot | ParanoidBot):
            inner.safety_factor = 1e6


def choose(kind: str, state: BilobaState, seed: int = 0, seconds: float = TINY) -> str:
    bot = make_bot("biloba", kind, seed=seed)
    without_clock(bot)
    return state.action_to_text(bot.choose(state, seconds))


def test_registry() -> None:
    assert bot_kinds("biloba") == KINDS
    assert "classic" not in bot_kinds("loa")  # a kind declared for some games only
    with pytest.raises(OptionError, match="no bot 'classic' for loa"):
        make_bot("loa", "classic")
    assert isinstance(make_bot("loa", "strong"), AlphaBetaBot)  # one player count: no dispatch
    strong = make_bot("biloba", "strong")
    assert isinstance(strong, ByPlayers)
    assert isinstance(strong.bots[2], AlphaBetaBot)
    assert isinstance(strong.bots[3], ParanoidBot)
    assert isinstance(strong.bots[4], ParanoidBot)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kind", KINDS)
def test_legal_answers_over_random_positions(kind: str, players: int) -> None:
    # BIL-53: a move or a replacement, whichever is due, and the state is left as it was.
    for index, state in enumerate(random_positions(6, players, seed=players)):
        bot = make_bot("biloba", kind, seed=index)
        before = snapshot(state)
        seen = seen_by(state, state.to_move(), random.Random(index))
        action = bot.choose(seen, TINY)
        assert action in state.legal_actions(), state.render()
        assert snapshot(state) == before
        state.apply(action)  # and the bot's own copy is untouched by the search too
        assert seen.position_key() != state.position_key() or seen.history != state.history


@pytest.mark.parametrize("players", [2, 3, 4])
def test_classic_never_falls_back(players: int) -> None:
    # Section 15: every plan of the policy is a legal decision, over many positions.
    bot = ClassicBilobaBot(seed=players)
    for state in random_positions(60, players, seed=10 + players):
        assert bot.choose(state, TINY) in state.legal_actions()
    assert bot.fallbacks == 0


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("kind", ["strong", "classic", "greedy"])
def test_same_seed_same_choice(kind: str, players: int) -> None:
    for index, state in enumerate(random_positions(3, players, seed=20 + players)):
        assert choose(kind, state, seed=index, seconds=0.1) == choose(kind, state, seed=index, seconds=0.1)


def test_classic_attack_now_ties_follow_pawn_identities() -> None:
    # 15.2 pass A: a4-b5 and c4-b5 both flank b6 against b7; the earlier pawn in identity order
    # (BIL-11: by start tile, column-major, a4 first) keeps the tie ...
    assert choose("classic", position("O: a4 b7 c4  B: b6")) == "a4-b5"
    # ... and identities given with the position decide it the other way.
    nulls: list[str | None] = [None] * 13
    pawns = {"orange": ["c4", "b7", "a4", *nulls], "blue": ["b6", *nulls, None, None]}
    assert choose("classic", position("O: a4 b7 c4  B: b6", pawns=pawns)) == "c4-b5"


def test_classic_reaches_through_the_centre() -> None:
    # 15.2 pass A step 2 and the centre-route rule: d4-e5-f5 flanks g5 against h5 (BIL-18).
    assert choose("classic", position("O: d4 h5 a4  B: g5 b9")) == "d4-e5-f5"


def test_classic_defends_a_threatened_pawn() -> None:
    # 15.2 pass D: c3 is threatened (d3 beside it, b3 beyond, a4 next to b3); c3-b2 is c3's
    # first entry that brings the count to 0.
    assert choose("classic", position("O: c3 i5 h6  B: d3 a4 e9")) == "c3-b2"


def test_classic_plays_a_random_move_when_nothing_else_applies() -> None:
    # 15.2 random: e1 is walled in (its access list is empty, which crashed the original);
    # classic draws another pawn instead, so every answer is a move of a5 or i5.
    state = position("O: e1 a5 i5  B: c1 d1 f1 g1 d2 e2 f2 c3 e3 g3")
    moves = {choose("classic", state, seed=seed) for seed in range(16)}
    assert {move[:3] for move in moves} == {"a5-", "i5-"}


def test_classic_replacement_takes_the_planned_tile() -> None:
    # 15.3: c3 is pending with d3 vacated; the plan c3->d3 flanks e3 against f3.
    state = position("O: c3 f3 a5  B: e3 e9", pending={"c3": ["d3"]})
    assert choose("classic", state) == "c3>d3"


def test_classic_replacement_draws_among_vacated_tiles_otherwise() -> None:
    # 15.3: c4's plan (c4-b5, flanking b6) is no vacated tile of c4: a random vacated tile.
    state = position("O: b7 c4 a3  B: b6 h6", pending={"c4": ["c5", "d4"]})
    assert {choose("classic", state, seed=seed) for seed in range(16)} == {"c4>c5", "c4>d4"}


def test_strong_decides_replacements() -> None:
    # BIL-28, the shape of vector bil-p043: orange's turn starts with c3 flanking d3 (with e3)
    # and c4 (with c5), and e3 flanking f3 (with g3); orange decides every replacement.
    for players in (2, 4):
        state = position("O: c3 e3 c5 g3 a6  B: d3 c4 f3 h8 i5 i4", players=players)
        assert state.phase == REPLACE
        bot = make_bot("biloba", "strong", seed=0)
        without_clock(bot)
        decisions = 0
        while state.phase == REPLACE and state.to_move() == 0:
            action = bot.choose(state, 0.2)
            assert action in state.legal_actions()
            state.apply(action)
            decisions += 1
        assert decisions in (2, 3)
        assert state.to_move() == 1


def test_evaluator_prefers_material_and_stays_in_range() -> None:
    evaluator = BilobaEvaluator()
    even = position("O: c3 e3  B: c7 e7")
    ahead = position("O: c3 e3 g3  B: c7 e7")
    assert evaluator.evaluate(ahead, 0) > evaluator.evaluate(even, 0)
    assert evaluator.evaluate(ahead, 1) < evaluator.evaluate(even, 1)
    for players in (2, 3, 4):
        for state in random_positions(6, players, seed=30 + players):
            for seat in range(players):
                assert -MAX_EVAL < evaluator.evaluate(state, seat) < MAX_EVAL
