"""Lines of Action: the rules of ``specs/loa.md`` on bitboards, with make/unmake.

A side's pieces are one 64-bit int, bit ``n`` for square ``n`` (a1 = 0 … h8 = 63, LOA-3). The
actions (``from * 64 + to``, ``PASS``) and their text are in ``notation``; the JSON form of a
position in ``position``; text rendering in ``render``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from parlour.engine import (
    NOBODY,
    Action,
    Game,
    GameInfo,
    IllegalActionError,
    JSONDict,
    Option,
    Outcome,
    State,
    is_leaving,
    leaving_of,
    two_player_outcome,
)
from parlour.games.loa.notation import PASS, action_text, parse_square, read_action, square_name
from parlour.games.loa.position import (
    BLACK,
    INITIAL_BLACK,
    INITIAL_WHITE,
    SIDE_NAMES,
    WHITE,
    board_rows,
    read_position,
    write_position,
)
from parlour.games.loa.render import board_text, dump_text

__all__ = [
    "BLACK",
    "PASS",
    "SIDE_NAMES",
    "WHITE",
    "LinesOfAction",
    "LoaState",
    "board_rows",
    "parse_square",
    "square_name",
]

FULL: Final = (1 << 64) - 1
NOT_A_FILE: Final = FULL ^ sum(1 << (8 * r) for r in range(8))
NOT_H_FILE: Final = FULL ^ sum(1 << (8 * r + 7) for r in range(8))

# The four axes (row, column, two diagonals), each with its two directions as (dcol, drow).
AXES: Final = (((1, 0), (-1, 0)), ((0, 1), (0, -1)), ((1, 1), (-1, -1)), ((1, -1), (-1, 1)))


def _build_tables() -> tuple[list[int], list[list[tuple[tuple[int, int, int], ...]]]]:
    """LINES[sq*4+axis]: the mask of the whole line; STEPS[sq*4+axis][n]: the moves of length n
    along that axis as (action, destination bit, mask of the squares strictly between)."""
    lines: list[int] = []
    steps: list[list[tuple[tuple[int, int, int], ...]]] = []
    for square in range(64):
        col, row = square % 8, square // 8
        for directions in AXES:
            mask = 1 << square
            for dc, dr in directions:
                c, r = col + dc, row + dr
                while 0 <= c < 8 and 0 <= r < 8:
                    mask |= 1 << (8 * r + c)
                    c, r = c + dc, r + dr
            lines.append(mask)
            by_length: list[tuple[tuple[int, int, int], ...]] = [()]
            for n in range(1, 9):
                moves = []
                for dc, dr in directions:
                    c, r = col + n * dc, row + n * dr
                    if 0 <= c < 8 and 0 <= r < 8:
                        between = sum(1 << (8 * (row + k * dr) + col + k * dc) for k in range(1, n))
                        moves.append((square * 64 + 8 * r + c, 1 << (8 * r + c), between))
                by_length.append(tuple(moves))
            steps.append(by_length)
    return lines, steps


LINES, STEPS = _build_tables()

_zobrist = random.Random(0x10A)
ZOBRIST: Final = [[_zobrist.getrandbits(64) for _ in range(64)] for _ in range(2)]
ZOBRIST_WHITE_TO_MOVE: Final = _zobrist.getrandbits(64)


def spread(bits: int) -> int:
    """The squares of ``bits`` and every square touching one of them (8-neighbourhood)."""
    vertical = bits | (bits << 8) | (bits >> 8)
    return (vertical | ((vertical & NOT_H_FILE) << 1) | ((vertical & NOT_A_FILE) >> 1)) & FULL


def contiguous(bits: int) -> bool:
    """LOA-14: every piece reaches every other through touching pieces (one piece is contiguous)."""
    group = bits & -bits
    while True:
        grown = spread(group) & bits
        if grown == group:
            return group == bits
        group = grown


def generate_moves(own: int, enemy: int) -> list[Action]:
    """Every move of the side owning ``own`` (LOA-6 to LOA-9), grouped by origin square."""
    occupied = own | enemy
    moves: list[Action] = []
    append = moves.append
    pieces = own
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        base = (low.bit_length() - 1) * 4
        for index in (base, base + 1, base + 2, base + 3):
            for action, target, between in STEPS[index][(occupied & LINES[index]).bit_count()]:
                if not own & target and not enemy & between:
                    append(action)
    return moves


def has_move(own: int, enemy: int) -> bool:
    occupied = own | enemy
    pieces = own
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        base = (low.bit_length() - 1) * 4
        for index in (base, base + 1, base + 2, base + 3):
            for _, target, between in STEPS[index][(occupied & LINES[index]).bit_count()]:
                if not own & target and not enemy & between:
                    return True
    return False


OPTIONS: Final = (
    Option(
        "simultaneous_connection",
        "mover",
        "when one move joins up both sides' pieces at once: the player who moved wins (mover), "
        "or it is a draw",
        choices=("mover", "draw"),
    ),
    Option("move_limit", 60,
           "moves (each player's move counts one) before the game is a draw; 0 for no limit", minimum=0),
    Option("repetition", "none",
           "draw3: the game is a draw when the same position comes up a third time; none: no such rule",
           choices=("none", "draw3")),
)

class LoaState(State):
    """A Lines of Action position with its history (make/unmake on two bitboards)."""

    __slots__ = (
        "_draw_on_both",
        "_limit",
        "_outcome",
        "_repetition",
        "_seen",
        "_undo",
        "key",
        "pieces",
        "plies",
        "turn",
    )

    def __init__(
        self,
        game: Game[State],
        options: dict[str, Any],
        seed: int,
        start: JSONDict | None,
        black: int,
        white: int,
        turn: int,
        plies: int,
    ) -> None:
        super().__init__(game, 2, options, seed, start)
        self.pieces = [black, white]
        self.turn = turn
        self.plies = plies
        self._limit: int = options["move_limit"]
        self._draw_on_both = options["simultaneous_connection"] == "draw"
        self._repetition = options["repetition"] == "draw3"
        key = ZOBRIST_WHITE_TO_MOVE if turn == WHITE else 0
        for side in (BLACK, WHITE):
            bits = self.pieces[side]
            while bits:
                low = bits & -bits
                bits ^= low
                key ^= ZOBRIST[side][low.bit_length() - 1]
        self.key = key
        self._seen: dict[int, int] = {key: 1} if self._repetition else {}
        self._undo: list[tuple[int, Outcome | None]] = []
        self._outcome = self._judge()

    # --- rules -----------------------------------------------------------------------------

    def _judge(self) -> Outcome | None:
        """LOA-13: the end conditions, in order, on the position after a ply."""
        own, enemy = self.pieces[self.turn], self.pieces[1 - self.turn]
        mover = 1 - self.turn
        mover_joined = contiguous(enemy)
        to_move_joined = contiguous(own)
        if mover_joined and to_move_joined:
            if self._draw_on_both:
                return Outcome(None, "simultaneous")
            return Outcome(mover, "connected")
        if mover_joined:
            return Outcome(mover, "connected")
        if to_move_joined:
            return Outcome(self.turn, "connected")
        if self._repetition and self._seen.get(self.key, 0) >= 3:
            return Outcome(None, "repetition")
        if self._limit and self.plies >= self._limit:
            return Outcome(None, "move-limit")
        if not has_move(own, enemy) and not has_move(enemy, own):
            return Outcome(None, "blocked")
        return None

    def to_move(self) -> int:
        return NOBODY if self._outcome is not None else self.turn

    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_actions(self) -> list[Action]:
        if self._outcome is not None:
            return []
        moves = generate_moves(self.pieces[self.turn], self.pieces[1 - self.turn])
        if not moves:
            return [PASS]
        moves.sort()
        return moves

    def is_legal(self, action: Action) -> bool:
        """The move's own line only (LOA-6 to LOA-9), not the whole list; a pass only when
        there is no move (LOA-5)."""
        if self._outcome is not None:
            return False
        own, enemy = self.pieces[self.turn], self.pieces[1 - self.turn]
        if action == PASS:
            return not has_move(own, enemy)
        if not 0 <= action < PASS or not own >> (action >> 6) & 1:
            return False
        occupied = own | enemy
        base = (action >> 6) * 4
        for index in (base, base + 1, base + 2, base + 3):
            for move, target, between in STEPS[index][(occupied & LINES[index]).bit_count()]:
                if move == action:
                    return not own & target and not enemy & between
        return False

    def is_capture(self, action: Action) -> bool:
        return action != PASS and bool(self.pieces[1 - self.turn] >> (action & 63) & 1)

    def _leave(self, action: Action) -> None:
        """LOA-98: a side retires and the other wins at once; an agreed draw or an abandoned
        match is a tie. The pieces stay; the outcome before it goes on the undo stack."""
        leaving = leaving_of(action)
        assert leaving is not None
        self._undo.append((0, self._outcome))
        self.history.append(action)
        self._outcome = two_player_outcome(leaving)

    def apply(self, action: Action) -> None:
        if action < 0:  # leaving the table (LOA-98), never a move
            self._leave(action)
            return
        turn = self.turn
        captured = 0
        key = self.key ^ ZOBRIST_WHITE_TO_MOVE
        if action != PASS:
            origin, target = action >> 6, action & 63
            zobrist = ZOBRIST[turn]
            self.pieces[turn] ^= (1 << origin) | (1 << target)
            key ^= zobrist[origin] ^ zobrist[target]
            enemy = self.pieces[1 - turn]
            if enemy >> target & 1:
                self.pieces[1 - turn] = enemy ^ (1 << target)
                key ^= ZOBRIST[1 - turn][target]
                captured = 1
        self._undo.append((captured, self._outcome))
        self.history.append(action)
        self.turn = 1 - turn
        self.plies += 1
        self.key = key
        if self._repetition:
            self._seen[key] = self._seen.get(key, 0) + 1
        self._outcome = self._judge()

    def undo(self) -> None:
        if not self.history:
            raise IllegalActionError("nothing to undo")
        action = self.history.pop()
        captured, self._outcome = self._undo.pop()
        if action < 0:  # leaving changed only the outcome
            return
        if self._repetition:
            count = self._seen[self.key] - 1
            if count:
                self._seen[self.key] = count
            else:
                del self._seen[self.key]
        self.turn = turn = 1 - self.turn
        self.plies -= 1
        key = self.key ^ ZOBRIST_WHITE_TO_MOVE
        if action != PASS:
            origin, target = action >> 6, action & 63
            self.pieces[turn] ^= (1 << origin) | (1 << target)
            key ^= ZOBRIST[turn][origin] ^ ZOBRIST[turn][target]
            if captured:
                self.pieces[1 - turn] |= 1 << target
                key ^= ZOBRIST[1 - turn][target]
        self.key = key

    def copy_into(self, clone: LoaState) -> None:
        clone.pieces = self.pieces.copy()
        clone.turn = self.turn
        clone.plies = self.plies
        clone.key = self.key
        clone._limit = self._limit
        clone._draw_on_both = self._draw_on_both
        clone._repetition = self._repetition
        clone._seen = self._seen.copy()
        clone._undo = self._undo.copy()
        clone._outcome = self._outcome

    def position_key(self) -> int:
        return self.key

    # --- notation and views ------------------------------------------------------------------

    def action_to_text(self, action: Action) -> str:
        if is_leaving(action):
            return self.leaving_text(action)
        return action_text(action)

    def parse_action(self, text: str) -> Action:
        """``b1-d3`` (or ``c1xa3`` for a capture) or ``pass`` (LOA-4, LOA-5)."""
        action, marked_capture = read_action(text)
        written = text.strip().lower()
        if not self.is_legal(action):
            raise self.refusal(action, written)
        if marked_capture and not self.is_capture(action):
            raise IllegalActionError(f"not a capture, {square_name(action & 63)} is empty: write "
                                     f"{action_text(action)} (LOA-4)", written)
        return action

    def illegal_reason(self, action: Action) -> str:
        """The first of LOA-6 to LOA-11 that the move breaks, in words."""
        if self._outcome is not None or not 0 <= action <= PASS:
            return super().illegal_reason(action)
        own, enemy = self.pieces[self.turn], self.pieces[1 - self.turn]
        if action == PASS:
            example = action_text(self.legal_actions()[0])
            return f"a side passes only when it has no move (LOA-11), and {example} is one"
        origin, target = action >> 6, action & 63
        start, end = square_name(origin), square_name(target)
        if not own >> origin & 1:
            if enemy >> origin & 1:
                return f"the piece on {start} is {self._side(1 - self.turn)}'s, not yours (LOA-6)"
            return f"no piece of yours on {start} (LOA-6)"
        if origin == target:
            return f"a move takes the piece somewhere: {start} to {start} stays put (LOA-6)"
        axis = _axis(origin, target)
        if axis is None:
            return (f"{end} is not in a straight line from {start}: a piece moves along its row, its column "
                    "or a diagonal (LOA-6)")
        count = ((own | enemy) & LINES[origin * 4 + axis]).bit_count()
        distance = max(abs(target % 8 - origin % 8), abs(target // 8 - origin // 8))
        if distance != count:
            squares = "square" if count == 1 else "squares"
            return (f"a piece on {start} moves exactly {count} {squares} along that line: the number of "
                    "pieces on the whole line (LOA-7)")
        if own >> target & 1:
            return f"{end} holds a piece of your own (LOA-8)"
        for move, _, between in STEPS[origin * 4 + axis][distance]:
            blockers = enemy & between
            if move == action and blockers:
                blocker = square_name((blockers & -blockers).bit_length() - 1)
                return (f"it would jump over {self._side(1 - self.turn)}'s piece on {blocker}: a piece jumps "
                        "only its own side's pieces (LOA-9)")
        return super().illegal_reason(action)

    def _side(self, side: int) -> str:
        return self.game.info.seat_name(side)

    def position_json(self) -> JSONDict:
        return write_position(self.pieces[BLACK], self.pieces[WHITE], self.turn, self.plies)

    def view_content(self, seat: int | None) -> JSONDict:
        """Lines of Action hides nothing: every seat and spectator sees the whole position."""
        return {
            "position": self.position_json(),
            "move_limit": self._limit,
            "last_move": self._last_move(),
        }

    def action_parts(self, action: Action) -> JSONDict:
        """``kind``: ``move``, ``capture`` (the move lands on an enemy piece, LOA-4) or ``pass``
        (LOA-5); a move or capture has ``from`` and ``to`` (square names). Whose piece it is, the
        view's ``to_move`` says: parts travel with every legal action, so they repeat nothing."""
        return _parts(action, self.is_capture(action))

    def legal_json(self) -> list[JSONDict]:
        """As every game gives it, from a table of each move's entry as a move and as a capture
        (a server sends the list with every move; an entry never changes, so it is made once)."""
        enemy = self.pieces[1 - self.turn]
        return [_legal_entry(action, action != PASS and bool(enemy >> (action & 63) & 1))
                for action in self.legal_actions()]

    def _last_move(self) -> JSONDict | None:
        """The last ply as a display marks it: its text, with ``x`` for a capture (LOA-4), and, for
        a move, its two squares and whether it captured."""
        # A leaving action (LOA-98) ends the record and moves nothing: the last ply is before it.
        ply = -2 if self.history and self.history[-1] < 0 else -1
        if len(self.history) < -ply:
            return None
        action = self.history[ply]
        if action == PASS:
            return {"text": "pass"}
        captured = bool(self._undo[ply][0])
        text = self.action_to_text(action)
        return {
            "text": text.replace("-", "x") if captured else text,
            "from": square_name(action >> 6),
            "to": square_name(action & 63),
            "capture": captured,
        }

    def dump(self) -> str:
        """The CS61B dump (LOA-72), each line ending in a newline."""
        return dump_text(self)

    def render(self, seat: int | None = None) -> str:
        return board_text(self)


class LinesOfAction(Game[LoaState]):
    """Lines of Action, the CS61B rules by default (``specs/loa.md``)."""

    info = GameInfo(
        name="loa",
        title="Lines of Action",
        min_players=2,
        max_players=2,
        default_players=2,
        chance=False,
        hidden_information=False,
        options=OPTIONS,
        seat_names=("Black", "White"),
        end_reasons={
            "connected": "all its pieces joined in one group",
            "simultaneous": "both sides joined their pieces with one move",
            "repetition": "the same position for the third time",
            "move-limit": "the move limit was reached",
            "blocked": "neither side can move",
        },
    )

    def create(
        self, players: int, options: dict[str, Any], seed: int, start: JSONDict | None
    ) -> LoaState:
        if start is None:
            return LoaState(self, options, seed, None, INITIAL_BLACK, INITIAL_WHITE, BLACK, 0)
        black, white, turn, plies = read_position(start)
        return LoaState(self, options, seed, start, black, white, turn, plies)

    def from_rows(
        self,
        rows: list[str],
        to_move: str = "black",
        plies: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> LoaState:
        """A set-up position (LOA-22) from its rows, row 8 first, as in a dump."""
        return self.new(options=options, start={"board": rows, "to_move": to_move, "plies": plies})



def _axis(origin: int, target: int) -> int | None:
    """Which of ``AXES`` joins two squares (0 row, 1 column, 2 and 3 the diagonals), if any."""
    across, up = target % 8 - origin % 8, target // 8 - origin // 8
    if not up:
        return 0
    if not across:
        return 1
    if across == up:
        return 2
    return 3 if across == -up else None


def _parts(action: Action, capture: bool) -> JSONDict:
    if action == PASS:
        return {"kind": "pass"}
    kind = "capture" if capture else "move"
    return {"kind": kind, "from": square_name(action >> 6), "to": square_name(action & 63)}


@cache
def _legal_entry(action: Action, capture: bool) -> JSONDict:
    """One entry of ``LoaState.legal_json``: shared by every list that holds it, so never changed."""
    return {"text": action_text(action), "parts": _parts(action, capture)}
