"""Helpers for the board's tests (issue 18): a board app from command-line words, keys that walk
the cursor to a square as a person would, and screens compared with stored snapshots."""

from __future__ import annotations

import asyncio
import difflib
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time
from pathlib import Path

from textual.pilot import Pilot

from parlour.engine import State
from parlour.tui.board.app import BoardApp
from parlour.tui.board.drawing import drawing_for
from parlour.tui.board.picking import Option
from parlour.tui.play import Settings, read_settings

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = "PARLOUR_UPDATE_SNAPSHOTS"
"""Set to write the snapshots afresh (then read the diff in review)."""


def board_app(*argv: str) -> BoardApp:
    settings = read_settings(list(argv))
    drawing = drawing_for(settings.game)
    assert drawing is not None
    return BoardApp(settings, drawing)


def board_app_on(state: State, *seats: str, seed: int = 1) -> BoardApp:
    """The board of ``state`` (a position built from text), ``seats`` human or a bot kind."""
    drawing = drawing_for(state.game)
    assert drawing is not None
    return BoardApp(Settings(state.game, state, list(seats), seed, 0.01), drawing)


def the_app(pilot: Pilot[int]) -> BoardApp:
    app = pilot.app
    assert isinstance(app, BoardApp)
    return app


async def settle(pilot: Pilot[int]) -> None:
    """Waits until no bot and no hint is being searched, then for the screen."""
    app = the_app(pilot)
    for _ in range(100_000):
        if not app.thinking:
            break
        await app.workers.wait_for_complete()
        await asyncio.sleep(0)
    else:
        raise AssertionError("the bot never moved")
    await pilot.pause()


async def press(pilot: Pilot[int], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


def arrows_to(app: BoardApp, square: str) -> list[str]:
    """The arrow keys that take the cursor to ``square``, round any gaps in the board."""
    drawing, view = app.drawing, app.view
    x, y = drawing.place(view, app.cursor)
    goal = drawing.place(view, square)
    keys: list[str] = []
    while (x, y) != goal:
        dx = (goal[0] > x) - (goal[0] < x)
        dy = (goal[1] > y) - (goal[1] < y)
        if dx and drawing.square(view, x + dx, y) is not None:
            x, keys = x + dx, [*keys, "right" if dx > 0 else "left"]
        elif dy and drawing.square(view, x, y + dy) is not None:
            y, keys = y + dy, [*keys, "down" if dy > 0 else "up"]
        else:
            raise AssertionError(f"no way from the cursor to {square}")
    return keys


async def pick_by_keys(pilot: Pilot[int], option: Option) -> None:
    """Plays ``option`` as a person would: each square of its route by the arrows and Enter,
    then its number if the squares leave a choice."""
    app = the_app(pilot)
    for square in option.route:
        await pilot.press(*arrows_to(app, square), "enter")
    if app.table.human_to_move() and option in app.picker.choices():
        await pilot.press(str(app.picker.choices().index(option) + 1))
    await settle(pilot)


def check_snapshot(name: str, lines: list[str]) -> None:
    """``lines`` equal the stored screen ``snapshots/NAME.txt``."""
    path = SNAPSHOTS / f"{name}.txt"
    text = "\n".join(lines) + "\n"
    if os.environ.get(UPDATE):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    stored = path.read_text(encoding="utf-8")
    diff = "\n".join(difflib.unified_diff(stored.splitlines(), lines, "stored", "drawn", lineterm=""))
    assert text == stored, f"the screen differs from {path.name}:\n{diff}"


class RealTerminal:
    """``parlour play`` in a real pseudo-terminal of 80×24, its data directory ``data``."""

    def __init__(self, args: list[str], data: Path) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the program, as a person would start it
            os.environ["XDG_DATA_HOME"] = str(data)
            os.execv(sys.executable, [sys.executable, "-m", "parlour.cli", "play", *args])
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.output = b""

    def read_until(self, text: str) -> None:
        deadline = time.monotonic() + 120  # only a guard against a hung child
        while text.encode() not in self.output:
            ready, _, _ = select.select([self.fd], [], [], max(deadline - time.monotonic(), 0))
            try:
                chunk = os.read(self.fd, 65536) if ready else b""
            except OSError:  # the child has gone
                chunk = b""
            if not chunk:
                raise AssertionError(f"never shown: {text!r}; shown:\n{self.output.decode(errors='replace')}")
            self.output += chunk

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def status(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)
