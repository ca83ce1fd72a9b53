"""``parlour bench server --cluster N``: the server bench's load through a whole cluster.

The parts ``parlour cluster up`` runs (``parlour.server.cluster``): a PostgreSQL of the bench's own
(its data in a throwaway directory), N ``parlour serve`` processes in cluster mode on it and HAProxy
in front, all started here and stopped at the end. The bots of ``parlour.server.bench`` play
through HAProxy's address, each slot from its own 127.x address, as in the single server's bench.

Measured in one window: the action-to-broadcast latency and the actions a second, as there; the
CPU each component spent for an action and its share of a core: each server, PostgreSQL (the
postmaster and every process of it, those that ended meanwhile too), HAProxy; the servers'
collector pauses. At the window's end: how many matches each server writes (its live leases) and
how the bots' connections reached the servers: from HAProxy, or relayed by one server to the
match's writer. ``--cluster 1`` is one server behind HAProxy on PostgreSQL, to compare with.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import resource
import signal
import sys
import tempfile
from collections import Counter
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, Final, TypeVar

import uvloop

from parlour.server.bench import (
    ROOMY,
    SERVER,
    TICKS,
    Plan,
    Tally,
    children,
    cpu_seconds,
    measure,
    report_pauses,
    report_play,
    report_target,
)
from parlour.server.cluster import SERVER_CONNECTIONS, Cluster, interrupted
from parlour.server.process import PAUSES_ENV, READY, WATCHED_SERVE, Pause, read_pauses
from parlour.server.services import ServiceError, free_port

T = TypeVar("T")

TARGET: Final = (1000, 1.0, 0.100)
"""Issue 17's target through the whole cluster: 1,000 matches at one action a second each, p99 under
100 ms (on a 2-core machine)."""
POSTGRES: Final = "PostgreSQL"
HAPROXY: Final = "HAProxy"
REDIS: Final = "Redis"
HELD_BY_NODE: Final = ("SELECT nodes.address, COUNT(*) FROM leases JOIN nodes ON nodes.id = leases.node"
                       " WHERE nodes.expires >= clock_timestamp() GROUP BY nodes.address")
"""The matches each live process holds, its address beside (``postgres.py``: a lease is a node's
while that node's row is renewed). The join of ``postgres.HOLDER``, counted for every node at once:
``HOLDER`` names one match's holder, and asking it for each of 1,000 matches would be 1,000 queries
where this is one."""
FILES: Final = 1 << 16
"""Open files this process asks for: 1,000 matches need about 4,000 in HAProxy, 2,000 here."""
ESTABLISHED: Final = "01"
"""The state of an open TCP connection in ``/proc/net/tcp``."""


class BenchCluster(Cluster):
    """``parlour cluster up``'s parts in ``directory``, started quietly, each server with the bench's
    roomy limits (measure the cluster, not its rate limits) and its collections timed
    (``process.WATCHED_SERVE``)."""

    def __init__(self, directory: Path, processes: int) -> None:
        super().__init__(argparse.Namespace(dir=directory, host="127.0.0.1", port=free_port(),
                                            processes=processes, lease_seconds=None))
        self.postmaster = 0

    def pauses_file(self, number: int) -> Path:
        return self.dir / f"pauses-{number}.txt"

    def server_command(self, number: int, port: int) -> tuple[list[str], dict[str, str]]:
        """``parlour cluster up``'s server, its collections timed and its limits roomy."""
        command, env = super().server_command(number, port)
        serve = command.index("serve")  # ``python -m parlour.cli serve`` becomes the watched one
        limits = {**ROOMY, "connections_per_address": SERVER_CONNECTIONS}
        command = [sys.executable, "-c", WATCHED_SERVE, *command[serve:],
                   *(f"--limit={name}={value:g}" for name, value in limits.items())]
        return command, {**env, PAUSES_ENV: str(self.pauses_file(number))}

    def start(self) -> None:
        """PostgreSQL, the servers, HAProxy; ``parlour cluster up``'s lines are not printed."""
        self.dir.mkdir(parents=True, exist_ok=True)
        with contextlib.redirect_stdout(io.StringIO()):
            self._start_postgres()
            self.postmaster = self.postgres.pid() or 0
            self._start_redis()
            self._start_servers()
            self._start_haproxy()

    def stop(self) -> None:
        """As ``parlour cluster up`` stops; only what went wrong is printed."""
        said = io.StringIO()
        with contextlib.redirect_stdout(said):
            super().stop()
        for line in said.getvalue().splitlines():
            if "not" in line or "killed" in line:
                print(f"  {line}")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def haproxy_pid(self) -> int:
        return self.haproxy.child.pid if self.haproxy is not None and self.haproxy.child is not None else 0

    def cpu(self) -> dict[str, float]:
        """``Plan.cpu``: the CPU seconds of each server, of PostgreSQL and of HAProxy so far."""
        found = {f"{SERVER} {server.number}": cpu_seconds(server.child.pid) for server in self.servers}
        found[POSTGRES] = process_tree_cpu(self.postmaster)
        found[REDIS] = cpu_seconds(self.redis.child.pid) if self.redis.child is not None else 0.0
        found[HAPROXY] = cpu_seconds(self.haproxy_pid())
        return found

    def look(self) -> list[str]:
        """``Plan.look``: where the matches and the connections are, in words."""
        return [self._leases(), self._connections()]

    def _leases(self) -> str:
        import psycopg  # only the cluster's bench loads it

        numbers = {server.address: server.number for server in self.servers}
        try:
            with psycopg.connect(self.postgres.url(), autocommit=True, connect_timeout=10) as db:
                rows = db.execute(HELD_BY_NODE).fetchall()
        except psycopg.Error as error:
            return f"matches each server writes: not known ({str(error).splitlines()[0]})"
        held = Counter({numbers.get(str(address), 0): int(count) for address, count in rows})
        return "matches each server writes (live leases): " + by_server(held, len(self.servers))

    def _connections(self) -> str:
        ports = {server.port: server.number for server in self.servers}
        to_servers = connections_to(set(ports))
        from_haproxy: Counter[int] = Counter()
        relayed: Counter[int] = Counter()
        haproxy = sockets_of(self.haproxy_pid())
        relaying = set[int]().union(*(sockets_of(server.child.pid) for server in self.servers))
        for inode, port in to_servers:
            if inode in haproxy:
                from_haproxy[ports[port]] += 1
            elif inode in relaying:
                relayed[ports[port]] += 1
        return (f"connections open to the servers: {sum(from_haproxy.values()):,} from HAProxy "
                f"({by_server(from_haproxy, len(ports))}); {sum(relayed.values()):,} relayed by a server "
                f"to the match's writer ({by_server(relayed, len(ports))})")


def by_server(counts: Counter[int], servers: int) -> str:
    """``counts`` by server number, in words (0: a server not of this cluster)."""
    words = [f"server {number}: {counts[number]:,}" for number in range(1, servers + 1)]
    if counts[0]:
        words.append(f"elsewhere: {counts[0]:,}")
    return ", ".join(words)


def stat_ticks(pid: int) -> list[int]:
    """A process's utime, stime, cutime and cstime (``/proc/PID/stat``), in clock ticks; [] if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []
    return [int(field) for field in fields[11:15]]


def process_tree_cpu(pid: int) -> float:
    """The CPU seconds of a process, of its children running now and of those it has waited for
    (PostgreSQL's backends and workers come and go: the postmaster's cutime and cstime keep theirs)."""
    own = stat_ticks(pid) if pid else []
    total = sum(own)
    for child in children(pid) if pid else []:
        total += sum(stat_ticks(child)[:2])
    return total / TICKS


def sockets_of(pid: int) -> set[int]:
    """The inodes of a process's sockets (its open files that are sockets)."""
    found: set[int] = set()
    try:
        descriptors = list(Path(f"/proc/{pid}/fd").iterdir()) if pid else []
    except OSError:
        return found
    for descriptor in descriptors:
        with contextlib.suppress(OSError):
            target = os.readlink(descriptor)
            if target.startswith("socket:["):
                found.add(int(target[len("socket:["):-1]))
    return found


def connections_to(ports: set[int]) -> list[tuple[int, int]]:
    """(socket inode, port) of every open TCP connection (IPv4) made to one of ``ports``: its
    caller's end, whose remote port is the listening one."""
    found = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        port = int(fields[2].rsplit(":", 1)[1], 16)
        if fields[3] == ESTABLISHED and port in ports:
            found.append((int(fields[9]), port))
    return found


def run_cluster(args: argparse.Namespace) -> int:
    """``parlour bench server --cluster N`` with the arguments ``bench.read_arguments`` checked."""
    print(f"parlour bench server --cluster {args.cluster}: {args.matches} concurrent {args.game} matches, "
          f"two random bots each thinking ~{args.think:g} s a move, through HAProxy to {args.cluster} "
          f"server{'' if args.cluster == 1 else 's'} on PostgreSQL, {args.seconds:g} s measured after "
          f"{args.warmup:g} s of warm-up; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} "
          "before", flush=True)
    more_files()
    signal.signal(signal.SIGTERM, interrupted)  # stopped while starting: stop what runs, as for Ctrl-C
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as directory:
        Path(directory).chmod(0o755)  # PostgreSQL, run as its own user when we are root, must reach it
        cluster = BenchCluster(Path(directory), args.cluster)
        try:
            cluster.start()
            say_parts(cluster)
            plan = Plan(cluster.base, args.matches, args.game, args.think, args.warmup, args.seconds,
                        args.seed, cluster.cpu, flood=False, look=cluster.look)
            # The bots on libuv's event loop, as in the single server's bench.
            tallies, _ = uvloop.run(stoppable(measure(plan)))
        except ServiceError as error:
            print(f"parlour bench server: the cluster did not start: {error}", file=sys.stderr)
            return 1
        except (KeyboardInterrupt, asyncio.CancelledError):
            print("parlour bench server: stopped before the end; stopping the cluster", file=sys.stderr)
            return 130
        finally:
            # A second Ctrl-C must not cut the stopping short (and leave PostgreSQL running).
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
            cluster.stop()
        pauses = [read_pauses(cluster.pauses_file(server.number)) for server in cluster.servers]
        logs = said_in_logs(cluster)  # before the directory goes
    for tally in tallies:
        report(args.matches, args.think, tally, pauses)
    print(f"  the logs: {logs}")
    print(f"  load average {os.getloadavg()[0]:.1f} after (other processes compete for the CPUs)")
    return 0


async def stoppable(measuring: Coroutine[Any, Any, T]) -> T:
    """``measuring``, cancelled by SIGTERM as by Ctrl-C (a signal handler that raised while the
    loop runs would raise inside whichever callback it interrupted)."""
    main = asyncio.current_task()
    assert main is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)
    return await measuring


def said_in_logs(cluster: BenchCluster) -> str:
    """What the servers and HAProxy logged beyond a server's line at start (e.g. a relay that failed,
    HAProxy leaving out a server whose health check was late), in words: the count and the first."""
    logs = [(f"server {server.number}", server.child.log) for server in cluster.servers]
    if cluster.haproxy is not None:
        logs.append((HAPROXY, cluster.haproxy.log))
    words = []
    for name, log in logs:
        try:
            lines = [line for line in log.read_text(errors="replace").splitlines()
                     if line.strip() and not line.startswith(READY)]
        except OSError:
            lines = []
        words.append(f"{name}: {len(lines)} line{'' if len(lines) == 1 else 's'}"
                     + (f" (the first: {lines[0][:200]})" if lines else ""))
    return "; ".join(words)


def more_files() -> None:
    """Raises this process's limit of open files (up to ``FILES``), for the bots' sockets and, as it
    is inherited, for HAProxy's: it sizes its connection limit by it (two files a WebSocket)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FILES if hard == resource.RLIM_INFINITY else min(hard, FILES)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # the kernel's own ceiling is lower: keep the soft one
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def say_parts(cluster: BenchCluster) -> None:
    servers = ", ".join(f"server {server.number} pid {server.child.pid}" for server in cluster.servers)
    redis = cluster.redis.child.pid if cluster.redis.child is not None else 0
    print(f"  PostgreSQL pid {cluster.postmaster} (data in {cluster.postgres.data}); Redis pid {redis};"
          f" {servers}; HAProxy pid {cluster.haproxy_pid()} on {cluster.base}", flush=True)


def report(matches: int, think: float, tally: Tally, pauses: list[list[Pause] | None]) -> None:
    p99 = report_play(tally)
    if tally.stopped:
        print(f"  slots stopped by an error: {len(tally.stopped)} of {matches} "
              f"(the first: {tally.stopped[0]})")
    if p99 is None:
        return
    report_cpu(tally)
    for line in tally.seen:
        print(f"  {line}")
    for number, server_pauses in enumerate(pauses, start=1):
        report_pauses(tally, server_pauses, whose=f"server {number}: ")
    least, pace, _ = TARGET
    if matches >= least and think >= pace:
        report_target(TARGET, p99)


def report_cpu(tally: Tally) -> None:
    """A line per component: its CPU for an action, and its share of one core."""
    actions, wall = max(tally.actions, 1), tally.wall
    servers = sorted(name for name in tally.cpu if name.startswith(SERVER))
    rows = [(f"{SERVER}s together", tally.server_cpu)] if len(servers) > 1 else []
    rows += [(name, tally.cpu[name]) for name in servers]
    rows += [(name, tally.cpu[name]) for name in (POSTGRES, REDIS, HAPROXY) if name in tally.cpu]
    rows.append(("the whole cluster", sum(tally.cpu.values())))
    print("  CPU: for an action, and the share of one core")
    for name, seconds in rows:
        print(f"    {name:<20} {1000 * seconds / actions:6.2f} ms {100 * seconds / wall:5.0f}%")
    print(f"    {'the bots (outside)':<20} {1000 * tally.client_cpu / actions:6.2f} ms "
          f"{100 * tally.client_cpu / wall:5.0f}%")
