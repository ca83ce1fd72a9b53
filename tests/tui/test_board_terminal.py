"""``parlour play`` in a real terminal (issue 18): the board opens there, ``--text`` keeps the line
interface; scripts and pipes keep it too (``test_play.py``, ``test_saves.py``)."""

from __future__ import annotations

from pathlib import Path

from board_pilot import RealTerminal


def test_parlour_play_in_a_terminal_opens_the_board(tmp_path: Path) -> None:
    # Issue 18: "parlour play GAME opens a Textual board when it runs in a terminal (--text keeps
    # today's line interface ...)".
    terminal = RealTerminal(["loa", "--seat", "1=bot:random", "--time", "0.05"], tmp_path)
    terminal.read_until("Pieces: black 12, white 12")
    terminal.type("q")
    assert terminal.status() == 0
    terminal = RealTerminal(["loa", "--text", "--seat", "1=bot:random", "--time", "0.05"], tmp_path)
    terminal.read_until("Black to move> ")
    terminal.type("quit\n")
    assert terminal.status() == 0
