"""The server's TCP side: what a connection may hold before the app sees a request.

uvicorn's own protocols, with two guards added:

- **a request has deadlines**: its head must be in within ``Limits.header_seconds`` of its first
  byte (of the connection, for a first request), its body within ``Limits.body_seconds`` of the
  head; if not, a ``408`` (code ``request_timeout``) and the connection is closed. uvicorn times
  only the idle gap between requests (``timeout_keep_alive``): a new connection that sent
  nothing, or a head or body that trickled in, was held for ever.
- **connections per client address** (``Limits.connections_per_address``), HTTP and WebSocket
  alike: one more is answered ``429`` (code ``too_many_connections``) and closed before a byte
  of its request is read.

A connection is counted per transport, not per protocol object: at a WebSocket upgrade the HTTP
protocol hands its transport to a WebSocket protocol, and whichever of the two the transport
belongs to when it closes gives the count back.
"""

from __future__ import annotations

import asyncio
import json
import logging
from http import HTTPStatus
from typing import Any, ClassVar, Final, Literal

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from parlour.server.limits import UNKNOWN_ADDRESS, FaultLog, Limits
from parlour.server.messages import ProtocolError

LINGER_SECONDS: Final = 2.0
"""How long a refused connection stays open for its client to read the answer: closing at once,
with the client's request unread, would make the kernel reset the connection, and a reset can
reach the client before the answer does."""

logger = logging.getLogger("parlour.server.transport")

Part = Literal["head", "body", ""]
"""What part of a request a connection waits for under a deadline ("": none)."""


def error_answer(status: HTTPStatus, code: str, message: str) -> bytes:
    """A whole HTTP response in the JSON error shape of ``docs/protocol.md`` (as the app's answers
    have it, from ``ProtocolError``), closing the connection."""
    body = json.dumps({"error": ProtocolError(code, message, status.value).to_json()}).encode()
    head = (f"HTTP/1.1 {status.value} {status.phrase}\r\n"
            "content-type: application/json\r\n"
            f"content-length: {len(body)}\r\n"
            "connection: close\r\n\r\n")
    return head.encode("ascii") + body


def peer_host(transport: asyncio.BaseTransport) -> str:
    """The peer's address (the host without the port): the client's, as ``app.client_address``
    names it, unless a proxy on 127.0.0.1 forwards it (the app then counts the forwarded address,
    this the proxy's)."""
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else UNKNOWN_ADDRESS


class ConnectionCount:
    """Open connections per client address, each counted once by its transport."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.by_address: dict[str, int] = {}
        self.held: dict[asyncio.BaseTransport, str] = {}

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count ``transport`` if its address holds fewer than ``most``; ``False`` (not counted) if not."""
        host = peer_host(transport)
        count = self.by_address.get(host, 0)
        if count >= self.most:
            return False
        self.by_address[host] = count + 1
        self.held[transport] = host
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """Give back ``transport``'s place (once; a transport never counted gives nothing)."""
        host = self.held.pop(transport, None)
        if host is None:
            return
        left = self.by_address[host] - 1
        if left:
            self.by_address[host] = left
        else:  # an address with nothing open leaves, so the table holds only current clients
            del self.by_address[host]

    def __len__(self) -> int:
        return len(self.held)


class GuardedHttp(H11Protocol):
    """uvicorn's h11 protocol with deadlines for a request's head and body and the per-address count."""

    count: ClassVar[ConnectionCount]
    faults: ClassVar[FaultLog]
    header_seconds: ClassVar[float]
    body_seconds: ClassVar[float]

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.refused = False
        self.upgraded = False
        self.deadline: asyncio.TimerHandle | None = None
        self.awaiting: Part = ""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.count.admit(transport):
            self.refuse()
            return
        # uvicorn's keep-alive timer starts only after a first response: time the first head here.
        self.expect("head")

    def data_received(self, data: bytes) -> None:
        if self.refused:  # the answer is on its way; the request is never read
            return
        super().data_received(data)
        # Bytes came and no request head is complete: a head has begun and must end in time.
        # (uvicorn stops its keep-alive timer at any byte, so nothing else bounds this connection.)
        if self.conn.their_state is h11.IDLE and not self.awaiting and not self.transport.is_closing():
            self.expect("head")

    def handle_events(self) -> None:
        super().handle_events()
        if self.upgraded:
            return
        state = self.conn.their_state
        if state is h11.SEND_BODY:  # a head came, its body is on its way
            if self.awaiting != "body":
                self.expect("body")
        elif state is not h11.IDLE:  # the whole request came, or an upgrade, or the end
            self.expect("")

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # The transport now belongs to a WebSocket protocol: this request's deadline is no longer
        # this object's business (h11 still thinks the request's empty body is on its way).
        self.expect("")
        self.upgraded = True
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self.expect("")
        self.count.release(self.transport)
        super().connection_lost(exc)

    def expect(self, part: Part) -> None:
        """Start the deadline for ``part`` of a request ("head" or "body"), or none ("")."""
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        self.awaiting = part
        if part:
            self.deadline = self.loop.call_later(self.seconds(part), self.too_late)

    def seconds(self, part: Part) -> float:
        return self.header_seconds if part == "head" else self.body_seconds

    def too_late(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):  # no answer begun: this one can be sent
            what = "headers" if self.awaiting == "head" else "body"
            self.transport.write(error_answer(
                HTTPStatus.REQUEST_TIMEOUT, "request_timeout",
                f"the request's {what} did not all arrive within {self.seconds(self.awaiting):g} s"))
        logger.debug("closed a connection from %s: its request's %s came too late",
                     peer_host(self.transport), self.awaiting)
        self.awaiting = ""
        self.transport.close()

    def refuse(self) -> None:
        self.refused = True
        self.transport.write(error_answer(
            HTTPStatus.TOO_MANY_REQUESTS, "too_many_connections",
            f"this address already holds {self.count.most} connections to the server: "
            "close one and try again"))
        if self.transport.can_write_eof():
            self.transport.write_eof()  # the client reads the answer, then the end; it closes, we close
        self.deadline = self.loop.call_later(LINGER_SECONDS, self.transport.close)
        self.faults.warning("refused a connection from %s: it holds %d already "
                            "(--limit connections_per_address)", peer_host(self.transport), self.count.most)


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, giving back the connection's count when it closes."""

    count: ClassVar[ConnectionCount]

    def connection_lost(self, exc: Exception | None) -> None:
        self.count.release(self.transport)
        super().connection_lost(exc)


def protocols(limits: Limits, faults: FaultLog) -> tuple[type[GuardedHttp], type[GuardedWebSocket]]:
    """The HTTP and WebSocket protocol classes for ``uvicorn.Config(http=…, ws=…)``, sharing one
    count; refusals are logged within ``faults``, the budget the app's own client faults use too."""
    shared = ConnectionCount(max(1, int(limits.connections_per_address)))
    budget = faults

    class Http(GuardedHttp):
        count = shared
        faults = budget
        header_seconds = limits.header_seconds
        body_seconds = limits.body_seconds

    class WebSocket(GuardedWebSocket):
        count = shared

    return Http, WebSocket
