"""Spectators on any process of a cluster, through Redis (issue 17: "Redis pub/sub: `parlour serve
--pubsub redis://…`; events of a match reach every process that has a connection watching it", and
the fault "Redis restarted: clients miss no event (they resync from the store by version)").

Two ``parlour serve --pubsub`` processes on one PostgreSQL schema and the session's one Redis: a
match written by A, a spectator straight to B (not through HAProxy) served there from B's replica,
never relayed (B's ``/api/health`` counts its relays), and a spectator on A to compare with: B's
spectator is sent an ``update`` for every version, in order, each the same message A's spectator is
sent (the same ``view``: Mille's, whose hands a spectator never sees). Redis is then stopped and
started again on its port in the middle of a game. Every wait is bounded; nothing sleeps for time.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import pytest_asyncio
import redis
from cluster_helpers import (
    Seat,
    closing_seats,
    connect,
    holder,
    node_of,
    running_pair,
    until,
)
from postgres_server import PostgresServer
from redis_server import RedisServer, redis_server
from server_process import ROOT, WAIT, Server

from parlour.server.match import Match
from parlour.server.pubsub import Message
from parlour.server.redis_pubsub import PubSubUnavailable, RedisPubSub
from parlour.server.replica import RESYNC, ClusterPubSub
from parlour.server.services import free_port

__all__ = ["redis_server"]  # the session's Redis, a fixture

ASYNC = pytest.mark.asyncio(loop_scope="session")

pytestmark = pytest.mark.slow

SHOWN = ("update", "state")
"""The messages that bring a client to a version."""

TURNS = 6
"""Ann's moves before she resigns: enough for the bot's answers and chance's deals between them."""


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    fresh: str = postgres.fresh()
    return fresh


@pytest.fixture
def pair(tmp_path: Path, url: str, redis_server: RedisServer) -> Iterator[tuple[Server, Server]]:
    """Processes A and B of one cluster, on the test's schema and the session's Redis."""
    with running_pair(tmp_path, url, "--pubsub", redis_server.url) as both:
        yield both


@pytest_asyncio.fixture
async def seats() -> AsyncIterator[list[Seat]]:
    async with closing_seats() as made:
        yield made


async def watching(seats: list[Seat], match_id: str, label: str, server: Server,
                   token: str | None = None) -> tuple[Seat, dict[str, Any]]:
    seat = Seat(match_id, label, token)
    seats.append(seat)
    state = await connect(seat, server)
    assert state is not None, f"{label}: {server.base} refused the connection"
    return seat, state


async def take_turns(ann: Seat, seen: dict[str, Any], turns: int, between: Any = None) -> dict[str, Any]:
    """Ann plays her first legal action ``turns`` times, whenever she is to move (the bot and chance
    answer on A in between); ``between(turn, seen)`` is awaited before each of her moves (``seen``:
    her latest message, at the match's version)."""
    for turn in range(turns):
        seen = await to_move(ann, seen)
        if between is not None:
            await between(turn, seen)
        version, text = seen["version"], seen["legal"][0]["text"]
        await ann.client.send({"type": "action", "text": text, "version": version})
        seen = await ann.client.until(
            f"the update of {text}", lambda m, after=version + 1: m["type"] == "error"
            or (m["type"] == "update" and m["version"] == after))
        assert seen["type"] == "update", f"Ann's {text} at version {version} refused: {seen}"
    return seen


async def to_move(ann: Seat, seen: dict[str, Any]) -> dict[str, Any]:
    """Ann's first message from ``seen`` on that lets her move."""
    while not seen["legal"]:
        seen = await ann.client.until("Ann to move", lambda m: m["type"] in SHOWN and bool(m["legal"]))
    return seen


def at_version(version: int) -> Any:
    return lambda m: m["type"] in SHOWN and m["version"] == version


async def resign(ann: Seat) -> int:
    """Ann resigns: the match ends; its last version."""
    await ann.client.send({"type": "resign"})
    over = await ann.client.until("the end", lambda m: m["type"] == "update" and m["status"] == "over")
    return int(over["version"])


async def updates_until(watcher: Seat, last: int) -> dict[int, dict[str, Any]]:
    """Every ``update`` the watcher was sent up to version ``last`` (waiting for it), by version,
    checked to come in order."""
    await watcher.client.until(f"update {last}", lambda m: m["type"] == "update" and m["version"] == last)
    versions = [m["version"] for m in watcher.client.seen if m["type"] == "update"]
    assert versions == sorted(set(versions)), f"{watcher.label}: updates out of order or twice: {versions}"
    return {m["version"]: m for m in watcher.client.seen if m["type"] == "update"}


def untimed(state: dict[str, Any]) -> dict[str, Any]:
    """A ``state`` without the server's time when it was sent (``now``, the clock's ``now``)."""
    return {**state, "now": None, "clock": state["clock"] and {**state["clock"], "now": None}}


def health(server: Server) -> dict[str, Any]:
    status, answer = server.call("GET", "/api/health")
    assert status == 200, answer
    assert isinstance(answer, dict)
    return answer


async def mille_against_a_bot(a: Server, seats: list[Seat], **more: Any) -> tuple[str, Seat, dict[str, Any]]:
    created = a.create(game="mille", seats=["open", "bot:random"], bot_seconds=0.01, join=0, name="Ann",
                       **more)
    match_id = created["match"]["id"]
    ann, seen = await watching(seats, match_id, "Ann on A", a, created["token"])
    return match_id, ann, await to_move(ann, seen)  # the deal done, the match stands still until she moves


@ASYNC
async def test_a_spectator_on_another_process_is_served_there_from_its_replica(
    url: str, pair: tuple[Server, Server], seats: list[Seat], redis_server: RedisServer,
) -> None:
    """'events of a match reach every process that has a connection watching it': a spectator
    straight to B of a Mille match A writes gets, from B itself, every update of the game, in order,
    each the message A's own spectator gets (the spectator's view: no hand shown; the clocks, which
    only A's memory holds)."""
    a, b = pair
    match_id, ann, seen = await mille_against_a_bot(a, seats, clock={"base": 600, "increment": 5})
    assert holder(url, match_id) == node_of(a)
    on_a, a_state = await watching(seats, match_id, "spectator on A", a)
    # Who is connected is in no store: B's replica reads it from what A keeps in Redis.
    kept = f"parlour:kept:seats:match:{match_id}"
    with redis.Redis.from_url(redis_server.url) as asked:
        await until("A keeps Ann's presence in Redis", lambda: asked.get(kept) is not None)
    on_b, b_state = await watching(seats, match_id, "spectator on B", b)
    assert untimed(b_state) == untimed(a_state), "B's first state is A's (but for the time it was sent)"
    assert b_state["seats"][0]["connected"] is True
    assert b_state["seat"] is None
    assert b_state["legal"] == []
    assert seen["view"]["content"]["private"]["slots"], "Ann sees her hand"
    assert b_state["view"]["content"].get("private") is None, "a spectator sees no hand"

    await take_turns(ann, seen, TURNS)
    last = await resign(ann)
    from_a, from_b = await updates_until(on_a, last), await updates_until(on_b, last)
    assert sorted(from_b) == list(range(b_state["version"] + 1, last + 1)), "B missed a version"
    for version, update in from_b.items():
        assert update == from_a[version], f"version {version}: B sent {update}, A sent {from_a[version]}"
    assert from_b[last]["status"] == "over"
    assert any(m["event"]["seat"] == "chance" for m in from_b.values()), "chance dealt during the game"
    assert any(m["event"]["seat"] == 1 for m in from_b.values()), "the bot moved on A"
    assert all(m["clock"] is not None for m in from_b.values())

    answer = health(b)
    assert answer["relayed"] == 0, f"B relayed a connection: {answer}"
    assert answer["replicas"]["served"] == 1, answer
    assert "replica for spectators" in b.log.read_text(), b.log_text()
    assert health(a)["relayed"] == 0

    await ann.client.close()  # her seat goes: both spectators are told alike
    gone = [await watcher.client.seat_connected(0, False) for watcher in (on_a, on_b)]
    assert gone[1] == {**gone[0], "now": gone[1]["now"]}, gone

    await on_b.client.close()  # the last spectator on B leaves: B drops its replica
    await until("B drops the replica", lambda: health(b)["replicas"]["held"] == 0)
    assert "its replica dropped (no spectator left)" in b.log.read_text(), b.log_text()


@ASYNC
async def test_a_spectator_who_joins_on_a_replica_is_passed_on_to_the_writer(
    url: str, pair: tuple[Server, Server], seats: list[Seat],
) -> None:
    """A spectator on B who says something at the table, then takes a seat (the browser's join over
    its socket), does both at A's table: B passes the connection on to A with her chat, said in the
    spectators' room there, and the join goes the same way; she is seated at A."""
    a, b = pair
    created = a.create(game="loa", seats=["open", "open"], join=0, name="Cas")
    match_id = created["match"]["id"]
    await watching(seats, match_id, "Cas on A", a, created["token"])
    eve, _ = await watching(seats, match_id, "Eve watching on A", a)
    dora, _ = await watching(seats, match_id, "Dora watching on B", b)
    await dora.client.send({"type": "chat", "text": "who wins?"})
    for watcher in (eve, dora):
        said = await watcher.client.until("Dora's chat", lambda m: m["type"] in ("chat", "error"))
        assert (said["type"], said.get("text"), said.get("room")) == ("chat", "who wins?", "spectators"), said
    assert health(b)["relayed"] == 1, "B passed her on to A when she spoke"
    await dora.client.send({"type": "join", "seat": 1, "name": "Dora"})
    joined = await dora.client.until("joined", lambda m: m["type"] in ("joined", "error"))
    assert (joined["type"], joined.get("seat")) == ("joined", 1), joined
    state = await dora.client.until("her seat's state", lambda m: m["type"] == "state" and m["seat"] == 1)
    assert state["status"] == "running", state
    assert a.summary(match_id)["seats"][1]["player"] == "Dora"
    assert health(b)["relayed"] == 1, "one relay for both"


@ASYNC
async def test_a_redis_restart_mid_game_loses_the_spectator_on_b_no_version(
    url: str, pair: tuple[Server, Server], seats: list[Seat], redis_server: RedisServer,
) -> None:
    """'Redis restarted: clients miss no event (they resync from the store by version)': Redis is
    stopped in the middle of the game, moves (Ann's, the bot's) are made while it is away, and it is
    started again on its port while the match stands still (Ann to move): B's spectator is brought to
    the match's version then, by nothing but its resync from the store; it is sent every version up to
    the end, and B relayed nothing."""
    a, b = pair
    match_id, ann, seen = await mille_against_a_bot(a, seats)
    on_b, _ = await watching(seats, match_id, "spectator on B", b)

    async def redis_away(turn: int, seen: dict[str, Any]) -> None:
        if turn == 2:
            redis_server.stop()
        elif turn == 4:
            redis_server.start()
            version = seen["version"]
            await on_b.client.until(f"version {version} after Redis's return", at_version(version))

    try:
        await take_turns(ann, seen, TURNS, redis_away)
    finally:
        if not redis_server._pong():
            redis_server.start()
    last = await resign(ann)
    await on_b.client.until(f"version {last}", lambda m: m["type"] in ("update", "state")
                            and m["version"] == last and m["status"] == "over")
    covered: set[int] = set()
    for message in on_b.client.seen:
        if message["type"] == "update":
            covered.add(message["version"])
        elif message["type"] == "state":
            covered |= {event["version"] for event in message["events"]}
    missed = sorted(set(range(1, last + 1)) - covered)
    assert not missed, f"B's spectator was never sent versions {missed}"
    assert health(b)["relayed"] == 0
    assert "not published to Redis" in a.log.read_text(), "A never met Redis away: the fault was not made"


@ASYNC
async def test_a_hung_redis_holds_up_no_action(
    url: str, pair: tuple[Server, Server], seats: list[Seat], redis_server: RedisServer,
) -> None:
    """'a publish failure must never fail or hold up the action': with Redis paused (SIGSTOP: it
    answers nothing), Ann's moves and the bot's answers on A are acknowledged as ever, before A has
    even given up waiting for Redis's answer to the first message (5 s: A's log says so when it
    does); once Redis wakes, B's spectator is sent every version to the end."""
    a, b = pair
    match_id, ann, seen = await mille_against_a_bot(a, seats)
    on_b, _ = await watching(seats, match_id, "spectator on B", b)
    redis_server.pause()
    try:
        seen = await take_turns(ann, seen, 2)
        assert "not published to Redis" not in a.log.read_text(), "an action waited for Redis's answer"
    finally:
        redis_server.resume()
    last = await resign(ann)
    await on_b.client.until(f"version {last}", at_version(last))
    versions = [m["version"] for m in on_b.client.seen if m["type"] == "update"]
    assert versions == list(range(versions[0], last + 1)), f"B's spectator skipped a version: {versions}"


class FlakyRedis:
    """Stands for ``RedisPubSub`` in ``ClusterPubSub``: fails the first batch, takes the rest."""

    def __init__(self) -> None:
        self.batches: list[list[tuple[str, Message, str | None]]] = []
        self.more = asyncio.Event()

    async def publish_all(self, batch: list[tuple[str, Message, str | None]]) -> None:
        self.batches.append(batch)
        self.more.set()
        if len(self.batches) == 1:
            raise PubSubUnavailable("Redis at 127.0.0.1:1 is unreachable (a test's)")

    async def until(self, count: int) -> None:
        while len(self.batches) < count:
            self.more.clear()
            await asyncio.wait_for(self.more.wait(), WAIT)


@ASYNC
async def test_a_match_whose_message_redis_did_not_take_is_told_to_resync() -> None:
    """A message the writer could not publish (Redis failed it, while the replicas' own connection
    stayed up, so they saw no reconnect, and no ``seq`` gap: the lost message was never numbered)
    may be a match's last for a long while: once Redis takes messages again, even with nothing new
    to send, the match's channel is sent ``resync``, and its replicas read the store afresh."""
    pubsub = ClusterPubSub("redis://127.0.0.1:1/0")
    flaky = FlakyRedis()
    pubsub.remote = cast(RedisPubSub, flaky)
    pubsub.writing = lambda match_id: cast(Match, object()) if match_id == "m1" else None
    try:
        await pubsub.publish("match:m1", {"kind": "chat", "chat": {"text": "hi"}})
        await pubsub.publish("match:m2", {"kind": "chat", "chat": {"text": "nobody writes m2 here"}})
        await flaky.until(2)
        assert flaky.batches == [[("match:m1", {"kind": "chat", "chat": {"text": "hi"}}, None)],
                                 [("match:m1", RESYNC, None)]]
        assert pubsub.lost == set()
    finally:
        if pubsub.sender is not None:
            pubsub.sender.cancel()


def serve(url: str, *flags: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "parlour.cli", "serve", "--port", "0", "--store", url, *flags]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=2 * WAIT,
                          stdin=subprocess.DEVNULL, check=False)


def test_pubsub_without_a_reachable_redis_is_a_clear_error(url: str) -> None:
    """``--pubsub`` naming a Redis that does not answer, or no Redis URL at all: a clear error, and
    the process exits at once with a non-zero status (it never serves without the pub/sub asked for)."""
    nobody = f"redis://127.0.0.1:{free_port()}/0"
    refused = serve(url, "--pubsub", nobody)
    assert refused.returncode == 1, refused
    assert f"cannot reach Redis at {nobody} (--pubsub)" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr, refused.stderr

    wrong = serve(url, "--pubsub", "http://127.0.0.1:6379/")
    assert wrong.returncode == 2, wrong
    assert "--pubsub takes a Redis URL" in wrong.stderr, wrong.stderr
    alone = subprocess.run([sys.executable, "-m", "parlour.cli", "serve", "--pubsub", nobody], cwd=ROOT,
                           capture_output=True, text=True, timeout=2 * WAIT, check=False)
    assert alone.returncode == 2, alone
    assert "share a --store" in alone.stderr, alone.stderr
