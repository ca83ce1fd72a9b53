"""The result of a finished game, as data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.engine.errors import FormatError


@dataclass(frozen=True)
class Outcome:
    """Who won (``None`` for a draw), per-seat scores where the game scores, and why it ended."""

    winner: int | None
    reason: str
    scores: tuple[float, ...] = ()

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def utility(self, seat: int) -> float:
        """+1 for a win, -1 for a loss, 0 for a draw: what search algorithms maximise."""
        if self.winner is None:
            return 0.0
        return 1.0 if self.winner == seat else -1.0

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "scores": list(self.scores)}

    @classmethod
    def from_json(cls, data: Any) -> Outcome:
        try:
            winner = data["winner"]
            if winner is not None and not isinstance(winner, int):
                raise TypeError("winner")
            return cls(winner, str(data["reason"]), tuple(float(s) for s in data["scores"]))
        except (KeyError, TypeError, ValueError) as error:
            raise FormatError(f"not an outcome: {error}") from None
