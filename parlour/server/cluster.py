"""``parlour cluster up``: a whole cluster on this machine, in the foreground, until Ctrl-C.

PostgreSQL (its data kept in the directory between runs), Redis (keeping nothing), N ``parlour serve``
processes on them (each the writer of the matches it holds the lease of, publishing their events to
Redis, relaying the others' players to them and serving the others' spectators from replicas) and
HAProxy in front, hashing on the match id so that a match's clients nearly always land on its writer.
``docs/operations.md`` ("A cluster on one machine, and on several") explains the parts.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import http.client
import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final

import platformdirs

from parlour.server.relay import RELAYED
from parlour.server.services import (
    START_SECONDS,
    Child,
    HAProxy,
    Postgres,
    Redis,
    ServiceError,
    as_root,
    free_port,
    postgres_home,
    reachable_by,
)

SAY: Final = "parlour cluster:"
UP: Final = f"{SAY} up at"
"""The start of the line printed once every part runs (the address to open follows)."""

SERVER_CONNECTIONS: Final = 100_000
"""``connections_per_address`` of the servers: every connection they see comes from HAProxy (its
own limit is the open files it may have, as many as the system lets it raise its limit to)."""

CONNECTIONS_PER_ADDRESS: Final = 200
"""A client address's connections at once, counted by HAProxy (as ``parlour serve`` counts them
alone): behind it, every connection a server sees comes from HAProxy's own address."""


def default_dir() -> Path:
    return platformdirs.user_data_path("parlour", appauthor=False) / "cluster"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlour cluster",
        description="Run PostgreSQL, Redis, several parlour serve processes and HAProxy in front of them on"
                    " this machine, in the foreground; Ctrl-C (or SIGTERM) stops them all.",
    )
    parser.add_argument("action", choices=["up"], help="up: start the cluster and keep it running")
    parser.add_argument("--processes", type=int, default=2, metavar="N", help="server processes (default 2)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address HAProxy listens on (default 127.0.0.1; 0.0.0.0: every interface)")
    parser.add_argument("--port", type=int, default=8080, help="HAProxy's port, to open (default 8080)")
    parser.add_argument("--dir", type=Path, metavar="DIR",
                        help=f"PostgreSQL's data, the logs, HAProxy's settings (default {default_dir()})")
    parser.add_argument("--lease-seconds", type=float, metavar="S",
                        help="how long a match's lease lasts: a dead process's matches are taken over after"
                             " this (default: parlour serve's, 3)")
    return parser


def postgres_dir(directory: Path) -> Path:
    """Where PostgreSQL's files go: ``DIR/postgres``, unless PostgreSQL (run as the ``postgres``
    user when we are root) cannot reach it there (a home directory closed to others, as /root is):
    then in that user's home, one directory per cluster directory."""
    wanted = directory.resolve() / "postgres"
    if not as_root() or reachable_by("postgres", wanted):
        return wanted
    name = hashlib.sha256(str(wanted).encode()).hexdigest()[:12]
    return postgres_home() / "parlour-clusters" / name


def haproxy_config(host: str, port: int, servers: Sequence[int], stats: Path | None = None) -> str:
    """HAProxy 2.6's configuration: ``HOST:PORT`` in front of the servers on these ports of 127.0.0.1.

    A match's requests and WebSockets (``/api/matches/ID…``, ``/ws/matches/ID…``) go to its writer:
    the server that created it (which takes its lease), as HAProxy noted from the creation's answer
    in the table ``writers``; a match it has no note of (made before HAProxy started, or whose
    writer is down) hashes on its id (consistent hashing: a server going away moves only its
    matches), and the server it lands on relays to the writer or takes the match over. The rest
    (lobby, pages, creations) go round. A server that fails two checks 500 ms apart is left out.
    ``stats``: a Unix socket where HAProxy answers ``show stat`` and ``show table writers``."""
    # Fixed ids: the table of writers names a server by its id, the same in both backends.
    lines = [f"    server s{number} 127.0.0.1:{server_port} id {number} check"
             for number, server_port in enumerate(servers, start=1)]
    uses = [f"    use-server s{number} if {{ path,field(4,/),table_gpt0(writers) eq {number} }}"
            for number in range(1, len(servers) + 1)]
    return "\n".join([
        "# Written by parlour cluster up at every start: edits are lost.",
        *(["global", f"    stats socket {stats} mode 600 level operator", ""] if stats is not None else []),
        "defaults",
        "    mode http",
        "    option forwardfor",  # the servers' rates count the client's address, not HAProxy's
        "    option redispatch 1",  # a connection refused by a dead server is tried on another at once
        "    retries 2",
        "    timeout connect 2s",
        "    timeout client 60s",
        "    timeout server 60s",
        "    timeout tunnel 1h",  # a WebSocket, once upgraded, may stay quiet that long
        # A server left out has its connections closed too: one that hangs (a paused process) keeps
        # them open but answers nothing, and its clients reconnect only once they are closed.
        "    default-server inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions",
        "",
        "frontend parlour",
        f"    bind {host}:{port}",
        "    stick-table type ipv6 size 100k expire 10m store conn_cur",
        "    tcp-request connection track-sc0 src",
        f"    tcp-request connection reject if {{ sc0_conn_cur gt {CONNECTIONS_PER_ADDRESS} }}",
        # Only a server process may say a request was relayed (it is then never relayed again, and
        # answers "moving" for a match it does not hold): a client's claim is dropped here.
        f"    http-request del-header {RELAYED}",
        "    acl of_a_match path_reg ^/(ws|api)/matches/[^/]+",
        "    use_backend by_match if of_a_match",
        "    default_backend any",
        "",
        "backend writers",  # a match's id -> the id of the server that created it, which writes it
        "    stick-table type string len 64 size 1m expire 1d store gpt0",
        "",
        "backend by_match",
        *uses,
        "    balance hash path,field(4,/)",  # /ws/matches/ID/…: the 4th field split on / is the id
        "    hash-type consistent",
        "    option httpchk GET /api/health",
        *lines,
        "",
        "backend any",
        "    balance roundrobin",
        "    http-request set-var(txn.creating) bool(true) if METH_POST { path /api/matches }",
        *(f"    http-response {rule} if {{ var(txn.creating) -m bool }}" for rule in (
            "wait-for-body time 2s", "track-sc1 res.body,json_query('$.match.id') table writers",
            "sc-set-gpt0(1) srv_id")),
        "    option httpchk GET /api/health",
        *lines,
        "",
    ])


def healthy(port: int) -> bool:
    """Whether the server on this port of 127.0.0.1 answers ``GET /api/health`` with 200."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/api/health")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


def shown(host: str, port: int) -> str:
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def how_ended(status: int) -> str:
    """A process's exit status in words: a negative one is the signal that killed it."""
    if status < 0:
        with contextlib.suppress(ValueError):
            return f"on {signal.Signals(-status).name}"
        return f"on signal {-status}"
    return f"with status {status}"


def say(text: str) -> None:
    """One line on standard output. Once nobody reads it (a closed pipe, a terminal gone), the rest
    goes nowhere: stopping the parts must not fail for want of saying so."""
    try:
        print(f"{SAY} {text}", flush=True)
    except OSError:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  # replaces stdout until the process exits


@dataclass
class Server:
    number: int
    port: int
    child: Child
    reported: bool = False

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class Cluster:
    """The parts, started in order (PostgreSQL, Redis, the servers, HAProxy) and stopped in reverse."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.dir: Path = (args.dir if args.dir is not None else default_dir()).resolve()
        self.host: str = args.host
        self.port: int = args.port
        self.processes: int = args.processes
        self.lease_seconds: float | None = args.lease_seconds
        # Each server holds eleven connections (PostgresStore): room for them all, and for a few more.
        self.postgres = Postgres(postgres_dir(self.dir),
                                 settings=[f"max_connections={max(100, 12 * self.processes + 20)}"])
        self.postgres_started = False
        self.redis = Redis(self.dir / "redis")
        self.redis_started = False
        self.servers: list[Server] = []
        self.haproxy: HAProxy | None = None

    def start(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        self._start_postgres()
        self._start_redis()
        self._start_servers()
        self._start_haproxy()
        say(f"{UP.removeprefix(SAY).strip()} {shown(self.host, self.port)} — open it in a browser;"
            " Ctrl-C stops it")

    def _start_postgres(self) -> None:
        shown_there = self.dir / "postgres"
        if self.postgres.dir != shown_there and not (shown_there.exists() or shown_there.is_symlink()):
            shown_there.symlink_to(self.postgres.dir)  # where it went instead, for whoever looks here
        if self.postgres.running():  # left by a run that was killed before it could stop it
            say(f"stopping the PostgreSQL an earlier run left running on {self.postgres.data}")
            self.postgres.halt()
        self.postgres_started = True
        self.postgres.start()
        say(f"PostgreSQL on 127.0.0.1:{self.postgres.port}, pid {self.postgres.pid()},"
            f" data in {self.postgres.data}")

    def _start_redis(self) -> None:
        self.redis_started = True
        self.redis.start()
        say(f"Redis on 127.0.0.1:{self.redis.port}, pid {self.redis.child.pid if self.redis.child else '?'},"
            f" log {self.redis.log}")

    def server_command(self, number: int, port: int) -> tuple[list[str], dict[str, str]]:
        """The command line and environment of server ``number``, listening on ``port``."""
        command = [sys.executable, "-m", "parlour.cli", "serve", "--host", "127.0.0.1",
                   "--port", str(port), "--store", self.postgres.url(),
                   "--node-address", f"http://127.0.0.1:{port}", "--pubsub", self.redis.url,
                   "--limit", f"connections_per_address={SERVER_CONNECTIONS}"]
        if self.lease_seconds is not None:
            command += ["--lease-seconds", f"{self.lease_seconds:g}"]
        return command, {**os.environ, "PYTHONUNBUFFERED": "1"}

    def _start_servers(self) -> None:
        for number in range(1, self.processes + 1):
            port = free_port()
            command, env = self.server_command(number, port)
            log = self.dir / f"server-{number}.log"
            child = Child(f"server {number} on port {port}", command, log, env=env)
            self.servers.append(Server(number, port, child))
        for server in self.servers:  # started together, awaited in turn
            server.child.wait_until("answering GET /api/health", partial(healthy, server.port))
            say(f"server {server.number} on {server.address}, pid {server.child.pid},"
                f" log {server.child.log}")

    def _start_haproxy(self) -> None:
        config = self.dir / "haproxy.cfg"
        ports = [server.port for server in self.servers]
        config.write_text(haproxy_config(self.host, self.port, ports, self.dir / "haproxy.sock"))
        self.haproxy = HAProxy(config, self.dir / "haproxy.log", self.host, self.port).start()
        assert self.haproxy.child is not None
        say(f"HAProxy on {self.host}:{self.port}, pid {self.haproxy.child.pid}, config {config}")

    def watch(self) -> int:
        """Until SIGINT or SIGTERM: reports a server that exits (HAProxy's check leaves it out; it is
        not restarted). 0 when told to stop; 1 when HAProxy itself exits."""
        awaited = {signal.SIGINT, signal.SIGTERM, signal.SIGCHLD}
        signal.pthread_sigmask(signal.SIG_BLOCK, awaited)
        while True:  # looks first: a server may have exited before SIGCHLD was blocked
            for server in self.servers:
                if not server.child.alive() and not server.reported:
                    server.reported = True
                    say(f"server {server.number} (pid {server.child.pid}, port {server.port}) exited"
                        f" {how_ended(server.child.process.returncode)}; HAProxy leaves it out"
                        f" (see {server.child.log})")
            if self.haproxy is not None and self.haproxy.child is not None and not self.haproxy.child.alive():
                say(f"HAProxy (pid {self.haproxy.child.pid}) exited; stopping (see {self.haproxy.log})")
                return 1
            if signal.sigwaitinfo(awaited).si_signo != signal.SIGCHLD:
                return 0

    def stop(self) -> None:
        """HAProxy, then the servers (together), then Redis and PostgreSQL; each said when done."""
        if self.haproxy is not None:
            self.haproxy.stop()
            say("HAProxy stopped")
        for server in self.servers:
            server.child.signal(signal.SIGTERM)
        for server in self.servers:
            if server.reported:
                continue
            clean = server.child.stop(seconds=START_SECONDS / 4)
            say(f"server {server.number} stopped" + ("" if clean else " (killed: it did not stop in time)"))
        if self.redis_started:
            self.redis.stop()
            say("Redis stopped")
        if self.postgres_started:
            try:
                self.postgres.halt()
                say("PostgreSQL stopped")
            except ServiceError as error:
                say(f"PostgreSQL did not stop: {error}")


def interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(list(argv))
    if args.processes < 1:
        parser.error("--processes takes a number of 1 or more")
    if args.lease_seconds is not None and not args.lease_seconds > 0:
        parser.error("--lease-seconds takes a number of seconds above 0")
    cluster = Cluster(args)
    signal.signal(signal.SIGTERM, interrupted)  # stopped while starting: stop what runs, as for Ctrl-C
    status = 1
    try:
        cluster.start()
        status = cluster.watch()
    except ServiceError as error:
        print(f"{SAY} {error}", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        status = 0
    finally:
        # A second Ctrl-C must not cut the stopping short (and leave processes behind).
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        say("stopping")
        cluster.stop()
        say("stopped")
    return status
