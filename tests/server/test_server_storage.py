"""The event store and pub/sub interfaces: both implementations behave the same."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from parlour.games import get_game
from parlour.server import storage
from parlour.server.postgres import PostgresStore
from parlour.server.pubsub import MemoryPubSub
from parlour.server.storage import (
    SCHEMA_VERSION,
    MatchRow,
    MatchStatus,
    MemoryStore,
    Progress,
    SeatRecord,
    SQLiteStore,
    Store,
    StoreError,
    VersionConflict,
)

ASYNC = pytest.mark.asyncio(loop_scope="session")
OPEN = Progress("open", 0, 0, None, updated=1.0)
RUNNING = Progress("running", 0, 0, None, updated=2.0)
WAIT = 15.0
"""Seconds a store call may take before the test fails (a bound, not a timing)."""


def a_match(match_id: str = "m1", created: float = 100.0, game: str = "loa",
            seats: Sequence[SeatRecord] | None = None, progress: Progress = OPEN) -> MatchRow:
    return MatchRow(id=match_id, game=game, players=2, options={"move_limit": 60}, seed=9,
                    seats=list(seats or [SeatRecord("open"), SeatRecord("bot", bot="random")]),
                    bot_seconds=0.5, created=created, progress=progress)


@pytest_asyncio.fixture(params=["sqlite", "memory", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    made: Store
    if request.param == "postgresql":  # the session's PostgreSQL, a schema of this test's own
        made = PostgresStore(request.getfixturevalue("postgres").fresh())
    else:
        made = SQLiteStore(tmp_path / "events.sqlite3") if request.param == "sqlite" else MemoryStore()
    yield made
    await made.close()


async def only(store: Store, match_id: str = "m1") -> MatchRow:
    loaded = await store.load_match(match_id)
    assert loaded is not None, f"match {match_id} is not stored"
    return loaded


@ASYNC
async def test_append_checks_the_expected_version_and_stores_progress(store: Store) -> None:
    await store.create(a_match())
    await store.append("m1", 0, [100], Progress("running", 1, 1, None))
    await store.append("m1", 1, [200, 300], Progress("running", 3, 0, None))
    for wrong in (0, 2, 4):
        with pytest.raises(VersionConflict):
            await store.append("m1", wrong, [999], Progress("over", 4, None, {"winner": 1}))
    loaded = await only(store)
    assert loaded.actions == [100, 200, 300]
    assert loaded.progress is not None
    assert (loaded.progress.status, loaded.progress.version, loaded.progress.to_move) == ("running", 3, 0)
    assert (loaded.game, loaded.players, loaded.options, loaded.seed) == ("loa", 2, {"move_limit": 60}, 9)
    assert [seat.kind for seat in loaded.seats] == ["open", "bot"]
    assert loaded.seats[1].bot == "random"


@ASYNC
async def test_a_match_knows_its_one_rematch(store: Store) -> None:
    await store.create(a_match("m1"))
    assert (await only(store, "m1")).rematch is None
    await store.create(replace(a_match("m2", created=101), rematch_of="m1"))
    assert (await only(store, "m1")).rematch == "m2"
    assert (await only(store, "m2")).rematch_of == "m1"
    assert (await only(store, "m2")).rematch is None
    with pytest.raises(StoreError):  # a second rematch of m1: nothing stored
        await store.create(replace(a_match("m3", created=102), rematch_of="m1"))
    assert await store.load_match("m3") is None
    assert (await only(store, "m1")).rematch == "m2"


@ASYNC
async def test_many_appends_at_once_each_store_their_own_progress(store: Store) -> None:


    for index in range(20):
        await store.create(a_match(f"m{index}", created=index))
    # Gathered: the SQLite writer commits them as one batch, through its fast path.
    await asyncio.gather(*(
        store.append(f"m{index}", 0, [index, index + 1], Progress("running", 2, index % 2, None))
        for index in range(20)
    ))
    for index in range(20):
        loaded = await only(store, f"m{index}")
        assert loaded.actions == [index, index + 1]
        assert loaded.progress == Progress("running", 2, index % 2, None, loaded.progress.updated)  # type: ignore[union-attr]


@ASYNC
async def test_a_conflict_in_a_batch_fails_only_its_own_append(store: Store) -> None:


    await store.create(a_match("m1"))
    await store.create(a_match("m2", created=101))
    outcomes = await asyncio.gather(
        store.append("m1", 0, [1], Progress("running", 1, 1, None)),
        store.append("m2", 5, [2], Progress("over", 6, None, {"winner": 0})),
        return_exceptions=True,
    )
    assert outcomes[0] is None, outcomes
    assert isinstance(outcomes[1], VersionConflict), outcomes
    second = await only(store, "m2")
    assert (second.actions, second.progress) == ([], OPEN)


@ASYNC
async def test_a_batch_of_appends_and_other_writes_gives_each_its_own_outcome(store: Store) -> None:
    # Gathered: one SQLite batch holding appends (written in a few statements) and a creation and
    # a claim (one by one, in the same transaction), one of each failing.
    await store.create(a_match("m1"))
    await store.create(a_match("m2", created=101))
    outcomes = await asyncio.wait_for(asyncio.gather(
        store.append("m1", 0, [1, 2], Progress("running", 2, 0, None)),
        store.create(a_match("m3", created=102)),
        store.claim_seat("m2", 0, "hash-a", "Ann", RUNNING),
        store.create(a_match("m1", created=103)),  # taken already: fails alone
        store.append("m2", 0, [5], Progress("running", 1, 1, None)),
        return_exceptions=True,
    ), WAIT)
    assert outcomes[0] is None, outcomes
    assert outcomes[4] is None, outcomes
    assert outcomes[2] is True, outcomes
    assert isinstance(outcomes[3], Exception), outcomes
    assert (await only(store, "m1")).actions == [1, 2]
    assert (await only(store, "m2")).actions == [5]
    assert (await only(store, "m3")).actions == []


@ASYNC
async def test_progress_that_cannot_be_stored_fails_its_own_append_only(store: Store) -> None:
    await store.create(a_match("m1"))
    await store.create(a_match("m2", created=101))
    broken = Progress("over", 1, None, {"winner": 0, "words": "won\udc80"})  # not Unicode text
    outcomes = await asyncio.wait_for(asyncio.gather(
        store.append("m1", 0, [1], broken),
        store.append("m2", 0, [2], Progress("running", 1, 1, None)),
        return_exceptions=True,
    ), WAIT)
    assert isinstance(outcomes[0], StoreError), outcomes
    assert outcomes[1] is None, outcomes
    assert ((await only(store, "m1")).actions, (await only(store, "m2")).actions) == ([], [2])
    await asyncio.wait_for(store.append("m1", 0, [3], RUNNING), WAIT)  # the store still writes
    assert (await only(store, "m1")).actions == [3]


@ASYNC
async def test_a_seat_is_claimed_once_with_its_progress(store: Store) -> None:
    await store.create(a_match())
    assert await store.claim_seat("m1", 0, "hash-a", "Ann", RUNNING) is True
    assert await store.claim_seat("m1", 0, "hash-b", "Bob", OPEN) is False
    assert await store.claim_seat("m1", 1, "hash-b", "Bob", OPEN) is False  # a bot's seat
    loaded = await only(store)
    claimed = loaded.seats[0]
    assert (claimed.kind, claimed.token_hash, claimed.name) == ("person", "hash-a", "Ann")
    assert loaded.progress == RUNNING  # the refused claims stored nothing


@ASYNC
async def test_create_stores_a_claimed_seat_with_the_match(store: Store) -> None:
    seats = [SeatRecord("person", name="Ann", token_hash="hash-a"), SeatRecord("open")]
    await store.create(a_match(seats=seats))
    loaded = await only(store)
    assert loaded.seats == seats
    assert loaded.progress == OPEN
    assert await store.claim_seat("m1", 0, "hash-b", "Bob", RUNNING) is False


@pytest.mark.parametrize("where", ["name", "option", "bot"])
@ASYNC
async def test_text_the_store_cannot_encode_fails_the_whole_create(store: Store, where: str) -> None:
    bad = "Ann\ud800"  # a lone surrogate: not Unicode text, cannot be written as UTF-8
    seats = [SeatRecord("person", name=bad if where == "name" else "Ann", token_hash="hash-a"),
             SeatRecord("bot", bot=bad if where == "bot" else "random")]
    match = a_match(seats=seats)
    if where == "option":
        match.options = {"move_limit": 60, "label": bad}
    with pytest.raises(StoreError):
        await store.create(match)
    # Nothing at all is stored: no match, no orphan seat, in any listing.
    assert await store.load_match("m1") is None
    assert await store.load_unfinished() == []
    assert await store.list_matches(["open", "running", "over", "expired"], None, None, 100) == []
    await store.create(a_match())  # the id is still free
    assert (await only(store)).seats[0].kind == "open"


@ASYNC
async def test_create_needs_progress_and_a_new_id(store: Store) -> None:
    match = a_match()
    match.progress = None
    with pytest.raises(StoreError):
        await store.create(match)
    await store.create(a_match())
    with pytest.raises(StoreError):
        await store.create(a_match(seats=[SeatRecord("bot", bot="random")] * 2))
    assert (await only(store)).seats[0].kind == "open"


@ASYNC
async def test_load_unfinished_reads_only_open_and_running_matches(store: Store) -> None:
    statuses: list[MatchStatus] = ["over", "running", "open", "expired", "running"]
    for index, status in enumerate(statuses):
        await store.create(a_match(f"m{index}", created=10 - index, progress=Progress(status, 0, 0, None)))
        await store.append(f"m{index}", 0, [index, 7], Progress(status, 2, 1, None))
    loaded = await store.load_unfinished()
    assert [row.id for row in loaded] == ["m4", "m2", "m1"]  # oldest first
    assert [row.actions for row in loaded] == [[4, 7], [2, 7], [1, 7]]
    assert all(len(row.seats) == 2 for row in loaded)
    finished = await only(store, "m0")  # still there, on demand
    assert finished.progress is not None
    assert finished.progress.status == "over"
    assert finished.actions == [0, 7]
    assert await store.load_match("nobody") is None


@ASYNC
async def test_set_progress_expires_an_open_match(store: Store) -> None:
    await store.create(a_match())
    await store.set_progress("m1", Progress("expired", 0, 0, None))
    assert await store.load_unfinished() == []
    assert [row.id for row in await store.list_matches(["expired"], None, None, 10)] == ["m1"]
    with pytest.raises(StoreError):
        await store.set_progress("nobody", Progress("expired", 0, 0, None))


@ASYNC
async def test_pages_return_every_match_once_newest_first_with_filters(store: Store) -> None:
    rng = random.Random(13)
    statuses: list[MatchStatus] = ["open", "running", "over", "expired"]
    made: list[tuple[float, str, str, MatchStatus]] = []
    for index in range(90):
        created = float(rng.randrange(30))  # many ties: the id orders them
        game, status = rng.choice(["loa", "mille", "biloba"]), rng.choice(statuses)
        await store.create(a_match(f"m{index:02}", created=created, game=game,
                                   progress=Progress(status, 0, 0, None)))
        made.append((created, f"m{index:02}", game, status))
    made.sort(reverse=True)
    choices: list[list[MatchStatus]] = [["open"], ["open", "running"], ["over", "expired", "running"]]
    choices.append(statuses)
    for wanted in choices:
        for only_game in (None, "mille"):
            expected = [match_id for _, match_id, made_game, status in made
                        if status in wanted and only_game in (None, made_game)]
            assert await pages(store, wanted, only_game, 7) == expected, (wanted, only_game)
    listed = await store.list_matches(["open"], None, None, 3)
    assert all(row.actions == [] and len(row.seats) == 2 and row.progress is not None for row in listed)


async def pages(store: Store, statuses: list[MatchStatus], game: str | None, size: int) -> list[str]:
    seen: list[str] = []
    after: tuple[float, str] | None = None
    while True:
        page = await store.list_matches(statuses, game, after, size)
        assert len(page) <= size
        seen += [row.id for row in page]
        if len(page) < size:
            return seen
        after = (page[-1].created, page[-1].id)


@ASYNC
async def test_sqlite_is_in_wal_mode_and_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    first = SQLiteStore(path)
    await first.create(a_match("m1"))
    await first.create(a_match("m2", created=101))
    await first.append("m2", 0, [5], RUNNING)
    # No close: as after SIGKILL, the next process opens the file as it was left.
    second = SQLiteStore(path)
    assert [(row.id, row.actions, row.progress) for row in await second.load_unfinished()] == [
        ("m1", [], OPEN), ("m2", [5], RUNNING)]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    await first.close()
    await second.close()


@ASYNC
async def test_sqlite_reads_do_not_wait_for_the_writer(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    store = SQLiteStore(path)
    await store.create(a_match())
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the file: the store's writer waits
    try:
        writing = asyncio.ensure_future(store.append("m1", 0, [7], RUNNING))
        loaded = await store.load_match("m1")
        listed = await store.list_matches(["open"], None, None, 10)
        # Read beside the stuck write, not after it: the append is still waiting.
        assert not writing.done()
        assert loaded is not None
        assert (loaded.actions, [row.id for row in listed]) == ([], ["m1"])
    finally:
        blocker.execute("COMMIT")
        blocker.close()
    await writing
    assert (await only(store)).actions == [7]
    await store.close()


@ASYNC
async def test_sqlite_writes_wait_for_a_lock_off_the_event_loop_and_in_order(tmp_path: Path) -> None:
    # The event loop commits itself, but never waits for the file's lock: a held lock hands the
    # writes to the writer thread, later writes queue behind them, and the loop goes on meanwhile.
    path = tmp_path / "events.sqlite3"
    store = SQLiteStore(path)
    await store.create(a_match("m1"))
    await store.create(a_match("m2", created=101))
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        first = asyncio.ensure_future(store.append("m1", 0, [7], RUNNING))
        for _ in range(5):  # the loop turns over and over while the write waits
            await asyncio.sleep(0)
        second = asyncio.ensure_future(store.append("m2", 0, [9], RUNNING))
        third = asyncio.ensure_future(store.append("m2", 0, [10], RUNNING))  # the same version again
        for _ in range(5):
            await asyncio.sleep(0)
        assert [first.done(), second.done(), third.done()] == [False, False, False]
    finally:
        blocker.execute("COMMIT")
        blocker.close()
    await asyncio.wait_for(asyncio.gather(first, second), WAIT)
    with pytest.raises(VersionConflict):
        await asyncio.wait_for(third, WAIT)
    await asyncio.wait_for(store.append("m1", 1, [8], RUNNING), WAIT)  # the loop writes again
    assert [(row.id, row.actions) for row in await store.load_unfinished()] == [("m1", [7, 8]), ("m2", [9])]
    await store.close()


@ASYNC
async def test_sqlite_writes_after_a_hand_over_wait_for_the_writer_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Once the writer thread has writes, the loop hands it the next ones too, even with the file
    # free: the thread's catch-up of the log must find no commit of the loop's between its steps.
    path = tmp_path / "events.sqlite3"
    store = SQLiteStore(path)
    await store.create(a_match("m1"))
    await store.create(a_match("m2", created=101))
    committed, release = threading.Event(), threading.Event()
    commit_batch = SQLiteStore._commit_batch

    def held(self: SQLiteStore, db: sqlite3.Connection, batch: list[Any]) -> Any:
        outcomes = commit_batch(self, db, batch)
        if threading.current_thread() is store._writer:  # the thread holds its answer back
            committed.set()
            release.wait(WAIT)
        return outcomes

    monkeypatch.setattr(SQLiteStore, "_commit_batch", held)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    first = asyncio.ensure_future(store.append("m1", 0, [7], RUNNING))  # the lock: to the thread
    for _ in range(3):
        await asyncio.sleep(0)
    blocker.execute("COMMIT")
    blocker.close()
    assert await asyncio.to_thread(committed.wait, WAIT)  # the thread committed, the file is free
    second = asyncio.ensure_future(store.append("m2", 0, [9], RUNNING))
    for _ in range(5):
        await asyncio.sleep(0)
    assert [first.done(), second.done()] == [False, False]  # the second queued behind the first
    release.set()
    await asyncio.wait_for(asyncio.gather(first, second), WAIT)
    await asyncio.wait_for(store.append("m1", 1, [8], RUNNING), WAIT)  # the loop writes again
    assert [(row.id, row.actions) for row in await store.load_unfinished()] == [("m1", [7, 8]), ("m2", [9])]
    await store.close()


@ASYNC
async def test_sqlite_refuses_a_file_from_a_newer_parlour(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer"):
        SQLiteStore(path)


def test_every_list_query_walks_an_index_and_sorts_nothing(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"


    asyncio.run(SQLiteStore(path).close())  # the schema, empty
    db = sqlite3.connect(path)
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    for game in (None, "loa"):
        for after in (None, (5.0, "m5")):
            storage._list_matches(db, ["open", "running", "over"], game, after, 100)
    db.set_trace_callback(None)
    listed = [statement for statement in statements if statement.startswith("SELECT")
              and "FROM matches" in statement]
    assert len(listed) == 12, statements
    for statement in listed:
        plan = " / ".join(row[3] for row in db.execute("EXPLAIN QUERY PLAN " + statement))
        assert "USING INDEX matches_by_" in plan, (statement, plan)
        assert "TEMP B-TREE" not in plan, (statement, plan)
    db.close()


# --- files made before progress was stored (schema 0) ---

OLD_SCHEMA = """
CREATE TABLE matches (
    id TEXT PRIMARY KEY, created REAL NOT NULL, game TEXT NOT NULL, players INTEGER NOT NULL,
    options TEXT NOT NULL, seed INTEGER NOT NULL, start TEXT, bot_seconds REAL NOT NULL
);
CREATE TABLE seats (
    match_id TEXT NOT NULL REFERENCES matches(id), seat INTEGER NOT NULL, kind TEXT NOT NULL,
    bot TEXT, name TEXT, token_hash TEXT, PRIMARY KEY (match_id, seat)
);
CREATE TABLE events (
    match_id TEXT NOT NULL REFERENCES matches(id), version INTEGER NOT NULL, action INTEGER NOT NULL,
    created REAL NOT NULL, PRIMARY KEY (match_id, version)
);
"""


def played(plies: int | None, seed: int = 5) -> tuple[list[int], Any]:
    """A Lines of Action game's actions (random moves), ``plies`` long or to its end."""
    state = get_game("loa").new(2, {"move_limit": 60}, seed)
    rng = random.Random(seed)
    actions: list[int] = []
    while not state.is_over() and (plies is None or len(actions) < plies):
        action = rng.choice(state.legal_actions())
        state.play(action)
        actions.append(action)
    return actions, state


def old_file(path: Path, matches: list[tuple[str, str, list[str], list[int]]]) -> None:
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    for created, (match_id, game, seats, actions) in enumerate(matches):
        db.execute("INSERT INTO matches VALUES (?, ?, ?, 2, ?, 3, NULL, 1.0)",
                   (match_id, created, game, '{"move_limit": 60}'))
        db.executemany("INSERT INTO seats (match_id, seat, kind, bot) VALUES (?, ?, ?, ?)",
                       [(match_id, seat, kind, "random" if kind == "bot" else None)
                        for seat, kind in enumerate(seats)])
        db.executemany("INSERT INTO events VALUES (?, ?, ?, ?)",
                       [(match_id, version, action, created + version / 1000)
                        for version, action in enumerate(actions, start=1)])
    db.commit()
    db.close()


@ASYNC
async def test_a_file_of_the_old_schema_is_migrated_once_at_open(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    finished, end = played(None)
    midway, now = played(6, seed=8)
    old_file(path, [
        ("waiting", "loa", ["open", "bot"], []),
        ("playing", "loa", ["person", "bot"], midway),
        ("done", "loa", ["person", "person"], finished),
        ("unknown", "no-such-game", ["person", "person"], [1, 2]),
    ])
    store = SQLiteStore(path)
    try:
        rows = {row.id: row for row in await store.load_unfinished()}
        assert sorted(rows) == ["playing", "unknown", "waiting"]  # the finished match is not read
        assert rows["waiting"].progress == Progress("open", 0, 0, None, 0.0)
        playing = rows["playing"].progress
        assert playing is not None
        assert (playing.status, playing.version, playing.to_move) == ("running", 6, now.to_move_json())
        assert rows["playing"].actions == midway
        assert playing.updated == pytest.approx(1 + 6 / 1000)  # its last event's time
        unknown = rows["unknown"].progress  # kept unfinished: start-up says why it cannot resume
        assert unknown is not None
        assert (unknown.status, unknown.version) == ("running", 2)
        done = await store.load_match("done")
        assert done is not None
        assert done.progress is not None
        assert (done.progress.status, done.progress.version) == ("over", len(finished))
        assert done.progress.to_move is None
        assert done.progress.outcome == end.outcome_json()
        assert [row.id for row in await store.list_matches(["over"], "loa", None, 10)] == ["done"]
    finally:
        await store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    (events,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'events'").fetchone()
    assert "WITHOUT ROWID" in events  # the events rebuilt as a new file has them
    # Once: a later open leaves the stored progress alone (here, a mark only a migration would undo).
    db.execute("UPDATE matches SET status = 'expired' WHERE id = 'waiting'")
    db.commit()
    db.close()
    again = SQLiteStore(path)
    try:
        assert [row.id for row in await again.load_unfinished()] == ["playing", "unknown"]
    finally:
        await again.close()


@ASYNC
async def test_memory_pubsub_delivers_in_order_until_unsubscribed() -> None:
    pubsub = MemoryPubSub()
    heard: list[tuple[str, Any]] = []
    stop_a = pubsub.subscribe("match:1", lambda message: heard.append(("a", message["n"])))
    pubsub.subscribe("match:1", lambda message: heard.append(("b", message["n"])))
    pubsub.subscribe("match:2", lambda message: heard.append(("other", message["n"])))
    await pubsub.publish("match:1", {"n": 1})
    stop_a()
    await pubsub.publish("match:1", {"n": 2})
    assert heard == [("a", 1), ("b", 1), ("b", 2)]


def test_migrating_replays_a_retirement_too() -> None:
    """A stored match that ended by a resignation (issue 14) keeps its result when an old file is
    migrated: its leaving action is replayed by the rules of leaving, not refused as a move."""
    from parlour.engine import RESIGNED, retirement

    seats = [storage.SeatRecord("person", token_hash="a"), storage.SeatRecord("person", token_hash="b")]
    progress = storage.replayed_progress("loa", 2, {}, 0, None, [retirement(0, RESIGNED)], seats, 5.0)
    assert progress.status == "over"
    assert progress.outcome is not None
    assert (progress.outcome["winner"], progress.outcome["reason"]) == (1, RESIGNED)
