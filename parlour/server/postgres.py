"""The event store on PostgreSQL: the same tables, rows and guarantees as ``SQLiteStore``, for
servers that outgrow one machine (``parlour serve --store postgresql://…``).

Events are append-only rows keyed (match_id, version): two writers (two processes, later) can
never both commit one version of a match, because the key is unique; the one that loses hears
``VersionConflict``. Every write is one transaction that stores the match's progress with its
change, so the lobby lists and pages matches by index without replaying any.

Connections (psycopg's async API, no pool): a few for writes, each used under a lock (one
transaction at a time), and a couple for reads. Appends are committed in groups, as SQLite's writer
commits them: those asked together (in one turn of the event loop, or while earlier batches are
written) go in one transaction by one statement (``APPEND_MANY``), each caller answered for its
own. A connection that is lost is dropped and opened again by the next call; every call is bounded
in time (``CALL_SECONDS``), so an unreachable database answers ``StoreError``, never a hang. A
write whose connection turns out dead before its ``COMMIT`` was sent is tried once more on a new
one (nothing of it can have been committed). An append whose ``COMMIT`` went unanswered is settled
by reading the record (its own events there: done; none: sent again; another writer's:
``VersionConflict``), so it is never stored twice; other writes lost during their ``COMMIT`` are
reported, not repeated. A call that runs out of time before its ``COMMIT`` is sent is surely not
committed: every write runs in a transaction, which PostgreSQL rolls back when the connection
closes (or, for a process that stopped, after ``IDLE_SECONDS``).

The same database holds the cluster's leases (``PostgresLeases``, ``leases.py``): which process
writes which match, each lease a row naming a node whose own row is timed by the database's clock,
on a connection of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import math
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, TypeVar

import psycopg
from psycopg import AsyncConnection, errors, sql

from parlour.engine import Action
from parlour.server.leases import LEASE_SECONDS, Leases, Node
from parlour.server.storage import (
    BOARD_COLUMNS,
    MATCH_COLUMNS,
    SCHEMA_VERSION,
    BoardRow,
    BoardSaved,
    ChatLine,
    ChatRoom,
    ClockMark,
    EventsAfter,
    MatchRow,
    MatchStatus,
    Progress,
    SeatRecord,
    StoreError,
    VersionConflict,
    clock_mark,
    match_row,
    progress_values,
    store_json,
)

T = TypeVar("T")
Conn = AsyncConnection[tuple[Any, ...]]

CONNECT_SECONDS: Final = 5
STATEMENT_SECONDS: Final = 5
IDLE_SECONDS: Final = 3
"""A transaction of ours idle this long is a process that stopped: PostgreSQL ends it."""
LOCK_SECONDS: Final = 4
CALL_SECONDS: Final = 10.0
"""The most one call of the store may take, connecting included: then ``StoreError``."""

CHAT_TRIES: Final = 5
"""Chat lines of one match said at once through several processes: each takes the next number."""

SCHEMA_LOCK: Final = 0x70A7100
"""The advisory lock under which a process makes or checks the tables (several may start at once)."""

# The SQLite schema's tables, in PostgreSQL's types. Keys are compared byte by byte (COLLATE "C"),
# as SQLite and Python compare them, so pages come in the same order on every store.
SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS parlour_schema (
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT COLLATE "C" PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    game TEXT COLLATE "C" NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed BIGINT NOT NULL,
    start TEXT,
    bot_seconds DOUBLE PRECISION NOT NULL,
    status TEXT COLLATE "C" NOT NULL DEFAULT 'running',
    version INTEGER NOT NULL DEFAULT 0,
    to_move TEXT,
    outcome TEXT,
    updated DOUBLE PRECISION NOT NULL DEFAULT 0,
    clock TEXT,
    rematch_of TEXT COLLATE "C"
);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT COLLATE "C" NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    name TEXT,
    token_hash TEXT,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    match_id TEXT COLLATE "C" NOT NULL REFERENCES matches(id),
    version INTEGER NOT NULL,
    action BIGINT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    clock TEXT,
    PRIMARY KEY (match_id, version)
);
CREATE TABLE IF NOT EXISTS chat (
    match_id TEXT COLLATE "C" NOT NULL REFERENCES matches(id),
    id INTEGER NOT NULL,
    room TEXT NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, id)
);
CREATE TABLE IF NOT EXISTS boards (
    game TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    text TEXT NOT NULL,
    cols INTEGER NOT NULL,
    rows INTEGER NOT NULL,
    author TEXT,
    created DOUBLE PRECISION NOT NULL,
    address TEXT NOT NULL,
    PRIMARY KEY (game, name)
);
CREATE INDEX IF NOT EXISTS matches_by_status ON matches (status, created DESC, id DESC);
CREATE INDEX IF NOT EXISTS matches_by_game ON matches (game, status, created DESC, id DESC);
CREATE UNIQUE INDEX IF NOT EXISTS matches_by_rematch_of ON matches (rematch_of) WHERE rematch_of IS NOT NULL;
CREATE INDEX IF NOT EXISTS boards_by_age ON boards (game, created DESC, name DESC);
"""
# As in SQLite: the lobby pages newest first within one status (and one game), a walk down one
# index from the cursor; the rematch index finds a match's rematch and refuses a second one.

APPEND: Final = """
WITH fence AS (
    SELECT %(node)s::text IS NULL OR EXISTS (
        SELECT 1 FROM leases WHERE match_id = %(id)s AND node = %(node)s FOR SHARE) AS held
), stored AS (
    SELECT COALESCE(MAX(version), 0) AS version FROM events WHERE match_id = %(id)s
), allowed AS (
    SELECT (SELECT held FROM fence) AND (SELECT version FROM stored) = %(expected)s AS yes
), added AS (
    INSERT INTO events (match_id, version, action, created, clock)
    SELECT %(id)s, %(expected)s + n, action, %(now)s, clock
    FROM unnest(%(actions)s::bigint[], %(clocks)s::text[]) WITH ORDINALITY AS given (action, clock, n)
    WHERE (SELECT yes FROM allowed)
), moved AS (
    UPDATE matches SET status = %(status)s, version = %(version)s, to_move = %(to_move)s,
        outcome = %(outcome)s, updated = %(updated)s
    WHERE id = %(id)s AND (SELECT yes FROM allowed)
    RETURNING id
)
SELECT (SELECT version FROM stored), (SELECT COUNT(*) FROM moved), (SELECT held FROM fence)
"""
# An append in one statement (the expected-version check, its events, the match's progress): one
# round trip between BEGIN and COMMIT instead of four (a fifth of a millisecond of the server's
# CPU per append, not half); both changes happen only if the stored version is the expected one,
# and a writer that looked at the same moment fails on the events' key, all of it undone.
# In a cluster (``node`` given), only the match's lease holder may append: its lease row is locked
# (FOR SHARE) until the append commits, so a take-over waits for it and then reads what it wrote,
# and a writer whose match was taken over (paused past its lease) is refused even when the version
# it expects is still the stored one: the new writer may have read the match already.

APPEND_MANY: Final = """
WITH given AS (
    SELECT * FROM unnest(%(ids)s::text[], %(expected)s::integer[], %(statuses)s::text[],
                         %(versions)s::integer[], %(to_moves)s::text[], %(outcomes)s::text[],
                         %(updated)s::float8[])
        AS given (id, expected, status, version, to_move, outcome, updated)
), fence AS MATERIALIZED (
    SELECT match_id FROM leases WHERE match_id = ANY(%(ids)s) AND node = %(node)s ORDER BY match_id FOR SHARE
), checked AS MATERIALIZED (
    SELECT given.*,
        %(node)s::text IS NULL OR given.id IN (SELECT match_id FROM fence) AS held,
        COALESCE((SELECT MAX(version) FROM events WHERE events.match_id = given.id), 0) AS stored,
        EXISTS (SELECT 1 FROM matches WHERE matches.id = given.id) AS known
    FROM given
), allowed AS MATERIALIZED (
    SELECT * FROM checked WHERE held AND stored = expected AND known
), added AS (
    INSERT INTO events (match_id, version, action, created, clock)
    SELECT allowed.id, allowed.expected + event.n, event.action, event.created, event.clock
    FROM unnest(%(event_ids)s::text[], %(event_ns)s::integer[], %(actions)s::bigint[], %(created)s::float8[],
                %(clocks)s::text[]) AS event (match_id, n, action, created, clock)
    JOIN allowed ON allowed.id = event.match_id
), moved AS (
    UPDATE matches SET status = allowed.status, version = allowed.version, to_move = allowed.to_move,
        outcome = allowed.outcome, updated = allowed.updated
    FROM allowed WHERE matches.id = allowed.id
    RETURNING matches.id
)
SELECT checked.id, checked.stored, checked.held, checked.id IN (SELECT id FROM moved) FROM checked
"""
# ``APPEND`` for many matches at once (group commit): per match the same fence, stored-version check,
# events and progress, and the same answers (stored version, whether its row moved, whether it was
# held), so that k appends cost one transaction of three round trips, not k. The lease rows are
# locked in the order of their keys (as another process's batch would lock them), and the check
# that the match exists keeps a missing match from failing the statement on the events' foreign
# key. A key taken meanwhile by another writer (or a deadlock between two writers of the same
# matches) still fails the whole statement: its appends are then written one by one.

# --- the cluster's leases (leases.py) ---
#
# A lease is a row (match, node); it is live while its node's row is: a node renews ALL its leases
# by extending its own row, one write a round whatever the number of matches it holds. Every
# unfinished match has a lease row from the moment it is made (a trigger), held by NOBODY (a node
# whose row is never live) until a process takes it, and again once its writer lets it go while
# unfinished; a finished match's row is deleted by its writer. So the matches to take over are
# exactly the rows of dead nodes, the oldest first in the index of leases by (node, age), found
# without looking at the live nodes' rows (``UNATTENDED``). Rows are the cluster's, not the
# record's: a migration copies none (the trigger makes the unfinished matches' rows as they are
# copied).

NOBODY: Final = ""
"""The node holding the matches nobody holds: never a process's id (a uuid4's hex), never live."""

LEASE_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS nodes (
    id TEXT COLLATE "C" PRIMARY KEY,
    address TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS leases (
    match_id TEXT COLLATE "C" PRIMARY KEY,
    node TEXT COLLATE "C" NOT NULL,
    created DOUBLE PRECISION
)""",
    "CREATE INDEX IF NOT EXISTS leases_by_age ON leases (node, created, match_id)",
    "INSERT INTO nodes (id, address, expires) VALUES ('', '', '-infinity') ON CONFLICT (id) DO NOTHING",
    """CREATE OR REPLACE FUNCTION parlour_unheld() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO leases (match_id, node, created) VALUES (NEW.id, '', NEW.created)
    ON CONFLICT (match_id) DO NOTHING;
    RETURN NULL;
END $$""",
    """CREATE OR REPLACE TRIGGER matches_unheld AFTER INSERT ON matches FOR EACH ROW
WHEN (NEW.status IN ('open', 'running')) EXECUTE FUNCTION parlour_unheld()""",
    """INSERT INTO leases (match_id, node, created) SELECT id, '', created FROM matches
WHERE status IN ('open', 'running') ON CONFLICT (match_id) DO NOTHING""",
)
"""The lease tables, made with the others (and for a database made before them: its unfinished
matches' rows too). A lease has no key to a match or a node: a writer may take a match before
anything else of it is read, and a node row is pruned once it holds nothing (``PRUNE``). It keeps
its match's age (``created``), so that a dead node's oldest matches are the first of its index."""

BEAT: Final = """
INSERT INTO nodes (id, address, expires)
VALUES (%(node)s, %(address)s, clock_timestamp() + make_interval(secs => %(seconds)s))
ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address, expires = EXCLUDED.expires
"""
# This node is alive until then, and with it every lease it holds: the one write of a renewal.

TAKE: Final = """
INSERT INTO leases (match_id, node, created)
VALUES (%(id)s, %(node)s, (SELECT created FROM matches WHERE id = %(id)s))
ON CONFLICT (match_id) DO UPDATE SET node = EXCLUDED.node
WHERE leases.node = ''
    OR EXISTS (SELECT 1 FROM nodes WHERE nodes.id = leases.node AND nodes.expires < clock_timestamp()
               FOR SHARE)
    OR NOT EXISTS (SELECT 1 FROM nodes WHERE nodes.id = leases.node)
RETURNING node
"""
# One statement: a match nobody holds, or whose holder's node has run out, becomes ours; a live
# node's (ours too: nothing to write) is left alone (no row returned). Two nodes taking at once:
# the key makes the second wait for the first's row, then judge it as committed. The holder's
# node row is locked while judged dead: a renewal of that node waits for the take to commit (and
# then finds the match gone), or the take waits for the renewal (and then finds the node alive),
# so a node never hears that it keeps a match another took. Run after ``BEAT``, in a transaction
# of its own: holding our node's row while waiting for a match's row could deadlock with a take
# that holds the match's row and waits to judge our node.

HOLDER: Final = ("SELECT nodes.id, nodes.address FROM leases JOIN nodes ON nodes.id = leases.node"
                 " WHERE leases.match_id = %s AND nodes.expires >= clock_timestamp()")
# Read in a statement of its own after a take that changed nothing: a row committed by another
# node while the take waited is not in the take's snapshot, but is in this one's. A lease that
# ran out (or was dropped) in between names nobody: the take is tried again.

HELD: Final = "SELECT match_id FROM leases WHERE node = %s AND match_id = ANY(%s)"
# After ``BEAT``, in a snapshot of its own: a take that judged this node dead has committed by
# then (the beat waited for it), so a match taken meanwhile is not answered as still ours. Still
# ours even if the node had run out, as long as no other node took it: nobody else can have
# written the match since.

DROP_OVER: Final = """
DELETE FROM leases WHERE match_id = ANY(%(ids)s) AND node = %(node)s
    AND NOT EXISTS (SELECT 1 FROM matches
                    WHERE matches.id = leases.match_id AND matches.status IN ('open', 'running'))
"""
DROP_UNFINISHED: Final = "UPDATE leases SET node = '' WHERE match_id = ANY(%(ids)s) AND node = %(node)s"
# A finished (or unknown) match's row goes; an unfinished one's is nobody's: taken over at once.

EXPIRE: Final = """
WITH ran_out AS (
    UPDATE nodes SET expires = clock_timestamp() WHERE id = %s AND expires > clock_timestamp() RETURNING id
)
SELECT COUNT(*) FROM leases WHERE node IN (SELECT id FROM ran_out)
"""
# The node's row run out, not deleted: its leases, all at once, are then as any dead node's.

UNATTENDED: Final = """
WITH oldest AS MATERIALIZED (
    SELECT held.match_id, held.node, held.created
    FROM nodes
    CROSS JOIN LATERAL (
        SELECT match_id, node, created FROM leases WHERE leases.node = nodes.id
        ORDER BY created, match_id LIMIT %(most)s
    ) AS held
    WHERE nodes.expires < clock_timestamp()
    ORDER BY held.created, held.match_id LIMIT %(most)s
)
SELECT oldest.match_id, oldest.node, COALESCE(found.status IN ('open', 'running'), false)
FROM oldest
LEFT JOIN LATERAL (SELECT status FROM matches WHERE matches.id = oldest.match_id OFFSET 0) AS found ON true
ORDER BY oldest.created, oldest.match_id
"""
# The oldest leases of dead nodes (NOBODY's among them): the first ``most`` of each dead node's
# index, never the live nodes' thousands nor all of a dead one's, then each match's status by its
# key (OFFSET 0 keeps the planner from reading all the matches instead). Finished matches never
# (their writer died before letting go): their rows are answered apart, to delete, and the next
# call finds the matches after them.

FORGET: Final = """
DELETE FROM leases USING unnest(%s::text[], %s::text[]) AS stale (match_id, node)
WHERE leases.match_id = stale.match_id AND leases.node = stale.node
"""

PRUNE: Final = """
DELETE FROM nodes WHERE id <> '' AND expires < clock_timestamp() - make_interval(secs => %s)
    AND NOT EXISTS (SELECT 1 FROM leases WHERE leases.node = nodes.id OFFSET 0)
"""
# A node dead a long while (PRUNE_SECONDS) that holds nothing any more is forgotten, so that the
# nodes of past process starts do not pile up; one that wakes up after all is made again by its beat.

PRUNE_SECONDS: Final = 3600.0

TAKE_TRIES: Final = 3
"""A take that found another's lease, which then ran out or was dropped before it was read: again."""

FENCE: Final = "SELECT 1 FROM leases WHERE match_id = %s AND node = %s FOR SHARE"
# The lease row of a match this node holds, locked as ``APPEND``'s fence locks it.

CREATOR_HOLDS: Final = "UPDATE leases SET node = %s WHERE match_id = %s"
# In the creation's transaction, after the trigger made the row nobody's.

SET_PROGRESS: Final = ("UPDATE matches SET status = %s, version = %s, to_move = %s, outcome = %s,"
                       " updated = %s WHERE id = %s")


def schema_of(db: psycopg.Connection[tuple[Any, ...]]) -> None:
    """Makes the tables of an empty database (or schema), or checks that those there are today's."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        found = db.execute("SELECT to_regclass('parlour_schema') IS NOT NULL").fetchone()
        version = None
        if found is not None and found[0]:
            row = db.execute("SELECT version FROM parlour_schema").fetchone()
            version = None if row is None else int(row[0])
        if version is not None and version > SCHEMA_VERSION:
            raise StoreError(f"the database has schema {version}, newer than this parlour's {SCHEMA_VERSION}")
        # The leases came after schema 5 on PostgreSQL only (SQLite has none): a database made
        # before them gets them, every statement making only what is missing. One made with
        # leases of another shape (a row timed by itself, before ``nodes``) has that table made
        # anew: its rows are the cluster's, not the record's, and a cluster is stopped to be upgraded.
        found = db.execute("SELECT to_regclass('nodes') IS NOT NULL"
                           " AND to_regclass('leases_by_age') IS NOT NULL").fetchone()
        current = found is not None and bool(found[0])
        if version is None or version < SCHEMA_VERSION or not current:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            if not current:
                db.execute("DROP TABLE IF EXISTS leases")
            for statement in LEASE_SCHEMA:
                db.execute(statement)
            db.execute("DELETE FROM parlour_schema")
            db.execute("INSERT INTO parlour_schema (version) VALUES (%s)", (SCHEMA_VERSION,))


def copy_rows(url: str, tables: Sequence[tuple[str, str, Iterable[Sequence[Any]]]]) -> dict[str, int]:
    """Copies rows into tables that must be empty, in one transaction (all of them or nothing),
    by ``COPY``; the rows copied, by table."""
    counts: dict[str, int] = {}
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_SECONDS) as db, db.transaction():
            for table, _, _ in tables:
                counting = sql.SQL("SELECT COUNT(*) FROM {}").format(sql.Identifier(table))
                found = db.execute(counting).fetchone()
                if found is not None and found[0]:
                    raise StoreError(f"the database already holds {found[0]} rows of {table}: "
                                     "migrate into an empty one")
            for table, columns, rows in tables:
                copied = 0
                names = sql.SQL(", ").join(sql.Identifier(name.strip()) for name in columns.split(","))
                statement = sql.SQL("COPY {} ({}) FROM STDIN").format(sql.Identifier(table), names)
                with db.cursor().copy(statement) as copy:
                    for row in rows:
                        copy.write_row(row)
                        copied += 1
                counts[table] = copied
    except psycopg.Error as error:
        raise StoreError(f"storage: {_said(error)}") from None
    return counts


class _Link:
    """One connection to the database, opened when first needed and again after it was lost."""

    def __init__(self, url: str, reads: bool = False) -> None:
        self.url = url
        self.reads = reads
        self.db: Conn | None = None
        self.lock = asyncio.Lock()
        self._closing: set[asyncio.Future[None]] = set()

    async def open(self) -> Conn:
        if self.db is None or self.db.closed or self.db.broken:
            self.db = await AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=CONNECT_SECONDS)
            # A transaction left open by a process that stopped (SIGSTOP, a hung host) would hold
            # its rows' locks, and a match's next writer, for ever: PostgreSQL ends it after
            # IDLE_SECONDS, and a writer waiting for those locks waits that long and a little more.
            await self.db.execute(f"SET statement_timeout = '{STATEMENT_SECONDS}s'")
            await self.db.execute(f"SET lock_timeout = '{LOCK_SECONDS}s'")
            await self.db.execute(f"SET idle_in_transaction_session_timeout = '{IDLE_SECONDS}s'")
            if self.reads:  # each read one snapshot of the database, BEGIN saying so (no round trip more)
                await self.db.set_isolation_level(psycopg.IsolationLevel.REPEATABLE_READ)
                await self.db.set_read_only(True)
        return self.db

    async def drop(self) -> None:
        """Forgets the connection (lost, or in the middle of something a time-out interrupted)."""
        db, self.db = self.db, None
        if db is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(db.close(), 1.0)

    def abandon(self, attempt: asyncio.Future[Any]) -> None:
        """Forgets the connection an attempt that ran out of time is still using; it is closed
        once the attempt lets go of it (its outcome goes unheard: nobody waits for it)."""
        db, self.db = self.db, None

        def closing(finished: asyncio.Future[Any]) -> None:
            if not finished.cancelled():
                finished.exception()
            if db is not None:
                task = asyncio.ensure_future(db.close())
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)

        attempt.add_done_callback(closing)

    @property
    def lost(self) -> bool:
        return self.db is None or self.db.closed or self.db.broken


class PostgresStore:
    """The ``Store`` on a PostgreSQL database (``postgresql://user@host:port/database``)."""

    READERS: Final = 2
    BATCHES: Final = 2
    """Batches of appends in flight at once: appends asked meanwhile wait for the next (group
    commit), so that a busy server writes many matches' actions in each transaction."""
    WRITERS: Final = 8
    """Transactions that write at once. A match's writes never overlap, but one connection made
    every match of a process wait for each other's round trips (BEGIN, the statement, COMMIT, and
    the WAL's flush): 400 busy matches in a cluster of two made 475 actions a second at a median
    of 600 ms; with 4 connections, 904 a second at 245 ms (``parlour bench server --cluster 2``)."""

    def __init__(self, url: str, call_seconds: float = CALL_SECONDS) -> None:
        self.url = url
        self.call_seconds = call_seconds
        # Synchronously, as SQLite opens its file: a server that cannot reach its database says so
        # at start-up, before it listens.
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_SECONDS) as db:
                db.execute(f"SET statement_timeout = '{4 * STATEMENT_SECONDS}s'")
                schema_of(db)
        except psycopg.Error as error:
            raise StoreError(f"storage: {error}") from None
        self._writers = [_Link(url) for _ in range(self.WRITERS)]
        self._readers = [_Link(url, reads=True) for _ in range(self.READERS)]
        self._turn = 0
        self._lease_links: list[_Link] = []
        self._node: str | None = None
        """In a cluster, this process's node: appends fenced by its leases (``APPEND``)."""
        self._appending: list[_Append] = []
        """Appends asked and not yet in a batch (``_flush``)."""
        self._flush_soon = False
        self._batches: dict[asyncio.Future[None], set[str]] = {}
        """The batches in flight, each with its matches: a match's next append waits for its batch."""

    # --- the interface: writes ---

    async def create(self, match: MatchRow) -> None:
        progress = match.progress
        if progress is None:
            raise StoreError(f"match {match.id} has no progress to store")

        async def create(db: Conn) -> None:
            try:
                await db.execute(
                    f"INSERT INTO matches ({MATCH_COLUMNS}) VALUES"
                    " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (match.id, match.created, match.game, match.players, store_json(match.options),
                     match.seed,
                     None if match.start is None else store_json(match.start), match.bot_seconds,
                     *progress_values(progress), None if match.clock is None else store_json(match.clock),
                     match.rematch_of),
                )
            except errors.UniqueViolation as error:
                if error.diag.constraint_name == "matches_by_rematch_of":
                    raise StoreError(f"match {match.rematch_of} has a rematch already") from None
                raise StoreError(f"match {match.id} exists") from None
            async with db.cursor() as cursor:
                await cursor.executemany(
                    "INSERT INTO seats (match_id, seat, kind, bot, name, token_hash)"
                    " VALUES (%s, %s, %s, %s, %s, %s)",
                    [(match.id, index, seat.kind, seat.bot, seat.name, seat.token_hash)
                     for index, seat in enumerate(match.seats)],
                )
            if self._node is not None:  # made here, written here: no take-over round may have it first
                await db.execute(CREATOR_HOLDS, (self._node, match.id))

        await self._write(create)

    async def claim_seat(
        self, match_id: str, seat: int, token_hash: str, name: str | None, progress: Progress
    ) -> bool:
        async def claim(db: Conn) -> bool:
            await self._fence(db, match_id)
            # One statement: a second claim waits for the first's row lock, then finds the seat taken.
            cursor = await db.execute(
                "UPDATE seats SET kind = 'person', token_hash = %s, name = %s"
                " WHERE match_id = %s AND seat = %s AND kind = 'open'",
                (token_hash, name, match_id, seat),
            )
            if cursor.rowcount != 1:
                return False
            await _store_progress(db, match_id, progress)
            return True

        return await self._write(claim)

    async def append(
        self, match_id: str, expected_version: int, actions: Sequence[Action], progress: Progress,
        times: Sequence[ClockMark | None] | None = None,
    ) -> None:
        rows = list(actions)
        marks = [None if mark is None else store_json(mark) for mark in times or [None] * len(rows)]
        loop = asyncio.get_running_loop()
        asked = _Append(match_id, expected_version, rows, marks, time.time(), progress_values(progress),
                        loop.create_future())
        # Group commit: the appends asked in this turn of the event loop, or while the batches
        # in flight are written, go together (``_flush``).
        self._appending.append(asked)
        if not self._flush_soon:
            self._flush_soon = True
            loop.call_soon(self._flush)
        await asked.answer

    def _flush(self) -> None:
        """Starts a batch of the appends waiting, while fewer than ``BATCHES`` are in flight."""
        self._flush_soon = False
        while self._appending and len(self._batches) < self.BATCHES:
            writing = set().union(*self._batches.values())
            batch, self._appending = _batch_of(self._appending, writing)
            if not batch:  # each match waiting has an append in flight
                return
            task = asyncio.ensure_future(self._commit_batch(batch))
            self._batches[task] = {asked.match_id for asked in batch}
            task.add_done_callback(self._batch_done)

    def _batch_done(self, task: asyncio.Future[None]) -> None:
        self._batches.pop(task, None)
        if not task.cancelled():
            task.exception()  # never one: ``_commit_batch`` answers its callers whatever happens
        self._flush()  # what gathered meanwhile goes next

    async def _commit_batch(self, batch: list[_Append]) -> None:
        outcomes: list[BaseException | None] = [StoreError("storage: the store is closing")] * len(batch)
        try:
            outcomes = await self._append_batch(batch)
        except Exception as error:  # a fault of ours: every caller hears it, none waits for ever
            outcomes = [error] * len(batch)
        finally:  # cancelled too
            for asked, outcome in zip(batch, outcomes, strict=True):
                _answer(asked, outcome)

    async def _append_batch(self, batch: list[_Append]) -> list[BaseException | None]:
        """Each append's outcome: one alone as ever (``_append_one``), several in one transaction by
        one statement (``APPEND_MANY``), one by one if that statement fails for one of them."""
        if len(batch) == 1:
            return [await _outcome(self._append_one(batch[0]))]
        outcomes: dict[int, BaseException | None] = {}
        waiting = list(batch)
        for _ in range(2):
            try:
                found = await self._write(functools.partial(self._append_many, waiting))
            except _Split:
                alone = await asyncio.gather(*(_outcome(self._append_one(asked)) for asked in waiting))
                outcomes.update(zip(map(id, waiting), alone, strict=True))
                waiting = []
            except _Unsure:
                # The COMMIT went unanswered: the record says, append by append, whether it was kept.
                try:
                    kept = await self._write(functools.partial(_settle_many, waiting))
                except StoreError as error:
                    kept = [error] * len(waiting)
                outcomes.update((id(asked), None if done is True else done)
                                for asked, done in zip(waiting, kept, strict=True) if done is not False)
                waiting = [asked for asked, done in zip(waiting, kept, strict=True) if done is False]
                continue
            except StoreError as error:
                outcomes.update((id(asked), error) for asked in waiting)
                waiting = []
            else:
                outcomes.update((id(asked), _appended(asked, found[asked.match_id])) for asked in waiting)
                waiting = []
            break
        lost = StoreError("storage: the connection to PostgreSQL was lost twice in a row")
        outcomes.update((id(asked), lost) for asked in waiting)
        return [outcomes[id(asked)] for asked in batch]

    async def _append_many(self, batch: list[_Append], db: Conn) -> dict[str, tuple[int, bool, bool]]:
        """``APPEND_MANY``'s answer by match: (stored version, held, moved); ``_Split`` if the
        statement failed for one of them (nothing of it is kept), so that each is written alone."""
        chosen = sorted(batch, key=lambda asked: asked.match_id)  # as another batch locks them
        events = [(asked.match_id, n, action, asked.now, mark) for asked in chosen
                  for n, (action, mark) in enumerate(zip(asked.actions, asked.clocks, strict=True), 1)]
        given: dict[str, Any] = {
            "ids": [asked.match_id for asked in chosen], "expected": [asked.expected for asked in chosen],
            "node": self._node}
        for index, name in enumerate(PROGRESS_ARRAYS):
            given[name] = [asked.progress[index] for asked in chosen]
        given["updated"] = [float(updated) for updated in given["updated"]]  # one type for the array
        for index, name in enumerate(EVENT_ARRAYS):
            given[name] = [event[index] for event in events]
        try:
            rows = await (await db.execute(APPEND_MANY, given)).fetchall()
        except (psycopg.Error, UnicodeError, ValueError, TypeError, OverflowError) as error:
            if isinstance(error, psycopg.Error) and (db.closed or db.broken):
                raise  # the connection, not an append: ``_attempt`` tries again or reports it unsure
            raise _Split(f"storage: {_said(error)}") from None
        return {match_id: (int(stored), bool(held), bool(moved)) for match_id, stored, held, moved in rows}

    async def _append_one(self, asked: _Append) -> None:
        """One append in a transaction of its own (``APPEND``)."""
        status, version, to_move, outcome, updated = asked.progress
        given = {"id": asked.match_id, "expected": asked.expected, "actions": asked.actions,
                 "clocks": asked.clocks, "now": asked.now, "status": status, "version": version,
                 "to_move": to_move, "outcome": outcome, "updated": updated, "node": self._node}

        async def append(db: Conn) -> None:
            try:
                found = await (await db.execute(APPEND, given)).fetchone()
            except (errors.UniqueViolation, errors.DeadlockDetected):
                # Another writer committed this version between our look and our insert: the key fences it.
                raise VersionConflict(f"match {asked.match_id} moved past version {asked.expected}") from None
            except errors.ForeignKeyViolation:
                raise StoreError(f"there is no match {asked.match_id}") from None
            assert found is not None
            failed = _appended(asked, (int(found[0]), bool(found[2]), int(found[1]) == 1))
            if failed is not None:
                raise failed

        for _ in range(2):
            try:
                return await self._write(append)
            except _Unsure:
                settled = await self._write(functools.partial(_settle_many, [asked]))
                if settled[0] is True:
                    return None
                if isinstance(settled[0], VersionConflict):
                    raise settled[0] from None
        raise StoreError("storage: the connection to PostgreSQL was lost twice in a row")

    async def _fence(self, db: Conn, match_id: str) -> None:
        """In a cluster, ``VersionConflict`` unless this node holds the match (its lease row locked
        until the transaction ends, as ``APPEND`` does): a writer paused past its lease must not
        give a seat or expire a match another process now writes."""
        if self._node is not None:
            found = await (await db.execute(FENCE, (match_id, self._node))).fetchone()
            if found is None:
                raise VersionConflict(f"match {match_id} is written by another process now")

    async def set_progress(self, match_id: str, progress: Progress) -> None:
        async def store(db: Conn) -> None:
            await self._fence(db, match_id)
            if await _store_progress(db, match_id, progress) != 1:
                raise StoreError(f"there is no match {match_id}")

        await self._write(store)

    async def add_chat(self, match_id: str, said: ChatLine, most: int) -> ChatLine | None:
        async def add(db: Conn) -> ChatLine | None:
            found = await (await db.execute(
                "SELECT COALESCE(MAX(id), 0) FROM chat WHERE match_id = %s", (match_id,))).fetchone()
            latest = 0 if found is None else int(found[0])
            if latest >= most:
                return None
            line = replace(said, id=latest + 1)
            try:
                await db.execute(
                    "INSERT INTO chat (match_id, id, room, seat, name, text, at)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (match_id, line.id, line.room, line.seat, line.name, line.text, line.at))
            except errors.ForeignKeyViolation:
                raise StoreError(f"there is no match {match_id}") from None
            except errors.UniqueViolation:
                raise _NumberTaken(f"match {match_id}'s chat line {line.id} was taken meanwhile") from None
            return line

        # Another process may number a line of the same match at the same moment: the key lets
        # one of them have the number, and the other takes the next.
        for _ in range(CHAT_TRIES - 1):
            with contextlib.suppress(_NumberTaken):
                return await self._write(add)
        return await self._write(add)

    async def add_board(self, board: BoardRow, most: int) -> BoardSaved:
        async def add(db: Conn) -> BoardSaved:
            if await (await db.execute("SELECT 1 FROM boards WHERE game = %s AND name = %s",
                                       (board.game, board.name))).fetchone() is not None:
                return "exists"
            found = await (await db.execute("SELECT COUNT(*) FROM boards")).fetchone()
            if found is not None and int(found[0]) >= most:
                return "full"
            cursor = await db.execute(
                f"INSERT INTO boards ({BOARD_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (game, name) DO NOTHING",
                (board.game, board.name, board.text, board.cols, board.rows, board.author,
                 board.created, board.address))
            return "saved" if cursor.rowcount == 1 else "exists"  # another process saved it first

        return await self._write(add)

    # --- the interface: reads ---

    async def load_board(self, game: str, name: str) -> BoardRow | None:
        async def load(db: Conn) -> BoardRow | None:
            found = await (await db.execute(
                f"SELECT {BOARD_COLUMNS} FROM boards WHERE game = %s AND name = %s", (game, name))).fetchone()
            return None if found is None else BoardRow(*found)

        return await self._read(load)

    async def list_boards(self, game: str, after: tuple[float, str] | None, limit: int) -> list[BoardRow]:
        async def walk(db: Conn) -> list[BoardRow]:
            where = "game = %s" + ("" if after is None else " AND (created, name) < (%s, %s)")
            arguments = (game, *(() if after is None else after), max(limit, 0))
            columns = "game, name, '' AS text, cols, rows, author, created, address"  # no text: see Store
            cursor = await db.execute(
                f"SELECT {columns} FROM boards WHERE {where}"
                " ORDER BY created DESC, name DESC LIMIT %s", arguments)
            return [BoardRow(*found) for found in await cursor.fetchall()]

        return await self._read(walk)

    async def load_chat(self, match_id: str, rooms: Sequence[ChatRoom], most: int) -> list[ChatLine]:
        async def load(db: Conn) -> list[ChatLine]:
            cursor = await db.execute(
                "SELECT id, room, seat, name, text, at FROM chat WHERE match_id = %s AND room = ANY(%s)"
                " ORDER BY id DESC LIMIT %s", (match_id, list(rooms), max(most, 0)))
            return [ChatLine(*values) for values in await cursor.fetchall()][::-1]

        return await self._read(load)

    async def load_unfinished(self) -> list[MatchRow]:
        async def load(db: Conn) -> list[MatchRow]:
            # One snapshot (a REPEATABLE READ transaction): the seats and events are of these matches.
            cursor = await db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE status IN ('open', 'running')"
                " ORDER BY created, id")
            rows = {row.id: row for row in map(match_row, await cursor.fetchall())}
            await _add_seats(db, rows, unfinished=True)
            await _add_events(db, rows, unfinished=True)
            return list(rows.values())

        return await self._read(load)

    async def load_match(self, match_id: str) -> MatchRow | None:
        async def load(db: Conn) -> MatchRow | None:
            found = await (await db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = %s", (match_id,))).fetchone()
            if found is None:
                return None
            row = match_row(found)
            await _add_seats(db, {match_id: row})
            await _add_events(db, {match_id: row})
            rematch = await (await db.execute(
                "SELECT id FROM matches WHERE rematch_of = %s", (match_id,))).fetchone()
            row.rematch = None if rematch is None else rematch[0]
            return row

        return await self._read(load)

    async def events_after(self, match_id: str, version: int) -> EventsAfter | None:
        async def load(db: Conn) -> EventsAfter | None:
            found = await (await db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = %s", (match_id,))).fetchone()
            if found is None:
                return None
            row = match_row(found)
            assert row.progress is not None
            later = EventsAfter([], [], row.progress)
            cursor = await db.execute(
                "SELECT action, clock FROM events WHERE match_id = %s AND version > %s ORDER BY version",
                (match_id, version))
            for action, mark in await cursor.fetchall():
                later.actions.append(action)
                if row.clock is not None:
                    later.times.append(None if mark is None else clock_mark(json.loads(mark)))
            return later

        return await self._read(load)

    async def list_matches(
        self, statuses: Sequence[MatchStatus], game: str | None, after: tuple[float, str] | None, limit: int,
        ids: Sequence[str] | None = None,
    ) -> list[MatchRow]:
        async def walk(db: Conn) -> list[MatchRow]:
            return await _list_matches(db, statuses, game, after, limit, ids)

        return await self._read(walk)

    # --- the cluster's leases (leases.py) ---

    def leases(self, me: Node, seconds: float = LEASE_SECONDS) -> Leases:
        """The leases of the cluster as node ``me`` sees them, each ``seconds`` long, on a
        connection of their own (a renewal never waits behind the match's writes); closed with
        the store."""
        made = PostgresLeases(self, me, seconds)
        self._lease_links.append(made.link)
        self._node = me.id  # from now on, an append is this node's only while it holds the match
        return made

    async def close(self) -> None:
        while self._batches or self._appending:  # the appends asked are answered first
            self._flush()
            await asyncio.gather(*self._batches, return_exceptions=True)
        for link in (*self._writers, *self._readers, *self._lease_links):
            async with link.lock:
                await link.drop()

    # --- connections ---

    async def _write(self, work: Callable[[Conn], Awaitable[T]]) -> T:
        """Runs ``work`` in one transaction on a writing connection; ``StoreError`` if it cannot
        (``_Unsure`` if the connection was lost during its COMMIT: only the record can tell). A
        match's writes never overlap (its writer does one at a time), so they may use any."""
        link = self._pick(self._writers)
        async with link.lock:
            return await self._transaction(link, work)

    def _pick(self, links: list[_Link]) -> _Link:
        """A free one of ``links``, or, all busy, one in turn to queue behind."""
        free = [link for link in links if not link.lock.locked()]
        if free:
            return free[0]
        self._turn += 1
        return links[self._turn % len(links)]

    async def _read(self, work: Callable[[Conn], Awaitable[T]]) -> T:
        """Runs ``work`` in one read-only transaction (one snapshot) on a reading connection."""
        link = self._pick(self._readers)
        async with link.lock:
            return await self._transaction(link, work)

    async def _transaction(self, link: _Link, work: Callable[[Conn], Awaitable[T]]) -> T:
        """``work`` in one transaction on ``link``, within ``call_seconds`` in all: a time-out leaves
        the attempt behind (psycopg may take seconds more to cancel its query) on a connection the
        link forgets, and says so at once."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.call_seconds
        for retry in (True, False):
            attempt = asyncio.ensure_future(self._attempt(link, work, retry))
            try:
                done, _ = await asyncio.wait({attempt}, timeout=max(deadline - loop.time(), 0.0))
            except asyncio.CancelledError:
                attempt.cancel()
                link.abandon(attempt)
                raise
            if not done:
                attempt.cancel()
                link.abandon(attempt)
                raise StoreError(f"storage: PostgreSQL did not answer within {self.call_seconds:g} s")
            try:
                return attempt.result()
            except _Again:
                continue
        raise AssertionError("unreachable: the second attempt does not ask for a third")

    async def _attempt(self, link: _Link, work: Callable[[Conn], Awaitable[T]], retry: bool) -> T:
        # In a transaction even when ``work`` is one statement: a call that runs out of time
        # before its COMMIT is sent is then surely not committed (the connection is closed under
        # it), where a statement committing itself might still be, after the caller was told no.
        committing = False
        try:
            db = await link.open()
            async with db.transaction():
                result = await work(db)
                committing = True
            return result
        except StoreError:
            raise  # the work's own refusal (a version conflict, a missing match): rolled back
        except (psycopg.Error, UnicodeError, ValueError, TypeError, OverflowError) as error:
            lost = link.lost
            if lost:
                await link.drop()
            if lost and retry and not committing:
                # Dead before COMMIT was sent: nothing of it was committed; once more on a new connection.
                raise _Again from None
            if lost and committing:
                raise _Unsure(f"storage: {_said(error)}") from None
            raise StoreError(f"storage: {_said(error)}") from None


class PostgresLeases:
    """``Leases`` in the database's ``nodes`` and ``leases`` tables: a row for each node, alive until
    when by the database's clock, and one for each match, naming the node holding it (or NOBODY).
    Each call is one transaction (a take two), bounded in time as the store's are."""

    def __init__(self, store: PostgresStore, me: Node, seconds: float = LEASE_SECONDS) -> None:
        if not 0 < seconds < math.inf:
            raise ValueError(f"a lease lasts some time, not {seconds} s")
        if me.id == NOBODY:
            raise ValueError("a node needs an id")
        self.me = me
        self.seconds = seconds
        self.link = _Link(store.url)
        self._store = store

    async def take(self, match_id: str) -> Node:
        async def take(db: Conn) -> Node | None:
            cursor = await db.execute(TAKE, {"id": match_id, "node": self.me.id})
            if await cursor.fetchone() is not None:
                return self.me
            found = await (await db.execute(HOLDER, (match_id,))).fetchone()
            return None if found is None else Node(found[0], found[1])

        for _ in range(TAKE_TRIES):
            await self._call(self._beat)  # alive before holding anything: a lease of a dead node is free
            holder = await self._call(take)
            if holder is not None:
                return holder
        raise StoreError(f"storage: the lease of match {match_id} changed hands {TAKE_TRIES} times in a row")

    async def renew(self, match_ids: Collection[str]) -> set[str]:
        async def renew(db: Conn) -> set[str]:
            await self._beat(db)
            if not match_ids:
                return set()
            cursor = await db.execute(HELD, (self.me.id, list(match_ids)))
            return {match_id for (match_id,) in await cursor.fetchall()}

        return await self._call(renew)

    async def drop(self, match_ids: Collection[str]) -> None:
        if not match_ids:
            return

        async def drop(db: Conn) -> None:
            given = {"ids": list(match_ids), "node": self.me.id}
            await db.execute(DROP_OVER, given)
            await db.execute(DROP_UNFINISHED, given)

        await self._call(drop)

    async def expire(self, node: Node) -> int:
        async def expire(db: Conn) -> int:
            found = await (await db.execute(EXPIRE, (node.id,))).fetchone()
            return 0 if found is None else int(found[0])

        return await self._call(expire)

    async def unattended(self, most: int) -> list[str]:
        async def unattended(db: Conn) -> list[str]:
            rows = await (await db.execute(UNATTENDED, {"most": max(most, 0)})).fetchall()
            stale = [(match_id, node) for match_id, node, unfinished in rows if not unfinished]
            if stale:  # finished matches whose writer died before letting go: nobody needs their rows
                await db.execute(FORGET, ([match_id for match_id, _ in stale], [node for _, node in stale]))
            await db.execute(PRUNE, (PRUNE_SECONDS,))
            return [match_id for match_id, _, unfinished in rows if unfinished]

        return await self._call(unattended)

    async def _beat(self, db: Conn) -> None:
        await db.execute(BEAT, {"node": self.me.id, "address": self.me.address, "seconds": self.seconds})

    async def _call(self, work: Callable[[Conn], Awaitable[T]]) -> T:
        async with self.link.lock:
            return await self._store._transaction(self.link, work)


class _NumberTaken(StoreError):
    """A chat line's number was taken by another writer in the meantime."""


class _Split(StoreError):
    """A statement of many appends failed for one of them: each is to be written alone."""


class _Unsure(StoreError):
    """The connection was lost during a COMMIT: it may or may not have been committed."""


class _Again(Exception):
    """The connection was found lost before anything could be committed: try once more."""


def _said(error: BaseException) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


PROGRESS_ARRAYS: Final = ("statuses", "versions", "to_moves", "outcomes", "updated")
"""``APPEND_MANY``'s arrays of each append's progress, in ``progress_values``'s order."""
EVENT_ARRAYS: Final = ("event_ids", "event_ns", "actions", "created", "clocks")
"""``APPEND_MANY``'s arrays of each event: its match, its place in its append (from 1), the action,
when it was asked, its clock mark."""
BATCH_MOST: Final = 200
"""Appends written in one transaction at most."""


@dataclass(eq=False)
class _Append:
    """An append asked of the store, waiting for its batch (``PostgresStore._flush``)."""

    match_id: str
    expected: int
    actions: list[Action]
    clocks: list[str | None]
    now: float
    """When it was asked: its events' ``created``, by which an unconfirmed commit is recognised."""
    progress: tuple[Any, ...]
    """``progress_values`` of the match's progress after it."""
    answer: asyncio.Future[None]


def _batch_of(waiting: list[_Append], writing: set[str]) -> tuple[list[_Append], list[_Append]]:
    """The next batch (at most ``BATCH_MOST``, in the order asked) and what stays waiting: a second
    append of a match already in the batch, or in a batch in flight (``writing``), waits for a later
    one (it expects the first's version)."""
    batch: list[_Append] = []
    later: list[_Append] = []
    chosen = set(writing)
    for asked in waiting:
        if len(batch) < BATCH_MOST and asked.match_id not in chosen:
            batch.append(asked)
            chosen.add(asked.match_id)
        else:
            later.append(asked)
    return batch, later


def _appended(asked: _Append, found: tuple[int, bool, bool]) -> StoreError | None:
    """What an append's caller hears from the statement's answer (stored version, held, moved)."""
    stored, held, moved = found
    if not held:
        return VersionConflict(f"match {asked.match_id} is written by another process now")
    if stored != asked.expected:
        return VersionConflict(f"match {asked.match_id} is at version {stored}, not {asked.expected}")
    if not moved:
        return StoreError(f"there is no match {asked.match_id}")
    return None


async def _settle_many(waiting: list[_Append], db: Conn) -> list[bool | StoreError]:
    """After a connection lost with appends sent: for each, whether it was committed (its events,
    to the second they were asked, are there), not (nothing past the expected version: to send
    again), or another writer's were (``VersionConflict``)."""
    settled: list[bool | StoreError] = []
    for asked in waiting:
        cursor = await db.execute(
            "SELECT action, created FROM events WHERE match_id = %s AND version > %s ORDER BY version",
            (asked.match_id, asked.expected))
        there = await cursor.fetchall()
        if there == [(action, asked.now) for action in asked.actions]:
            settled.append(True)
        elif not there:
            settled.append(False)
        else:
            settled.append(VersionConflict(f"match {asked.match_id} moved past version {asked.expected}"))
    return settled


async def _outcome(call: Awaitable[None]) -> BaseException | None:
    """A call's error (``StoreError``, or a fault of ours), or ``None`` if it did what it was asked."""
    try:
        await call
    except Exception as error:
        return error
    return None


def _answer(asked: _Append, outcome: BaseException | None) -> None:
    if asked.answer.done():  # its caller gave up waiting (cancelled)
        return
    if outcome is None:
        asked.answer.set_result(None)
    else:
        asked.answer.set_exception(outcome)


async def _store_progress(db: Conn, match_id: str, progress: Progress) -> int:
    cursor = await db.execute(SET_PROGRESS, (*progress_values(progress), match_id))
    return cursor.rowcount


UNFINISHED_IDS: Final = "SELECT id FROM matches WHERE status IN ('open', 'running')"


async def _add_seats(db: Conn, rows: dict[str, MatchRow], unfinished: bool = False) -> None:
    """The matches' seats; ``unfinished``: ``rows`` are every unfinished match (named by a query
    rather than by thousands of ids sent along)."""
    if not rows:
        return
    chosen = f"IN ({UNFINISHED_IDS})" if unfinished else "= ANY(%s)"
    cursor = await db.execute(
        f"SELECT match_id, kind, bot, name, token_hash FROM seats WHERE match_id {chosen}"
        " ORDER BY match_id, seat",
        () if unfinished else (list(rows),))
    for match_id, kind, bot, name, token_hash in await cursor.fetchall():
        rows[match_id].seats.append(SeatRecord(kind, bot, name, token_hash))


async def _add_events(db: Conn, rows: dict[str, MatchRow], unfinished: bool = False) -> None:
    """The matches' actions in order, with their clock marks for those with a clock."""
    if not rows:
        return
    for row in rows.values():
        row.actions, row.times = [], []
    chosen = f"IN ({UNFINISHED_IDS})" if unfinished else "= ANY(%s)"
    cursor = await db.execute(
        f"SELECT match_id, action, clock FROM events WHERE match_id {chosen} ORDER BY match_id, version",
        () if unfinished else (list(rows),))
    for match_id, action, mark in await cursor.fetchall():
        row = rows[match_id]
        row.actions.append(action)
        if row.clock is not None:
            row.times.append(None if mark is None else clock_mark(json.loads(mark)))


async def _list_matches(
    db: Conn, statuses: Sequence[MatchStatus], game: str | None, after: tuple[float, str] | None, limit: int,
    ids: Sequence[str] | None,
) -> list[MatchRow]:
    """As SQLite's: one walk down an index per status from the cursor, at most a page each, the
    newest of them the page; with ``ids``, those matches looked up by their key."""
    where = "" if game is None else " AND game = %s"
    where += "" if after is None else " AND (created, id) < (%s, %s)"
    arguments = (*(() if game is None else (game,)), *(() if after is None else after))
    found: list[MatchRow] = []
    if ids is not None:
        chosen = list(dict.fromkeys(ids))
        if chosen and statuses:
            cursor = await db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ANY(%s) AND status = ANY(%s){where}"
                " ORDER BY created DESC, id DESC LIMIT %s",
                (chosen, list(statuses), *arguments, max(limit, 0)))
            found = list(map(match_row, await cursor.fetchall()))
    else:
        for status in dict.fromkeys(statuses):
            cursor = await db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE status = %s{where}"
                " ORDER BY created DESC, id DESC LIMIT %s", (status, *arguments, max(limit, 0)))
            found += map(match_row, await cursor.fetchall())
        found.sort(key=lambda row: (row.created, row.id), reverse=True)
    rows = {row.id: row for row in found[:max(limit, 0)]}
    await _add_seats(db, rows)
    return list(rows.values())
