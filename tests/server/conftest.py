"""Fixtures of the server tests: a shared server, a server of one's own, and clients closed after use."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from postgres_server import PostgresServer
from server_helpers import Client
from server_process import Server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server shared by the tests that do not kill it."""
    running = Server(tmp_path_factory.mktemp("server")).start()
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
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test's own (to kill, restart or inspect its file)."""
    running = Server(tmp_path).start()
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


