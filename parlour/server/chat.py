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

from parlour.server.messages import ProtocolError
from parlour.server.storage import ChatLine, ChatRoom, Store, StoreError

log = logging.getLogger("parlour.server")

SHOWN: Final = 100
"""Messages a ``state`` carries at most: the latest its receiver may see."""

LISTED: Final = 1000
"""Messages ``GET /api/matches/{id}/chat`` answers at most: the latest its caller may see."""

SPECTATOR_NAME: Final = "spectator"


def room_of(seat: int | None) -> ChatRoom:
    return "spectators" if seat is None else "players"


def may_see(room: ChatRoom, seat: int | None, over: bool) -> bool:
    """Whether a connection of ``seat`` (``None``: a spectator) may see a message of ``room``."""
    return room == "players" or seat is None or over


def chat_json(match_id: str, line: ChatLine) -> dict[str, Any]:
    return {"type": "chat", "match": match_id, "room": line.room, "seat": line.seat, "name": line.name,
            "text": line.text, "at": line.at, "id": line.id}


class MatchChat:
    """A match's chat: read from the store when first needed, then the latest ``SHOWN`` of each
    room kept in memory (every message stays in the store)."""

    def __init__(self, match_id: str, store: Store) -> None:
        self.match_id = match_id
        self.store = store
        self.rooms: dict[ChatRoom, collections.deque[ChatLine]] = {
            "players": collections.deque(maxlen=SHOWN), "spectators": collections.deque(maxlen=SHOWN)}
        self.next_id = 1
        self.loaded = False
        self._loading = asyncio.Lock()

    async def load(self) -> None:
        """Reads the stored messages once (a second caller waits for the first's)."""
        async with self._loading:
            if self.loaded:
                return
            try:
                lines = await self.store.load_chat(self.match_id)
            except StoreError as error:
                log.error("match %s: reading its chat: %s", self.match_id, error)
                raise ProtocolError("internal", "the chat could not be read; try again", 500) from None
            for line in lines:
                self.rooms[line.room].append(line)
            self.next_id = lines[-1].id + 1 if lines else 1
            self.loaded = True

    def shown(self, seat: int | None, over: bool) -> list[dict[str, Any]]:
        """The latest ``SHOWN`` messages a connection of ``seat`` may see, in order."""
        lines = [line for room, kept in self.rooms.items() if may_see(room, seat, over) for line in kept]
        return [chat_json(self.match_id, line) for line in sorted(lines, key=lambda line: line.id)[-SHOWN:]]

    async def say(self, seat: int | None, name: str, text: str, at: float) -> ChatLine:
        """Stores what ``seat`` said (``None``: a spectator) and keeps it; ``internal`` if the store fails."""
        await self.load()
        line = ChatLine(self.next_id, room_of(seat), seat, name, text, at)
        self.next_id += 1  # taken now: a message said meanwhile gets the next number
        try:
            await self.store.add_chat(self.match_id, line)
        except StoreError as error:
            log.error("match %s: storing a chat message: %s", self.match_id, error)
            unsaid = ProtocolError("internal", "the message could not be stored; nothing was said", 500)
            raise unsaid from None
        self.rooms[line.room].append(line)
        return line

    async def listed(self, seat: int | None, over: bool) -> list[dict[str, Any]]:
        """Every message (the latest ``LISTED``) a caller of ``seat`` may see, from the store."""
        try:
            lines = await self.store.load_chat(self.match_id)
        except StoreError as error:
            log.error("match %s: reading its chat: %s", self.match_id, error)
            raise ProtocolError("internal", "the chat could not be read; try again", 500) from None
        return [chat_json(self.match_id, line) for line in lines if may_see(line.room, seat, over)][-LISTED:]
