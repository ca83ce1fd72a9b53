"""The outside services a cluster runs on, started here as child processes: Debian's PostgreSQL,
Redis and HAProxy. ``parlour cluster up`` and the tests share this one copy.

Each service keeps its files in a directory of its own and logs to a file there. Every wait is
bounded and, when it runs out or the service exits first, raises ``ServiceError`` saying what was
awaited and the service's last lines of output.

PostgreSQL refuses to run as root (``../shared/STACK.md``): as root, its programs run as the
``postgres`` user (``runuser``), in a directory that user owns and can reach.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from parlour.engine.processes import PR_SET_PDEATHSIG, prctl

START_SECONDS: Final = 60.0
"""The longest any service may take to start or stop (a bound on a busy machine, not a timing)."""

POLL_SECONDS: Final = 0.05
"""How often a wait looks again at what it waits for."""

POSTGRES_USER: Final = "parlour"
POSTGRES_DATABASE: Final = "parlour"

SOCKET_PATH_BYTES: Final = 107
"""The longest path a Unix socket may have (PostgreSQL's is DIR/.s.PGSQL.PORT)."""


class ServiceError(RuntimeError):
    """A service that is missing, did not start or did not stop; the message says which and why."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on just now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def last_lines(path: Path, count: int = 20) -> str:
    """The end of a log file, to show with an error ('' when there is none)."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(lines[-count:])


def failure(what: str, log: Path) -> ServiceError:
    tail = last_lines(log)
    return ServiceError(f"{what}\nlast lines of {log}:\n{tail}" if tail else f"{what} ({log} is empty)")


def wait_for(what: str, ready: Callable[[], bool], log: Path, seconds: float = START_SECONDS,
             process: subprocess.Popen[bytes] | None = None) -> None:
    """Returns once ``ready()`` holds; ``ServiceError`` when ``process`` exits first or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while not ready():
        if process is not None and process.poll() is not None:
            raise failure(f"{what}: the process exited (status {process.returncode}) first", log)
        if time.monotonic() > deadline:
            raise failure(f"{what}: not within {seconds:g} s", log)
        time.sleep(POLL_SECONDS)


def accepts(host: str, port: int) -> bool:
    """Whether something listens on ``host:port``."""
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=1):
        return True
    return False


def executable(name: str, package: str) -> str:
    found = shutil.which(name) or next(
        (str(path) for path in (Path("/usr/sbin") / name, Path("/usr/bin") / name) if path.exists()), None)
    if found is None:
        raise ServiceError(f"{name} is missing: install Debian's {package} (scripts/bootstrap does)")
    return found


def terminated_with_parent(call: Callable[..., int] | None) -> Callable[[], None]:
    """What a child runs between fork and exec: be sent SIGTERM when we end, even by SIGKILL, so that
    no service outlives the process that runs it (Linux only; elsewhere nothing)."""

    def arrange() -> None:
        if call is not None:
            call(PR_SET_PDEATHSIG, signal.SIGTERM)

    return arrange


class Child:
    """A service in the foreground as a child process of ours, its output appended to ``log``. Its
    own session: a Ctrl-C in the terminal reaches only us, and we stop it in our order. It is sent
    SIGTERM if the thread that started it ends first (start children from the main thread)."""

    def __init__(self, name: str, command: Sequence[str], log: Path, cwd: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.name = name
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                list(command), stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd,
                env=env, start_new_session=True, preexec_fn=terminated_with_parent(prctl()))

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def wait_until(self, what: str, ready: Callable[[], bool], seconds: float = START_SECONDS) -> None:
        wait_for(f"{self.name}: {what}", ready, self.log, seconds, self.process)

    def stop(self, how: signal.Signals = signal.SIGTERM, seconds: float = START_SECONDS) -> bool:
        """Signals it and waits for it to exit; True when it did so by itself, False when it had to be
        killed (SIGKILL) after ``seconds``."""
        if not self.alive():
            return True
        self.process.send_signal(how)
        try:
            self.process.wait(seconds)
            return True
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(seconds)
            return False

    def signal(self, which: signal.Signals) -> None:
        if self.alive():
            self.process.send_signal(which)


# --- PostgreSQL ------------------------------------------------------------------------------------


def postgres_bin() -> Path:
    """The directory of Debian's PostgreSQL programs (the newest installed)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                   key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0)
    if not found:
        raise ServiceError("PostgreSQL is not installed: install Debian's postgresql"
                           " (scripts/bootstrap does)")
    return found[-1].parent


def as_root() -> bool:
    return os.geteuid() == 0


def reachable_by(user: str, directory: Path) -> bool:
    """Whether ``user`` may pass through every existing directory above (and including) ``directory``:
    PostgreSQL, run as that user, must reach its data directory by its path."""
    owner = pwd.getpwnam(user)
    groups = {owner.pw_gid}
    for place in [directory, *directory.parents]:
        if not place.exists():
            continue
        mode = place.stat()
        if mode.st_uid == owner.pw_uid:
            allowed = bool(mode.st_mode & stat.S_IXUSR)
        elif mode.st_gid in groups:
            allowed = bool(mode.st_mode & stat.S_IXGRP)
        else:
            allowed = bool(mode.st_mode & stat.S_IXOTH)
        if not allowed:
            return False
    return True


def postgres_home() -> Path:
    """Where the ``postgres`` user keeps its files (Debian: /var/lib/postgresql)."""
    return Path(pwd.getpwnam("postgres").pw_dir)


class Postgres:
    """Debian's PostgreSQL with its files in ``directory`` (``data/``, ``log``, and the Unix socket),
    on ``port`` of 127.0.0.1 (0: a free one, chosen at the first start and kept by restarts). ``start``
    makes the cluster (``initdb``) when ``data/`` is missing, so data is kept between runs; the
    database ``parlour`` and the role ``parlour`` (trusted from this machine) are made with it.
    ``settings``: more ``-c NAME=VALUE`` for the server (the tests turn ``fsync`` off)."""

    def __init__(self, directory: Path, port: int = 0, settings: Sequence[str] = ()) -> None:
        self.dir = directory
        self.data = directory / "data"
        self.log = directory / "log"
        self.port = port
        self.settings = list(settings)

    def _prepare(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        if len(str(self.dir / ".s.PGSQL.65535").encode()) > SOCKET_PATH_BYTES:
            raise ServiceError(f"PostgreSQL's directory {self.dir} is too long a path for its Unix socket"
                               f" (at most {SOCKET_PATH_BYTES - 15} bytes): choose a shorter one")
        if as_root():  # the postgres user must own (and reach) its directory
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self.dir.chmod(0o700)
            if not reachable_by("postgres", self.dir):
                raise ServiceError(
                    f"PostgreSQL refuses to run as root, and the postgres user it runs as cannot reach"
                    f" {self.dir} (a directory above it is closed to other users): choose a directory"
                    f" it can reach, e.g. under {postgres_home()}")

    def _run(self, *command: str, seconds: float = START_SECONDS) -> subprocess.CompletedProcess[str]:
        runner = ["runuser", "-u", "postgres", "--"] if as_root() else []
        try:
            return subprocess.run([*runner, *command], capture_output=True, text=True, timeout=seconds,
                                  check=False, stdin=subprocess.DEVNULL, start_new_session=True)
        except subprocess.TimeoutExpired as error:
            raise failure(f"{' '.join(command)}: not done within {seconds:g} s", self.log) from error

    def _must(self, *command: str) -> None:
        done = self._run(*command)
        if done.returncode != 0:
            raise failure(f"{' '.join(command)} failed (status {done.returncode}):\n"
                          f"{done.stdout.strip()}\n{done.stderr.strip()}".rstrip(), self.log)

    def start(self) -> Postgres:
        """Starts it (``pg_ctl start -w``: returns once it accepts connections) and makes the database."""
        bin_dir = postgres_bin()
        self._prepare()
        if not (self.data / "PG_VERSION").exists():
            self._must(str(bin_dir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", POSTGRES_USER,
                       "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        self.port = self.port or free_port()
        options = " ".join([f"-k {self.dir} -c listen_addresses=127.0.0.1 -p {self.port}",
                            *(f"-c {setting}" for setting in self.settings)])
        self._must(str(bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options,
                   "-w", "-t", str(int(START_SECONDS)), "start")
        self._make_database()
        return self

    def _make_database(self) -> None:
        import psycopg  # only those who start PostgreSQL load it

        try:
            with psycopg.connect(self.url(database="postgres"), autocommit=True, connect_timeout=10) as db:
                if db.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                              (POSTGRES_DATABASE,)).fetchone() is None:
                    db.execute(f"CREATE DATABASE {POSTGRES_DATABASE}")
        except psycopg.Error as error:
            raise failure(f"PostgreSQL on port {self.port}: making the database failed: {error}",
                          self.log) from error

    def url(self, database: str = POSTGRES_DATABASE) -> str:
        return f"postgresql://{POSTGRES_USER}@127.0.0.1:{self.port}/{database}"

    def running(self) -> bool:
        """Whether a PostgreSQL runs on ``data/`` (``pg_ctl status``), this one or one left by a
        process that was killed before it could stop it."""
        if not (self.data / "postmaster.pid").exists():
            return False
        return self._run(str(postgres_bin() / "pg_ctl"), "-D", str(self.data), "status").returncode == 0

    def pid(self) -> int | None:
        """The postmaster's process id, from its pid file."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int((self.data / "postmaster.pid").read_text().splitlines()[0])
        return None

    def halt(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m MODE``, keeping its files (``start`` again restarts it on the same port).
        ``fast`` ends every session and shuts down cleanly; ``immediate`` is a crash, for tests."""
        self._must(str(postgres_bin() / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w",
                   "-t", str(int(START_SECONDS)), "stop")


# --- Redis -----------------------------------------------------------------------------------------


class Redis:
    """``redis-server`` in the foreground on ``port`` of 127.0.0.1 (0: a free one, kept by restarts),
    nothing saved to disk, logging to ``directory/redis.log``."""

    def __init__(self, directory: Path, port: int = 0) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.dir = directory
        self.log = directory / "redis.log"
        self.port = port or free_port()
        self.child: Child | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        command = [executable("redis-server", "redis-server"), "--bind", "127.0.0.1",
                   "--port", str(self.port), "--save", "", "--appendonly", "no", "--dir", str(self.dir),
                   "--daemonize", "no", "--loglevel", "notice"]
        self.child = Child(f"redis-server on port {self.port}", command, self.log, cwd=self.dir)
        self.child.wait_until("answering PING", self._pong)
        return self

    def _pong(self) -> bool:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
        return False

    def stop(self) -> None:
        """SIGTERM: Redis closes every connection and exits (nothing to save: ``--save ""``)."""
        if self.child is not None:
            self.child.stop()

    def pause(self) -> None:
        """SIGSTOP: connections stay open and nothing answers, as with a hung host."""
        assert self.child is not None, "Redis was never started"
        self.child.signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.child is not None, "Redis was never started"
        self.child.signal(signal.SIGCONT)

    def restart(self) -> None:
        self.stop()
        self.start()


# --- HAProxy ---------------------------------------------------------------------------------------


def haproxy_check(config: Path) -> None:
    """``haproxy -c -f CONFIG``: ``ServiceError`` with HAProxy's words when the configuration is wrong."""
    done = subprocess.run([executable("haproxy", "haproxy"), "-c", "-f", str(config)], capture_output=True,
                          text=True, timeout=START_SECONDS, check=False, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        said = f"{done.stdout.strip()}\n{done.stderr.strip()}".strip()
        raise ServiceError(f"HAProxy refuses {config}:\n{said}")


class HAProxy:
    """``haproxy -f CONFIG -db`` (in the foreground, as our child), logging to ``log``; ``start``
    returns once it accepts connections on ``host:port`` (its frontend's)."""

    def __init__(self, config: Path, log: Path, host: str, port: int) -> None:
        self.config = config
        self.log = log
        self.host = host
        self.port = port
        self.child: Child | None = None

    def start(self) -> HAProxy:
        command = [executable("haproxy", "haproxy"), "-f", str(self.config), "-db"]
        self.child = Child(f"HAProxy on {self.host}:{self.port}", command, self.log)
        probe = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(self.host, self.host)
        self.child.wait_until("accepting connections", lambda: accepts(probe, self.port))
        return self

    def stop(self) -> bool:
        """SIGTERM: HAProxy closes every connection at once (SIGUSR1 would wait for WebSockets to end)."""
        return self.child.stop() if self.child is not None else True

