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
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Final

from parlour.engine import BoardProblem, Boards, FormatError, JSONDict
from parlour.engine.boards import ERROR, WARNING, capped

LAND, WATER, BLOCKED, BASE = 0, 1, 2, 3
"""Terrain of a square (CON-7). A base counts as both land and water."""
LEGEND: Final = {".": LAND, "~": WATER, "#": BLOCKED, "+": BASE}
GLYPHS: Final = ".~#+"

SEATS: Final = 4
MIN_COLS, MAX_COLS = 5, 26
MIN_ROWS, MAX_ROWS = 5, 99
EDITOR_MAX_ROWS: Final = 40
"""The rows a map may be drawn with (the issue's 40x40 within CON-4's 26 columns); a map file may
have up to ``MAX_ROWS``."""

MAX_NAME: Final = 60
"""Characters in a map's name: CON-10 sets no bound, but every lobby summary shows it, and the
server's library names a saved map by it (parlour's limit, the one ``ConflictMaps.max_name`` says)."""
_NAME: Final = re.compile(rf"[a-z0-9][a-z0-9-]{{0,{MAX_NAME - 1}}}")
# Numbers of at most three digits: CON-4's largest board is 26x99, and Python refuses to turn more
# than 4,300 digits into an int (a ValueError, not a problem of the map).
_SIZE: Final = re.compile(r"([0-9]{1,3})x([0-9]{1,3})")
_SQUARE: Final = re.compile(r"([a-z])([1-9][0-9]{0,2})")
_NAME_LINE: Final = re.compile(r"^name[ \t]+[^ \t;\r\n]+", re.MULTILINE)
_DIRECTIVES: Final = ("conflict-map", "name", "size", "terrain", "base", "mine")
MAX_UNKNOWN: Final = 5
"""Unknown directives in a row after which the reading stops: the rest is no map (a pasted
text, say), and a problem a line would only bury the first ones."""
MAX_PROBLEMS: Final = 100
"""Problems a check lists; the rest are counted in one last problem."""


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
    return list(neighbour_table(cols, rows)[square])


@lru_cache(maxsize=8)
def neighbour_table(cols: int, rows: int) -> tuple[tuple[int, ...], ...]:
    """``neighbours`` of every square of a board of this size, worked out once: the route checks
    of CON-13 and the boards built from a map look at every square's neighbours many times."""
    col_spans = [range(max(col - 1, 0), min(col + 2, cols)) for col in range(cols)]
    table = []
    for row in range(rows):
        row_starts = [r * cols for r in range(max(row - 1, 0), min(row + 2, rows))]
        for col in range(cols):
            centre = row * cols + col
            table.append(tuple(s + c for s in row_starts for c in col_spans[col] if s + c != centre))
    return tuple(table)


# --- reading a map --------------------------------------------------------------------------------


def _shown(text: str, longest: int = 30) -> str:
    """A piece of the map's text quoted in a problem, cut short: a problem names what it found, it
    does not send a long line back."""
    return repr(text if len(text) <= longest else text[:longest] + "…")


class _Stop(Exception):
    """After this problem the rest of the text cannot be read (no size to read the terrain by,
    say): the check ends with the problems found so far."""


@dataclass
class _Placed:
    """The bases and mines of a map as its lines place them: ``bases[seat]`` (-1 for none yet),
    ``mines[seat]``, ``used`` (square: the line that placed it), and per seat the ``base`` and
    ``mine`` lines refused for their square (a mine on '#', say). Those still count towards the
    seat's one base and two mines: their problem is reported on their line, once, not again as
    a seat short of a base or a mine (on its healthy mine)."""

    bases: list[int] = field(default_factory=lambda: [-1] * SEATS)
    mines: list[list[int]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    used: dict[int, int] = field(default_factory=dict)
    refused_bases: list[int] = field(default_factory=lambda: [0] * SEATS)
    refused_mines: list[int] = field(default_factory=lambda: [0] * SEATS)


class _Reader:
    """One pass over the lines of a map file, keeping what the checks after it need and every
    problem of CON-10 to CON-12 it meets, in the order the checks meet them. ``parse_map`` refuses
    a map with the first, the editor's check (``check_map``) shows them all: each rule is written
    once, here, so the two cannot disagree."""

    def __init__(self, text: str) -> None:
        # A file saved on Windows may begin with a byte order mark and end its lines with \r\n.
        self.lines = text.removeprefix("\ufeff").split("\n")
        self.last = len(self.lines) if self.lines[-1].strip() else len(self.lines) - 1
        """The number of the last line (a final newline does not start another line)."""
        self.seen: dict[str, int] = {}
        self.name = ""
        self.cols = self.rows = 0
        self.terrain: list[int] = []
        self.terrain_line = 0
        self.terrain_read = False
        """Whether the terrain block was read whole and clean: the checks of bases and mines need it."""
        self.placed: list[tuple[str, int, str, str]] = []
        """``base`` and ``mine`` lines: (directive, line number, seat text, square text)."""
        self.unknown_run = 0
        """Unknown directives met in a row (see ``MAX_UNKNOWN``)."""
        self.problems: list[BoardProblem] = []

    def error(
        self, line: int | None, problem: str, item: int | None = None, squares: Iterable[int] = ()
    ) -> None:
        """Notes a problem of ``line`` (``None``: the map as a whole), citing CON-12's item or CON-10."""
        rule = f"CON-12 item {item}" if item is not None else "CON-10"
        names = tuple(square_name(self.cols, square) for square in squares)
        self.problems.append(BoardProblem(ERROR, rule, problem, names, line))

    def stop(self, line: int | None, problem: str, item: int | None = None) -> _Stop:
        self.error(line, problem, item)
        return _Stop()

    def format_error(self, problem: BoardProblem) -> FormatError:
        """``parse_map``'s error for a problem: the line (or the end of the file) and the rule."""
        where = f"line {problem.line}" if problem.line is not None else f"line {self.last} (end of file)"
        return FormatError(f"map {where}: {problem.message} ({problem.rule})")

    def read(self) -> None:
        """CON-10, CON-11 and CON-12 items 1 to 3: the directives and the terrain block."""
        index = 0
        while index < len(self.lines):
            number = index + 1
            content = self.lines[index].split(";", 1)[0].strip()
            index += 1
            if content:
                index = self._line(content, number, index)
        if not self.seen:
            raise self.stop(None, "the map has no directives: it must begin with 'conflict-map 1'", 1)
        for needed in ("name", "size", "terrain"):
            if needed not in self.seen:
                self.error(None, f"the map has no {needed!r} directive", 2)
        if not self.cols:  # no size: no square can be named
            raise _Stop()

    def _line(self, content: str, number: int, index: int) -> int:
        """Reads the directive of line ``number``; returns the index of the line to read next."""
        fields = content.split()
        directive = fields[0]
        if not self.seen:
            self._first(directive, fields, content, number)
        if directive not in _DIRECTIVES:
            self.unknown_run += 1
            if self.unknown_run == MAX_UNKNOWN:
                raise self.stop(number, f"{MAX_UNKNOWN} unknown directives in a row, the last "
                                f"{_shown(directive)}: the rest is not read", 1)
            self.error(number, f"unknown directive {_shown(directive)}", 1)
            return index
        self.unknown_run = 0
        if directive in self.seen and directive not in ("base", "mine"):
            self.error(number, f"{directive!r} appears twice (first on line {self.seen[directive]})", 1)
            return self._after_end(index) if directive == "terrain" else index
        self.seen.setdefault(directive, number)
        if directive == "terrain":
            return self._terrain(fields, number, index)
        self._directive(directive, fields, number)
        return index

    def _first(self, directive: str, fields: list[str], content: str, number: int) -> None:
        """CON-12 item 1: the first directive says which format the rest is in."""
        if directive != "conflict-map":
            self.error(number, f"the first directive must be 'conflict-map 1', not {_shown(content)}", 1)
            if directive not in _DIRECTIVES:  # not a map at all: reading on would only list its lines
                raise _Stop()
        elif fields[1:] != ["1"]:
            raise self.stop(number, f"unsupported map format {_shown(content)}: this reads 'conflict-map 1'",
                            1)

    def _directive(self, directive: str, fields: list[str], number: int) -> None:
        if directive == "name":
            if len(fields) != 2 or not _NAME.fullmatch(fields[1]):
                self.error(number, f"'name' takes one identifier of a-z, 0-9 and '-', not starting with '-', "
                           f"of at most {MAX_NAME} characters")
                return
            self.name = fields[1]
        elif directive == "size":
            self._size(fields, number)
        elif directive in ("base", "mine"):
            if len(fields) != 3:
                example = f"{directive} 1 e5"
                self.error(number, f"'{directive}' takes a seat and a square, for example {example!r}", 7)
                return
            self.placed.append((directive, number, fields[1], fields[2]))

    def _size(self, fields: list[str], number: int) -> None:
        """CON-12 item 2: the size, in range."""
        match = _SIZE.fullmatch(fields[1]) if len(fields) == 2 else None
        if match is None:
            written = " ".join(fields)
            self.error(number, f"'size' takes COLSxROWS, for example 'size 20x20', not {_shown(written)}", 2)
            return
        cols, rows = int(match[1]), int(match[2])
        if not (MIN_COLS <= cols <= MAX_COLS and MIN_ROWS <= rows <= MAX_ROWS):
            self.error(number, f"size {cols}x{rows} is out of range: {MIN_COLS} to {MAX_COLS} columns and "
                       f"{MIN_ROWS} to {MAX_ROWS} rows", 2)
            return
        self.cols, self.rows = cols, rows

    def _terrain(self, fields: list[str], number: int, index: int) -> int:
        """Reads the block after ``terrain`` (no comments inside); returns the index after ``end``."""
        if len(fields) != 1:
            self.error(number, "'terrain' takes nothing more: the block starts on the next line")
        if "size" not in self.seen:  # CON-12 item 2: a size after the terrain, or none
            raise self.stop(number, "'terrain' comes before 'size': the size must be known first", 2)
        if not self.cols:  # the size line was refused (and said so): the block cannot be read
            raise _Stop()
        self.terrain_line = number
        clean = True
        for row in range(self.rows):
            if index >= self.last:
                raise self.stop(None, f"the file ends inside the terrain block, after {row} of {self.rows} "
                                "lines", 3)
            line = self.lines[index].rstrip()
            index += 1
            if line == "end":
                self.error(index, f"the terrain block has {row} lines, not {self.rows}", 3)
                return index
            clean = self._terrain_row(row, line, index) and clean
        if index >= self.last:
            raise self.stop(None, "the terrain block is not closed by 'end'", 3)
        if self.lines[index].split(";", 1)[0].strip() != "end":
            found = self.lines[index].strip()
            self.error(index + 1, f"the terrain block has more than {self.rows} lines or is not closed by "
                       f"'end' (found {_shown(found)})", 3)
            return self._after_end(index)
        self.terrain_read = clean
        return index + 1

    def _terrain_row(self, row: int, line: str, number: int) -> bool:
        """CON-11, CON-12 item 3: one line of the block; whether it was clean."""
        if len(line) != self.cols:
            self.error(number, f"terrain line {row + 1} has {len(line)} characters, not {self.cols}", 3)
            return False
        bad = [col for col, glyph in enumerate(line) if glyph not in LEGEND]
        if bad:
            problem = f"terrain line {row + 1}, column {bad[0] + 1}: {line[bad[0]]!r} is not one of . ~ # +"
            if len(bad) > 1:
                problem += ", nor " + ", ".join(f"{line[col]!r} in column {col + 1}" for col in bad[1:])
            self.error(number, problem, 3, [row * self.cols + col for col in bad])
            return False
        self.terrain.extend(LEGEND[glyph] for glyph in line)
        return True

    def _after_end(self, index: int) -> int:
        """The index after the next ``end`` line: where directives go on after a block gone wrong."""
        for later in range(index, self.last):
            if self.lines[later].split(";", 1)[0].strip() == "end":
                return later + 1
        raise _Stop()

    def places(self) -> tuple[list[int], list[list[int]]] | None:
        """CON-12 items 4 to 8: the bases and mines, checked against the terrain (``None`` when
        the terrain could not be read)."""
        located = self._located()  # item 7 first
        if not self.terrain_read:
            return None
        plus = [square for square, t in enumerate(self.terrain) if t == BASE]
        if len(plus) != SEATS:
            self.error(self.terrain_line, f"the terrain has {len(plus)} '+' squares, not 4", 4, plus)
        placed = _Placed()
        placed_bases: list[tuple[int, int]] = []
        for directive, number, seat, square in located:
            if directive == "base":
                accepted = self._place_base(placed, number, seat, square)
                if accepted:
                    placed_bases.append((number, square))
            else:
                accepted = self._place_mine(placed, number, seat, square)
            if accepted:
                placed.used[square] = number
        self._check_counts(plus, placed)
        for number, square in placed_bases:
            self._check_shores(number, square)
        return placed.bases, placed.mines

    def _located(self) -> list[tuple[str, int, int, int]]:
        """CON-12 item 7: each ``base``/``mine`` line as (directive, line, seat 0…3, square)."""
        located: list[tuple[str, int, int, int]] = []
        for directive, number, seat_text, square_text in self.placed:
            cols, rows = self.cols, self.rows
            square = parse_square(square_text, cols, rows)
            if seat_text not in ("1", "2", "3", "4"):
                on_board = [] if square is None else [square]
                self.error(number, f"seat {_shown(seat_text)} is not 1, 2, 3 or 4", 7, on_board)
            elif square is None:
                self.error(number, f"{_shown(square_text)} is not a square of the {cols}x{rows} board", 7)
            else:
                located.append((directive, number, int(seat_text) - 1, square))
        return located

    def _place_base(self, placed: _Placed, number: int, seat: int, square: int) -> bool:
        """CON-12 item 5: one base per seat, on a '+' square no other line names."""
        name = square_name(self.cols, square)
        if placed.bases[seat] >= 0:
            self.error(number, f"seat {seat + 1} has a second base", 5, [square])
            return False
        if self.terrain[square] != BASE:
            self.error(number, f"base {name} is not a '+' square", 5, [square])
        elif square in placed.used:
            self.error(number, f"base {name} is already named on line {placed.used[square]}", 5, [square])
        else:
            placed.bases[seat] = square
            return True
        placed.refused_bases[seat] += 1
        return False

    def _place_mine(self, placed: _Placed, number: int, seat: int, square: int) -> bool:
        """CON-12 item 6: two mines per seat, on land or water, one a square."""
        name = square_name(self.cols, square)
        if len(placed.mines[seat]) == 2:
            self.error(number, f"seat {seat + 1} has a third mine", 6, [square])
            return False
        if self.terrain[square] not in (LAND, WATER):
            self.error(number, f"mine {name} is not on a '.' or '~' square", 6, [square])
        elif square in placed.used:
            self.error(number, f"{name} already holds a mine (line {placed.used[square]})", 6, [square])
        else:
            placed.mines[seat].append(square)
            return True
        placed.refused_mines[seat] += 1
        return False

    def _check_counts(self, plus: list[int], placed: _Placed) -> None:
        """CON-12 items 5 and 6 over the whole map: a base line for every seat, a base on every '+'
        square, two mine lines a seat (those refused for their square count, see ``_Placed``)."""
        for seat in range(SEATS):
            if placed.bases[seat] < 0 and not placed.refused_bases[seat]:
                self.error(None, f"no 'base' line names seat {seat + 1}", 5)
        for square in plus:
            if square not in placed.bases:
                line = self.terrain_line + 1 + square // self.cols
                name = square_name(self.cols, square)
                self.error(line, f"the '+' square {name} is named by no 'base' line", 5, [square])
        for seat in range(SEATS):
            count = len(placed.mines[seat]) + placed.refused_mines[seat]
            if count < 2:
                self.error(None, f"seat {seat + 1} has {count} mine{'' if count == 1 else 's'}, not 2", 6,
                           placed.mines[seat])

    def _check_shores(self, number: int, square: int) -> None:
        """CON-12 item 8: a base touches land and water."""
        near = {self.terrain[n] for n in neighbours(self.cols, self.rows, square)}
        if not near & {LAND, BASE} or not near & {WATER, BASE}:
            kind = "land" if not near & {LAND, BASE} else "water"
            self.error(number, f"base {square_name(self.cols, square)} has no {kind} neighbour", 8, [square])


def _read(text: str) -> tuple[_Reader, Map | None]:
    """Reads ``text`` once: the reader holds every problem met (CON-12's errors, or CON-13's
    warnings when there are none); the map when there are no errors."""
    reader = _Reader(text)
    try:
        reader.read()
        placed = reader.places()
    except _Stop:
        return reader, None
    if placed is None or reader.problems:
        return reader, None
    bases, mines = placed
    terrain = tuple(reader.terrain)
    mine_pairs = tuple((min(pair), max(pair)) for pair in mines)
    warnings = playability_problems(reader.cols, reader.rows, terrain, tuple(bases), mine_pairs)
    board_map = Map(reader.name, reader.cols, reader.rows, terrain, tuple(bases), mine_pairs,
                    tuple(f"{warning.message} ({warning.rule})" for warning in warnings))
    reader.problems += warnings
    return reader, board_map


def parse_map(text: str) -> Map:
    """Reads and checks a map (CON-10 to CON-12); ``FormatError`` names the line and the rule of
    the first problem."""
    reader, board_map = _read(text)
    if board_map is None:
        raise reader.format_error(reader.problems[0])
    return board_map


def check_map(text: str) -> list[BoardProblem]:
    """Every problem of a map's text, each with the squares it concerns: CON-12's errors (the
    map is refused) or, for a map without errors, CON-13's warnings. A problem that stops the
    reading (no size, say) ends the list, and past ``MAX_PROBLEMS`` one problem counts the rest."""
    return capped(_read(text)[0].problems, MAX_PROBLEMS)


def map_name(text: str) -> str | None:
    """The name a map's text gives itself, ``None`` when it has no name that can be read: its
    first ``name`` line, read as ``parse_map`` reads it, without reading the rest (a lobby shows
    every match's map by its name)."""
    first = True
    for line in text.removeprefix("\ufeff").split("\n"):
        fields = line.split(";", 1)[0].split()
        if not fields:
            continue
        if first and fields[0] not in _DIRECTIVES:  # not a map at all (CON-12 item 1)
            return None
        first = False
        if fields[0] == "name":
            return fields[1] if len(fields) == 2 and _NAME.fullmatch(fields[1]) else None
    return None


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
    table = neighbour_table(cols, rows)
    distance = {start: 0}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if square == goal:
            return distance[square]
        for near in table[square]:
            if near not in distance and terrain[near] in allowed and near not in avoid:
                distance[near] = distance[square] + 1
                queue.append(near)
    return None


def reached(
    cols: int, rows: int, terrain: tuple[int, ...], kinds: Iterable[int], start: int, avoid: set[int]
) -> bytearray:
    """The squares some route from ``start`` reaches over squares of the given terrain kinds,
    never entering ``avoid`` (``reached[square]`` is 1), ``start`` among them: one search answers
    ``route_length(…) is None`` for every goal at once."""
    allowed = set(kinds)
    passable = [kind in allowed for kind in terrain]
    for square in avoid:
        passable[square] = False
    table = neighbour_table(cols, rows)
    seen = bytearray(cols * rows)
    seen[start] = 1
    stack = [start]
    while stack:
        for near in table[stack.pop()]:
            if passable[near] and not seen[near]:
                seen[near] = 1
                stack.append(near)
    return seen


ROUTE_KINDS: Final = (("land", (LAND, BASE)), ("water", (WATER, BASE)))
"""CON-13 item 1's routes: by land, by water, each through the bases too."""


def playability_problems(
    cols: int, rows: int, terrain: tuple[int, ...], bases: tuple[int, ...], mines: tuple[tuple[int, int], ...]
) -> list[BoardProblem]:
    """CON-13: routes between every ordered pair of bases (the two bases' squares), and the
    seats' corners (the base's square)."""
    warnings = []
    for a in range(SEATS):
        # The mines a route avoids depend only on the seat it starts from: one search per kind
        # from each base answers for every other base (8 searches, not 24).
        avoid = {square for seat in range(SEATS) if seat != a for square in mines[seat]}
        reach = {kind: reached(cols, rows, terrain, kinds, bases[a], avoid) for kind, kinds in ROUTE_KINDS}
        for b in range(SEATS):
            if a == b:
                continue
            ends = (square_name(cols, bases[a]), square_name(cols, bases[b]))
            for kind, _ in ROUTE_KINDS:
                if not reach[kind][bases[b]]:
                    warnings.append(BoardProblem(
                        WARNING, "CON-13 item 1",
                        f"no {kind} route from base {a + 1} ({ends[0]}) to base {b + 1} ({ends[1]}) that "
                        "avoids the other seats' mines", ends))
    corners = ("upper-left", "upper-right", "lower-left", "lower-right")
    for seat, square in enumerate(bases):
        row, col = divmod(square, cols)
        # A middle row or column of an odd board counts as both halves.
        top, bottom = 2 * row + 1 <= rows, 2 * row + 1 >= rows
        left, right = 2 * col + 1 <= cols, 2 * col + 1 >= cols
        upper = top if seat < 2 else bottom
        side = left if seat % 2 == 0 else right
        if not (upper and side):
            name = square_name(cols, square)
            warnings.append(BoardProblem(
                WARNING, "CON-13 item 2",
                f"base {seat + 1} ({name}) is not in the {corners[seat]} quarter of the board", (name,)))
    return warnings


# --- the maps shipped with parlour ----------------------------------------------------------------

MAP_FILES: Final = Path(__file__).parent / "map_files"
"""The shipped maps, one ``NAME.cmap`` file each (package data)."""
CLASSIC: Final = "classic"
"""CON-72: the 20x20 board of CON-15 under its name."""
RECOMMENDED_MAP: Final = "crossroads"
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
    min_rows, max_rows = MIN_ROWS, EDITOR_MAX_ROWS
    recommended = RECOMMENDED_MAP
    max_name = MAX_NAME

    def shipped(self) -> dict[str, str]:
        return dict(SHIPPED_MAPS)

    def aliases(self) -> dict[str, str]:
        return dict(ALIASES)

    def is_text(self, value: str) -> bool:
        return is_map_text(value)

    def check(self, text: str) -> list[BoardProblem]:
        return check_map(text)

    def name_of(self, text: str) -> str | None:
        return map_name(text)

    def drawing(self, text: str) -> JSONDict:
        # Through load_map's cache: a map is drawn after its check, and a match on it reads it again.
        return (load_map(text) if is_map_text(text) else parse_map(text)).json()

    def option_help(self) -> str:
        """The ``board`` option's help, which the lobby shows: the shipped maps by name."""
        *others, last = SHIPPED_MAPS
        names = f"{', '.join(others)} or {last}" if others else last
        return (f"the map: one shipped with parlour ({names}), one saved on the server by its name, "
                "or the text of a map of your own")


MAP_BOARDS: Final = ConflictMaps()
"""Conflict's ``Game.boards``."""
