"""Passing a client on to the process of the cluster that writes its match.

In a cluster (``parlour.server.lobby``), each unfinished match is written by the one process that
holds its lease. HAProxy sends a match's requests to the process that made it (the note that
process gave its answer), else to one process by a hash of its id, so nearly all land on the
writer; those that land elsewhere (a process joined or left the rotation, a match was taken over)
are relayed here: a WebSocket becomes a WebSocket to the writer with every frame
passed on both ways, and a request about the match is asked again of the writer, its answer
passed back as it is. The writer counts the client's address (``X-Forwarded-For``, which uvicorn
trusts from the addresses in ``FORWARDED_ALLOW_IPS``, 127.0.0.1 unless set), so limits count the client,
not the relay.

A relayed request carries ``x-parlour-relayed``: a process that does not hold the match either
answers that it is moving (``unavailable``, and the client tries again) instead of relaying once
more, so two processes that disagree about a lease never pass a client back and forth.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from parlour.server.connection import MOVED_CLOSE
from parlour.server.leases import Node
from parlour.server.messages import ProtocolError

log = logging.getLogger("parlour.server")

RELAYED: Final = "x-parlour-relayed"
"""The header of a request one process of the cluster passes on to another."""

OPEN_SECONDS: Final = 3.0
"""Seconds to reach the writer: one that does not answer by then is taken for gone (its lease
runs out soon and another process takes the match over)."""

ASK_SECONDS: Final = 10.0
"""Seconds a relayed request may take at the writer (a replay page may take a few)."""

PING_SECONDS: Final = 5.0
"""Seconds between pings to the writer, for its pong, and for its closing handshake: a writer that
hangs (paused, its host cut off) ends the relay within three times this (a ping sent, unanswered,
the connection closed without waiting the library's 10 s for a writer that answers nothing), the
client closed with ``TRY_AGAIN_CLOSE`` to reconnect.
Without it a relay to a hung writer lasted as long as the client: when a third process takes the
match over, nothing else tells this one (its ``taken`` is never set)."""

ASKING: Final = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="parlour-relay")
"""The threads that ask other processes (``relay_request``, ``gone``): their own, not asyncio's
default pool, where match replays run: a few requests for a hung writer's match each hold a thread
for up to ``ASK_SECONDS``, and must never make a replay wait behind them. At most four asked at
once; more wait their turn here, not in the replays' pool."""

TRY_AGAIN_CLOSE: Final = 1013
"""The close code (try again later) for a client whose match's writer cannot be reached now."""

DIRECT: Final = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""Requests from process to process go straight there, whatever proxy the environment names."""

UNSENDABLE: Final = frozenset({1005, 1006, 1015})
"""Close codes that only report what happened (none given, connection lost, TLS failed): never sent."""


def relayed(connection: HTTPConnection) -> bool:
    return RELAYED in connection.headers


def moving(match_id: str) -> ProtocolError:
    """The answer to a relayed request for a match this process does not hold either."""
    return ProtocolError("unavailable", f"match {match_id[:40]} is moving between server processes: try "
                         "again in a moment", 503)


def _headers(client: str) -> dict[str, str]:
    return {RELAYED: "1", "x-forwarded-for": client}


def socket_address(holder: Node, path: str) -> str:
    """The WebSocket URL of ``path`` at ``holder`` (``http`` becomes ``ws``, ``https`` ``wss``)."""
    base = holder.address.rstrip("/")
    return "ws" + base.removeprefix("http") + path


async def relay_socket(
    websocket: WebSocket, holder: Node, client: str, most_bytes: int, taken: asyncio.Event,
    first: Sequence[str | bytes] = (),
) -> bool:
    """Passes frames both ways between the accepted ``websocket`` and the same path at ``holder``
    until either side closes, then closes the other with the same code; when ``taken`` is set (this
    process took the match over), the client is closed with ``MOVED_CLOSE`` and reconnects. ``first``:
    frames the client sent already (read here to choose where to serve it), sent to ``holder`` first.
    ``False`` (and the websocket untouched) when ``holder`` cannot be reached."""
    address = socket_address(holder, websocket.url.path)
    try:
        writer = await connect(address, additional_headers=_headers(client), max_size=most_bytes,
                               open_timeout=OPEN_SECONDS, ping_interval=PING_SECONDS,
                               ping_timeout=PING_SECONDS, close_timeout=PING_SECONDS, compression=None,
                               proxy=None)
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
        log.warning("relaying a connection to %s: %s", address, error)
        return False
    async with writer:
        with contextlib.suppress(ConnectionClosed):  # a writer that closed at once: told below
            for frame in first:
                await writer.send(frame)
        await _pass_frames(websocket, writer, taken)
    return True


async def gone(holder: Node) -> bool:
    """Whether ``holder`` is known to be gone: its address refuses connections, or answers as
    another node (a process started since on the same address). One that does not answer in time
    may only be slow: not known to be gone."""
    def ask() -> bool:
        try:
            with DIRECT.open(holder.address.rstrip("/") + "/api/health", timeout=OPEN_SECONDS) as answer:
                return bool(json.loads(answer.read()).get("node") != holder.id)
        except ConnectionRefusedError:
            return True
        except urllib.error.URLError as error:
            return isinstance(error.reason, ConnectionRefusedError)
        except (OSError, ValueError, AttributeError):
            return False

    return await asyncio.get_running_loop().run_in_executor(ASKING, ask)


async def _pass_frames(websocket: WebSocket, writer: ClientConnection, taken: asyncio.Event) -> None:
    async def to_writer() -> None:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            text = frame.get("text")
            await writer.send(text if text is not None else frame.get("bytes") or b"")

    async def to_client() -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in writer:
                if isinstance(message, str):
                    await websocket.send_text(message)
                else:
                    await websocket.send_bytes(message)

    tasks = [asyncio.create_task(work) for work in (to_writer(), to_client(), taken.wait())]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed, WebSocketDisconnect,
                                     RuntimeError):
                await task
    if tasks[2] in done:  # this process writes the match now (its writer hung, or went)
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close(MOVED_CLOSE, "the match moved to this server process: reconnect")
    elif tasks[1] in done or _closed_by_writer(tasks[0]):  # the client is closed the same way
        code, reason = writer.close_code, writer.close_reason or ""
        # Without a word (1006 also when our pings went unanswered: the writer hung): it may have died.
        if code is None or code in UNSENDABLE:
            code, reason = TRY_AGAIN_CLOSE, "the match's server went away: reconnecting"
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close(code, reason)


def _closed_by_writer(to_writer: asyncio.Task[object]) -> bool:
    """Whether passing a frame on failed because the writer's side had closed (it may be noticed
    there first, while a frame was being sent)."""
    return (to_writer.done() and not to_writer.cancelled()
            and isinstance(to_writer.exception(), ConnectionClosed))


async def relay_request(request: Request, holder: Node, client: str, body: bytes | None) -> Response | None:
    """``request`` asked again of ``holder``, its answer (status, type and bytes) passed back;
    ``None`` when ``holder`` cannot be reached."""
    address = holder.address.rstrip("/") + request.url.path
    if request.url.query:
        address += "?" + request.url.query
    headers = _headers(client)
    if body is not None:
        headers["content-type"] = "application/json"
    asked = urllib.request.Request(address, data=body, method=request.method, headers=headers)

    def ask() -> tuple[int, str, bytes, dict[str, str]]:
        try:
            with DIRECT.open(asked, timeout=ASK_SECONDS) as answer:
                return answer.status, answer.headers.get_content_type(), answer.read(), dict(answer.headers)
        except urllib.error.HTTPError as refusal:
            with refusal:
                return refusal.code, refusal.headers.get_content_type(), refusal.read(), dict(refusal.headers)

    try:
        status, kind, content, got = await asyncio.get_running_loop().run_in_executor(ASKING, ask)
    except (OSError, urllib.error.URLError) as error:
        log.warning("relaying %s %s to %s: %s", request.method, request.url.path, holder.address, error)
        return None
    passed = {name: value for name, value in got.items()
              if name.lower() in ("retry-after", "content-disposition")}
    return Response(content, status, headers=passed, media_type=kind)
