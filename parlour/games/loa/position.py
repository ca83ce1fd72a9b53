"""A Lines of Action position in its JSON form, read and written here, and the set-up (LOA-2).

The form (what ``Game.new(start=…)`` accepts and ``position_json`` gives): ``board``, eight rows
of ``b``, ``w`` and ``-``, row 8 first as in a dump (LOA-72); ``to_move``, ``black`` or ``white``;
``plies``, the plies played so far (the move limit counts them, LOA-16).
"""

from __future__ import annotations

from typing import Any, Final

from parlour.engine import FormatError, JSONDict

BLACK: Final = 0
WHITE: Final = 1
SIDE_NAMES: Final = ("black", "white")

INITIAL_BLACK: Final = sum(1 << c for c in range(1, 7)) | sum(1 << (56 + c) for c in range(1, 7))
"""LOA-2: black on b1–g1 and b8–g8."""
INITIAL_WHITE: Final = sum(1 << (8 * r) for r in range(1, 7)) | sum(1 << (8 * r + 7) for r in range(1, 7))
"""LOA-2: white on a2–a7 and h2–h7."""


def board_rows(black: int, white: int) -> list[str]:
    """Rows 8 down to 1 as strings of ``b``, ``w`` and ``-`` (the dump's characters)."""
    cells = ["-"] * 64
    for pieces, mark in ((black, "b"), (white, "w")):
        while pieces:  # only the pieces' squares, lowest first (a view is made at every update)
            low = pieces & -pieces
            cells[low.bit_length() - 1] = mark
            pieces ^= low
    return ["".join(cells[8 * row:8 * row + 8]) for row in range(7, -1, -1)]


def write_position(black: int, white: int, turn: int, plies: int) -> JSONDict:
    return {"board": board_rows(black, white), "to_move": SIDE_NAMES[turn], "plies": plies}


def read_position(start: Any) -> tuple[int, int, int, int]:
    """Checks and reads a position in ``write_position`` form: (black, white, turn, plies)."""
    if not isinstance(start, dict):
        raise FormatError("a Lines of Action position must be a JSON object")
    rows = start.get("board")
    if not isinstance(rows, list) or len(rows) != 8:
        raise FormatError("a Lines of Action position needs 'board': 8 rows, row 8 first")
    black = white = 0
    for index, row in enumerate(rows):
        cells = row.replace(" ", "") if isinstance(row, str) else None
        if cells is None or len(cells) != 8 or set(cells) - set("bw-"):
            raise FormatError(f"row {8 - index} must be 8 of 'b', 'w' or '-', not {row!r}")
        for col, cell in enumerate(cells):
            bit = 1 << (8 * (7 - index) + col)
            if cell == "b":
                black |= bit
            elif cell == "w":
                white |= bit
    to_move = start.get("to_move", "black")
    if to_move not in SIDE_NAMES:
        raise FormatError(f"'to_move' must be 'black' or 'white', not {to_move!r}")
    plies = start.get("plies", 0)
    if isinstance(plies, bool) or not isinstance(plies, int) or plies < 0:
        raise FormatError(f"'plies' must be a whole number, not {plies!r}")
    return black, white, SIDE_NAMES.index(to_move), plies
