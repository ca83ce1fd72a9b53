"""Lines of Action (``specs/loa.md``)."""

from parlour.games.loa.rules import PASS, LinesOfAction, LoaState

__all__ = ["PASS", "LinesOfAction", "LoaState"]
