"""What the generic searches share: their result, the stop signal, win scores and table keys.

Every search turns its time budget into a node allowance fixed in the code, so that the same
position, seed and budget give the same action on any machine (LOA-81); the clock is only a
safety stop at ``SAFETY_FACTOR`` times the budget.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from parlour.engine import Action

SAFETY_FACTOR: Final = 4.0
"""The clock stops a search that has taken this many times its budget (an overloaded machine)."""

MIN_NODES: Final = 64
"""Even a tiny budget gets this much search: enough to see a win in one."""

WIN: Final = 1_000_000
"""A win at ``ply`` plies from the root scores ``WIN - ply``: sooner wins score higher."""

MAX_PLY: Final = 128
INFINITY: Final = WIN + 1
SOLVED: Final = 1 << 20
"""The depth stored for a result that no horizon limited: valid for any search depth."""
CLOCK_EVERY: Final = 256
TABLE_LIMIT: Final = 2_000_000
MASK64: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15

EXACT, LOWER, UPPER = 0, 1, 2

_ply_keys = random.Random(0xAB)
PLY_KEYS: Final = [_ply_keys.getrandbits(64) for _ in range(MAX_PLY + 2)]
"""Mixed into the table's key: the same position at another distance from the root may be nearer
the move limit and has win scores counted from another ply."""


class OutOfTime(Exception):
    """The node allowance (or the safety clock) ran out in the middle of an iteration."""


@dataclass(frozen=True)
class SearchResult:
    """What a search found and what it cost."""

    action: Action
    score: int
    depth: int
    nodes: int
    seconds: float
    solved: bool

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0
