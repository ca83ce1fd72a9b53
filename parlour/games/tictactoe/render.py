"""Tic-tac-toe as text for a terminal: row 3 at the top, as the squares are named (TTT-1)."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.tictactoe.notation import FILES


def board_rows(marks: Sequence[int]) -> list[str]:
    """Rows 3 down to 1 as strings of ``x``, ``o`` and ``-`` (the position's JSON form)."""
    x, o = marks
    rows = []
    for row in range(2, -1, -1):
        cells = []
        for column in range(3):
            bit = 1 << (3 * row + column)
            cells.append("x" if x & bit else "o" if o & bit else "-")
        rows.append("".join(cells))
    return rows


def render_board(marks: Sequence[int], footer: list[str]) -> str:
    """The board with row numbers and file letters, then the ``footer`` lines."""
    lines = [f" {number}  " + " ".join(row) for number, row in zip("321", board_rows(marks), strict=True)]
    lines.append("    " + " ".join(FILES))
    return "\n".join(lines + footer)
