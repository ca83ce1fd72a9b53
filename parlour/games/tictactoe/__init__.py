"""Tic-tac-toe, the example game (``docs/engine.md``): hidden from the lobby, playable by name."""

from parlour.games.tictactoe.rules import CROSS, LINES, MARKS, NOUGHT, TicTacToe, TicTacToeState

__all__ = ["CROSS", "LINES", "MARKS", "NOUGHT", "TicTacToe", "TicTacToeState"]
