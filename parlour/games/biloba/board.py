"""Biloba's board: the octagonal 9×9 grid and the tables the rules read.

A tile is the integer ``x * 9 + y`` (BIL-1), column-major, so sorting tiles sorts their names
(BIL-5) and gives the pawn identity order of BIL-11. Everything here is computed once, at import.
Tile names are in ``notation``; the set-ups and the JSON form of a position in ``position``.
"""

from __future__ import annotations

from typing import Final

SIZE: Final = 9
TILES: Final = SIZE * SIZE
COLUMNS: Final = "abcdefghi"

EMPTY: Final = -1
"""A playable tile with no pawn (the centre included)."""
CORNER: Final = -2
"""One of the twelve non-playable cells (BIL-2): never holds a pawn."""

ORANGE, BLUE, RED, GREEN = 0, 1, 2, 3
COLOUR_NAMES: Final = ("orange", "blue", "red", "green")
COLOUR_LETTERS: Final = "OBRG"


def tile_of(x: int, y: int) -> int:
    return x * SIZE + y


def tile_x(tile: int) -> int:
    return tile // SIZE


def tile_y(tile: int) -> int:
    return tile % SIZE


CENTRE: Final = tile_of(4, 4)
"""BIL-3: e5."""

NON_PLAYABLE: Final = frozenset(
    tile_of(x, y)
    for x, y in (
        (0, 0), (1, 0), (0, 1),  # a1 b1 a2
        (7, 0), (8, 0), (8, 1),  # h1 i1 i2
        (0, 7), (0, 8), (1, 8),  # a8 a9 b9
        (8, 7), (7, 8), (8, 8),  # i8 h9 i9
    )
)
PLAYABLE: Final = tuple(t for t in range(TILES) if t not in NON_PLAYABLE)
"""The 69 playable tiles (BIL-2), in tile order."""

DIRECTIONS: Final = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
"""BIL-4: the 8 neighbours as (dx, dy)."""
HALF_DIRECTIONS: Final = ((0, 1), (1, -1), (1, 0), (1, 1))
"""One direction per axis: a scan along these finds each sandwich once."""


def _offset(tile: int, dx: int, dy: int, times: int = 1) -> int:
    """The cell ``times`` steps from ``tile`` in direction (dx, dy), or -1 off the grid."""
    x, y = tile_x(tile) + dx * times, tile_y(tile) + dy * times
    return tile_of(x, y) if 0 <= x < SIZE and 0 <= y < SIZE else -1


def _playable(tile: int) -> bool:
    return tile >= 0 and tile not in NON_PLAYABLE


CENTRE_NEIGHBOURS: Final = tuple(sorted(_offset(CENTRE, dx, dy) for dx, dy in DIRECTIONS))
"""d4 d5 d6 e4 e6 f4 f5 f6, in tile order (BIL-17)."""
CENTRE_NEIGHBOUR_SET: Final = frozenset(CENTRE_NEIGHBOURS)

STEPS: Final = tuple(
    tuple(n for dx, dy in DIRECTIONS if _playable(n := _offset(t, dx, dy))) for t in range(TILES)
)
"""BIL-15: ``STEPS[t]``, the playable neighbours of t (the centre included)."""

GRID_NEIGHBOURS: Final = tuple(
    tuple(n for dx, dy in DIRECTIONS if (n := _offset(t, dx, dy)) >= 0) for t in range(TILES)
)
"""The in-grid neighbours of t, non-playable cells included (BIL-33 looks at those too)."""


def _lines(directions: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per tile: (adjacent, beyond) pairs where both are playable and neither is the centre."""
    table = []
    for t in range(TILES):
        pairs = []
        for dx, dy in directions:
            mid, far = _offset(t, dx, dy), _offset(t, dx, dy, 2)
            if _playable(mid) and _playable(far) and CENTRE not in (mid, far):
                pairs.append((mid, far))
        table.append(tuple(pairs))
    return tuple(table)


LINES: Final = _lines(DIRECTIONS)
"""BIL-22: ``LINES[t]``, the sandwiches a pawn on t can close: (enemy tile, other flanker tile)."""
HALF_LINES: Final = _lines(HALF_DIRECTIONS)
"""``LINES`` along one direction per axis: a scan of every pawn sees each sandwich once (BIL-25)."""

TEST_LINES: Final = tuple(
    tuple(
        (mid, _offset(t, dx, dy, 2))
        for dx, dy in DIRECTIONS
        if (mid := _offset(t, dx, dy)) >= 0
    )
    for t in range(TILES)
)
"""BIL-33: per tile, (adjacent cell, cell beyond or -1 off the grid) in all 8 directions."""


def _forward(players: int, colour: int, dx: int, dy: int) -> bool:
    """BIL-19: a jump by (dx, dy) is not backwards for ``colour``."""
    if colour == ORANGE:
        return dy >= 0
    if players == 2 or colour == RED:
        return dy <= 0
    return dx <= 0 if colour == BLUE else dx >= 0


def _jumps(players: int, colour: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per tile: the (jumped-over, landing) pairs a pawn of ``colour`` may use (BIL-16, BIL-19)."""
    table = []
    for t in range(TILES):
        pairs = []
        for dx, dy in DIRECTIONS:
            mid, land = _offset(t, dx, dy), _offset(t, dx, dy, 2)
            if _forward(players, colour, dx, dy) and _playable(mid) and _playable(land) and land != CENTRE:
                pairs.append((mid, land))
        table.append(tuple(pairs))
    return tuple(table)


JUMPS_TWO: Final = tuple(_jumps(2, colour) for colour in (ORANGE, BLUE))
"""``JUMPS_TWO[colour][t]`` in a 2-player game."""
JUMPS_MULTI: Final = tuple(_jumps(4, colour) for colour in (ORANGE, BLUE, RED, GREEN))
"""``JUMPS_MULTI[colour][t]`` in a 3- or 4-player game."""
