"""``parlour bench server``: many concurrent bot-against-bot matches over real WebSockets.

A ``parlour serve`` subprocess on a throwaway SQLite file; for each of N match slots, two random
bots join the two seats over the lobby API and play over their own WebSockets (after ``--think``
seconds each turn, they send a random action from the ``legal`` list the server gave them —
``bot:random`` with a tiny budget); a finished match is replaced by a new one until the time is
up. Measured: the time from sending an action to the opponent receiving its ``update`` (the
action-to-broadcast latency: validation, storage, broadcast, both network hops), and the CPU the
server process used. Figures, never pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, NoReturn

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from parlour.games import GAMES
from parlour.server.process import post, start_server, stop_server

TARGET_MATCHES: Final = 200
DEFAULT_THINK: Final = 0.1
"""A tiny bot budget: 200 matches then offer the server about 1,800 actions a second."""
TARGET_P99: Final = 0.100
TICKS: Final = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    """An argument parser that raises ``UsageError`` instead of exiting (``bench traffic`` uses it too)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser() -> Parser:
    parser = Parser(
        prog="parlour bench server",
        description="Concurrent bot-against-bot matches over WebSockets: latency and server CPU.",
    )
    parser.add_argument("--matches", type=int, default=TARGET_MATCHES, metavar="N",
                        help=f"concurrent matches (default {TARGET_MATCHES})")
    parser.add_argument("--seconds", type=float, default=20.0, metavar="S",
                        help="how long to measure, after a warm-up (default 20)")
    parser.add_argument("--warmup", type=float, default=3.0, metavar="S",
                        help="seconds of play before measuring (default 3)")
    parser.add_argument("--think", type=float, default=DEFAULT_THINK, metavar="T",
                        help=f"each bot's thinking time per action, in seconds (default {DEFAULT_THINK:g})")
    parser.add_argument("--game", default="loa", help=f"the game to play (default loa; {', '.join(GAMES)})")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="the bots' random seed (default 0)")
    return parser


@dataclass
class Tally:
    """What the bots measured, while the clock is in the measuring window."""

    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    echoes: list[float] = field(default_factory=list)
    actions: int = 0
    finished: int = 0
    refused: int = 0
    lost: int = 0
    client_cpu: float = 0.0


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


# --- the bots ------------------------------------------------------------------------------------------


class Player:
    """One bot in one seat, on its own WebSocket."""

    def __init__(self, socket: ClientConnection, seat: int, rng: random.Random) -> None:
        self.socket = socket
        self.seat = seat
        self.rng = rng
        self.snapshot: dict[str, Any] = {}


async def play_match(
    base: str, ws_base: str, game: str, think: float, rng: random.Random, tally: Tally
) -> None:
    body = {"game": game, "seats": ["open", "open"], "join": 0, "name": "bench"}
    created = await asyncio.to_thread(post, base, "/api/matches", body)
    match_id = created["match"]["id"]
    other = await asyncio.to_thread(post, base, f"/api/matches/{match_id}/join", {"name": "bench"})
    sent: dict[int, float] = {}
    players = []
    for seat, token in ((0, created["token"]), (1, other["token"])):
        socket = await connect(f"{ws_base}/ws/matches/{match_id}", proxy=None, max_queue=None,
                               open_timeout=60, ping_interval=None)
        await socket.send(json.dumps({"type": "hello", "token": token}))
        players.append(Player(socket, seat, random.Random(rng.getrandbits(64))))
    try:
        await asyncio.gather(*(run_player(player, think, sent, tally) for player in players))
    finally:
        for player in players:
            await player.socket.close()


async def run_player(player: Player, think: float, sent: dict[int, float], tally: Tally) -> None:
    """Reads the match; when the seat is to move, thinks, then sends a random legal action."""
    moving: asyncio.Task[None] | None = None
    try:
        async for frame in player.socket:
            arrived = time.perf_counter()
            message = json.loads(frame)
            kind = message.get("type")
            if kind == "error":
                tally.refused += 1
                continue
            if kind not in ("state", "update"):
                continue
            if kind == "update" and tally.measuring:
                version = message["version"]
                started = sent.get(version)
                if started is not None:
                    mine = message["event"]["seat"] == player.seat
                    (tally.echoes if mine else tally.latencies).append(arrived - started)
            player.snapshot = message
            if message["status"] == "over":
                if player.seat == 0:
                    tally.finished += 1
                return
            # Only the seat to move is offered legal actions.
            if message["legal"] and (moving is None or moving.done()):
                moving = asyncio.create_task(move(player, think, sent, tally))
    except ConnectionClosed:
        tally.lost += 1
    finally:
        if moving is not None:
            moving.cancel()


async def move(player: Player, think: float, sent: dict[int, float], tally: Tally) -> None:
    await asyncio.sleep(think * (0.5 + player.rng.random()))  # a budget around --think
    snapshot = player.snapshot
    version = snapshot["version"]
    text = player.rng.choice(snapshot["legal"])["text"]
    sent[version + 1] = time.perf_counter()
    try:
        await player.socket.send(json.dumps({"type": "action", "text": text, "version": version}))
    except ConnectionClosed:
        return  # the run is over
    if tally.measuring:
        tally.actions += 1


async def slot(base: str, ws_base: str, game: str, think: float, rng: random.Random, tally: Tally,
               until: float) -> None:
    """One of the N concurrent matches: a new match each time one ends, until the time is up."""
    while time.monotonic() < until:
        await play_match(base, ws_base, game, think, rng, tally)


async def measure(base: str, matches: int, game: str, think: float, warmup: float, seconds: float,
                  seed: int, server_pid: int) -> tuple[Tally, float, float]:
    tally = Tally()
    rng = random.Random(seed)
    ws_base = "ws://" + base.removeprefix("http://")
    start = time.monotonic()
    until = start + warmup + seconds
    seeds = [rng.getrandbits(64) for _ in range(matches)]
    slots = [
        asyncio.create_task(slot(base, ws_base, game, think, random.Random(seed), tally, until))
        for seed in seeds
    ]
    await asyncio.sleep(max(0.0, start + warmup - time.monotonic()))
    tally.measuring = True
    cpu_before, wall_before, own_before = cpu_seconds(server_pid), time.monotonic(), own_cpu()
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    cpu, wall = cpu_seconds(server_pid) - cpu_before, time.monotonic() - wall_before
    tally.client_cpu = own_cpu() - own_before
    tally.measuring = False
    for task in slots:
        task.cancel()
    await asyncio.gather(*slots, return_exceptions=True)
    return tally, cpu, wall


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def main(argv: Sequence[str]) -> int:
    try:
        args = build_parser().parse_args(list(argv))
        if args.matches < 1 or args.seconds <= 0 or args.warmup < 0 or args.think < 0:
            raise UsageError("--matches must be at least 1, --seconds positive, --warmup and --think "
                             "not negative")
        if args.game not in GAMES:
            raise UsageError(f"no game {args.game!r} (games: {', '.join(GAMES)})")
    except UsageError as error:
        print(f"parlour bench server: {error}", file=sys.stderr)
        return 2
    except SystemExit as shown:
        return int(shown.code or 0)
    print(f"parlour bench server: {args.matches} concurrent {args.game} matches, two random bots each "
          f"thinking ~{args.think:g} s a move, {args.seconds:g} s measured after {args.warmup:g} s of "
          f"warm-up; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} before", flush=True)
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as directory:
        process, base = start_server(Path(directory))
        try:
            tally, cpu, wall = asyncio.run(measure(
                base, args.matches, args.game, args.think, args.warmup, args.seconds, args.seed, process.pid))
        finally:
            stop_server(process)
    report(args.matches, tally, cpu, wall)
    print(f"  load average {os.getloadavg()[0]:.1f} after (other processes compete for the CPUs)")
    return 0


def report(matches: int, tally: Tally, cpu: float, wall: float) -> None:
    print(f"  actions sent: {tally.actions:,} in {wall:.1f} s = {tally.actions / wall:,.0f} actions/s; "
          f"matches finished: {tally.finished}; refused: {tally.refused}; connections lost: {tally.lost}")
    if not tally.latencies:
        print("  no action was broadcast while measuring")
        return
    median, p99 = statistics.median(tally.latencies), percentile(tally.latencies, 0.99)
    print(f"  action -> broadcast to the opponent: median {median * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
          f"max {max(tally.latencies) * 1000:.1f} ms ({len(tally.latencies):,} samples)")
    if tally.echoes:
        echo_median, echo_p99 = statistics.median(tally.echoes), percentile(tally.echoes, 0.99)
        print(f"  action -> update back to the mover: median {echo_median * 1000:.1f} ms, "
              f"p99 {echo_p99 * 1000:.1f} ms")
    print(f"  server CPU: {cpu:.1f} s in {wall:.1f} s = {100 * cpu / wall:.0f}% of one core "
          f"({1000 * cpu / max(tally.actions, 1):.2f} ms an action); the bots' own process: "
          f"{100 * tally.client_cpu / wall:.0f}%")
    if matches >= TARGET_MATCHES:
        verdict = "meets" if p99 < TARGET_P99 else "misses"
        print(f"  target ({TARGET_MATCHES} matches, p99 under {TARGET_P99 * 1000:.0f} ms): {verdict} it")
