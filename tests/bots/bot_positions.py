"""Positions for the bot tests, built from the spec's text (specs/loa.md, section 12)."""

from __future__ import annotations

import random

from parlour.engine import State
from parlour.games import get_game
from parlour.games.loa import LoaState

# W-11: White to move after 57 plies; d3xf5 is the only move that forces a win by ply 60.
W11_PLIES = """
d1-b3 h5-g4 e8-f7 h3-f1 c8-c6 a6-b7 f8-d6 h6-g7 b8-e5 h7-f5 e1-e3 g4-f3
d8-b6 g7-g4 g1-g4 f3-d1 g4-e2 h2-e2 g8-h7 a7-e7 d6-a6 a4-c6 h7-g8 e2-g4
g8-h7 c6-e4 e5-b5 f1-f4 b5-a4 d1-g1 a4-c2 g1-g3 e3-a3 a5-b4 b6-c7 b4-c3
b1-b4 h4-f2 c1-e3 f2-h4 c2-a2 e4-c6 h7-f5 h4-d4 c7-d8 e7-e5 e3-e5 d4-d6
e5-c3 c6-e4 a6-c6 e4-e5 a3-d6 g3-d3 f7-f4 e5-g7 b4-b7
"""

# W-10: White to move; b6-c7, d6-a6, d6-c7 and b7-c7 each connect White.
W10_PLIES = """
d8-d6 a3-c3 d1-f3 a6-c8 f8-f5 a2-c2 f1-a1 a5-b6 c1-e3 h6-e6 e1-c3 h5-f3
b8-e5 h4-f4 e5-e1 h2-f2 b1-f1 c2-a2 f5-h7 f4-d6 e3-d2 e6-h6 f1-h3 b6-b5
h3-f5 a2-c4 d2-f4 b5-d5 f4-f8 f3-g4 g8-d5 d6-c7 f8-h6 a4-c6 e1-h1 f2-c5
h7-g8 g4-e4 e8-c6 e4-e5 c6-f3 a7-d4 c3-b4 c8-b7 a1-d4 c7-b6 g1-c5 c4-d3
f5-d3 e5-d6 h1-g1
"""
W10_WINS = {"b6-c7", "d6-a6", "d6-c7", "b7-c7"}

# W-12: White to move; b7xf7 connects all of White.
W12_PLIES = """
c1-a3 h6-g5 c8-e6 h2-f4 d1-d3 a2-b2 b1-a2 b2-c3 f8-g7 f4-h6 e1-g3 h6-h1
f1-h3 h4-f4 g1-e1 a6-b7 e1-g1 h1-f3 g1-h2 f4-b8 a2-c2 a4-a8 g8-b8 c3-e5
c2-c3 a7-e7 c3-a5 e5-g7 e6-f7 f3-f1 e8-h5 f1-h3 h2-g1 h3-g4 g1-h1 a8-d5
h1-g1 g4-h4 g1-g5 d5-d8 a3-b2 d8-f8 d3-f5 h4-g4 b2-d4 g4-e4 d4-f6 e4-e6
g3-g6 h7-g8 a5-a6
"""

# W-8: Black to move; f3xd5 and h3xf5 each leave White one piece, and White wins (LOA-13.2).
W8_PLIES = """
f1-h3 h2-f4 c1-f4 h4-f6 d8-f6 h5-f3 d1-f3 a6-b5 b8-b5 a5-c3 e1-c3 a2-b2
b5-b2 a3-a6 c8-a6 h7-f5 f8-h6 a7-b7 a6-a4 b7-d5
"""


def loa() -> LoaState:
    state = get_game("loa").new()
    assert isinstance(state, LoaState)
    return state


def replay(plies: str) -> LoaState:
    """The position the spec reaches by playing ``plies`` from the initial position."""
    state = loa()
    for ply in plies.split():
        state.play_text(ply)
    return state


def random_positions(count: int, seed: int) -> list[State]:
    """``count`` unfinished positions reached by seeded random play of varied length."""
    rng = random.Random(seed)
    positions: list[State] = []
    while len(positions) < count:
        state = loa()
        for _ in range(rng.randrange(0, 50)):
            state.apply(rng.choice(state.legal_actions()))
            if state.is_over():
                break
        if not state.is_over():
            positions.append(state)
    return positions
