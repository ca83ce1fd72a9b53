"""Exact counts: the decisions of every opening roll (CON-63; X-1 and X-17 give two of them), checked
against brute force, pinned, and walked with the generic perft; and the position key."""

from __future__ import annotations

import pytest
from conflict_helpers import CONFLICT, all_paths, do, position, walked

from parlour.engine.perft import perft
from parlour.games.conflict import CHANCE_PHASE
from parlour.games.conflict.pieces import TYPES

OPENING: dict[str, int] = {
    "1-1": 25, "1-2": 91, "1-3": 157, "1-4": 247, "1-5": 307, "1-6": 360, "2-2": 67, "2-3": 199,
    "2-4": 289, "2-5": 352, "2-6": 399, "3-3": 133, "3-4": 358, "3-5": 415, "3-6": 465, "4-4": 223,
    "4-5": 505, "4-6": 555, "5-5": 283, "5-6": 615, "6-6": 333,
}
"""Decisions after each opening roll of player 1 (``end`` and activations included); the spec's
X-1 (91) and X-17 (358) among them."""


@pytest.mark.parametrize("players", [2, 4])
def test_opening_counts(players: int) -> None:
    # CON-63: one decision per (piece, die value, final square of the walked path).
    for dice, count in OPENING.items():
        state = CONFLICT.new(players)
        do(state, f"roll {dice}")
        assert len(state.legal_actions()) == count, dice
    assert OPENING["1-2"] == 91
    assert OPENING["3-4"] == 358


def test_opening_counts_by_brute_force() -> None:
    # The same numbers from every simple path out of e5, the slow way.
    state = CONFLICT.new(4)
    do(state, "roll 1-2")
    reach: dict[tuple[int, int], int] = {}
    base = state.board.bases[0]
    for kind in range(TYPES):  # seat 1's pieces: their codes are their types
        for die in range(1, 7):
            finals = {walked(state, kind, path)[-1] for path in all_paths(state, base, kind, die)}
            reach[(kind, die)] = len(finals)
    for dice, count in OPENING.items():
        a, b = (int(d) for d in dice.split("-"))
        values = {a, b}
        moves = sum(reach[(kind, die)] for kind in range(TYPES) for die in values)
        activations = 3 if a + b == 7 else 0
        assert moves + activations + 1 == count, dice


def test_perft_walks_the_chance_node() -> None:
    # The generic perft: 21 rolls, then the decisions of each.
    state = CONFLICT.new(2)
    assert perft(state, 1) == 21
    assert perft(state, 2) == sum(OPENING.values())
    assert state.phase == CHANCE_PHASE
    assert not state.history


def test_equal_positions_have_equal_keys() -> None:
    first = position("pieces 1S f6 1C d4\ndice 1-2")
    do(first, "f6 1: g6")
    do(first, "d4 2: d3 d2")
    second = position("pieces 1S f6 1C d4\ndice 1-2")
    do(second, "d4 2: c3 d2")
    do(second, "f6 1: g6")
    assert first.position_key() == second.position_key()
    assert first.position_json() == second.position_json()
    double = position("pieces 1S f6\nturn 1\ndice 3-3\nunused 3")
    single = position("pieces 1S f6\nturn 1\ndice 3-5\nunused 3")
    assert double.position_key() != single.position_key()  # a double rolls again
