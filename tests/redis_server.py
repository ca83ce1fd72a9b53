"""A real ``redis-server`` on 127.0.0.1 for the tests: started once per test session, on a free port,
its files in a temporary directory, nothing saved to disk, stopped at the end.

``stop`` and ``start`` again restart it on the same port (a Redis restart, as the issue's faults
ask). Every wait is bounded and fails saying what was awaited; nothing asserts on time.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_process import read_line

START_SECONDS = 15.0
READY = "Ready to accept connections"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """``redis-server`` in the foreground (so the test owns its process), logging to stdout, which
    is read up to the line that says it accepts connections."""

    def __init__(self, workdir: Path) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.dir = workdir
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.output: list[str] = []

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        executable = shutil.which("redis-server")
        assert executable, "redis-server is missing: scripts/bootstrap installs Debian's redis-server"
        self.process = subprocess.Popen(
            [executable, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.dir), "--daemonize", "no", "--loglevel", "notice"],
            cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )
        while True:
            line = read_line(self.process, START_SECONDS)
            self.output.append(line)
            if READY in line:
                break
            if not line or self.process.poll() is not None:
                pytest.fail(f"redis-server on port {self.port} never became ready:\n"
                            + "\n".join(self.output[-20:]))
        # Read its log away (kept for failure messages): once the pipe is full, Redis would block.
        stdout = self.process.stdout
        assert stdout is not None
        threading.Thread(target=lambda: self.output.extend(line.decode(errors="replace").rstrip()
                                                            for line in stdout), daemon=True).start()
        return self

    def stop(self) -> None:
        """SIGTERM: Redis closes every connection and exits (nothing to save: ``--save ""``)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(START_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(START_SECONDS)

    def pause(self) -> None:
        """SIGSTOP: connections stay open and nothing answers, as with a hung host."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One Redis shared by the test session; a test that stops it starts it again before it ends."""
    running = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield running
    running.stop()
