"""Faults the server's code may meet around the table, which no client can cause: driven in process,
on the in-memory store (the protocol tests over real servers are in test_server_offers and
test_server_rematch)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from parlour.server.bots import BotPool
from parlour.server.lobby import Lobby
from parlour.server.match import Match, Rematch
from parlour.server.pubsub import MemoryPubSub
from parlour.server.storage import MemoryStore

ASYNC = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture
async def lobby() -> AsyncIterator[Lobby]:
    bots = BotPool(1)
    made = Lobby(MemoryStore(), MemoryPubSub(), bots)
    yield made
    await made.close()
    bots.close()


async def finished(lobby: Lobby) -> Match:
    """A Lines of Action match of two persons, over: Ann resigned."""
    match, _, _ = await lobby.create({"game": "loa", "seats": ["open", "open"], "join": 0, "name": "Ann"})
    await match.claim(1, "Bob")
    assert await match.resign(0) is None
    assert match.status == "over"
    return match


@ASYNC
async def test_a_rematch_that_fails_leaves_the_offer_as_it_was(lobby: Lobby) -> None:
    match = await finished(lobby)
    assert await match.offer(0, "offer", "rematch") is None

    async def failing(old: Match) -> Rematch:
        raise RuntimeError("a fault in making the rematch")

    match.make_rematch = failing
    refusal = await match.offer(1, "accept", "rematch")
    assert refusal is not None
    assert refusal.code == "internal"
    assert [offer.to_json() for offer in match.offers.values()] == [
        {"what": "rematch", "by": 0, "agreed": [0], "waiting": [1]}]
    assert match.rematch is None
    match.make_rematch = lobby.rematch  # the fault is gone: Bob's accept goes through now
    assert await match.offer(1, "accept", "rematch") is None
    assert match.rematch is not None
    assert match.offers == {}


@ASYNC
async def test_a_lone_persons_failed_rematch_leaves_no_offer(lobby: Lobby) -> None:
    match, _, _ = await lobby.create({"game": "loa", "seats": ["open", "bot:random"], "join": 0,
                                      "name": "Ann", "bot_seconds": 0.01})
    assert await match.resign(0) is None

    async def failing(old: Match) -> Rematch:
        raise RuntimeError("a fault in making the rematch")

    match.make_rematch = failing
    refusal = await match.offer(0, "offer", "rematch")
    assert refusal is not None
    assert refusal.code == "internal"
    assert match.offers == {}
    match.make_rematch = lobby.rematch
    assert await match.offer(0, "offer", "rematch") is None
    assert match.rematch is not None
