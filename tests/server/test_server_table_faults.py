"""Faults the server's code may meet around the table, which no client can cause: driven in process,
on the in-memory store (the protocol tests over real servers are in test_server_offers and
test_server_rematch)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest
import pytest_asyncio

from parlour.server.bots import BotPool, random_choice
from parlour.server.lobby import Lobby
from parlour.server.match import Match
from parlour.server.pubsub import MemoryPubSub
from parlour.server.storage import MemoryStore
from parlour.server.table import Rematch

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


class HeldBots:
    """Bots that answer only when the test lets them (``release``), counting how many think at once."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.asked = asyncio.Event()
        self.views: list[dict[str, Any]] = []
        self.at_once = 0
        self.most_at_once = 0

    async def choose(self, game: str, kind: str, seed: int, seat: int, view: dict[str, Any],
                     seconds: float) -> str:
        self.views.append(view)
        self.at_once += 1
        self.most_at_once = max(self.most_at_once, self.at_once)
        self.asked.set()
        try:
            await self.release.wait()
        finally:
            self.at_once -= 1
        return random_choice(game, seed, view)


@ASYNC
async def test_a_bot_thinking_while_another_seat_resigns_thinks_once_then_again() -> None:
    bots = HeldBots()
    lobby = Lobby(MemoryStore(), MemoryPubSub(), cast(BotPool, bots))
    try:
        match, _, _ = await lobby.create({"game": "biloba", "players": 3,
                                          "seats": ["bot:random", "open", "open"]})
        moved = asyncio.Event()

        def hear(message: dict[str, Any]) -> None:
            if message.get("kind") == "event" and match.events[-1].seat == 0:
                moved.set()

        match.pubsub.subscribe(match.channel, hear)
        await match.claim(1, "Bob")
        await match.claim(2, "Cy")  # the match starts: Blue's bot (seat 0) thinks, held
        await asyncio.wait_for(bots.asked.wait(), 15)
        assert await match.resign(2) is None  # Cy, not to move, resigns: version 1, Blue still to move
        assert match.version == 1
        assert match.state.to_move() == 0
        bots.release.set()  # its answer, made at version 0, is stale: it thinks again and moves
        await asyncio.wait_for(moved.wait(), 15)
        assert bots.most_at_once == 1  # never two bots for one seat
        assert len(bots.views) == 2  # the stale answer was not dropped silently: it thought again
        assert match.events[-1].version == 2
        assert match.events[-1].seat == 0
    finally:
        await lobby.close()


@ASYNC
async def test_a_stopped_match_answers_what_was_queued_on_its_writer(lobby: Lobby) -> None:
    match = await finished(lobby)
    busy = asyncio.Event()
    never = asyncio.Event()

    async def stuck() -> None:
        busy.set()
        await never.wait()  # the writer is at work on this when the match is stopped

    first = asyncio.ensure_future(match.request(stuck))
    await asyncio.wait_for(busy.wait(), 15)
    queued = asyncio.ensure_future(match.offer(0, "offer", "rematch"))
    await asyncio.sleep(0)  # let the offer reach the writer's queue
    await match.stop()
    answers = await asyncio.wait_for(asyncio.gather(first, queued), 15)
    assert [answer.code if answer is not None else None for answer in answers] == ["unavailable"] * 2
    assert match.offers == {}
