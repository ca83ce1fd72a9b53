"""What the generic searches know about one game, as small game-agnostic interfaces.

A game package that wants the ``greedy`` and ``strong`` bots provides an ``Evaluator`` in its
``evaluator.py`` (see ``parlour.bots`` for the convention); a game with hidden information also
makes it ``Playouts``, which the determinised search needs. Nothing here knows any game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Final

from parlour.engine.game import CHANCE, Action, State, draw_chance
from parlour.engine.player import seen_by

MAX_EVAL: Final = 100_000
"""Evaluations stay strictly inside ±MAX_EVAL, far below the searches' win scores."""

SAMPLES_PER_SECOND: Final = 200
"""Playouts per second of budget for a game that does not say (see ``Playouts``)."""


class Evaluator(ABC):
    """Scores positions of one game for the greedy and alpha-beta bots.

    ``evaluate`` is only called on positions where the game is not over: the searches score
    finished games themselves from their ``Outcome``.
    """

    nodes_per_second: int | None = None
    """The node allowance per second of budget that searches with this evaluator get, where
    the game's rules and evaluation cost differ much from the search's default (fixed in the
    code, so that a budget means the same search on every machine)."""

    def nodes_per_second_at(self, state: State) -> int | None:
        """``nodes_per_second`` for a search from ``state``: a game whose nodes cost much more on
        some boards says so here (a figure of the position, so a budget stays one search)."""
        return self.nodes_per_second

    turn_of_decisions: bool = False
    """A seat's turn is several decisions in a row whose worth shows only together (a roll of
    the dice is several moves): the greedy bot then judges whole turns, not single decisions."""

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


class Playouts(ABC):
    """What a determinised search must know of a game: how to finish a sampled state and what
    the end is worth. The defaults work for any game through the contract."""

    samples_per_second: int = SAMPLES_PER_SECOND
    """Playouts per second of budget: fixed in the code so that a budget is the same search on
    every machine, calibrated so that it fits the budget on the development machine."""

    def determinise(self, root: State, seat: int, rng: random.Random) -> State:
        """Another full state with ``root``'s view for ``seat`` (``root`` was sampled from it)."""
        return seen_by(root, seat, rng)

    @abstractmethod
    def policy(self, state: State, rng: random.Random) -> Action:
        """The default policy's action for the seat to move (a fresh playout calls ``reset``)."""

    def default(self, state: State, rng: random.Random) -> Action:
        """The default policy's choice as one of ``state.legal_actions()``: the search keeps it
        unless another action does clearly better."""
        return self.policy(state, rng)

    def candidates(self, state: State, actions: list[Action], default: Action | None) -> list[Action]:
        """The actions worth a playout (all of them, by default), ``default`` being the default
        policy's choice: a game may leave out moves its rules of thumb say never pay, or that its
        playouts are known to misjudge, to spend the budget on the others."""
        return actions

    def reset(self) -> None:
        """Called before each playout: forget what the policy remembered of the last one."""
        return None

    def chance(self, state: State, rng: random.Random) -> Action:
        """A chance outcome drawn with its probability."""
        return draw_chance(state, rng)

    def horizon(self, state: State, root: State) -> bool:
        """Whether a playout from ``root`` stops at ``state`` to be scored (the game's end only,
        by default)."""
        return False

    @abstractmethod
    def values(self, state: State) -> list[float]:
        """What ``state`` (over, or at the horizon) is worth to each seat, from 0 to 1."""

    def playout(self, state: State, root: State, rng: random.Random) -> list[float]:
        """Plays ``state`` on to the end or the horizon (in place) and scores it."""
        self.reset()
        while not state.is_over() and not self.horizon(state, root):
            if state.to_move() == CHANCE:
                state.apply(self.chance(state, rng))
            else:
                state.apply(self.policy(state, rng))
        return self.values(state)
