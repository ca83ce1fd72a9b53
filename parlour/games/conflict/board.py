"""A Conflict map's geometry, and the search for exact-length paths (CON-32 to CON-37).

Sets of squares are Python ints used as bitmasks (bit ``square``). For each movement class the
board keeps the enterable neighbours of every square and, for radii 0 to 6, the squares within
that many steps over enterable terrain: the path search prunes with them.

The search answers CON-63's question directly: for a piece of a class on a start square and a die
d, which squares can end the *walked* path of some legal d-step path? Those sets depend only on
the class, the start, d and the set of hostile mines, so they are memoised per board.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from functools import lru_cache
from typing import Final

from parlour.games.conflict.maps import BASE, LAND, WATER, Map, load_map, neighbours, square_name
from parlour.games.conflict.pieces import AIR_CLASS, CODES, LAND_CLASS, WATER_CLASS

MAX_DIE: Final = 6
_ENTERABLE: Final = {
    LAND_CLASS: (LAND, BASE),
    WATER_CLASS: (WATER, BASE),
    AIR_CLASS: (LAND, WATER, BASE),
}
_CACHE_LIMIT: Final = 1 << 17
UNREACHED: Final = 1 << 30
"""``routes_from``'s figure for a square with no route to the start."""


def bits(mask: int) -> list[int]:
    """The squares of a mask, in reading order."""
    squares = []
    while mask:
        low = mask & -mask
        squares.append(low.bit_length() - 1)
        mask ^= low
    return squares


class Board:
    """The fixed part of a game: squares, terrain, bases, mines, and the tables moves read.

    * ``names[square]``, ``square_of(text)``; ``terrain[square]`` (``maps.LAND`` …);
    * ``bases[seat]``, ``base_seat[square]`` (-1 if none); ``mines[seat]`` (two squares),
      ``mine_seat[square]`` (-1 if none), ``mine_mask``: every mine;
    * per class (``pieces.LAND_CLASS`` …): ``steps[cls][square]`` (enterable neighbours in
      reading order), ``step_mask[cls][square]``, ``balls[cls][square][r]`` (enterable squares
      within r steps, r ≤ 6).
    """

    def __init__(self, board_map: Map) -> None:
        self.map = board_map
        self.cols, self.rows = board_map.cols, board_map.rows
        self.size = size = board_map.cols * board_map.rows
        self.terrain = board_map.terrain
        self.names = tuple(square_name(self.cols, square) for square in range(size))
        self._by_name = {name: square for square, name in enumerate(self.names)}
        self.bases = board_map.bases
        self.base_seat = [-1] * size
        for seat, square in enumerate(self.bases):
            self.base_seat[square] = seat
        self.mines = board_map.mines
        self.mine_seat = [-1] * size
        for seat, pair in enumerate(self.mines):
            for square in pair:
                self.mine_seat[square] = seat
        self.mine_squares = tuple(sorted(square for pair in self.mines for square in pair))
        self.mine_mask = sum(1 << square for square in self.mine_squares)
        self.steps: list[list[tuple[int, ...]]] = []
        self.step_mask: list[list[int]] = []
        self.balls: list[list[tuple[int, ...]]] = []
        self.enterable: list[int] = []
        for cls in (LAND_CLASS, WATER_CLASS, AIR_CLASS):
            kinds = _ENTERABLE[cls]
            steps = [
                tuple(n for n in neighbours(self.cols, self.rows, square) if self.terrain[n] in kinds)
                for square in range(size)
            ]
            self.steps.append(steps)
            self.step_mask.append([sum(1 << n for n in near) for near in steps])
            self.enterable.append(sum(1 << s for s in range(size) if self.terrain[s] in kinds))
            self.balls.append(_balls(steps))
        rng = random.Random(f"conflict/{board_map.text()}")
        self.piece_keys = tuple(tuple(rng.getrandbits(64) for _ in range(size)) for _ in range(CODES))
        self.moved_keys = tuple(rng.getrandbits(64) for _ in range(size))
        self._finals: dict[tuple[int, int, int, int], int] = {}
        self._hostile: dict[tuple[int, ...], tuple[int, ...]] = {}

    def routes_from(self, cls: int, start: int) -> tuple[int, ...]:
        """Per square, the fewest steps a ``cls`` piece takes from it to ``start`` over enterable
        terrain (mines aside), or ``UNREACHED``: a way round an island or a wall is counted."""
        steps = self.steps[cls]
        found = [UNREACHED] * self.size
        found[start] = 0
        queue = deque([start])
        while queue:
            square = queue.popleft()
            for near in steps[square]:
                if found[near] == UNREACHED:
                    found[near] = found[square] + 1
                    queue.append(near)
        return tuple(found)

    def square_of(self, text: str) -> int | None:
        """The square ``text`` names (any case), or ``None``."""
        return self._by_name.get(text.lower())

    def hostile_masks(self, controller: tuple[int, ...]) -> tuple[int, ...]:
        """Per player seat p, the mines whose seat p does not control (CON-24), given every
        seat's controller."""
        masks = self._hostile.get(controller)
        if masks is None:
            pairs = [(1 << first) | (1 << second) for first, second in self.mines]
            masks = tuple(
                sum(mask for seat, mask in enumerate(pairs) if controller[seat] != player)
                for player in range(4)
            )
            self._hostile[controller] = masks
        return masks

    # --- the search ------------------------------------------------------------------------------

    def finals(self, cls: int, start: int, die: int, hostile: int) -> int:
        """The squares where the walked path of some legal ``die``-step path of a ``cls`` piece
        from ``start`` ends (CON-33 items 1–2, CON-34), whatever stands on them. ``hostile``: the
        mines that stop the walk."""
        key = (cls, start, die, hostile)
        found = self._finals.get(key)
        if found is None:
            found = self._search(cls, start, die, hostile)
            if len(self._finals) >= _CACHE_LIMIT:
                self._finals.clear()
            self._finals[key] = found
        return found

    def _search(self, cls: int, start: int, die: int, hostile: int) -> int:
        steps, step_mask, balls = self.steps[cls], self.step_mask[cls], self.balls[cls]
        extends = self.extends
        found = 0

        def walk(square: int, left: int, visited: int) -> None:
            nonlocal found
            if left == 1:
                # The last step: every unvisited neighbour ends a walk, a hostile mine included.
                found |= step_mask[square] & ~visited
                return
            after = left - 1
            for near in steps[square]:
                bit = 1 << near
                if visited & bit:
                    continue
                if hostile & bit:
                    # The walk stops on the mine; the rest of the path need only exist (CON-34).
                    if not found & bit and extends(cls, near, after, visited | bit):
                        found |= bit
                elif balls[near][after] & ~(found | visited | bit):
                    walk(near, after, visited | bit)

        walk(start, die, 1 << start)
        return found

    def extends(self, cls: int, square: int, left: int, visited: int) -> bool:
        """Whether a path of ``left`` more steps leaves ``square`` without revisiting ``visited``."""
        steps, step_mask = self.steps[cls], self.step_mask[cls]

        def more(at: int, rest: int, seen: int) -> bool:
            if rest == 1:
                return step_mask[at] & ~seen != 0
            return any(
                not seen & (1 << near) and more(near, rest - 1, seen | (1 << near)) for near in steps[at]
            )

        return left == 0 or more(square, left, visited)

    def first_path(
        self, cls: int, start: int, length: int, goal: int, avoid: int, accept: Callable[[int], bool]
    ) -> list[int] | None:
        """The least path in reading order (CON-5) of exactly ``length`` steps from ``start`` to
        ``goal`` that enters no square of ``avoid`` and none twice, and whose set of squares,
        the start included, ``accept`` takes; ``None`` if there is none."""
        steps, step_mask, balls = self.steps[cls], self.step_mask[cls], self.balls[cls]
        goal_bit = 1 << goal
        path: list[int] = []

        def search(square: int, left: int, visited: int) -> bool:
            if left == 1:
                if step_mask[square] & goal_bit and accept(visited | goal_bit):
                    path.append(goal)
                    return True
                return False
            for near in steps[square]:
                bit = 1 << near
                if visited & bit or avoid & bit or near == goal or not (balls[near][left - 1] >> goal) & 1:
                    continue
                path.append(near)
                if search(near, left - 1, visited | bit):
                    return True
                path.pop()
            return False

        if goal == start or not (balls[start][length] >> goal) & 1:
            return None
        return path if search(start, length, 1 << start) else None

    def canonical_path(self, cls: int, start: int, die: int, final: int, hostile: int) -> list[int] | None:
        """CON-64's canonical path of the decision (piece at ``start``, ``die``, ``final``): the
        shortest walked path, the least in reading order among those; ``None`` if none exists."""
        if hostile >> final & 1:
            before = hostile & ~(1 << final)
            for length in range(1, die + 1):
                rest = die - length

                def completes(visited: int, rest: int = rest) -> bool:
                    return self.extends(cls, final, rest, visited)

                path = self.first_path(cls, start, length, final, before, completes)
                if path is not None:
                    return path
            return None
        return self.first_path(cls, start, die, final, hostile, lambda visited: True)


def _balls(steps: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Per square, the squares within r steps over the class's terrain, for r = 0…6."""
    rings = [[1 << square for square in range(len(steps))]]
    for _ in range(MAX_DIE):
        last = rings[-1]
        ring = []
        for square, near in enumerate(steps):
            mask = last[square]
            for other in near:
                mask |= last[other]
            ring.append(mask)
        rings.append(ring)
    return [tuple(ring[square] for ring in rings) for square in range(len(steps))]


@lru_cache(maxsize=16)
def board_for(value: str) -> Board:
    """The board of a map name or map text (``FormatError`` for a bad map), built once."""
    return Board(load_map(value))
