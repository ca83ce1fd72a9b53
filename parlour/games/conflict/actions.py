"""Conflict's actions as integers (CON-61, CON-63).

One action per decision of CON-63, whatever path the player chose: two legal paths with the same
piece, die and final square of the walked path are the same decision, so the path is not part of
the action (the notation prints the canonical one, CON-64).

* ``END`` (0): end the roll;
* ``ACTIVATE + code`` (1…20): activate a reserve piece, ``code = seat * 5 + type``;
* ``ROLL + (a - 1) * 6 + (b - 1)`` with a ≤ b: the chance event ``roll a-b``;
* ``MOVE + (source * 6 + die - 1) * size + final``, ``size`` the board's number of squares:
  a move with the die ``die`` whose walked path ends on ``final``. ``source`` is the square of
  a piece on the board, or ``size + code`` to enter an available piece of that seat and type.

Sorting the actions sorts moves by source (board squares in reading order, then entries), die
and final square; that is the order ``legal_actions`` lists them in.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from parlour.games.conflict.pieces import TYPES

END: Final = 0
ACTIVATE: Final = 1
ROLL: Final = 32
MOVE: Final = 128

ROLLS: Final = tuple(ROLL + (a - 1) * 6 + (b - 1) for a in range(1, 7) for b in range(a, 7))
"""The 21 outcomes of the chance event, ``roll 1-1`` first (CON-61)."""
ROLL_ODDS: Final = tuple(
    (ROLL + (a - 1) * 6 + (b - 1), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)
"""Each outcome with its probability: 1/36 for a double, 2/36 otherwise."""


def roll_action(a: int, b: int) -> int:
    low, high = min(a, b), max(a, b)
    return ROLL + (low - 1) * 6 + (high - 1)


def activate_action(seat: int, kind: int) -> int:
    """``activate TYPE@SEAT`` (seat 0…3)."""
    return ACTIVATE + seat * TYPES + kind


def move_action(size: int, square: int, die: int, final: int) -> int:
    """Moves the piece on ``square`` with ``die``, its walked path ending on ``final``."""
    return MOVE + (square * 6 + die - 1) * size + final


def enter_action(size: int, seat: int, kind: int, die: int, final: int) -> int:
    """Enters an available piece of ``seat`` (0…3) and ``kind`` from its seat's base."""
    return MOVE + ((size + seat * TYPES + kind) * 6 + die - 1) * size + final


class Decision(NamedTuple):
    """An action taken apart. ``kind`` is ``"end"``, ``"activate"``, ``"roll"``, ``"move"`` or
    ``"enter"``; ``code`` the piece code of an activation or entry, ``square`` the piece's square
    for a move, ``die`` and ``final`` for moves and entries, ``dice`` for a roll."""

    kind: str
    code: int = -1
    square: int = -1
    die: int = 0
    final: int = -1
    dice: tuple[int, int] = (0, 0)


def decode(action: int, size: int) -> Decision | None:
    """The decision an action stands for on a board of ``size`` squares; ``None`` if none."""
    if action == END:
        return Decision("end")
    if ACTIVATE <= action < ACTIVATE + 4 * TYPES:
        return Decision("activate", code=action - ACTIVATE)
    if ROLL <= action < ROLL + 36:
        a, b = divmod(action - ROLL, 6)
        return Decision("roll", dice=(a + 1, b + 1)) if a <= b else None
    if action < MOVE:
        return None
    rest, final = divmod(action - MOVE, size)
    source, die = divmod(rest, 6)
    if source < size:
        return Decision("move", square=source, die=die + 1, final=final)
    if source < size + 4 * TYPES:
        return Decision("enter", code=source - size, die=die + 1, final=final)
    return None
