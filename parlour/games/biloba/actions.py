"""Biloba's actions as integers (BIL-53), ordered as their texts are (tiles are ``x * 9 + y``).

* a step or jump ``F-T`` is ``(F * 81 + T) * 9``;
* a centre route ``F-e5-T`` is ``(F * 81 + 40) * 9 + k``, k = 1 + the index of T in
  ``CENTRE_NEIGHBOURS`` (BIL-17, BIL-18);
* a replacement ``P>T`` is ``REPLACE_BASE + P * 81 + T`` (BIL-28, BIL-30).

The rules decode actions inline on their hot paths; everything else uses ``decode_action``.
"""

from __future__ import annotations

from typing import Final

from parlour.engine import Action
from parlour.games.biloba.board import CENTRE, CENTRE_NEIGHBOURS, TILES

REPLACE_BASE: Final = TILES * TILES * 9
"""Actions from here on are replacements (BIL-28, BIL-30)."""

ROUTE_INDEX: Final = {tile: index + 1 for index, tile in enumerate(CENTRE_NEIGHBOURS)}
"""A neighbour of e5 → the ``k`` of a centre route that ends on it."""


def move_action(origin: int, target: int, final: int | None = None) -> Action:
    """The action of a step or jump ``origin-target``, or of the centre route ``origin-e5-final``."""
    if final is None:
        return (origin * TILES + target) * 9
    return (origin * TILES + CENTRE) * 9 + ROUTE_INDEX[final]


def replacement_action(pawn: int, tile: int) -> Action:
    """The action ``pawn>tile`` (BIL-30)."""
    return REPLACE_BASE + pawn * TILES + tile


def is_replacement(action: Action) -> bool:
    return action >= REPLACE_BASE


def decode_action(action: Action) -> tuple[int, ...]:
    """The tiles of an action: (from, to), (from, e5, to) or, for a replacement, (pawn, tile)."""
    if action >= REPLACE_BASE:
        return divmod(action - REPLACE_BASE, TILES)
    rest, route = divmod(action, 9)
    origin, target = divmod(rest, TILES)
    if route:
        return origin, CENTRE, CENTRE_NEIGHBOURS[route - 1]
    return origin, target
