"""``parlour play … --join URL`` as a real subprocess on pipes, for the tests of the terminal
client against a real ``parlour serve`` (``server_process``). Every wait is bounded and fails with
a message saying what was awaited; nothing asserts on time."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from server_process import ROOT, WAIT


class Terminal:
    """``parlour play … --join URL`` with its standard input and output on pipes, run as the user
    ``name`` (the name the client gives the server) with its data (the saved tokens) in ``home``.
    Its output is buffered as it is on any pipe: what the client does not flush never arrives."""

    def __init__(self, args: list[str], home: Path, name: str = "Ann") -> None:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
        env |= {"XDG_DATA_HOME": str(home), "LOGNAME": name, "USER": name}
        self.home = home
        self.process = subprocess.Popen(
            [sys.executable, "-m", "parlour.cli", "play", *args], cwd=ROOT, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        self.output = ""

    def read_until(self, pattern: str) -> str:
        """Output up to and including the first match of ``pattern`` (a regex) not read before."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + WAIT
        while (found := re.search(pattern, self.output)) is None:
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], max(remaining, 0))
            chunk = os.read(self.process.stdout.fileno(), 65536) if ready else b""
            if not chunk:
                raise AssertionError(f"the client never printed {pattern!r}; it printed:\n{self.output}")
            self.output += chunk.decode(errors="replace")
        text, self.output = self.output[: found.end()], self.output[found.end():]
        return text

    def drain(self) -> None:
        """Reads what the client has printed so far, without waiting (kept for ``read_until``): a
        client whose pipe is full would stop until it is read."""
        assert self.process.stdout is not None
        while select.select([self.process.stdout], [], [], 0)[0]:
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                return
            self.output += chunk.decode(errors="replace")

    def read_through(self, *patterns: str) -> str:
        """Output up to the last of ``patterns`` once each has been printed, in whatever order
        (what two messages of the server say when they come together)."""
        text = ""
        while missing := [pattern for pattern in patterns if re.search(pattern, text) is None]:
            text += self.read_until(missing[0])
        return text

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n".encode())
        self.process.stdin.flush()

    def finish(self) -> tuple[int, str]:
        """Closes standard input; the exit status and the rest of the output."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.close()
        rest = self.process.stdout.read().decode(errors="replace")
        return self.process.wait(WAIT), self.output + rest

    def saved_seats(self) -> dict[str, Any]:
        """The client's book of seat tokens, by match WebSocket address."""
        book = json.loads((self.home / "parlour" / "seats.json").read_text(encoding="utf-8"))
        assert isinstance(book, dict)
        return book

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(WAIT)
