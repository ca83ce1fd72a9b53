"""What ``parlour bench tictactoe`` measures beyond the defaults: the exact perft counts of the
whole game (every game ends by depth 9) and OpenSpiel's tic-tac-toe for the playout comparison."""

from __future__ import annotations

from typing import Final

from parlour.engine import Benchmark

BENCHMARK: Final = Benchmark(
    perft_depth=7,  # about a second; depths 8 and 9 (the whole tree) with --depth 9
    reference_perft=(9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872),
    openspiel_name="tic_tac_toe",
)
