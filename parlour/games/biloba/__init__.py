"""Biloba for 2, 3 and 4 players (``specs/biloba.md``)."""

from parlour.games.biloba.rules import (
    MOVE,
    OVER,
    REPLACE,
    REPLACE_BASE,
    Biloba,
    BilobaState,
    Event,
    action_text,
    decode_action,
    is_replacement,
    move_action,
    replacement_action,
)

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
