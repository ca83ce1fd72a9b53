"""Biloba's notation: tile names (BIL-5) and actions as text, both ways (BIL-21, BIL-30).

A move is ``d4-d5`` (a step), ``c3-c5`` (a jump) or ``d4-e5-f5`` (a centre route); a replacement
is ``c3>c4``. Reading tells apart text that names no action (``NotationError``) from an action the
rules forbid (``IllegalActionError``); the rules say why an action is not legal in a position.
"""

from __future__ import annotations

import re
from typing import Final

from parlour.engine import Action, IllegalActionError, NotationError
from parlour.games.biloba.actions import REPLACE_BASE, decode_action, move_action, replacement_action
from parlour.games.biloba.board import CENTRE, CENTRE_NEIGHBOUR_SET, COLUMNS, SIZE, TILES

NAMES: Final = tuple(COLUMNS[t // SIZE] + str(t % SIZE + 1) for t in range(TILES))
"""BIL-5: ``NAMES[tile]`` is ``a1`` … ``i9``."""
_BY_NAME: Final = {name: tile for tile, name in enumerate(NAMES)}

_TILE = r"([a-z]\d+)"
_MOVE_TEXT: Final = re.compile(rf"{_TILE}-{_TILE}(?:-{_TILE})?")
_REPLACE_TEXT: Final = re.compile(rf"{_TILE}>{_TILE}")


def tile_name(tile: int) -> str:
    return NAMES[tile]


def parse_tile(text: str) -> int:
    """``e5`` → 40; ``NotationError`` for anything that is not a cell a1–i9 (BIL-5)."""
    tile = _BY_NAME.get(text)
    if tile is None:
        raise NotationError(f"not a tile: {text!r} (tiles are a1 to i9: a column a-i, then a row 1-9)")
    return tile


def action_text(action: Action) -> str:
    """BIL-21 / BIL-30: ``d4-d5``, ``c3-c5``, ``d4-e5-f5``, ``c3>c4``."""
    tiles = decode_action(action)
    if action >= REPLACE_BASE:
        return f"{NAMES[tiles[0]]}>{NAMES[tiles[1]]}"
    return "-".join(NAMES[t] for t in tiles)


def read_action(text: str) -> Action:
    """The action a text names, whether or not it is legal here.

    ``NotationError`` if the text names no action; ``IllegalActionError`` for a shape no rule
    ever allows (a pass, a move that stops on e5, a route that leaves e5 for a far tile)."""
    cleaned = text.strip().lower()
    if cleaned == "pass":
        raise IllegalActionError(
            "there is no pass to choose: a player with no legal move passes automatically (BIL-50)", "pass"
        )
    replacement = _REPLACE_TEXT.fullmatch(cleaned)
    if replacement is not None:
        return replacement_action(parse_tile(replacement[1]), parse_tile(replacement[2]))
    move = _MOVE_TEXT.fullmatch(cleaned)
    if move is None:
        raise NotationError(
            f"not a move: {text.strip()!r} (write FROM-TO like d4-d5, a centre route like d4-e5-f5, "
            "or a replacement PAWN>TILE like c3>c4)"
        )
    origin, target = parse_tile(move[1]), parse_tile(move[2])
    final = parse_tile(move[3]) if move[3] else None
    if final is not None and target != CENTRE:
        raise NotationError(f"a move of three tiles is a centre route through e5, not {cleaned!r}")
    return _route_or_move(cleaned, origin, target, final)


def _route_or_move(text: str, origin: int, target: int, final: int | None) -> Action:
    if final is None:
        # A step or jump that ends on e5 is never an action (BIL-16, BIL-18), but it reads as one:
        # the position refuses it with the rule it breaks there (a step: BIL-17 when e5 may not be
        # entered at all, else BIL-18; a jump: BIL-16).
        return move_action(origin, target)
    if final not in CENTRE_NEIGHBOUR_SET:
        raise IllegalActionError("from e5 the pawn steps on to a neighbour of e5 (BIL-18)", text)
    return move_action(origin, target, final)
