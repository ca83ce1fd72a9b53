"""Lines of Action's notation: square names and moves as text, both ways (LOA-3 to LOA-5).

Squares are numbered a1 = 0, b1 = 1, …, h8 = 63 (LOA-3). A move is the action ``from * 64 + to``,
so sorting actions gives the canonical order; the pass is ``PASS``. A move is written ``b1-d3``;
a capture may be written ``c1xa3`` (LOA-4).
"""

from __future__ import annotations

import re
from typing import Final

from parlour.engine import Action, NotationError

FILES: Final = "abcdefgh"
PASS: Final = 64 * 64
"""The pass (LOA-5): only legal when the side to move has no move."""

_MOVE_TEXT: Final = re.compile(r"([a-h][1-8])([-x])([a-h][1-8])")


SQUARE_NAMES: Final = tuple(FILES[square % 8] + str(square // 8 + 1) for square in range(64))
"""``a1`` … ``h8`` by square number (worked out once: every legal list a server sends names them)."""


def square_name(square: int) -> str:
    return SQUARE_NAMES[square]


def parse_square(text: str) -> int:
    """``d3`` → 19; raises ``NotationError`` for anything that is not a square a1–h8."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise NotationError(f"not a square: {text!r} (squares are a1 to h8)")
    return FILES.index(text[0]) + 8 * (int(text[1]) - 1)


def move_action(origin: int, target: int) -> Action:
    return origin * 64 + target


def action_text(action: Action) -> str:
    """``b1-d3`` or ``pass``; a capture is written with ``-`` like any move (LOA-4)."""
    if action == PASS:
        return "pass"
    if not 0 <= action < PASS:  # a number that is no action (play() says so in its refusal)
        raise NotationError(f"action number {action} is not a move of Lines of Action")
    return f"{SQUARE_NAMES[action >> 6]}-{SQUARE_NAMES[action & 63]}"


def read_action(text: str) -> tuple[Action, bool]:
    """The action a text names, and whether it was written as a capture (``c1xa3``).

    Says nothing of legality; ``NotationError`` if the text is not a move or ``pass``."""
    cleaned = text.strip().lower()
    if cleaned == "pass":
        return PASS, False
    match = _MOVE_TEXT.fullmatch(cleaned)
    if match is None:
        raise NotationError(f"not a move: {text.strip()!r} (write a move as FROM-TO, e.g. b1-d3)")
    return move_action(parse_square(match[1]), parse_square(match[3])), match[2] == "x"
