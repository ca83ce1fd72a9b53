"""What ``parlour bench biloba`` measures beyond the defaults: perft in whole turns, as the spec
counts it (biloba.md 13.4), to depth 3 by default, checked against the spec's counts."""

from __future__ import annotations

from typing import Final

from parlour.engine import Benchmark, State
from parlour.games.biloba.perft import perft
from parlour.games.biloba.rules import BilobaState


def whole_turns(state: State, depth: int) -> int:
    """Biloba's perft counts whole turns, every decision branching (biloba.md 13.4)."""
    assert isinstance(state, BilobaState)
    return perft(state, depth, full=True)


BENCHMARK: Final = Benchmark(
    perft_depth=3,  # whole turns: depth 4 is ~2 x 10^7 leaves
    reference_perft=(68, 4_506, 311_364),  # biloba.md 13.4, 2-player start, "full"
    perft_unit="whole turns, every decision branching",
    perft=whole_turns,
)
