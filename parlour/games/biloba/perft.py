"""Biloba's perft (spec section 13.4): leaves of the tree of whole turns, not of single actions.

A turn counts once whatever it holds (a move, replacements, forced captures only, an elimination,
a pass); a game that ends early is one leaf. ``full`` branches on every decision; otherwise only
moves branch and each replacement step takes its first option in text order.
"""

from __future__ import annotations

from parlour.games.biloba.actions import decode_action
from parlour.games.biloba.board import LINES
from parlour.games.biloba.position import MOVE, OVER, REPLACE
from parlour.games.biloba.rules import BilobaState


def perft(state: BilobaState, depth: int, full: bool = True) -> int:
    """Leaves after ``depth`` turns, counted from the turn in progress (for a state with no
    history: the first turn of its start position, whatever happened in it automatically)."""
    if depth < 0:
        raise ValueError(f"perft depth must be at least 0, not {depth}")
    first = 1 if not state.history else state.turn
    return _count(state, first + depth, full)


def _count(state: BilobaState, stop: int, full: bool) -> int:
    if state.phase == OVER or state.turn >= stop:
        return 1
    actions = state.legal_actions()
    if state.phase == MOVE and state.turn == stop - 1:
        # The last turn, counted in bulk: a move that captures nothing ends the turn (one leaf),
        # and so does one that captures when replacements do not branch.
        if not full:
            return len(actions)
        quiet = [action for action in actions if not _captures(state, action)]
        actions = [action for action in actions if _captures(state, action)]
        total = len(quiet)
    else:
        if state.phase == REPLACE and not full:
            actions = actions[:1]
        total = 0
    for action in actions:
        state.apply(action)
        total += _count(state, stop, full)
        state.undo()
    return total


def _captures(state: BilobaState, action: int) -> bool:
    """Whether the move closes a sandwich (BIL-22, BIL-27) around the tile it ends on."""
    tiles = decode_action(action)
    origin, target, board, colour = tiles[0], tiles[-1], state.board, state.seat
    for mid, far in LINES[target]:
        enemy = board[mid]
        if enemy >= 0 and enemy != colour and far != origin and board[far] == colour:
            return True
    return False
