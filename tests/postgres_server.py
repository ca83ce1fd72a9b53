"""A PostgreSQL server of the tests' own: started once per test session on a free port of 127.0.0.1,
its files in a temporary directory, stopped and removed at the end. No test assumes one already runs.

Starting and stopping it is ``parlour.server.services.Postgres`` (``parlour cluster up`` uses the
same); what is the tests' own is here: a throwaway directory, settings that spare the disk, and a
schema of its own for each test (``fresh``: cheap, unlike a database), named in the URL it is
given, so that stores and servers opened on that URL see only that test's tables.
"""

from __future__ import annotations

import contextlib
import itertools
import shutil
import tempfile
from pathlib import Path
from urllib.parse import quote

import psycopg

from parlour.server.services import POSTGRES_DATABASE, Postgres, ServiceError, free_port

__all__ = ["PostgresServer", "free_port"]

# fsync off: a test never loses power, and the shared machine's disk is spared.
TEST_SETTINGS = ("fsync=off", "full_page_writes=off", "max_connections=200")


class PostgresServer(Postgres):
    """``Postgres`` in a new temporary directory; ``url`` reaches its database, ``fresh`` a new schema."""

    def __init__(self) -> None:
        # In /tmp whatever TMPDIR says: the postgres user must reach it, and the socket's path
        # (DIR/.s.PGSQL.PORT) must stay within the 107 bytes a Unix socket's name may have.
        directory = Path(tempfile.mkdtemp(prefix="parlour-postgres-", dir="/tmp"))
        super().__init__(directory, settings=TEST_SETTINGS)
        self._schemas = itertools.count(1)

    def start(self) -> PostgresServer:
        super().start()
        return self

    def url(self, database: str = POSTGRES_DATABASE, schema: str | None = None) -> str:
        url = super().url(database)
        if schema is not None:
            url += "?options=" + quote(f"-c search_path={schema}")
        return url

    def fresh(self) -> str:
        """The URL of a new empty schema (a store opened on it makes its tables there)."""
        schema = f"test_{next(self._schemas)}"
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE SCHEMA {schema}")
        return self.url(schema=schema)

    def stop(self) -> None:
        with contextlib.suppress(ServiceError):
            self.halt()
        shutil.rmtree(self.dir, ignore_errors=True)

    def log_text(self) -> str:
        with contextlib.suppress(OSError):
            return "postgres log:\n" + self.log.read_text(errors="replace")[-4000:]
        return ""
