"""Chat at a match's table: two rooms, stored with the match (``docs/protocol.md``, ``chat``).

Players talk in the players' room, which spectators may read; spectators talk among themselves
in the spectators' room, which the players do not see while the match goes on (no help from the
gallery), and everyone may read once it is over. Every message is stored before anyone hears
it, and comes back after a restart.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from typing import Any, Final

from parlour.server.messages import ProtocolError, store_unreachable
from parlour.server.storage import ChatLine, ChatRoom, Store, StoreError

log = logging.getLogger("parlour.server")

SHOWN: Final = 100
"""Messages a ``state`` carries at most: the latest its receiver may see."""

LISTED: Final = 1000
"""Messages ``GET /api/matches/{id}/chat`` answers at most: the latest its caller may see."""

SPECTATOR_NAME: Final = "spectator"

ROOMS: Final[tuple[ChatRoom, ...]] = ("players", "spectators")


def room_of(seat: int | None) -> ChatRoom:
    return "spectators" if seat is None else "players"


def may_see(room: ChatRoom, seat: int | None, over: bool) -> bool:
    """Whether a connection of ``seat`` (``None``: a spectator) may see a message of ``room``."""
    return room == "players" or seat is None or over


def chat_json(match_id: str, line: ChatLine) -> dict[str, Any]:
    return {"type": "chat", "match": match_id, "room": line.room, "seat": line.seat, "name": line.name,
            "text": line.text, "at": line.at, "id": line.id}


def rooms_seen(seat: int | None, over: bool) -> list[ChatRoom]:
    """The rooms a connection of ``seat`` may see."""
    return [room for room in ROOMS if may_see(room, seat, over)]


def chat_full(most: int) -> ProtocolError:
    return ProtocolError("chat_full", f"this match's chat holds {most} messages, the most a match keeps: "
                                      "nothing more can be said here", 409)


class MatchChat:
    """A match's chat: the latest ``SHOWN`` of each room read from the store when first needed,
    then kept in memory as messages are said (every message stays in the store, ``most`` at most
    per match). The store numbers the messages: a second copy of the match in memory (a finished
    match read back while an older copy still has connections) numbers on from the same count."""

    def __init__(self, match_id: str, store: Store, most: int) -> None:
        self.match_id = match_id
        self.store = store
        self.most = most
        self.rooms: dict[ChatRoom, collections.deque[ChatLine]] = {
            room: collections.deque(maxlen=SHOWN) for room in ROOMS}
        self.loaded = False
        self._loading = asyncio.Lock()

    def new(self) -> None:
        """The match was just stored: nobody has said anything, so there is nothing to read (a
        read costs a thread's round trip, and every new match's first hello would pay it)."""
        self.loaded = True

    async def load(self) -> None:
        """Reads the latest stored messages of each room once (a second caller waits for the first's)."""
        async with self._loading:
            if self.loaded:
                return
            for room in ROOMS:
                self.rooms[room].extend(await self._read([room], SHOWN))
            self.loaded = True

    async def _read(self, rooms: list[ChatRoom], most: int) -> list[ChatLine]:
        try:
            return await self.store.load_chat(self.match_id, rooms, most)
        except StoreError as error:
            log.error("match %s: reading its chat: %s", self.match_id, error)
            raise store_unreachable("the chat could not be read") from None

    def shown(self, seat: int | None, over: bool) -> list[dict[str, Any]]:
        """The latest ``SHOWN`` messages a connection of ``seat`` may see, in order."""
        lines = [line for room in rooms_seen(seat, over) for line in self.rooms[room]]
        return [chat_json(self.match_id, line) for line in sorted(lines, key=lambda line: line.id)[-SHOWN:]]

    async def say(self, seat: int | None, name: str, text: str, at: float) -> ChatLine:
        """Stores what ``seat`` said (``None``: a spectator) and keeps it; ``chat_full`` once the
        match holds ``most`` messages, ``internal`` if the store fails."""
        await self.load()
        try:
            line = await self.store.add_chat(self.match_id, ChatLine(0, room_of(seat), seat, name, text, at),
                                             self.most)
        except StoreError as error:
            log.error("match %s: storing a chat message: %s", self.match_id, error)
            raise store_unreachable("the message could not be stored; nothing was said") from None
        if line is None:
            raise chat_full(self.most)
        self.rooms[line.room].append(line)
        return line

    async def listed(self, seat: int | None, over: bool) -> list[dict[str, Any]]:
        """The latest ``LISTED`` messages a caller of ``seat`` may see, from the store (only those
        are read)."""
        lines = await self._read(rooms_seen(seat, over), LISTED)
        return [chat_json(self.match_id, line) for line in lines]
