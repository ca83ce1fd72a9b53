"""Shared helpers for the Conflict tests: positions from text, decisions by their notation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from parlour.engine import IllegalActionError, NotationError
from parlour.games import get_game
from parlour.games.conflict import Conflict, ConflictState
from parlour.games.conflict.maps import BASE, LAND, WATER, neighbours
from parlour.games.conflict.pieces import AAGUN, AIRPLANE, CANNON, SHIP, SUBMARINE, TYPES

CONFLICT: Conflict = get_game("conflict")  # type: ignore[assignment]

CORRIDOR = """\
conflict-map 1
name corridor
size 7x5
terrain
.......
.+~~~+.
.~####.
.~#####
.+~~~+.
end
base 1 b2
base 2 f2
base 3 b5
base 4 f5
mine 1 a1
mine 1 a3
mine 2 g1
mine 2 g3
mine 3 a4
mine 3 a5
mine 4 g5
mine 4 e5
"""
"""A 7x5 map with a one-square dead end of water at b3-b4 (CON-37) and water round the edges."""


def position(text: str, players: int = 4, **options: Any) -> ConflictState:
    """A state from the text form of a position (``parlour.games.conflict.position``)."""
    return CONFLICT.position(text, players, options)


def texts(state: ConflictState) -> list[str]:
    return [state.action_to_text(action) for action in state.legal_actions()]


def do(state: ConflictState, text: str) -> str:
    """Plays a decision or roll given as text; returns its canonical text."""
    action = state.parse_action(text)
    canonical = state.action_to_text(action)
    state.play(action)
    return canonical


def canonical(state: ConflictState, text: str) -> str:
    return state.action_to_text(state.parse_action(text))


def refused(state: ConflictState, text: str) -> str:
    """The reason of the ``IllegalActionError`` that ``text`` raises here (issue 18: the message
    is the decision as written, then this reason)."""
    with pytest.raises(IllegalActionError) as error:
        state.parse_action(text)
    assert str(error.value) in (error.value.reason, f"{' '.join(text.lower().split())}: {error.value.reason}")
    return error.value.reason


def unreadable(state: ConflictState, text: str) -> str:
    """The message of the ``NotationError`` that ``text`` raises here."""
    with pytest.raises(NotationError) as error:
        state.parse_action(text)
    return str(error.value)


def piece_list(state: ConflictState) -> list[str]:
    """The pieces on the board as ``1S k5`` in reading order."""
    pieces: list[str] = state.position_json()["pieces"]
    return pieces


def square(state: ConflictState, name: str) -> int:
    found = state.board.square_of(name)
    assert found is not None, name
    return found


def hostile(state: ConflictState, seat: int, name: str) -> bool:
    """Whether the mine on ``name`` is hostile to the pieces ``seat``'s controller controls."""
    return state.hostile_mines(seat) >> square(state, name) & 1 == 1


# --- brute force, from the spec's words ------------------------------------------------------------------

ENTERS = {
    CANNON: {LAND, BASE}, AAGUN: {LAND, BASE}, AIRPLANE: {LAND, WATER, BASE},
    SHIP: {WATER, BASE}, SUBMARINE: {WATER, BASE},
}
"""CON-8, written out again."""


def all_paths(state: ConflictState, start: int, kind: int, die: int) -> Iterator[list[int]]:
    """Every path of ``die`` steps from ``start``: adjacent, enterable squares, none twice, never
    the start again (CON-32, CON-33 items 1 and 2)."""
    board = state.board
    path: list[int] = []

    def extend() -> Iterator[list[int]]:
        if len(path) == die:
            yield list(path)
            return
        at = path[-1] if path else start
        for near in neighbours(board.cols, board.rows, at):
            if near != start and near not in path and board.terrain[near] in ENTERS[kind]:
                path.append(near)
                yield from extend()
                path.pop()

    yield from extend()


def walked(state: ConflictState, code: int, path: list[int]) -> list[int]:
    """CON-34: the path up to the first mine hostile to the piece (none for an airplane when
    ``airplanes_on_mines`` is false)."""
    if code % TYPES == AIRPLANE and not state.options["airplanes_on_mines"]:
        return path
    board = state.board
    for index, square in enumerate(path):
        mine_seat = board.mine_seat[square]
        if mine_seat >= 0 and state.controller[mine_seat] != state.controller[code // TYPES]:
            return path[:index + 1]
    return path


def allowed(state: ConflictState, code: int, walk: list[int]) -> bool:
    """CON-33 items 4 and 5, CON-38, CON-43, and the 1940 airplane rule."""
    board = state.board
    final = walk[-1]
    mine_seat = board.mine_seat[final]
    plane_rule = code % TYPES == AIRPLANE and not state.options["airplanes_on_mines"]
    if plane_rule and mine_seat >= 0:
        return False
    if mine_seat >= 0 and not plane_rule and state.controller[mine_seat] != state.seat:
        return True  # a mine destruction, whatever rests there
    target = state.squares[final]
    if target < 0:
        return True
    if state.controller[target // TYPES] == state.seat:
        return False
    return not (code % TYPES == AIRPLANE and target % TYPES in (AAGUN, SUBMARINE))
