"""What ``parlour bench conflict`` measures beyond the defaults: a shallower perft."""

from __future__ import annotations

from typing import Final

from parlour.engine import Benchmark

BENCHMARK: Final = Benchmark(
    perft_depth=3,  # a roll, then two decisions of ~90 each: depth 4 is ~10^8 nodes
)
