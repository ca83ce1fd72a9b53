"""What a computer player is: the interface lives in the engine (``parlour.engine.player``), so
that a game's own ``classic`` player can implement it; it is named here too for the front ends."""

from parlour.engine.player import Bot, seen_by

__all__ = ["Bot", "seen_by"]
