"""What ``parlour bench loa`` measures beyond the defaults: the spec's perft counts, and
OpenSpiel's Lines of Action for the random playout comparison."""

from __future__ import annotations

from typing import Final

from parlour.engine import Benchmark

BENCHMARK: Final = Benchmark(
    reference_perft=(36, 1_244, 44_952, 1_563_208, 55_963_132),  # LOA-25
    openspiel_name="lines_of_action",
)
