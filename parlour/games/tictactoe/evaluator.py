"""What the ``greedy`` and ``strong`` bots know of tic-tac-toe: the lines each side can still make.

A line with none of the other side's marks is still open; two marks in an open line threaten to
win on the next move, so they count far more than one. The side to move is a tempo ahead: its
threat comes first. The search reaches the end of most games anyway; this orders and breaks ties.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, cast

from parlour.engine import Evaluator, State
from parlour.games.tictactoe.rules import LINES, TicTacToeState

# By the number of a side's marks in an open line (three is a win, scored by the search).
OPEN_LINE: Final = (0, 1, 10)
TEMPO: Final = 5


def open_lines(own: int, other: int) -> int:
    """The worth of the lines ``own`` can still fill (TTT-4)."""
    return sum(OPEN_LINE[(line & own).bit_count()] for line in LINES if not line & other)


class TicTacToeEvaluator(Evaluator):
    """Open lines, mine minus theirs, and a tempo for the side to move."""

    def evaluate(self, state: State, seat: int) -> int:
        board = cast(TicTacToeState, state)
        own, other = board.marks[seat], board.marks[1 - seat]
        tempo = TEMPO if board.turn == seat else -TEMPO
        return open_lines(own, other) - open_lines(other, own) + tempo


EVALUATOR: Final[Callable[[], Evaluator]] = TicTacToeEvaluator
"""The convention of ``parlour.bots``: a game package's ``evaluator.py`` names its evaluator here."""
