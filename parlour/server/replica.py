"""Spectators served on any process of a cluster, through Redis (``parlour serve --pubsub redis://``).

Each unfinished match has one writer, the process holding its lease (``parlour.server.lobby``). With
``--pubsub``, the writer's matches publish on ``ClusterPubSub``: every message reaches this process's
own connections at once and synchronously (``MemoryPubSub``, as without Redis: the writer's hot path
is unchanged), and is then queued, with what another process needs to render it (the presence of
the seats, the offers, the clocks), for one task that publishes it to Redis in order. The action
never waits for Redis: a message Redis does not take is dropped and logged (a few lines a minute at
most), and its listeners resync from the store.

A spectator whose WebSocket lands on a process that does not write its match (its first frame a
``hello`` with ``"spectator": true``) is served there, from a ``Replica``: a read-only copy of the
match made from the store, subscribed to the match's Redis channel. On an ``event`` it reads the
store's actions after its own version (only those: ``Store.events_after``) and applies them one at
a time, each rendered to its connections as the writer renders it (an ``update`` for every version,
with the spectator's view: seat ``None``, nothing hidden shown). On ``on_resync`` (Redis came back,
or a ``seq`` gap) it reads the whole match again, its seats and status too. The other messages
carry their data, and are rendered as on the writer. A spectator who joins a seat or chats is
passed on to the writer (``parlour.server.relay``), with the frames it sent; players go there from
their first frame. A replica is dropped when its last connection leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Final

from parlour.engine import CHANCE, Action, is_leaving
from parlour.engine.turns import chance_owner
from parlour.games import get_game
from parlour.server.bots import BotPool
from parlour.server.connection import Connection
from parlour.server.limits import Limits
from parlour.server.lobby import read_match
from parlour.server.match import MATCH_CHANNEL, Event, EventSeat, Match, ServerTime, leaving_seat
from parlour.server.messages import ProtocolError, decode
from parlour.server.pubsub import Listener, MemoryPubSub, Message, Unsubscribe
from parlour.server.redis_pubsub import PubSubUnavailable, RedisPubSub
from parlour.server.storage import ChatLine, EventsAfter, MatchRow, Store, StoreError, progress_of
from parlour.server.table import Offer, Rematch

log = logging.getLogger("parlour.server")

REPLICA_CHANNEL: Final = "replica:"
"""The prefix of a replica's channel in this process's memory: never a writer's, so that a process
that takes a match over while it also keeps a replica of it never mixes the two."""

SETTLE_SECONDS: Final = 3.0
"""How long a new replica waits for Redis to confirm its channel before it reads the store. Past
that (Redis away) it reads all the same: Redis's return calls ``on_resync``, which reads again."""

QUEUED_MOST: Final = 50_000
"""Messages waiting for Redis at most (Redis hung): past it, new ones are dropped (and logged)."""

BATCH_MOST: Final = 200
"""Messages sent to Redis in one round trip at most."""

RETRY_SECONDS: Final = 1.0
"""How often the resyncs of channels whose messages Redis did not take are tried while none is queued."""

RESYNC: Final[Message] = {"kind": "resync"}
"""Tells a channel's replicas to read the store (and what Redis keeps) afresh: a message was lost."""

LOG_EVERY: Final = 10.0
"""Seconds between two log lines about messages Redis did not take."""

PASS_ON_CLOSE: Final = 0
"""``ReplicaConnection.receive``'s answer when the client must be passed on to the writer."""


def match_id_of(channel: str) -> str | None:
    return channel.removeprefix(MATCH_CHANNEL) if channel.startswith(MATCH_CHANNEL) else None


def spectator_hello(frame: str | bytes | None) -> bool:
    """Whether a client's first frame is a spectator's ``hello`` (no token): such a client may be
    served from a replica; anyone else (a player, a join, a frame that is not even JSON) goes to the
    writer, which answers it as it always does."""
    try:
        message = decode(frame)
    except ProtocolError:
        return False
    return (message.get("type") == "hello" and message.get("spectator") is True
            and message.get("token") is None)


# --- the writer's side ------------------------------------------------------------------------------


class ClusterPubSub:
    """The ``PubSub`` of a process of a cluster with Redis: this process's listeners in memory, called
    at once (``local``), and the messages of the matches it writes forwarded to Redis in the
    background (``remote``), where the replicas of other processes hear them."""

    def __init__(self, url: str, **options: Any) -> None:
        self.local = MemoryPubSub()
        self.remote = RedisPubSub(url, on_resync=self._resync, **options)
        self.where = self.remote.where
        self.writing: Callable[[str], Match | None] = lambda match_id: None
        """The match of that id this process writes (or keeps finished), set by the lobby."""
        self.resyncs: dict[str, Callable[[str], None]] = {}
        """Per Redis channel a replica listens to, what to tell it when it may have missed messages."""
        self.outgoing: asyncio.Queue[tuple[str, Message, str | None]] = asyncio.Queue()
        self.sender: asyncio.Task[None] | None = None
        self.dropped = 0
        """Messages Redis did not take since the last log line about them."""
        self.logged = 0.0
        self.published = 0
        """Messages Redis took (for ``/api/health``)."""
        self.lost: set[str] = set()
        """Channels with a message Redis did not take: each is sent a ``resync`` message as soon as
        Redis takes messages again (the lost one may be a match's last for a long while)."""

    def subscribe(self, channel: str, listener: Listener) -> Unsubscribe:
        return self.local.subscribe(channel, listener)

    async def publish(self, channel: str, message: Message) -> None:
        await self.local.publish(channel, message)
        match_id = match_id_of(channel)
        match = None if match_id is None else self.writing(match_id)
        if match is None or message.get("kind") == "moved":  # a match let go: its new writer speaks now
            return
        if self.outgoing.qsize() >= QUEUED_MOST:
            self._drop(f"{QUEUED_MOST} messages already wait for Redis")
            self.lost.add(channel)
            return
        shown = described(match, message)
        self.outgoing.put_nowait((channel, shown, kept_as(shown)))
        if self.sender is None or self.sender.done():
            self.sender = asyncio.create_task(self._send(), name="redis publisher")

    async def _send(self) -> None:
        """Publishes the queued messages in order (Redis numbers them as they come), those queued
        together in one round trip."""
        while True:
            batch = await self._next_batch()
            lost = sorted(self.lost)
            resyncs: list[tuple[str, Message, str | None]] = [(channel, RESYNC, None) for channel in lost]
            try:
                await self.remote.publish_all(resyncs + batch)
                self.published += len(batch)
                self.lost.difference_update(lost)
            except PubSubUnavailable as error:
                if batch:
                    self._drop(str(error), len(batch))
                self.lost.update(channel for channel, _, _ in batch)
            except Exception:  # a fault of ours must not stop the publishing of every later message
                log.exception("publishing %d messages to Redis failed", len(batch))

    async def _next_batch(self) -> list[tuple[str, Message, str | None]]:
        """The queued messages, at most ``BATCH_MOST``, once there is one; none after ``RETRY_SECONDS``
        without one while ``lost`` channels wait for their resync."""
        if self.lost:
            try:
                first = await asyncio.wait_for(self.outgoing.get(), RETRY_SECONDS)
            except TimeoutError:
                return []
        else:
            first = await self.outgoing.get()
        batch = [first]
        while not self.outgoing.empty() and len(batch) < BATCH_MOST:
            batch.append(self.outgoing.get_nowait())
        return batch

    def _drop(self, why: str, count: int = 1) -> None:
        """Counts messages Redis did not take; logs at most once every ``LOG_EVERY`` seconds."""
        self.dropped += count
        now = time.monotonic()
        if now - self.logged >= LOG_EVERY:
            log.warning("%d match messages not published to Redis (replicas resync from the store): %s",
                        self.dropped, why)
            self.logged, self.dropped = now, 0

    def _resync(self, channel: str, reason: str) -> None:
        resync = self.resyncs.get(channel)
        if resync is not None:
            resync(reason)

    async def close(self) -> None:
        if self.sender is not None:
            self.sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sender
        await self.remote.close()


def described(match: Match, message: Message) -> Message:
    """``message`` with what a replica in another process needs to render it as the writer does:
    the clocks after an event, the seats and their presence, the offers, the rematch's id."""
    kind = message.get("kind")
    if kind == "event":
        return {**message, "clock": None if match.clocks is None else match.clocks.to_json()}
    if kind in ("seats", "started"):
        return {**message, "status": match.status, "present": list(match.present),
                "away_since": list(match.away_since),
                "seats": [{"kind": seat.kind, "name": seat.name, "bot": seat.bot}
                          for seat in match.row.seats]}
    if kind == "offers":
        return {**message, "offers": [offer.to_json() for offer in match.offers.values()],
                "declined": sorted(match.table.declined)}
    if kind == "rematch":
        return {**message, "rematch": None if match.rematch is None else match.rematch.match}
    return message


KEPT: Final = {"seats": "seats", "started": "seats", "offers": "offers", "rematch": "rematch"}
"""The messages whose latest is kept in Redis, by name: what a replica made later must know and the
store does not hold (presence, offers, the rematch's place), or holds only as of the last action."""


KEPT_NAMES: Final = ["seats", "offers", "rematch", "event"]


def kept_as(message: Message) -> str | None:
    """The name ``message`` is kept under in Redis, if any: an event only when it carries clocks (its
    clock's running seat and start are in memory only)."""
    kind = message.get("kind")
    if kind == "event":
        return "event" if message.get("clock") is not None else None
    return KEPT.get(str(kind))


# --- the other processes' side ----------------------------------------------------------------------


class Replica(Match):
    """A read-only copy of a match another process writes, kept up to date from Redis and the store
    for the spectators' connections of this process."""

    def __init__(self, row: MatchRow, store: Store, pubsub: MemoryPubSub, bots: BotPool, limits: Limits,
                 server_time: ServerTime, working: asyncio.Semaphore) -> None:
        super().__init__(row, get_game(row.game), store, pubsub, bots, read_only=True,
                         server_time=server_time, limits=limits, working=working)
        self.local = pubsub
        self.channel = REPLICA_CHANNEL + row.id
        self.heard: asyncio.Queue[Message] = asyncio.Queue()
        """What Redis brought, and resyncs, applied one at a time in order (``_follow``)."""
        self.following: asyncio.Task[None] | None = None
        self.connections = 0
        self.kept: Callable[[], Awaitable[list[Message | None]]] | None = None
        """Reads what the writer keeps in Redis (``learn``), on a resync."""

    def follow(self) -> None:
        self.following = asyncio.create_task(self._follow(), name=f"replica {self.id}")

    async def stop(self) -> None:
        if self.following is not None:
            self.following.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.following
        await super().stop()

    async def _follow(self) -> None:
        while True:
            message = await self.heard.get()
            try:
                await self.take(message)
            except Exception:  # one bad message must not stop the replica
                log.exception("replica of match %s: %r failed", self.id, message)

    def learn(self, kept: list[Message | None]) -> None:
        """What the writer kept in Redis (``KEPT``), taken before any connection is served."""
        for message in kept:
            if message is None:
                continue
            kind = message.get("kind")
            if kind in ("seats", "started"):
                self._seated(message)
            elif kind == "offers":
                self._offered(message)
            elif kind == "rematch" and message.get("rematch") is not None:
                self.table.rematch = Rematch(str(message["rematch"]), {})
            elif kind == "event" and message.get("version") == self.version and message.get("clock"):
                self._clocked(message["clock"])

    async def take(self, message: Message) -> None:
        """One message from the writer (or a resync), rendered to this process's connections."""
        kind = message.get("kind")
        if kind == "event":
            await self.catch_up(message["version"], message.get("clock"))
        elif kind == "resync":
            await self.catch_up(None, None, reread=True)
            await self.relearn()
        elif kind == "out":
            await self.catch_up(message["version"], None)
            await self.local.publish(self.channel, message)
        elif kind in ("seats", "started"):
            self._seated(message)
            await self.local.publish(self.channel, {"kind": kind})
        elif kind == "offers":
            self._offered(message)
            await self.local.publish(self.channel, {"kind": "offers", "news": message["news"]})
        elif kind == "rematch" and message.get("rematch") is not None:
            self.table.rematch = Rematch(str(message["rematch"]), {})
            await self.local.publish(self.channel, {"kind": "rematch"})
        elif kind == "chat":
            chat = message["chat"]
            if self.chat.loaded:
                self.chat.rooms[chat["room"]].append(
                    ChatLine(chat["id"], chat["room"], chat["seat"], chat["name"], chat["text"], chat["at"]))
            await self.local.publish(self.channel, {"kind": "chat", "chat": chat})

    async def relearn(self) -> None:
        """What the writer keeps in Redis read again (a message may have been lost), and the seats
        shown again to the spectators."""
        if self.kept is None:
            return
        try:
            self.learn(await self.kept())
        except PubSubUnavailable as error:
            log.warning("replica of match %s: %s", self.id, error)
            return
        await self.local.publish(self.channel, {"kind": "seats"})

    async def catch_up(self, version: int | None, clock: dict[str, Any] | None, reread: bool = False) -> None:
        """Applies the stored actions after this replica's version up to ``version`` (``None``: all),
        each rendered as its own ``update``; ``clock``: the writer's clocks at ``version``, shown with
        that version. Those stored after ``version`` wait for their own messages, which bring their
        clocks (a resync applies them all: their messages are lost). Only the actions after its own
        version are read (``events_after``), but on ``reread`` (a resync: a message may be lost) the
        whole match is, seats and status too."""
        if version is not None and version <= self.version:
            return
        await self.loaded()
        try:
            later = await self._read_after(reread)
        except StoreError as error:  # the next event or resync reads again
            log.error("replica of match %s: reading the store: %s", self.id, error)
            return
        if later is None:
            return
        updated = later.progress.updated
        for action in later.actions[:None if version is None else max(version - self.version, 0)]:
            self._apply(action, updated)
            if clock is not None and self.version == version:
                self._clocked(clock)
            await self.local.publish(self.channel, {"kind": "event", "version": self.version})
        if reread and later.progress.status != self.status:
            self._set_progress(replace(self.progress, status=later.progress.status))
            await self.local.publish(self.channel, {"kind": "seats"})

    async def _read_after(self, reread: bool) -> EventsAfter | None:
        """The actions stored after this replica's version and the match's progress; on ``reread``
        from the whole match, whose seats are taken too. ``None``: the match is not stored."""
        if not reread:
            return await self.store.events_after(self.id, self.version)
        row = await self.store.load_match(self.id)
        if row is None or row.progress is None:
            return None
        for seat, stored in zip(self.row.seats, row.seats, strict=True):
            seat.kind, seat.name, seat.bot = stored.kind, stored.name, stored.bot
        return EventsAfter(row.actions[self.version:], row.times[self.version:], row.progress)

    def _apply(self, action: Action, updated: float) -> None:
        """One stored action, applied as the writer applied it (the same event, texts and turn)."""
        state = self.state
        texts = self.texts_for(state, action)
        decider = state.to_move()
        seat: EventSeat = "chance" if decider == CHANCE else decider
        if is_leaving(action):
            seat = leaving_seat(action)
        state.play_stored(action)
        owner = chance_owner(state) if decider == CHANCE and not is_leaving(action) else None
        self._turn = self._turn.after(decider, action, owner)
        self._events.append(Event(len(self._events) + 1, seat, action, texts, self._turn.shown))
        self._rendered.clear()
        self._set_progress(replace(progress_of(state, self.row.seats), updated=updated))

    def _clocked(self, clock: dict[str, Any]) -> None:
        if self.clocks is not None:
            self.clocks.remaining = [float(left) for left in clock["remaining"]]
            self.clocks.running, self.clocks.since = clock["running"], float(clock["since"])

    def _seated(self, message: Message) -> None:
        for seat, shown in zip(self.row.seats, message["seats"], strict=True):
            seat.kind, seat.name, seat.bot = shown["kind"], shown["name"], shown["bot"]
        self.present = [int(count) for count in message["present"]]
        self.away_since = list(message["away_since"])
        if message["status"] != self.status:
            self._set_progress(replace(self.progress, status=message["status"]))

    def _offered(self, message: Message) -> None:
        self.table.offers = {
            shown["what"]: Offer(shown["what"], shown["by"],
                                 tuple(sorted({*shown["agreed"], *shown["waiting"]})), set(shown["agreed"]))
            for shown in message["offers"]}
        self.table.declined = set(message["declined"])


class ReplicaConnection(Connection):
    """A spectator's connection to a replica. What only the writer can do (take a seat, say
    something at the table) passes the client on to the writer: ``pass_on`` holds the frames to send
    there first, and ``receive`` answers ``PASS_ON_CLOSE``."""

    pass_on: list[str | bytes] | None = None

    async def receive(self, text: str | None, data: bytes | None) -> tuple[int, str] | None:
        frame = text if data is None else data
        try:
            kind = decode(frame, int(self.limits.body_bytes)).get("type")
        except ProtocolError:
            kind = None
        if kind == "join" and self.greeted:
            self.pass_on = [frame] if frame is not None else []
        elif kind == "chat" and self.greeted:
            # The writer's connection must hear who this is first; the client gets its state again.
            self.pass_on = ['{"type":"hello","spectator":true}', frame] if frame is not None else []
        if self.pass_on is not None:
            return PASS_ON_CLOSE, "passed on to the match's writer"
        return await super().receive(text, data)


class Replicas:
    """This process's replicas, by match id, each kept while a connection watches it."""

    def __init__(self, store: Store, pubsub: ClusterPubSub, bots: BotPool, limits: Limits,
                 server_time: ServerTime, working: asyncio.Semaphore) -> None:
        self.store = store
        self.pubsub = pubsub
        self.bots = bots
        self.limits = limits
        self.time = server_time
        self.working = working
        self.held: dict[str, Replica] = {}
        self.making: dict[str, asyncio.Task[Replica]] = {}
        self.unsubscribe: dict[str, Unsubscribe] = {}
        self.served = 0
        """Spectators' connections served from a replica since start (for ``/api/health``)."""

    async def watch(self, match_id: str) -> Replica:
        """The replica of ``match_id``, made if need be, counted as watched until ``release``;
        ``ProtocolError`` when it cannot be made (the store is away, no such match)."""
        replica = self.held.get(match_id)
        if replica is None:
            making = self.making.get(match_id)
            if making is None:
                making = asyncio.create_task(self._make(match_id))
                self.making[match_id] = making
                making.add_done_callback(lambda _: self.making.pop(match_id, None))
            replica = await asyncio.shield(making)
        replica.connections += 1
        self.served += 1
        return replica

    async def _make(self, match_id: str) -> Replica:
        channel = MATCH_CHANNEL + match_id
        early: list[Message] = []
        self.unsubscribe[match_id] = self.pubsub.remote.subscribe(channel, early.append)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.pubsub.remote.settled(), SETTLE_SECONDS)
            row = await read_match(self.store, match_id)
            replica = Replica(row, self.store, self.pubsub.local, self.bots, self.limits, self.time,
                              self.working)
        except BaseException:
            self.unsubscribe.pop(match_id)()
            raise
        replica.kept = functools.partial(self.pubsub.remote.kept, channel, KEPT_NAMES)
        try:
            replica.learn(await replica.kept())
        except PubSubUnavailable as error:  # shown as stored; the writer's next messages say the rest
            log.warning("match %s: a replica without the writer's latest seats and offers: %s",
                        match_id, error)
        early_unsubscribe = self.unsubscribe.pop(match_id)
        self.unsubscribe[match_id] = self.pubsub.remote.subscribe(channel, replica.heard.put_nowait)
        early_unsubscribe()  # after: the channel is never left without a listener (nor unsubscribed)
        self.pubsub.resyncs[channel] = lambda reason: replica.heard.put_nowait({"kind": "resync"})
        for message in early:  # heard while the store was read: those it already holds are skipped
            replica.heard.put_nowait(message)
        self.held[match_id] = replica
        replica.follow()
        log.info("match %s: a replica for spectators, at version %d", match_id, replica.version)
        return replica

    async def release(self, replica: Replica) -> None:
        replica.connections -= 1
        if replica.connections > 0 or self.held.get(replica.id) is not replica:
            return
        del self.held[replica.id]
        self.pubsub.resyncs.pop(MATCH_CHANNEL + replica.id, None)
        unsubscribe = self.unsubscribe.pop(replica.id, None)
        if unsubscribe is not None:
            unsubscribe()
        await replica.stop()
        log.info("match %s: its replica dropped (no spectator left)", replica.id)

    async def close(self) -> None:
        for replica in list(self.held.values()):
            replica.connections = 1
            await self.release(replica)
