"""One client's WebSocket to one match: the protocol's conversation, apart from the transport.

A connection answers every frame (an error when it is wrong, and stays open), and once the
client has said who it is, forwards the match's events rendered for its seat. Outgoing messages
go through a queue drained by one sender task, so they leave in order and a slow client never
holds up the match's writer.

A connection may send ``message_burst`` messages at once and ``messages_per_second`` after that;
a message over the rate is answered ``rate_limited`` and dropped, and a client that goes on
sending over it (``FLOOD_BURSTS`` bursts' worth in a row) is closed with ``RATE_CLOSE``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from parlour.server.chat import may_see
from parlour.server.limits import UNKNOWN_ADDRESS, AddressBuckets, Limits, TokenBucket
from parlour.server.match import Match
from parlour.server.messages import (
    ActionMessage,
    Chat,
    Claim,
    Hello,
    Join,
    OfferMessage,
    Ping,
    ProtocolError,
    Resign,
    decode,
    encode,
    error_message,
    message_id,
    rate_limited,
    read,
)
from parlour.server.pubsub import Message, Unsubscribe

log = logging.getLogger("parlour.server")

BACKLOG: Final = 2000
"""Unsent messages a connection may hold; beyond that it is sent one fresh ``state`` instead."""

RATE_CLOSE: Final = 1008
"""The close code (policy violation) for a client that keeps sending over its message rate."""

MOVED_CLOSE: Final = 1012
"""The close code (service restart) for a connection whose match moved to another process of the
cluster: the client reconnects, and reaches the new writer."""

FLOOD_BURSTS: Final = 3
"""Refused messages in a row, in bursts (``message_burst``), after which a connection is closed."""


class Connection:
    def __init__(
        self, match: Match, send: Callable[[str], Awaitable[None]], address: str = UNKNOWN_ADDRESS,
        limits: Limits | None = None, joins: AddressBuckets | None = None,
        creates: AddressBuckets | None = None, chats: AddressBuckets | None = None,
        replays: AddressBuckets | None = None,
    ) -> None:
        """``address`` is the client's, which ``joins`` (the server's join rate) counts, ``creates``
        (its creation rate) for each rematch it offers, and ``chats`` (its chat rate, over all its
        connections: many sockets must not make many budgets) for each chat message, and
        ``replays`` (its replay budget) for a match that must be read back to be shown."""
        self.match = match
        self.send = send
        self.address = address
        self.limits = limits or Limits()
        self.joins = joins
        self.creates = creates
        self.chats = chats
        self.replays = replays
        self.rate = TokenBucket(self.limits.message_burst, self.limits.messages_per_second)
        self.chat_rate = TokenBucket(self.limits.chat_burst, self.limits.chat_per_minute / 60)
        self.refused = 0
        """Messages refused in a row for going over the rate."""
        self.seat: int | None = None
        self.greeted = False
        self.watching = False
        """Whether this connection counts among the match's spectators (``Match.watching``)."""
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.unsubscribe: Unsubscribe | None = None
        self.moved = False
        """The match moved to another process (its lease was lost): this connection is done."""

    # --- out ---

    async def send_all(self) -> None:
        """Sends queued messages until ``close``; run as one task per connection."""
        while True:
            text = await self.outbox.get()
            if text is None:
                return
            await self.send(text)

    def push(self, message: dict[str, Any] | str) -> None:
        if self.outbox.qsize() >= BACKLOG:
            # The client is not reading: drop what it has not got and let it redraw from now.
            while not self.outbox.empty():
                self.outbox.get_nowait()
            message = self.match.state_message(self.seat, resync=True)
        self.outbox.put_nowait(message if isinstance(message, str) else encode(message))

    def hear(self, message: Message) -> None:
        """A message on the match's channel, rendered for this connection's seat."""
        kind = message.get("kind")
        if kind == "event":
            if message.get("version") == self.match.version:
                self.push(self.match.update_text(self.seat))
            else:
                self.push(self.match.state_message(self.seat, resync=True))
        elif kind == "seats":
            self.push(self.match.seats_message())
        elif kind == "started":
            self.push(self.match.state_message(self.seat))
        elif kind == "out":
            self.push(self.match.out_message(message, self.seat))
        elif kind == "offers":
            self.push(self.match.offers_message(message["news"]))
        elif kind == "rematch":
            self.push(self.match.rematch_message(self.seat))
        elif kind == "moved":
            self.moved = True
            self.outbox.put_nowait(None)  # the sender stops; the socket is closed with MOVED_CLOSE
        elif kind == "chat":
            chat = message["chat"]
            if may_see(chat["room"], self.seat, self.match.status == "over"):
                self.push(chat)

    # --- in ---

    async def receive(self, text: str | None, data: bytes | None) -> tuple[int, str] | None:
        """Handles one frame; every mistake is answered with an ``error`` and changes nothing.
        Returns the close code and reason when the connection must be closed."""
        wait = self.rate.take()
        if wait:  # dropped unread: a flood costs the server as little as possible
            self.refused += 1
            if self.refused >= FLOOD_BURSTS * self.limits.message_burst:
                return RATE_CLOSE, f"over {self.limits.messages_per_second:g} messages a second for too long"
            self.push(error_message(rate_limited(wait, "messages on this connection")))
            return None
        self.refused = 0
        await self.handle(text, data)
        return None

    async def handle(self, text: str | None, data: bytes | None) -> None:
        ref = None
        try:
            decoded = decode(text if data is None else data, int(self.limits.body_bytes))
            ref = message_id(decoded)
            message = read(decoded)
            if isinstance(message, Ping):
                self.push({"type": "pong", "id": ref} if ref is not None else {"type": "pong"})
            elif isinstance(message, Hello):
                await self.hello(message)
            elif isinstance(message, Join):
                await self.join(message)
            elif isinstance(message, Resign):
                await self.resign()
            elif isinstance(message, OfferMessage):
                await self.offer(message)
            elif isinstance(message, Claim):
                await self.claim(message)
            elif isinstance(message, Chat):
                await self.chat(message)
            else:
                await self.act(message)
        except ProtocolError as error:
            self.push(error_message(error, ref))
        except Exception:
            log.exception("match %s: a client message failed", self.match.id)
            fault = ProtocolError("internal", "the server failed on that message (logged)", 500)
            self.push(error_message(fault, ref))

    async def hello(self, hello: Hello) -> None:
        if self.greeted:
            raise ProtocolError("duplicate_hello", "this connection has already said hello")
        if hello.token is not None:
            seat = self.match.seat_of(hello.token)
            if seat is None:
                raise ProtocolError("bad_token", "that token holds no seat of this match")
        elif hello.spectator:
            seat = None
        else:
            raise ProtocolError(
                "missing_token", 'say who you are: {"type": "hello", "token": …} or {"spectator": true}'
            )
        await self.match.chat.load()  # the state carries the latest messages
        await self.loaded()
        self.greeted = True
        self.seat = seat
        self._listen()
        self.push(self.match.state_message(seat))
        if seat is not None:
            await self.match.arrive(seat)
        else:
            self._watch(True)

    async def join(self, join: Join) -> None:
        if self.seat is not None:
            raise ProtocolError("already_seated", f"this connection already plays seat {self.seat}")
        if self.joins is not None:
            self.joins.spend(self.address)
        await self.match.chat.load()  # before the seat is taken: a failed read takes nothing
        await self.loaded()
        seat, token = await self.match.claim(join.seat, join.name)
        self._watch(False)  # a spectator who joins plays now
        self.greeted = True
        self.seat = seat
        self._listen()
        self.push({"type": "joined", "match": self.match.id, "seat": seat, "token": token})
        self.push(self.match.state_message(seat))
        await self.match.arrive(seat)

    async def loaded(self) -> None:
        """The match's state, replayed in a worker thread if it is not in memory (a finished match
        read back: replaying it on the event loop held up every other client), charged to the
        address's replay budget by the actions it replays."""
        if self.match.unreplayed and self.replays is not None:
            self.replays.spend(self.address, self.match.unreplayed)
        await self.match.loaded()

    async def act(self, action: ActionMessage) -> None:
        error = await self.match.submit(self.seated("play"), action.text, action.version)
        if error is not None:
            raise error

    async def resign(self) -> None:
        error = await self.match.resign(self.seated("resign"))
        if error is not None:
            raise error

    async def offer(self, offer: OfferMessage) -> None:
        seat = self.seated(f"{offer.step} a {offer.what}")
        charge = None
        if offer.step == "offer" and offer.what == "rematch" and self.creates is not None:
            # A rematch is a new match: an offer the match takes counts as one created.
            charge = functools.partial(self.creates.spend, self.address)
        error = await self.match.offer(seat, offer.step, offer.what, charge)
        if error is not None:
            raise error

    async def claim(self, claim: Claim) -> None:
        error = await self.match.claim_gone(self.seated("claim a seat"), claim.seat)
        if error is not None:
            raise error

    async def chat(self, chat: Chat) -> None:
        """Says something at the table: a seat in the players' room, a spectator in the spectators'."""
        if not self.greeted:
            raise ProtocolError("hello_first", 'say hello first: {"type": "hello", "token": …}')
        wait = self.chat_rate.take()
        if wait:
            raise rate_limited(wait, "chat messages on this connection")
        if self.chats is not None:
            self.chats.spend(self.address)
        await self.match.say(self.seat, chat.text)

    def seated(self, doing: str) -> int:
        """The connection's seat, for ``doing`` something only a seat may do."""
        if not self.greeted:
            raise ProtocolError("hello_first", 'say hello first: {"type": "hello", "token": …}')
        if self.seat is None:
            raise ProtocolError("not_seated", f"spectators cannot {doing}: join a seat first")
        return self.seat

    def _watch(self, watching: bool) -> None:
        if watching != self.watching:
            self.watching = watching
            self.match.watching += 1 if watching else -1

    def _listen(self) -> None:
        if self.unsubscribe is None:
            self.unsubscribe = self.match.pubsub.subscribe(self.match.channel, self.hear)

    async def close(self) -> None:
        self._watch(False)
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None
        if self.seat is not None:
            await self.match.leave(self.seat)
            self.seat = None
        self.outbox.put_nowait(None)
