"""Lines of Action (``specs/loa.md``): ``rules`` (bitboards, make/unmake, the game), ``notation``
(squares and moves as text), ``position`` (the JSON form and the set-up), ``render`` (text)."""

from parlour.games.loa.notation import PASS
from parlour.games.loa.rules import LinesOfAction, LoaState

__all__ = ["PASS", "LinesOfAction", "LoaState"]
