"""The bots play tic-tac-toe through the package's evaluator (``parlour/games/tictactoe/evaluator.py``)."""

from __future__ import annotations

import random

import pytest

from parlour.bots import bot_kinds, make_bot
from parlour.engine import Bot, State
from parlour.games import get_game
from parlour.games.tictactoe.evaluator import EVALUATOR, open_lines

GAME = get_game("tictactoe")
SECONDS = 0.2


def position(rows: str, to_move: str) -> State:
    return GAME.new(start={"board": rows.split("/"), "to_move": to_move})


def play_out(bots: list[Bot], seed: int) -> State:
    state = GAME.new(seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_move()
        seen = state.game.sample_state(state.view(seat), rng)  # bots see their view only
        action = bots[seat].choose(seen, SECONDS)
        assert state.is_legal(action), f"bot answered {action}, not a legal move"
        state.play(action)
    return state


def test_the_evaluator_gives_the_game_every_search_bot() -> None:
    assert bot_kinds("tictactoe") == ["random", "greedy", "strong"]


def test_open_lines_count_threats_far_above_single_marks() -> None:
    # TTT-4: x on a1 and b2: the a1-c3 diagonal holds two (10), five other lines one each
    x, o = 0b000_010_001, 0b000_000_010
    assert open_lines(x, 0) == 10 + 5
    assert open_lines(x, o) == 10 + 3  # o on b1 closes row 1 and file b
    state = position("---/-x-/xo-", "o")
    evaluator = EVALUATOR()
    assert evaluator.evaluate(state, 0) > 0 > evaluator.evaluate(state, 1)


@pytest.mark.parametrize("kind", ["greedy", "strong"])
def test_a_bot_takes_a_win_in_one(kind: str) -> None:
    # TTT-4: X wins at c3 (a1-b2-c3)
    state = position("-o-/-x-/x-o", "x")
    assert state.action_to_text(make_bot("tictactoe", kind, seed=1).choose(state, SECONDS)) == "c3"


def test_the_strong_bot_stops_a_threat() -> None:
    # TTT-4: X threatens c3 (a1, b2): O must take it
    state = position("---/-x-/xo-", "o")
    move = make_bot("tictactoe", "strong", seed=2).choose(state, SECONDS)
    assert state.action_to_text(move) == "c3"


@pytest.mark.parametrize("seed", range(4))
def test_the_strong_bot_never_loses_to_random(seed: int) -> None:
    for strong_seat in (0, 1):
        bots = [make_bot("tictactoe", "random", seed), make_bot("tictactoe", "random", seed)]
        bots[strong_seat] = make_bot("tictactoe", "strong", seed)
        outcome = play_out(bots, seed).outcome()
        assert outcome is not None
        assert outcome.winner in (strong_seat, None)


def test_two_strong_bots_draw() -> None:
    # Tic-tac-toe is a draw with best play on both sides.
    outcome = play_out([make_bot("tictactoe", "strong", 5), make_bot("tictactoe", "strong", 6)], 5).outcome()
    assert outcome is not None
    assert outcome.reason == "full-board"
