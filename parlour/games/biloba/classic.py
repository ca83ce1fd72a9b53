"""The original Biloba program's computer player (spec section 15), as the ``classic`` bot.

Greedy with a one-move horizon: pass A (attack now), pass D (defend), pass B (attack later),
then a random move; the same passes pick the pawn of each replacement (15.3). Candidates are
scanned in pawn identity order (BIL-11) and destinations in the order of the original's
``access`` lists (15.1), so ties go where the original's go. The only intended difference from
the original is the random generator: a seeded ``self.rng`` instead of the C library's.

The policy works on a plain board of colours with the rules' tile numbers (``x * 9 + y``, so
that ascending tiles are the original's x-outer, y-inner scan); pawn identities and pending
pawns come from the rules' state. Its decisions are written in the spec's notation (BIL-21,
BIL-30) and read back by the rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from parlour.engine import Action, Bot, OptionError, ParlourError, State
from parlour.games.biloba import REPLACE, BilobaState

SIZE: Final = 9
EMPTY: Final = -1
CENTRE: Final = 4 * SIZE + 4
COLOURS: Final = "OBRG"
FILES: Final = "abcdefghi"
RANDOM_TRIES: Final = 10_000
"""The random step repeats when it draws an occupied entry (15.2); a legal move always exists
when a move is asked for, so this bound is only a guard against a bug looping for ever."""

NON_PLAYABLE: Final = frozenset(
    x * SIZE + y
    for x, y in ((0, 0), (1, 0), (0, 1), (7, 0), (8, 0), (8, 1),
                 (0, 7), (0, 8), (1, 8), (8, 7), (7, 8), (8, 8))
)  # BIL-2


def _neighbours(tile: int) -> tuple[int, ...]:
    """The in-grid cells around ``tile``, x the outer loop and y the inner one (15.1)."""
    x, y = divmod(tile, SIZE)
    return tuple(
        nx * SIZE + ny
        for nx in (x - 1, x, x + 1)
        for ny in (y - 1, y, y + 1)
        if (nx, ny) != (x, y) and 0 <= nx < SIZE and 0 <= ny < SIZE
    )


NEIGHBOURS: Final = tuple(_neighbours(tile) for tile in range(SIZE * SIZE))
RING: Final = NEIGHBOURS[CENTRE]
"""The centre's eight neighbours (BIL-17)."""
RING_SET: Final = frozenset(RING)


def beyond(a: int, b: int) -> int | None:
    """The cell beyond ``b`` from ``a`` (adjacent cells, BIL-4); ``None`` off the grid."""
    (ax, ay), (bx, by) = divmod(a, SIZE), divmod(b, SIZE)
    cx, cy = 2 * bx - ax, 2 * by - ay
    return cx * SIZE + cy if 0 <= cx < SIZE and 0 <= cy < SIZE else None


def tile_name(tile: int) -> str:
    return f"{FILES[tile // SIZE]}{tile % SIZE + 1}"  # BIL-5


def parse_tile(name: str) -> int:
    return FILES.index(name[0]) * SIZE + int(name[1:]) - 1


def forward(colour: int, players: int, start: int, landing: int) -> bool:
    """Whether a jump of ``colour`` from ``start`` to ``landing`` is not backwards (BIL-19)."""
    (sx, sy), (tx, ty) = divmod(start, SIZE), divmod(landing, SIZE)
    if colour == 0:
        return ty >= sy
    if colour == 1:
        return ty <= sy if players == 2 else tx <= sx
    if colour == 2:
        return ty <= sy
    return tx >= sx


@dataclass
class Board:
    """Whose pawn stands on each of the 81 cells (``EMPTY`` for none), and the game's size."""

    cells: list[int]
    players: int

    @classmethod
    def from_rows(cls, rows: Sequence[str], players: int) -> Board:
        """The board from its nine strings (BIL-6)."""
        cells = [EMPTY] * (SIZE * SIZE)
        for y, row in enumerate(rows):
            for x, char in enumerate(row):
                if char in COLOURS:
                    cells[x * SIZE + y] = COLOURS.index(char)
        return cls(cells, players)

    def tiles_of(self, colour: int) -> list[int]:
        return [tile for tile, owner in enumerate(self.cells) if owner == colour]

    # --- the original's helper measures (15.1) ---------------------------------------------

    def centre_enterable(self) -> bool:
        cells = self.cells
        return any(cells[tile] == EMPTY for tile in RING)

    def access(self, tile: int) -> list[int]:
        """The original's destination list for the pawn on ``tile`` (15.1): steps, and for
        each legal jump the jumped-over tile then the landing tile."""
        cells = self.cells
        colour = cells[tile]
        entries: list[int] = []
        for cell in NEIGHBOURS[tile]:
            if cell in NON_PLAYABLE:
                continue
            if cells[cell] == EMPTY:
                if cell != CENTRE or self.centre_enterable():
                    entries.append(cell)
                continue
            if colour == EMPTY or tile == CENTRE:
                continue
            landing = beyond(tile, cell)
            if (landing is not None and landing != CENTRE and landing not in NON_PLAYABLE
                    and cells[landing] == EMPTY and forward(colour, self.players, tile, landing)):
                entries += (cell, landing)
        return entries

    def near_centre(self, tile: int) -> bool:
        """Whether ``access(tile)`` holds the centre (15.1)."""
        if tile not in RING_SET:
            return False
        cells = self.cells
        if cells[CENTRE] == EMPTY:
            return self.centre_enterable()
        # A pawn standing on the centre for a moment (pass D): the centre is then a tile that
        # the pawn on ``tile`` might jump over.
        colour = cells[tile]
        landing = beyond(tile, CENTRE)
        return (colour != EMPTY and landing is not None and cells[landing] == EMPTY
                and forward(colour, self.players, tile, landing))

    def _colour_next_to(self, colour: int, tile: int) -> bool:
        cells = self.cells
        return any(cells[cell] == colour for cell in NEIGHBOURS[tile])

    def threatened(self, colour: int, tiles: Iterable[int]) -> int:
        """How many of ``colour``'s pawns on ``tiles`` could be flanked next (15.1)."""
        cells = self.cells
        count = 0
        for pawn in tiles:
            for enemy_tile in NEIGHBOURS[pawn]:
                enemy = cells[enemy_tile]
                if enemy in (EMPTY, colour):
                    continue
                far = beyond(enemy_tile, pawn)
                if far is None or far == CENTRE:
                    continue
                if (cells[far] == enemy or self._colour_next_to(enemy, far)
                        or (self.near_centre(far) and self._colour_next_to(enemy, CENTRE))):
                    count += 1
                    break
        return count

    def attack_now(self, pawn: int) -> int:
        """How many enemy pawns the pawn on ``pawn`` flanks right now (15.1)."""
        cells = self.cells
        colour = cells[pawn]
        count = 0
        for enemy_tile in NEIGHBOURS[pawn]:
            if cells[enemy_tile] in (EMPTY, colour):
                continue
            far = beyond(pawn, enemy_tile)
            if far is not None and far != CENTRE and cells[far] == colour:
                count += 1
        return count

    def attack_later(self, pawn: int) -> int:
        """How many own pawns could close a sandwich on an enemy next to ``pawn`` (15.1)."""
        cells = self.cells
        colour = cells[pawn]
        fillers: set[int] = set()
        for enemy_tile in NEIGHBOURS[pawn]:
            if cells[enemy_tile] in (EMPTY, colour):
                continue
            far = beyond(pawn, enemy_tile)
            if far is None or far == CENTRE or cells[far] != EMPTY:
                continue
            fillers.update(cell for cell in NEIGHBOURS[far] if cells[cell] == colour)
            if self.near_centre(far):
                fillers.update(cell for cell in RING if cells[cell] == colour)
        return len(fillers)

    def moved(self, start: int, end: int) -> None:
        self.cells[end], self.cells[start] = self.cells[start], EMPTY


@dataclass(frozen=True)
class Plan:
    """The pawn chosen, the tile it goes to, and whether it goes there through the centre."""

    pawn: int
    destination: int
    via_centre: bool = False


def attack_pass(board: Board, colour: int, candidates: Sequence[int], later: bool) -> Plan | None:
    """Pass A (``later`` false: ``attack_now``) or pass B (``attack_later``, safe moves only)."""
    before = board.threatened(colour, board.tiles_of(colour))
    measure: Callable[[int], int] = board.attack_later if later else board.attack_now
    best: Plan | None = None
    most = 0
    for origin in candidates:
        entries = board.access(origin)
        index = 0
        while index < len(entries):  # the list grows when it meets the centre
            destination = entries[index]
            index += 1
            if board.cells[destination] != EMPTY:
                continue
            if destination == CENTRE:
                entries += [tile for tile in board.access(CENTRE) if tile not in entries]
                continue
            board.moved(origin, destination)
            gain = measure(destination)
            exposed = board.threatened(colour, (destination,))
            # Pass B skips a move that exposes the pawn more than ``before`` (the original
            # compares one pawn's count with all pawns') and accepts only unexposed ones.
            if later and (exposed > before or exposed != 0):
                board.moved(destination, origin)
                continue
            if gain > most:
                most = gain
                dx = abs(destination // SIZE - origin // SIZE)
                dy = abs(destination % SIZE - origin % SIZE)
                via_centre = ((dx == 2 or dy == 2) and board.near_centre(origin)
                              and board.near_centre(destination))
                best = Plan(origin, destination, via_centre)
            board.moved(destination, origin)
    return best


def defend_pass(board: Board, colour: int, candidates: Sequence[int],
                guarded: Sequence[int] | None) -> Plan | None:
    """Pass D: the last move that strictly lowers the threat count of the ``guarded`` pawns
    (all of ``colour``'s when ``None``)."""

    def threat() -> int:
        tiles = board.tiles_of(colour) if guarded is None else watched
        return board.threatened(colour, tiles)

    watched = list(guarded or ())
    least = threat()
    best: Plan | None = None
    for origin in candidates:
        for destination in board.access(origin):
            if board.cells[destination] != EMPTY:
                continue
            board.moved(origin, destination)
            if guarded is not None:
                watched = [destination if tile == origin else tile for tile in guarded]
            count = threat()
            if count < least:
                least, best = count, Plan(origin, destination)
            board.moved(destination, origin)
    return best


def plan(board: Board, colour: int, candidates: Sequence[int],
         guarded: Sequence[int] | None = None) -> Plan | None:
    """Passes A, D and B in the original's order (15.2); ``None`` leaves it to chance."""
    return (attack_pass(board, colour, candidates, later=False)
            or defend_pass(board, colour, candidates, guarded)
            or attack_pass(board, colour, candidates, later=True))


def continuation(board: Board, origin: int, rng: random.Random) -> int:
    """A random continuation from the centre for a pawn that came from ``origin`` (15.4)."""
    board.moved(origin, CENTRE)
    choices = [tile for tile in board.access(CENTRE) if tile != origin]
    board.moved(CENTRE, origin)
    return rng.choice(choices)


def random_move(board: Board, pawns: Sequence[int], rng: random.Random) -> Plan | None:
    """The original's random step (15.2), repeated while it draws an occupied entry."""
    for _ in range(RANDOM_TRIES):
        pawn = rng.choice(pawns)
        entries = board.access(pawn)
        if not entries:  # this crashes the original; classic picks another pawn
            continue
        destination = rng.choice(entries)
        if board.cells[destination] == EMPTY:
            return Plan(pawn, destination)
    return None


def move_text(board: Board, chosen: Plan, rng: random.Random) -> str:
    """The move in the spec's notation (BIL-21), a centre continuation drawn if unplanned."""
    start = tile_name(chosen.pawn)
    if chosen.via_centre:
        return f"{start}-e5-{tile_name(chosen.destination)}"
    if chosen.destination == CENTRE:
        return f"{start}-e5-{tile_name(continuation(board, chosen.pawn, rng))}"
    return f"{start}-{tile_name(chosen.destination)}"


def choose_move(board: Board, colour: int, pawns: Sequence[int], rng: random.Random) -> str | None:
    """The original's move for ``colour`` whose pawns, in identity order, are ``pawns``."""
    chosen = plan(board, colour, pawns) or random_move(board, pawns, rng)
    return None if chosen is None else move_text(board, chosen, rng)


def choose_replacement(board: Board, colour: int, pending: Sequence[int],
                       vacated: dict[int, list[int]], rng: random.Random) -> str:
    """The original's replacement (15.3): ``pending`` pawns in identity order, ``vacated`` the
    empty vacated tiles of each."""
    chosen = plan(board, colour, pending, guarded=pending)
    pawn = chosen.pawn if chosen is not None else rng.choice(pending)
    tiles = vacated[pawn]
    tile = chosen.destination if chosen is not None and chosen.destination in tiles else rng.choice(tiles)
    return f"{tile_name(pawn)}>{tile_name(tile)}"


class ClassicBilobaBot(Bot):
    """The original program's computer player for Biloba (section 15), moves and replacements.

    ``fallbacks`` counts decisions where the policy produced no legal action and a random legal
    one was played instead: never, unless the policy has a bug (the tests check it stays 0).
    """

    name = "classic"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.fallbacks = 0

    def choose(self, state: State, seconds: float) -> Action:
        if not isinstance(state, BilobaState):
            raise OptionError(f"the classic Biloba bot plays Biloba, not {state.game.info.name}")
        if state.is_over():
            raise OptionError("the game is over: there is nothing to choose")
        board = Board([owner if owner >= 0 else EMPTY for owner in state.board], state.players)
        colour = state.to_move()
        text: str | None
        if state.phase == REPLACE:
            pending = state.pending_pawns()
            vacated = {pawn: list(state.pending[pawn]) for pawn in pending}
            text = choose_replacement(board, colour, pending, vacated, self.rng)
        else:
            pawns = [tile for tile in state.pawns[colour] if tile >= 0]
            text = choose_move(board, colour, pawns, self.rng)
        if text is not None:
            try:
                return state.parse_action(text)
            except ParlourError:
                pass
        self.fallbacks += 1
        return self.rng.choice(state.legal_actions())


CLASSIC: Final[Callable[[int], Bot]] = ClassicBilobaBot
"""A new classic player from a seed (``parlour.bots`` finds it here): Biloba's ``classic`` bot."""
