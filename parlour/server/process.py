"""A ``parlour serve`` child process for the benchmarks, and the HTTP ``post`` they make.

Standard library only, apart from the server's own modules: a benchmark's client side starts and
calls a server without importing it (so the server may come from another checkout).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Final

READY: Final = "parlour serve: listening on"
"""The start of the line ``parlour serve`` prints once it accepts connections (its address follows)."""


def start_server(directory: Path, source: Path | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """``parlour serve`` on a free port of 127.0.0.1 with its files under ``directory``; the process
    and its address. ``source``: run the ``parlour`` package found there (another checkout)."""
    env = {**os.environ, "XDG_DATA_HOME": str(directory), "PYTHONUNBUFFERED": "1"}
    if source is not None:
        env["PYTHONPATH"] = str(source.resolve())
    db = directory / "bench.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "serve", "--port", "0", "--db", str(db)],
        env=env, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=directory,
    )
    assert process.stdout is not None
    line = b""
    deadline = time.monotonic() + 30
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


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=60) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result
