"""``parlour bench server``: many concurrent bot-against-bot matches over real WebSockets.

A ``parlour serve`` subprocess on a throwaway SQLite file; for each of N match slots, two random
bots join the two seats over the lobby API and play over their own WebSockets (after ``--think``
seconds each turn, they send a random action from the ``legal`` list the server gave them —
``bot:random`` with a tiny budget); a finished match is replaced by a new one until the time is
up. Measured: the time from sending an action to the opponent receiving its ``update`` (the
action-to-broadcast latency: validation, storage, broadcast, both network hops), the CPU the
server process used, and the pauses of its garbage collector (timed inside the server by
``process.WATCHED_SERVE``). Figures, never pass/fail.

Each slot is a client of its own: its bots call from an address of their own in 127.0.0.0/8
(Linux routes the whole block to this host), as players at their own computers would, so the
server's per-address limits see them as they would see people.

``--flood``: in one run, the latency without and then with a client that loops ``POST
/api/matches`` and ``GET /api/matches`` at full speed from 127.0.0.2 (another address: the limits
are per address), and how many of its requests the server refused. ``--startup N``: see
``parlour.server.startup_bench``. ``--cluster N``: the same load through HAProxy to N servers on
PostgreSQL, see ``parlour.server.cluster_bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, NoReturn

import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from parlour.games import GAMES
from parlour.server.process import Pause, post, read_pauses, start_server, stop_server, supports_limits

TARGET_MATCHES: Final = 200
FLOOD_MATCHES: Final = 50
"""Fewer matches by default with ``--flood``: on a small machine the flooder needs CPU to flood at all."""
DEFAULT_THINK: Final = 0.1
"""A tiny bot budget: 200 matches then offer the server about 1,800 actions a second."""
TARGETS: Final = ((1000, 1.0, 0.050), (400, DEFAULT_THINK, 0.100))
"""(matches at least, think at least, p99 under): the issue's targets, at bench pace and at one action a
second for each match."""
PAUSE_TARGET: Final = 0.020
FLOOD_ADDRESS: Final = "127.0.0.2"
FLOOD_THREADS: Final = 4
FLOOD_SETTLE: Final = 1.0
"""Seconds between starting the flooder and measuring under it (its process starts and connects)."""
ROOMY: Final[dict[str, float]] = {
    "create_burst": 100_000, "create_per_minute": 100_000, "join_burst": 100_000, "join_per_minute": 100_000,
    "open_per_address": 100_000, "open_total": 100_000,
}
"""Limits when nobody floods: measure the server, not its rate limits (at a short ``--think`` a
slot creates matches faster than people would)."""
TICKS: Final = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
SERVER: Final = "server"
"""The name of the server's CPU in ``Tally.cpu`` (in a cluster: the start of each server's)."""


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    """An argument parser that raises ``UsageError`` instead of exiting (``bench traffic`` uses it too)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser() -> Parser:
    parser = Parser(
        prog="parlour bench server",
        description="Concurrent bot-against-bot matches over WebSockets: latency, server CPU, collector "
                    "pauses; or, with --startup, the server's start-up with many stored matches.",
    )
    parser.add_argument("--matches", type=int, metavar="N",
                        help=f"concurrent matches (default {TARGET_MATCHES}; {FLOOD_MATCHES} with --flood)")
    parser.add_argument("--seconds", type=float, default=20.0, metavar="S",
                        help="how long to measure, after a warm-up (default 20; with --flood, twice)")
    parser.add_argument("--warmup", type=float, default=3.0, metavar="S",
                        help="seconds of play before measuring (default 3)")
    parser.add_argument("--think", type=float, default=DEFAULT_THINK, metavar="T",
                        help=f"each bot's thinking time per action, in seconds (default {DEFAULT_THINK:g})")
    parser.add_argument("--game", default="loa", help=f"the game to play (default loa; {', '.join(GAMES)})")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="the bots' random seed (default 0)")
    parser.add_argument("--flood", action="store_true",
                        help=f"measure without, then with, a client flooding the lobby from {FLOOD_ADDRESS} "
                             "(the server keeps its default limits)")
    parser.add_argument("--startup", type=int, metavar="N",
                        help="instead: store N matches (90%% finished, 60 actions or fewer each), start the "
                             "server on them and report the time until it is ready and its memory")
    parser.add_argument("--keep", type=Path, metavar="PATH",
                        help="with --startup: the SQLite file to make and keep (it is reused when it holds "
                             "N matches already)")
    parser.add_argument("--cluster", type=int, metavar="N",
                        help="instead of one server on SQLite: N servers on a PostgreSQL of their own behind "
                             "HAProxy (as 'parlour cluster up' runs them); adds each component's CPU")
    parser.add_argument("--source", type=Path, metavar="DIR",
                        help="start the server from the parlour package in DIR (another checkout, e.g. a "
                             "git worktree of an older commit); the bots stay this one")
    return parser


@dataclass
class Tally:
    """What the bots measured in one measuring window."""

    name: str
    began: float = 0.0
    ended: float = 0.0
    """The window on the monotonic clock (the server's collector pauses are matched to it)."""
    cpu: dict[str, float] = field(default_factory=dict)
    """CPU seconds each component used (the server alone; in a cluster also PostgreSQL and HAProxy)."""
    client_cpu: float = 0.0
    stopped: list[str] = field(default_factory=list)
    """Why each slot stopped early, those up to the window's end (``Recorder.stopped``)."""
    seen: list[str] = field(default_factory=list)
    """What ``Plan.look`` saw at the window's end (in a cluster: where matches and connections are)."""
    latencies: list[float] = field(default_factory=list)
    echoes: list[float] = field(default_factory=list)
    actions: int = 0
    finished: int = 0
    refused: int = 0
    lost: int = 0

    @property
    def wall(self) -> float:
        return self.ended - self.began

    @property
    def server_cpu(self) -> float:
        """The servers' CPU seconds together (their components' names start with ``SERVER``)."""
        return sum(seconds for name, seconds in self.cpu.items() if name.startswith(SERVER))


@dataclass
class Recorder:
    """Where the bots count: the window being measured (``None`` between windows)."""

    tally: Tally | None = None
    lost: int = 0
    stopped: list[str] = field(default_factory=list)
    """Why each slot that stopped early stopped (an answer or error that ended its match)."""


# --- the server subprocess -------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children still running (the bot workers)."""
    total = 0.0
    for process in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def own_cpu() -> float:
    times = os.times()
    return times.user + times.system


def children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(word) for word in (task / "children").read_text().split()]
    except OSError:
        pass
    return found


def slot_address(index: int) -> str:
    """The loopback address of the ``index``-th slot's bots (127.0.0.x is left to others)."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


# --- the bots ------------------------------------------------------------------------------------------


class Player:
    """One bot in one seat, on its own WebSocket."""

    def __init__(self, socket: ClientConnection, seat: int, rng: random.Random) -> None:
        self.socket = socket
        self.seat = seat
        self.rng = rng
        self.snapshot: dict[str, Any] = {}


async def play_match(
    base: str, address: str, game: str, think: float, rng: random.Random, recorder: Recorder
) -> None:
    body = {"game": game, "seats": ["open", "open"], "join": 0, "name": "bench"}
    created = await asyncio.to_thread(post, base, "/api/matches", body, address)
    match_id = created["match"]["id"]
    other = await asyncio.to_thread(post, base, f"/api/matches/{match_id}/join", {"name": "bench"}, address)
    sent: dict[int, float] = {}
    players = []
    ws_base = "ws://" + base.removeprefix("http://")
    for seat, token in ((0, created["token"]), (1, other["token"])):
        socket = await connect(f"{ws_base}/ws/matches/{match_id}", proxy=None, max_queue=None,
                               open_timeout=60, ping_interval=None, local_addr=(address, 0))
        await socket.send(json.dumps({"type": "hello", "token": token}))
        players.append(Player(socket, seat, random.Random(rng.getrandbits(64))))
    try:
        await asyncio.gather(*(run_player(player, think, sent, recorder) for player in players))
    finally:
        for player in players:
            await player.socket.close()


async def run_player(player: Player, think: float, sent: dict[int, float], recorder: Recorder) -> None:
    """Reads the match; when the seat is to move, thinks, then sends a random legal action."""
    moving: asyncio.Task[None] | None = None
    try:
        async for frame in player.socket:
            arrived = time.perf_counter()
            message = orjson.loads(frame)  # the bots' own CPU: the standard decoder took 4 times as long
            kind = message.get("type")
            tally = recorder.tally
            if kind == "error":
                if tally is not None:
                    tally.refused += 1
                continue
            if kind not in ("state", "update"):
                continue
            if kind == "update" and tally is not None:
                started = sent.get(message["version"])
                if started is not None:
                    mine = message["event"]["seat"] == player.seat
                    (tally.echoes if mine else tally.latencies).append(arrived - started)
            player.snapshot = message
            if message["status"] == "over":
                if player.seat == 0 and tally is not None:
                    tally.finished += 1
                return
            # Only the seat to move is offered legal actions.
            if message["legal"] and (moving is None or moving.done()):
                moving = asyncio.create_task(move(player, think, sent, recorder))
    except ConnectionClosed:
        recorder.lost += 1
        if recorder.tally is not None:
            recorder.tally.lost += 1
    finally:
        if moving is not None:
            moving.cancel()


async def move(player: Player, think: float, sent: dict[int, float], recorder: Recorder) -> None:
    await asyncio.sleep(think * (0.5 + player.rng.random()))  # a budget around --think
    snapshot = player.snapshot
    version = snapshot["version"]
    text = player.rng.choice(snapshot["legal"])["text"]
    sent[version + 1] = time.perf_counter()
    try:
        await player.socket.send(json.dumps({"type": "action", "text": text, "version": version}))
    except ConnectionClosed:
        return  # the run is over
    if recorder.tally is not None:
        recorder.tally.actions += 1


async def slot(base: str, address: str, game: str, think: float, rng: random.Random, recorder: Recorder,
               until: float) -> None:
    """One of the N concurrent matches: a new match each time one ends, until the time is up. A
    match that cannot be made or reached stops the slot (said in ``recorder.stopped``)."""
    try:
        while time.monotonic() < until:
            await play_match(base, address, game, think, rng, recorder)
    except Exception as error:  # whatever it was, the run goes on with one slot fewer
        recorder.stopped.append(f"{type(error).__name__}: {error}")


# --- the flooder -------------------------------------------------------------------------------------


def flood(base: str, address: str, seconds: float, threads: int) -> dict[str, int]:
    """Runs in a process of its own: ``threads`` clients on ``address`` loop creating a match and
    reading the lobby list, on kept-alive connections, for ``seconds``; the answers by kind."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    until = time.monotonic() + seconds
    counts: Counter[str] = Counter()
    lock = threading.Lock()

    def one_client() -> None:
        mine: Counter[str] = Counter()
        connection: http.client.HTTPConnection | None = None
        body = json.dumps({"game": "loa", "seats": ["open", "open"]}).encode()
        while time.monotonic() < until:
            for method, path, data in (("POST", "/api/matches", body), ("GET", "/api/matches", None)):
                if connection is None:
                    connection = http.client.HTTPConnection(host, int(port), timeout=30,
                                                            source_address=(address, 0))
                try:
                    connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
                    answer = connection.getresponse()
                    answer.read()
                    mine[f"{method} {answer.status}"] += 1
                    if answer.will_close:
                        connection.close()
                        connection = None
                except (OSError, http.client.HTTPException):
                    mine[f"{method} failed"] += 1
                    if connection is not None:
                        connection.close()
                    connection = None
        with lock:
            counts.update(mine)

    workers = [threading.Thread(target=one_client) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return dict(counts)


# --- the run -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    base: str
    matches: int
    game: str
    think: float
    warmup: float
    seconds: float
    seed: int
    cpu: Callable[[], dict[str, float]]
    """The CPU seconds each component has used so far, by name (``SERVER`` alone: ``server_cpu``)."""
    flood: bool
    look: Callable[[], list[str]] | None = None
    """Called at each window's end, the bots still playing: lines to report (``Tally.seen``)."""


def server_cpu(pid: int) -> Callable[[], dict[str, float]]:
    """``Plan.cpu`` for one server process."""
    return lambda: {SERVER: cpu_seconds(pid)}


async def window(tally: Tally, recorder: Recorder, seconds: float, plan: Plan) -> Tally:
    """Counts into ``tally`` for ``seconds`` (the bots' figures, the components' CPU and the client's)."""
    cpu_before, own_before = plan.cpu(), own_cpu()
    tally.began = time.monotonic()
    recorder.tally = tally
    await asyncio.sleep(seconds)
    recorder.tally = None
    tally.ended = time.monotonic()
    cpu_after = plan.cpu()
    tally.cpu = {name: spent - cpu_before.get(name, 0.0) for name, spent in cpu_after.items()}
    tally.client_cpu = own_cpu() - own_before
    tally.stopped = list(recorder.stopped)
    if plan.look is not None:  # off the event loop: the bots go on meanwhile
        tally.seen = await asyncio.to_thread(plan.look)
    return tally


async def measure(plan: Plan) -> tuple[list[Tally], dict[str, int]]:
    """The windows measured (one; with a flooder, one without it and one with it) and what the
    flooder's requests got."""
    recorder = Recorder()
    rng = random.Random(plan.seed)
    phases = 2 if plan.flood else 1
    until = time.monotonic() + plan.warmup + phases * plan.seconds + (FLOOD_SETTLE if plan.flood else 0)
    slots = [
        asyncio.create_task(slot(plan.base, slot_address(index), plan.game, plan.think,
                                 random.Random(rng.getrandbits(64)), recorder, until))
        for index in range(plan.matches)
    ]
    await asyncio.sleep(plan.warmup)
    tallies = [await window(Tally("without a flooder" if plan.flood else ""), recorder, plan.seconds, plan)]
    flooded: dict[str, int] = {}
    if plan.flood:
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            flooding = asyncio.get_running_loop().run_in_executor(
                pool, flood, plan.base, FLOOD_ADDRESS, plan.seconds + 2 * FLOOD_SETTLE, FLOOD_THREADS)
            await asyncio.sleep(FLOOD_SETTLE)
            tallies.append(await window(Tally(f"with a flooder on {FLOOD_ADDRESS}"), recorder, plan.seconds,
                                        plan))
            flooded = await flooding
    for task in slots:
        task.cancel()
    await asyncio.gather(*slots, return_exceptions=True)
    return tallies, flooded


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def read_arguments(argv: Sequence[str]) -> argparse.Namespace:
    args = build_parser().parse_args(list(argv))
    if args.matches is None:
        args.matches = FLOOD_MATCHES if args.flood else TARGET_MATCHES
    if args.matches < 1 or args.seconds <= 0 or args.warmup < 0 or args.think < 0:
        raise UsageError("--matches must be at least 1, --seconds positive, --warmup and --think "
                         "not negative")
    if args.game not in GAMES:
        raise UsageError(f"no game {args.game!r} (games: {', '.join(GAMES)})")
    if args.startup is not None and args.startup < 1:
        raise UsageError("--startup must be at least 1")
    if args.keep is not None and args.startup is None:
        raise UsageError("--keep goes with --startup")
    if args.startup is not None and args.flood:
        raise UsageError("--startup and --flood are separate benchmarks")
    if args.cluster is not None and args.cluster < 1:
        raise UsageError("--cluster must be at least 1")
    if args.cluster is not None and (args.startup is not None or args.flood or args.source is not None):
        raise UsageError("--cluster goes with neither --startup, --flood nor --source")
    if args.source is not None and not (args.source / "parlour").is_dir():
        raise UsageError(f"--source {args.source}: no parlour package there")
    return args


def main(argv: Sequence[str]) -> int:
    try:
        args = read_arguments(argv)
    except UsageError as error:
        print(f"parlour bench server: {error}", file=sys.stderr)
        return 2
    except SystemExit as shown:
        return int(shown.code or 0)
    if args.startup is not None:
        from parlour.server.startup_bench import run_startup

        return run_startup(args.startup, args.keep, args.source)
    if args.cluster is not None:
        from parlour.server.cluster_bench import run_cluster

        return run_cluster(args)
    flooding = " (then as long again beside a flooder)" if args.flood else ""
    print(f"parlour bench server: {args.matches} concurrent {args.game} matches, two random bots each "
          f"thinking ~{args.think:g} s a move, {args.seconds:g} s measured{flooding} after {args.warmup:g} s "
          f"of warm-up; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} before", flush=True)
    if args.source is not None:
        print(f"  the server from {args.source}")
    limits = ROOMY if not args.flood and supports_limits(args.source) else None
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as directory:
        pauses_file = Path(directory) / "pauses.txt"
        process, base = start_server(Path(directory), args.source, limits=limits, pauses=pauses_file)
        try:
            plan = Plan(base, args.matches, args.game, args.think, args.warmup, args.seconds, args.seed,
                        server_cpu(process.pid), args.flood)
            # The bots on libuv's event loop too: their loop's own delays count in every latency.
            tallies, flooded = uvloop.run(measure(plan))
        finally:
            stop_server(process)
        pauses = read_pauses(pauses_file)
    for tally in tallies:
        report(args.matches, args.think, tally, pauses, args.flood)
    if args.flood:
        report_flood(tallies, flooded)
    print(f"  load average {os.getloadavg()[0]:.1f} after (other processes compete for the CPUs)")
    return 0


def report(matches: int, think: float, tally: Tally, pauses: list[Pause] | None, flood: bool) -> None:
    p99 = report_play(tally)
    if p99 is None:
        return
    wall = tally.wall
    cpu = tally.server_cpu
    print(f"  server CPU: {cpu:.1f} s in {wall:.1f} s = {100 * cpu / wall:.0f}% of one "
          f"core ({1000 * tally.server_cpu / max(tally.actions, 1):.2f} ms an action); the bots' own "
          f"process: {100 * tally.client_cpu / wall:.0f}%")
    report_pauses(tally, pauses)
    target = next(((least, pace, p99_under) for least, pace, p99_under in TARGETS
                   if matches >= least and think >= pace), None)
    if target is not None and not flood:
        report_target(target, p99)


def report_play(tally: Tally) -> float | None:
    """The bots' figures of one window: what they sent and the latencies; the p99 of the
    action-to-broadcast latency (``None``: no action was broadcast)."""
    wall = tally.wall
    if tally.name:
        print(f" {tally.name}:")
    print(f"  actions sent: {tally.actions:,} in {wall:.1f} s = {tally.actions / wall:,.0f} actions/s; "
          f"matches finished: {tally.finished}; refused: {tally.refused}; connections lost: {tally.lost}")
    if not tally.latencies:
        print("  no action was broadcast while measuring")
        return None
    median, p99 = statistics.median(tally.latencies), percentile(tally.latencies, 0.99)
    print(f"  action -> broadcast to the opponent: median {median * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
          f"max {max(tally.latencies) * 1000:.1f} ms ({len(tally.latencies):,} samples)")
    if tally.echoes:
        echo_median, echo_p99 = statistics.median(tally.echoes), percentile(tally.echoes, 0.99)
        print(f"  action -> update back to the mover: median {echo_median * 1000:.1f} ms, "
              f"p99 {echo_p99 * 1000:.1f} ms")
    return p99


def report_target(target: tuple[int, float, float], p99: float) -> None:
    least, pace, p99_under = target
    verdict = "meets" if p99 < p99_under else "misses"
    print(f"  target ({least:,} matches at ~{pace:g} s a move, p99 under {p99_under * 1000:.0f} ms): "
          f"{verdict} it")


def report_pauses(tally: Tally, pauses: list[Pause] | None, whose: str = "") -> None:
    """One line on the collections a server made in ``tally``'s window (``whose``: which server)."""
    if pauses is None:
        print(f"  {whose}collector pauses: not known (the server wrote none; did it stop cleanly?)")
        return
    inside = [pause for pause in pauses if tally.began <= pause.began < tally.ended]
    if not inside:
        print(f"  {whose}collector pauses: no collection while measuring")
        return
    longest = max(inside, key=lambda pause: pause.seconds)
    over = sum(pause.seconds > PAUSE_TARGET for pause in inside)
    over_cpu = sum(pause.cpu > PAUSE_TARGET for pause in inside)
    full = [pause.seconds for pause in inside if pause.generation == 2]
    freed = sum(pause.collected for pause in inside if pause.generation == 2)
    fulls = (f"{len(full)} full, median {statistics.median(full) * 1000:.1f} ms, freeing {freed:,} objects"
             if full else "no full one")
    verdict = "meets" if over == 0 else "misses"
    collections = f"{len(inside):,} collection{'' if len(inside) == 1 else 's'}"
    print(f"  {whose}collector pauses: {collections} ({fulls}); "
          f"longest {longest.seconds * 1000:.1f} ms (generation {longest.generation}, "
          f"{longest.cpu * 1000:.1f} ms of CPU); {over} over {PAUSE_TARGET * 1000:.0f} ms "
          f"(target none: {verdict} it), {over_cpu} over it in CPU time (the rest: other processes "
          f"held the CPU)")


def report_flood(tallies: list[Tally], flooded: dict[str, int]) -> None:
    calm, flooded_tally = tallies
    total = sum(flooded.values())
    refused = sum(count for kind, count in flooded.items() if kind.endswith(" 429"))
    kinds = ", ".join(f"{kind}: {count:,}" for kind, count in sorted(flooded.items()))
    print(f" the flooder ({FLOOD_THREADS} connections from {FLOOD_ADDRESS}): {total:,} requests, {refused:,} "
          f"refused with 429 ({kinds})")
    if calm.latencies and flooded_tally.latencies:
        before, after = percentile(calm.latencies, 0.99), percentile(flooded_tally.latencies, 0.99)
        verdict = "meets" if after <= 2 * before else "misses"
        print(f" p99 beside the flooder / without: {after * 1000:.1f} / {before * 1000:.1f} ms = "
              f"{after / before:.2f} (target at most 2: {verdict} it)")
