"""Helpers of the ``parlour play --join`` table tests: the real client on pipes, and a second
seat over a plain WebSocket, both against a real ``parlour serve`` (``server_process``).

Every wait is bounded and fails with a message saying what was awaited; nothing asserts on time.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from server_process import ROOT, WAIT, Server
from websockets.sync.client import ClientConnection, connect


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


class Seat:
    """A second seat of the match: one WebSocket, read with bounded waits."""

    def __init__(self, server: Server, match_id: str, label: str) -> None:
        self.label = label
        self.socket: ClientConnection = connect(server.match_ws(match_id), open_timeout=WAIT, proxy=None,
                                                 max_queue=None, legacy=True)

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

    def until(self, what: str, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message for which ``wanted`` holds, whatever comes before it."""
        deadline = time.monotonic() + WAIT
        while True:
            remaining = deadline - time.monotonic()
            try:
                message = json.loads(self.socket.recv(max(remaining, 0)))
            except TimeoutError:
                raise AssertionError(f"{self.label}: nothing within {WAIT} s waiting for {what}") from None
            if wanted(message):
                assert isinstance(message, dict)
                return message

    def next(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next message of type ``kind`` with those field values (others are skipped)."""
        return self.until(f"{kind} {fields or ''}".strip(),
                          lambda m: m["type"] == kind and all(m.get(k) == v for k, v in fields.items()))

    def hello(self, token: str) -> dict[str, Any]:
        self.send({"type": "hello", "token": token})
        return self.next("state")

    def news(self, what: str, change: str) -> dict[str, Any]:
        """The ``offers`` message that says ``what`` (draw, rematch) had ``change`` (made, accepted…)."""
        return self.until(f"{what} {change}", lambda m: m["type"] == "offers" and m["news"]["what"] == what
                          and m["news"]["change"] == change)

    def close(self) -> None:
        self.socket.close()


class Relay:
    """A TCP relay in front of the server, to cut every connection through it at once (a network
    drop as the client meets it); new connections go through as before."""

    def __init__(self, server: Server) -> None:
        host, port = server.base.removeprefix("http://").rsplit(":", 1)
        self.upstream = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:  # closed
                return
            far = socket.create_connection(self.upstream, timeout=WAIT)
            far.settimeout(None)
            with self.lock:
                self.pairs.append((near, far))
            threading.Thread(target=pump, args=(near, far), daemon=True).start()
            threading.Thread(target=pump, args=(far, near), daemon=True).start()

    def cut(self) -> None:
        """Every connection through the relay ends now."""
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for end in pair:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()

    def close(self) -> None:
        self.listener.close()
        self.cut()


def pump(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)
