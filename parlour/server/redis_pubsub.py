"""Publish/subscribe through Redis, so that several server processes hear the same matches.

``RedisPubSub`` keeps the ``PubSub`` protocol of ``pubsub.py``. A message is JSON published on the
Redis channel ``parlour:`` + the server's channel (``parlour:match:7``), wrapped as
``{"seq": N, "message": {...}}``: ``seq`` counts the channel's messages in Redis itself (a Lua
script increments the counter and publishes in one step), whoever published them, so a listener
that sees ``seq`` skip knows it lost a message even when the message carried no match ``version``
(seats, chat, offers). A process holds ONE listening connection for all its channels: subscribing
and unsubscribing add and drop channels on it. When that connection is lost, it reconnects by
itself, subscribes again, and calls ``on_resync(channel, "reconnect")`` for every channel it
listens to once Redis has confirmed the channel again (messages published while it was away are
gone: Redis pub/sub keeps nothing); a skipped ``seq`` calls ``on_resync(channel, "gap")``. The
receiver then reads what it missed from the store, by version. ``publish`` while Redis is
unreachable raises ``PubSubUnavailable`` at once (after ``answer_seconds`` when Redis is there but
does not answer), so a match is never held up by Redis.

How the cluster uses it (``parlour serve --pubsub redis://``, ``parlour.server.replica``): not as
the matches' only pub/sub. A match's writer delivers to its own connections synchronously in memory,
as a lone server does (they render from the live state), and forwards each message to Redis in the
background (``publish`` with ``keep`` also keeps the latest seats, offers and clocks, which ``kept``
reads). The processes that do not write the match listen here, for the replicas they keep for their
spectators: a replica applies the store's actions after its version on each event, and on each
``on_resync``. This departs from DESIGN.md's "several processes serve the same matches" in one
way: only spectators are served away from the writer; players' connections go to the writer (through
HAProxy's routing, or relayed), which holds the match's one copy that takes actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.connection import AbstractConnection
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from parlour.server.pubsub import Listener, Message, Unsubscribe

Resync = Callable[[str, str], None]
"""``on_resync(channel, reason)``: the listeners of ``channel`` may have missed messages and should
read the store from their last version. ``reason`` is ``"reconnect"`` (called once Redis listens on
the channel again, before any later message) or ``"gap"`` (called before the message that came
after the gap is delivered)."""

PUBLISH = """
local seq = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[1], '{"seq":' .. seq .. ',"message":' .. ARGV[2] .. '}')
return seq
"""
"""Numbers and publishes in one step, so two publishers on a channel cannot swap numbers and
messages. ARGV[2] is already JSON: the envelope is built around it without decoding it."""

PUBLISH_KEEP = PUBLISH.replace("return seq", "redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])\nreturn seq")
"""The same, keeping the message under KEYS[2] too (``kept``), for a listener that comes later."""

FIRST_RETRY = 0.05
LAST_RETRY = 2.0
"""Seconds between attempts to reconnect: doubling from the first to the last, then steady."""

log = logging.getLogger("parlour.server")


class PubSubUnavailable(RuntimeError):
    """Redis could not be reached, or did not answer in time: the message is not known to be
    published (one that timed out may still go out once Redis wakes). Listeners that missed it
    resync from the store by version either way."""


class RedisPubSub:
    """The ``PubSub`` protocol over Redis; one instance per process, used from one event loop.

    ``subscribe`` takes effect once Redis confirms it (``await settled()``); a listener that
    renders from the store should read it after that, or it may miss what came in between.
    Listeners are called in the order Redis delivered the messages, which is the same for every
    process; a listener that raises is logged and the others still hear the message.
    """

    def __init__(
        self, url: str, *, prefix: str = "parlour:", on_resync: Resync | None = None,
        connect_seconds: float = 2.0, answer_seconds: float = 5.0, ping_seconds: float = 10.0,
        seq_seconds: int = 86_400,
    ) -> None:
        """``url``: ``redis://host:port/db``. ``connect_seconds``, ``answer_seconds``: how long a
        connection and an answer may take before Redis counts as unreachable (a publish then
        fails rather than holding up the match). ``ping_seconds``: how often the listening
        connection is pinged (a connection silent for three pings is taken for dead and reopened).
        ``seq_seconds``: how long a quiet channel's counter is kept (it then starts again at 1,
        which its listeners see as a gap)."""
        self.prefix = prefix
        self.on_resync = on_resync
        self.ping_seconds = ping_seconds
        self.seq_seconds = seq_seconds
        # One retry without delay, on a lost connection only: a pooled connection Redis dropped
        # (a restart) is reopened at once, while a Redis that is down or hung fails the publish.
        options: dict[str, Any] = {
            "socket_connect_timeout": connect_seconds, "socket_timeout": answer_seconds,
            "retry": Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
            "health_check_interval": 0}
        self.redis = Redis.from_url(url, **options)
        self.script = self.redis.register_script(PUBLISH)
        self.keeping = self.redis.register_script(PUBLISH_KEEP)
        kwargs = self.redis.connection_pool.connection_kwargs
        address = f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}"
        self.where = str(kwargs.get("path") or address)  # never the URL: it may hold a password
        listening = ConnectionPool.from_url(url, **options | {"retry": Retry(NoBackoff(), 0)}, protocol=2,
                                            client_name="parlour-listen")
        # A connection of its own, outside any pool: it stays in subscribed mode for good.
        self.connection: AbstractConnection = listening.make_connection()  # type: ignore[no-untyped-call]
        self.listeners: dict[str, dict[int, Listener]] = {}
        self.next_key = 0
        self.asked: set[str] = set()
        """Channels SUBSCRIBE was sent for on the current connection (and UNSUBSCRIBE not)."""
        self.confirmed: set[str] = set()
        """Channels Redis confirmed on the current connection."""
        self.last_seq: dict[str, int] = {}
        self.resync_due: set[str] = set()
        self.outage = False
        self.connected = False
        self.wanted_changed = asyncio.Event()
        self.moved = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.closed = False

    # --- the PubSub protocol ---

    def subscribe(self, channel: str, listener: Listener) -> Unsubscribe:
        key = self.next_key
        self.next_key += 1
        self.listeners.setdefault(channel, {})[key] = listener
        self.want_changed()

        def unsubscribe() -> None:
            listeners = self.listeners.get(channel, {})
            listeners.pop(key, None)  # at once: no later message reaches this listener
            if not listeners and self.listeners.pop(channel, None) is not None:
                self.last_seq.pop(channel, None)
                self.want_changed()

        return unsubscribe

    async def publish(self, channel: str, message: Message, keep: str | None = None) -> None:
        """Publishes ``message`` on ``channel``; with ``keep``, also keeps it as the channel's latest
        of that name, which ``kept`` reads (a listener that comes later learns what it missed)."""
        payload = json.dumps(message, separators=(",", ":"))
        try:
            if keep is None:
                await self.script(keys=[self.seq_key(channel)],
                                  args=[self.prefix + channel, payload, self.seq_seconds])
            else:
                await self.keeping(keys=[self.seq_key(channel), self.kept_key(channel, keep)],
                                   args=[self.prefix + channel, payload, self.seq_seconds])
        except (RedisConnectionError, RedisTimeoutError, OSError) as error:
            raise PubSubUnavailable(
                f"cannot publish on {channel}: Redis at {self.where} is unreachable ({error})") from error

    async def publish_all(self, messages: list[tuple[str, Message, str | None]]) -> None:
        """``publish`` of each (channel, message, keep), in order, in one round trip to Redis (a
        busy writer's messages cost Redis and this process one exchange per batch, not per message).
        ``PubSubUnavailable`` when the batch is not known to be published."""
        pipeline = self.redis.pipeline(transaction=False)
        for channel, message, keep in messages:
            payload = json.dumps(message, separators=(",", ":"))
            args: list[str | int] = [self.prefix + channel, payload, self.seq_seconds]
            if keep is None:
                await self.script(keys=[self.seq_key(channel)], args=args, client=pipeline)
            else:
                await self.keeping(keys=[self.seq_key(channel), self.kept_key(channel, keep)], args=args,
                                   client=pipeline)
        try:
            await pipeline.execute()
        except (RedisConnectionError, RedisTimeoutError, OSError) as error:
            raise PubSubUnavailable(
                f"cannot publish {len(messages)} messages: Redis at {self.where} is unreachable ({error})"
            ) from error

    async def kept(self, channel: str, names: list[str]) -> list[Message | None]:
        """The channel's latest messages kept under ``names`` (``None`` for one never kept, or
        expired after ``seq_seconds``); ``PubSubUnavailable`` when Redis cannot be asked."""
        try:
            found = await self.redis.mget([self.kept_key(channel, name) for name in names])
        except (RedisError, OSError) as error:
            raise PubSubUnavailable(
                f"cannot read {channel}: Redis at {self.where} is unreachable ({error})") from error
        return [None if text is None else json.loads(text) for text in found]

    def kept_key(self, channel: str, name: str) -> str:
        return f"{self.prefix}kept:{name}:{channel}"

    # --- life ---

    async def settled(self) -> None:
        """Returns once Redis listens on exactly the subscribed channels for this process."""
        while not (self.confirmed == self.asked == set(self.listeners)
                   and (self.connected or not self.listeners)):
            await self.moved.wait()

    async def close(self) -> None:
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.connection.disconnect()
        await self.redis.aclose()

    def seq_key(self, channel: str) -> str:
        return f"{self.prefix}seq:{channel}"

    def want_changed(self) -> None:
        self.wanted_changed.set()
        if self.task is None and not self.closed:
            self.task = asyncio.get_running_loop().create_task(self.keep_listening())

    def tell_waiters(self) -> None:
        self.moved.set()
        self.moved = asyncio.Event()

    async def keep_listening(self) -> None:
        """Listens until closed, reconnecting after any failure."""
        delay = FIRST_RETRY
        while True:
            try:
                await self.connection.connect()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
                self.connected_now()
                delay = FIRST_RETRY
                await self.listen()
            except (RedisError, OSError) as error:
                if not self.outage:
                    log.warning("Redis pub/sub at %s lost (%s); reconnecting", self.where, error)
                self.outage = True
            except Exception:  # a fault of ours: listening must go on all the same
                log.exception("Redis pub/sub at %s failed; reconnecting", self.where)
                self.outage = True
            finally:
                self.lost()
            await asyncio.sleep(delay)
            delay = min(delay * 2, LAST_RETRY)

    def connected_now(self) -> None:
        self.connected = True
        if self.outage:
            log.warning("Redis pub/sub at %s back", self.where)
            self.resync_due = set(self.listeners)
            self.outage = False
        self.wanted_changed.set()
        self.tell_waiters()

    def lost(self) -> None:
        self.connected = False
        self.asked.clear()
        self.confirmed.clear()
        self.last_seq.clear()
        self.tell_waiters()

    async def listen(self) -> None:
        """Sends (un)subscriptions and reads what Redis sends, until the connection fails."""
        tasks = [asyncio.create_task(self.send()), asyncio.create_task(self.read())]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                task.result()  # raises the failure
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.connection.disconnect(nowait=True)

    async def send(self) -> None:
        """Brings the connection's channels to the subscribed ones; pings when nothing changes."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wanted_changed.wait(), self.ping_seconds)
            if not self.wanted_changed.is_set():
                await self.connection.send_command("PING", check_health=False)
                continue
            self.wanted_changed.clear()
            wanted = set(self.listeners)
            added, dropped = sorted(wanted - self.asked), sorted(self.asked - wanted)
            self.asked = wanted
            if added:
                await self.connection.send_command("SUBSCRIBE", *(self.prefix + c for c in added),
                                                   check_health=False)
            if dropped:
                await self.connection.send_command("UNSUBSCRIBE", *(self.prefix + c for c in dropped),
                                                   check_health=False)
            self.tell_waiters()

    async def read(self) -> None:
        while True:
            reply = await self.connection.read_response(timeout=3 * self.ping_seconds)
            if reply is None:
                raise RedisTimeoutError(f"no answer to three pings in {3 * self.ping_seconds:g} s")
            if isinstance(reply, list) and len(reply) == 3:
                self.take(reply[0].decode(), reply[1].decode().removeprefix(self.prefix), reply[2])

    def take(self, kind: str, channel: str, data: Any) -> None:
        if kind == "message":
            self.deliver(channel, data)
        elif kind == "subscribe":
            self.confirmed.add(channel)
            if channel in self.resync_due:
                self.resync_due.discard(channel)
                self.resync(channel, "reconnect")
            self.tell_waiters()
        elif kind == "unsubscribe":
            self.confirmed.discard(channel)
            self.tell_waiters()

    def deliver(self, channel: str, data: bytes) -> None:
        listeners = self.listeners.get(channel)
        if not listeners:
            return  # unsubscribed while the message was on its way
        try:
            envelope = json.loads(data)
            seq, message = int(envelope["seq"]), envelope["message"]
        except (ValueError, KeyError, TypeError):
            log.error("unreadable message on %s%s: %.200r", self.prefix, channel, data)
            return
        last = self.last_seq.get(channel)
        self.last_seq[channel] = seq
        if last is not None and seq != last + 1:
            self.resync(channel, "gap")
        for listener in list(listeners.values()):
            try:
                listener(message)
            except Exception:  # one broken listener must not starve the others
                log.exception("listener on %s failed", channel)

    def resync(self, channel: str, reason: str) -> None:
        log.info("pub/sub %s on %s: its listeners resync from the store", reason, channel)
        if self.on_resync is not None:
            try:
                self.on_resync(channel, reason)
            except Exception:
                log.exception("resync of %s failed", channel)
