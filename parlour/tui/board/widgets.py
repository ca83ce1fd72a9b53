"""The board's widgets: the squares (scrolled, and drawn bigger where there is room), the
numbered choices, the log of what happened, and the frame that hears the terminal's resizes."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.containers import Vertical
from textual.strip import Strip
from textual.widget import Widget

from parlour.tui.board.drawing import Cell, Drawing

if TYPE_CHECKING:
    from parlour.tui.board.app import BoardApp

ZOOMED = (6, 3)
"""A square's columns and lines in a terminal with room for the board drawn bigger."""

PICKED = Style(bgcolor="rgb(235,190,40)", color="rgb(0,0,0)")
TARGET = Style(bgcolor="rgb(90,170,90)")
CAPTURE = Style(bgcolor="rgb(210,80,70)")
TAKEN = Style(color="rgb(200,0,0)", bold=True)
LAST = Style(bgcolor="rgb(110,150,210)")
START = Style(underline=True)
PATH = Style(underline=True, bold=True)
HINT = Style(bgcolor="rgb(190,110,210)")
CURSOR = Style(reverse=True)
LABEL = Style(dim=True)



class BoardView(Widget):
    """The squares, scrolled so that the cursor is always in view."""

    DEFAULT_CSS = "BoardView { width: auto; height: 1fr; }"

    def __init__(self, board: BoardApp) -> None:
        super().__init__()
        self.board = board
        self.left = 0
        self.top = 0
        self.zoom = 1
        """2: every square drawn bigger, in a terminal with room for the board so."""

    @property
    def drawing(self) -> Drawing:
        return self.board.drawing

    def label_width(self) -> int:
        view = self.board.view
        rows = self.drawing.grid(view)[1]
        return max(len(self.drawing.row_label(view, row)) for row in range(rows)) + 1

    def cell_size(self, zoom: int | None = None) -> tuple[int, int]:
        """Columns and lines a square takes: the game's own width, or 6 by 3 zoomed in."""
        zoom = self.zoom if zoom is None else zoom
        return (self.drawing.cell_width, 1) if zoom == 1 else (ZOOMED[0], ZOOMED[1])

    def natural_size(self, zoom: int) -> tuple[int, int]:
        """The width and height the whole board takes at ``zoom``."""
        columns, rows = self.drawing.grid(self.board.view)
        width, height = self.cell_size(zoom)
        return self.label_width() + columns * width, 1 + rows * height

    def shown(self) -> tuple[int, int]:
        """Columns and rows that fit."""
        columns, rows = self.drawing.grid(self.board.view)
        width, height = self.cell_size()
        across = max(1, (self.size.width - self.label_width()) // width)
        down = max(1, (self.size.height - 1) // height)
        return min(columns, across), min(rows, down)

    def follow(self) -> None:
        """Scrolls so that the cursor's square is in view."""
        column, row = self.drawing.place(self.board.view, self.board.cursor)
        across, down = self.shown()
        columns, rows = self.drawing.grid(self.board.view)
        self.left = min(max(self.left, column - across + 1), column, columns - across)
        self.top = min(max(self.top, row - down + 1), row, rows - down)
        self.left, self.top = max(self.left, 0), max(self.top, 0)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        self.follow()
        if y == 0:
            return Strip([Segment(self.header(), LABEL)]).adjust_cell_length(width)
        cell_width, cell_height = self.cell_size()
        row, line = self.top + (y - 1) // cell_height, (y - 1) % cell_height
        across, down = self.shown()
        if row - self.top >= down:
            return Strip.blank(width)
        middle = line == cell_height // 2  # the glyph's line; the others are the square's colour
        view = self.board.view
        lw = self.label_width()
        label = self.drawing.row_label(view, row) if middle else ""
        segments = [Segment(label.rjust(lw - 1) + " ", LABEL)]
        marks = self.board.marks
        for column in range(self.left, self.left + across):
            square = self.drawing.square(view, column, row)
            cell = self.drawing.cell(view, square, column, row)
            text, style = self.marked(cell, marks.get(square, set()) if square else set(), cell_width)
            if not middle:
                text = " " * cell_width
            if square is not None and square == self.board.cursor:
                style = style + CURSOR
            segments.append(Segment(text, style))
        return Strip(segments).adjust_cell_length(width)

    def header(self) -> str:
        view = self.board.view
        across = self.shown()[0]
        width = self.cell_size()[0]
        labels = "".join(self.drawing.column_label(view, c).center(width)
                         for c in range(self.left, self.left + across))
        return " " * self.label_width() + labels

    def marked(self, cell: Cell, marks: set[str], width: int) -> tuple[str, Style]:
        """A square's text and style with its marks: the picked piece in brackets, a destination
        as a dot (or in parentheses on a piece it takes), the hint in braces, a square emptied by
        a capture as a cross, the last move by colour (the side panel says it in words)."""
        glyph, style, empty = cell.glyph, cell.style, cell.empty
        left, right = " ", " "
        if "last" in marks:
            style = style + LAST
        if "taken" in marks and empty:
            glyph = "×" + glyph[1:] if len(glyph) > 1 else "×"
            style = style + TAKEN
        if "hint" in marks:
            style = style + HINT
            left, right = "{", "}"
        if "path" in marks:
            style = style + PATH
        if "start" in marks:
            style = style + START
        if "target" in marks:
            if empty:
                glyph = "•" + glyph[1:] if len(glyph) > 1 else "•"
                style = style + TARGET
            else:
                style = style + CAPTURE
                left, right = "(", ")"
        if "picked" in marks:
            style = style + PICKED
            left, right = "[", "]"
        if width >= 5:
            return f"{left}{glyph.center(3)}{right}".center(width), style
        if width >= 3:
            return f"{left}{glyph.center(width - 2)}{right}", style
        return glyph.ljust(width)[:width], style

    def on_click(self, event: events.Click) -> None:
        if event.y < 1:
            return
        width, height = self.cell_size()
        column = self.left + (event.x - self.label_width()) // width
        row = self.top + (event.y - 1) // height
        columns, rows = self.drawing.grid(self.board.view)
        if event.x < self.label_width() or not (0 <= column < columns and 0 <= row < rows):
            return
        square = self.drawing.square(self.board.view, column, row)
        if square is not None:
            self.board.cursor = square
            self.board.action_pick()


class Choices(Widget):
    """The numbered actions left to choose (also by a click on one)."""

    DEFAULT_CSS = "Choices { height: auto; }"

    def __init__(self, board: BoardApp) -> None:
        super().__init__()
        self.board = board
        self.lines: list[str] = []

    def show(self, lines: list[str]) -> None:
        self.lines = lines
        self.styles.height = len(lines)
        self.refresh(layout=True)

    def render_line(self, y: int) -> Strip:
        text = self.lines[y] if y < len(self.lines) else ""
        return Strip([Segment(text[: self.size.width])]).adjust_cell_length(self.size.width)

    def on_click(self, event: events.Click) -> None:
        self.board.action_choose(event.y + 1)


class Log(Widget):
    """What happened, newest at the bottom, as many lines as fit."""

    DEFAULT_CSS = "Log { height: 1fr; }"

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[str] = []

    def add(self, text: str) -> None:
        self.entries.append(text)
        self.refresh()

    def shown(self) -> list[str]:
        width = max(10, self.size.width)
        lines: list[str] = []
        for entry in self.entries[-self.size.height - 1:]:
            lines += textwrap.wrap(entry, width, subsequent_indent="  ") or [""]
        return lines[-self.size.height:] if self.size.height else []

    def render_line(self, y: int) -> Strip:
        lines = self.shown()
        text = lines[y] if y < len(lines) else ""
        return Strip([Segment(text)]).adjust_cell_length(self.size.width)


class Frame(Vertical):
    """The whole screen: its size is the terminal's, so it tells the board of every resize."""

    DEFAULT_CSS = "Frame { width: 1fr; height: 1fr; }"

    def __init__(self, board: BoardApp) -> None:
        super().__init__()
        self.board = board

    def on_resize(self, event: events.Resize) -> None:
        self.board.fit()
