"""Per-game position evaluators: what the generic searches know about a particular game."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Final

from parlour.engine import Action, State

MAX_EVAL: Final = 100_000
"""Evaluations stay strictly inside ±MAX_EVAL, far below the searches' win scores."""


class Evaluator(ABC):
    """Scores positions of one game for the greedy and alpha-beta bots.

    ``evaluate`` is only called on positions where the game is not over: the searches score
    finished games themselves from their ``Outcome``.
    """

    nodes_per_second: int | None = None
    """The node allowance per second of budget that searches with this evaluator get, where
    the game's rules and evaluation cost differ much from the search's default (fixed in the
    code, so that a budget means the same search on every machine)."""

    @abstractmethod
    def evaluate(self, state: State, seat: int) -> int:
        """How good ``state`` is for ``seat``: positive is good, in ``(-MAX_EVAL, MAX_EVAL)``."""

    def evaluate_all(self, state: State) -> list[int]:
        """``evaluate`` for every seat (a game may compute them together, faster)."""
        return [self.evaluate(state, seat) for seat in range(state.players)]

    def is_tactical(self, state: State, action: Action) -> bool:
        """Whether ``action`` changes the position sharply (a capture): searched early."""
        return False


class NullEvaluator(Evaluator):
    """Knows nothing about the game: every unfinished position is even."""

    def evaluate(self, state: State, seat: int) -> int:
        return 0
