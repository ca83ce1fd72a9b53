"""Fixtures of the server tests: a shared server, a server of one's own, and clients closed after use.

Every test that starts a server (through ``server``, ``own_server`` or ``storage``) runs twice, as
issue 17 asks ("every existing server test passes against the PostgreSQL store too"): ``[sqlite]``
on a SQLite file of its own, ``[postgresql]`` on a new schema of the session's one PostgreSQL. A test
that reads the SQLite file itself says so with ``@pytest.mark.sqlite_only("why")`` and runs once.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from postgres_server import PostgresServer
from server_helpers import Client
from server_process import STORE_KINDS, Server, Storage

SQLITE_ONLY = "sqlite_only"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{SQLITE_ONLY}(reason): runs on the SQLite store only, for the reason given"
                   " (it reads or writes the SQLite file itself)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Each test whose servers keep matches runs once per store kind, but for those marked SQLite-only."""
    if "storage" not in metafunc.fixturenames:
        return
    only = metafunc.definition.get_closest_marker(SQLITE_ONLY)
    if only is not None and not (only.args and isinstance(only.args[0], str) and only.args[0].strip()):
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: {SQLITE_ONLY} needs its reason, in words")
    kinds = ["sqlite"] if only is not None else list(STORE_KINDS)
    # Session scope: the tests are grouped by kind, so the PostgreSQL variants share one PostgreSQL
    # and each shared server is started once per kind, not once per test.
    metafunc.parametrize("storage", kinds, indirect=True, scope="session")


@pytest.fixture(scope="session")
def storage(request: pytest.FixtureRequest) -> Storage:
    """Where this test's servers keep their matches (the parameter ``pytest_generate_tests`` gives)."""
    if request.param == "postgresql":
        postgres: PostgresServer = request.getfixturevalue("postgres")
        return Storage("postgresql", postgres.fresh)
    return Storage("sqlite", lambda: None)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, storage: Storage) -> Iterator[Server]:
    """One server shared by the tests that do not kill it (one per store kind)."""
    running = storage.server(tmp_path_factory.mktemp("server")).start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL for the whole session (started by the first test that asks); each test takes
    a fresh schema of it (``postgres.fresh()``)."""
    running = PostgresServer().start()
    yield running
    running.stop()


@pytest.fixture
def own_server(tmp_path: Path, storage: Storage) -> Iterator[Server]:
    """A server of this test's own (to kill, restart or inspect what it stored)."""
    running = storage.server(tmp_path).start()
    yield running
    running.stop()


@pytest_asyncio.fixture
async def clients() -> AsyncIterator[list[Client]]:
    """Opened clients registered here are closed after the test."""
    opened: list[Client] = []
    yield opened
    for client in opened:
        with contextlib.suppress(Exception):
            await client.close()
