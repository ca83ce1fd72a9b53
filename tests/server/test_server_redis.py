"""Redis pub/sub (issue 17: "events of a match reach every process that has a connection watching it";
"Redis restarted: clients miss no event (they resync from the store by version)"), against a real
redis-server the session starts. Every wait is bounded; nothing sleeps for time."""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
from redis.asyncio import Redis
from redis_server import RedisServer, redis_server
from server_process import ROOT, WAIT

from parlour.server.pubsub import Message
from parlour.server.redis_pubsub import PubSubUnavailable, RedisPubSub

__all__ = ["redis_server"]  # the session's Redis, a fixture

ASYNC = pytest.mark.asyncio(loop_scope="session")


class Heard:
    """The messages one listener heard, in order, and a bounded wait for more of them."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.more = asyncio.Event()

    def __call__(self, message: Message) -> None:
        self.messages.append(message)
        self.more.set()

    async def until(self, count: int) -> list[Message]:
        return await self.waiting(lambda: len(self.messages) >= count, f"{count} messages")

    async def until_heard(self, message: Message) -> list[Message]:
        return await self.waiting(lambda: message in self.messages, repr(message))

    async def waiting(self, enough: Callable[[], bool], what: str) -> list[Message]:
        async def wait() -> None:
            while not enough():
                self.more.clear()
                await self.more.wait()
        try:
            await asyncio.wait_for(wait(), WAIT)
        except TimeoutError:
            pytest.fail(f"waited for {what}, heard only {self.messages}")
        return self.messages


class Resyncs:
    """What ``on_resync`` was told: (channel, reason), in order."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()

    def __call__(self, channel: str, reason: str) -> None:
        self.queue.put_nowait((channel, reason))

    async def next(self) -> tuple[str, str]:
        try:
            return await asyncio.wait_for(self.queue.get(), WAIT)
        except TimeoutError:
            pytest.fail("on_resync was never called")


async def settled(pubsub: RedisPubSub) -> None:
    try:
        await asyncio.wait_for(pubsub.settled(), WAIT)
    except TimeoutError:
        pytest.fail(f"Redis never confirmed the channels {sorted(pubsub.listeners)}")


async def until(pubsub: RedisPubSub, state: Callable[[], bool], what: str) -> None:
    async def reached() -> None:
        while True:
            moved = pubsub.moved  # taken before looking, so no change is missed in between
            if state():
                return
            await moved.wait()
    try:
        await asyncio.wait_for(reached(), WAIT)
    except TimeoutError:
        pytest.fail(f"never {what}")


def a_channel() -> str:
    return f"match:{uuid.uuid4().hex[:10]}"


@pytest_asyncio.fixture(loop_scope="session")
async def pubsubs(redis_server: RedisServer) -> AsyncIterator[Callable[..., RedisPubSub]]:
    """Makes RedisPubSub instances on the session's Redis (each as one process would hold), closed after."""
    made: list[RedisPubSub] = []

    def make(**options: Any) -> RedisPubSub:
        made.append(RedisPubSub(redis_server.url, **options))
        return made[-1]

    yield make
    for pubsub in made:
        await pubsub.close()


@ASYNC
async def test_two_instances_hear_the_same_messages_in_the_same_order(
        pubsubs: Callable[..., RedisPubSub]) -> None:
    ann, bob = pubsubs(), pubsubs()
    channel = a_channel()
    heard_by_ann, heard_by_bob = Heard(), Heard()
    ann.subscribe(channel, heard_by_ann)
    bob.subscribe(channel, heard_by_bob)
    await settled(ann)
    await settled(bob)
    # Both publish at once, each in its own order (a match's writer awaits each publication):
    # Redis interleaves them one way, and every listener must hear that one.
    sent = 40

    async def publish_all(pubsub: RedisPubSub, name: str) -> None:
        for n in range(sent):
            await pubsub.publish(channel, {"kind": "event", "n": n, "from": name})

    await asyncio.gather(publish_all(ann, "ann"), publish_all(bob, "bob"))
    first = await heard_by_ann.until(2 * sent)
    second = await heard_by_bob.until(2 * sent)
    assert first == second
    for name in ("ann", "bob"):
        assert [m["n"] for m in first if m["from"] == name] == list(range(sent))


@ASYNC
async def test_a_batch_is_heard_in_order_and_the_latest_kept_message_is_read_back(
        pubsubs: Callable[..., RedisPubSub]) -> None:
    """``publish_all`` (a writer's queued messages in one round trip) is heard as separate messages,
    in order, numbered without gap (no resync); ``keep`` leaves the latest of a name for ``kept``
    (what a replica made later must know: who is connected), and a name never kept reads ``None``."""
    writer, listener = pubsubs(), pubsubs(on_resync=Resyncs())
    channel = a_channel()
    heard = Heard()
    listener.subscribe(channel, heard)
    await settled(listener)
    batch: list[tuple[str, Message, str | None]] = [
        (channel, {"kind": "seats", "present": [1, 0]}, "seats"),
        (channel, {"kind": "event", "version": 1}, None),
        (channel, {"kind": "seats", "present": [1, 1]}, "seats"),
    ]
    await writer.publish_all(batch)
    assert await heard.until(3) == [message for _, message, _ in batch]
    assert await listener.kept(channel, ["seats", "offers"]) == [{"kind": "seats", "present": [1, 1]}, None]
    resyncs = listener.on_resync
    assert isinstance(resyncs, Resyncs)
    assert resyncs.queue.empty(), "a gap was seen in a batch"


@ASYNC
async def test_messages_are_json_on_the_match_channel_numbered_by_redis(
        pubsubs: Callable[..., RedisPubSub], redis_server: RedisServer) -> None:
    publisher = pubsubs()
    channel = a_channel()
    raw = Redis.from_url(redis_server.url)
    watcher = raw.pubsub()
    try:
        await watcher.subscribe(f"parlour:{channel}")
        confirmation = await watcher.get_message(timeout=WAIT)
        assert confirmation is not None
        assert confirmation["type"] == "subscribe"
        for version in (1, 2):
            await publisher.publish(channel, {"kind": "event", "version": version})
        seen = [await watcher.get_message(timeout=WAIT) for _ in range(2)]
    finally:
        await watcher.aclose()  # type: ignore[no-untyped-call]
        await raw.aclose()
    assert [json.loads(m["data"]) for m in seen if m] == [
        {"seq": 1, "message": {"kind": "event", "version": 1}},
        {"seq": 2, "message": {"kind": "event", "version": 2}}]


CHILD = """
import asyncio, json, sys
from parlour.server.redis_pubsub import RedisPubSub

async def main(url, channel, sent):
    pubsub, heard, ends = RedisPubSub(url), [], asyncio.Event()
    def hear(message):
        heard.append(message)
        if sum(m["kind"] == "end" for m in heard) == 2:
            ends.set()
    pubsub.subscribe(channel, hear)
    await pubsub.settled()
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    for n in range(sent):
        await pubsub.publish(channel, {"kind": "event", "n": n, "from": "child"})
    await pubsub.publish(channel, {"kind": "end", "from": "child"})
    await ends.wait()
    print(json.dumps(heard), flush=True)
    await pubsub.close()

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
"""


@ASYNC
async def test_two_processes_hear_the_same_messages_in_the_same_order(
        pubsubs: Callable[..., RedisPubSub], redis_server: RedisServer) -> None:
    """The issue's own case: another process, its own connection to Redis, publishing too."""
    sent = 30
    channel = a_channel()
    here = pubsubs()
    heard_here = Heard()
    here.subscribe(channel, heard_here)
    await settled(here)
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, redis_server.url, channel, str(sent), cwd=ROOT,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert child.stdin is not None
    assert child.stdout is not None
    try:
        assert (await asyncio.wait_for(child.stdout.readline(), WAIT)).strip() == b"ready"
        child.stdin.write(b"go\n")
        await child.stdin.drain()
        for n in range(sent):
            await here.publish(channel, {"kind": "event", "n": n, "from": "parent"})
        await here.publish(channel, {"kind": "end", "from": "parent"})
        heard_there = json.loads(await asyncio.wait_for(child.stdout.readline(), WAIT))
        assert await asyncio.wait_for(child.wait(), WAIT) == 0
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    heard = await heard_here.until(2 * sent + 2)
    assert heard == heard_there
    for publisher in ("parent", "child"):
        assert [m.get("n") for m in heard if m["from"] == publisher] == [*range(sent), None]


@ASYNC
async def test_unsubscribe_stops_delivery_and_drops_the_channel(
        pubsubs: Callable[..., RedisPubSub], redis_server: RedisServer) -> None:
    listening, publisher = pubsubs(), pubsubs()
    channel = a_channel()
    gone, staying = Heard(), Heard()
    unsubscribe_gone = listening.subscribe(channel, gone)
    unsubscribe_staying = listening.subscribe(channel, staying)
    await settled(listening)
    await publisher.publish(channel, {"kind": "seats", "n": 1})
    await gone.until(1)
    unsubscribe_gone()
    await publisher.publish(channel, {"kind": "seats", "n": 2})
    await publisher.publish(channel, {"kind": "seats", "n": 3})
    # Messages arrive in order: once the staying listener heard n=3, n=2 would have reached the other.
    assert [m["n"] for m in await staying.until(3)] == [1, 2, 3]
    assert [m["n"] for m in gone.messages] == [1]

    raw = Redis.from_url(redis_server.url)
    try:
        assert await raw.pubsub_numsub(f"parlour:{channel}") == [(f"parlour:{channel}".encode(), 1)]
        unsubscribe_staying()
        await settled(listening)
        assert await raw.pubsub_numsub(f"parlour:{channel}") == [(f"parlour:{channel}".encode(), 0)]
    finally:
        await raw.aclose()
    await publisher.publish(channel, {"kind": "seats", "n": 4})
    assert [m["n"] for m in staying.messages] == [1, 2, 3]


@ASYNC
async def test_one_connection_listens_to_all_channels(
        pubsubs: Callable[..., RedisPubSub], redis_server: RedisServer) -> None:
    listening = pubsubs()
    channels = [a_channel() for _ in range(5)]
    for channel in channels:
        listening.subscribe(channel, Heard())
    await settled(listening)
    raw = Redis.from_url(redis_server.url)
    try:
        clients = [c for c in await raw.client_list() if c["name"] == "parlour-listen"]
    finally:
        await raw.aclose()
    assert [int(c["sub"]) for c in clients] == [5], clients


@ASYNC
async def test_a_listener_that_raises_does_not_starve_the_others(pubsubs: Callable[..., RedisPubSub]) -> None:
    listening = pubsubs()
    channel = a_channel()

    def broken(message: Message) -> None:
        raise ValueError("a broken listener")

    heard = Heard()
    listening.subscribe(channel, broken)
    listening.subscribe(channel, heard)
    await settled(listening)
    await listening.publish(channel, {"kind": "chat"})
    assert await heard.until(1) == [{"kind": "chat"}]


@ASYNC
async def test_a_skipped_number_is_reported_as_a_gap(
        pubsubs: Callable[..., RedisPubSub], redis_server: RedisServer) -> None:
    resyncs = Resyncs()
    listening, publisher = pubsubs(on_resync=resyncs), pubsubs()
    channel = a_channel()
    heard = Heard()
    listening.subscribe(channel, heard)
    await settled(listening)
    await publisher.publish(channel, {"kind": "event", "version": 1})
    await heard.until(1)
    raw = Redis.from_url(redis_server.url)
    try:  # a message numbered and lost on the way, as if dropped by Redis
        await raw.incr(f"parlour:seq:{channel}")
    finally:
        await raw.aclose()
    await publisher.publish(channel, {"kind": "event", "version": 3})
    assert await resyncs.next() == (channel, "gap")
    assert [m["version"] for m in await heard.until(2)] == [1, 3]
    assert resyncs.queue.empty()


@ASYNC
async def test_after_a_redis_restart_listeners_reconnect_and_are_told_to_resync(
        pubsubs: Callable[..., RedisPubSub], redis_server: RedisServer) -> None:
    resyncs = Resyncs()
    listening, publisher = pubsubs(on_resync=resyncs), pubsubs()
    channels = sorted(a_channel() for _ in range(2))
    heard = {channel: Heard() for channel in channels}
    for channel in channels:
        listening.subscribe(channel, heard[channel])
    await settled(listening)
    await publisher.publish(channels[0], {"kind": "event", "version": 1})
    await heard[channels[0]].until(1)

    redis_server.restart()
    told = sorted([await resyncs.next(), await resyncs.next()])
    assert told == [(channels[0], "reconnect"), (channels[1], "reconnect")]
    await settled(listening)
    # The same publisher goes on (its pooled connection was dropped by the restart), and the
    # counter Redis lost starts again at 1 without being taken for a gap.
    for channel in channels:
        await publisher.publish(channel, {"kind": "event", "version": 2})
    assert [m["version"] for m in await heard[channels[0]].until(2)] == [1, 2]
    assert [m["version"] for m in await heard[channels[1]].until(1)] == [2]
    assert resyncs.queue.empty()


@ASYNC
async def test_publishing_while_redis_is_down_fails_clearly(
        pubsubs: Callable[..., RedisPubSub], redis_server: RedisServer) -> None:
    resyncs = Resyncs()
    listening, publisher = pubsubs(on_resync=resyncs), pubsubs()
    channel = a_channel()
    heard = Heard()
    listening.subscribe(channel, heard)
    await settled(listening)
    redis_server.stop()
    try:
        with pytest.raises(PubSubUnavailable, match=rf"cannot publish on {channel}: Redis at "
                                                    rf"127\.0\.0\.1:{redis_server.port} is unreachable"):
            await publisher.publish(channel, {"kind": "event", "version": 1})
    finally:
        redis_server.start()
    assert await resyncs.next() == (channel, "reconnect")
    await settled(listening)
    await publisher.publish(channel, {"kind": "event", "version": 1})
    assert await heard.until(1) == [{"kind": "event", "version": 1}]


@ASYNC
async def test_a_redis_that_stops_answering_is_left_and_rejoined(
        pubsubs: Callable[..., RedisPubSub], redis_server: RedisServer) -> None:
    """A hung Redis (SIGSTOP) closes no connection: the listener finds out by its pings going
    unanswered, and a publish gives up rather than holding up the match."""
    resyncs = Resyncs()
    listening = pubsubs(on_resync=resyncs, ping_seconds=0.1, answer_seconds=0.5)
    publisher = pubsubs(answer_seconds=0.5)
    channel = a_channel()
    heard = Heard()
    listening.subscribe(channel, heard)
    await settled(listening)
    redis_server.pause()
    try:
        await until(listening, lambda: not listening.connected, "noticed that Redis stopped answering")
        with pytest.raises(PubSubUnavailable, match=f"cannot publish on {channel}"):
            await publisher.publish(channel, {"kind": "event", "version": 1})
    finally:
        redis_server.resume()
    assert await resyncs.next() == (channel, "reconnect")
    await settled(listening)
    await publisher.publish(channel, {"kind": "event", "version": 2})
    # The publish that timed out may still have reached Redis once it woke: "unavailable" means
    # "not known to be published", and the listener resyncs from the store either way.
    heard_now = await heard.until_heard({"kind": "event", "version": 2})
    assert heard_now[-1] == {"kind": "event", "version": 2}
    assert heard_now[:-1] in ([], [{"kind": "event", "version": 1}])
