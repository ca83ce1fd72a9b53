"""The append-only event store: matches, their seats and their actions, behind a small interface.

A match is stored once when created (game, players, options, seed, seats, some perhaps claimed
already); after that a seat is claimed (once, atomically) and actions are appended, each with the
version it makes, under an expected-version check. Replaying a match's actions rebuilds it. Beside
each match the store keeps its ``Progress`` (status, version, whose turn, outcome), written with
every change, so that the lobby can list, page and expire matches, and start-up can skip finished
ones, without replaying anything. Beside the matches it keeps each game's library of boards
people drew and saved (Conflict's maps): a saved board never changes.

``SQLiteStore`` (WAL, one file, no set-up) is the default; ``MemoryStore`` behaves the same for
tests. The interface is ``async`` and row-shaped so that a PostgreSQL store with the same schema
can take its place.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Generic, Literal, Protocol, TypeVar

from parlour.engine import Action, JSONDict, State

log = logging.getLogger("parlour.server")

SeatKind = Literal["open", "person", "bot"]


class StoreError(Exception):
    """The store could not do what was asked (the caller's state is unchanged)."""


class VersionConflict(StoreError):
    """An append whose expected version is not the match's stored version."""


@dataclass
class SeatRecord:
    """Who holds a seat: nobody yet (``open``), a person (by token hash) or a bot (by kind)."""

    kind: SeatKind
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None


@dataclass
class MatchRow:
    """A match as stored: what it is, who sits where, and (when loaded) its actions in order."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[SeatRecord]
    bot_seconds: float
    created: float = field(default_factory=time.time)
    start: JSONDict | None = None
    actions: list[Action] = field(default_factory=list)
    progress: Progress | None = None
    """Where the match stands, as last stored (``None`` until the store has said)."""
    clock: JSONDict | None = None
    """The match's clock as chosen at creation (``{"base", "increment"}`` or ``{"per_move"}``);
    ``None``: no clock."""
    times: list[ClockMark | None] = field(default_factory=list)
    """With ``actions`` (when loaded) and in step with them: each action's clock mark, ``None``
    for an action on nobody's clock (chance, an untimed match, a seat leaving out of turn)."""
    rematch_of: str | None = None
    """The finished match this one is the rematch of (stored with it: a match has one rematch)."""
    rematch: str | None = None
    """This match's rematch, when it has one: filled by ``load_match`` (from the other's
    ``rematch_of``), so that a match read back knows it."""


ChatRoom = Literal["players", "spectators"]


@dataclass(frozen=True)
class ChatLine:
    """One chat message of a match as stored: its number in the match (from 1), the room it was
    said in, who said it (a seat, ``None`` for a spectator) under what name, what, and when (the
    server's time)."""

    id: int
    room: ChatRoom
    seat: int | None
    name: str
    text: str
    at: float


ClockMark = tuple[int, float, float]
"""What an action did to a clock: (the seat charged, seconds it spent, seconds it has left)."""


MatchStatus = Literal["open", "running", "over", "expired"]
UNFINISHED: Final[tuple[MatchStatus, ...]] = ("open", "running")


@dataclass(frozen=True)
class Progress:
    """Where a match stands after its latest change: stored beside it so that the lobby can list
    and page matches without replaying them."""

    status: MatchStatus
    version: int
    to_move: Any
    """The view envelope's ``to_move``: a seat, ``"chance"`` or ``None`` (over)."""
    outcome: JSONDict | None
    updated: float = field(default_factory=time.time)


@dataclass
class EventsAfter:
    """What a match stored after a version (``Store.events_after``): its later actions in order,
    their clock marks in step with them when the match has a clock (else none), and its progress
    as stored with the latest of them."""

    actions: list[Action]
    times: list[ClockMark | None]
    progress: Progress


def progress_of(state: State, seats: Sequence[SeatRecord]) -> Progress:
    """Where a match stands in ``state`` with these seats: what the store keeps beside it."""
    waiting = any(seat.kind == "open" for seat in seats)
    status: MatchStatus = "over" if state.is_over() else "open" if waiting else "running"
    return Progress(status, len(state.history), state.to_move_json(), state.outcome_json())


class Store(Protocol):
    """What the server needs from storage; every method leaves the store unchanged on error."""

    async def create(self, match: MatchRow) -> None:
        """Stores a new match (with no actions) and its seats as given, in one transaction: a
        seat the creator claims is already a ``person`` seat in ``match.seats``. ``match.progress``
        must be set. ``StoreError`` for a second rematch of the same match (``rematch_of``)."""

    async def claim_seat(
        self, match_id: str, seat: int, token_hash: str, name: str | None, progress: Progress
    ) -> bool:
        """Gives an open seat to a person and stores ``progress`` (a last seat taken starts the
        match); ``False``, with nothing changed, if the seat is not open (someone was quicker)."""

    async def append(
        self, match_id: str, expected_version: int, actions: Sequence[Action], progress: Progress,
        times: Sequence[ClockMark | None] | None = None,
    ) -> None:
        """Appends actions as versions ``expected_version + 1 …`` (each with its clock mark from
        ``times``, none when it is ``None``) and stores ``progress`` with them; ``VersionConflict``
        if the match's stored version is not ``expected_version``."""

    async def set_progress(self, match_id: str, progress: Progress) -> None:
        """Stores where a match stands when no action changed it (an open match expiring)."""

    async def add_chat(self, match_id: str, said: ChatLine, most: int) -> ChatLine | None:
        """Stores one chat message of a match as the next of its numbers (``said.id`` is ignored:
        the store numbers them, so two copies of a match in memory never take the same number)
        and returns it numbered; ``None``, with nothing stored, if the match holds ``most`` already."""

    async def load_chat(self, match_id: str, rooms: Sequence[ChatRoom], most: int) -> list[ChatLine]:
        """The latest ``most`` chat messages of a match said in ``rooms``, in order."""

    async def load_unfinished(self) -> list[MatchRow]:
        """Every open or running match with its seats, actions and progress, oldest first."""

    async def load_match(self, match_id: str) -> MatchRow | None:
        """One match of any status with its seats, actions, progress and rematch; ``None`` if unknown."""

    async def events_after(self, match_id: str, version: int) -> EventsAfter | None:
        """The actions a match stored after ``version`` (with their clock marks and the match's
        progress, read in one snapshot), without its seats nor its earlier actions: a copy that
        is at ``version`` already needs only these. ``None`` if the match is unknown."""

    async def list_matches(
        self, statuses: Sequence[MatchStatus], game: str | None, after: tuple[float, str] | None, limit: int,
        ids: Sequence[str] | None = None,
    ) -> list[MatchRow]:
        """At most ``limit`` matches with one of ``statuses`` (and of ``game``, when given), newest
        first by (created, id), strictly after the cursor ``after`` = (created, id) of the last one
        of the previous page; with seats and progress, without actions. Fast at any size (an index).
        ``ids``: only those matches (looked up by their key; unknown ids are left out)."""

    async def add_board(self, board: BoardRow, most: int) -> BoardSaved:
        """Stores a board in its game's library: ``"saved"``; ``"exists"`` if the game has one of
        that name already, ``"full"`` if the library holds ``most`` boards (of all games), both
        with nothing stored. A saved board never changes."""

    async def load_board(self, game: str, name: str) -> BoardRow | None:
        """One saved board of a game, with its text; ``None`` if there is none of that name."""

    async def list_boards(self, game: str, after: tuple[float, str] | None, limit: int) -> list[BoardRow]:
        """At most ``limit`` of a game's saved boards, newest first by (created, name), strictly
        after the cursor ``after`` = (created, name) of the last one of the previous page; without
        their text (``text`` is ""): a page lists names and sizes, and a hundred texts of up to
        16 KB each are not worth reading for it (``load_board`` reads one). Fast at any size (an index)."""

    async def close(self) -> None: ...


@dataclass(frozen=True)
class BoardRow:
    """A board saved in a game's library (a Conflict map): its text as checked when saved, its
    size (to list it without reading the text again), who saved it and when, from which address."""

    game: str
    name: str
    text: str
    cols: int
    rows: int
    author: str | None
    created: float
    address: str


BoardSaved = Literal["saved", "exists", "full"]


SCHEMA_VERSION: Final = 5
"""``PRAGMA user_version`` of a file in today's schema; 0 is a file from before progress was kept,
1 from before clocks (its matches have none), 2 from before rematches were stored (its matches
have none on record), 3 from before chat (its matches have said nothing), 4 from before the
library of boards (it has none saved)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    start TEXT,
    bot_seconds REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'running',
    version INTEGER NOT NULL DEFAULT 0,
    to_move TEXT,
    outcome TEXT,
    updated REAL NOT NULL DEFAULT 0,
    clock TEXT,
    rematch_of TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    name TEXT,
    token_hash TEXT,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    match_id TEXT NOT NULL REFERENCES matches(id),
    version INTEGER NOT NULL,
    action INTEGER NOT NULL,
    created REAL NOT NULL,
    clock TEXT,
    PRIMARY KEY (match_id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
    match_id TEXT NOT NULL REFERENCES matches(id),
    id INTEGER NOT NULL,
    room TEXT NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (match_id, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS boards (
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    cols INTEGER NOT NULL,
    rows INTEGER NOT NULL,
    author TEXT,
    created REAL NOT NULL,
    address TEXT NOT NULL,
    PRIMARY KEY (game, name)
);
"""
# Events WITHOUT ROWID: kept in the order of their key, a match's events are together on disk
# (loading is one range) and appending one writes one page of the log, not a row and an index entry.

INDEXES = """
CREATE INDEX IF NOT EXISTS matches_by_status ON matches (status, created DESC, id DESC);
CREATE INDEX IF NOT EXISTS matches_by_game ON matches (game, status, created DESC, id DESC);
CREATE UNIQUE INDEX IF NOT EXISTS matches_by_rematch_of ON matches (rematch_of) WHERE rematch_of IS NOT NULL;
CREATE INDEX IF NOT EXISTS boards_by_age ON boards (game, created DESC, name DESC);
"""
# The lobby pages newest first within one status (and one game): each page is a walk down one of
# these indexes from the cursor, never a sort of the table. A match's rematch is found through the
# last, which also refuses a second rematch of one match. A game's library pages newest first too.

PROGRESS_COLUMNS: Final = (
    ("status", "TEXT NOT NULL DEFAULT 'running'"), ("version", "INTEGER NOT NULL DEFAULT 0"),
    ("to_move", "TEXT"), ("outcome", "TEXT"), ("updated", "REAL NOT NULL DEFAULT 0"),
)
MATCH_COLUMNS: Final = ("id, created, game, players, options, seed, start, bot_seconds,"
                        " status, version, to_move, outcome, updated, clock, rematch_of")
BOARD_COLUMNS: Final = "game, name, text, cols, rows, author, created, address"
SET_PROGRESS: Final = "UPDATE matches SET version = ?, to_move = ?, outcome = ?, updated = ? WHERE id = ?"
SET_STATUS: Final = "UPDATE matches SET status = ? WHERE id = ? AND status IS NOT ?"
# Status apart, and only where it changes: a statement that sets an indexed column rewrites that
# column's index entries even to the same value, two more pages in the log for every action.


class SQLiteStore:
    """The default store: one SQLite file in WAL mode.

    The writes one turn of the event loop asks for are committed together at the end of that turn
    (group commit; each call in its own savepoint, so one failure fails one call), and only then
    are the callers answered: many matches' actions cost one commit. ``synchronous=NORMAL`` in WAL
    mode makes a commit survive the death of the process (SIGKILL); only losing power can lose the
    last commits. Such a commit appends to the log and never waits for the disk (only checkpoints
    sync it), so the event loop commits itself, on a connection that never waits for a lock: a
    writer thread handing answers back cost more than the commit (the interpreter lock passed back
    and forth four times a batch, each time waiting on the busy loop; 400 busy matches had a p99 of
    175-185 ms that way, 118-128 ms this way). The writer thread takes over only while the loop
    cannot go straight on: the file is locked (a truncating checkpoint) or the log is to be cut
    (below); until it has caught up, later writes queue behind it, in order.

    Reads run on connections of their own in worker threads: in WAL mode a reader sees the last
    commit without waiting for the writer, and the event loop waits on neither.

    The write-ahead log is copied into the database by passive checkpoints in a thread of their
    own while writes go on, and cut to nothing by a truncating one once the writer has been idle
    a moment. While it is longer than ``JOURNAL_LIMIT`` the writer thread copies its last frames
    between two commits, so that the next commit starts it afresh, cut to that size: the log stays
    within a few times the limit however long the writes go on (it grew without bound before).
    """

    CHECKPOINT_SECONDS: Final = 5.0
    IDLE_SECONDS: Final = 1.0
    """Seconds without a commit after which the log is checkpointed and truncated."""
    JOURNAL_LIMIT: Final = 8 * 1024 * 1024
    """Bytes of write-ahead log kept after it is reset (``PRAGMA journal_size_limit``)."""
    READERS: Final = 2

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self.db = _connect_writer(self.path)
        try:
            open_schema(self.db)
        except BaseException:
            self.db.close()
            raise
        # As many reading threads as connections: a read waits for a thread, never holds one idle.
        self._reading = ThreadPoolExecutor(self.READERS, thread_name_prefix="sqlite reader")
        self._readers: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        for _ in range(self.READERS):
            reader = _connect(self.path)
            reader.execute("PRAGMA query_only=1")
            self._readers.put(reader)
        self._loop_db = _connect_writer(self.path)
        self._loop_db.execute("PRAGMA busy_timeout=0")  # the event loop never waits for the lock
        self._handed = 0
        """Batches given to the writer thread and not answered yet: while any are, the loop hands it
        the next ones too (the thread's catch-up must find no commit between its own two steps)."""
        self._pending: list[_Work[Any]] = []
        self._work: queue.SimpleQueue[list[_Work[Any]] | None] = queue.SimpleQueue()
        self._commits = 0
        self._last_commit = time.monotonic()
        self._catch_up = False
        self._writer = threading.Thread(target=self._write, name="sqlite writer", daemon=True)
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoint, name="sqlite checkpoints", daemon=True)
        self._writer.start()
        self._checkpointer.start()

    # --- the interface: writes ---

    async def create(self, match: MatchRow) -> None:
        progress = match.progress
        if progress is None:
            raise StoreError(f"match {match.id} has no progress to store")

        def create(db: sqlite3.Connection) -> None:
            db.execute(
                f"INSERT INTO matches ({MATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (match.id, match.created, match.game, match.players, store_json(match.options), match.seed,
                 None if match.start is None else store_json(match.start), match.bot_seconds,
                 *progress_values(progress), None if match.clock is None else store_json(match.clock),
                 match.rematch_of),
            )
            db.executemany(
                "INSERT INTO seats (match_id, seat, kind, bot, name, token_hash) VALUES (?, ?, ?, ?, ?, ?)",
                [(match.id, index, seat.kind, seat.bot, seat.name, seat.token_hash)
                 for index, seat in enumerate(match.seats)],
            )

        await self._do(create)

    async def claim_seat(
        self, match_id: str, seat: int, token_hash: str, name: str | None, progress: Progress
    ) -> bool:
        def claim(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "UPDATE seats SET kind = 'person', token_hash = ?, name = ?"
                " WHERE match_id = ? AND seat = ? AND kind = 'open'",
                (token_hash, name, match_id, seat),
            )
            if cursor.rowcount != 1:
                return False
            _store_progress(db, [(match_id, progress)])
            return True

        return await self._do(claim)

    async def append(
        self, match_id: str, expected_version: int, actions: Sequence[Action], progress: Progress,
        times: Sequence[ClockMark | None] | None = None,
    ) -> None:
        rows = list(actions)
        marks = [None if mark is None else store_json(mark) for mark in times or [None] * len(rows)]
        now = time.time()

        def append(db: sqlite3.Connection) -> None:
            (stored,) = db.execute(
                "SELECT COALESCE(MAX(version), 0) FROM events WHERE match_id = ?", (match_id,)
            ).fetchone()
            if stored != expected_version:
                raise VersionConflict(f"match {match_id} is at version {stored}, not {expected_version}")
            db.executemany(
                "INSERT INTO events (match_id, version, action, created, clock) VALUES (?, ?, ?, ?, ?)",
                [(match_id, expected_version + offset, action, now, mark)
                 for offset, (action, mark) in enumerate(zip(rows, marks, strict=True), start=1)],
            )
            _store_progress(db, [(match_id, progress)])

        # The same check and insert as one statement per action, for batches of appends only.
        fast = [(match_id, expected_version + offset, action, now, mark,
                 match_id, expected_version + offset - 1)
                for offset, (action, mark) in enumerate(zip(rows, marks, strict=True), start=1)]
        await self._do(append, _Appends(fast, (match_id, progress)))

    async def set_progress(self, match_id: str, progress: Progress) -> None:
        def store(db: sqlite3.Connection) -> None:
            if _store_progress(db, [(match_id, progress)]) != 1:
                raise StoreError(f"there is no match {match_id}")

        await self._do(store)

    async def add_chat(self, match_id: str, said: ChatLine, most: int) -> ChatLine | None:
        def add(db: sqlite3.Connection) -> ChatLine | None:
            # The latest number is the count (numbers start at 1, none is ever removed): one step
            # down the key, however long the chat.
            (latest,) = db.execute("SELECT COALESCE(MAX(id), 0) FROM chat WHERE match_id = ?",
                                   (match_id,)).fetchone()
            if latest >= most:
                return None
            line = replace(said, id=latest + 1)
            db.execute("INSERT INTO chat (match_id, id, room, seat, name, text, at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (match_id, line.id, line.room, line.seat, line.name, line.text, line.at))
            return line

        return await self._do(add)

    async def add_board(self, board: BoardRow, most: int) -> BoardSaved:
        def add(db: sqlite3.Connection) -> BoardSaved:
            if db.execute("SELECT 1 FROM boards WHERE game = ? AND name = ?",
                          (board.game, board.name)).fetchone() is not None:
                return "exists"
            (held,) = db.execute("SELECT COUNT(*) FROM boards").fetchone()
            if held >= most:
                return "full"
            db.execute("INSERT INTO boards (game, name, text, cols, rows, author, created, address)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (board.game, board.name, board.text, board.cols, board.rows, board.author,
                        board.created, board.address))
            return "saved"

        return await self._do(add)

    # --- the interface: reads ---

    async def load_board(self, game: str, name: str) -> BoardRow | None:
        def load(db: sqlite3.Connection) -> BoardRow | None:
            found = db.execute(f"SELECT {BOARD_COLUMNS} FROM boards WHERE game = ? AND name = ?",
                               (game, name)).fetchone()
            return None if found is None else BoardRow(*found)

        return await self._read(load)

    async def list_boards(self, game: str, after: tuple[float, str] | None, limit: int) -> list[BoardRow]:
        def walk(db: sqlite3.Connection) -> list[BoardRow]:
            where = "game = ?" + ("" if after is None else " AND (created, name) < (?, ?)")
            arguments = (game, *(() if after is None else after), max(limit, 0))
            columns = "game, name, '' AS text, cols, rows, author, created, address"  # no text: see Store
            return [BoardRow(*found) for found in db.execute(
                f"SELECT {columns} FROM boards WHERE {where} ORDER BY created DESC, name DESC LIMIT ?",
                arguments)]

        return await self._read(walk)

    async def load_chat(self, match_id: str, rooms: Sequence[ChatRoom], most: int) -> list[ChatLine]:
        def load(db: sqlite3.Connection) -> list[ChatLine]:
            marks = ", ".join("?" for _ in rooms)
            latest = [ChatLine(*values) for values in db.execute(
                "SELECT id, room, seat, name, text, at FROM chat WHERE match_id = ? AND room IN"
                f" ({marks}) ORDER BY id DESC LIMIT ?", (match_id, *rooms, most))]
            return latest[::-1]

        return await self._read(load)

    async def load_unfinished(self) -> list[MatchRow]:
        return await self._read(_load_unfinished)

    async def load_match(self, match_id: str) -> MatchRow | None:
        return await self._read(lambda db: _load_match(db, match_id))

    async def events_after(self, match_id: str, version: int) -> EventsAfter | None:
        return await self._read(lambda db: _events_after(db, match_id, version))

    async def list_matches(
        self, statuses: Sequence[MatchStatus], game: str | None, after: tuple[float, str] | None, limit: int,
        ids: Sequence[str] | None = None,
    ) -> list[MatchRow]:
        if ids is not None:
            return await self._read(lambda db: _chosen_matches(db, ids, statuses, game, after, limit))
        return await self._read(lambda db: _list_matches(db, statuses, game, after, limit))

    async def close(self) -> None:
        self._work.put(None)
        await asyncio.to_thread(self._writer.join)
        self._stop.set()
        await asyncio.to_thread(self._checkpointer.join)
        await asyncio.to_thread(self._reading.shutdown)
        for _ in range(self.READERS):
            self._readers.get().close()
        self._loop_db.close()
        self.db.close()

    # --- the threads ---

    async def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._reading, self._run_read, work)

    def _run_read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        db = self._readers.get()
        try:
            db.execute("BEGIN")  # one snapshot for all the statements of one read
            try:
                return work(db)
            finally:
                db.execute("COMMIT")
        except sqlite3.Error as error:
            raise StoreError(f"storage: {error}") from None
        finally:
            self._readers.put(db)

    async def _do(self, work: Callable[[sqlite3.Connection], T], appends: _Appends | None = None) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._pending.append(_Work(work, loop, future, appends))
        if len(self._pending) == 1:
            loop.call_soon(self._hand_over)
        return await future

    def _hand_over(self) -> None:
        """Commits what this turn of the event loop asked for, on the loop when it can go straight
        on, else through the writer thread."""
        pending, self._pending = self._pending, []
        if not self._handed and not self._catch_up:
            try:
                outcomes = self._commit_batch(self._loop_db, pending)
            except _Locked:
                pass
            else:
                _answer([(work.future, outcome) for work, outcome in zip(pending, outcomes, strict=True)])
                return
        self._handed += 1
        self._work.put(pending)

    def _thread_answered(self, answered: list[tuple[asyncio.Future[Any], BaseException | _Done]],
                         batches: int) -> None:
        self._handed -= batches
        _answer(answered)

    def _commit_batch(self, db: sqlite3.Connection, batch: list[_Work[Any]]) -> list[BaseException | _Done]:
        """Commits a batch; each call's result (in ``_Done``) or error. ``_Locked``: nothing done."""
        try:
            outcomes = self._commit_appends(db, batch)
            if outcomes is None:
                outcomes = self._commit(db, batch)
        except _Locked:
            raise
        except Exception as error:  # the disk failed mid-way: every caller hears
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            outcomes = [StoreError(f"storage: {error}")] * len(batch)
        self._commits += 1
        self._last_commit = time.monotonic()
        return outcomes

    def _write(self) -> None:
        while True:
            first = self._work.get()
            if first is None:
                return
            batch, batches = list(first), 1
            stop = False
            while True:
                try:
                    more = self._work.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch += more
                batches += 1
            try:
                outcomes = self._commit_batch(self.db, batch)
            except _Locked as locked:  # still locked after busy_timeout: one by one would wait again
                outcomes = [StoreError(f"storage: {locked}")] * len(batch)
            if self._catch_up:
                self._catch_up = False
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            answers: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
            for work, outcome in zip(batch, outcomes, strict=True):
                answers.setdefault(work.loop, []).append((work.future, outcome))
            for loop, answered in answers.items():  # one wake-up of each loop per batch
                with contextlib.suppress(RuntimeError):  # the loop is gone: nobody is waiting
                    loop.call_soon_threadsafe(self._thread_answered, answered, batches)
                batches = 0  # counted back once
            if stop:
                return

    def _commit_appends(self, db: sqlite3.Connection,
                        batch: list[_Work[Any]]) -> list[BaseException | _Done] | None:
        """A batch whose appends go in a few statements whatever their number, the rest of it one
        by one in the same transaction; ``None`` if there is no append or the appends are not that
        simple (a version conflict), and nothing is done.

        Few statements matter: each one hands the interpreter lock to the event loop's thread and
        back, and taking it back can wait for the loop's switch interval when the loop is busy.
        Works of one batch never depend on each other (each caller awaits its own before asking
        more), so running the appends first changes no outcome.
        """
        appends = [work.appends for work in batch if work.appends is not None]
        if not appends:
            return None
        rows = [row for append in appends for row in append.events]
        _begin(db)
        try:
            cursor = db.executemany(
                "INSERT INTO events (match_id, version, action, created, clock) SELECT ?, ?, ?, ?, ?"
                " WHERE (SELECT COALESCE(MAX(version), 0) FROM events WHERE match_id = ?) = ?",
                rows,
            )
            if cursor.rowcount != len(rows):  # a version conflict: sort it out one by one
                db.execute("ROLLBACK")
                return None
            _store_progress(db, [append.progress for append in appends])
        except Exception:  # text that cannot be encoded fails while binding, outside SQLite
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            return None  # one by one, each failure fails its own call only
        outcomes = [_Done(None) if work.appends is not None else _run_saved(db, work) for work in batch]
        return _commit_or_fail(db, outcomes)

    def _commit(self, db: sqlite3.Connection, batch: list[_Work[Any]]) -> list[BaseException | _Done]:
        """Runs a batch in one transaction; each entry's result (in ``_Done``) or error."""
        _begin(db)
        return _commit_or_fail(db, [_run_saved(db, work) for work in batch])

    def _checkpoint(self) -> None:
        """Passive checkpoints every few seconds while commits go on (more often while the log is
        over its limit), a truncating one once idle."""
        db = _connect(self.path)
        # Never wait: a truncating checkpoint holds the write lock while it waits for readers, and
        # the server's writer would wait behind it; busy, it copies what it can and tries again.
        db.execute("PRAGMA busy_timeout=0")
        done = self._commits  # commits already in the database file
        passive = time.monotonic()
        try:
            while not self._stop.wait(self.IDLE_SECONDS / 4):
                commits, now = self._commits, time.monotonic()
                if commits == done:
                    continue
                with contextlib.suppress(sqlite3.Error):
                    if now - self._last_commit >= self.IDLE_SECONDS:
                        (busy, _, _) = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                        if not busy:
                            done = commits
                        passive = now
                    elif now - passive >= self.CHECKPOINT_SECONDS or self._wal_size() > self.JOURNAL_LIMIT:
                        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                        passive = now
                        # The log restarts (cut to the limit) only once a commit finds all of it
                        # copied, which a checkpoint beside a busy writer never quite achieves:
                        # the writer copies the last few frames itself, between two commits.
                        self._catch_up = self._wal_size() > self.JOURNAL_LIMIT
        finally:
            db.close()


    def _wal_size(self) -> int:
        try:
            return os.stat(self.path + "-wal").st_size
        except OSError:
            return 0


class _Locked(Exception):
    """The file's write lock is held by another connection (a checkpoint, another process)."""


def _begin(db: sqlite3.Connection) -> None:
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as error:
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF  # the primary code of an extended one
        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise _Locked(str(error)) from None
        raise  # another failure: the batch's callers hear it (``_commit_batch``)


def _connect_writer(path: str) -> sqlite3.Connection:
    """A connection that writes: settings that hold per connection (the log mode is the file's)."""
    db = _connect(path)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # a commit appends to the log, no fsync
        # Checkpoints copy the log into the database and fsync both; a passive one never blocks a
        # writer, so they run in a thread of their own rather than inside some commit.
        db.execute("PRAGMA wal_autocheckpoint=0")
    except BaseException:
        db.close()
        raise
    return db


def _connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA busy_timeout=5000")
    db.execute(f"PRAGMA journal_size_limit={SQLiteStore.JOURNAL_LIMIT}")
    return db


def store_json(value: Any) -> str:
    # Not ASCII-escaped: text that is not valid Unicode (a lone surrogate) then fails to encode
    # and fails its whole call, instead of being stored as an escape that comes back broken.
    return json.dumps(value, ensure_ascii=False)


def progress_values(progress: Progress) -> tuple[Any, ...]:
    outcome = None if progress.outcome is None else store_json(progress.outcome)
    to_move = progress.to_move
    # A seat number is its own JSON: json.dumps for every action was a fifth of the writer's time.
    moving = str(to_move) if type(to_move) is int else store_json(to_move)
    return progress.status, progress.version, moving, outcome, progress.updated


def _store_progress(db: sqlite3.Connection, stored: Sequence[tuple[str, Progress]]) -> int:
    """Stores each match's progress in two statements whatever their number; how many matches
    there were of those named."""
    values = [(match_id, progress_values(progress)) for match_id, progress in stored]
    found = db.executemany(SET_PROGRESS, [(*row[1:], match_id) for match_id, row in values]).rowcount
    db.executemany(SET_STATUS, [(row[0], match_id, row[0]) for match_id, row in values])
    return found


T = TypeVar("T")


@dataclass
class _Appends:
    """An append's rows for the few-statement batch of ``_commit_appends``."""

    events: list[tuple[Any, ...]]
    progress: tuple[str, Progress]


@dataclass
class _Work(Generic[T]):
    run: Callable[[sqlite3.Connection], T]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[T]
    appends: _Appends | None = None


@dataclass
class _Done:
    value: Any


def _run_saved(db: sqlite3.Connection, work: _Work[Any]) -> BaseException | _Done:
    """Runs one work inside the open transaction, undone alone if it fails."""
    db.execute("SAVEPOINT work")
    try:
        done = _Done(work.run(db))
    except Exception as error:
        db.execute("ROLLBACK TO work")
        db.execute("RELEASE work")
        return error if isinstance(error, StoreError) else StoreError(f"storage: {error}")
    db.execute("RELEASE work")
    return done


def _commit_or_fail(db: sqlite3.Connection,
                    outcomes: list[BaseException | _Done]) -> list[BaseException | _Done]:
    """Commits the open transaction: ``outcomes``, or the commit's error for every work."""
    try:
        db.execute("COMMIT")
    except sqlite3.Error as error:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        return [StoreError(f"storage: {error}")] * len(outcomes)
    return outcomes


def _answer(answered: list[tuple[asyncio.Future[Any], BaseException | _Done]]) -> None:
    for future, outcome in answered:
        if future.done():
            continue
        if isinstance(outcome, _Done):
            future.set_result(outcome.value)
        else:
            future.set_exception(outcome)


# --- reading ---


def match_row(values: Sequence[Any]) -> MatchRow:
    (match_id, created, game, players, options, seed, start, bot_seconds,
     status, version, to_move, outcome, updated, clock, rematch_of) = values
    return MatchRow(
        id=match_id, game=game, players=players, options=json.loads(options), seed=seed, seats=[],
        bot_seconds=bot_seconds, created=created, start=None if start is None else json.loads(start),
        clock=None if clock is None else json.loads(clock), rematch_of=rematch_of,
        progress=Progress(status, version, json.loads(to_move) if to_move is not None else None,
                          None if outcome is None else json.loads(outcome), updated),
    )


def _add_seats(
    db: sqlite3.Connection, rows: dict[str, MatchRow], where: str, arguments: Sequence[Any]
) -> None:
    for match_id, kind, bot, name, token_hash in db.execute(
        f"SELECT match_id, kind, bot, name, token_hash FROM seats WHERE {where} ORDER BY match_id, seat",
        arguments,
    ):
        rows[match_id].seats.append(SeatRecord(kind, bot, name, token_hash))


def _load_unfinished(db: sqlite3.Connection) -> list[MatchRow]:
    unfinished = "status IN ('open', 'running')"
    rows = {row.id: row for row in map(match_row, db.execute(
        f"SELECT {MATCH_COLUMNS} FROM matches WHERE {unfinished} ORDER BY created, id"))}
    chosen = f"match_id IN (SELECT id FROM matches WHERE {unfinished})"
    _add_seats(db, rows, chosen, ())
    # One range of the events' key each, in the key's order: neighbours share pages, which
    # SQLite's page cache then reads once (random match ids made the age order five times slower).
    for match_id in sorted(rows):
        _add_events(db, rows[match_id])
    return list(rows.values())


def _actions(db: sqlite3.Connection, match_id: str) -> list[Action]:
    return [action for (action,) in db.execute(
        "SELECT action FROM events WHERE match_id = ? ORDER BY version", (match_id,))]


def _add_events(db: sqlite3.Connection, row: MatchRow) -> None:
    """The match's actions, with their clock marks when it has a clock."""
    if row.clock is None:
        row.actions = _actions(db, row.id)
        return
    found = db.execute("SELECT action, clock FROM events WHERE match_id = ? ORDER BY version", (row.id,))
    row.actions, row.times = [], []
    for action, mark in found:
        row.actions.append(action)
        row.times.append(None if mark is None else clock_mark(json.loads(mark)))


def clock_mark(stored: Any) -> ClockMark:
    seat, spent, left = stored
    return int(seat), float(spent), float(left)


def _load_match(db: sqlite3.Connection, match_id: str) -> MatchRow | None:
    found = db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
    if found is None:
        return None
    row = match_row(found)
    _add_seats(db, {match_id: row}, "match_id = ?", (match_id,))
    _add_events(db, row)
    rematch = db.execute("SELECT id FROM matches WHERE rematch_of = ?", (match_id,)).fetchone()
    row.rematch = None if rematch is None else rematch[0]
    return row


def _events_after(db: sqlite3.Connection, match_id: str, version: int) -> EventsAfter | None:
    found = db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
    if found is None:
        return None
    row = match_row(found)
    assert row.progress is not None
    later = EventsAfter([], [], row.progress)
    for action, mark in db.execute(
            "SELECT action, clock FROM events WHERE match_id = ? AND version > ? ORDER BY version",
            (match_id, version)):
        later.actions.append(action)
        if row.clock is not None:
            later.times.append(None if mark is None else clock_mark(json.loads(mark)))
    return later


def _list_matches(
    db: sqlite3.Connection, statuses: Sequence[MatchStatus], game: str | None,
    after: tuple[float, str] | None, limit: int,
) -> list[MatchRow]:
    # One walk down an index per status, each from the cursor and at most a page long; the
    # newest of them make the page.
    where = "status = ?" + ("" if game is None else " AND game = ?")
    if after is not None:
        where += " AND (created, id) < (?, ?)"
    arguments = (*(() if game is None else (game,)), *(() if after is None else after), max(limit, 0))
    found: list[MatchRow] = []
    for status in dict.fromkeys(statuses):
        found += map(match_row, db.execute(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY created DESC, id DESC LIMIT ?",
            (status, *arguments)))
    found.sort(key=lambda row: (row.created, row.id), reverse=True)
    rows = {row.id: row for row in found[:max(limit, 0)]}
    if rows:
        _add_seats(db, rows, f"match_id IN ({', '.join('?' * len(rows))})", list(rows))
    return list(rows.values())


def _chosen_matches(
    db: sqlite3.Connection, ids: Sequence[str], statuses: Sequence[MatchStatus], game: str | None,
    after: tuple[float, str] | None, limit: int,
) -> list[MatchRow]:
    """The matches of ``ids`` (by primary key: a few look-ups) that ``_list_matches`` would list."""
    chosen = list(dict.fromkeys(ids))
    if not chosen or not statuses:
        return []
    where = f"id IN ({', '.join('?' * len(chosen))}) AND status IN ({', '.join('?' * len(statuses))})"
    where += "" if game is None else " AND game = ?"
    where += "" if after is None else " AND (created, id) < (?, ?)"
    arguments = (*chosen, *statuses, *(() if game is None else (game,)), *(() if after is None else after))
    rows = {row.id: row for row in map(match_row, db.execute(
        f"SELECT {MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY created DESC, id DESC LIMIT ?",
        (*arguments, max(limit, 0))))}
    if rows:
        _add_seats(db, rows, f"match_id IN ({', '.join('?' * len(rows))})", list(rows))
    return list(rows.values())


# --- opening and migrating ---


def open_schema(db: sqlite3.Connection) -> None:
    """Makes the tables of a new file, or brings an older file's up to ``SCHEMA_VERSION``."""
    db.execute("BEGIN IMMEDIATE")  # another process opening the same file waits for this one
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise StoreError(f"the database has schema {version}, newer than this parlour's {SCHEMA_VERSION}")
        if version < SCHEMA_VERSION:
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "matches" not in tables:
                _run_script(db, SCHEMA)
            else:
                if version < 1:
                    _migrate(db)
                _add_clocks(db)
                _add_rematch_links(db)
                _run_script(db, SCHEMA)  # the tables a file before them lacks (chat, boards)
            _run_script(db, INDEXES)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise


def _run_script(db: sqlite3.Connection, script: str) -> None:
    # Statement by statement: ``executescript`` would commit the transaction it is part of.
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _migrate(db: sqlite3.Connection) -> None:
    """Gives a file of schema 0 (matches without progress) its progress columns, working out each
    match's progress by replaying it with its game's rules (once: the file then says schema 1)."""
    for name, declaration in PROGRESS_COLUMNS:
        db.execute(f"ALTER TABLE matches ADD COLUMN {name} {declaration}")
    db.execute("ALTER TABLE events RENAME TO old_events")
    _run_script(db, SCHEMA)  # the events table as it is now
    db.execute("INSERT INTO events (match_id, version, action, created) "
               "SELECT match_id, version, action, created FROM old_events")
    db.execute("DROP TABLE old_events")
    seats: dict[str, list[SeatRecord]] = {}
    for match_id, kind in db.execute("SELECT match_id, kind FROM seats ORDER BY match_id, seat"):
        seats.setdefault(match_id, []).append(SeatRecord(kind))
    progress = []
    matches = db.execute("SELECT id, created, game, players, options, seed, start FROM matches").fetchall()
    log.warning("migrating the database to schema %d: replaying %d matches, once", SCHEMA_VERSION,
                len(matches))
    began = time.monotonic()
    for match_id, created, game, players, options, seed, start in matches:
        actions = _actions(db, match_id)
        (updated,) = db.execute("SELECT MAX(created) FROM events WHERE match_id = ?", (match_id,)).fetchone()
        found = replayed_progress(
            game, players, json.loads(options), seed, None if start is None else json.loads(start),
            actions, seats.get(match_id, []), created if updated is None else updated,
        )
        progress.append((match_id, found))
    _store_progress(db, progress)
    log.warning("migrated %d matches in %.1f s", len(matches), time.monotonic() - began)


def _add_clocks(db: sqlite3.Connection) -> None:
    """Gives a file of schema 1 (or one just brought to it) its clock columns: its matches have no
    clock, and their actions no marks."""
    for table in ("matches", "events"):
        columns = {name for (_, name, *_) in db.execute(f"PRAGMA table_info({table})")}
        if "clock" not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN clock TEXT")


def _add_rematch_links(db: sqlite3.Connection) -> None:
    """Gives a file of schema 2 (or one just brought to it) the rematch link of its matches: none
    is on record."""
    columns = {name for (_, name, *_) in db.execute("PRAGMA table_info(matches)")}
    if "rematch_of" not in columns:
        db.execute("ALTER TABLE matches ADD COLUMN rematch_of TEXT")


def replayed_progress(
    game: str, players: int, options: dict[str, Any], seed: int, start: JSONDict | None,
    actions: Sequence[Action], seats: Sequence[SeatRecord], updated: float,
) -> Progress:
    """Where a match stands, found by replaying its actions; a match that cannot be replayed (an
    unknown game, a damaged record) is ``running`` so that the server still tries it, and says
    why it cannot resume, at start-up."""
    from parlour.games import get_game  # only migrations replay: the store needs no rules otherwise

    try:
        state = get_game(game).new(players, options, seed, start)
        for action in actions:
            state.play_recorded(action)
    except Exception as error:
        log.warning("migrating: a match of %s cannot be replayed (%s); it stays unfinished", game, error)
        return Progress("running", len(actions), None, None, updated)
    return replace(progress_of(state, seats), updated=updated)


class MemoryStore:
    """A store that keeps everything in memory (for tests and throwaway servers).

    It refuses what SQLite would refuse (text that is not valid Unicode), so that a server on
    either store takes and refuses the same things."""

    def __init__(self) -> None:
        self.matches: dict[str, MatchRow] = {}
        self.chat: dict[str, list[ChatLine]] = {}
        self.boards: dict[tuple[str, str], BoardRow] = {}

    async def add_board(self, board: BoardRow, most: int) -> BoardSaved:
        if (board.game, board.name) in self.boards:
            return "exists"
        if len(self.boards) >= most:
            return "full"
        _check_text([board.game, board.name, board.text, board.author, board.address])
        self.boards[board.game, board.name] = board
        return "saved"

    async def load_board(self, game: str, name: str) -> BoardRow | None:
        return self.boards.get((game, name))

    async def list_boards(self, game: str, after: tuple[float, str] | None, limit: int) -> list[BoardRow]:
        newest = sorted((board for board in self.boards.values() if board.game == game
                         and (after is None or (board.created, board.name) < after)),
                        key=lambda board: (board.created, board.name), reverse=True)
        return [replace(board, text="") for board in newest[:max(limit, 0)]]  # no text, as SQLite's

    async def add_chat(self, match_id: str, said: ChatLine, most: int) -> ChatLine | None:
        self._get(match_id)
        _check_text([said.name, said.text])
        lines = self.chat.setdefault(match_id, [])
        if len(lines) >= most:
            return None
        line = replace(said, id=len(lines) + 1)
        lines.append(line)
        return line

    async def load_chat(self, match_id: str, rooms: Sequence[ChatRoom], most: int) -> list[ChatLine]:
        return [line for line in self.chat.get(match_id, []) if line.room in rooms][-most:]

    async def create(self, match: MatchRow) -> None:
        if match.id in self.matches:
            raise StoreError(f"match {match.id} exists")
        if match.progress is None:
            raise StoreError(f"match {match.id} has no progress to store")
        _check_text([match.options, match.start, [(seat.bot, seat.name) for seat in match.seats]])
        if match.rematch_of is not None and any(row.rematch_of == match.rematch_of
                                                for row in self.matches.values()):
            raise StoreError(f"match {match.rematch_of} has a rematch already")
        stored = copy.deepcopy(match)
        stored.actions, stored.times = [], []
        self.matches[match.id] = stored

    async def claim_seat(
        self, match_id: str, seat: int, token_hash: str, name: str | None, progress: Progress
    ) -> bool:
        stored = self._get(match_id)
        if not 0 <= seat < len(stored.seats) or stored.seats[seat].kind != "open":
            return False
        _check_text([token_hash, name, progress.to_move, progress.outcome])
        record = stored.seats[seat]
        record.kind, record.token_hash, record.name = "person", token_hash, name
        stored.progress = progress
        return True

    async def append(
        self, match_id: str, expected_version: int, actions: Sequence[Action], progress: Progress,
        times: Sequence[ClockMark | None] | None = None,
    ) -> None:
        stored = self._get(match_id)
        if len(stored.actions) != expected_version:
            raise VersionConflict(
                f"match {match_id} is at version {len(stored.actions)}, not {expected_version}"
            )
        _check_text([progress.to_move, progress.outcome])
        stored.actions.extend(actions)
        if stored.clock is not None:
            stored.times.extend([None] * len(actions) if times is None else times)
        stored.progress = progress

    async def set_progress(self, match_id: str, progress: Progress) -> None:
        _check_text([progress.to_move, progress.outcome])
        self._get(match_id).progress = progress

    async def load_unfinished(self) -> list[MatchRow]:
        return [copy.deepcopy(row) for row in sorted(self.matches.values(), key=_age)
                if row.progress is not None and row.progress.status in UNFINISHED]

    async def load_match(self, match_id: str) -> MatchRow | None:
        row = self.matches.get(match_id)
        if row is None:
            return None
        loaded = copy.deepcopy(row)
        loaded.rematch = next((other.id for other in self.matches.values() if other.rematch_of == match_id),
                              None)
        return loaded

    async def events_after(self, match_id: str, version: int) -> EventsAfter | None:
        row = self.matches.get(match_id)
        if row is None or row.progress is None:
            return None
        later = max(version, 0)
        return EventsAfter(row.actions[later:], row.times[later:] if row.clock is not None else [],
                           row.progress)

    async def list_matches(
        self, statuses: Sequence[MatchStatus], game: str | None, after: tuple[float, str] | None, limit: int,
        ids: Sequence[str] | None = None,
    ) -> list[MatchRow]:
        chosen = sorted(
            (row for row in self.matches.values()
             if row.progress is not None and row.progress.status in statuses
             and (ids is None or row.id in ids)
             and (game is None or row.game == game) and (after is None or _age(row) < after)),
            key=_age, reverse=True,
        )
        return [copy.deepcopy(replace(row, actions=[])) for row in chosen[:max(limit, 0)]]

    async def close(self) -> None:
        pass

    def _get(self, match_id: str) -> MatchRow:
        row = self.matches.get(match_id)
        if row is None:
            raise StoreError(f"there is no match {match_id}")
        return row


def _age(row: MatchRow) -> tuple[float, str]:
    return row.created, row.id


def _check_text(value: Any) -> None:
    """``StoreError`` if some text in ``value`` (JSON-like) could not be stored as UTF-8."""
    try:
        json.dumps(value, ensure_ascii=False).encode()
    except (UnicodeEncodeError, TypeError, ValueError) as error:
        raise StoreError(f"storage: {error}") from None
