"""Lines of Action's board: eight rows of ``b`` (black), ``w`` (white) or ``-`` from row 8 down,
from the view's ``content.position.board``; the last move from ``content.last_move``."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from parlour.engine import JSONDict
from parlour.tui.board.drawing import Cell, Drawing, split_square, square_name

SIZE = 8
LIGHT = Style(bgcolor="rgb(222,196,150)")
DARK = Style(bgcolor="rgb(176,130,88)")
PIECES = {"b": ("●", "rgb(10,10,10)"), "w": ("○", "rgb(255,255,255)")}
"""Black is a filled disc, white a ring: told apart without colour too."""


def _board(view: JSONDict) -> list[str]:
    board: list[str] = view["content"]["position"]["board"]
    return board


class LoaDrawing(Drawing):
    title = "Lines of Action"

    def grid(self, view: JSONDict) -> tuple[int, int]:
        return SIZE, SIZE

    def square(self, view: JSONDict, column: int, row: int) -> str | None:
        return square_name(column, SIZE - row)

    def place(self, view: JSONDict, square: str) -> tuple[int, int]:
        column, rank = split_square(square)
        return column, SIZE - rank

    def row_label(self, view: JSONDict, row: int) -> str:
        return str(SIZE - row)

    def cell(self, view: JSONDict, square: str | None, column: int, row: int) -> Cell:
        ground = LIGHT if (column + row) % 2 == 0 else DARK
        letter = _board(view)[row][column]
        if letter in PIECES:
            glyph, colour = PIECES[letter]
            return Cell(glyph, ground + Style(color=colour, bold=True), empty=False)
        return Cell(" ", ground)

    def last_move(self, view: JSONDict) -> list[str]:
        move = view["content"].get("last_move")
        if not move:
            return []
        return [move["from"], move["to"]]

    def taken(self, view: JSONDict) -> list[str]:
        move = view["content"].get("last_move")
        return [move["to"]] if move and move.get("capture") else []

    def move_text(self, view: JSONDict, squares: list[str]) -> str | None:
        return "-".join(squares)

    def narrate(self, view: JSONDict) -> list[str]:
        move = view["content"].get("last_move")
        if not move or not move.get("capture"):
            return []
        mover = _board(view)[self.place(view, move["to"])[1]][self.place(view, move["to"])[0]]
        taken = "white" if mover == "b" else "black"
        return [f"A {taken} piece is captured on {move['to']}."]

    def status(self, view: JSONDict) -> list[Text]:
        board = "".join(_board(view))
        limit = view["content"].get("move_limit")
        plies = view["content"]["position"]["plies"]
        counts = Text(f"Pieces: black {board.count('b')}, white {board.count('w')}")
        moves = Text(f"Ply {plies}" + (f" of {limit}" if limit else ""))
        return [counts, moves]

    def seat_mark(self, seat: int, view: JSONDict) -> str:
        return ("●", "○")[seat]

    def first_square(self, view: JSONDict) -> str:
        return "d4"


DRAWING = LoaDrawing()
