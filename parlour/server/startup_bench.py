"""``parlour bench server --startup N``: how fast the server comes up with N stored matches, and its memory.

The matches are made here through the store's own interface (``SQLiteStore.create`` and
``append`` with their ``Progress``), as the server would have stored them: Lines of Action
between two people, with a move limit of 50 plies; 90 % finished (50 actions), the rest cut
somewhere after move 30 and still running. The games are a few hundred random ones, each reused
under fresh match ids, so that making 100,000 takes a minute or so rather than replaying
millions of moves. Then ``parlour serve`` starts on the file; measured: the time from starting
the process to its READY line, its resident memory then (``VmRSS``) and its peak (``VmHWM``).
"""

from __future__ import annotations

import asyncio
import random
import secrets
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from parlour.engine import Action
from parlour.games import get_game
from parlour.server.process import call, memory, start_server, stop_server
from parlour.server.storage import MatchRow, MatchStatus, Progress, SeatRecord, SQLiteStore

GAME: Final = "loa"
OPTIONS: Final = {"move_limit": 50}
GAMES_MADE: Final = 500
"""Distinct random games; every match replays one of them."""
FINISHED: Final = 0.9
BATCH: Final = 2_000
"""Matches stored concurrently: the store's writer commits what has queued up in one go."""
START_SECONDS: Final = 900.0
"""How long the server may take to start (a server that replays everything takes minutes)."""
TARGETS: Final = {100_000: (5.0, 400 * 2**20), 10_000: (1.0, None)}
"""Matches -> (seconds to READY, resident bytes at READY) the issue asks for."""


@dataclass(frozen=True)
class Played:
    """One random game: its actions, and after each prefix who is to move (the view's ``to_move``)."""

    actions: list[Action]
    to_move: list[Any]
    outcome: Any


def play_games(count: int, rng: random.Random) -> tuple[dict[str, Any], list[Played]]:
    """``count`` random games to their end (the move limit at the latest), and the options they ran with."""
    game = get_game(GAME)
    played = []
    options: dict[str, Any] = {}
    for _ in range(count):
        state = game.new(None, OPTIONS, rng.getrandbits(62))
        options = dict(state.options)
        actions: list[Action] = []
        to_move = [state.to_move_json()]
        while not state.is_over():
            action = rng.choice(state.legal_actions())
            state.play(action)
            actions.append(action)
            to_move.append(state.to_move_json())
        played.append(Played(actions, to_move, state.outcome_json()))
    return options, played


def match_of(index: int, count: int, options: dict[str, Any], played: Played, rng: random.Random,
             now: float) -> tuple[MatchRow, list[Action], Progress]:
    """The ``index``-th match: its row as created, its actions, and where it stands after them."""
    finished = rng.random() < FINISHED
    length = len(played.actions) if finished else rng.randrange(30, len(played.actions))
    created = now - (count - index)  # a second apart, the newest last: the lobby pages by creation
    seats = [SeatRecord("person", name=f"bench {seat}", token_hash=secrets.token_hex(32)) for seat in (0, 1)]
    row = MatchRow(
        id=secrets.token_urlsafe(8), game=GAME, players=2, options=options, seed=rng.getrandbits(62),
        seats=seats, bot_seconds=1.0, created=created,
        progress=Progress("running", 0, played.to_move[0], None, created),
    )
    status: MatchStatus = "over" if finished else "running"
    progress = Progress(status, length, played.to_move[length], played.outcome if finished else None,
                        created + length)
    return row, played.actions[:length], progress


async def store_matches(path: Path, count: int, seed: int = 13) -> None:
    rng = random.Random(seed)
    began = time.monotonic()
    options, games = play_games(GAMES_MADE, rng)
    print(f"  {GAMES_MADE} random games played in {time.monotonic() - began:.1f} s; storing {count:,} "
          f"matches in {path}", flush=True)
    store = SQLiteStore(path)
    now = time.time()

    async def one(index: int) -> None:
        row, actions, progress = match_of(index, count, options, rng.choice(games), rng, now)
        await store.create(row)
        await store.append(row.id, 0, actions, progress)

    try:
        for first in range(0, count, BATCH):
            await asyncio.gather(*(one(index) for index in range(first, min(count, first + BATCH))))
            done = min(count, first + BATCH)
            if done % 10_000 == 0 or done == count:
                print(f"  {done:,} matches stored ({time.monotonic() - began:.0f} s)", flush=True)
    finally:
        await store.close()


def stored_count(path: Path) -> tuple[int, str | None]:
    """How many matches the file holds, and the id of a finished one."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        (count,) = db.execute("SELECT COUNT(*) FROM matches").fetchone()
        finished = db.execute("SELECT id FROM matches WHERE status = 'over' LIMIT 1").fetchone()
        return int(count), None if finished is None else str(finished[0])
    finally:
        db.close()


def run_startup(count: int, keep: Path | None, source: Path | None) -> int:
    print(f"parlour bench server --startup {count:,}: {count:,} stored {GAME} matches "
          f"({FINISHED:.0%} finished), then parlour serve on them", flush=True)
    with tempfile.TemporaryDirectory(prefix="parlour-startup-") as directory:
        path = keep if keep is not None else Path(directory) / "startup.sqlite3"
        if path.exists():
            found, _ = stored_count(path)
            if found != count:
                print(f"parlour bench server: {path} holds {found:,} matches, not {count:,}; give another "
                      f"--keep file", file=sys.stderr)
                return 2
            print(f"  reusing {path} ({found:,} matches)")
        else:
            began = time.monotonic()
            asyncio.run(store_matches(path, count))
            print(f"  made in {time.monotonic() - began:.0f} s: {path.stat().st_size / 2**20:,.0f} MB")
        if source is not None:
            print(f"  the server from {source}")
        measure_start(Path(directory), path, count, source)
    return 0


def empty_start(directory: Path, source: Path | None) -> float:
    """Seconds a server with no match takes to be ready: the part of any start that is not the
    matches (starting Python, importing, the bot workers), for comparison."""
    empty = directory / "empty"
    empty.mkdir()
    began = time.monotonic()
    process, _ = start_server(empty, source, start_seconds=START_SECONDS)
    ready = time.monotonic() - began
    stop_server(process)
    return ready


def measure_start(directory: Path, path: Path, count: int, source: Path | None) -> None:
    _, finished = stored_count(path)
    baseline = empty_start(directory, source)
    began = time.monotonic()
    process, base = start_server(directory, source, db=path, start_seconds=START_SECONDS)
    ready = time.monotonic() - began
    try:
        sizes = memory(process.pid)
        asked = probe(base, finished)
    finally:
        stop_server(process)
    seconds, resident = TARGETS.get(count, (None, None))
    rss, peak = sizes.get("VmRSS", 0), sizes.get("VmHWM", 0)
    print(f"  ready after {ready:.2f} s (from starting the process to its READY line)"
          + (f"; target under {seconds:g} s: {verdict(ready < seconds)}" if seconds else ""))
    print(f"  (a server with no match, just before: ready after {baseline:.2f} s)")
    print(f"  resident at READY (VmRSS): {rss / 2**20:,.0f} MB; peak (VmHWM): {peak / 2**20:,.0f} MB"
          + (f"; target under {resident / 2**20:,.0f} MB: {verdict(rss < resident)}" if resident else ""))
    for line in asked:
        print(f"  {line}")
    if count not in TARGETS:
        print("  (the targets: 100,000 matches ready in under 5 s with under 400 MB resident; "
              "10,000 in under 1 s)")


def probe(base: str, finished: str | None) -> list[str]:
    """The lobby's first page and one finished match, asked of the server once it is ready."""
    status, answer = call(base, "GET", "/api/matches")
    listed = len(answer.get("matches", [])) if isinstance(answer, dict) else 0
    lines = [f"GET /api/matches then: HTTP {status}, {listed} matches on the page"]
    if finished is not None:
        asked = time.monotonic()
        status, answer = call(base, "GET", f"/api/matches/{finished}")
        took = time.monotonic() - asked
        shown = answer.get("match", {}).get("status") if isinstance(answer, dict) else None
        lines.append(f"a finished match, GET /api/matches/{finished}: HTTP {status}, status {shown}, "
                     f"{took * 1000:.0f} ms")
    return lines


def verdict(met: bool) -> str:
    return "meets it" if met else "misses it"
