"""Turn numbers: which turn of the match each event belongs to, so that a move list reads like a
scoresheet (``docs/protocol.md``, Events).

A seat's action starts a new turn when the seat is not the one whose turn it was, so a seat's
several actions in a row (Conflict's moves of one roll, Biloba's continuations, Mille's extra
play after a safety) are one turn. A chance action belongs to the turn of the seat that moves
after it (after the whole run of chance actions, as a deal of several cards), and starts that
turn when that seat is not the one of the turn before. A leaving action (resigning, an agreed
draw, a clock run out) carries the current turn and starts none.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.engine import CHANCE, State


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn an event belongs to: its number (from 1; 0 before any) and whose it is."""

    number: int = 0
    seat: int | None = None

    def after_seat(self, seat: int) -> Turn:
        """The turn of ``seat``'s own action."""
        return self if self.number and seat == self.seat else Turn(self.number + 1, seat)

    def after_chance(self, owner: int | None) -> Turn:
        """The turn of a chance action followed by ``owner``'s decision (``None``: nobody's, the
        game is over): the owner's turn, begun by it when need be."""
        if owner is None:
            return self.after_leaving()
        return self.after_seat(owner)

    def after_leaving(self) -> Turn:
        """A leaving action's turn: the current one, unchanged (before any, it shows as the first:
        ``shown``, and the first action after it still starts turn 1)."""
        return self

    @property
    def shown(self) -> int:
        """The number an event of this turn carries: at least 1."""
        return max(1, self.number)


def chance_owner(after: State) -> int | None:
    """The seat that decides once the pending chance is all resolved, from the state after a chance
    action (``None``: nobody, the game is over). A run of chance actions is followed on a copy:
    chance is drawn from (seed, ply), so the copy draws what the match will."""
    probe = after
    while probe.to_move() == CHANCE:
        if probe is after:
            probe = after.copy()
        probe.apply(probe.sample_chance())
    mover = probe.to_move()
    return mover if mover >= 0 else None
