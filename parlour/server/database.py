"""``parlour db``: looking after the server's SQLite file, by hand or from cron.

``parlour db backup OUT`` copies the database while a server keeps using it: SQLite's online
backup reads one consistent snapshot (in WAL mode the server's writer is never held up by it),
the copy is written beside ``OUT`` under a temporary name and renamed over it only once whole, so
``OUT`` is always either the previous copy or the new one, never half of one.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from parlour.server.serve import default_db

DESCRIPTION = """\
Look after the SQLite file in which 'parlour serve' keeps its matches.

  backup OUT   copy the database to the file OUT, safely while a server is running: the copy
               is one consistent moment of the database, written beside OUT under a temporary
               name and renamed to OUT once complete (an older OUT is replaced only then).
               The copy is a self-contained SQLite file (no -wal beside it); start a server on
               it with 'parlour serve --db OUT' to restore it.
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
    return parser


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv))
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
