"""Helpers of the ``parlour play --join`` table tests: the real client on pipes, and a second
seat over a plain WebSocket, both against a real ``parlour serve`` (``server_process``).

Every wait is bounded and fails with a message saying what was awaited; nothing asserts on time.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from server_process import WAIT, Server
from websockets.sync.client import ClientConnection, connect


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
