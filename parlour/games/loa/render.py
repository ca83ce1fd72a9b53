"""A Lines of Action position as text: the board for a terminal and the CS61B dump (LOA-72)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.games.loa.notation import FILES, action_text
from parlour.games.loa.position import SIDE_NAMES, board_rows

if TYPE_CHECKING:
    from parlour.games.loa.rules import LoaState


def board_text(state: LoaState) -> str:
    """Rows 8 to 1 with their numbers, the files, whose move it is and the last move."""
    lines = []
    for number, row in zip(range(8, 0, -1), board_rows(*state.pieces), strict=True):
        lines.append(f" {number}  " + " ".join(row))
    lines.append("    " + " ".join(FILES))
    limit = state.options["move_limit"]
    of_limit = f" of {limit}" if limit else ""
    if not state.is_over():
        lines.append(f"{SIDE_NAMES[state.turn].capitalize()} to move (ply {state.plies}{of_limit})")
    moves = [action for action in state.history[-2:] if action >= 0]
    if moves:
        lines.append(f"Last move: {action_text(moves[-1])}")
    if state.history and state.history[-1] < 0:
        lines.append(state.leaving_text(state.history[-1]))  # "White resigned" (LOA-98)
    return "\n".join(lines)


def dump_text(state: LoaState) -> str:
    """The CS61B dump (LOA-72), each line ending in a newline."""
    rows = ["    " + "".join(f"{c} " for c in row) for row in board_rows(*state.pieces)]
    return "===\n" + "\n".join(rows) + f"\nNext move: {SIDE_NAMES[state.turn]}\n===\n"
