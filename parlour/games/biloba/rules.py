"""Biloba for 2, 3 and 4 players: the rules of ``specs/biloba.md`` (the original program's, quirks
included), with make/unmake.

Decisions are actions (BIL-53); everything else happens inside ``apply``: forced captures are
detected, eliminations, passes (BIL-50) and seats with no pawns are dealt with, so that
``to_move()`` always names the seat whose decision is next (or ``NOBODY``).

The actions' integers are described in ``actions``, their text in ``notation``; the set-ups and
the JSON form of a position are in ``position``, text rendering in ``render``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from parlour.engine import (
    NOBODY,
    Action,
    Game,
    GameInfo,
    IllegalActionError,
    JSONDict,
    NotationError,
    Option,
    OptionError,
    Outcome,
    State,
    is_leaving,
    leaving_of,
)
from parlour.engine.leaving import ABANDONED, AGREED, RETIRED_WORDS
from parlour.games.biloba.actions import REPLACE_BASE, ROUTE_INDEX, decode_action
from parlour.games.biloba.board import (
    CENTRE,
    CENTRE_NEIGHBOUR_SET,
    CENTRE_NEIGHBOURS,
    COLOUR_LETTERS,
    CORNER,
    EMPTY,
    GRID_NEIGHBOURS,
    HALF_LINES,
    JUMPS_MULTI,
    JUMPS_TWO,
    LINES,
    SIZE,
    STEPS,
    TEST_LINES,
    TILES,
    tile_x,
    tile_y,
)
from parlour.games.biloba.notation import NAMES, action_text, read_action
from parlour.games.biloba.position import (
    MOVE,
    NO_PENDING,
    OVER,
    REPLACE,
    Position,
    board_rows,
    initial_position,
    read_position,
    write_position,
)
from parlour.games.biloba.render import board_text

SEAT_NAMES: Final = ("Orange", "Blue", "Red", "Green")

# Per tile, the move actions a pawn there may take, precomputed with the tiles they test.
_STEP_ACTIONS: Final = tuple(
    tuple((n, (t * TILES + n) * 9) for n in STEPS[t] if n != CENTRE) for t in range(TILES)
)
_ROUTE_ACTIONS: Final = tuple(
    tuple((n, (t * TILES + CENTRE) * 9 + k) for n, k in ROUTE_INDEX.items() if n != t)
    if t in CENTRE_NEIGHBOUR_SET
    else ()
    for t in range(TILES)
)


def _jump_actions(
    table: tuple[tuple[tuple[int, int], ...], ...],
) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    return tuple(tuple((over, land, (t * TILES + land) * 9) for over, land in table[t]) for t in range(TILES))


_JUMP_ACTIONS_TWO: Final = tuple(_jump_actions(table) for table in JUMPS_TWO)
_JUMP_ACTIONS_MULTI: Final = tuple(_jump_actions(table) for table in JUMPS_MULTI)

_zobrist = random.Random(0xB110BA)
ZOBRIST: Final = tuple(tuple(_zobrist.getrandbits(64) for _ in range(TILES)) for _ in range(4))
_SEAT_KEYS: Final = tuple(_zobrist.getrandbits(64) for _ in range(4))
_PENDING_KEYS: Final = tuple(tuple(_zobrist.getrandbits(64) for _ in range(TILES)) for _ in range(TILES))
_FORCED_KEY: Final = _zobrist.getrandbits(64)
_OVER_KEY: Final = _zobrist.getrandbits(64)

# --- events and options ---------------------------------------------------------------------------


class Event(NamedTuple):
    """Something that happened without a decision, or the pawns a capture scan removed.

    ``kind`` is ``"capture"`` (one scan of ``seat``: the wave's removed ``tiles`` and their
    ``colours``), ``"eliminated"`` (BIL-32: ``seat``'s pawns removed), ``"pass"`` (BIL-50) or
    ``"retired"`` (BIL-39: ``seat`` left the table because ``why``; in a 3–4 player game its pawns
    left the board, ``tiles``). ``ply`` is the number of actions applied when it happened; ``turn``
    the turn it belongs to.
    """

    ply: int
    turn: int
    seat: int
    kind: str
    tiles: tuple[int, ...] = ()
    colours: tuple[int, ...] = ()
    why: str = ""


@dataclass(frozen=True)
class CountOrOff(Option):
    """An option whose value is a whole number of at least ``minimum``, or ``None`` (off)."""

    def check(self, value: Any) -> Any:
        if value is None:
            return None
        least = self.minimum if self.minimum is not None else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise OptionError(f"option {self.name!r} must be a whole number of at least {least}, "
                              f"or null (off), not {value!r}")
        return value

    def parse(self, text: str) -> Any:
        if text.strip().lower() in ("null", "none", "off"):
            return None
        try:
            return self.check(int(text))
        except ValueError:
            raise OptionError(f"option {self.name!r} must be a whole number or 'off', not {text!r}") from None


SERVED_QUIET_LIMIT: Final = 200
"""The quiet limit of a 3–4 player server match (BIL-51's recommended value), chosen by measuring
4-player games with ``parlour arena biloba KIND KIND --players 4 -n N [--option quiet_limit=L]``:
without it, 140 of 200 games of greedy bots were still going after 2,000 actions; with 200 every
one ended, the longest after 595 actions. All of 1,000 random games end by themselves (99 % within
1,082 actions); 200 cuts 17 % of them short, 100 cuts 49 % and 50 cuts 88 %."""

OPTIONS: Final = (
    CountOrOff(
        "quiet_limit",
        None,
        "a draw after this many turns in a row without a pawn leaving the board; off for no limit",
        minimum=1,
    ),
    Option("ruleset", "original", "the rules of the original program, quirks included",
           choices=("original",)),
)


# --- the state ------------------------------------------------------------------------------------


class BilobaState(State):
    """A Biloba position with its history (make/unmake on a board list and pawn lists).

    For bots and front ends (read-only):

    * ``board[tile]``: the colour (seat) of the pawn there, ``EMPTY`` or ``CORNER``;
    * ``pawns[colour]``: each pawn's tile in identity order (BIL-11), -1 once it has left;
    * ``counts[colour]``: pawns on the board; ``seat``: whose turn it is;
    * ``phase``: ``MOVE``, ``REPLACE`` or ``OVER``; ``pending``: pending pawn → its empty vacated
      tiles (BIL-28) while ``phase == REPLACE``; ``forced``: the turn is a forced-capture turn;
    * ``turn``: turns begun (BIL-13 turns; seats with no pawns do not count), ``quiet``: turns in a
      row with no pawn leaving (BIL-51); ``log``: the ``Event`` list, ``turn_seats[i]``: the seat of
      turn i + 1.

    Helpers: ``rows()``, ``pending_pawns()``, ``identity(tile)``, ``can_capture_soon(colour)``,
    ``recent_events()``, ``turn_records()``, ``last_mover()``.
    """

    __slots__ = (
        "_changes",
        "_jumps",
        "_legal",
        "_limit",
        "_outcome",
        "_rows",
        "_undo",
        "board",
        "counts",
        "forced",
        "ids",
        "key",
        "log",
        "pawns",
        "pending",
        "phase",
        "quiet",
        "seat",
        "turn",
        "turn_seats",
    )

    def __init__(
        self,
        game: Game[State],
        players: int,
        options: dict[str, Any],
        seed: int,
        start: JSONDict | None,
        position: Position,
    ) -> None:
        super().__init__(game, players, options, seed, start)
        self.board = position.board
        self.ids = [-1] * TILES
        self.pawns = position.pawns
        key = 0
        for colour, tiles in enumerate(self.pawns):
            for identity, tile in enumerate(tiles):
                if tile >= 0:
                    self.ids[tile] = identity
                    key ^= ZOBRIST[colour][tile]
        self.key = key
        self.counts = tuple(sum(1 for t in tiles if t >= 0) for tiles in self.pawns)
        self.seat = position.seat
        self.quiet = position.quiet
        self.forced = position.forced
        self.pending = position.pending
        self.phase = MOVE
        self.turn = 0
        self.turn_seats: list[int] = []
        self.log: list[Event] = []
        self._limit: int = options["quiet_limit"] or 0
        self._jumps = _JUMP_ACTIONS_TWO if players == 2 else _JUMP_ACTIONS_MULTI
        self._legal: list[Action] | None = None
        self._outcome: Outcome | None = None
        self._rows: list[str] | None = None
        self._undo: list[tuple[Any, ...]] = []
        self._changes: list[tuple[int, int, int]] = []
        if self.pending:
            self.phase = REPLACE
            self.turn = 1
            self.turn_seats.append(self.seat)
        else:
            self._run_turns(self.seat)

    # --- the contract --------------------------------------------------------------------------

    def to_move(self) -> int:
        return NOBODY if self.phase == OVER else self.seat

    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._decisions()
        return list(legal)

    def is_legal(self, action: Action) -> bool:
        """Looks at the action's own pawn and tiles (BIL-15 to BIL-18, BIL-28), not the list."""
        if self.phase == REPLACE:
            if action < REPLACE_BASE:
                return False
            pawn, tile = divmod(action - REPLACE_BASE, TILES)
            return tile in self.pending.get(pawn, ())
        if self.phase != MOVE or not 0 <= action < REPLACE_BASE:
            return False
        origin, board = action // (9 * TILES), self.board
        if board[origin] != self.seat:
            return False
        # The tables hold playable tiles only, so a negative cell is an empty tile (as in _moves).
        for target, move in _STEP_ACTIONS[origin]:
            if move == action:
                return board[target] < 0
        for target, move in _ROUTE_ACTIONS[origin]:
            if move == action:
                return board[target] < 0
        for over, land, move in self._jumps[self.seat][origin]:
            if move == action:
                return board[over] >= 0 and board[land] < 0
        return False

    def apply(self, action: Action) -> None:
        self._undo.append((
            self.seat, self.phase, self.pending, self.forced, self.quiet, self.turn, self.counts,
            self.key, self._legal, self._outcome, len(self.log), len(self._changes),
        ))
        self.history.append(action)
        self._legal = None
        self._rows = None
        if action >= REPLACE_BASE:
            self._replace(action - REPLACE_BASE)
        elif action >= 0:
            self._move(action)
        else:
            self._leave(action)

    def undo(self) -> None:
        if not self.history:
            raise IllegalActionError("nothing to undo")
        self.history.pop()
        (
            self.seat, self.phase, self.pending, self.forced, self.quiet, turn, self.counts,
            self.key, self._legal, self._outcome, log_length, change_count,
        ) = self._undo.pop()
        changes, board, ids, pawns = self._changes, self.board, self.ids, self.pawns
        for _ in range(len(changes) - change_count):
            tile, colour, identity = changes.pop()
            board[tile] = colour
            ids[tile] = identity
            if colour >= 0:
                pawns[colour][identity] = tile
        del self.log[log_length:]
        del self.turn_seats[turn:]
        self.turn = turn
        self._rows = None

    def copy_into(self, clone: BilobaState) -> None:
        clone.board = self.board.copy()
        clone.ids = self.ids.copy()
        clone.pawns = [tiles.copy() for tiles in self.pawns]
        clone.counts = self.counts
        clone.key = self.key
        clone.seat = self.seat
        clone.phase = self.phase
        clone.pending = self.pending
        clone.forced = self.forced
        clone.quiet = self.quiet
        clone.turn = self.turn
        clone.turn_seats = self.turn_seats.copy()
        clone.log = self.log.copy()
        clone._limit = self._limit
        clone._jumps = self._jumps
        clone._legal = self._legal
        clone._outcome = self._outcome
        clone._rows = self._rows
        clone._undo = self._undo.copy()
        clone._changes = self._changes.copy()

    def position_key(self) -> int:
        key = self.key ^ _SEAT_KEYS[self.seat]
        if self.phase == OVER:
            return key ^ _OVER_KEY
        if self.phase == REPLACE:
            if self.forced:
                key ^= _FORCED_KEY
            for pawn, tiles in self.pending.items():
                row = _PENDING_KEYS[pawn]
                for tile in tiles:
                    key ^= row[tile]
        return key

    # --- decisions -----------------------------------------------------------------------------

    def _decisions(self) -> list[Action]:
        if self.phase == MOVE:
            return self._moves()
        if self.phase == REPLACE:
            return sorted(
                REPLACE_BASE + pawn * TILES + tile for pawn, tiles in self.pending.items() for tile in tiles
            )
        return []

    def _moves(self) -> list[Action]:
        """BIL-20: every step, jump and centre route of the seat to move, in text order."""
        board = self.board
        jumps = self._jumps[self.seat]
        live = [pawn for pawn in self.pawns[self.seat] if pawn >= 0]
        # The tables hold playable tiles only, so a negative cell is an empty tile. e5 is empty
        # whenever a move is due (BIL-18); BIL-17's entry condition is "some route exists".
        moves = [action for pawn in live for target, action in _STEP_ACTIONS[pawn] if board[target] < 0]
        moves += [action for pawn in live for target, action in _ROUTE_ACTIONS[pawn] if board[target] < 0]
        moves += [
            action
            for pawn in live
            for over, land, action in jumps[pawn]
            if board[over] >= 0 and board[land] < 0
        ]
        moves.sort()
        return moves

    def _move(self, action: Action) -> None:
        rest, route = divmod(action, 9)
        origin, target = divmod(rest, TILES)
        if route:
            target = CENTRE_NEIGHBOURS[route - 1]
        colour = self.seat
        board, ids = self.board, self.ids
        identity = ids[origin]
        self._changes += ((origin, colour, identity), (target, EMPTY, -1))
        board[origin] = EMPTY
        ids[origin] = -1
        board[target] = colour
        ids[target] = identity
        self.pawns[colour][identity] = target
        zobrist = ZOBRIST[colour]
        self.key ^= zobrist[origin] ^ zobrist[target]
        # BIL-27. No sandwich of this colour existed before the move (BIL-26 took them), so every
        # new one has the moved pawn as a flanker: look around it only.
        captured: list[int] = []
        pending: dict[int, tuple[int, ...]] = {}
        for mid, far in LINES[target]:
            enemy = board[mid]
            if enemy >= 0 and enemy != colour and board[far] == colour:
                captured.append(mid)
                pending[far] = (mid,)
        if not captured:
            self.quiet += 1
            self._next_turn()
            return
        captured.sort()
        pending[target] = tuple(captured)
        self.forced = False
        self._capture(captured, pending)

    def _replace(self, code: int) -> None:
        """BIL-28: the pending pawn moves on to the vacated tile; the lists are updated."""
        pawn, tile = divmod(code, TILES)
        colour = self.seat
        board, ids = self.board, self.ids
        identity = ids[pawn]
        self._changes += ((pawn, colour, identity), (tile, EMPTY, -1))
        board[pawn] = EMPTY
        ids[pawn] = -1
        board[tile] = colour
        ids[tile] = identity
        self.pawns[colour][identity] = tile
        zobrist = ZOBRIST[colour]
        self.key ^= zobrist[pawn] ^ zobrist[tile]
        pending: dict[int, tuple[int, ...]] = {}
        for other, tiles in self.pending.items():
            if other != pawn:
                left = tuple(t for t in tiles if t != tile)
                if left:
                    pending[other] = left
        if pending:
            self.pending = pending
            return
        self.pending = NO_PENDING
        captured, pending = self._scan()  # BIL-29: the next wave
        if captured:
            self._capture(captured, pending)
            return
        if self.forced:
            self._eliminate_if_stuck()
        self.quiet = 0
        self._next_turn()

    # --- capture, elimination, turns ------------------------------------------------------------

    def _scan(self) -> tuple[list[int], dict[int, tuple[int, ...]]]:
        """BIL-25: every enemy pawn flanked by the seat's pawns, and each flanker's vacated tiles."""
        colour = self.seat
        board = self.board
        sandwiches = [
            (pawn, mid, far)
            for pawn in self.pawns[colour]
            if pawn >= 0
            for mid, far in HALF_LINES[pawn]
            if board[far] == colour and board[mid] >= 0 and board[mid] != colour
        ]
        if not sandwiches:
            return [], NO_PENDING
        vacated: dict[int, set[int]] = {}
        for pawn, mid, far in sandwiches:
            vacated.setdefault(pawn, set()).add(mid)
            vacated.setdefault(far, set()).add(mid)
        captured = sorted({mid for _, mid, _ in sandwiches})
        return captured, {pawn: tuple(sorted(tiles)) for pawn, tiles in vacated.items()}

    def _capture(self, captured: list[int], pending: dict[int, tuple[int, ...]]) -> None:
        """Removes a scan's pawns; then the replacements are due, unless the game is over (BIL-29)."""
        colours = tuple(self.board[t] for t in captured)
        self._remove(captured)
        self.log.append(Event(len(self.history), self.turn, self.seat, "capture", tuple(captured), colours))
        if self._ended():
            if self.forced:
                self._eliminate_if_stuck()  # BIL-13 quirk: the test runs before the end is seen
            self._finish()
            return
        self.phase = REPLACE
        self.pending = pending

    def _remove(self, tiles: list[int] | tuple[int, ...]) -> None:
        board, ids, pawns = self.board, self.ids, self.pawns
        counts = list(self.counts)
        key = self.key
        for tile in tiles:
            colour, identity = board[tile], ids[tile]
            self._changes.append((tile, colour, identity))
            board[tile] = EMPTY
            ids[tile] = -1
            pawns[colour][identity] = -1
            counts[colour] -= 1
            key ^= ZOBRIST[colour][tile]
        self.key = key
        self.counts = tuple(counts)

    def can_capture_soon(self, colour: int) -> bool:
        """BIL-33, exactly: reachability ignored, a non-playable T accepted, the centre clause."""
        board = self.board
        near_centre = any(board[t] == colour for t in CENTRE_NEIGHBOURS)
        for pawn in self.pawns[colour]:
            if pawn < 0:
                continue
            for enemy, beyond in TEST_LINES[pawn]:
                other = board[enemy]
                if other < 0 or other == colour or beyond < 0 or beyond == CENTRE or board[beyond] >= 0:
                    continue
                if near_centre and beyond in CENTRE_NEIGHBOUR_SET:
                    return True
                if any(board[t] == colour for t in GRID_NEIGHBOURS[beyond]):
                    return True
        return False

    def _eliminate_if_stuck(self) -> bool:
        """BIL-32: at its turn start a player with 1 or 2 pawns that cannot capture soon is out."""
        seat = self.seat
        if not 0 < self.counts[seat] <= 2 or self.can_capture_soon(seat):
            return False
        tiles = tuple(t for t in self.pawns[seat] if t >= 0)
        self._remove(tiles)
        self.log.append(Event(len(self.history), self.turn, seat, "eliminated", tiles, (seat,) * len(tiles)))
        return True

    def _ended(self) -> bool:
        """BIL-36: at most one player has pawns, or (2 players only) both have exactly two."""
        counts = self.counts
        if self.players == 2:
            return counts[0] == 0 or counts[1] == 0 or (counts[0] == 2 and counts[1] == 2)
        return sum(1 for n in counts if n) <= 1

    def _finish(self, reason: str | None = None, winner: int | None = None) -> None:
        """BIL-37, or when ``reason`` is given: a draw of BIL-50/51 or of the table, or ``winner``'s
        win when the other seat in play left the table (BIL-39). The game is over."""
        self.phase = OVER
        self.pending = NO_PENDING
        self._legal = []
        if reason is not None:
            self._outcome = Outcome(winner, reason)
            return
        strong = [seat for seat, n in enumerate(self.counts) if n >= 2]
        alive = [seat for seat, n in enumerate(self.counts) if n]
        if not alive:
            reason = "no-pawns"
        elif len(alive) == 1:
            reason = "last-player" if strong else "lone-pawn"
        else:
            reason = "two-against-two"
        self._outcome = Outcome(strong[0] if len(strong) == 1 else None, reason)

    def _next_turn(self) -> None:
        self._run_turns((self.seat + 1) % self.players)

    def _run_turns(self, seat: int) -> None:
        """BIL-12/13: starts turns from ``seat`` on until one needs a decision or the game ends."""
        passes = 0
        while True:
            self.seat = seat
            if self._ended():
                self._finish()
                return
            if self._limit and self.quiet >= self._limit:
                self._finish("quiet-limit")
                return
            counts = self.counts
            while not counts[seat]:
                seat = (seat + 1) % self.players
            self.seat = seat
            self.turn += 1
            self.turn_seats.append(seat)
            captured, pending = self._scan()
            if captured:  # BIL-26: a forced-capture turn
                self.forced = True
                self._capture(captured, pending)
                return
            if self._eliminate_if_stuck():
                self.quiet = 0
                passes = 0
            else:
                self.forced = False
                moves = self._moves()
                if moves:
                    self.phase = MOVE
                    self._legal = moves
                    return
                # BIL-50: no legal move, a pass; a whole round of passes is a deadlock.
                self.log.append(Event(len(self.history), self.turn, seat, "pass"))
                self.quiet += 1
                passes += 1
                if passes >= sum(1 for n in self.counts if n):
                    self._finish("deadlock")
                    return
            seat = (seat + 1) % self.players

    # --- leaving the table (BIL-39) ------------------------------------------------------------

    def _leave(self, action: Action) -> None:
        """A leaving action ``State.leave`` checked: a draw the table agreed, an abandoned match,
        or a seat retiring (BIL-39). Whatever it removes goes through ``_remove``, so ``undo``
        restores it like any capture."""
        leaving = leaving_of(action)
        assert leaving is not None
        if leaving.kind != "retire":
            self._finish(AGREED if leaving.kind == "agreed" else ABANDONED)
            return
        seat, why = leaving.seat, leaving.why
        assert seat is not None
        assert why is not None
        others = [other for other, count in enumerate(self.counts) if count and other != seat]
        tiles: tuple[int, ...] = ()
        if self.players > 2:
            # As the original's quit: every pawn leaves at once. Not a capture, so no replacements;
            # but pawns left the board, which resets the quiet count (BIL-51).
            tiles = tuple(t for t in self.pawns[seat] if t >= 0)
            self._remove(tiles)
            self.quiet = 0
        colours = (seat,) * len(tiles)
        self.log.append(Event(len(self.history), self.turn, seat, "retired", tiles, colours, why))
        if self.players == 2:
            self._finish(why, others[0])  # the other seat wins at once, for the reason given
        elif self._ended():
            # At most one player left in the game: BIL-36 and BIL-37 decide (a last player with a
            # single pawn draws, as always).
            self._finish()
        elif seat == self.seat:
            # Its half-made turn (replacements due, a move not yet made) is dropped: the turn
            # passes to the next seat in play, whose turn starts as any turn does (BIL-13).
            self.pending = NO_PENDING
            self._next_turn()
        # Otherwise the seat to move goes on with its turn: the pawns gone only emptied tiles, so
        # it keeps a move (a jump over a pawn that left becomes a step on to its tile) and no
        # sandwich of its colour appeared; its decisions are listed again (apply reset them).

    def seats_out(self) -> list[str | None]:
        """In a 3–4 player game a seat with no pawns left is out (BIL-34), for the reason the log
        keeps: it retired (BIL-39), was eliminated (BIL-32) or lost its last pawns to a capture.
        In a 2-player game the game ends when a seat is out, and nobody is listed."""
        out: list[str | None] = [None] * self.players
        if self.players > 2:
            for seat, count in enumerate(self.counts):
                if not count:
                    out[seat] = self._why_out(seat)
        return out

    def _why_out(self, seat: int) -> str:
        """Words completing "<seat> is out: …" for a seat with no pawns left."""
        for event in reversed(self.log):
            if event.kind == "retired" and event.seat == seat:
                return RETIRED_WORDS[event.why]
            if event.kind == "eliminated" and event.seat == seat:
                left = "one pawn" if len(event.tiles) == 1 else "two pawns"
                return f"down to {left} with no capture in sight"
            if event.kind == "capture" and seat in event.colours:
                last = "pawn" if event.colours.count(seat) == 1 else "pawns"
                return f"{self.seat_names()[event.seat]} took its last {last}"
        return "it had no pawns from the start"

    def _leaving_record(self, action: Action) -> str:
        """A leaving action as a line of the turn record: ``R: resigned``, ``draw agreed``."""
        leaving = leaving_of(action)
        if leaving is not None and leaving.kind == "retire":
            assert leaving.seat is not None
            assert leaving.why is not None
            return f"{COLOUR_LETTERS[leaving.seat]}: {RETIRED_WORDS[leaving.why]}"
        return self.leaving_text(action)

    # --- for bots and front ends ----------------------------------------------------------------

    def pending_pawns(self) -> list[int]:
        """The tiles of the pending pawns in identity order (BIL-11), as the original lists them."""
        ids = self.ids
        return sorted(self.pending, key=lambda tile: ids[tile])

    def rows(self) -> list[str]:
        """The board as BIL-6 strings, row 1 first."""
        if self._rows is None:
            self._rows = board_rows(self.board)
        return list(self._rows)

    def recent_events(self) -> list[Event]:
        """What happened after the last decision (or the start), in order: its capture scan, then
        the automatic turns up to the next decision."""
        ply = len(self.history)
        first = len(self.log)
        while first and self.log[first - 1].ply == ply:
            first -= 1
        return self.log[first:]

    def identity(self, tile: int) -> int:
        """The identity index (BIL-11) of the pawn on ``tile``, -1 if there is none."""
        return self.ids[tile]

    def turn_records(self) -> list[str]:
        """BIL-55: one line per turn since the start position, e.g. ``O: g3-f4 d4>e4``.

        Leaving the table (BIL-39) is a line of its own where it happened (``R: resigned``,
        ``draw agreed``); a turn it came in the middle of is split around it, and a turn it
        dropped before any decision has no line."""
        words: list[list[str | int]] = [[] for _ in self.turn_seats]
        for action, saved in zip(self.history, self._undo, strict=True):
            words[saved[5] - 1].append(action if action < 0 else action_text(action))
        for event in self.log:
            if event.kind in ("pass", "eliminated"):
                words[event.turn - 1].append(event.kind)
        if words and not words[-1] and self.phase != OVER:
            del words[-1]  # the turn in progress, before its first decision
        lines: list[str] = []
        for seat, turn in zip(self.turn_seats, words, strict=False):
            head = COLOUR_LETTERS[seat] + ":"
            run: list[str] = []
            for word in turn:
                if isinstance(word, str):
                    run.append(word)
                    continue
                if run:
                    lines.append(" ".join([head, *run]))
                    run = []
                lines.append(self._leaving_record(word))
            if run or not any(isinstance(word, int) for word in turn):
                lines.append(" ".join([head, *run]))
        return lines

    # --- notation and views -----------------------------------------------------------------------

    def action_to_text(self, action: Action) -> str:
        if 0 <= action < REPLACE_BASE + TILES * TILES:
            return action_text(action)
        if is_leaving(action):
            return self.leaving_text(action)
        raise NotationError(f"{action} is not a Biloba action")

    def parse_action(self, text: str) -> Action:
        """``d4-d5``, ``c3-c5``, ``d4-e5-f5`` or ``c3>c4`` (BIL-21, BIL-30)."""
        action = read_action(text)
        if not self.is_legal(action):
            raise self.refusal(action, text.strip().lower())
        return action

    def illegal_reason(self, action: Action) -> str:
        """The first of BIL-15 to BIL-19 and BIL-28 that the action breaks, in words."""
        if self.phase == OVER or not 0 <= action < REPLACE_BASE + TILES * TILES:
            return super().illegal_reason(action)
        who = SEAT_NAMES[self.seat]
        if self.phase == REPLACE and action < REPLACE_BASE:
            return f"{who} must first replace captured pawns (BIL-28): {self.legal_sample()}"
        if self.phase == MOVE and action >= REPLACE_BASE:
            return f"no replacement is pending: {who} must move (BIL-28)"
        tiles = decode_action(action)
        if self.board[tiles[0]] != self.seat:
            return self._not_yours(tiles[0])
        if self.phase == REPLACE:
            return self._replacement_reason(*tiles)
        if len(tiles) == 3:
            return self._route_reason(*tiles)
        return self._move_reason(action, *tiles)

    def _not_yours(self, tile: int) -> str:
        owner = self.board[tile]
        if owner == CORNER:
            return f"{NAMES[tile]} is a cut corner, not a playable tile (BIL-2)"
        if owner == EMPTY:
            return f"no pawn of yours ({SEAT_NAMES[self.seat]}) on {NAMES[tile]}"
        return f"the pawn on {NAMES[tile]} is {SEAT_NAMES[owner]}'s, not yours ({SEAT_NAMES[self.seat]})"

    def _taken(self, tile: int) -> str | None:
        """Why a pawn cannot end on ``tile`` (BIL-2, BIL-15, BIL-16), or ``None``: it is empty."""
        owner = self.board[tile]
        if owner == CORNER:
            return f"{NAMES[tile]} is a cut corner, not a playable tile (BIL-2)"
        if owner >= 0:
            return f"{NAMES[tile]} holds {SEAT_NAMES[owner]}'s pawn: a pawn ends its move on an empty tile " \
                   "(BIL-15, BIL-16)"
        return None

    def _replacement_reason(self, pawn: int, tile: int) -> str:
        pending = sorted(self.pending)
        if pawn not in self.pending:
            names = ", ".join(NAMES[p] for p in pending)
            return f"the pawn on {NAMES[pawn]} flanked no captured pawn whose tile is still empty: the " \
                   f"pending pawns are {names} (BIL-28)"
        tiles = ", ".join(NAMES[t] for t in sorted(self.pending[pawn]))
        return f"{NAMES[tile]} is not one of the vacated tiles the pawn on {NAMES[pawn]} may fill: {tiles} " \
               "(BIL-28)"

    def _route_reason(self, origin: int, centre: int, last: int) -> str:
        if origin not in CENTRE_NEIGHBOUR_SET:
            return "only a pawn next to e5 can step on to it; a jump may not land there (BIL-16, BIL-17)"
        if last == origin:
            return f"from e5 the pawn may not go back to {NAMES[last]}, where it came from (BIL-18)"
        taken = self._taken(last)
        if taken is not None:
            return taken
        return "e5 may be entered only while one of its other neighbours is empty (BIL-17)"

    def _move_reason(self, action: Action, origin: int, last: int) -> str:
        dx, dy = tile_x(last) - tile_x(origin), tile_y(last) - tile_y(origin)
        step = max(abs(dx), abs(dy)) == 1
        jump = max(abs(dx), abs(dy)) == 2 and dx % 2 == 0 and dy % 2 == 0
        if not step and not jump:
            return "a pawn steps to a neighbouring tile or jumps over one pawn next to it, in a straight " \
                   "line (BIL-15, BIL-16)"
        taken = self._taken(last)
        if taken is not None:
            return taken
        if last == CENTRE:
            if step and all(self.board[tile] != EMPTY for tile in CENTRE_NEIGHBOURS if tile != origin):
                return "e5 may be entered only while one of its other neighbours is empty (BIL-17)"
            if step:
                return "a pawn that steps on to e5 must go on at once to another neighbour of e5, written " \
                       f"{NAMES[origin]}-e5-TILE (BIL-18)"
            return "a jump may not land on e5 (BIL-16)"
        if step:  # a step to an empty tile other than e5 is always legal (BIL-15)
            return super().illegal_reason(action)
        over = origin + (dx // 2) * SIZE + dy // 2
        if self.board[over] < 0:
            return f"a jump goes over a pawn, and {NAMES[over]} is empty (BIL-16)"
        return f"{SEAT_NAMES[self.seat]} may not jump backwards, away from the other side (BIL-19)"

    def position_json(self) -> JSONDict:
        return write_position(self)

    def view_content(self, seat: int | None) -> JSONDict:
        """Biloba hides nothing: every seat and spectator sees the whole position."""
        return {
            "position": self.position_json(),
            "pawn_counts": list(self.counts),
            "turn": self.turn,
            "last_move": self.action_to_text(self.history[-1]) if self.history else None,
            "events": [
                {"kind": e.kind, "seat": e.seat, "turn": e.turn, "tiles": [NAMES[t] for t in e.tiles]}
                for e in self.recent_events()
            ],
        }

    def action_parts(self, action: Action) -> JSONDict:
        """A legal action as data. ``kind``: ``step`` (BIL-15), ``jump`` (BIL-16, with ``over``,
        the tile jumped over), ``route`` (a centre route, BIL-18, with ``path``: ``[from, e5, to]``)
        or ``replace`` (BIL-28: ``from`` is the pending pawn, ``to`` the vacated tile it fills).
        Every kind has ``from`` and ``to``. Parts travel with every legal action, so they repeat
        nothing: whose pawn it is, the view's ``to_move`` says."""
        squares = decode_action(action)
        tiles = [NAMES[t] for t in squares]
        parts: JSONDict = {"kind": "", "from": tiles[0], "to": tiles[-1]}
        if action >= REPLACE_BASE:
            return parts | {"kind": "replace"}
        if len(tiles) == 3:
            return parts | {"kind": "route", "path": tiles}
        origin, target = squares
        if target in STEPS[origin]:
            return parts | {"kind": "step"}
        return parts | {"kind": "jump", "over": NAMES[(origin + target) // 2]}

    def render(self, seat: int | None = None) -> str:
        return board_text(self)

    def last_mover(self) -> int:
        """The seat that took the last decision (there must be one)."""
        return int(self._undo[-1][0])


# --- the game -------------------------------------------------------------------------------------


class Biloba(Game[BilobaState]):
    """Biloba for 2, 3 and 4 players, as the original program plays it (``specs/biloba.md``)."""

    info = GameInfo(
        name="biloba",
        title="Biloba",
        min_players=2,
        max_players=4,
        default_players=2,
        chance=False,
        hidden_information=False,
        options=OPTIONS,
        seat_names=SEAT_NAMES,
        end_reasons={
            "last-player": "the only player with pawns left",  # BIL-37
            "lone-pawn": "the last player left has a single pawn",
            "no-pawns": "no pawns are left",
            "two-against-two": "two pawns against two",  # BIL-36
            "quiet-limit": "too many turns in a row without a capture",  # BIL-51
            "deadlock": "no player can move",  # BIL-50
        },
    )

    def served_options(self, players: int, bots_only: bool = False) -> dict[str, Any]:
        """With 3–4 players, bots left among themselves can shuffle for ever (a5-a6-a5 past turn
        380, issue 14): a server match has the quiet limit on (BIL-51; see ``SERVED_QUIET_LIMIT``).
        So does a match of two bots: 21 of 30 greedy pairs were still going after 3,000 actions
        without it; with it all 30 ended, the longest after 530. Two people (or a person and a bot,
        whose game ends when the person leaves) play without it, as the original program did."""
        return {"quiet_limit": SERVED_QUIET_LIMIT} if players > 2 or bots_only else {}

    def players_for(
        self, players: int | None, options: dict[str, Any], start: JSONDict | None
    ) -> int | None:
        if players is None and isinstance(start, dict) and isinstance(start.get("players"), int):
            return int(start["players"])
        return players

    def create(
        self, players: int, options: dict[str, Any], seed: int, start: JSONDict | None
    ) -> BilobaState:
        """The set-up (BIL-9, BIL-10), or ``start`` in ``position_json`` form: ``board`` and
        ``to_move`` at the start of that player's turn (before its forced captures), optionally
        ``players``, ``pawns`` (identities), ``quiet``, and ``pending``/``forced`` mid-replacement."""
        position = initial_position(players) if start is None else read_position(start, players)
        return BilobaState(self, players, options, seed, start, position)

    def from_rows(
        self,
        rows: list[str],
        to_move: str = "orange",
        players: int = 2,
        options: Mapping[str, Any] | None = None,
    ) -> BilobaState:
        """A position from its BIL-6 rows, at the start of ``to_move``'s turn."""
        return self.new(players, options, start={"board": rows, "to_move": to_move})
