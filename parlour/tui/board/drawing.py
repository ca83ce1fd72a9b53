"""What a game's board module gives the generic board: its grid of squares, how each looks, what
its view says happened, and which squares a player picks for an action.

A game's module in this package is found by the game's name (``drawing_for``) and reads only the
view JSON (``state.view(seat)``), as the browser's boards do; it never imports the game.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

from rich.style import Style
from rich.text import Text

from parlour.engine import Game, JSONDict, State
from parlour.tui.board.picking import from_to

FILES = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Cell:
    """One square as drawn: ``glyph`` (one or two characters) on ``style``'s colours."""

    glyph: str
    style: Style
    empty: bool = True
    """Nothing stands there: a destination mark may take the glyph's place."""


class Drawing:
    """The board of a game with squares named file then rank (``a1``); subclasses say the rest."""

    cell_width = 3
    """Characters a square takes on the screen."""
    title = ""
    tells_moves = False
    """The view's events tell each move themselves (the board says no "X plays ...")."""

    def grid(self, view: JSONDict) -> tuple[int, int]:
        """Columns and rows of the board drawn for ``view``."""
        raise NotImplementedError

    def square(self, view: JSONDict, column: int, row: int) -> str | None:
        """The square drawn at ``column``, ``row`` (from the top left), ``None`` for a gap. By
        default rank 1 is the top row, as Biloba and Conflict write their boards."""
        return square_name(column, row + 1)

    def place(self, view: JSONDict, square: str) -> tuple[int, int]:
        """Where ``square`` is drawn: column and row."""
        column, rank = split_square(square)
        return column, rank - 1

    def column_label(self, view: JSONDict, column: int) -> str:
        return FILES[column]

    def row_label(self, view: JSONDict, row: int) -> str:
        return str(row + 1)

    def cell(self, view: JSONDict, square: str | None, column: int, row: int) -> Cell:
        raise NotImplementedError

    def last_move(self, view: JSONDict) -> list[str]:
        """The squares of the last move, to mark."""
        return []

    def taken(self, view: JSONDict) -> list[str]:
        """Squares where the last action took something (captures, takeovers)."""
        return []

    def route(self, parts: JSONDict) -> tuple[str, ...]:
        """The squares a player picks for an action with these parts."""
        return from_to(parts)

    def group(self, parts: JSONDict) -> str:
        """What an action moves, where one square may start actions of several things ("" if
        the square says it all)."""
        return ""

    def move_text(self, view: JSONDict, squares: list[str]) -> str | None:
        """The squares a person picked, as the game's notation writes such a move (to ask the
        engine why it is not legal); ``None`` where the notation needs more than squares."""
        return None

    def label(self, text: str, parts: JSONDict) -> str:
        """An action in the numbered list."""
        return text

    def warning(self, view: JSONDict, parts: JSONDict) -> str | None:
        """What to confirm before an action with these parts is played, if anything."""
        return None

    def narrate(self, view: JSONDict) -> list[str]:
        """What the last action brought about beyond the move itself, in words (captures...)."""
        return []

    def status(self, view: JSONDict) -> list[Text]:
        """Lines for the side panel: counts, dice, rows of pieces."""
        return []

    def seat_style(self, seat: int, view: JSONDict) -> Style:
        return Style(bold=True)

    def seat_mark(self, seat: int, view: JSONDict) -> str:
        """The glyph of the seat's pieces, shown beside its name."""
        return ""

    def first_square(self, view: JSONDict) -> str:
        """Where the cursor starts."""
        columns, rows = self.grid(view)
        square = self.square(view, columns // 2, rows // 2)
        return square if square is not None else "a1"


def square_name(column: int, rank: int) -> str:
    return f"{FILES[column]}{rank}"


def split_square(square: str) -> tuple[int, int]:
    """``c12`` → (2, 12): the file's index and the rank."""
    return FILES.index(square[0]), int(square[1:])


def drawing_for(game: Game[State]) -> Drawing | None:
    """The board module of ``game`` in this package (named after the game), if it has one."""
    name = f"{__package__}.{game.info.name}"
    if importlib.util.find_spec(name) is None:
        return None
    module: Any = importlib.import_module(name)
    drawing: Drawing = module.DRAWING
    return drawing
