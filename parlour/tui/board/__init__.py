"""``parlour play GAME`` in a terminal: the game's board in Textual (``app``), generic over the
engine contract; each game's module here (named after the game) only draws its squares."""

from __future__ import annotations

import sys

from parlour.tui.play import Settings


def run_board(settings: Settings) -> int | None:
    """Plays ``settings``' match on its board; ``None`` when the game has no board here (the line
    interface plays it instead)."""
    from parlour.tui.board.app import BoardApp
    from parlour.tui.board.drawing import drawing_for

    drawing = drawing_for(settings.game)
    if drawing is None:
        return None
    app = BoardApp(settings, drawing, keep=True)
    status = app.run()
    if app.complaint:
        print(app.complaint, file=sys.stderr)
    return 0 if status is None else status
