"""Tic-tac-toe: the smallest complete game on the engine contract, the example of ``docs/engine.md``.

The rules, numbered so that tests can cite them:

- TTT-1  The board is 3 × 3. Squares are named by file ``a``–``c`` (left to right) and row
  ``1``–``3`` (bottom to top): ``a1`` is the bottom left corner, ``b2`` the centre.
- TTT-2  Two players, X (seat 0) and O (seat 1). X moves first; then they alternate.
- TTT-3  A move puts the mover's mark on an empty square; there is no other move and no pass.
  A move is written as its square (``b2``).
- TTT-4  Three marks of one player in a line (three rows, three columns, two diagonals) win at
  once, and the game is over.
- TTT-5  A full board without such a line is a draw.
- TTT-6  A set-up position is a board and the side to move; X has as many marks as O when X is to
  move, one more when O is. Only the side that moved last can have a line.
- TTT-7  A player may leave the table (resign, run out of time, be gone too long): the other wins
  at once. The players may agree a draw, and a match nobody plays is abandoned: a draw.

Each side's marks are one 9-bit int (bit ``3 * row + file``, ``a1`` = bit 0), so a line is a
mask and "has three in a row" is one ``&`` per line. The action is the square's number 0–8.
"""

from __future__ import annotations

from typing import Any, Final

from parlour.engine import (
    NOBODY,
    Action,
    FormatError,
    Game,
    GameInfo,
    IllegalActionError,
    JSONDict,
    Outcome,
    State,
    is_leaving,
    leaving_of,
    two_player_outcome,
)
from parlour.games.tictactoe.notation import SQUARES, parse_square, square_name
from parlour.games.tictactoe.render import board_rows, render_board

CROSS: Final = 0  # X, seat 0
NOUGHT: Final = 1  # O, seat 1
MARKS: Final = ("x", "o")
FULL: Final = (1 << SQUARES) - 1

# TTT-4: the eight lines, as masks of their three squares.
LINES: Final = (
    0b000_000_111, 0b000_111_000, 0b111_000_000,  # rows 1, 2, 3
    0b001_001_001, 0b010_010_010, 0b100_100_100,  # files a, b, c
    0b100_010_001, 0b001_010_100,  # a1-c3, c1-a3
)  # fmt: skip

THREE_IN_A_ROW: Final = "three-in-a-row"
FULL_BOARD: Final = "full-board"


def line_of(bits: int) -> int | None:
    """The first line that ``bits`` fills (TTT-4), or ``None``."""
    for line in LINES:
        if bits & line == line:
            return line
    return None


class TicTacToeState(State):
    """A tic-tac-toe position: each side's marks as a bitmask, and whose turn it is."""

    __slots__ = ("_outcome", "marks", "turn")

    def __init__(
        self,
        game: Game[State],
        options: dict[str, Any],
        seed: int,
        start: JSONDict | None,
        marks: list[int],
        turn: int,
    ) -> None:
        super().__init__(game, 2, options, seed, start)
        self.marks = marks
        self.turn = turn
        self._outcome = self._judge()

    # --- the rules ---------------------------------------------------------------------------

    def _judge(self) -> Outcome | None:
        """TTT-4, TTT-5: a line wins; else a full board is a draw; else play goes on."""
        for side in (CROSS, NOUGHT):
            if line_of(self.marks[side]) is not None:
                return Outcome(side, THREE_IN_A_ROW)
        if self.marks[CROSS] | self.marks[NOUGHT] == FULL:
            return Outcome(None, FULL_BOARD)
        return None

    def to_move(self) -> int:
        return NOBODY if self._outcome is not None else self.turn

    def outcome(self) -> Outcome | None:
        return self._outcome

    def empty(self) -> int:
        """The empty squares as a mask."""
        return FULL & ~(self.marks[CROSS] | self.marks[NOUGHT])

    def legal_actions(self) -> list[Action]:
        """TTT-3: every empty square, a1 to c3, while the game is on."""
        if self._outcome is not None:
            return []
        empty = self.empty()
        return [square for square in range(SQUARES) if empty >> square & 1]

    def is_legal(self, action: Action) -> bool:
        # One bit test instead of building the list: bots and the server ask this often.
        return self._outcome is None and 0 <= action < SQUARES and bool(self.empty() >> action & 1)

    def _left(self, action: Action) -> Outcome:
        """TTT-7: the outcome of a leaving action (``State.leave`` checked it)."""
        leaving = leaving_of(action)
        assert leaving is not None
        return two_player_outcome(leaving)

    def apply(self, action: Action) -> None:
        if action < 0:  # leaving the table: the marks stay, the game ends
            self.history.append(action)
            self._outcome = self._left(action)
            return
        self.marks[self.turn] |= 1 << action
        self.history.append(action)
        self.turn = 1 - self.turn
        self._outcome = self._judge()

    def undo(self) -> None:
        if not self.history:
            raise IllegalActionError("nothing to undo")
        action = self.history.pop()
        # Play went on before the last action (only a game in play can be left), so the
        # position it restores had no outcome.
        self._outcome = None
        if action < 0:  # leaving the table changed nothing else
            return
        self.turn = 1 - self.turn
        self.marks[self.turn] &= ~(1 << action)

    def copy_into(self, clone: TicTacToeState) -> None:
        clone.marks = self.marks.copy()
        clone.turn = self.turn
        clone._outcome = self._outcome

    def position_key(self) -> int:
        # The two 9-bit masks and the mover side by side: distinct positions, distinct keys.
        return self.marks[CROSS] | self.marks[NOUGHT] << SQUARES | self.turn << (2 * SQUARES)

    # --- what leaves the engine ----------------------------------------------------------------

    def action_to_text(self, action: Action) -> str:
        if is_leaving(action):
            return self.leaving_text(action)
        return square_name(action)

    def parse_action(self, text: str) -> Action:
        """A square, ``b2`` (TTT-3): refused when malformed, taken, or the game is over."""
        square = parse_square(text)
        if not self.is_legal(square):
            raise self.refusal(square)
        return square

    def illegal_reason(self, action: Action) -> str:
        """TTT-3: a mark goes on an empty square; nothing goes once the game is over (TTT-4, TTT-5)."""
        if self._outcome is not None or not 0 <= action < SQUARES:
            return super().illegal_reason(action)
        owner = MARKS[CROSS] if self.marks[CROSS] >> action & 1 else MARKS[NOUGHT]
        return f"already holds an {owner.upper()}, and a mark goes only on an empty square (TTT-3)"

    def action_parts(self, action: Action) -> JSONDict:
        return {"kind": "place", "to": square_name(action)}

    def position_json(self) -> JSONDict:
        return {"board": board_rows(self.marks), "to_move": MARKS[self.turn]}

    def view_content(self, seat: int | None) -> JSONDict:
        """Tic-tac-toe hides nothing: every seat and spectator sees the whole board."""
        return {
            "position": self.position_json(),
            "last_move": self.last_move(),
            "line": self.winning_line(),
        }

    def last_move(self) -> str | None:
        """The square of the last mark put, for a front end to mark (a leaving action is no mark)."""
        moves = [action for action in self.history if action >= 0]
        return square_name(moves[-1]) if moves else None

    def winning_line(self) -> list[str] | None:
        """The squares of the line that won (TTT-4), for a front end to mark."""
        outcome = self._outcome
        if outcome is None or outcome.winner is None or outcome.reason != THREE_IN_A_ROW:
            return None  # a draw, or a win because the other side left (TTT-7)
        line = line_of(self.marks[outcome.winner])
        assert line is not None  # a win is a line
        return [square_name(square) for square in range(SQUARES) if line >> square & 1]

    def render(self, seat: int | None = None) -> str:
        footer = []
        if self._outcome is None:
            footer.append(f"{MARKS[self.turn].upper()} to move")
        if self.history and self.history[-1] < 0:
            footer.append(self.leaving_text(self.history[-1]))  # "X resigned"
        elif self.history:
            footer.append(f"Last move: {square_name(self.history[-1])}")
        return render_board(self.marks, footer)


class TicTacToe(Game[TicTacToeState]):
    """Tic-tac-toe, unlisted in the lobby: the example game of ``docs/engine.md``."""

    info = GameInfo(
        name="tictactoe",
        title="Tic-tac-toe",
        min_players=2,
        max_players=2,
        default_players=2,
        chance=False,
        hidden_information=False,
        seat_names=("X", "O"),
        end_reasons={
            THREE_IN_A_ROW: "three in a row",
            FULL_BOARD: "the board is full",
        },
        listed=False,
    )

    def create(
        self, players: int, options: dict[str, Any], seed: int, start: JSONDict | None
    ) -> TicTacToeState:
        if start is None:
            return TicTacToeState(self, options, seed, None, [0, 0], CROSS)
        x, o, turn = read_position(start)
        return TicTacToeState(self, options, seed, start, [x, o], turn)


def read_position(start: Any) -> tuple[int, int, int]:
    """Checks and reads a position in ``TicTacToeState.position_json`` form (TTT-6)."""
    if not isinstance(start, dict):
        raise FormatError("a tic-tac-toe position must be a JSON object")
    rows = start.get("board")
    if not isinstance(rows, list) or len(rows) != 3:
        raise FormatError("a tic-tac-toe position needs 'board': 3 rows, row 3 first")
    marks = [0, 0]
    for index, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != 3 or set(row) - set("xo-"):
            raise FormatError(f"row {3 - index} must be 3 of 'x', 'o' or '-', not {row!r}")
        for column, cell in enumerate(row):
            if cell != "-":
                marks[MARKS.index(cell)] |= 1 << (3 * (2 - index) + column)
    to_move = start.get("to_move", "x")
    if to_move not in MARKS:
        raise FormatError(f"'to_move' must be 'x' or 'o', not {to_move!r}")
    turn = MARKS.index(to_move)
    if marks[CROSS].bit_count() - marks[NOUGHT].bit_count() != turn:
        raise FormatError(f"{to_move.upper()} cannot be to move with these marks (X moves first)")
    if line_of(marks[turn]) is not None:
        # The game ends on the move that makes a line, so the side with one moved last.
        raise FormatError(f"{to_move.upper()} has three in a row: the game ended on its move, not before it")
    return marks[CROSS], marks[NOUGHT], turn
