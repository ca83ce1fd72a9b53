"""The event store and pub/sub interfaces: both implementations behave the same."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from parlour.server.pubsub import MemoryPubSub
from parlour.server.storage import MatchRow, MemoryStore, SeatRecord, SQLiteStore, Store, VersionConflict

ASYNC = pytest.mark.asyncio(loop_scope="session")


def a_match(match_id: str = "m1") -> MatchRow:
    return MatchRow(id=match_id, game="loa", players=2, options={"move_limit": 60}, seed=9,
                    seats=[SeatRecord("open"), SeatRecord("bot", bot="random")], bot_seconds=0.5)


@pytest_asyncio.fixture(params=["sqlite", "memory"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    made: Store = SQLiteStore(tmp_path / "events.sqlite3") if request.param == "sqlite" else MemoryStore()
    yield made
    await made.close()


@ASYNC
async def test_append_checks_the_expected_version(store: Store) -> None:
    await store.create(a_match())
    await store.append("m1", 0, [100])
    await store.append("m1", 1, [200, 300])
    for wrong in (0, 2, 4):
        with pytest.raises(VersionConflict):
            await store.append("m1", wrong, [999])
    (loaded,) = await store.load_all()
    assert loaded.actions == [100, 200, 300]
    assert (loaded.game, loaded.players, loaded.options, loaded.seed) == ("loa", 2, {"move_limit": 60}, 9)
    assert [seat.kind for seat in loaded.seats] == ["open", "bot"]
    assert loaded.seats[1].bot == "random"


@ASYNC
async def test_a_seat_is_claimed_once(store: Store) -> None:
    await store.create(a_match())
    assert await store.claim_seat("m1", 0, "hash-a", "Ann") is True
    assert await store.claim_seat("m1", 0, "hash-b", "Bob") is False
    assert await store.claim_seat("m1", 1, "hash-b", "Bob") is False  # a bot's seat
    (loaded,) = await store.load_all()
    claimed = loaded.seats[0]
    assert (claimed.kind, claimed.token_hash, claimed.name) == ("person", "hash-a", "Ann")


@ASYNC
async def test_sqlite_is_in_wal_mode_and_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    first = SQLiteStore(path)
    await first.create(a_match("m1"))
    await first.create(a_match("m2"))
    await first.append("m2", 0, [5])
    # No close: as after SIGKILL, the next process opens the file as it was left.
    second = SQLiteStore(path)
    assert [(row.id, row.actions) for row in await second.load_all()] == [("m1", []), ("m2", [5])]
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    await first.close()
    await second.close()


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
