"""``parlour db``: looking after the server's database, by hand or from cron.

``parlour db backup OUT`` copies the database while a server keeps using it: SQLite's online
backup reads one consistent snapshot (in WAL mode the server's writer is never held up by it),
the copy is written beside ``OUT`` under a temporary name and renamed over it only once whole, so
``OUT`` is always either the previous copy or the new one, never half of one.

``parlour db migrate --from FILE --to postgresql://…`` copies everything of a SQLite file into an
empty PostgreSQL database in one transaction, then checks the copy: the same number of rows in
every table, and every match read back from both sides the same and replaying to the same
position by its game's rules.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from parlour.server.serve import default_db, shown_url
from parlour.server.storage import ChatRoom, MatchRow, SQLiteStore, Store, StoreError

DESCRIPTION = """\
Look after the SQLite file in which 'parlour serve' keeps its matches.

  backup OUT   copy the database to the file OUT, safely while a server is running: the copy
               is one consistent moment of the database, written beside OUT under a temporary
               name and renamed to OUT once complete (an older OUT is replaced only then).
               The copy is a self-contained SQLite file (no -wal beside it); start a server on
               it with 'parlour serve --db OUT' to restore it.
  migrate      copy everything of a SQLite file (--from, default the server's) into an empty
               PostgreSQL database (--to postgresql://USER@HOST:PORT/DATABASE), in one
               transaction, then check it: the same rows in every table, and every match read
               back the same from both and replaying to the same position. Stop the server
               on the file first; then start it with 'parlour serve --store URL'.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlour db", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    backup = commands.add_parser(
        "backup", help="copy the database while the server runs",
        description="Copy the database to OUT while a server may be running (an online backup).",
    )
    backup.add_argument("out", type=Path, metavar="OUT", help="the file to write (replaced if it exists)")
    backup.add_argument("--db", type=Path, metavar="PATH",
                        help=f"the server's SQLite file (default {default_db()})")
    migrate = commands.add_parser(
        "migrate", help="copy a SQLite file into an empty PostgreSQL database, and check the copy",
        description="Copy every match, seat, event, chat line and board of a SQLite file into an empty "
                    "PostgreSQL database, then check the copy by counts and by replaying every match.",
    )
    migrate.add_argument("--from", dest="source", type=Path, metavar="FILE",
                         help=f"the SQLite file (default {default_db()}); stop its server first")
    migrate.add_argument("--to", dest="target", required=True, metavar="URL",
                         help="the PostgreSQL database: postgresql://USER@HOST:PORT/DATABASE (empty)")
    return parser


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv))
    if args.command == "migrate":
        return migrate_command(args.source if args.source is not None else default_db(), args.target)
    db: Path = args.db if args.db is not None else default_db()
    try:
        matches, events = backup(db, args.out)
    except (OSError, sqlite3.Error) as error:
        print(f"parlour db backup: {error}", file=sys.stderr)
        return 1
    size = args.out.stat().st_size
    print(f"copied {db} to {args.out}: {matches} matches, {events} events ({size / 1e6:.1f} MB)")
    return 0


def backup(source: Path, out: Path) -> tuple[int, int]:
    """Copies ``source`` to ``out`` atomically; the copy's counts of matches and events."""
    if not source.is_file():
        raise FileNotFoundError(f"there is no database {source}")
    out = out.resolve()
    if not out.parent.is_dir():
        raise FileNotFoundError(f"there is no directory {out.parent} to write the copy in")
    if out == source.resolve():
        raise OSError(f"the copy cannot be the database itself ({source})")
    # Read-only: a missing or mistyped path must not become a new empty database.
    reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".partial", dir=out.parent)
    os.close(fd)
    partial = Path(name)
    try:
        reader.execute("PRAGMA busy_timeout=5000")
        copy = sqlite3.connect(partial, isolation_level=None)
        try:
            reader.backup(copy)  # all pages in one step: one snapshot, never restarted by writes
            # The copy stands alone: no write-ahead log of its own to lose beside it.
            copy.execute("PRAGMA journal_mode=DELETE")
            counts = _counts(copy)
        finally:
            copy.close()
        _sync(partial)
        partial.replace(out)
        _sync(out.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise
    finally:
        reader.close()
    return counts


def _counts(db: sqlite3.Connection) -> tuple[int, int]:
    (matches,) = db.execute("SELECT COUNT(*) FROM matches").fetchone()
    (events,) = db.execute("SELECT COUNT(*) FROM events").fetchone()
    return int(matches), int(events)


def _sync(path: Path) -> None:
    """Flushes a file (or a directory's entries) to disk, so that the rename is the last step."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- migrate ---

TABLES: Final = (
    ("matches", "id, created, game, players, options, seed, start, bot_seconds, status, version, to_move,"
                " outcome, updated, clock, rematch_of"),
    ("seats", "match_id, seat, kind, bot, name, token_hash"),
    ("events", "match_id, version, action, created, clock"),
    ("chat", "match_id, id, room, seat, name, text, at"),
    ("boards", "game, name, text, cols, rows, author, created, address"),
)
"""Every table of the schema, in an order that keeps references whole, with its columns."""


class MigrateError(Exception):
    """The copy could not be made, or is not the same as its source (nothing is left half made)."""


@dataclass
class Migrated:
    counts: dict[str, int]
    """Rows copied, by table."""
    replayed: int
    """Matches replayed on both sides to the same position."""
    unplayable: list[str]
    """Matches that replay on neither side (an unknown game, a damaged record), the same on both."""


def migrate_command(source: Path, url: str) -> int:
    if not url.startswith(("postgresql://", "postgres://")):
        print("parlour db migrate: --to takes a postgresql:// URL", file=sys.stderr)
        return 2
    try:
        done = migrate(source, url)
    except (OSError, sqlite3.Error, StoreError, MigrateError) as error:
        print(f"parlour db migrate: {error}", file=sys.stderr)
        return 1
    rows = ", ".join(f"{count} {'chat lines' if table == 'chat' else table}"
                     for table, count in done.counts.items())
    print(f"copied {source} to {shown_url(url)}: {rows}")
    print(f"checked: the same rows in every table; {done.replayed} matches replay to the same position"
          " on both" + ("" if not done.unplayable else
             f"; {len(done.unplayable)} replay on neither, alike ({', '.join(done.unplayable[:5])}"
             + (" …)" if len(done.unplayable) > 5 else ")")))
    return 0


def migrate(source: Path, url: str) -> Migrated:
    """Copies ``source`` into the empty database at ``url`` and checks the copy."""
    from parlour.server.postgres import PostgresStore, copy_rows  # psycopg only for those who use it

    if not source.is_file():
        raise FileNotFoundError(f"there is no database {source}")
    asyncio.run(SQLiteStore(source).close())  # an older file brought to today's schema first
    asyncio.run(PostgresStore(url).close())  # the tables made (or found in today's schema)
    reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    try:
        reader.execute("BEGIN")  # one moment of the file for every table
        tables = [(table, columns, reader.execute(f"SELECT {columns} FROM {table}"))
                  for table, columns in TABLES]
        counts = copy_rows(url, tables)
        expected = {table: int(reader.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
                    for table, _ in TABLES}
        reader.execute("COMMIT")
    finally:
        reader.close()
    if counts != expected:
        raise MigrateError(f"the copy's rows {counts} are not the file's {expected}")
    return asyncio.run(check_copy(SQLiteStore(source), PostgresStore(url), counts))


async def check_copy(first: Store, second: Store, counts: dict[str, int]) -> Migrated:
    """Every match of ``first`` read back from both stores the same (seats, actions, clock marks,
    progress, chat) and replaying by its game's rules to the same position on both."""
    try:
        replayed, unplayable = 0, []
        for row in await _every_match(first):
            mine, theirs = await first.load_match(row.id), await second.load_match(row.id)
            if mine != theirs:
                raise MigrateError(f"match {row.id} reads back differently from the copy")
            chat: tuple[ChatRoom, ...] = ("players", "spectators")
            if await first.load_chat(row.id, chat, 1 << 30) != await second.load_chat(row.id, chat, 1 << 30):
                raise MigrateError(f"match {row.id}'s chat reads back differently from the copy")
            assert mine is not None
            assert theirs is not None
            here, there = _replay(mine), _replay(theirs)
            if here != there:
                raise MigrateError(f"match {row.id} replays differently from the copy: {here} / {there}")
            if isinstance(here, str):
                unplayable.append(row.id)
            else:
                replayed += 1
        if replayed + len(unplayable) != counts["matches"]:
            raise MigrateError(f"{replayed + len(unplayable)} matches were listed, not {counts['matches']}")
        return Migrated(counts, replayed, unplayable)
    finally:
        await first.close()
        await second.close()


async def _every_match(store: Store) -> list[MatchRow]:
    """Every match, of any status, in pages by the lobby's own query."""
    found: list[MatchRow] = []
    after: tuple[float, str] | None = None
    while True:
        page = await store.list_matches(["open", "running", "over", "expired"], None, after, 500)
        found += page
        if len(page) < 500:
            return found
        after = (page[-1].created, page[-1].id)


def _replay(row: MatchRow) -> tuple[Any, ...] | str:
    """Where a match stands by its rules after its stored actions (version, whose turn, outcome,
    the spectators' view); the reason as text for one that cannot be replayed."""
    from parlour.games import get_game  # only the check replays: copying needs no rules

    try:
        state = get_game(row.game).new(row.players, row.options, row.seed, row.start)
        for action in row.actions:
            state.play_recorded(action)
        return len(state.history), state.to_move_json(), state.outcome_json(), state.view(None)
    except Exception as error:
        return f"{type(error).__name__}: {error}"
