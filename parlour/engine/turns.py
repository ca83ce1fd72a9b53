"""Turn numbers: which turn of a match each action belongs to, so that a move list reads like a
scoresheet (the server's events and ``parlour play --replay`` number them alike).

A seat's action starts a new turn when the seat is not the one whose turn it was, so a seat's
several actions in a row (Conflict's moves of one roll, Biloba's continuations, Mille's extra
play after a safety) are one turn. A chance action belongs to the turn of the seat that decides
after it (after the whole run of chance actions, as a deal of several cards), and starts that
turn when that seat is not the one of the turn before. A leaving action (resigning, an agreed
draw, a clock run out) carries the current turn and starts none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from parlour.engine.game import CHANCE, Action, State
from parlour.engine.leaving import is_leaving


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn an action belongs to: its number (from 1; 0 before any) and whose it is."""

    number: int = 0
    seat: int | None = None

    def after(self, decider: int, action: Action, owner: int | None = None) -> Turn:
        """The turn of ``action``, decided by ``decider`` (a seat, or ``CHANCE``); ``owner``: for a
        chance action, the seat that decides after its run (``None``: nobody, the game is over)."""
        if is_leaving(action):
            return self
        if decider == CHANCE:
            return self if owner is None else self._of(owner)
        return self._of(decider)

    def _of(self, seat: int) -> Turn:
        return self if self.number and seat == self.seat else Turn(self.number + 1, seat)

    @property
    def shown(self) -> int:
        """The number an action of this turn carries: at least 1 (a resignation before any move
        shows as the first turn; the first move after it still starts turn 1)."""
        return max(1, self.number)


def chance_owner(state: State) -> int | None:
    """The seat that decides once the chance pending in ``state`` is all resolved (``None``: nobody,
    the game is over). A run of chance actions is followed on a copy: chance is drawn from (seed,
    ply), so on a match in play the copy draws what the match will."""
    probe = state
    while probe.to_move() == CHANCE:
        if probe is state:
            probe = state.copy()
        probe.apply(probe.sample_chance())
    mover = probe.to_move()
    return mover if mover >= 0 else None


def numbered(actions: Sequence[Action], deciders: Sequence[int], end: State) -> tuple[list[int], Turn]:
    """The turn number of each action and the turn after the last; ``deciders``: who was to decide
    before each action (``to_move()``), ``end``: the state after the last."""
    owners: list[int | None] = [None] * len(actions)
    owner = chance_owner(end)
    for index in range(len(actions) - 1, -1, -1):  # backwards: a run of chance takes its end's seat
        if deciders[index] != CHANCE:
            owner = deciders[index] if deciders[index] >= 0 else None
        owners[index] = owner
    turn, numbers = Turn(), []
    for action, decider, owned in zip(actions, deciders, owners, strict=True):
        turn = turn.after(decider, action, owned)
        numbers.append(turn.shown)
    return numbers, turn
