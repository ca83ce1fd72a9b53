"""The PostgreSQL event store (issue 17): what SQLite's guarantees become with a server in between
(two writers fenced by the key, connections lost, text it cannot hold), and ``parlour serve
--store postgresql://…`` playing, killed and restarted on the same database.

The store tests every store passes are in ``test_server_storage.py`` (parametrised over it)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest
import pytest_asyncio
from postgres_server import PostgresServer, free_port
from server_helpers import Client, open_client, replayed, until_over
from server_process import WAIT, Server
from test_server_boards import (
    test_both_stores_keep_boards_by_game_and_name_page_them_and_cap_them as boards_as_the_stores_keep_them,
)
from test_server_chat import (
    test_both_stores_number_a_match_s_chat_and_read_only_the_latest_asked_for as chat_as_the_stores_keep_it,
)
from test_server_storage import RUNNING, a_match, only, played

from parlour.games import get_game
from parlour.server import database
from parlour.server.postgres import PostgresStore
from parlour.server.storage import (
    SCHEMA_VERSION,
    BoardRow,
    ChatLine,
    Progress,
    SeatRecord,
    SQLiteStore,
    StoreError,
    VersionConflict,
    progress_of,
)

ASYNC = pytest.mark.asyncio(loop_scope="session")
LOA = get_game("loa")


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """A schema of this test's own in the session's PostgreSQL."""
    return postgres.fresh()


@pytest_asyncio.fixture
async def store(url: str) -> AsyncIterator[PostgresStore]:
    made = PostgresStore(url)
    yield made
    await made.close()


def named(url: str, name: str) -> str:
    """The URL with an ``application_name``, by which the test finds the store's connections."""
    return f"{url}&application_name={name}"


def backends(url: str, name: str) -> list[int]:
    with psycopg.connect(url, autocommit=True) as db:
        return [pid for (pid,) in db.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (name,)).fetchall()]


@ASYNC
async def test_it_keeps_chat_as_the_other_stores_do(store: PostgresStore) -> None:
    """test_server_chat.py's store test (its fixture has the other two stores)."""
    await chat_as_the_stores_keep_it(store)


@ASYNC
async def test_it_keeps_boards_as_the_other_stores_do(store: PostgresStore) -> None:
    """test_server_boards.py's store test (its fixture has the other two stores)."""
    await boards_as_the_stores_keep_them(store)


@ASYNC
async def test_two_writers_never_both_commit_a_version(url: str) -> None:
    """'the store's expected-version check fences a writer … so two writers can never both commit':
    two stores (as two processes would) append to the same match at the same version, again and
    again; exactly one of each pair commits, the other hears VersionConflict."""
    first, second = PostgresStore(url), PostgresStore(url)
    try:
        await first.create(a_match())
        for version in range(20):
            outcomes = await asyncio.wait_for(asyncio.gather(
                first.append("m1", version, [100 + version], Progress("running", version + 1, 0, None)),
                second.append("m1", version, [200 + version], Progress("running", version + 1, 1, None)),
                return_exceptions=True,
            ), WAIT)
            assert None in outcomes, outcomes
            assert any(isinstance(outcome, VersionConflict) for outcome in outcomes), outcomes
        loaded = await only(first)
        assert len(loaded.actions) == 20
        assert loaded.progress is not None
        assert loaded.progress.version == 20
    finally:
        await first.close()
        await second.close()


@ASYNC
async def test_a_writer_stopped_mid_transaction_neither_commits_nor_blocks_the_next(url: str) -> None:
    """A process stopped between its INSERT and its COMMIT (SIGSTOP, a hung host) holds the
    version's key: PostgreSQL ends its transaction, the next writer then commits that version,
    and the stopped one's action is not in the record."""
    stopped, next_writer = PostgresStore(url), PostgresStore(url)
    try:
        await stopped.create(a_match())
        db = await stopped._writers[0].open()
        await db.execute("BEGIN")
        await db.execute("INSERT INTO events (match_id, version, action, created) VALUES ('m1', 1, 666, 0)")
        await asyncio.wait_for(next_writer.append("m1", 0, [5], RUNNING), WAIT)
        assert (await only(next_writer)).actions == [5]
        with pytest.raises(psycopg.Error):  # its session was ended under it
            await db.execute("COMMIT")
        assert (await only(stopped)).actions == [5]  # and its store reconnects
    finally:
        await stopped.close()
        await next_writer.close()


@ASYNC
async def test_chat_said_through_two_writers_at_once_takes_the_next_numbers(url: str) -> None:
    first, second = PostgresStore(url), PostgresStore(url)
    try:
        await first.create(a_match())
        for round_ in range(5):
            said = await asyncio.wait_for(asyncio.gather(
                first.add_chat("m1", ChatLine(0, "players", 0, "Ann", f"hi {round_}", 1.0), 100),
                second.add_chat("m1", ChatLine(0, "players", 1, "Bob", f"hello {round_}", 1.0), 100),
            ), WAIT)
            assert sorted(line.id for line in said if line is not None) == [2 * round_ + 1, 2 * round_ + 2]
        lines = await first.load_chat("m1", ["players"], 100)
        assert [line.id for line in lines] == list(range(1, 11))
    finally:
        await first.close()
        await second.close()


@ASYNC
async def test_nul_text_fails_its_call_and_stores_nothing(store: PostgresStore) -> None:
    """PostgreSQL's text cannot hold NUL: StoreError, the caller's state unchanged, the store writing on."""
    with pytest.raises(StoreError):
        await store.create(a_match(seats=[SeatRecord("person", name="A\x00nn", token_hash="h"),
                                          SeatRecord("open")]))
    assert await store.load_match("m1") is None
    await store.create(a_match())
    said = ChatLine(0, "players", 0, "Ann", "hello", 5.0)
    with pytest.raises(StoreError):
        await store.add_chat("m1", ChatLine(0, "players", 0, "Ann", "he\x00llo", 5.0), 10)
    assert (await store.add_chat("m1", said, 10)) == ChatLine(1, "players", 0, "Ann", "hello", 5.0)
    with pytest.raises(StoreError):
        await store.claim_seat("m1", 0, "hash", "B\x00b", RUNNING)
    assert (await only(store)).seats[0].kind == "open"
    assert await store.claim_seat("m1", 0, "hash", "Bob", RUNNING) is True


@ASYNC
async def test_a_lost_connection_is_opened_again(url: str) -> None:
    """Connections the database dropped (a restart, an administrator) are replaced: a read, and a
    write that had not reached its COMMIT, go through on a new one, once, with nothing doubled."""
    store = PostgresStore(named(url, "dropped"))
    try:
        await store.create(a_match())
        await store.load_match("m1")  # a reading connection open too
        pids = backends(url, "dropped")
        assert len(pids) >= 2, pids
        with psycopg.connect(url, autocommit=True) as db:
            for pid in pids:
                db.execute("SELECT pg_terminate_backend(%s)", (pid,))
        await asyncio.wait_for(store.append("m1", 0, [7], RUNNING), WAIT)
        loaded = await asyncio.wait_for(only(store), WAIT)
        assert (loaded.actions, loaded.progress) == ([7], RUNNING)
        assert not set(backends(url, "dropped")) & set(pids)
    finally:
        await store.close()


class LosesTheAnswer:
    """The writing connection, but the answer to its next COMMIT is lost once it is committed (the
    connection closes under it), as when the network fails between PostgreSQL and the server."""

    def __init__(self, db: Any) -> None:
        self.db = db

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        async with self.db.transaction():
            yield
        await self.db.close()
        raise psycopg.OperationalError("server closed the connection unexpectedly")


@ASYNC
async def test_an_append_whose_answer_was_lost_is_neither_lost_nor_doubled(store: PostgresStore) -> None:
    """'no acknowledged action is lost or duplicated': an append committed but unconfirmed is
    looked up in the record (ours: done), not sent again; one not committed is sent again."""
    await store.create(a_match())
    await store.append("m1", 0, [5], RUNNING)
    store._writers[0].db = LosesTheAnswer(store._writers[0].db)  # type: ignore[assignment]
    await asyncio.wait_for(store.append("m1", 1, [6, 7], Progress("running", 3, 1, None)), WAIT)
    loaded = await only(store)
    assert loaded.actions == [5, 6, 7]
    assert loaded.progress == Progress("running", 3, 1, None, loaded.progress.updated)  # type: ignore[union-attr]
    with pytest.raises(VersionConflict):  # the store knows where the match is
        await store.append("m1", 1, [8], RUNNING)
    await store.append("m1", 3, [8], RUNNING)
    assert (await only(store)).actions == [5, 6, 7, 8]


@ASYNC
async def test_a_database_that_does_not_answer_is_a_store_error_not_a_hang(url: str) -> None:
    """A connection whose server process is frozen (SIGSTOP): the call fails within the store's
    bound, the record is unchanged, and once it answers again the store writes on."""
    store = PostgresStore(named(url, "frozen"), call_seconds=1.0)
    try:
        await store.create(a_match())
        [pid] = backends(url, "frozen")  # the writer's
        os.kill(pid, signal.SIGSTOP)
        try:
            with pytest.raises(StoreError, match="did not answer"):
                await asyncio.wait_for(store.append("m1", 0, [7], RUNNING), WAIT)
        finally:
            os.kill(pid, signal.SIGCONT)
        assert (await only(store)).actions == []
        await asyncio.wait_for(store.append("m1", 0, [8], RUNNING), WAIT)
        assert (await only(store)).actions == [8]
    finally:
        await store.close()


def test_no_database_at_the_address_is_a_store_error() -> None:
    with pytest.raises(StoreError):
        PostgresStore(f"postgresql://parlour@127.0.0.1:{free_port()}/parlour")


@ASYNC
async def test_a_database_of_a_newer_parlour_is_refused(url: str, store: PostgresStore) -> None:
    with psycopg.connect(url, autocommit=True) as db:
        assert db.execute("SELECT version FROM parlour_schema").fetchall() == [(SCHEMA_VERSION,)]
        db.execute("UPDATE parlour_schema SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer"):
        PostgresStore(url)


@ASYNC
async def test_a_restarted_postgresql_refuses_while_down_and_serves_when_back(tmp_path: Path) -> None:
    """'PostgreSQL restarted: actions during the outage are refused … and the match is unchanged;
    play continues when it is back' (the store's part: StoreError, then the same store writes on)."""
    own = PostgresServer().start()
    try:
        store = PostgresStore(own.url(), call_seconds=3.0)
        await store.create(a_match())
        await store.append("m1", 0, [1], RUNNING)
        own.halt("immediate")
        with pytest.raises(StoreError):
            await asyncio.wait_for(store.append("m1", 1, [2], RUNNING), WAIT)
        with pytest.raises(StoreError):
            await asyncio.wait_for(store.load_match("m1"), WAIT)
        own.start()
        await asyncio.wait_for(store.append("m1", 1, [3], RUNNING), WAIT)
        assert (await only(store)).actions == [1, 3]
        await store.close()
    finally:
        own.stop()


# --- a real server on PostgreSQL ---


@pytest.fixture
def pg_server(tmp_path: Path, url: str) -> Iterator[Server]:
    running = Server(tmp_path, flags=["--store", url]).start()
    yield running
    running.stop()


@ASYNC
async def test_serve_on_postgresql_plays_is_killed_and_resumes(
    pg_server: Server, url: str, clients: list[Client],
) -> None:
    """``parlour serve --store postgresql://…`` plays a match to its end and another part-way, is
    killed (SIGKILL) and restarted on the same database: both are there, their events replay."""
    server = pg_server
    bots = server.create(game="loa", seats=["bot:random", "bot:random"], bot_seconds=0.01, seed=4)
    bots_id = bots["match"]["id"]
    await until_over(server, bots_id)
    people = server.create(game="loa", seats=["open", "open"], join=0, seed=1)
    people_id = people["match"]["id"]
    tokens = [people["token"], server.join(people_id)["token"]]
    players = [await open_client(clients, server, people_id, f"person {seat}") for seat in (0, 1)]
    for seat in (0, 1):
        await players[seat].hello(tokens[seat])
    played = []
    for ply in range(3):
        text = players[ply % 2].seen[-1]["legal"][0]["text"]
        await players[ply % 2].send({"type": "action", "text": text, "version": ply})
        played.append(text)
        for client in players:
            await client.expect("update", version=ply + 1)
    finished = server.summary(bots_id)

    server.kill()
    server.start()

    assert not server.db.exists(), "the SQLite file was used"
    assert server.summary(bots_id) == finished
    watcher = await open_client(clients, server, bots_id, "watching the finished match")
    state = await watcher.hello()
    assert state["status"] == "over"
    end = replayed(LOA, state)
    assert end.is_over()
    assert state["view"]["outcome"] == end.outcome_json()
    assert len(state["events"]) == finished["version"]
    again = await open_client(clients, server, people_id, "person 1 again")
    state = await again.hello(tokens[1])
    assert (state["version"], [event["action"] for event in state["events"]]) == (3, played)
    await again.send({"type": "action", "text": state["legal"][0]["text"], "version": 3})
    await again.expect("update", version=4)
    with psycopg.connect(url) as db:
        counts = dict(db.execute("SELECT match_id, COUNT(*) FROM events GROUP BY match_id").fetchall())
    assert counts == {bots_id: finished["version"], people_id: 4}


def serve(*flags: str) -> subprocess.CompletedProcess[str]:
    """``parlour serve`` with these flags, expected to stop before it listens."""
    return subprocess.run([sys.executable, "-m", "parlour.cli", "serve", "--port", "0", *flags],
                          capture_output=True, text=True, timeout=WAIT, check=False, stdin=subprocess.DEVNULL)


def test_serve_refuses_a_store_it_cannot_use(tmp_path: Path) -> None:
    done = serve("--store", "mysql://x/y")
    assert done.returncode == 2
    assert "postgresql://" in done.stderr
    # Listening for other machines, a cluster's process must say how they reach it.
    done = serve("--store", "postgresql://parlour@127.0.0.1:1/parlour", "--host", "0.0.0.0")
    assert done.returncode == 2
    assert "--node-address http://THIS-MACHINE:PORT" in done.stderr
    done = serve("--node-address", "http://10.0.0.1:8080")
    assert done.returncode == 2
    assert "postgresql://" in done.stderr
    nobody = f"postgresql://parlour:secret@127.0.0.1:{free_port()}/parlour"
    done = serve("--store", nobody)
    assert done.returncode == 1
    assert "cannot open the database postgresql://parlour:***@127.0.0.1" in done.stderr  # no password shown
    assert "secret" not in done.stderr


# --- parlour db migrate ---


async def a_club_file(path: Path) -> list[str]:
    """A SQLite file with a bit of everything: a finished match with chat, a clocked one part-way,
    its rematch waiting, an expired one, a saved board. The match ids."""
    store = SQLiteStore(path)
    try:
        finished, end = played(None)
        seats = [SeatRecord("person", name="Ann", token_hash="a"), SeatRecord("bot", bot="random")]
        await store.create(a_match("done", created=1.0, seats=seats))
        await store.append("done", 0, finished, replace(progress_of(end, []), updated=3.0))
        for number, text in enumerate(["good game", "thanks — again?"]):
            await store.add_chat("done", ChatLine(0, "players", number, "Ann", text, 4.0 + number), 100)
        midway, now = played(6, seed=8)
        clocked = replace(a_match("clocked", created=2.0), clock={"base": 300, "increment": 2})
        await store.create(clocked)
        await store.append("clocked", 0, midway, Progress("running", 6, now.to_move_json(), None, 5.0),
                           [(ply % 2, 1.5, 298.5 - ply) if ply != 3 else None for ply in range(6)])
        await store.create(replace(a_match("again", created=6.0), rematch_of="done"))
        await store.create(a_match("quiet", created=0.5, progress=Progress("expired", 0, 0, None, 9.0)))
        board = BoardRow("conflict", "islands", "map text\n", 12, 10, "Bob", 7.0, "10.0.0.9")
        await store.add_board(board, 10)
    finally:
        await store.close()
    return ["again", "clocked", "done", "quiet"]


def test_migrate_copies_everything_and_checks_it(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str],
) -> None:
    """'parlour db migrate --from FILE.sqlite --to postgresql://… copies everything, checked by
    counts and by replaying every match on both sides.'"""
    path = tmp_path / "club.sqlite3"
    ids = asyncio.run(a_club_file(path))
    assert database.main(["migrate", "--from", str(path), "--to", url]) == 0
    said = capsys.readouterr().out
    assert "4 matches, 8 seats, " in said, said
    assert "2 chat lines, 1 boards" in said, said
    assert "4 matches replay to the same position on both" in said, said

    async def both() -> tuple[list[Any], list[Any]]:
        sides: list[list[Any]] = []
        for store in (SQLiteStore(path), PostgresStore(url)):
            try:
                sides.append([
                    [await store.load_match(match_id) for match_id in ids],
                    [row.id for row in await store.load_unfinished()],
                    await store.load_chat("done", ["players", "spectators"], 10),
                    await store.list_boards("conflict", None, 10),
                    [row.id for row in await store.list_matches(["over", "expired", "open"], None, None, 10)],
                ])
            finally:
                await store.close()
        return sides[0], sides[1]

    sqlite_side, postgres_side = asyncio.run(both())
    assert postgres_side == sqlite_side
    copied = {row.id: row for row in postgres_side[0]}
    assert copied["clocked"].times[3] is None
    assert copied["clocked"].times[0] == (0, 1.5, 298.5)
    assert (copied["done"].rematch, copied["again"].rematch_of) == ("again", "done")
    assert len(copied["done"].actions) > 6
    # A second time into the same database: refused, nothing added.
    assert database.main(["migrate", "--from", str(path), "--to", url]) == 1
    assert "already holds" in capsys.readouterr().err
    assert asyncio.run(both())[1] == postgres_side


def test_the_check_finds_a_copy_that_differs(tmp_path: Path, url: str) -> None:
    path = tmp_path / "club.sqlite3"
    asyncio.run(a_club_file(path))
    done = database.migrate(path, url)
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DELETE FROM events WHERE match_id = 'clocked' AND version = 6")
    with pytest.raises(database.MigrateError, match="clocked"):
        asyncio.run(database.check_copy(SQLiteStore(path), PostgresStore(url), done.counts))


def test_migrate_from_no_file_or_to_no_postgresql(tmp_path: Path, url: str) -> None:
    assert database.main(["migrate", "--from", str(tmp_path / "none.sqlite3"), "--to", url]) == 1
    assert database.main(["migrate", "--from", str(tmp_path / "none.sqlite3"), "--to", "mysql://x/y"]) == 2


class Explained:
    """A reading connection that, before each statement, asks PostgreSQL how it would run it
    (scans of the table and sorts priced out: where an index can serve, the plan shows that it
    does; with the few rows of a test, a sort would be cheaper)."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.plans: list[tuple[str, str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)

    async def execute(self, query: Any, params: Any = None) -> Any:
        for plan in ("seqscan", "bitmapscan", "sort"):
            await self.db.execute(f"SET LOCAL enable_{plan} = off")
        cursor = await self.db.execute(f"EXPLAIN {query}", params)
        self.plans.append((str(query), " / ".join(line for (line,) in await cursor.fetchall())))
        return await self.db.execute(query, params)


@ASYNC
async def test_every_list_query_walks_an_index_and_sorts_nothing(store: PostgresStore) -> None:
    """As SQLite's: each page of the lobby, of a game's library and of a match's chat is a walk
    down an index from the cursor, never a sort of the table."""
    await store.create(a_match())
    watched = []
    for link in store._readers:
        await link.open()
        link.db = Explained(link.db)  # type: ignore[assignment]
        watched.append(link.db)
    for game in (None, "loa"):
        for after in (None, (5.0, "m5")):
            await store.list_matches(["open", "running", "over"], game, after, 100)
    await store.list_boards("conflict", None, 100)
    await store.list_boards("conflict", (5.0, "islands"), 100)
    await store.load_chat("m1", ["players"], 50)
    plans = [plan for explained in watched for plan in explained.plans]  # type: ignore[attr-defined]
    listing = [(query, plan) for query, plan in plans
               if "ORDER BY created DESC" in query or "FROM chat" in query]
    assert len(listing) == 15, plans
    for query, plan in listing:
        assert "Index" in plan, (query, plan)
        assert "Sort" not in plan, (query, plan)
