"""What ``parlour bench`` needs to know of one game beyond the contract, as data.

A game's package declares it in ``bench.py`` as ``BENCHMARK = Benchmark(...)``; a game without
one is measured with the defaults below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from parlour.engine.game import State
from parlour.engine.perft import perft as count_actions


@dataclass(frozen=True)
class Benchmark:
    """A game's benchmark settings (the defaults suit a game of single actions)."""

    perft_depth: int = 4
    """Perft's default depth: deep enough to measure, shallow enough to take seconds."""
    reference_perft: tuple[int, ...] = ()
    """The exact perft counts from the initial position with the default options and players,
    depth 1 first, as the game's spec gives them (each measured count is checked against them)."""
    perft_unit: str = "apply/undo, last ply counted in bulk"
    """What the perft counts, in words."""
    perft: Callable[[State, int], int] = count_actions
    """The perft counter: single actions, unless the game's spec counts in its own unit."""
    openspiel_name: str | None = None
    """The same game in OpenSpiel, for the random playout comparison (``None``: none known)."""
    rounds_name: str = ""
    """What a round is called, for a game played in rounds (hands): the playouts then also
    report rounds per second."""
    rounds: Callable[[State], int] | None = None
    """How many rounds a finished state has played (with ``rounds_name``)."""
