"""A PostgreSQL server of the tests' own: started once per test session on a free port of 127.0.0.1,
its files in a temporary directory, stopped and removed at the end. No test assumes one already runs.

PostgreSQL refuses to run as root (``../shared/STACK.md``): as root, its programs run as the
``postgres`` user (``runuser``), in a directory that user owns. Each test gets a schema of its own
(``fresh``: cheap, unlike a database), named in the URL it is given, so that stores and servers
opened on that URL see only that test's tables.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote

import psycopg

USER = "parlour"
DATABASE = "parlour"
START_SECONDS = 60


def postgres_bin() -> Path:
    """The directory of Debian's PostgreSQL programs (the newest installed)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                   key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0)
    assert found, "PostgreSQL is not installed (scripts/bootstrap installs Debian's postgresql)"
    return found[-1].parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """``initdb`` and ``pg_ctl start`` in a temporary directory; ``url`` reaches its database."""

    def __init__(self) -> None:
        # In /tmp whatever TMPDIR says: the postgres user must reach it, and the socket's path
        # (DIR/.s.PGSQL.PORT) must stay within the 107 bytes a Unix socket's name may have.
        self.dir = Path(tempfile.mkdtemp(prefix="parlour-postgres-", dir="/tmp"))
        self.data = self.dir / "data"
        self.port = 0
        self._schemas = itertools.count(1)
        self._as_root = os.geteuid() == 0
        if self._as_root:  # the postgres user must own (and reach) its directory
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self.dir.chmod(0o700)

    def _run(self, *command: str) -> None:
        runner = ["runuser", "-u", "postgres", "--"] if self._as_root else []
        done = subprocess.run([*runner, *command], capture_output=True, text=True, timeout=START_SECONDS,
                              check=False, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"

    def start(self) -> PostgresServer:
        bin_dir = postgres_bin()
        if not self.data.exists():
            self._run(str(bin_dir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", USER,
                      "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        self.port = self.port or free_port()  # a restart keeps its port: clients reconnect to it
        # fsync off: a test never loses power, and the shared machine's disk is spared.
        options = (f"-k {self.dir} -c listen_addresses=127.0.0.1 -p {self.port} -c fsync=off"
                   " -c full_page_writes=off -c max_connections=200")
        self._run(str(bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"),
                  "-o", options, "-w", "-t", str(START_SECONDS), "start")
        with psycopg.connect(self.url(database="postgres"), autocommit=True) as db:
            if db.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone() is None:
                db.execute(f"CREATE DATABASE {DATABASE}")
        return self

    def url(self, schema: str | None = None, database: str = DATABASE) -> str:
        url = f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"
        if schema is not None:
            url += "?options=" + quote(f"-c search_path={schema}")
        return url

    def fresh(self) -> str:
        """The URL of a new empty schema (a store opened on it makes its tables there)."""
        schema = f"test_{next(self._schemas)}"
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE SCHEMA {schema}")
        return self.url(schema)

    def halt(self, mode: str = "fast") -> None:
        """Stops the server, keeping its files (``start`` again restarts it on the same port)."""
        self._run(str(postgres_bin() / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def stop(self) -> None:
        with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
            self.halt()
        shutil.rmtree(self.dir, ignore_errors=True)

    def log_text(self) -> str:
        with contextlib.suppress(OSError):
            return "postgres log:\n" + (self.dir / "log").read_text(errors="replace")[-4000:]
        return ""
