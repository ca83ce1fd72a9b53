"""Tic-tac-toe's notation (TTT-1, TTT-3): a move is the name of the square it marks, ``b2``."""

from __future__ import annotations

from typing import Final

from parlour.engine import NotationError

FILES: Final = "abc"
ROWS: Final = "123"
SQUARES: Final = 9


def square_name(square: int) -> str:
    """0 → ``a1``, 4 → ``b2``, 8 → ``c3``: files a–c left to right, rows 1–3 bottom to top;
    ``NotationError`` for a number that is no square."""
    if not 0 <= square < SQUARES:
        raise NotationError(f"action number {square} is not a square of tic-tac-toe")
    return FILES[square % 3] + ROWS[square // 3]


def parse_square(text: str) -> int:
    """``b2`` → 4 (case and spaces around it do not matter); ``NotationError`` for anything else."""
    cleaned = text.strip().lower()
    if len(cleaned) != 2 or cleaned[0] not in FILES or cleaned[1] not in ROWS:
        raise NotationError(f"not a square: {text.strip()!r} (a move is a square, a1 to c3, e.g. b2)")
    return FILES.index(cleaned[0]) + 3 * ROWS.index(cleaned[1])
