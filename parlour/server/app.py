"""The Starlette application: the HTTP lobby API, the match WebSocket and the browser's files."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketState

from parlour.games import GAMES
from parlour.server.bots import BotPool
from parlour.server.connection import Connection
from parlour.server.limits import Limits
from parlour.server.lobby import Lobby, game_json
from parlour.server.messages import MAX_MESSAGE, ProtocolError, encode, error_message, json_kind, read_name
from parlour.server.pubsub import MemoryPubSub, PubSub
from parlour.server.storage import Store

log = logging.getLogger("parlour.server")

WEB: Final = Path(__file__).resolve().parent.parent / "web"
"""The browser client's files (the ``parlour/web`` package directory)."""

NO_MATCH_CLOSE: Final = 4404


def error_response(error: ProtocolError) -> JSONResponse:
    return JSONResponse({"error": error.to_json()}, status_code=error.status)


async def read_body(request: Request) -> Any:
    raw = b""
    async for chunk in request.stream():  # read no further than the limit: a huge body is never held
        raw += chunk
        if len(raw) > MAX_MESSAGE:
            raise ProtocolError("bad_request", f"the body is longer than {MAX_MESSAGE} bytes")
    if not raw.strip():
        return {}
    try:
        return json.loads(raw.decode("utf-8"))
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
    return JSONResponse({"games": [game_json(game, help_address(name)) for name, game in GAMES.items()]})


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


async def help_page(request: Request) -> Response:
    name = request.path_params["game"]
    if name not in GAMES:
        return PlainTextResponse(f"No game called {name[:40]!r}.", 404)
    if help_address(name) is None:  # an example game may have no rules page: nothing is missing
        return PlainTextResponse(f"{GAMES[name].info.title} has no rules page.", 404)
    return page(WEB / "help" / f"{name}.html")


def client_address(request: Request) -> str:
    """The address a request came from (what per-client limits count)."""
    return request.client.host if request.client is not None else "unknown"


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
        self, store: Store, lobby: Lobby, pool: BotPool, on_ready: Callable[[], None] | None,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.pool = pool
        self.on_ready = on_ready

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        await self.lobby.load()
        if self.on_ready is not None:
            self.on_ready()
        try:
            yield
        finally:
            await self.lobby.close()
            self.pool.close()
            await self.store.close()

    async def list_matches(self, request: Request) -> Response:
        try:
            return JSONResponse(await self.lobby.page(request.query_params.multi_items()))
        except ProtocolError as error:
            return error_response(error)

    async def create_match(self, request: Request) -> Response:
        try:
            match, seat, token = await self.lobby.create(await read_body(request), client_address(request))
        except ProtocolError as error:
            return error_response(error)
        answer: dict[str, Any] = {"match": match.summary()}
        if token is not None:
            answer |= {"seat": seat, "token": token}
        return JSONResponse(answer, status_code=201)

    async def show_match(self, request: Request) -> Response:
        try:
            return JSONResponse({"match": (await self.lobby.get(request.path_params["id"])).summary()})
        except ProtocolError as error:
            return error_response(error)

    async def join_match(self, request: Request) -> Response:
        try:
            match = await self.lobby.get(request.path_params["id"])
            seat, name = join_request(await read_body(request))
            seat, token = await match.claim(seat, name)
        except ProtocolError as error:
            return error_response(error)
        summary = match.summary()
        return JSONResponse({"match": summary, "seat": seat, "token": token, "ws": summary["ws"]})

    async def match_socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            match = await self.lobby.get(websocket.path_params["id"])
        except ProtocolError as error:
            await websocket.send_text(encode(error_message(error)))
            await websocket.close(NO_MATCH_CLOSE)
            return
        connection = Connection(match, websocket.send_text)
        sender = asyncio.create_task(connection.send_all())
        try:
            while websocket.client_state == WebSocketState.CONNECTED and not sender.done():
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                await connection.receive(frame.get("text"), frame.get("bytes"))
        finally:
            await connection.close()
            with contextlib.suppress(Exception):
                await sender


def build_app(
    store: Store,
    pubsub: PubSub | None = None,
    bots: BotPool | None = None,
    on_ready: Callable[[], None] | None = None,
    limits: Limits | None = None,
) -> Starlette:
    """The server's application over ``store``; ``on_ready`` runs once every match is resumed."""
    pool = bots or BotPool()
    limits = limits or Limits()
    lobby = Lobby(store, pubsub or MemoryPubSub(), pool, limits)
    handlers = LobbyHandlers(store, lobby, pool, on_ready)
    routes = [
        Route("/api/games", games, methods=["GET"]),
        Route("/api/games/{name}/start", game_start, methods=["GET"]),
        Route("/api/matches", handlers.list_matches, methods=["GET"]),
        Route("/api/matches", handlers.create_match, methods=["POST"]),
        Route("/api/matches/{id}", handlers.show_match, methods=["GET"]),
        Route("/api/matches/{id}/join", handlers.join_match, methods=["POST"]),
        WebSocketRoute("/ws/matches/{id}", handlers.match_socket),
        Route("/", lobby_page),
        Route("/match/{id}", match_page),
        Route("/help/{game}", help_page),
        Mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=handlers.lifespan)
    app.state.lobby = lobby
    app.state.limits = limits
    return app
