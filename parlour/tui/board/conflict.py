"""Conflict's map: terrain, the bases and mines in their seat's colour, pieces by type letter and
seat number (CON-69: colour is never the only cue), from the view's ``content.board`` and
``content.position``; the dice, the available and reserve rows and the controllers beside it
(CON-67). A move is picked as the piece (or the base, to enter one), then where it goes; which die
or which piece, when several would go there, from the numbered list."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from parlour.engine import JSONDict
from parlour.tui.board.drawing import Cell, Drawing

COLOURS = ("rgb(215,40,30)", "rgb(240,130,20)", "rgb(20,140,50)", "rgb(225,195,20)")
"""Seats 1 to 4: red, orange, green, yellow."""
GROUND = {
    ".": Style(bgcolor="rgb(200,165,105)"),
    "~": Style(bgcolor="rgb(90,150,210)"),
    "#": Style(bgcolor="rgb(120,120,120)"),
    "+": Style(bgcolor="rgb(200,165,105)"),
}
TYPE_NAMES = {"C": "cannon", "G": "aagun", "A": "airplane", "S": "ship", "U": "submarine"}
TYPE_ORDER = "CGASU"
KEY = "  ".join(f"{letter} {TYPE_NAMES[letter]}" for letter in TYPE_ORDER)
"""The letters' meaning, under the rows that write pieces by letter (a new player needs it)."""


def _board(view: JSONDict) -> JSONDict:
    board: JSONDict = view["content"]["board"]
    return board


def _position(view: JSONDict) -> JSONDict:
    position: JSONDict = view["content"]["position"]
    return position


def _pieces(view: JSONDict) -> dict[str, tuple[int, str]]:
    """Square → (seat 1-4, type letter)."""
    found = {}
    for entry in _position(view)["pieces"]:
        code, square = entry.split()
        found[square] = (int(code[0]), code[1])
    return found


def _sorted(kinds: str) -> str:
    """A row's type letters in the rules' order: cannon, AA gun, airplane, ship, submarine."""
    return "".join(sorted(kinds, key=TYPE_ORDER.index))


def _colour(seat: int) -> str:
    return COLOURS[(seat - 1) % len(COLOURS)]


def _name(seat: int) -> str:
    return ("Red", "Orange", "Green", "Yellow")[seat - 1]


class ConflictDrawing(Drawing):
    title = "Conflict"
    cell_width = 2
    tells_moves = True

    def grid(self, view: JSONDict) -> tuple[int, int]:
        board = _board(view)
        return board["cols"], board["rows"]

    def cell(self, view: JSONDict, square: str | None, column: int, row: int) -> Cell:
        board = _board(view)
        ground = board["terrain"][row][column]
        style = GROUND.get(ground, GROUND["#"])
        assert square is not None
        piece = _pieces(view).get(square)
        if piece is not None:
            seat, kind = piece
            return Cell(f"{kind}{seat}", style + Style(color=_colour(seat), bold=True), empty=False)
        bases = {where: int(seat) for seat, where in board["bases"].items()}
        # A base or a mine keeps its glyph when marked as a destination (it is what happens there).
        if square in bases:
            owner = bases[square]
            return Cell(f"+{owner}", style + Style(color=_colour(owner), bold=True), empty=False)
        mine = board["mines"].get(square)
        if mine is not None:
            glyph = "*" if ground == "." else "o"
            return Cell(f"{glyph}{mine}", style + Style(color=_colour(mine), bold=True), empty=False)
        glyph = {"~": "~ ", "#": "##"}.get(ground, ". ")
        return Cell(glyph, style + Style(color="rgb(60,60,60)"))

    def _events(self, view: JSONDict) -> list[JSONDict]:
        events: list[JSONDict] = view["content"].get("event_data", [])
        return events

    def last_move(self, view: JSONDict) -> list[str]:
        moves = [event for event in self._events(view) if event["kind"] == "move"]
        if not moves:
            return []
        move = moves[-1]
        start = move["from"] or _board(view)["bases"][str(move["seat"])]
        return [start, move["to"]]

    def taken(self, view: JSONDict) -> list[str]:
        squares = []
        for event in self._events(view):
            if event["kind"] in ("capture", "mine"):
                squares.append(event["square"])
            elif event["kind"] == "takeover":
                squares.append(event["base"])
        return squares

    def group(self, parts: JSONDict) -> str:
        """A base square starts the moves of a piece standing on it and the entries of every
        available type: one group each."""
        piece = TYPE_NAMES.get(str(parts.get("piece", " "))[-1], "piece")
        if parts["kind"] == "enter":
            return f"enter {'an' if piece[0] in 'aeiou' else 'a'} {piece}"
        if parts["kind"] == "move":
            return f"the {piece} on {parts['from']}"
        return ""

    def label(self, text: str, parts: JSONDict) -> str:
        if parts["kind"] == "end":
            return "end the roll"
        if parts["kind"] == "enter":
            piece = TYPE_NAMES.get(str(parts.get("piece", " "))[-1], "piece")
            return f"enter {'an' if piece[0] in 'aeiou' else 'a'} {piece}, die {parts['die']}"
        if "die" in parts:
            return f"die {parts['die']}: {' '.join(parts.get('path', []))}"
        return text

    def narrate(self, view: JSONDict) -> list[str]:
        told: list[str] = view["content"].get("events", [])
        return list(told)

    def status(self, view: JSONDict) -> list[Text]:
        position = _position(view)
        lines = [self._dice(position)]
        controllers: list[int] = view["content"].get("controllers", [1, 2, 3, 4])
        for seat in position["seats"]:
            lines.append(self._row(seat, position, controllers))
        # The rows above write pieces by letter: a new player needs the key.
        lines.append(Text(KEY, style="dim"))
        lines.append(Text(f"Roll {position.get('rolls', 0)}", style="dim"))
        return lines

    @staticmethod
    def _dice(position: JSONDict) -> Text:
        dice = position.get("dice")
        if not dice:
            return Text("Dice: not rolled yet")
        unused = list(position.get("unused", []))
        text = Text("Dice: ")
        for value in dice:
            if value in unused:
                unused.remove(value)
                text.append(f"[{value}]", Style(bold=True))
            else:
                text.append(f" {value}·", Style(dim=True))  # used
            text.append(" ")
        if position.get("activation"):
            text.append(" 7: a reserve piece may be activated", Style(italic=True))
        return text

    @staticmethod
    def _row(seat: int, position: JSONDict, controllers: list[int]) -> Text:
        """A player's available pieces (of every seat it controls) and its reserves (CON-67)."""
        text = Text()
        out = position.get("out", {}).get(str(seat))
        text.append(f"{_name(seat)}", Style(color=_colour(seat), bold=True))
        if out:
            text.append(f" out: {out}")
            return text
        controlled = [s for s in range(1, 5) if controllers[s - 1] == seat]
        def listed(row: str) -> str:
            """The row's type letters, by seat where the player controls more than its own."""
            groups = [(s, _sorted(position[row].get(str(s), ""))) for s in controlled]
            if len(groups) == 1:
                return groups[0][1] or "-"
            return " ".join(f"{s}:{kinds}" for s, kinds in groups if kinds) or "-"

        links = " ".join(f"{s}→{seat}" for s in controlled if s != seat)
        text.append(f" {links}" if links else "")
        text.append(f" {listed('available')} · reserve {listed('reserve')}")
        return text

    def seat_style(self, seat: int, view: JSONDict) -> Style:
        return Style(color=_colour(_position(view)["seats"][seat]), bold=True)

    def seat_mark(self, seat: int, view: JSONDict) -> str:
        return str(_position(view)["seats"][seat])

    def first_square(self, view: JSONDict) -> str:
        seats = _position(view)["seats"]
        return str(_board(view)["bases"][str(seats[0])])

    def warning(self, view: JSONDict, parts: JSONDict) -> str | None:
        """CON-68: a move whose walk ends on a hostile mine is confirmed first."""
        mine = _board(view)["mines"].get(parts.get("to"))
        seat = parts.get("seat")
        controllers: list[int] = view["content"].get("controllers", [1, 2, 3, 4])
        if mine is None or seat is None or controllers[mine - 1] == controllers[seat - 1]:
            return None
        return f"The walk ends on {_name(mine)}'s mine on {parts['to']}: the piece is destroyed."


DRAWING = ConflictDrawing()
