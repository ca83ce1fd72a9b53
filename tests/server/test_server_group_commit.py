"""Reading what a match stored after a version (every store), and PostgreSQL's group commit
(issue 17: "1,000 matches at one action a second each with p99 under 100 ms through the whole
cluster" on 2 cores): the appends asked together are written in one transaction by one statement,
each caller answered for its own append as if it had been written alone."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import psycopg
import pytest
import pytest_asyncio
from postgres_server import PostgresServer
from test_server_postgres import LosesTheAnswer
from test_server_storage import RUNNING, a_match, only

from parlour.server.bots import BotPool
from parlour.server.leases import Node
from parlour.server.limits import Limits
from parlour.server.match import ServerTime
from parlour.server.postgres import PostgresStore
from parlour.server.pubsub import MemoryPubSub
from parlour.server.replica import Replica
from parlour.server.storage import (
    EventsAfter,
    MatchRow,
    MemoryStore,
    Progress,
    SeatRecord,
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
ANN = Node("ann-node", "http://127.0.0.1:8081")
BOB = Node("bob-node", "http://127.0.0.1:8082")


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


# --- PostgreSQL's group commit ---


def transactions_of(url: str) -> int:
    """In how many transactions the events stored so far were written (each row's ``xmin``)."""
    with psycopg.connect(url, autocommit=True) as db:
        found = db.execute("SELECT COUNT(DISTINCT xmin::text) FROM events").fetchone()
    assert found is not None
    return int(found[0])


async def gathered(*calls: Awaitable[None]) -> list[BaseException | None]:
    """The calls asked in one turn of the event loop (so one batch), each one's outcome."""
    return await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), WAIT)


def when(index: int) -> float:
    """Times of progress, some of them whole numbers (an array of them is still one type)."""
    return index if index % 3 else index + 0.25


@ASYNC
async def test_appends_asked_together_are_one_transaction_each_with_its_progress(
    url: str, postgres_store: PostgresStore,
) -> None:
    """'k appends cost 3 round trips, not 3k': forty matches' appends asked at once are written in
    one transaction, each with its own events, clock marks and progress."""
    store = postgres_store
    for index in range(40):
        made = a_match(f"m{index:02}", created=index)
        made.clock = {"per_move": 30} if index % 2 else None
        await store.create(made)
    outcomes = await gathered(*(
        store.append(f"m{index:02}", 0, [index, index + 100],
                     Progress("running", 2, index % 2, None, when(index)), [(0, 1.0, float(index)), None])
        for index in range(40)))
    assert outcomes == [None] * 40
    assert transactions_of(url) == 1
    for index in range(40):
        loaded = await only(store, f"m{index:02}")
        assert loaded.actions == [index, index + 100]
        assert loaded.times == ([(0, 1.0, float(index)), None] if index % 2 else [])
        assert loaded.progress == Progress("running", 2, index % 2, None, updated=when(index))
    # And the next appends of the same matches, asked together again.
    assert await gathered(*(store.append(f"m{index:02}", 2, [7], Progress("over", 3, None, {"winner": 0}))
                            for index in range(40))) == [None] * 40
    assert transactions_of(url) == 2
    assert (await only(store, "m39")).actions == [39, 139, 7]


@ASYNC
async def test_a_stale_version_or_a_missing_match_in_a_batch_fails_only_its_own_append(
    url: str, postgres_store: PostgresStore,
) -> None:
    store = postgres_store
    for match_id in ("m1", "m2", "m3"):
        await store.create(a_match(match_id))
    await store.append("m2", 0, [5], RUNNING)
    outcomes = await gathered(
        store.append("m1", 0, [1], Progress("running", 1, 1, None)),
        store.append("m2", 0, [2], Progress("over", 1, None, {"winner": 0})),  # m2 is at 1
        store.append("nobody", 0, [3], RUNNING),
        store.append("m3", 0, [4, 6], Progress("running", 2, 0, None)),
    )
    assert outcomes[0] is None, outcomes
    assert outcomes[3] is None, outcomes
    assert isinstance(outcomes[1], VersionConflict), outcomes
    assert str(outcomes[1]) == "match m2 is at version 1, not 0"
    assert type(outcomes[2]) is StoreError, outcomes
    assert str(outcomes[2]) == "there is no match nobody"
    assert transactions_of(url) == 2  # m2's first append, then the batch
    assert ((await only(store, "m1")).actions, (await only(store, "m3")).actions) == ([1], [4, 6])
    second = await only(store, "m2")
    assert (second.actions, second.progress) == ([5], RUNNING)


@ASYNC
async def test_a_batch_with_a_match_another_node_holds_fails_only_that_append(url: str) -> None:
    """Fencing holds in a batch: Ann's node holds m1 and m2, Bob's m3; Ann's appends to all three,
    asked together, store m1's and m2's and are refused m3's, which Bob then writes."""
    ann, bob = PostgresStore(url), PostgresStore(url)
    try:
        for match_id in ("m1", "m2", "m3"):
            await ann.create(a_match(match_id, progress=RUNNING))
        ann_leases, bob_leases = ann.leases(ANN, LONG), bob.leases(BOB, LONG)
        assert [await ann_leases.take(match_id) for match_id in ("m1", "m2")] == [ANN, ANN]
        assert await bob_leases.take("m3") == BOB
        outcomes = await gathered(*(ann.append(match_id, 0, [index], Progress("running", 1, 1, None))
                                    for index, match_id in enumerate(("m1", "m2", "m3"))))
        assert outcomes[:2] == [None, None], outcomes
        assert isinstance(outcomes[2], VersionConflict), outcomes
        assert str(outcomes[2]) == "match m3 is written by another process now"
        assert (await only(ann, "m3")).actions == []
        await bob.append("m3", 0, [30], Progress("running", 1, 1, None))
        assert [(await only(bob, match_id)).actions for match_id in ("m1", "m2", "m3")] == [[0], [1], [30]]
    finally:
        await ann.close()
        await bob.close()


@ASYNC
async def test_a_version_another_writer_stores_meanwhile_fails_that_append_and_the_rest_go_alone(
    url: str, postgres_store: PostgresStore,
) -> None:
    """'A unique violation (another writer raced) fails the whole statement: then fall back to
    today's one-by-one path for that batch': another connection inserts m2's version 1 and commits
    while the batch waits on that key; m1 and m3 are then stored one by one, m2's append refused."""
    store = postgres_store
    for match_id in ("m1", "m2", "m3"):
        await store.create(a_match(match_id))
    with psycopg.connect(url, autocommit=True) as other:
        other.execute("BEGIN")
        other.execute("INSERT INTO events (match_id, version, action, created) VALUES ('m2', 1, 99, 0)")
        batch = asyncio.gather(*(store.append(match_id, 0, [index], Progress("running", 1, 1, None))
                                 for index, match_id in enumerate(("m1", "m2", "m3"))),
                               return_exceptions=True)
        await until_waiting_for_a_lock(url)
        other.execute("COMMIT")
        outcomes = await asyncio.wait_for(batch, WAIT)
    assert outcomes[0] is None, outcomes
    assert outcomes[2] is None, outcomes
    assert isinstance(outcomes[1], VersionConflict), outcomes
    assert [(await only(store, match_id)).actions for match_id in ("m1", "m2", "m3")] == [[0], [99], [2]]
    assert transactions_of(url) == 3  # the other writer's, then m1's and m3's alone


async def until_waiting_for_a_lock(url: str) -> None:
    """Until some statement of the test's database waits for a lock (within WAIT, or the test fails)."""
    async def waiting() -> None:
        while True:
            with psycopg.connect(url, autocommit=True) as db:
                found = db.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                   " AND datname = current_database()").fetchone()
            if found is not None and found[0]:
                return
            await asyncio.sleep(0.02)  # a pause between questions, not a time awaited

    try:
        await asyncio.wait_for(waiting(), WAIT)
    except TimeoutError:
        pytest.fail("the batch never waited for the other writer's key")


@ASYNC
async def test_a_batch_whose_commit_went_unanswered_is_neither_lost_nor_doubled(
    url: str, postgres_store: PostgresStore,
) -> None:
    """'no acknowledged action is lost or duplicated', for a batch: its COMMIT's answer lost, each
    append is found in the record (done), none is sent again."""
    store = postgres_store
    for match_id in ("m1", "m2"):
        await store.create(a_match(match_id))
    await store.append("m1", 0, [5], RUNNING)
    link = store._writers[0]
    link.db = LosesTheAnswer(link.db)  # type: ignore[assignment]
    outcomes = await gathered(store.append("m1", 1, [6], Progress("running", 2, 0, None)),
                              store.append("m2", 0, [7, 8], Progress("running", 2, 0, None)))
    assert outcomes == [None, None]
    assert [(await only(store, match_id)).actions for match_id in ("m1", "m2")] == [[5, 6], [7, 8]]
    with pytest.raises(VersionConflict):  # the store knows where m2 is
        await store.append("m2", 0, [9], RUNNING)
    await store.append("m2", 2, [9], RUNNING)
    assert (await only(store, "m2")).actions == [7, 8, 9]


@ASYNC
async def test_two_appends_of_one_match_asked_together_go_in_turn(postgres_store: PostgresStore) -> None:
    """A match's second append expects its first's version: it waits for the next batch."""
    store = postgres_store
    await store.create(a_match("m1"))
    await store.create(a_match("m2"))
    outcomes = await gathered(store.append("m1", 0, [1], Progress("running", 1, 1, None)),
                              store.append("m2", 0, [2], Progress("running", 1, 1, None)),
                              store.append("m1", 1, [3], Progress("running", 2, 0, None)))
    assert outcomes == [None, None, None]
    assert (await only(store, "m1")).actions == [1, 3]


@ASYNC
async def test_a_matchs_second_append_waits_for_the_batch_in_flight_not_beside_it(
    postgres_store: PostgresStore,
) -> None:
    """Two batches may be in flight at once, but never two appends of one match: the second, started
    beside the first, could be written before it and fail on the version the first has not written."""
    store = postgres_store
    await store.create(a_match("m1"))
    await store.create(a_match("m2"))
    asked = [asyncio.ensure_future(call) for call in (
        store.append("m1", 0, [1], Progress("running", 1, 1, None)),
        store.append("m2", 0, [2], Progress("running", 1, 1, None)),
        store.append("m1", 1, [3], Progress("running", 2, 0, None)),
    )]
    for _ in range(3):  # the appends are asked and the first batch starts
        await asyncio.sleep(0)
    assert list(store._batches.values()) == [{"m1", "m2"}]
    assert [waiting.match_id for waiting in store._appending] == ["m1"]
    assert await gathered(*asked) == [None, None, None]
    assert (await only(store, "m1")).actions == [1, 3]


# --- a replica reads only what it lacks ---


class CountingStore(MemoryStore):
    """The memory store, counting the whole matches read and the reads of what followed a version."""

    def __init__(self) -> None:
        super().__init__()
        self.whole = 0
        self.after = 0

    async def load_match(self, match_id: str) -> MatchRow | None:
        self.whole += 1
        return await super().load_match(match_id)

    async def events_after(self, match_id: str, version: int) -> EventsAfter | None:
        self.after += 1
        return await super().events_after(match_id, version)


@ASYNC
async def test_a_replica_reads_only_the_actions_after_its_version_on_each_event() -> None:
    """Helper P's report: 'a replica now re-reads the whole match on each event'. Now each event
    reads what the replica lacks, and only a resync (a message may be lost) reads the whole match."""
    store = CountingStore()
    seated = [SeatRecord("person", name="Ann"), SeatRecord("person", name="Bob")]
    await store.create(a_match("m1", seats=seated, progress=RUNNING))
    row = await store.load_match("m1")
    assert row is not None
    bots = BotPool(1)
    replica = Replica(row, store, MemoryPubSub(), bots, Limits(), ServerTime(), asyncio.Semaphore(1))
    heard: list[Any] = []
    replica.local.subscribe(replica.channel, heard.append)
    try:
        played = []
        for version in range(1, 4):
            action = replica.state.legal_actions()[0]
            played.append(action)
            await store.append("m1", version - 1, [action], Progress("running", version, version % 2, None))
            await replica.take({"kind": "event", "version": version, "clock": None})
        assert [message["version"] for message in heard] == [1, 2, 3]
        assert replica.version == 3
        assert list(replica.state.history) == played
        assert (store.whole, store.after) == (1, 3)  # the replica's making, then one short read an event
        await replica.take({"kind": "resync"})
        assert (store.whole, replica.version) == (2, 3)
    finally:
        await replica.stop()
        bots.close()
