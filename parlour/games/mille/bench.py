"""What ``parlour bench mille`` measures beyond the defaults: the random playouts also count
hands, since a game of Mille Bornes is played in hands."""

from __future__ import annotations

from typing import Final

from parlour.engine import Benchmark, State
from parlour.games.mille.rules import MilleState


def hands_played(state: State) -> int:
    """How many hands a finished game has dealt."""
    assert isinstance(state, MilleState)
    return state.hand_serial


BENCHMARK: Final = Benchmark(rounds_name="hands", rounds=hands_played)
