"""A Biloba position as text for a terminal: the BIL-6 rows, the pawn counts, what just
happened and what is due."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.games.biloba.board import COLUMNS
from parlour.games.biloba.notation import NAMES, action_text
from parlour.games.biloba.position import MOVE, REPLACE

if TYPE_CHECKING:
    from parlour.games.biloba.rules import BilobaState


def board_text(state: BilobaState) -> str:
    names = state.seat_names()
    lines = ["    " + " ".join(COLUMNS)]
    for number, row in enumerate(state.rows(), start=1):
        lines.append(f" {number}  " + " ".join(row))
    counts = ", ".join(f"{names[s]} {n}" for s, n in enumerate(state.counts))
    lines.append(f"Pawns: {counts}")
    last = last_text(state)
    if last:
        lines.append(f"Last: {last}")
    who = names[state.seat]
    if state.phase == MOVE:
        lines.append(f"{who} to move (turn {state.turn})")
    elif state.phase == REPLACE:
        pawns = " ".join(NAMES[p] for p in state.pending_pawns())
        lines.append(f"{who} to replace (turn {state.turn}): move a pending pawn ({pawns}) on to a tile "
                     f"it flanked, e.g. {action_text(state.legal_actions()[0])}")
    return "\n".join(lines)


def last_text(state: BilobaState) -> str:
    """The last decision and what happened after it without one."""
    names = state.seat_names()
    parts = []
    if state.history and state.history[-1] < 0:
        parts.append(state.action_to_text(state.history[-1]))  # leaving the table: "Red resigned"
    elif state.history:
        parts.append(f"{names[state.last_mover()]} {action_text(state.history[-1])}")
    for event in state.recent_events():
        name = names[event.seat]
        if event.kind == "capture":
            parts.append(f"{name} captures {' '.join(NAMES[t] for t in event.tiles)}")
        elif event.kind == "eliminated":
            parts.append(f"{name} is eliminated")
        elif event.kind == "retired":
            if event.tiles:
                parts.append(f"{name}'s pawns leave the board")
        else:
            parts.append(f"{name} passes")
    return "; ".join(parts)
