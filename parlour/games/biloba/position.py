"""A Biloba position in its JSON form, read and written here, and the set-ups (BIL-8 to BIL-11).

The form (what ``Game.new(start=…)`` accepts and ``position_json`` gives): ``players``;
``board``, nine BIL-6 rows, row 1 first; ``to_move``, a colour name, at the start of its turn
(before its forced captures); ``pawns``, each colour's pawn tiles in identity order (BIL-11,
``null`` for a pawn gone); ``quiet`` (BIL-51); and mid-replacement ``pending`` (pawn → the tiles
it vacated, BIL-28) and ``forced`` (the turn began with forced captures).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from parlour.engine import FormatError, JSONDict, NotationError
from parlour.games.biloba.board import (
    CENTRE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    CORNER,
    EMPTY,
    NON_PLAYABLE,
    SIZE,
    TILES,
    tile_of,
)
from parlour.games.biloba.notation import NAMES, parse_tile

if TYPE_CHECKING:
    from parlour.games.biloba.rules import BilobaState

MOVE, REPLACE, OVER = 0, 1, 2
"""``state.phase``: the decision due — a move, a replacement — or the game is over."""

NO_PENDING: Final[dict[int, tuple[int, ...]]] = {}
"""No pawn is pending (shared, never changed)."""


def _tiles(names: str) -> tuple[int, ...]:
    return tuple(sorted(parse_tile(name) for name in names.split()))


SETUP_TWO: Final = (
    _tiles("e1 d2 e2 f2 c3 d3 e3 f3 g3 b4 c4 d4 e4 f4 g4 h4"),
    _tiles("b6 c6 d6 e6 f6 g6 h6 c7 d7 e7 f7 g7 d8 e8 f8 e9"),
)
"""BIL-9: each colour's start tiles, in identity order (BIL-11)."""
SETUP_MULTI: Final = (
    _tiles("c1 d1 f1 g1 d2 e2 f2 e3"),
    _tiles("i3 i4 i6 i7 h4 h5 h6 g5"),
    _tiles("c9 d9 f9 g9 d8 e8 f8 e7"),
    _tiles("a3 a4 a6 a7 b4 b5 b6 c5"),
)
"""BIL-10: the 3- and 4-player start tiles (a 3-player game leaves green's empty)."""


def pawns_per_player(players: int) -> int:
    """BIL-8."""
    return 16 if players == 2 else 8


def setup(players: int) -> tuple[tuple[int, ...], ...]:
    return SETUP_TWO if players == 2 else SETUP_MULTI[:players]


_ROWS: Final = tuple(tuple(tile_of(x, y) for x in range(SIZE)) for y in range(SIZE))
# Per tile, its character by cell value: a colour 0..3, then CORNER (-2) and EMPTY (-1) by
# negative index.
_CELL_CHARS: Final = tuple(
    (*COLOUR_LETTERS, "#", "*" if t == CENTRE else ".") for t in range(TILES)
)


def board_rows(board: list[int]) -> list[str]:
    """BIL-6: nine strings, row 1 first, of ``#``, ``*``, ``.`` and ``OBRG``."""
    chars = _CELL_CHARS
    return ["".join([chars[t][board[t]] for t in row]) for row in _ROWS]


@dataclass
class Position:
    """A position read from JSON (or the set-up), before any rule has run."""

    board: list[int]
    pawns: list[list[int]]
    seat: int
    quiet: int
    pending: dict[int, tuple[int, ...]]
    forced: bool


def initial_position(players: int) -> Position:
    board = [CORNER if t in NON_PLAYABLE else EMPTY for t in range(TILES)]
    pawns = []
    for colour, tiles in enumerate(setup(players)):
        for tile in tiles:
            board[tile] = colour
        pawns.append(list(tiles))
    return Position(board, pawns, 0, 0, NO_PENDING, False)


def write_position(state: BilobaState) -> JSONDict:
    """``state``'s position in the JSON form."""
    position: JSONDict = {
        "players": state.players,
        "board": state.rows(),
        "to_move": COLOUR_NAMES[state.seat],
        "pawns": {
            COLOUR_NAMES[colour]: [NAMES[t] if t >= 0 else None for t in tiles]
            for colour, tiles in enumerate(state.pawns)
        },
        "quiet": state.quiet,
    }
    if state.phase == REPLACE:
        position["pending"] = {
            NAMES[pawn]: [NAMES[t] for t in state.pending[pawn]] for pawn in state.pending_pawns()
        }
        position["forced"] = state.forced
    return position


def read_position(start: Any, players: int) -> Position:
    """Checks and reads a position in the JSON form; ``FormatError`` saying what is wrong."""
    if not isinstance(start, dict):
        raise FormatError("a Biloba position must be a JSON object")
    if start.get("players", players) != players:
        raise FormatError(f"the position is for {start.get('players')!r} players, not {players}")
    board = read_rows(start.get("board"), players)
    to_move = start.get("to_move", "orange")
    if to_move not in COLOUR_NAMES[:players]:
        raise FormatError(f"'to_move' must be one of {', '.join(COLOUR_NAMES[:players])}, not {to_move!r}")
    quiet = start.get("quiet", 0)
    if isinstance(quiet, bool) or not isinstance(quiet, int) or quiet < 0:
        raise FormatError(f"'quiet' must be a whole number of turns, not {quiet!r}")
    pawns = _read_pawns(start.get("pawns"), board, players)
    seat = COLOUR_NAMES.index(to_move)
    pending = _read_pending(start.get("pending"), board, seat)
    forced = start.get("forced", False)
    if not isinstance(forced, bool):
        raise FormatError(f"'forced' must be true or false, not {forced!r}")
    return Position(board, pawns, seat, quiet, pending, forced)


def read_rows(rows: object, players: int) -> list[int]:
    """The board of BIL-6 strings (``*`` and ``.`` alike); ``FormatError`` saying what is wrong."""
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise FormatError("a Biloba position needs 'board': 9 rows of 9 cells, row 1 first")
    board = [CORNER if t in NON_PLAYABLE else EMPTY for t in range(TILES)]
    letters = COLOUR_LETTERS[:players]
    for y, row in enumerate(rows):
        cells = row.replace(" ", "") if isinstance(row, str) else None
        if cells is None or len(cells) != SIZE:
            raise FormatError(f"row {y + 1} must be 9 cells, not {row!r}")
        for x, cell in enumerate(cells):
            t = tile_of(x, y)
            if t in NON_PLAYABLE:
                if cell not in "#.":
                    raise FormatError(f"{NAMES[t]} is not part of the board (BIL-2) and holds no pawn")
            elif cell in letters:
                if t == CENTRE:
                    raise FormatError("no turn starts with a pawn on the centre e5 (BIL-18)")
                board[t] = letters.index(cell)
            elif cell not in ".*":
                allowed = ", ".join(letters)
                raise FormatError(
                    f"{NAMES[t]}: {cell!r} is not a cell of a {players}-player game ('.', '*' or {allowed})"
                )
    return board


def _read_pawns(data: Any, board: list[int], players: int) -> list[list[int]]:
    """BIL-11 identities: given per colour as tiles (``null`` for a pawn gone), or by tile order.

    A constructed position may hold more pawns than a set-up (BIL-8), e.g. to show BIL-50's
    deadlock, which needs 68 pawns; the identities then simply run on.
    """
    pawns = []
    for colour in range(players):
        on_board = [t for t in range(TILES) if board[t] == colour]
        size = max(pawns_per_player(players), len(on_board))
        if data is None:
            pawns.append(on_board + [-1] * (size - len(on_board)))
            continue
        listed = data.get(COLOUR_NAMES[colour]) if isinstance(data, dict) else None
        if not isinstance(listed, list) or len(listed) != size:
            raise FormatError(f"'pawns' needs {size} entries (a tile or null) for {COLOUR_NAMES[colour]}")
        try:
            tiles = [-1 if name is None else parse_tile(name) for name in listed]
        except (NotationError, TypeError):
            raise FormatError(f"'pawns' of {COLOUR_NAMES[colour]}: not tiles: {listed!r}") from None
        if sorted(t for t in tiles if t >= 0) != on_board:
            raise FormatError(f"'pawns' of {COLOUR_NAMES[colour]} do not match the board")
        pawns.append(tiles)
    return pawns


def _read_pending(data: Any, board: list[int], seat: int) -> dict[int, tuple[int, ...]]:
    if data is None:
        return NO_PENDING
    if not isinstance(data, dict):
        raise FormatError("'pending' must map pawn tiles to lists of vacated tiles")
    pending: dict[int, tuple[int, ...]] = {}
    try:
        for pawn_name, names in data.items():
            pawn = parse_tile(pawn_name)
            tiles = tuple(sorted(parse_tile(name) for name in names))
            if board[pawn] != seat or not tiles or any(board[t] != EMPTY or t == CENTRE for t in tiles):
                raise FormatError(f"'pending': {pawn_name} is not a pending pawn of the player to move")
            pending[pawn] = tiles
    except (NotationError, TypeError):
        raise FormatError(f"'pending' is not a map of tiles: {data!r}") from None
    return pending
