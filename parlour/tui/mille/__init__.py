"""``parlour mille``: Ken Arnold's BSD Mille Bornes program in the terminal (specs/mille.md §13–14)."""

from parlour.tui.mille.program import main

__all__ = ["main"]
