"""Helpers for the server tests: WebSocket clients of a real ``parlour serve`` (``server_process``).

Every wait is bounded and fails with a message saying what was awaited; nothing asserts on time.
"""

from __future__ import annotations

import asyncio
import http.client
import json
from collections.abc import Callable
from typing import Any

from server_process import WAIT, Server
from websockets.asyncio.client import ClientConnection, connect

from parlour.engine import Game, State


def host_port(server: Server) -> tuple[str, int]:
    """The host and port the server listens on, for a socket or ``http.client`` of a test's own."""
    host, port = server.base.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def call(server: Server, method: str, path: str, body: Any = None,
         source: str = "127.0.0.1") -> tuple[int, dict[str, str], Any]:
    """(status, headers, decoded JSON answer) of one request made from the address ``source``
    (any 127.x.y.z reaches the server on Linux: another client address for the per-address limits)."""
    host, port = host_port(server)
    connection = http.client.HTTPConnection(host, port, timeout=WAIT, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        text = answer.read()
        headers = {name.lower(): value for name, value in answer.getheaders()}
    finally:
        connection.close()
    try:
        return answer.status, headers, json.loads(text)
    except ValueError:
        return answer.status, headers, text.decode(errors="replace")


# --- WebSocket clients ------------------------------------------------------------------------------


class Client:
    """One WebSocket to a match, with bounded waits that say what they waited for."""

    def __init__(self, socket: ClientConnection, label: str) -> None:
        self.socket = socket
        self.label = label
        self.seen: list[dict[str, Any]] = []
        self.next_id = 0

    @classmethod
    async def open(cls, url: str, label: str = "client") -> Client:
        # Unbounded queue: a client that stops reading still sees the server go (and closes at once).
        socket = await asyncio.wait_for(
            connect(url, proxy=None, open_timeout=WAIT, close_timeout=2, max_queue=None), WAIT
        )
        return cls(socket, label)

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.socket.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def receive(self, what: str = "a message") -> dict[str, Any]:
        try:
            frame = await asyncio.wait_for(self.socket.recv(), WAIT)
        except TimeoutError:
            raise AssertionError(f"{self.label}: nothing within {WAIT} s while waiting for {what}") from None
        message = json.loads(frame)
        assert isinstance(message, dict), message
        self.seen.append(message)
        return message

    async def expect(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next message of type ``kind`` (with those field values), skipping ``seats`` messages;
        anything else on the way fails the test."""
        what = f"{kind} {fields or ''}".strip()
        while True:
            message = await self.receive(what)
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message
            if message["type"] == "seats":
                continue
            raise AssertionError(f"{self.label}: waiting for {what}, got {message}")

    async def until(self, what: str, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message for which ``wanted`` holds, whatever comes before it."""
        while True:
            message = await self.receive(what)
            if wanted(message):
                return message

    async def seat_connected(self, seat: int, connected: bool) -> dict[str, Any]:
        """The ``seats`` message that shows ``seat`` (dis)connected."""
        return await self.until(
            f"seat {seat} {'connected' if connected else 'disconnected'}",
            lambda m: m["type"] == "seats" and m["seats"][seat]["connected"] is connected,
        )

    async def error(self, code: str) -> dict[str, Any]:
        message = await self.expect("error")
        assert message["code"] == code, f"{self.label}: expected error {code}, got {message}"
        assert message["message"], message
        return message

    async def ping(self) -> None:
        """A ping answered by its pong proves the connection still works (and all before it is read)."""
        self.next_id += 1
        ref = f"{self.label}-ping-{self.next_id}"
        await self.send({"type": "ping", "id": ref})
        await self.expect("pong", id=ref)

    async def hello(self, token: str | None = None, last_version: int | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "hello"}
        if token is None:
            message["spectator"] = True
        else:
            message["token"] = token
        if last_version is not None:
            message["last_version"] = last_version
        await self.send(message)
        return await self.expect("state")

    async def close(self) -> None:
        await self.socket.close()


async def open_client(clients: list[Client], server: Server, match_id: str, label: str) -> Client:
    client = await Client.open(server.match_ws(match_id), label)
    clients.append(client)
    return client


# --- what a seat is sent ----------------------------------------------------------------------------

UPDATE_FIELDS = {"type", "match", "version", "status", "event", "view", "legal", "clock"}
STATE_FIELDS = {"type", "match", "version", "seat", "status", "seats", "view", "legal", "events", "offers",
                "declined", "rematch", "clock", "now", "gone_seconds", "chat"}
ENVELOPE = {"game", "seat", "seats", "options", "to_move", "outcome", "out", "content"}


def replayed(game: Game[State], message: dict[str, Any], seed: int = 0) -> State:
    """The state a ``state`` message's move list reaches from the set-up (a game without hidden
    information: every event's text is the action itself)."""
    view = message["view"]
    state = game.new(len(view["seats"]), view["options"], seed)
    for event in message["events"]:
        state.play_text(event["action"])
    return state


def legal_json(state: State, seat: int | None, status: str) -> list[dict[str, Any]]:
    """What ``legal`` must be: the seat's legal actions as text and parts, only when it is to move."""
    if seat is None or status != "running" or state.to_move() != seat:
        return []
    return [{"text": state.action_to_text(action), "parts": state.action_parts(action)}
            for action in state.legal_actions()]


def check_message(message: dict[str, Any], seat: int | None, state: State) -> None:
    """A ``state`` or ``update`` is built from ``view(seat)`` of ``state`` and its legal actions;
    only a ``state`` holds the move list (and the seats), and no view holds the record or seed."""
    expected = STATE_FIELDS if message["type"] == "state" else UPDATE_FIELDS
    assert set(message) - {"resync"} == expected, sorted(message)
    assert message["version"] == len(state.history)
    assert message["view"] == state.view(seat)
    assert set(message["view"]) == ENVELOPE
    assert message["view"]["seat"] == seat
    assert "record" not in message["view"]["content"]
    assert "seed" not in message["view"]["content"]
    assert message["legal"] == legal_json(state, seat, message["status"])
    if message["type"] == "state":
        assert message["seat"] == seat
        assert [event["version"] for event in message["events"]] == list(range(1, len(state.history) + 1))


# --- waiting for a match to end ---------------------------------------------------------------------


async def until_over(server: Server, match_id: str) -> None:
    """Waits for a match (of bots, playing on) to end, as the server tells a spectator: the
    ``update`` (or ``state``) that says ``over``; no polling."""
    watcher = await Client.open(server.match_ws(match_id), f"watching {match_id} to its end")
    try:
        message = await watcher.hello()
        while message["status"] != "over":
            message = await watcher.until(
                "the match's end", lambda m: m["type"] in ("update", "state") and m["status"] == "over")
    finally:
        await watcher.close()


def wait_until_over(server: Server, match_ids: list[str]) -> None:
    """``until_over`` for each match, from a test or fixture that is not a coroutine."""

    async def every() -> None:
        await asyncio.gather(*(until_over(server, match_id) for match_id in match_ids))

    asyncio.run(every())
