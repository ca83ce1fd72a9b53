"""The Starlette application: the HTTP lobby API, the match WebSocket and the browser's files.

Every answer of the API, errors too, is JSON (``{"error": {"code", "message"}}``): an unknown
``/api`` path, a wrong method, a body over ``body_bytes`` (refused before it is read when its
length is declared, as soon as it passes the limit when it streams), a client over its rate.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path, PurePosixPath
from typing import Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from parlour.games import GAMES
from parlour.server.bots import BotPool
from parlour.server.connection import MOVED_CLOSE, Connection
from parlour.server.leases import Leases
from parlour.server.limits import UNKNOWN_ADDRESS, AddressBuckets, FaultLog, Limits, Rates
from parlour.server.lobby import Elsewhere, Lobby, game_json
from parlour.server.match import ManualTime, Match, ServerTime
from parlour.server.messages import (
    ProtocolError,
    encode,
    error_message,
    json_kind,
    read_name,
)
from parlour.server.pubsub import MemoryPubSub, PubSub
from parlour.server.relay import TRY_AGAIN_CLOSE, moving, relay_request, relay_socket, relayed
from parlour.server.replay import Replays, read_replay_query, read_token_seat
from parlour.server.replica import ClusterPubSub, ReplicaConnection, Replicas, spectator_hello
from parlour.server.storage import Store

log = logging.getLogger("parlour.server")

WEB: Final = Path(__file__).resolve().parent.parent / "web"
"""The browser client's files (the ``parlour/web`` package directory)."""

NO_MATCH_CLOSE: Final = 4404

REFUSAL_PAUSE: Final = 1.0
"""Seconds at most before a ``rate_limited`` answer over HTTP (never longer than its ``Retry-After``)."""
HELLO_CLOSE: Final = 4408
"""The close code for a WebSocket that said neither ``hello`` nor ``join`` within ``hello_seconds``."""
BAD_TEXT_CLOSE: Final = 1007
"""The close code uvicorn sends for a text frame that is not UTF-8 (RFC 6455: invalid payload data)."""

CLIENT_FILES: Final = frozenset({".html", ".css", ".js", ".svg", ".png", ".ico"})
"""The file types of the browser client (as packaged, ``pyproject.toml``): nothing else is served."""


class JSONError(JSONResponse):
    """An error answer in ASCII JSON: its message may quote a client's text, which need not even be
    encodable as UTF-8 (a lone surrogate), and must not turn a clear error into a server fault."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":")).encode("ascii")


def error_response(error: ProtocolError, headers: dict[str, str] | None = None) -> JSONResponse:
    headers = dict(headers or {})
    if error.retry_after is not None:
        headers["Retry-After"] = str(error.retry_after)
    answer: dict[str, Any] = {**error.extra, "error": error.to_json()}
    return JSONError(answer, status_code=error.status, headers=headers)


def too_large(longest: int) -> ProtocolError:
    return ProtocolError("too_large", f"the body is longer than {longest} bytes", 413)


async def read_body(request: Request, longest: int) -> Any:
    """The JSON body of a request, of at most ``longest`` bytes: a declared longer one is refused
    before any of it is read, a streamed one as soon as it passes the limit (never held whole)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > longest:
        raise too_large(longest)
    raw = bytearray()
    async for chunk in request.stream():
        if len(raw) + len(chunk) > longest:
            raise too_large(longest)
        raw += chunk
    if not raw.strip():
        return {}
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ProtocolError("bad_json", f"the body is not UTF-8 (byte {error.start + 1})") from None
    except (ValueError, RecursionError) as error:
        raise ProtocolError("bad_json", f"the body is not valid JSON ({error})") from None


def help_address(game: str) -> str | None:
    """Where a game's rules page is served, if the game has one (an example game may not)."""
    return f"/help/{game}" if (WEB / "help" / f"{game}.html").is_file() else None


def page(path: Path) -> Response:
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return PlainTextResponse(f"This page is not installed ({path.name} is missing from parlour/web).", 404)


async def games(request: Request) -> Response:
    limits: Limits = request.app.state.limits
    board_characters = int(limits.board_characters)
    return JSONResponse({"games": [game_json(game, help_address(name), board_characters)
                                   for name, game in GAMES.items()]})


async def game_start(request: Request) -> Response:
    """The set-up of a game with its default options, as a spectator sees it (for pictures)."""
    name = request.path_params["name"]
    game = GAMES.get(name)
    if game is None:
        return error_response(ProtocolError("unknown_game", f"no game {name[:40]!r}", 404))
    return JSONResponse({"view": game.new().view(None)})


async def lobby_page(request: Request) -> Response:
    return page(WEB / "index.html")


async def match_page(request: Request) -> Response:
    return page(WEB / "match.html")


async def editor_page(request: Request) -> Response:
    """The board editor of a game that has boards people draw (Conflict's maps)."""
    name = request.path_params["game"]
    if name not in GAMES:
        return PlainTextResponse(f"No game called {name[:40]!r}.", 404)
    if GAMES[name].boards is None:
        return PlainTextResponse(f"{GAMES[name].info.title} has one board: there is nothing to draw.", 404)
    return page(WEB / "editor.html")


async def help_page(request: Request) -> Response:
    name = request.path_params["game"]
    if name not in GAMES:
        return PlainTextResponse(f"No game called {name[:40]!r}.", 404)
    if help_address(name) is None:  # an example game may have no rules page: nothing is missing
        return PlainTextResponse(f"{GAMES[name].info.title} has no rules page.", 404)
    return page(WEB / "help" / f"{name}.html")


def client_address(request: HTTPConnection) -> str:
    """The address a request or WebSocket came from (what per-client limits count)."""
    return request.client.host if request.client is not None else UNKNOWN_ADDRESS


async def http_error(request: Request, error: Exception) -> Response:
    """Starlette's 404 and 405 in the API's JSON shape; a missing page stays a line of text."""
    assert isinstance(error, HTTPException)
    path = request.url.path
    if error.status_code == 405:
        allow = (error.headers or {}).get("Allow", "GET, HEAD")
        refused = ProtocolError("method_not_allowed", f"{request.method[:20]} is not allowed on "
                                f"{path[:80]!r} (allowed: {allow})", 405)
        return error_response(refused, {"Allow": allow})
    if error.status_code == 404 and (path == "/api" or path.startswith("/api/")):
        return error_response(ProtocolError("not_found", f"no API address {path[:80]!r} (docs/protocol.md "
                                                         "lists them)", 404))
    return PlainTextResponse(error.detail, error.status_code, headers=error.headers)


async def server_fault(request: Request, error: Exception) -> Response:
    """A fault of the server's own (Starlette logs it after this answer): JSON under ``/api``."""
    if request.url.path.startswith("/api/"):
        return error_response(ProtocolError("internal", "the server failed on that request (logged)", 500))
    return PlainTextResponse("Internal Server Error", 500)


async def client_gone(request: Request, error: Exception) -> Response:
    """A client that went while its body came in, or was cut off by ``body_seconds`` (the transport
    has answered it ``408``): nobody is left to answer, and no fault of the server's to log (left to
    Starlette, each one logged a traceback of ``ClientDisconnect``, past the fault budget)."""
    return Response(status_code=400)


class ClientFiles(StaticFiles):
    """The browser client's files, and only those: ``parlour/web`` is a Python package, whose
    ``__init__.py`` and ``__pycache__`` are not the client's to serve."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        wanted = PurePosixPath(path)
        if wanted.suffix not in CLIENT_FILES or any(part.startswith((".", "__")) for part in wanted.parts):
            raise HTTPException(404)
        return await super().get_response(path, scope)


class QuietClientFaults(logging.Filter):
    """Keeps uvicorn from logging a client's fault at length: a text frame that is not UTF-8
    is logged with a full traceback for every frame (the match socket logs it in one line,
    within the fault budget); a malformed request goes through the budget too."""

    SOCKET_LOGS: Final = "Invalid UTF-8 sequence received from client."
    BUDGETED: Final = frozenset({"Invalid HTTP request received."})

    def __init__(self, faults: FaultLog) -> None:
        super().__init__()
        self.faults = faults

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == self.SOCKET_LOGS:
            return False
        if record.msg in self.BUDGETED:
            record.exc_info = record.exc_text = None
            return self.faults.allowed()
        return True


def join_request(body: Any) -> tuple[int | None, str | None]:
    """The seat asked for (``None``: any free one) and the player's name in a join request's body."""
    if not isinstance(body, dict):
        raise ProtocolError("bad_request", f"the body must be a JSON object, not {json_kind(body)}")
    seat = body.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise ProtocolError("bad_request", f'"seat" must be a seat number, not {json_kind(seat)}')
    return seat, read_name(body.get("name"))


class LobbyHandlers:
    """The handlers that need the lobby: its life with the server's, the match API and the
    match WebSocket."""

    def __init__(
        self, store: Store, lobby: Lobby, pool: BotPool, on_ready: Callable[[], None] | None, limits: Limits,
        faults: FaultLog, replicas: Replicas | None = None,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.replicas = replicas
        """With Redis (``ClusterPubSub``): spectators of matches another process writes are served here."""
        self.relayed_sockets = 0
        """WebSockets relayed to another process since start (for ``/api/health``)."""
        self.pool = pool
        self.on_ready = on_ready
        self.limits = limits
        self.rates = Rates(limits)
        self.faults = faults
        self.replays = Replays(limits, lobby.working)
        self.closing: set[asyncio.Task[None]] = set()
        """Closings of moved connections under way (kept, so that they are not collected unfinished)."""

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        quiet = QuietClientFaults(self.faults)
        uvicorn_log = logging.getLogger("uvicorn.error")
        uvicorn_log.addFilter(quiet)
        await self.lobby.load()
        if self.on_ready is not None:
            self.on_ready()
        try:
            yield
        finally:
            uvicorn_log.removeFilter(quiet)
            if self.replicas is not None:
                await self.replicas.close()
            await self.lobby.close()
            if isinstance(self.lobby.pubsub, ClusterPubSub):
                await self.lobby.pubsub.close()
            self.pool.close()
            await self.store.close()

    async def matches(self, request: Request) -> Response:
        """``/api/matches``: one route for both methods, so a wrong one is told both in ``Allow``."""
        if request.method == "POST":
            return await self.create_match(request)
        return await self.list_matches(request)

    async def spend(self, buckets: AddressBuckets, request: Request) -> None:
        """One of the client's tokens, or ``rate_limited`` after a pause: a client looping on its
        refusals then gets one a second a connection, and refusing it costs the others nothing."""
        try:
            buckets.spend(client_address(request))
        except ProtocolError as error:
            await asyncio.sleep(min(REFUSAL_PAUSE, error.retry_after or 0))
            raise

    async def list_matches(self, request: Request) -> Response:
        try:
            await self.spend(self.rates.list, request)
            return JSONResponse(await self.lobby.page(request.query_params.multi_items()))
        except ProtocolError as error:
            return error_response(error)

    async def create_match(self, request: Request) -> Response:
        try:
            await self.spend(self.rates.create, request)
            body = await read_body(request, int(self.limits.body_bytes))
            match, seat, token = await self.lobby.create(body, client_address(request))
        except ProtocolError as error:
            return error_response(error)
        answer: dict[str, Any] = {"match": match.summary()}
        if token is not None:
            answer |= {"seat": seat, "token": token}
        return JSONResponse(answer, status_code=201)

    # --- the library of boards (parlour/server/boards.py) ---

    async def boards(self, request: Request) -> Response:
        """``/api/games/{game}/boards``: the list (GET), or a board saved (POST)."""
        if request.method == "POST":
            return await self.save_board(request)
        try:
            await self.spend(self.rates.board_checks, request)
            library = self.lobby.library
            return JSONResponse(await library.page(request.path_params["game"], request.query_params))
        except ProtocolError as error:
            return error_response(error)

    async def show_board(self, request: Request) -> Response:
        try:
            await self.spend(self.rates.board_checks, request)
            params = request.path_params
            return JSONResponse(await self.lobby.library.show(params["game"], params["name"]))
        except ProtocolError as error:
            return error_response(error)

    async def check_board(self, request: Request) -> Response:
        try:
            await self.spend(self.rates.board_checks, request)
            body = await read_body(request, int(self.limits.body_bytes))
            return JSONResponse(await self.lobby.library.check(request.path_params["game"], body))
        except ProtocolError as error:
            return error_response(error)

    async def save_board(self, request: Request) -> Response:
        try:
            await self.spend(self.rates.board_saves, request)
            body = await read_body(request, int(self.limits.body_bytes))
            saved = await self.lobby.library.save(request.path_params["game"], body, client_address(request))
        except ProtocolError as error:
            return error_response(error)
        return JSONResponse(saved, status_code=201)

    async def health(self, request: Request) -> Response:
        """``GET /api/health``: the process answers (HAProxy's check), which node it is, and how many
        WebSockets it relayed to other processes and served from replicas (spectators) since start."""
        answer: dict[str, Any] = {"ok": True, "node": self.lobby.leases.me.id,
                                  "relayed": self.relayed_sockets}
        if self.replicas is not None:
            answer["replicas"] = {"held": len(self.replicas.held), "served": self.replicas.served}
        return JSONResponse(answer)

    async def find(self, request: Request, body: Any = None) -> Match | Response:
        """The match the request's path names (``lobby.get``: ``ProtocolError`` if it cannot be had).
        When another process of the cluster writes it, that process's answer to the request
        (``parlour.server.relay``), or the match taken over here when that process is gone for sure."""
        match_id = request.path_params["id"]
        try:
            return await self.lobby.get(match_id)
        except Elsewhere as elsewhere:
            if relayed(request):  # never relayed twice
                return error_response(moving(match_id), {"Retry-After": "1"})
            sent = None if body is None else json.dumps(body).encode()
            answer = await relay_request(request, elsewhere.holder, client_address(request), sent)
            if answer is not None:
                return answer
            if not await self.lobby.forget_if_gone(elsewhere.holder):
                return error_response(moving(match_id), {"Retry-After": "1"})
        try:
            return await self.lobby.get(match_id)
        except Elsewhere:  # another process was quicker to take it over
            return error_response(moving(match_id), {"Retry-After": "1"})

    async def show_match(self, request: Request) -> Response:
        try:
            found = await self.find(request)
        except ProtocolError as error:
            return error_response(error)
        return found if isinstance(found, Response) else JSONResponse({"match": found.summary()})

    def charge(self, buckets: AddressBuckets, request: Request) -> Callable[[int], None]:
        """Charges the client so many of its tokens (the work a request will do), or refuses."""
        address = client_address(request)
        return lambda amount: buckets.spend(address, amount)

    async def refused(self, error: ProtocolError) -> Response:
        """The answer to ``error``, after the pause of ``spend`` when it is ``rate_limited``."""
        if error.code == "rate_limited":
            await asyncio.sleep(min(REFUSAL_PAUSE, error.retry_after or 0))
        return error_response(error)

    async def match_record(self, request: Request) -> Response:
        """``GET /api/matches/{id}/record``: a finished match's record, as a file to download,
        charged by the positions its replay works out (1 if the match is in memory)."""
        try:
            match = await self.find(request)
            if isinstance(match, Response):
                return match
            record = await self.replays.record(match, self.charge(self.rates.replay, request))
        except ProtocolError as error:
            return await self.refused(error)
        name = f"parlour-{match.info.name}-{match.id}.json"
        return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def match_replay(self, request: Request) -> Response:
        """``GET /api/matches/{id}/replay``: a page of the match's positions, step by step,
        charged by the positions it works out."""
        try:
            match = await self.find(request)
            if isinstance(match, Response):
                return match
            asked = read_replay_query(request.query_params, match)
            page = await self.replays.page(match, asked, self.charge(self.rates.replay, request))
            # orjson: a page of 50 open views of a card game is some 400 KB of JSON.
            return Response(encode(page), media_type="application/json")
        except ProtocolError as error:
            return await self.refused(error)

    async def match_chat(self, request: Request) -> Response:
        """``GET /api/matches/{id}/chat``: what was said at the table, as the caller may see it."""
        try:
            await self.spend(self.rates.chat_list, request)
            match = await self.find(request)
            if isinstance(match, Response):
                return match
            seat = read_token_seat(request.query_params.get("token", ""), match)
            return JSONResponse({"chat": await match.chat.listed(seat, match.status == "over")})
        except ProtocolError as error:
            return error_response(error)

    async def join_match(self, request: Request) -> Response:
        try:
            await self.spend(self.rates.join, request)
            body = await read_body(request, int(self.limits.body_bytes))
            match = await self.find(request, body)
            if isinstance(match, Response):
                return match
            seat, name = join_request(body)
            seat, token = await match.claim(seat, name)
        except ProtocolError as error:
            return error_response(error)
        summary = match.summary()
        return JSONResponse({"match": summary, "seat": seat, "token": token, "ws": summary["ws"]})

    async def match_socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        address = client_address(websocket)
        first: list[str | bytes] = []
        """Frames read before the match's connection is made (to choose where to serve the client)."""
        try:
            match = await self.lobby.get(websocket.path_params["id"])
        except ProtocolError as error:
            await websocket.send_text(encode(error_message(error)))
            await websocket.close(TRY_AGAIN_CLOSE if error.code == "unavailable" else NO_MATCH_CLOSE)
            return
        except Elsewhere as elsewhere:
            found, first = await self.elsewhere(websocket, elsewhere)
            if found is None:
                return
            match = found
        connection = Connection(match, websocket.send_text, address, self.limits, self.rates.join,
                                self.rates.create, self.rates.chat, self.rates.replay)
        sender = asyncio.create_task(connection.send_all())
        sender.add_done_callback(lambda _: self._moved(websocket, connection))
        try:
            ending = None
            for frame in first:  # read here to choose where to serve the client: answered first
                ending = ending or await connection.receive(*frame_parts(frame))
            ending = ending or await self.converse(websocket, connection, sender)
            if connection.moved:
                await self._close_moved(websocket)
            elif ending is not None:
                code, reason = ending
                if code != BAD_TEXT_CLOSE:  # uvicorn has closed that one itself
                    await websocket.close(code, reason)
                self.faults.warning("client %s on match %s: closed with %d: %s",
                                    address, match.id, code, reason)
        finally:
            await connection.close()
            with contextlib.suppress(Exception):
                await sender

    async def elsewhere(
        self, websocket: WebSocket, elsewhere: Elsewhere,
    ) -> tuple[Match | None, list[str | bytes]]:
        """A WebSocket for a match another process writes. With Redis, its first frame is read: a
        spectator is served here from a replica (``parlour.server.replica``) until it leaves, or until
        it joins or chats, which passes it on to the writer with those frames. Anyone else is relayed
        to the writer with the frames read (``reach``). The match and the frames still to answer when
        it is served here after all (its writer is gone), else ``None``."""
        first: list[str | bytes] = []
        if self.replicas is not None and not relayed(websocket):
            frame = await self.first_frame(websocket)
            if frame is None:
                return None, []
            first = [frame]
            if spectator_hello(frame):
                passed = await self.watch_replica(websocket, elsewhere.match_id, frame)
                if passed is None:
                    return None, []
                first = passed
        return await self.reach(websocket, elsewhere, first), first

    async def first_frame(self, websocket: WebSocket) -> str | bytes | None:
        """The client's first frame; ``None`` when it left, or said nothing within ``hello_seconds``
        (then it is closed, as a connection that never says hello is)."""
        try:
            frame = await asyncio.wait_for(websocket.receive(), self.limits.hello_seconds)
        except TimeoutError:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await websocket.close(HELLO_CLOSE,
                                      f"say hello or join within {self.limits.hello_seconds:g} s")
            return None
        if frame["type"] == "websocket.disconnect":
            return None
        text = frame.get("text")
        return text if text is not None else frame.get("bytes") or b""

    async def watch_replica(
        self, websocket: WebSocket, match_id: str, hello: str | bytes,
    ) -> list[str | bytes] | None:
        """Serves a spectator from this process's replica of ``match_id``; ``None`` once it is gone,
        else the frames to pass on to the writer (it joins or chats; or no replica could be made)."""
        assert self.replicas is not None
        try:
            replica = await self.replicas.watch(match_id)
        except ProtocolError as error:
            log.warning("match %s: no replica for a spectator (%s); relayed to its writer", match_id, error)
            return [hello]
        except Exception:  # a match this process cannot copy: its writer serves the spectator
            log.exception("match %s: no replica for a spectator; relayed to its writer", match_id)
            return [hello]
        connection = ReplicaConnection(replica, websocket.send_text, client_address(websocket), self.limits,
                                       self.rates.join, self.rates.create, self.rates.chat, self.rates.replay)
        sender = asyncio.create_task(connection.send_all())
        try:
            ending = await connection.receive(*frame_parts(hello))
            ending = ending or await self.converse(websocket, connection, sender)
            if connection.pass_on is None and ending is not None:
                code, reason = ending
                if code != BAD_TEXT_CLOSE:
                    await websocket.close(code, reason)
        finally:
            await connection.close()
            with contextlib.suppress(Exception):
                await sender  # what the replica had queued goes out before the writer speaks
            await self.replicas.release(replica)
        return connection.pass_on

    async def reach(
        self, websocket: WebSocket, elsewhere: Elsewhere, first: list[str | bytes],
    ) -> Match | None:
        """A WebSocket for a match another process writes: relayed there to its end (``None``),
        ``first`` sent there before the client's next frames, or, when that process is gone for sure,
        the match taken over here."""
        if not relayed(websocket):  # a relayed one is never relayed again
            most = 4 * int(self.limits.body_bytes)
            taken = self.lobby.taken_here(elsewhere.match_id)
            try:
                self.relayed_sockets += 1
                client = client_address(websocket)
                if await relay_socket(websocket, elsewhere.holder, client, most, taken, first):
                    return None
            finally:
                self.lobby.relay_ended(elsewhere.match_id, taken)
            if await self.lobby.forget_if_gone(elsewhere.holder):
                with contextlib.suppress(ProtocolError, Elsewhere):
                    return await self.lobby.get(elsewhere.match_id)
        await websocket.send_text(encode(error_message(moving(elsewhere.match_id))))
        await websocket.close(TRY_AGAIN_CLOSE)
        return None

    def _moved(self, websocket: WebSocket, connection: Connection) -> None:
        """The connection's sender stopped: when its match moved to another process, the client
        is closed at once (it may be waiting for the match, sending nothing), and reconnects."""
        if connection.moved:
            task = asyncio.create_task(self._close_moved(websocket))
            self.closing.add(task)
            task.add_done_callback(self.closing.discard)

    async def _close_moved(self, websocket: WebSocket) -> None:
        """Closes a connection whose match moved with ``MOVED_CLOSE``, once (from the sender's end
        or from the conversation's, whichever comes first)."""
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
                await websocket.close(MOVED_CLOSE, "the match moved to another server process: reconnect")

    async def converse(
        self, websocket: WebSocket, connection: Connection, sender: asyncio.Task[None],
    ) -> tuple[int, str] | None:
        """Hands the client's frames to its connection until either side goes; the close code and
        reason when the client is to be (or was) closed for its conduct."""
        deadline = asyncio.get_running_loop().time() + self.limits.hello_seconds
        while websocket.client_state == WebSocketState.CONNECTED and not sender.done():
            if connection.greeted:
                frame = await websocket.receive()
            else:  # a socket that never says who it is holds a connection for nothing
                try:
                    remaining = deadline - asyncio.get_running_loop().time()
                    frame = await asyncio.wait_for(websocket.receive(), max(0.0, remaining))
                except TimeoutError:
                    return HELLO_CLOSE, f"say hello or join within {self.limits.hello_seconds:g} s"
            if frame["type"] == "websocket.disconnect":
                if frame.get("code") == BAD_TEXT_CLOSE:
                    return BAD_TEXT_CLOSE, "a text frame that is not UTF-8"
                return None
            ending = await connection.receive(frame.get("text"), frame.get("bytes"))
            if ending is not None:
                return ending
        return None


def frame_parts(frame: str | bytes) -> tuple[str | None, bytes | None]:
    """A frame as ``Connection.receive`` takes it: its text, or its bytes."""
    return (frame, None) if isinstance(frame, str) else (None, frame)


def read_advance(body: Any) -> tuple[float, bool]:
    """The seconds of a ``POST /api/test/clock`` body (``{"advance": SECONDS}``), and whether the
    timers then due run (``"timers": false`` holds them, as a busy event loop would)."""
    seconds = body.get("advance") if isinstance(body, dict) else None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds <= 10**7:
        raise ProtocolError("bad_request", '{"advance": SECONDS}: a number of seconds from 0 to 10000000')
    timers = body.get("timers", True)
    if not isinstance(timers, bool):
        raise ProtocolError("bad_request", '"timers" is true (the default) or false')
    return float(seconds), timers


def test_clock_route(server_time: ManualTime, limits: Limits) -> Route:
    """``POST /api/test/clock``: moves the manual clock on and answers once what ran out is stored
    (only under ``parlour serve --test-clock``; without it the address does not exist)."""

    async def advance(request: Request) -> Response:
        try:
            seconds, timers = read_advance(await read_body(request, int(limits.body_bytes)))
        except ProtocolError as error:
            return error_response(error)
        await server_time.advance(seconds, timers)
        return JSONResponse({"now": server_time.now()})

    return Route("/api/test/clock", advance, methods=["POST"])


def build_app(
    store: Store,
    pubsub: PubSub | None = None,
    bots: BotPool | None = None,
    on_ready: Callable[[], None] | None = None,
    limits: Limits | None = None,
    faults: FaultLog | None = None,
    server_time: ServerTime | None = None,
    leases: Leases | None = None,
) -> Starlette:
    """The server's application over ``store``; ``on_ready`` runs once every match is resumed.
    ``faults``: the budget of log lines about clients' faults, shared with the transport's
    (``parlour serve`` passes the one it gives ``transport.protocols``); a new one if ``None``.
    ``server_time``: the time every match reads; a ``ManualTime`` adds ``POST /api/test/clock``.
    ``leases``: which process writes which match, in a cluster (``parlour.server.leases``)."""
    pool = bots or BotPool()
    limits = limits or Limits()
    faults = faults or FaultLog(log, limits.client_fault_logs_per_minute)
    lobby = Lobby(store, pubsub or MemoryPubSub(), pool, limits, server_time, leases)
    replicas = None
    if isinstance(pubsub, ClusterPubSub):  # with Redis: replicas for spectators, fed by the writers
        pubsub.writing = lambda match_id: lobby.matches.get(match_id) or lobby.finished.get(match_id)
        replicas = Replicas(store, pubsub, pool, limits, lobby.time, lobby.working)
    handlers = LobbyHandlers(store, lobby, pool, on_ready, limits, faults, replicas)
    routes = [
        Route("/api/health", handlers.health, methods=["GET"]),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/games/{name}/start", game_start, methods=["GET"]),
        Route("/api/games/{game}/boards", handlers.boards, methods=["GET", "POST"]),
        Route("/api/games/{game}/boards/check", handlers.check_board, methods=["POST"]),
        Route("/api/games/{game}/boards/{name}", handlers.show_board, methods=["GET"]),
        Route("/api/matches", handlers.matches, methods=["GET", "POST"]),
        Route("/api/matches/{id}", handlers.show_match, methods=["GET"]),
        Route("/api/matches/{id}/join", handlers.join_match, methods=["POST"]),
        Route("/api/matches/{id}/record", handlers.match_record, methods=["GET"]),
        Route("/api/matches/{id}/replay", handlers.match_replay, methods=["GET"]),
        Route("/api/matches/{id}/chat", handlers.match_chat, methods=["GET"]),
        WebSocketRoute("/ws/matches/{id}", handlers.match_socket),
        Route("/", lobby_page),
        Route("/match/{id}", match_page),
        Route("/help/{game}", help_page),
        Route("/games/{game}/editor", editor_page),
        Mount("/static", ClientFiles(directory=WEB, check_dir=False), name="static"),
    ]
    if isinstance(server_time, ManualTime):
        routes.insert(0, test_clock_route(server_time, limits))
    app = Starlette(routes=routes, lifespan=handlers.lifespan,
                    exception_handlers={404: http_error, 405: http_error, ClientDisconnect: client_gone,
                                        Exception: server_fault})
    app.state.lobby = lobby
    app.state.limits = limits
    return app
