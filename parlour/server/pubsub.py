"""Publish/subscribe for match events, behind a small interface (in memory by default).

A match's writer publishes each event on the match's channel once it is stored; every
connection watching the match listens there and renders the event for its own seat. In a cluster
with Redis (``parlour.server.replica``), the writer's messages also go to Redis, where the other
processes' replicas of the match hear them and apply the stored events before their spectators'
connections render them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

Message = dict[str, Any]
Listener = Callable[[Message], None]
Unsubscribe = Callable[[], None]

log = logging.getLogger("parlour.server")


class PubSub(Protocol):
    def subscribe(self, channel: str, listener: Listener) -> Unsubscribe:
        """Calls ``listener`` with every message later published on ``channel``, in order."""

    async def publish(self, channel: str, message: Message) -> None:
        """Delivers ``message`` to the channel's listeners."""


class MemoryPubSub:
    """Listeners in this process, called synchronously in publication order.

    Synchronous delivery means a listener sees the match exactly as it was when the event was
    published (nothing runs in between), so it can render from the live state.
    """

    def __init__(self) -> None:
        self.listeners: dict[str, dict[int, Listener]] = {}
        self.next_key = 0

    def subscribe(self, channel: str, listener: Listener) -> Unsubscribe:
        key = self.next_key
        self.next_key += 1
        self.listeners.setdefault(channel, {})[key] = listener

        def unsubscribe() -> None:
            listeners = self.listeners.get(channel, {})
            listeners.pop(key, None)
            if not listeners:
                self.listeners.pop(channel, None)

        return unsubscribe

    async def publish(self, channel: str, message: Message) -> None:
        for listener in list(self.listeners.get(channel, {}).values()):
            try:
                listener(message)
            except Exception:  # one broken listener must not starve the others
                log.exception("listener on %s failed", channel)
