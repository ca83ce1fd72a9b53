"""Biloba's board: nine rows from row 1 (orange's side) down, from the view's
``content.position.board``: ``#`` off the board, ``*`` the empty centre, ``.`` a free tile, a pawn
``O B R G`` (orange, blue, red, green; each shown by its letter too, so colour is not the only
cue). A move through the centre is picked as the player makes it: the pawn, e5, then the tile it
goes on to; a replacement as the pending pawn, then the emptied tile it fills."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from parlour.engine import JSONDict
from parlour.tui.board.drawing import Cell, Drawing, square_name
from parlour.tui.board.picking import from_to

SIZE = 9
CENTRE = "e5"
TILE = Style(bgcolor="rgb(214,196,160)")
CENTRE_TILE = Style(bgcolor="rgb(150,190,110)")
PAWNS = {
    "O": "rgb(200,90,0)",
    "B": "rgb(30,80,190)",
    "R": "rgb(200,30,30)",
    "G": "rgb(20,120,50)",
}
LETTERS = "OBRG"


def _position(view: JSONDict) -> JSONDict:
    position: JSONDict = view["content"]["position"]
    return position


class BilobaDrawing(Drawing):
    title = "Biloba"

    def grid(self, view: JSONDict) -> tuple[int, int]:
        return SIZE, SIZE

    def square(self, view: JSONDict, column: int, row: int) -> str | None:
        if _position(view)["board"][row][column] == "#":
            return None
        return square_name(column, row + 1)

    def cell(self, view: JSONDict, square: str | None, column: int, row: int) -> Cell:
        letter = _position(view)["board"][row][column]
        if square is None:
            return Cell(" ", Style())
        ground = CENTRE_TILE if square == CENTRE else TILE
        if letter in PAWNS:
            return Cell(letter, ground + Style(color=PAWNS[letter], bold=True), empty=False)
        return Cell("*" if square == CENTRE else "·", ground + Style(color="rgb(120,100,70)"))

    def last_move(self, view: JSONDict) -> list[str]:
        move: str | None = view["content"].get("last_move")
        if not move:
            return []
        return move.replace(">", "-").split("-")  # d4-e5-f6, f4>g4

    def taken(self, view: JSONDict) -> list[str]:
        events = view["content"].get("events", [])
        return [tile for event in events if event["kind"] == "capture" for tile in event["tiles"]]

    def route(self, parts: JSONDict) -> tuple[str, ...]:
        """A move through the centre stops on e5 (BIL-17, BIL-18): the path is picked square by square."""
        path = parts.get("path")
        if isinstance(path, list) and path:
            return tuple(path)
        return from_to(parts)

    def move_text(self, view: JSONDict, squares: list[str]) -> str | None:
        joint = ">" if _position(view).get("pending") else "-"  # a replacement: f4>g4
        return joint.join(squares)

    def narrate(self, view: JSONDict) -> list[str]:
        names: list[str] = view["seats"]
        told = []
        for event in view["content"].get("events", []):
            name = names[event["seat"]] if event["seat"] < len(names) else f"Seat {event['seat']}"
            tiles = " ".join(event.get("tiles", []))
            if event["kind"] == "capture":
                told.append(f"{name} captures {tiles}.")
            elif event["kind"] == "eliminated":
                told.append(f"{name} is eliminated" + (f": {tiles} leave the board." if tiles else "."))
            elif event["kind"] == "retired":
                told.append(f"{name}'s pawns leave the board.")
            elif event["kind"] == "pass":
                told.append(f"{name} passes.")
        pending = _position(view).get("pending")
        if pending:
            told.append("Replacement: a flanking pawn moves into the emptied tile.")
        return told

    def status(self, view: JSONDict) -> list[Text]:
        names: list[str] = view["seats"]
        counts = view["content"].get("pawn_counts", [])
        line = Text("Pawns: ")
        line.append(", ".join(f"{names[seat]} {count}" for seat, count in enumerate(counts)))
        lines = [line, Text(f"Turn {view['content'].get('turn', 1)}")]
        pending = _position(view).get("pending")
        if pending:
            pawns = " ".join(sorted(pending))
            lines.append(Text(f"Replacement: pick one of {pawns}, then the tile.", style="bold"))
        return lines

    def seat_style(self, seat: int, view: JSONDict) -> Style:
        return Style(color=PAWNS[LETTERS[seat]], bold=True)

    def seat_mark(self, seat: int, view: JSONDict) -> str:
        return LETTERS[seat]

    def first_square(self, view: JSONDict) -> str:
        return CENTRE


DRAWING = BilobaDrawing()
