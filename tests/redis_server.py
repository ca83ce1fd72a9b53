"""A real ``redis-server`` on 127.0.0.1 for the tests: started once per test session, on a free port,
its files in a temporary directory, nothing saved to disk, stopped at the end.

Starting, stopping, pausing and restarting it on the same port (a Redis restart, as the issue's
faults ask) is ``parlour.server.services.Redis``; every wait there is bounded and fails saying what
was awaited. This module is the tests' fixture.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from parlour.server.services import Redis as RedisServer

__all__ = ["RedisServer", "redis_server"]


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One Redis shared by the test session; a test that stops it starts it again before it ends."""
    running = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield running
    running.stop()
