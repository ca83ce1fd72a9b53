"""Biloba for 2, 3 and 4 players (``specs/biloba.md``): ``board`` (the grid and its tables),
``actions`` (actions as integers), ``notation`` (tile names, actions as text), ``position`` (the
set-ups and the JSON form), ``rules`` (make/unmake, the game), ``render`` (text), ``perft``."""

from parlour.games.biloba.actions import (
    REPLACE_BASE,
    decode_action,
    is_replacement,
    move_action,
    replacement_action,
)
from parlour.games.biloba.notation import action_text
from parlour.games.biloba.position import MOVE, OVER, REPLACE
from parlour.games.biloba.rules import Biloba, BilobaState, Event

__all__ = [
    "MOVE",
    "OVER",
    "REPLACE",
    "REPLACE_BASE",
    "Biloba",
    "BilobaState",
    "Event",
    "action_text",
    "decode_action",
    "is_replacement",
    "move_action",
    "replacement_action",
]
