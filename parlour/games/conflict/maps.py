"""Conflict maps: the text format (CON-10, CON-11; read by ``parse_map``, written by ``Map.text``),
its validation (CON-12), the playability warnings (CON-13), the JSON form a match's view carries
for front ends to draw (``Map.json``) and the shipped maps
(``map_files/``: ``classic`` is CON-15's board, CON-72).

A square is an integer in reading order (CON-5): ``row * cols + col``, rows and columns from 0,
so sorting squares sorts them as the canonical notation compares them. Seats are 0…3 here
(seat 1 of the spec is 0).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Final

from parlour.engine import BoardProblem, Boards, FormatError, JSONDict

LAND, WATER, BLOCKED, BASE = 0, 1, 2, 3
"""Terrain of a square (CON-7). A base counts as both land and water."""
LEGEND: Final = {".": LAND, "~": WATER, "#": BLOCKED, "+": BASE}
GLYPHS: Final = ".~#+"

SEATS: Final = 4
MIN_COLS, MAX_COLS = 5, 26
MIN_ROWS, MAX_ROWS = 5, 99

_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]*")
_SIZE: Final = re.compile(r"([0-9]+)x([0-9]+)")
_SQUARE: Final = re.compile(r"([a-z])([1-9][0-9]*)")
_NAME_LINE: Final = re.compile(r"^name[ \t]+[^ \t;\r\n]+", re.MULTILINE)
_DIRECTIVES: Final = ("conflict-map", "name", "size", "terrain", "base", "mine")


@dataclass(frozen=True)
class Map:
    """A checked map. ``terrain[square]`` in reading order; ``bases[seat]`` and
    ``mines[seat]`` (two squares, in reading order) for seats 0…3; ``warnings`` are CON-13's."""

    name: str
    cols: int
    rows: int
    terrain: tuple[int, ...]
    bases: tuple[int, ...]
    mines: tuple[tuple[int, int], ...]
    warnings: tuple[str, ...]

    @property
    def size(self) -> int:
        return self.cols * self.rows

    def square_name(self, square: int) -> str:
        return square_name(self.cols, square)

    @cached_property
    def terrain_rows(self) -> tuple[str, ...]:
        """The terrain as rows of CON-10 glyphs, worked out once (every view carries them)."""
        terrain = "".join(GLYPHS[t] for t in self.terrain)
        return tuple(terrain[start:start + self.cols] for start in range(0, self.size, self.cols))

    def text(self) -> str:
        """The map in the format of CON-10 (what ``parse_map`` reads back)."""
        lines = ["conflict-map 1", f"name {self.name}", f"size {self.cols}x{self.rows}", "terrain"]
        for row in range(self.rows):
            start = row * self.cols
            lines.append("".join(GLYPHS[t] for t in self.terrain[start:start + self.cols]))
        lines.append("end")
        lines += [f"base {seat + 1} {self.square_name(square)}" for seat, square in enumerate(self.bases)]
        lines += [f"mine {seat + 1} {self.square_name(square)}"
                  for seat, squares in enumerate(self.mines) for square in squares]
        return "\n".join(lines) + "\n"

    def json(self) -> JSONDict:
        """The map as data for front ends (a match's view carries it): terrain rows in the glyphs
        of CON-10, bases by seat (1-4), mines by square, and CON-13's warnings."""
        return {
            "name": self.name,
            "cols": self.cols,
            "rows": self.rows,
            "terrain": list(self.terrain_rows),
            "bases": {str(seat + 1): self.square_name(square) for seat, square in enumerate(self.bases)},
            "mines": {
                self.square_name(square): seat + 1
                for seat, squares in enumerate(self.mines)
                for square in squares
            },
            "warnings": list(self.warnings),
        }


def square_name(cols: int, square: int) -> str:
    """CON-4: ``a1`` is the upper-left corner; rows count down from 1."""
    row, col = divmod(square, cols)
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_square(text: str, cols: int, rows: int) -> int | None:
    """The square ``text`` names (any case), or ``None`` if it is not a square of the board."""
    match = _SQUARE.fullmatch(text.lower())
    if match is None:
        return None
    col, row = ord(match[1]) - ord("a"), int(match[2]) - 1
    if col >= cols or row >= rows:
        return None
    return row * cols + col


def neighbours(cols: int, rows: int, square: int) -> list[int]:
    """CON-6: the up to 8 adjacent squares, in reading order."""
    row, col = divmod(square, cols)
    return [
        r * cols + c
        for r in range(max(row - 1, 0), min(row + 2, rows))
        for c in range(max(col - 1, 0), min(col + 2, cols))
        if (r, c) != (row, col)
    ]


# --- reading a map --------------------------------------------------------------------------------


class _Reader:
    """One pass over the lines of a map file, keeping what the checks after it need."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.last = len(self.lines) if self.lines[-1].strip() else len(self.lines) - 1
        """The number of the last line (a final newline does not start another line)."""
        self.seen: dict[str, int] = {}
        self.name = ""
        self.cols = self.rows = 0
        self.terrain: list[int] = []
        self.terrain_line = 0
        self.placed: list[tuple[str, int, str, str]] = []
        """``base`` and ``mine`` lines: (directive, line number, seat text, square text)."""

    def fail(self, line: int | None, problem: str, item: int | None = None) -> FormatError:
        """The error for ``line`` (``None``: the end of the file), citing CON-12's item or CON-10."""
        rule = f"CON-12 item {item}" if item is not None else "CON-10"
        where = f"line {line}" if line is not None else f"line {self.last} (end of file)"
        return FormatError(f"map {where}: {problem} ({rule})")

    def read(self) -> None:
        index = 0
        while index < len(self.lines):
            number = index + 1
            content = self.lines[index].split(";", 1)[0].strip()
            index += 1
            if not content:
                continue
            fields = content.split()
            directive = fields[0]
            if not self.seen:
                if directive != "conflict-map":
                    raise self.fail(number, f"the first directive must be 'conflict-map 1', not {content!r}",
                                    1)
                if fields[1:] != ["1"]:
                    raise self.fail(number, f"unsupported map format {content!r}: this reads "
                                    "'conflict-map 1'", 1)
            if directive not in _DIRECTIVES:
                raise self.fail(number, f"unknown directive {directive!r}", 1)
            if directive in self.seen and directive not in ("base", "mine"):
                first = self.seen[directive]
                raise self.fail(number, f"{directive!r} appears twice (first on line {first})", 1)
            self.seen.setdefault(directive, number)
            if directive == "terrain":
                index = self._terrain(fields, number, index)
            else:
                self._directive(directive, fields, number)
        if not self.seen:
            raise self.fail(None, "the map has no directives: it must begin with 'conflict-map 1'", 1)
        for needed in ("name", "size", "terrain"):
            if needed not in self.seen:
                raise self.fail(None, f"the map has no {needed!r} directive", 2)

    def _directive(self, directive: str, fields: list[str], number: int) -> None:
        if directive == "name":
            if len(fields) != 2 or not _NAME.fullmatch(fields[1]):
                raise self.fail(number, "'name' takes one identifier of a-z, 0-9 and '-', not starting "
                                "with '-'")
            self.name = fields[1]
        elif directive == "size":
            match = _SIZE.fullmatch(fields[1]) if len(fields) == 2 else None
            if match is None:
                written = " ".join(fields)
                raise self.fail(number, f"'size' takes COLSxROWS, for example 'size 20x20', not {written!r}",
                                2)
            cols, rows = int(match[1]), int(match[2])
            if not (MIN_COLS <= cols <= MAX_COLS and MIN_ROWS <= rows <= MAX_ROWS):
                raise self.fail(number, f"size {cols}x{rows} is out of range: {MIN_COLS} to {MAX_COLS} "
                                f"columns and {MIN_ROWS} to {MAX_ROWS} rows", 2)
            self.cols, self.rows = cols, rows
        elif directive in ("base", "mine"):
            if len(fields) != 3:
                raise self.fail(number, f"'{directive}' takes a seat and a square, for example "
                                f"'{directive} 1 e5'", 7)
            self.placed.append((directive, number, fields[1], fields[2]))

    def _terrain(self, fields: list[str], number: int, index: int) -> int:
        """Reads the block after ``terrain`` (no comments inside); returns the index after ``end``."""
        if len(fields) != 1:
            raise self.fail(number, "'terrain' takes nothing more: the block starts on the next line")
        if "size" not in self.seen:  # CON-12 item 2: a size after the terrain, or none
            raise self.fail(number, "'terrain' comes before 'size': the size must be known first", 2)
        self.terrain_line = number
        for row in range(self.rows):
            line_number = index + 1
            if index >= self.last:
                raise self.fail(None, f"the file ends inside the terrain block, after {row} of "
                                f"{self.rows} lines", 3)
            line = self.lines[index].rstrip()
            index += 1
            if line == "end":
                raise self.fail(line_number, f"the terrain block has {row} lines, not {self.rows}", 3)
            if len(line) != self.cols:
                raise self.fail(line_number, f"terrain line {row + 1} has {len(line)} characters, not "
                                f"{self.cols}", 3)
            for col, glyph in enumerate(line):
                if glyph not in LEGEND:
                    raise self.fail(line_number, f"terrain line {row + 1}, column {col + 1}: {glyph!r} is "
                                    "not one of . ~ # +", 3)
                self.terrain.append(LEGEND[glyph])
        line_number = index + 1
        if index >= self.last:
            raise self.fail(None, "the terrain block is not closed by 'end'", 3)
        closing = self.lines[index].split(";", 1)[0].strip()
        if closing != "end":
            found = self.lines[index].strip()
            raise self.fail(line_number, f"the terrain block has more than {self.rows} lines or is not "
                            f"closed by 'end' (found {found!r})", 3)
        return index + 1

    def places(self) -> tuple[list[int], list[list[int]]]:
        """CON-12 items 4 to 8: the bases and mines, checked against the terrain."""
        located = self._located()  # item 7 first
        plus = [square for square, t in enumerate(self.terrain) if t == BASE]
        if len(plus) != SEATS:
            raise self.fail(self.terrain_line, f"the terrain has {len(plus)} '+' squares, not 4", 4)
        bases: list[int] = [-1] * SEATS
        mines: list[list[int]] = [[] for _ in range(SEATS)]
        used: dict[int, int] = {}
        for directive, number, seat, square in located:
            if directive == "base":
                self._place_base(bases, used, number, seat, square)
            else:
                self._place_mine(mines, used, number, seat, square)
            used[square] = number
        for seat in range(SEATS):
            if bases[seat] < 0:
                raise self.fail(None, f"no 'base' line names seat {seat + 1}", 5)
        for seat in range(SEATS):
            if len(mines[seat]) != 2:
                raise self.fail(None, f"seat {seat + 1} has {len(mines[seat])} mines, not 2", 6)
        for directive, number, _, square in located:
            if directive == "base":
                self._check_shores(number, square)
        return bases, mines

    def _located(self) -> list[tuple[str, int, int, int]]:
        """CON-12 item 7: each ``base``/``mine`` line as (directive, line, seat 0…3, square)."""
        located: list[tuple[str, int, int, int]] = []
        for directive, number, seat_text, square_text in self.placed:
            if seat_text not in ("1", "2", "3", "4"):
                raise self.fail(number, f"seat {seat_text!r} is not 1, 2, 3 or 4", 7)
            cols, rows = self.cols, self.rows
            square = parse_square(square_text, cols, rows)
            if square is None:
                raise self.fail(number, f"{square_text!r} is not a square of the {cols}x{rows} board", 7)
            located.append((directive, number, int(seat_text) - 1, square))
        return located

    def _place_base(
        self, bases: list[int], used: dict[int, int], number: int, seat: int, square: int
    ) -> None:
        """CON-12 item 5: one base per seat, on a '+' square no other line names."""
        name = square_name(self.cols, square)
        if bases[seat] >= 0:
            raise self.fail(number, f"seat {seat + 1} has a second base", 5)
        if self.terrain[square] != BASE:
            raise self.fail(number, f"base {name} is not a '+' square", 5)
        if square in used:
            raise self.fail(number, f"base {name} is already named on line {used[square]}", 5)
        bases[seat] = square

    def _place_mine(
        self, mines: list[list[int]], used: dict[int, int], number: int, seat: int, square: int
    ) -> None:
        """CON-12 item 6: two mines per seat, on land or water, one a square."""
        name = square_name(self.cols, square)
        if len(mines[seat]) == 2:
            raise self.fail(number, f"seat {seat + 1} has a third mine", 6)
        if self.terrain[square] not in (LAND, WATER):
            raise self.fail(number, f"mine {name} is not on a '.' or '~' square", 6)
        if square in used:
            raise self.fail(number, f"{name} already holds a mine (line {used[square]})", 6)
        mines[seat].append(square)

    def _check_shores(self, number: int, square: int) -> None:
        """CON-12 item 8: a base touches land and water."""
        near = {self.terrain[n] for n in neighbours(self.cols, self.rows, square)}
        if not near & {LAND, BASE} or not near & {WATER, BASE}:
            kind = "land" if not near & {LAND, BASE} else "water"
            raise self.fail(number, f"base {square_name(self.cols, square)} has no {kind} neighbour", 8)


def parse_map(text: str) -> Map:
    """Reads and checks a map (CON-10 to CON-12); ``FormatError`` names the line and the rule."""
    reader = _Reader(text)
    reader.read()
    bases, mines = reader.places()
    terrain = tuple(reader.terrain)
    mine_pairs = tuple((min(pair), max(pair)) for pair in mines)
    warnings = playability_warnings(reader.cols, reader.rows, terrain, tuple(bases), mine_pairs)
    return Map(reader.name, reader.cols, reader.rows, terrain, tuple(bases), mine_pairs, tuple(warnings))


# --- CON-13: warnings -----------------------------------------------------------------------------


def route_length(
    cols: int,
    rows: int,
    terrain: tuple[int, ...],
    kinds: Iterable[int],
    start: int,
    goal: int,
    avoid: set[int],
) -> int | None:
    """Steps of the shortest route from ``start`` to ``goal`` over squares of the given terrain
    kinds, never entering ``avoid``; ``None`` if there is none."""
    allowed = set(kinds)
    distance = {start: 0}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if square == goal:
            return distance[square]
        for near in neighbours(cols, rows, square):
            if near not in distance and terrain[near] in allowed and near not in avoid:
                distance[near] = distance[square] + 1
                queue.append(near)
    return None


def playability_warnings(
    cols: int, rows: int, terrain: tuple[int, ...], bases: tuple[int, ...], mines: tuple[tuple[int, int], ...]
) -> list[str]:
    """CON-13: routes between every ordered pair of bases, and the seats' corners."""
    warnings = []
    for a in range(SEATS):
        avoid = {square for seat in range(SEATS) if seat != a for square in mines[seat]}
        for b in range(SEATS):
            if a == b:
                continue
            for kind, kinds in (("land", (LAND, BASE)), ("water", (WATER, BASE))):
                if route_length(cols, rows, terrain, kinds, bases[a], bases[b], avoid) is None:
                    warnings.append(
                        f"no {kind} route from base {a + 1} ({square_name(cols, bases[a])}) to base {b + 1} "
                        f"({square_name(cols, bases[b])}) that avoids the other seats' mines (CON-13 item 1)"
                    )
    corners = ("upper-left", "upper-right", "lower-left", "lower-right")
    for seat, square in enumerate(bases):
        row, col = divmod(square, cols)
        # A middle row or column of an odd board counts as both halves.
        top, bottom = 2 * row + 1 <= rows, 2 * row + 1 >= rows
        left, right = 2 * col + 1 <= cols, 2 * col + 1 >= cols
        upper = top if seat < 2 else bottom
        side = left if seat % 2 == 0 else right
        if not (upper and side):
            warnings.append(f"base {seat + 1} ({square_name(cols, square)}) is not in the {corners[seat]} "
                            "quarter of the board (CON-13 item 2)")
    return warnings


# --- the maps shipped with parlour ----------------------------------------------------------------

MAP_FILES: Final = Path(__file__).parent / "map_files"
"""The shipped maps, one ``NAME.cmap`` file each (package data)."""
CLASSIC: Final = "classic"
"""CON-72: the 20x20 board of CON-15 under its name."""
RECOMMENDED_MAP: Final = "classic"
"""The shipped map the lobby offers first."""
ALIASES: Final = {"parlour-20": CLASSIC}
"""Other names a shipped map answers to, not listed: CON-15's name of the classic board, which
stored matches and CON-70's default use. A map loaded by an alias carries the alias as its name,
so such a match looks as it always did."""
DEFAULT_MAP: Final = "parlour-20"
"""CON-70: the ``board`` option's default."""


def _shipped() -> dict[str, str]:
    """Every ``.cmap`` file of ``MAP_FILES`` by name: classic first, then the others sorted."""
    paths = sorted(MAP_FILES.glob("*.cmap"), key=lambda path: (path.stem != CLASSIC, path.stem))
    return {path.stem: path.read_text(encoding="utf-8") for path in paths}


def renamed(text: str, name: str) -> str:
    """A map's text with its ``name`` directive set to ``name``."""
    return _NAME_LINE.sub(f"name {name}", text, count=1)


SHIPPED_MAPS: Final = _shipped()
"""The maps shipped with parlour, by name, in the order to list them."""
MAPS: Final = SHIPPED_MAPS | {alias: renamed(SHIPPED_MAPS[name], alias) for alias, name in ALIASES.items()}
"""Every name ``load_map`` takes, the aliases too, with its text."""
PARLOUR_20: Final = MAPS[DEFAULT_MAP]
"""CON-15: the default board, as a map file (classic's text under the spec's name)."""


def is_map_text(value: str) -> bool:
    return "\n" in value or value.lstrip().startswith("conflict-map")


@lru_cache(maxsize=32)
def load_map(value: str) -> Map:
    """The map named ``value`` (a shipped map or an alias) or written out in ``value``;
    ``FormatError`` otherwise."""
    if is_map_text(value):
        return parse_map(value)
    text = MAPS.get(value)
    if text is None:
        listed = ", ".join(SHIPPED_MAPS)
        raise FormatError(f"no map called {value!r} (maps: {listed}); the 'board' option also takes the text "
                          "of a map (CON-10)")
    return parse_map(text)


# --- the Boards contract (CON-72): shipped maps, the editor's checks ---------------------------------


class ConflictMaps(Boards):
    """Conflict's maps as boards people draw and share (CON-72)."""

    option = "board"
    noun = "map"
    extension = ".cmap"
    min_cols, max_cols = MIN_COLS, MAX_COLS
    min_rows, max_rows = MIN_ROWS, MAX_ROWS
    recommended = RECOMMENDED_MAP

    def shipped(self) -> dict[str, str]:
        return dict(SHIPPED_MAPS)

    def check(self, text: str) -> list[BoardProblem]:
        try:
            board_map = parse_map(text)
        except FormatError as error:
            return [BoardProblem("error", "CON-12", str(error))]
        return [BoardProblem("warning", "CON-13", warning) for warning in board_map.warnings]

    def name_of(self, text: str) -> str | None:
        return None

    def drawing(self, text: str) -> JSONDict:
        return parse_map(text).json()


MAP_BOARDS: Final = ConflictMaps()
"""Conflict's ``Game.boards``."""
