"""A ``parlour serve`` child process for the benchmarks, and the HTTP calls they make.

Standard library only, apart from the server's own modules: a benchmark's client side starts and
calls a server without importing it (so the server may come from another checkout, ``source``).
"""

from __future__ import annotations

import http.client
import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

READY: Final = "parlour serve: listening on"
"""The start of the line ``parlour serve`` prints once it accepts connections (its address follows)."""

PAUSES_ENV: Final = "PARLOUR_BENCH_GC_PAUSES"

WATCHED_SERVE: Final = f"""
import atexit, gc, os, signal, sys, time
_pauses, _began = [], [0.0, 0.0]
def _timed(phase, info):
    if phase == "start":
        _began[:] = time.monotonic(), time.thread_time()
    else:
        _pauses.append((_began[0], time.monotonic() - _began[0], time.thread_time() - _began[1],
                        info["generation"], info["collected"]))
def _write():
    with open(os.environ["{PAUSES_ENV}"], "w") as out:
        out.writelines(f"{{b:.6f}} {{t:.6f}} {{u:.6f}} {{g}} {{c}}\\n" for b, t, u, g, c in _pauses)
gc.callbacks.append(_timed)
atexit.register(_write)
# uvicorn raises the SIGTERM it caught again once it has shut down: exit then, running atexit.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
from parlour.cli import main
sys.exit(main())
"""
"""``python -c`` this, then ``serve …``: ``parlour serve`` with every collection it makes timed and
written at exit to the file named by ``PARLOUR_BENCH_GC_PAUSES`` (one line each: when it began on
the monotonic clock, which every process of the machine shares, its seconds, the CPU seconds of
the collecting thread meanwhile, its generation, the objects it freed). It
needs nothing from the server's own code, so a checkout from before any change is measured alike."""


@dataclass(frozen=True)
class Pause:
    began: float
    seconds: float
    cpu: float
    """The collecting thread's CPU time: the pause less the time other processes held the CPU."""
    generation: int
    collected: int


def start_server(
    directory: Path, source: Path | None = None, *, db: Path | None = None,
    limits: dict[str, float] | None = None, pauses: Path | None = None, start_seconds: float = 30.0,
) -> tuple[subprocess.Popen[bytes], str]:
    """``parlour serve`` on a free port of 127.0.0.1 with its files under ``directory``; the process
    and its address. ``source``: run the ``parlour`` package found there (another checkout).
    ``db``: the SQLite file (default ``directory/bench.sqlite3``). ``limits``: ``--limit`` settings.
    ``pauses``: time the server's collections into this file (read it with ``read_pauses`` once the
    server has stopped)."""
    env = {**os.environ, "XDG_DATA_HOME": str(directory), "PYTHONUNBUFFERED": "1"}
    if source is not None:
        env["PYTHONPATH"] = str(source.resolve())
    command = [sys.executable, "-m", "parlour.cli"]
    if pauses is not None:
        env[PAUSES_ENV] = str(pauses)
        command = [sys.executable, "-c", WATCHED_SERVE]
    db = db if db is not None else directory / "bench.sqlite3"
    settings = [f"--limit={name}={value:g}" for name, value in (limits or {}).items()]
    process = subprocess.Popen(
        [*command, "serve", "--port", "0", "--db", str(db), *settings],
        env=env, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=directory,
    )
    assert process.stdout is not None
    line = b""
    deadline = time.monotonic() + start_seconds
    while not line.endswith(b"\n") and time.monotonic() < deadline and process.poll() is None:
        ready, _, _ = select.select([process.stdout], [], [], 1.0)
        if ready:
            line += os.read(process.stdout.fileno(), 1)
    text = line.decode(errors="replace")
    if not text.startswith(READY):
        process.kill()
        raise RuntimeError(f"the server did not start (it printed {text!r})")
    return process, text.removeprefix(READY).split()[0].rstrip("/")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def read_pauses(path: Path) -> list[Pause] | None:
    """The collections a watched server made (``None``: it wrote none, e.g. it did not exit cleanly)."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    return [Pause(float(began), float(seconds), float(cpu), int(generation), int(collected))
            for began, seconds, cpu, generation, collected in (line.split() for line in lines)]


def supports_limits(source: Path | None) -> bool:
    """Whether the server to run takes ``--limit`` (a checkout from before limits does not)."""
    root = source if source is not None else Path(__file__).resolve().parents[2]
    return (root / "parlour" / "server" / "limits.py").exists()


def memory(pid: int) -> dict[str, int]:
    """A process's ``VmRSS`` (resident now) and ``VmHWM`` (resident at its peak), in bytes."""
    found: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0]) * 1024
    return found


def call(
    base: str, method: str, path: str, body: dict[str, Any] | None = None, source_address: str | None = None,
) -> tuple[int, Any]:
    """One HTTP request on a new connection (from ``source_address`` when given, another loopback
    address being another client to the server's per-address limits): the status and the JSON answer."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(
        parts.hostname or "127.0.0.1", parts.port, timeout=60,
        source_address=None if source_address is None else (source_address, 0),
    )
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        connection.close()


def post(base: str, path: str, body: dict[str, Any], source_address: str | None = None) -> dict[str, Any]:
    """``call`` for a POST that must succeed: its JSON answer, or ``RuntimeError`` saying what came back."""
    status, answer = call(base, "POST", path, body, source_address)
    if status >= 400 or not isinstance(answer, dict):
        raise RuntimeError(f"POST {path}: HTTP {status} {answer}")
    return answer
