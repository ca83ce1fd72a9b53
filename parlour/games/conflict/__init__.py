"""Conflict for 2, 3 and 4 players (``specs/conflict.md``): dice as chance, paths, mines, takeovers."""

from parlour.games.conflict.actions import (
    ACTIVATE,
    END,
    MOVE,
    ROLL,
    Decision,
    activate_action,
    decode,
    enter_action,
    move_action,
    roll_action,
)
from parlour.games.conflict.board import Board, bits, board_for
from parlour.games.conflict.maps import DEFAULT_MAP, MAPS, Map, load_map, parse_map
from parlour.games.conflict.notation import AmbiguousError
from parlour.games.conflict.position import (
    CHANCE_PHASE,
    DECISION_PHASE,
    NO_OWNER,
    OVER_PHASE,
    position_from_text,
    position_to_text,
)
from parlour.games.conflict.rules import Conflict, ConflictState, Event

__all__ = [
    "ACTIVATE",
    "CHANCE_PHASE",
    "DECISION_PHASE",
    "DEFAULT_MAP",
    "END",
    "MAPS",
    "MOVE",
    "NO_OWNER",
    "OVER_PHASE",
    "ROLL",
    "AmbiguousError",
    "Board",
    "Conflict",
    "ConflictState",
    "Decision",
    "Event",
    "Map",
    "activate_action",
    "bits",
    "board_for",
    "decode",
    "enter_action",
    "load_map",
    "move_action",
    "parse_map",
    "position_from_text",
    "position_to_text",
    "roll_action",
]
