"""Helpers for the server tests: a real ``parlour serve`` subprocess on 127.0.0.1 and WebSocket clients.

Every wait is bounded and fails with a message saying what was awaited; nothing asserts on time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from parlour.server.serve import READY

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30.0
WAIT = 15.0
"""Seconds any single expected message may take before the test fails (a bound, not a timing)."""


class Server:
    """``parlour serve --port 0`` on a SQLite file; the address is read from its first line."""

    def __init__(self, db: Path, log: Path, data_home: Path) -> None:
        self.db = db
        self.log = log
        self.data_home = data_home
        self.process: subprocess.Popen[bytes] | None = None
        self.base = ""

    def start(self) -> Server:
        env = {**os.environ, "XDG_DATA_HOME": str(self.data_home), "PYTHONUNBUFFERED": "1"}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "parlour.cli", "serve", "--port", "0", "--db", str(self.db),
                 "--workers", "1", "--log-level", "info"],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL,
            )
        assert self.process.stdout is not None
        line = read_line(self.process, START_SECONDS)
        assert line.startswith(READY), f"parlour serve printed {line!r}, not its address\n{self.log_text()}"
        self.base = line.removeprefix(READY).split()[0].rstrip("/")
        return self

    @property
    def ws_base(self) -> str:
        return "ws://" + self.base.removeprefix("http://")

    def match_ws(self, match_id: str) -> str:
        return f"{self.ws_base}/ws/matches/{match_id}"

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)

    def log_text(self) -> str:
        with contextlib.suppress(OSError):
            return "server log:\n" + self.log.read_text(errors="replace")[-4000:]
        return ""

    # --- HTTP ---

    def call(self, method: str, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
        """(status, decoded JSON answer) of an HTTP request to the server."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(request, timeout=WAIT) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text.decode(errors="replace")

    def create(self, **body: Any) -> dict[str, Any]:
        status, answer = self.call("POST", "/api/matches", body)
        assert status == 201, f"creating {body}: {status} {answer}"
        assert isinstance(answer, dict)
        return answer

    def join(self, match_id: str, **body: Any) -> dict[str, Any]:
        status, answer = self.call("POST", f"/api/matches/{match_id}/join", body)
        assert status == 200, f"joining {match_id} with {body}: {status} {answer}"
        assert isinstance(answer, dict)
        return answer

    def summary(self, match_id: str) -> dict[str, Any]:
        status, answer = self.call("GET", f"/api/matches/{match_id}")
        assert status == 200, f"match {match_id}: {status} {answer}"
        return answer["match"]  # type: ignore[no-any-return]


def read_line(process: subprocess.Popen[bytes], seconds: float) -> str:
    assert process.stdout is not None
    deadline = time.monotonic() + seconds
    buffer = b""
    while not buffer.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or process.poll() is not None:
            break
        ready, _, _ = select.select([process.stdout], [], [], remaining)
        if ready:
            chunk = os.read(process.stdout.fileno(), 1)
            if not chunk:
                break
            buffer += chunk
    return buffer.decode(errors="replace").strip()


def start_server(tmp: Path, name: str = "parlour") -> Server:
    tmp.mkdir(parents=True, exist_ok=True)
    return Server(tmp / f"{name}.sqlite3", tmp / f"{name}.log", tmp / "data").start()


# --- WebSocket clients ------------------------------------------------------------------------------


class Client:
    """One WebSocket to a match, with bounded waits that say what they waited for."""

    def __init__(self, socket: ClientConnection, label: str) -> None:
        self.socket = socket
        self.label = label
        self.seen: list[dict[str, Any]] = []
        self.next_id = 0

    @classmethod
    async def open(cls, url: str, label: str = "client") -> Client:
        # Unbounded queue: a client that stops reading still sees the server go (and closes at once).
        socket = await asyncio.wait_for(
            connect(url, proxy=None, open_timeout=WAIT, close_timeout=2, max_queue=None), WAIT
        )
        return cls(socket, label)

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.socket.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def receive(self, what: str = "a message") -> dict[str, Any]:
        try:
            frame = await asyncio.wait_for(self.socket.recv(), WAIT)
        except TimeoutError:
            raise AssertionError(f"{self.label}: nothing within {WAIT} s while waiting for {what}") from None
        message = json.loads(frame)
        assert isinstance(message, dict), message
        self.seen.append(message)
        return message

    async def expect(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next message of type ``kind`` (with those field values), skipping ``seats`` messages;
        anything else on the way fails the test."""
        what = f"{kind} {fields or ''}".strip()
        while True:
            message = await self.receive(what)
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message
            if message["type"] == "seats":
                continue
            raise AssertionError(f"{self.label}: waiting for {what}, got {message}")

    async def until(self, what: str, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message for which ``wanted`` holds, whatever comes before it."""
        while True:
            message = await self.receive(what)
            if wanted(message):
                return message

    async def seat_connected(self, seat: int, connected: bool) -> dict[str, Any]:
        """The ``seats`` message that shows ``seat`` (dis)connected."""
        return await self.until(
            f"seat {seat} {'connected' if connected else 'disconnected'}",
            lambda m: m["type"] == "seats" and m["seats"][seat]["connected"] is connected,
        )

    async def error(self, code: str) -> dict[str, Any]:
        message = await self.expect("error")
        assert message["code"] == code, f"{self.label}: expected error {code}, got {message}"
        assert message["message"], message
        return message

    async def ping(self) -> None:
        """A ping answered by its pong proves the connection still works (and all before it is read)."""
        self.next_id += 1
        ref = f"{self.label}-ping-{self.next_id}"
        await self.send({"type": "ping", "id": ref})
        await self.expect("pong", id=ref)

    async def hello(self, token: str | None = None, last_version: int | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "hello"}
        if token is None:
            message["spectator"] = True
        else:
            message["token"] = token
        if last_version is not None:
            message["last_version"] = last_version
        await self.send(message)
        return await self.expect("state")

    async def close(self) -> None:
        await self.socket.close()


async def open_client(clients: list[Client], server: Server, match_id: str, label: str) -> Client:
    client = await Client.open(server.match_ws(match_id), label)
    clients.append(client)
    return client
