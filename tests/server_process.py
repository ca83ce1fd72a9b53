"""A real ``parlour serve`` subprocess on 127.0.0.1, for the server tests and the browser tests.

Every wait is bounded and fails with a message saying what was awaited; nothing asserts on time.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import psycopg

from parlour.server.process import READY

ROOT = Path(__file__).resolve().parents[1]
START_SECONDS = 30.0
WAIT = 15.0
"""Seconds any single expected answer may take before the test fails (a bound, not a timing)."""


ROOMY = {"create_burst": 100_000, "join_burst": 100_000, "open_per_address": 100_000, "open_total": 100_000,
         "message_burst": 100_000, "list_burst": 100_000, "bot_matches_per_address": 100_000,
         "bot_matches_total": 100_000, "replay_burst": 100_000, "chat_address_burst": 100_000,
         "chat_list_burst": 100_000}
"""Limits for test servers that create many matches from one address and play whole games at full
speed on one connection; a limit's own test sets it."""


class Server:
    """``parlour serve --port 0`` on the SQLite file ``workdir/NAME.sqlite3`` (or, given ``store``, on
    that PostgreSQL URL: ``--store``), logging to ``workdir/NAME.log``; the address is read from its
    first line. ``start`` again after a ``kill`` or ``stop`` restarts it on the same file or schema
    (on a new port). ``flags``: more of ``parlour serve``'s options (``["--test-clock"]``)."""

    def __init__(
        self, workdir: Path, name: str = "parlour", limits: Mapping[str, float] | None = None,
        flags: list[str] | None = None, store: str | None = None,
    ) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.store = store
        self.db = workdir / f"{name}.sqlite3"
        self.log = workdir / f"{name}.log"
        self.data_home = workdir / "data"
        self.limits = {**ROOMY, **(limits or {})}
        self.flags = list(flags or [])
        self.process: subprocess.Popen[bytes] | None = None
        self.base = ""

    def start(self) -> Server:
        env = {**os.environ, "XDG_DATA_HOME": str(self.data_home), "PYTHONUNBUFFERED": "1"}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "parlour.cli", "serve", "--port", "0", *self.kept_in(),
                 "--workers", "1", "--log-level", "info",
                 *(f"--limit={name}={value:g}" for name, value in self.limits.items()), *self.flags],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL,
            )
        line = read_line(self.process, START_SECONDS)
        assert line.startswith(READY), f"parlour serve printed {line!r}, not its address\n{self.log_text()}"
        self.base = line.removeprefix(READY).split()[0].rstrip("/")
        # The access log goes to stdout: read it away, or once the pipe is full the server blocks.
        assert self.process.stdout is not None
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        return self

    def kept_in(self) -> list[str]:
        """``parlour serve``'s options that say where it keeps its matches."""
        return ["--db", str(self.db)] if self.store is None else ["--store", self.store]

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

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """The rows a query (``?`` for each parameter) finds in what the server stored: its SQLite
        file or its PostgreSQL schema, which have the same tables and columns. Read beside the
        running server, as any reader of its store would."""
        if self.store is None:
            with contextlib.closing(sqlite3.connect(self.db)) as db:
                return db.execute(sql, params).fetchall()
        with psycopg.connect(self.store, autocommit=True) as pg:
            return pg.execute(sql.replace("?", "%s"), params).fetchall()

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


StoreKind = Literal["sqlite", "postgresql"]
STORE_KINDS: tuple[StoreKind, ...] = ("sqlite", "postgresql")


@dataclass(frozen=True)
class Storage:
    """Where the servers a test starts keep their matches (issue 17: "every existing server test
    passes against the PostgreSQL store too"): each server its own SQLite file, or its own new schema
    of the test session's one PostgreSQL (``fresh`` gives its URL; None for SQLite)."""

    kind: StoreKind
    fresh: Callable[[], str | None]

    def server(
        self, workdir: Path, name: str = "parlour", limits: Mapping[str, float] | None = None,
        flags: list[str] | None = None,
    ) -> Server:
        """A ``Server`` (not started) that keeps its matches in a store of this kind of its own."""
        return Server(workdir, name, limits, flags, store=self.fresh())


def read_line(process: subprocess.Popen[bytes], seconds: float) -> str:
    """The process's next line of output, or what came of it within ``seconds``."""
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
