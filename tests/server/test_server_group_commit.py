"""Reading what a match stored after a version (every store), and PostgreSQL's group commit
(issue 17: "1,000 matches at one action a second each with p99 under 100 ms through the whole
cluster" on 2 cores): the appends asked together are written in one transaction by one statement,
each caller answered for its own append as if it had been written alone."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
import pytest
import pytest_asyncio
from postgres_server import PostgresServer
from test_server_storage import RUNNING, a_match, only

from parlour.server.leases import Node
from parlour.server.postgres import PostgresStore
from parlour.server.storage import (
    EventsAfter,
    MemoryStore,
    Progress,
    SQLiteStore,
    Store,
    StoreError,
    VersionConflict,
)

ASYNC = pytest.mark.asyncio(loop_scope="session")
WAIT = 15.0
"""Seconds a store call may take before the test fails (a bound, not a timing)."""
LONG = 60.0
"""A lease that cannot run out during a test."""


@pytest_asyncio.fixture(params=["sqlite", "memory", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    made: Store
    if request.param == "postgresql":
        made = PostgresStore(request.getfixturevalue("postgres").fresh())
    else:
        made = SQLiteStore(tmp_path / "events.sqlite3") if request.param == "sqlite" else MemoryStore()
    yield made
    await made.close()


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """A schema of this test's own in the session's PostgreSQL."""
    return postgres.fresh()


@pytest_asyncio.fixture
async def postgres_store(url: str) -> AsyncIterator[PostgresStore]:
    made = PostgresStore(url)
    yield made
    await made.close()


def statements(url: str) -> int:
    """The transactions PostgreSQL has committed in the test's database so far."""
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("SELECT pg_stat_clear_snapshot()")
        found = db.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
                           ).fetchone()
    assert found is not None
    return int(found[0])


# --- events_after, on every store ---


@ASYNC
async def test_events_after_gives_the_later_actions_their_marks_and_the_progress(store: Store) -> None:
    """What a replica at some version needs to catch up (it re-read the whole match on each event)."""
    clocked = a_match("timed", created=101)
    clocked.clock = {"base": 60, "increment": 0}
    await store.create(a_match("plain"))
    await store.create(clocked)
    await store.append("plain", 0, [10, 11], Progress("running", 2, 0, None, updated=5.0))
    await store.append("plain", 2, [12], Progress("over", 3, None, {"winner": 1}, updated=6.0))
    await store.append("timed", 0, [20, 21], RUNNING, times=[(0, 1.5, 58.5), None])

    later = await store.events_after("plain", 1)
    assert later == EventsAfter([11, 12], [], Progress("over", 3, None, {"winner": 1}, updated=6.0))
    assert await store.events_after("plain", 3) == EventsAfter([], [], later.progress)  # type: ignore[union-attr]
    assert (await store.events_after("plain", 0)).actions == [10, 11, 12]  # type: ignore[union-attr]
    timed = await store.events_after("timed", 0)
    assert timed is not None
    assert (timed.actions, timed.times) == ([20, 21], [(0, 1.5, 58.5), None])
    assert (await store.events_after("timed", 1)).times == [None]  # type: ignore[union-attr]
    assert await store.events_after("nobody", 0) is None
