"""The write-ahead log stays small: after a busy spell, once the writer is idle, the ``-wal`` file is
cut back (it used to keep its peak size: 477 MB of log beside a 4.7 MB database)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from parlour.server.storage import MatchRow, Progress, SeatRecord, SQLiteStore

ASYNC = pytest.mark.asyncio(loop_scope="session")
WAIT = 30.0
"""Seconds the log may take to be cut back once writing stops (a bound, not a timing)."""
MATCHES = 40


def wal_size(path: Path) -> int:
    wal = path.with_name(path.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


async def busy_spell(store: SQLiteStore, path: Path) -> int:
    """Appends one action at a time to many matches, each its own commit, until the log has grown
    past the limit; the largest log seen."""
    for index in range(MATCHES):
        await store.create(MatchRow(id=f"m{index}", game="loa", players=2, options={}, seed=1,
                                    seats=[SeatRecord("open"), SeatRecord("open")], bot_seconds=1.0,
                                    progress=Progress("running", 0, 0, None)))
    versions = [0] * MATCHES
    peak = 0
    for step in range(60_000):
        index = step % MATCHES
        version = versions[index]
        await store.append(f"m{index}", version, [step], Progress("running", version + 1, 1, None))
        versions[index] = version + 1
        if step % 20 == 0:
            peak = max(peak, wal_size(path))
            if peak > SQLiteStore.JOURNAL_LIMIT:
                break
    return peak


@ASYNC
async def test_the_wal_is_cut_back_once_the_writer_is_idle(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    store = SQLiteStore(path)
    try:
        peak = await busy_spell(store, path)
        limit = SQLiteStore.JOURNAL_LIMIT
        assert peak > limit, f"the busy spell grew the log to {peak} bytes only, not past {limit}"
        deadline = time.monotonic() + WAIT
        while wal_size(path) > 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert wal_size(path) == 0, (
            f"{WAIT:g} s after the last write the log is {wal_size(path)} bytes (peak {peak}, limit {limit})")
        # Nothing was lost by cutting the log: every action is in the database file.
        db = sqlite3.connect(path)
        (events,) = db.execute("SELECT COUNT(*) FROM events").fetchone()
        (versions,) = db.execute("SELECT SUM(version) FROM matches").fetchone()
        db.close()
        assert events == versions > 0
        # And the store goes on writing after it.
        first = await store.load_match("m0")
        assert first is not None
        assert first.progress is not None
        done = first.progress.version
        await store.append("m0", done, [1], Progress("over", done + 1, None, {"winner": 0}))
        assert wal_size(path) > 0
    finally:
        await store.close()
