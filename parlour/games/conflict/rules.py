"""Conflict for 2, 3 and 4 players: the rules of ``specs/conflict.md`` (CON-…) with make/unmake.

The dice are chance decisions (CON-61); a roll then decomposes into the decisions of CON-63, each
an action of the seat on roll (``actions``). Everything that needs no decision happens inside
``apply``: captures, mines, takeovers, players going out, the automatic end of a roll (CON-31),
the next roller and the end of the game, so that ``to_move()`` always names who decides next.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from parlour.engine import (
    ABANDONED,
    AGREED,
    CHANCE,
    NOBODY,
    Action,
    FormatError,
    Game,
    GameInfo,
    IllegalActionError,
    JSONDict,
    NotationError,
    Option,
    OptionError,
    Outcome,
    State,
    leaving_of,
)
from parlour.games.conflict.actions import ACTIVATE, END, MOVE, ROLL, ROLL_ODDS, ROLLS, Decision, decode
from parlour.games.conflict.board import Board, bits, board_for
from parlour.games.conflict.maps import DEFAULT_MAP, MAP_BOARDS
from parlour.games.conflict.notation import action_text, canonical_path, number_reason, parse
from parlour.games.conflict.pieces import (
    AAGUN,
    AIRPLANE,
    CLASS_OF,
    CODES,
    EMPTY,
    SUBMARINE,
    TYPES,
    piece_text,
)
from parlour.games.conflict.position import (
    CHANCE_PHASE,
    DECISION_PHASE,
    NO_OWNER,
    NO_PIECES,
    NO_SEAT,
    OVER_PHASE,
    RETIRED,
    TAKEN_OVER,
    Position,
    initial_position,
    position_from_text,
    read_position,
    write_position,
)
from parlour.games.conflict.render import SEAT_NAMES, board_text, event_json, event_texts, out_words
from parlour.games.conflict.threats import reaches, threats

WIN: Final = "last-player-in"
MUTUAL: Final = "mutual-elimination"
ROLL_LIMIT: Final = "roll-limit"
"""``Outcome.reason``: CON-55, CON-56 and CON-57."""

_SEAT_LIST: Final = re.compile(r"[{\[(]?\s*([1-4](?:\s*[, ]\s*[1-4])*)\s*[}\])]?")


class Event(NamedTuple):
    """Something that happened (CON-67 item 2), at ``ply`` (the number of actions applied then).

    ``kind`` and ``detail``: ``"roll"`` (a, b); ``"move"`` (code, start square or -1 for an entry,
    final square, die); ``"activate"`` (code,); ``"capture"`` (code, square); ``"mine"`` (code,
    square, mine's seat) for each piece a mine destroys; ``"takeover"`` (seat taken, new owner);
    ``"out"`` () with ``seat`` the player going out; ``"end"`` (automatic 0/1, forfeited dice…);
    ``"result"`` (). ``seat`` is the seat on roll unless said otherwise. Seats are 0…3.
    """

    ply: int
    kind: str
    seat: int
    detail: tuple[int, ...] = ()


# --- options ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardOption(Option):
    """A map name (``parlour-20``) or the text of a map (CON-10); a bad map is a ``FormatError``."""

    def check(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise OptionError(f"option {self.name!r} must be a map name or map text, not {value!r}")
        board_for(value)
        return value


@dataclass(frozen=True)
class SeatsOption(Option):
    """The occupied seats (CON-17): 2 to 4 distinct seats 1–4, or ``None`` for 1…k."""

    def check(self, value: Any) -> Any:
        if value is None:
            return None
        seats: list[int] = []
        if isinstance(value, str):
            match = _SEAT_LIST.fullmatch(value.strip())
            if match is not None:
                seats = [int(s) for s in re.split(r"[, ]+", match[1])]
        elif isinstance(value, list | tuple) and all(type(s) is int for s in value):
            seats = list(value)
        if not (2 <= len(seats) <= 4 and len(set(seats)) == len(seats) and all(1 <= s <= 4 for s in seats)):
            raise OptionError(f"option {self.name!r} must be 2 to 4 distinct seats from 1-4, like [1, 4], "
                              f"not {value!r}")
        return sorted(seats)

    def parse(self, text: str) -> Any:
        return self.check(None if text.strip().lower() in ("", "none", "null") else text)


OPTIONS: Final = (
    BoardOption("board", DEFAULT_MAP, MAP_BOARDS.option_help()),
    SeatsOption("seats", None, "which colours play: with two players, Red and Yellow sit across the "
                "board from each other; by default the first colours in order, as many as there are players"),
    Option("roll_limit", 2000, "the game is a draw when this roll ends; 0 for no limit", minimum=0),
    Option("optional_dice", True,
           "a player may end a roll with dice unused; off: a die must be used while some move is safe"),
    Option("submarines", True, "each player starts with a submarine"),
    Option("airplanes_on_mines", True, "mines stop airplanes too; off: airplanes pass over mines but never "
           "end on one (the 1940 rule)"),
)


# --- the state --------------------------------------------------------------------------------------


class ConflictState(State):
    """A Conflict position with its history (make/unmake, no copies).

    For bots and front ends (read-only; seats are 0…3, seat 1 of the spec is 0; a piece *code* is
    ``seat * 5 + type``, types in ``pieces``):

    * ``board``: the ``Board`` (geometry, names, path search); ``occupied``: the occupied seats;
      ``player_of[seat]``: the player (engine seat) of a seat, -1 if unused;
    * ``squares[square]``: the code of the piece there or ``EMPTY``; ``pieces``: square → code;
      ``seat_masks[seat]``: the squares of the seat's pieces as a bitmask;
    * ``available[code]``, ``reserve[code]``: row counts; ``alive[seat]``: pieces not removed;
    * ``owner[seat]`` (``NO_OWNER`` = -1), ``controller[seat]``; ``out[seat]``: why a player is
      out (``"taken over"``, ``"no pieces"``, or a leaving reason: ``"resigned"``, ``"out-of-time"``,
      ``"gone"``) or ``None``; ``seats_out()`` says it in words;
    * ``phase`` (``CHANCE_PHASE``, ``DECISION_PHASE``, ``OVER_PHASE``), ``seat``: the seat to roll
      or on roll; ``dice``, ``unused`` (a multiset, sorted), ``moved`` (squares), ``activation``,
      ``rolls`` (rolls begun); ``log``: ``Event`` list.

    Queries: ``players_in()``, ``hostile_mines(seat)`` (a mask), ``controls(player_seat, seat)``,
    ``movers()`` (what may move now), ``is_legal(action)`` (a set lookup), ``decision(action)``
    (``actions.Decision``), ``path_of(action)`` (the canonical path), ``recent_events()``.
    """

    __slots__ = (
        "_anti_air",
        "_changes",
        "_hostile",
        "_legal",
        "_legal_set",
        "_limit",
        "_optional",
        "_outcome",
        "_paths",
        "_planes_on_mines",
        "_threats",
        "_undo",
        "activation",
        "alive",
        "available",
        "board",
        "board_count",
        "controller",
        "dice",
        "key",
        "log",
        "moved",
        "occupied",
        "out",
        "owner",
        "phase",
        "pieces",
        "player_of",
        "reserve",
        "rolls",
        "seat",
        "seat_masks",
        "squares",
        "unused",
    )

    def __init__(
        self,
        game: Game[State],
        options: dict[str, Any],
        seed: int,
        start: JSONDict | None,
        board: Board,
        occupied: tuple[int, ...],
        position: Position,
    ) -> None:
        super().__init__(game, len(occupied), options, seed, start)
        self.board = board
        self.occupied = occupied
        self.player_of = [-1] * 4
        for player, seat in enumerate(occupied):
            self.player_of[seat] = player
        self.squares = position.squares
        self.pieces = {square: code for square, code in enumerate(self.squares) if code != EMPTY}
        self.board_count = [0] * 4
        self.seat_masks = [0] * 4
        self._anti_air = [0] * 4
        key = 0
        for square, code in self.pieces.items():
            self.board_count[code // TYPES] += 1
            self.seat_masks[code // TYPES] |= 1 << square
            if code % TYPES in (AAGUN, SUBMARINE):
                self._anti_air[code // TYPES] |= 1 << square
            key ^= board.piece_keys[code][square]
        self.key = key
        self.available = position.available
        self.reserve = position.reserve
        self.alive = [
            self.board_count[seat] + sum(self.available[seat * TYPES:(seat + 1) * TYPES])
            + sum(self.reserve[seat * TYPES:(seat + 1) * TYPES])
            for seat in range(4)
        ]
        self.owner = position.owner
        self.controller = _controllers(self.owner)
        self._hostile = board.hostile_masks(tuple(self.controller))
        self.out = position.out
        self.phase = position.phase
        self.seat = position.seat
        self.dice = position.dice
        self.unused = position.unused
        self.moved = position.moved
        self.activation = position.activation
        self.rolls = position.rolls
        self.log: list[Event] = []
        self._outcome: Outcome | None = None
        self._undo: list[tuple[Any, ...]] = []
        self._changes: list[tuple[int, int]] = []
        self._legal: list[Action] | None = None
        self._legal_set: frozenset[Action] | None = None
        self._paths: dict[Action, list[int] | None] = {}
        self._limit: int = options["roll_limit"]
        self._optional: bool = options["optional_dice"]
        self._planes_on_mines: bool = options["airplanes_on_mines"]
        self._threats: list[JSONDict] | None = None
        self._settle_start(position)

    def _settle_start(self, position: Position) -> None:
        """Checks a start position's invariants and runs the rules that need no decision."""
        board, controller = self.board, self.controller
        for square in board.mine_squares:
            code = self.squares[square]
            if code != EMPTY and controller[code // TYPES] != controller[board.mine_seat[square]]:
                raise FormatError(f"the piece on {board.names[square]} rests on a hostile mine (CON-46)")
        self._settle_out()
        if self.phase == OVER_PHASE:
            assert position.result is not None
            self._outcome = Outcome.from_json(position.result)
            if self.seat == NO_SEAT:
                self.seat = self.occupied[0]
            self.dice, self.unused, self.moved = None, (), ()
            return
        players_in = self.players_in()
        if not players_in:
            raise FormatError("no player is in the game")
        if self.seat == NO_SEAT:
            self.seat = players_in[0]
        if self.out[self.seat] is not None:
            raise FormatError(f"seat {self.seat + 1} is out of the game and cannot roll")
        if len(players_in) == 1:
            self._win(players_in[0], WIN)
            return
        for square in self.moved:
            code = self.squares[square]
            if code == EMPTY or self.controller[code // TYPES] != self.seat:
                raise FormatError(f"'moved': no piece of the player on roll stands on {board.names[square]}")
        if self.phase == DECISION_PHASE and not self._has_decision():
            self._end_roll(automatic=True)

    def _settle_out(self) -> None:
        """CON-52: a start position's players out, checked against its owner links and pieces."""
        for seat in self.occupied:
            reason = self.out[seat]
            if reason in RETIRED:  # CON-71: its pieces left with it; its base may since be taken
                if self._controls_any(seat):
                    raise FormatError(f"seat {seat + 1} left the table ({reason}) but controls pieces")
            elif self.owner[seat] != NO_OWNER:
                self.out[seat] = reason or TAKEN_OVER
            elif reason == TAKEN_OVER:
                raise FormatError(f"seat {seat + 1} is out as taken over but has no owner")
            elif not self._controls_any(seat):
                self.out[seat] = NO_PIECES
            elif reason is not None:
                raise FormatError(f"seat {seat + 1} controls pieces: it is not out for lack of them")

    # --- queries ---------------------------------------------------------------------------------

    def players_in(self) -> list[int]:
        """The seats of the players still in the game (CON-52), in seat order."""
        return [seat for seat in self.occupied if self.out[seat] is None]

    def controls(self, player_seat: int, seat: int) -> bool:
        return self.controller[seat] == player_seat

    def hostile_mines(self, seat: int) -> int:
        """The mines hostile to the pieces ``seat``'s controller controls, as a mask (CON-24)."""
        return self._hostile[self.controller[seat]]

    def _controls_any(self, player_seat: int) -> bool:
        controller, alive = self.controller, self.alive
        return any(controller[seat] == player_seat and alive[seat] for seat in range(4))

    def decision(self, action: Action) -> Decision | None:
        """The decision an action stands for, or ``None``."""
        return decode(action, self.board.size)

    # --- the contract ------------------------------------------------------------------------------

    def to_move(self) -> int:
        phase = self.phase
        if phase == DECISION_PHASE:
            return self.player_of[self.seat]
        return CHANCE if phase == CHANCE_PHASE else NOBODY

    def outcome(self) -> Outcome | None:
        return self._outcome

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """CON-61: the 21 rolls with their probabilities."""
        if self.phase != CHANCE_PHASE:
            raise IllegalActionError("no chance decision is pending: the dice are rolled")
        return list(ROLL_ODDS)

    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._decisions()
        return list(legal)

    def is_legal(self, action: Action) -> bool:
        legal = self._legal_set
        if legal is None:
            if self._legal is None:
                self._legal = self._decisions()
            legal = self._legal_set = frozenset(self._legal)
        return action in legal

    def illegal_reason(self, action: Action) -> str:
        """The reader's reason for the action's text (CON-25 to CON-47, ``notation.parse``): the
        checks live once, where a typed decision meets them."""
        if self.phase == OVER_PHASE:
            return super().illegal_reason(action)
        untold = number_reason(self, action)  # what the action's text would not carry
        if untold is not None:
            return untold
        try:
            text = action_text(self, action)
            parse(self, text)
        except IllegalActionError as refused:
            return refused.reason
        except NotationError:  # no action of Conflict, or none that can be written here
            pass
        return super().illegal_reason(action)

    # --- decisions ---------------------------------------------------------------------------------

    def _decisions(self) -> list[Action]:
        """CON-63 in action order: ``end`` (when allowed), activations, then moves."""
        if self.phase == CHANCE_PHASE:
            return list(ROLLS)
        if self.phase == OVER_PHASE:
            return []
        moves, nonfatal = self._moves(first=False)
        actions = [END] if self._optional or not nonfatal else []
        actions += self._activations()
        actions += moves
        return actions

    def _activations(self) -> list[Action]:
        """CON-47, CON-63 item 1."""
        if not self.activation:
            return []
        controller, mover, reserve = self.controller, self.seat, self.reserve
        return [
            ACTIVATE + code for code in range(CODES) if reserve[code] and controller[code // TYPES] == mover
        ]

    def movers(self) -> list[tuple[int, int, int]]:
        """CON-63 item 2: (source, start square, code) of every piece that may move now: the
        unmoved board pieces the mover controls, then one per (seat, type) of its available rows."""
        controller, mover, moved, squares = self.controller, self.seat, self.moved, self.squares
        friendly = 0
        for seat in range(4):
            if controller[seat] == mover:
                friendly |= self.seat_masks[seat]
        found = [(square, square, squares[square]) for square in bits(friendly) if square not in moved]
        size, bases, available = self.board.size, self.board.bases, self.available
        found += [
            (size + code, bases[code // TYPES], code)
            for code in range(CODES)
            if available[code] and controller[code // TYPES] == mover
        ]
        return found

    def _targets(self) -> tuple[int, int, int]:
        """The hostile mines, the squares of the mover's pieces, and the squares an airplane may
        not capture on (a hostile AA gun or submarine not resting on a hostile mine, CON-38)."""
        controller, mover = self.controller, self.seat
        hostile = self._hostile[mover]
        friendly = anti_air = 0
        for seat in range(4):
            if controller[seat] == mover:
                friendly |= self.seat_masks[seat]
            else:
                anti_air |= self._anti_air[seat]
        return hostile, friendly, anti_air & ~hostile

    def _moves(self, first: bool, onto: int = -1) -> tuple[list[Action], bool]:
        """Every move decision (or, with ``first``, stops at the first), and whether one of them
        is non-fatal (its walk does not end on a hostile mine); only those ending on a square of
        the mask ``onto`` (all by default)."""
        board = self.board
        size, finals = board.size, board.finals
        hostile, friendly, anti_air = self._targets()
        plane_hostile, plane_blocked = hostile, friendly | anti_air
        if not self._planes_on_mines:
            plane_hostile, plane_blocked = 0, friendly | anti_air | board.mine_mask
        dice = sorted(set(self.unused))
        actions: list[Action] = []
        nonfatal = False
        for source, start, code in self.movers():
            kind = code % TYPES
            if kind == AIRPLANE:
                stops, blocked = plane_hostile, plane_blocked
            else:
                stops, blocked = hostile, friendly
            cls = CLASS_OF[kind]
            for die in dice:
                ends = finals(cls, start, die, stops) & ~blocked & onto
                if not ends:
                    continue
                if first:
                    low = ends & -ends
                    return [MOVE + (source * 6 + die - 1) * size + low.bit_length() - 1], True
                if ends & ~stops:
                    nonfatal = True
                base = MOVE + (source * 6 + die - 1) * size
                actions += [base + final for final in bits(ends)]
        return actions, nonfatal

    def moves_with(self, player_seat: int, dice: tuple[int, ...], onto: int = -1) -> list[Action]:
        """The moves (entries included) ``player_seat`` would be offered first with a roll showing
        any of ``dice`` if it rolled now, the board as it stands, ending on a square of the mask
        ``onto`` (each move names its die): the threats a view warns of (``threats``)."""
        saved = self.seat, self.unused, self.moved
        self.seat, self.unused, self.moved = player_seat, dice, ()
        try:
            return self._moves(first=False, onto=onto)[0]
        finally:
            self.seat, self.unused, self.moved = saved

    def _has_decision(self) -> bool:
        """Whether anything but ``end`` is legal (CON-31)."""
        return bool(self._activations()) or bool(self._moves(first=True)[0])

    # --- make and unmake ---------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        self._undo.append((
            self.phase, self.seat, self.dice, self.unused, self.moved, self.activation, self.rolls,
            self._outcome, tuple(self.owner), tuple(self.controller), tuple(self.out), tuple(self.available),
            tuple(self.reserve), tuple(self.alive), self.key, self._legal, self._legal_set, len(self.log),
            len(self._changes),
        ))
        self.history.append(action)
        self._legal = None
        self._legal_set = None
        self._threats = None
        if self._paths:
            self._paths = {}
        if action < 0:  # leaving the table: the only negative actions, never legal moves
            self._leave(action)
        elif self.phase == CHANCE_PHASE:
            self._roll(action)
        elif action >= MOVE:
            self._move(action)
        elif action == END:
            self._end_roll(automatic=False)
        else:
            self._activate(action - ACTIVATE)

    def undo(self) -> None:
        if not self.history:
            raise IllegalActionError("nothing to undo")
        self.history.pop()
        self._threats = None
        if self._paths:
            self._paths = {}
        (
            self.phase, self.seat, self.dice, self.unused, self.moved, self.activation, self.rolls,
            self._outcome, owner, controller, out, available, reserve, alive, self.key, self._legal,
            self._legal_set, log_length, change_count,
        ) = self._undo.pop()
        self.owner[:] = owner
        if tuple(self.controller) != controller:
            self.controller[:] = controller
            self._hostile = self.board.hostile_masks(controller)
        self.out[:] = out
        self.available[:] = available
        self.reserve[:] = reserve
        self.alive[:] = alive
        changes = self._changes
        for _ in range(len(changes) - change_count):
            square, old = changes.pop()
            self._put(square, old)
        del self.log[log_length:]

    def copy_into(self, clone: ConflictState) -> None:
        for name in ("board", "occupied", "player_of", "phase", "seat", "dice", "unused", "moved",
                     "activation", "rolls", "key", "_outcome", "_legal", "_legal_set", "_limit", "_optional",
                     "_planes_on_mines"):
            setattr(clone, name, getattr(self, name))
        clone.squares = self.squares.copy()
        clone.pieces = self.pieces.copy()
        clone.board_count = self.board_count.copy()
        clone.seat_masks = self.seat_masks.copy()
        clone._anti_air = self._anti_air.copy()
        clone._hostile = self._hostile
        clone.available = self.available.copy()
        clone.reserve = self.reserve.copy()
        clone.alive = self.alive.copy()
        clone.owner = self.owner.copy()
        clone.controller = self.controller.copy()
        clone.out = self.out.copy()
        clone.log = self.log.copy()
        clone._undo = self._undo.copy()  # its entries are never mutated
        clone._paths = self._paths.copy()  # the same position: the same paths (never mutated)
        clone._threats = self._threats  # the same position: the same threats (never mutated)
        clone._changes = self._changes.copy()

    def _set(self, square: int, code: int) -> None:
        """Puts ``code`` (or ``EMPTY``) on ``square``, remembering what was there for undo."""
        old = self.squares[square]
        self._changes.append((square, old))
        keys = self.board.piece_keys
        if old != EMPTY:
            self.key ^= keys[old][square]
        if code != EMPTY:
            self.key ^= keys[code][square]
        self._put(square, code)

    def _put(self, square: int, code: int) -> None:
        """The board's tables follow a change of ``square`` (the key is the caller's)."""
        bit = 1 << square
        old = self.squares[square]
        if old != EMPTY:
            seat = old // TYPES
            self.board_count[seat] -= 1
            self.seat_masks[seat] ^= bit
            if old % TYPES in (AAGUN, SUBMARINE):
                self._anti_air[seat] ^= bit
            del self.pieces[square]
        if code != EMPTY:
            seat = code // TYPES
            self.board_count[seat] += 1
            self.seat_masks[seat] |= bit
            if code % TYPES in (AAGUN, SUBMARINE):
                self._anti_air[seat] |= bit
            self.pieces[square] = code
        self.squares[square] = code

    def _remove(self, square: int, kind: str, detail: tuple[int, ...]) -> None:
        """A piece leaves the game (CON-40, CON-42): captured or destroyed."""
        code = self.squares[square]
        self._set(square, EMPTY)
        self.alive[code // TYPES] -= 1
        if square in self.moved:
            self.moved = tuple(s for s in self.moved if s != square)
        self.log.append(Event(len(self.history), kind, self.seat, (code, square, *detail)))

    # --- the decisions and what follows them -----------------------------------------------------------

    def _roll(self, action: Action) -> None:
        """CON-61, CON-62: a new roll; CON-31 may end it at once."""
        low, high = divmod(action - ROLL, 6)
        dice = (low + 1, high + 1)
        self.rolls += 1
        self.dice = dice
        self.unused = dice
        self.moved = ()
        self.activation = dice[0] + dice[1] == 7
        self.phase = DECISION_PHASE
        self.log.append(Event(len(self.history), "roll", self.seat, dice))
        if not self._has_decision():
            self._end_roll(automatic=True)

    def _activate(self, code: int) -> None:
        """CON-47: a reserve piece to its seat's available row, once per roll of 7."""
        self.reserve[code] -= 1
        self.available[code] += 1
        self.activation = False
        self.log.append(Event(len(self.history), "activate", self.seat, (code,)))
        if not self._has_decision():
            self._end_roll(automatic=True)

    def _move(self, action: Action) -> None:
        """CON-32 to CON-45: one piece walks with one die, then captures, mines and takeovers."""
        board = self.board
        size = board.size
        rest, final = divmod(action - MOVE, size)
        source, die_index = divmod(rest, 6)
        die = die_index + 1
        before = self.players_in()
        if source < size:
            code = self.squares[source]
            self._set(source, EMPTY)
            start = source
        else:
            code = source - size
            self.available[code] -= 1
            start = -1
        unused = list(self.unused)
        unused.remove(die)
        self.unused = tuple(unused)
        self.log.append(Event(len(self.history), "move", self.seat, (code, start, final, die)))
        mine_seat = board.mine_seat[final]
        if (
            mine_seat >= 0
            and self.controller[mine_seat] != self.seat
            and (self._planes_on_mines or code % TYPES != AIRPLANE)
        ):
            # CON-42, CON-43: the walk stopped on a hostile mine; the piece and any piece resting
            # there are destroyed.
            self.alive[code // TYPES] -= 1
            self.log.append(Event(len(self.history), "mine", self.seat, (code, final, mine_seat)))
            if self.squares[final] != EMPTY:
                self._remove(final, "mine", (mine_seat,))
            losses = True
        else:
            losses = self.squares[final] != EMPTY
            if losses:
                self._remove(final, "capture", ())
            self._set(final, code)
            self.moved = (*self.moved, final)
            base_seat = board.base_seat[final]
            if base_seat >= 0 and self.controller[base_seat] != self.seat:
                self._take_over(base_seat, code // TYPES)
                losses = True
        self._after_decision(before, losses)

    def _take_over(self, taken: int, colour: int) -> None:
        """CON-45: ``taken``'s owner becomes the capturing piece's seat; its dominion passes to the
        mover; pieces resting on mines that are now hostile to them are destroyed."""
        self.owner[taken] = colour
        self.controller[:] = _controllers(self.owner)
        self._hostile = self.board.hostile_masks(tuple(self.controller))
        self.log.append(Event(len(self.history), "takeover", self.seat, (taken, colour)))
        controller, board, squares = self.controller, self.board, self.squares
        for square in board.mine_squares:
            code = squares[square]
            if code != EMPTY:
                mine_seat = board.mine_seat[square]
                if controller[code // TYPES] != controller[mine_seat]:
                    self._remove(square, "mine", (mine_seat,))
        if taken in self.occupied and self.out[taken] is None:
            self.out[taken] = TAKEN_OVER
            self.log.append(Event(len(self.history), "out", taken))

    def _after_decision(self, before: list[int], losses: bool) -> None:
        """CON-53, CON-55, CON-56, then CON-31: who is out, the end of the game, the end of the roll.
        Only ``losses`` (pieces removed, or a takeover) can put a player out."""
        if losses:
            for seat in self.occupied:
                if self.out[seat] is None and not self._controls_any(seat):
                    self.out[seat] = NO_PIECES
                    self.log.append(Event(len(self.history), "out", seat))
            players_in = self.players_in()
            if len(players_in) == 1:
                self._win(players_in[0], WIN)
                return
            if not players_in:
                self._draw(before, MUTUAL)
                return
        if self.out[self.seat] is not None:
            self._end_roll(automatic=True)  # CON-53: the mover went out; no extra roll
        elif not self._has_decision():
            self._end_roll(automatic=True)

    def _end_roll(self, automatic: bool) -> None:
        """CON-26, CON-50, CON-57: the roll ends; the same player rolls again after a double."""
        mover = self.seat
        assert self.dice is not None
        double = self.dice[0] == self.dice[1]
        self.log.append(Event(len(self.history), "end", mover, (int(automatic), *self.unused)))
        self.dice, self.unused, self.moved, self.activation = None, (), (), False
        if self._limit and self.rolls >= self._limit:
            self._draw(self.players_in(), ROLL_LIMIT)
            return
        self.phase = CHANCE_PHASE
        if not (double and self.out[mover] is None):
            self.seat = self._next_roller(mover)

    def _next_roller(self, mover: int) -> int:
        """CON-26: the next seat after ``mover`` in seat order, wrapping around, still in the game."""
        return next(
            seat for step in range(1, 5)
            if (seat := (mover + step) % 4) in self.occupied and self.out[seat] is None
        )

    def _leave(self, action: Action) -> None:
        """Leaving the table, which ``State.leave`` checked: a seat retires (CON-71), the table
        agrees a draw among the players still in, or the match is abandoned (CON-58)."""
        leaving = leaving_of(action)
        assert leaving is not None
        if leaving.kind == "agreed":
            self._draw(self.players_in(), AGREED)
        elif leaving.kind == "abandoned":
            self._draw(self.players_in(), ABANDONED)
        else:
            assert leaving.seat is not None
            assert leaving.why is not None
            self._retire(self.occupied[leaving.seat], leaving.why)

    def _retire(self, leaver: int, why: str) -> None:
        """CON-71: every piece ``leaver`` controls leaves the game; the bases and mines it
        controlled, its own included, stay where they are with their owner links, as a player
        out for lack of pieces leaves them (CON-53): nobody controls a piece of them, so they are
        hostile to all, like an unused seat's, and taken over as usual by landing on a base.
        Two players left: the other wins for ``why``. The roll ends if it was ``leaver``'s."""
        for seat in range(4):
            if self.controller[seat] == leaver:
                for square in bits(self.seat_masks[seat]):
                    self._set(square, EMPTY)
                row = slice(seat * TYPES, (seat + 1) * TYPES)
                self.available[row] = self.reserve[row] = [0] * TYPES
                self.alive[seat] = 0
        self.out[leaver] = why
        self.log.append(Event(len(self.history), "out", leaver))
        players_in = self.players_in()
        if len(players_in) == 1:
            self._win(players_in[0], why)
        elif self.seat == leaver and self.phase == DECISION_PHASE:
            self._end_roll(automatic=True)
        elif self.seat == leaver:
            self.seat = self._next_roller(leaver)  # its dice were not yet rolled
        elif self.phase == DECISION_PHASE and not self._has_decision():
            self._end_roll(automatic=True)  # CON-31, as after any decision

    def _win(self, seat: int, reason: str) -> None:
        """CON-55 (or CON-71 with two players): ``seat`` wins."""
        scores = [0.0] * self.players
        scores[self.player_of[seat]] = 1.0
        self._over(Outcome(self.player_of[seat], reason, tuple(scores)))

    def _draw(self, drawn: list[int], reason: str) -> None:
        """CON-56, CON-57, an agreed draw, an abandoned match (CON-58): nobody wins; the scores
        name the players who drew (those still in, or before a mutual elimination those who were;
        in an abandoned match, which is no draw, those still in when it was abandoned)."""
        scores = [0.0] * self.players
        for seat in drawn:
            scores[self.player_of[seat]] = 1.0
        self._over(Outcome(None, reason, tuple(scores)))

    def _over(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self.phase = OVER_PHASE
        self.dice, self.unused, self.moved, self.activation = None, (), (), False
        self.log.append(Event(len(self.history), "result", self.seat))

    # --- keys, positions and views ----------------------------------------------------------------------

    def position_key(self) -> int:
        """The board's Zobrist key, mixed with the rest of the position: whose decision, the dice
        (a double rolls again), the rows, the owner links and who is out. Not the roll count."""
        extra = (
            self.phase, self.seat, self.dice or (0, 0), self.unused, self.activation, tuple(self.owner),
            tuple(self.available), tuple(self.reserve), tuple(reason is None for reason in self.out),
        )
        # Tuples of ints and bools hash alike in every process (unlike strings, or None before 3.12).
        key = self.key ^ (hash(extra) & 0xFFFFFFFFFFFFFFFF)
        for square in self.moved:
            key ^= self.board.moved_keys[square]
        return key

    def position(self) -> Position:
        """The position as ``position.Position`` (copies of the mutable parts)."""
        outcome = self._outcome
        return Position(
            self.squares.copy(), self.available.copy(), self.reserve.copy(), self.owner.copy(),
            self.out.copy(), self.phase, self.seat, self.dice, self.unused, tuple(sorted(self.moved)),
            self.activation, self.rolls, outcome.to_json() if outcome else None,
        )

    def position_json(self) -> JSONDict:
        outcome = self._outcome
        # The lists are only read: no copies.
        position = Position(
            self.squares, self.available, self.reserve, self.owner, self.out, self.phase, self.seat,
            self.dice, self.unused, tuple(sorted(self.moved)), self.activation, self.rolls,
        )
        return write_position(self.board, self.occupied, position, self.pieces,
                              outcome.to_json() if outcome else None)

    def view_content(self, seat: int | None) -> JSONDict:
        """Conflict hides nothing (CON-66): every seat and spectator sees the whole position.

        ``position`` (``position_json``); ``controllers``: each seat's controller (CON-23), seats
        1-4; ``board``: the map (``Map.json``); ``events``: the last action's messages (CON-67
        item 2) and ``event_data`` the same events as data (``render.event_json``). Nothing here
        grows with the number of actions played: no record, no log, no seed.

        While the game goes on, ``threats``: for the player on roll (the one who decides before
        the roll ends), what enemy pieces can reach of its bases and pieces on their next roll,
        one entry a square and enemy player (``threats.threats``), the same for every seat."""
        recent = self.recent_events()
        content: JSONDict = {
            "position": self.position_json(),
            "controllers": [c + 1 for c in self.controller],
            "board": self.board.map.json(),
            "events": event_texts(self, recent),
            "event_data": [event_json(self, event) for event in recent],
        }
        if self.phase != OVER_PHASE:
            found = self._threats
            if found is None:
                found = self._threats = threats(self, reaches(self))  # once per position
            content["threats"] = [{**threat, "dice": list(threat["dice"])} for threat in found]
        return content

    def seats_out(self) -> list[str | None]:
        """CON-52, CON-66, CON-71: per player, why it is out, in words ("Red took its home base")."""
        return [out_words(self, seat) for seat in self.occupied]

    def seat_names(self) -> list[str]:
        """CON-17: a player is named by the colour of its seat (``seats`` [1, 4]: Red and Yellow)."""
        return [SEAT_NAMES[seat] for seat in self.occupied]

    def recent_events(self) -> list[Event]:
        """What the last action brought about, in order."""
        ply = len(self.history)
        first = len(self.log)
        while first and self.log[first - 1].ply == ply:
            first -= 1
        return self.log[first:]

    # --- notation and text ---------------------------------------------------------------------------------

    def action_to_text(self, action: Action) -> str:
        if action < 0:
            return self.leaving_text(action)
        return action_text(self, action)

    def parse_action(self, text: str) -> Action:
        """CON-64: ``roll 3-4``, ``activate airplane``, ``k5 5: l4 m5 n5 o5 p5``,
        ``enter ship@2 3: f5 g5 h5``, ``end``. ``NotationError`` for text that is none of these
        (``AmbiguousError`` when a needed ``@seat`` is missing), ``IllegalActionError`` otherwise."""
        return parse(self, text)

    def action_parts(self, action: Action) -> JSONDict:
        """A legal action's parts (CON-63, CON-64), in the words of the view's content: seats are
        numbered 1-4, pieces written ``1S`` (seat, then type letter), squares by name (CON-4).

        * ``roll``: ``dice`` [a, b] with a <= b (CON-61);
        * ``end``: nothing more;
        * ``activate``: the reserve ``piece`` and its ``seat``;
        * ``move`` and ``enter``: the ``piece`` and its ``seat``, the ``die``, ``from`` (the piece's
          square; for an entry its seat's base), ``to`` (the final square of the walked path) and
          ``path`` (the canonical path, CON-64: the squares walked after ``from``, ending on ``to``).

        A decision is a piece, a die and a final square (CON-63 item 2), so ``kind``, ``from`` (a
        board piece) or ``piece`` (an entry), ``die`` and ``to`` tell the legal actions apart."""
        decision = decode(action, self.board.size) if self.is_legal(action) else None
        if decision is None:
            raise self.refusal(action)
        if decision.kind == "roll":
            return {"kind": "roll", "dice": list(decision.dice)}
        if decision.kind == "end":
            return {"kind": "end"}
        code = self.squares[decision.square] if decision.kind == "move" else decision.code
        parts: JSONDict = {"kind": decision.kind, "piece": piece_text(code), "seat": code // TYPES + 1}
        if decision.kind == "activate":
            return parts
        names = self.board.names
        start = decision.square if decision.kind == "move" else self.board.bases[code // TYPES]
        path = self.path_of(action)
        assert path is not None, "a legal move has a path"
        parts.update({"die": decision.die, "from": names[start], "to": names[decision.final],
                      "path": [names[square] for square in path]})
        return parts

    def path_of(self, action: Action) -> list[int] | None:
        """The canonical path (CON-64) of a move or entry here, as squares (not to be changed);
        ``None`` if none. Kept until the position changes: a front end asks for every legal
        action's text and parts, and each names the path."""
        paths = self._paths
        if action in paths:
            return paths[action]
        path = paths[action] = canonical_path(self, action)
        return path

    def render(self, seat: int | None = None) -> str:
        return board_text(self, seat)


def _controllers(owner: list[int]) -> list[int]:
    """CON-23: follow the owner links to the top."""
    controllers = []
    for seat in range(4):
        at = seat
        while owner[at] != NO_OWNER:
            at = owner[at]
        controllers.append(at)
    return controllers


# --- the game ---------------------------------------------------------------------------------------


class Conflict(Game[ConflictState]):
    """Conflict for 2 to 4 players, as xconflict's help text describes it (``specs/conflict.md``)."""

    info = GameInfo(
        name="conflict",
        title="Conflict",
        min_players=2,
        max_players=4,
        default_players=2,
        chance=True,
        hidden_information=False,
        options=OPTIONS,
        seat_names=SEAT_NAMES,
        # The default roll_limit (CON-57) ends every game within 2,000 rolls of at most four
        # actions each (roll, activation, two moves). Random games take ~600 (2 players) to
        # ~1,700 (4 players).
        max_actions=10_000,
        end_reasons={  # CON-55 to CON-57
            WIN: "the last player left in the game",
            MUTUAL: "the last players were knocked out together",
            ROLL_LIMIT: "the roll limit was reached",
        },
    )
    boards = MAP_BOARDS

    def players_for(
        self, players: int | None, options: dict[str, Any], start: JSONDict | None
    ) -> int | None:
        """With the ``seats`` option (or a position naming its seats), ``players`` may be left out."""
        seats: list[int] | None = options["seats"]
        if players is None and seats is not None:
            return len(seats)
        if players is None and isinstance(start, dict) and isinstance(start.get("seats"), list):
            return len(start["seats"])
        return players

    def create(
        self, players: int, options: dict[str, Any], seed: int, start: JSONDict | None
    ) -> ConflictState:
        """The set-up (CON-18), or ``start`` in ``position_json`` form (see ``position``)."""
        seats: list[int] | None = options["seats"]
        if seats is not None and len(seats) != players:
            raise OptionError(f"option 'seats' names {len(seats)} seats for {players} players")
        occupied = tuple(seat - 1 for seat in seats) if seats is not None else tuple(range(players))
        board = board_for(options["board"])
        if start is None:
            position = initial_position(board, occupied, options["submarines"])
        else:
            position = read_position(start, board, occupied, options["submarines"])
        return ConflictState(self, options, seed, start, board, occupied, position)

    def position(
        self,
        text: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
    ) -> ConflictState:
        """A state from the text form of a position (``position`` module), e.g.
        ``"pieces 1S k5 2U m6\\nturn 1\\ndice 2-5"``."""
        return self.new(players, options, seed, start=position_from_text(text))
