"""The server's TCP side (issue 13: "no header time-out", "a cap on connections per address"):
requests whose head or body never ends are answered 408 and closed, idle connections are closed,
one address holds at most ``connections_per_address`` connections, HTTP and WebSocket alike,
while other clients play on, and the server may open as many files as the system lets it.

The holders of many connections come from 127.0.0.2 (all of 127/8 reaches this machine), so the
client who plays on, from 127.0.0.1, has a count of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import resource
import selectors
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, host_port, open_client
from server_process import ROOT, START_SECONDS, WAIT, Server, Storage, read_line
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from parlour.games import get_game
from parlour.server.process import READY
from parlour.server.transport import ConnectionCount

ASYNC = pytest.mark.asyncio(loop_scope="session")
HOLDER = "127.0.0.2"
LOA = get_game("loa")


def error_of(answer: bytes) -> tuple[int, dict[str, Any]]:
    """(status, the JSON error) of a whole HTTP answer read off a socket."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body)["error"]


def read_to_end(sockets: list[socket.socket], seconds: float) -> tuple[dict[socket.socket, bytes], int]:
    """What each socket received until the server closed it, and how many were still open after
    ``seconds`` (a bound: they are expected to close well before)."""
    received = {sock: b"" for sock in sockets}
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as waiting:  # not select(): descriptors may pass 1024
        for sock in sockets:
            waiting.register(sock, selectors.EVENT_READ)
        while waiting.get_map() and time.monotonic() < deadline:
            for key, _ in waiting.select(max(0.0, deadline - time.monotonic())):
                ready = key.fileobj
                assert isinstance(ready, socket.socket)
                try:
                    chunk = ready.recv(65536)
                except ConnectionResetError:
                    chunk = b""
                received[ready] += chunk
                if not chunk:
                    waiting.unregister(ready)
        return received, len(waiting.get_map())


GET = b"GET /api/games HTTP/1.1\r\nHost: parlour\r\n\r\n"


def answered(sock: socket.socket) -> bytes:
    """One whole answer to ``GET`` on a kept-alive connection (its length is in its head)."""
    data = b""
    deadline = time.monotonic() + WAIT
    while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < content_length(data):
        assert time.monotonic() < deadline, f"no whole answer within {WAIT} s: {data[:200]!r}"
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection instead of answering: {data[:200]!r}"
        data += chunk
    return data


def content_length(data: bytes) -> int:
    for line in data.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


UNFINISHED = [
    b"GET /api/ga",  # half a request line
    b"GET /api/games HTTP/1.1\r\nHost: parl",  # half the headers
    b"",  # nothing at all
    b"POST /api/matches HTTP/1.1\r\nHost: parlour\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100\r\n\r\n{\"game\": ",  # half a body
    b"POST /api/matches HTTP/1.1\r\nHost: parlour\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n5\r\n{\"gam\r\n",  # a chunked body with no last chunk
]


def test_unfinished_requests_are_answered_408_and_closed(storage: Storage, tmp_path: Path) -> None:
    """300 connections with a request that never ends (half a request line, half the headers,
    nothing at all, half a body, a chunked body with no end; a tenth of them after a whole first
    request): each gets a 408 ``request_timeout`` and is closed, while other requests are answered.
    (On the old server they all stayed open.)"""
    limits = {"header_seconds": 1, "body_seconds": 1, "keep_alive_seconds": 600,
              "connections_per_address": 1000}
    server = storage.server(tmp_path, limits=limits).start()
    sockets: list[socket.socket] = []
    try:
        address = host_port(server)
        for number in range(300):
            sock = socket.create_connection(address, timeout=WAIT)
            if number % 10 == 0:  # on a kept-alive connection, after a whole first request
                sock.sendall(GET)
                assert b" 200 " in answered(sock).split(b"\r\n")[0]
            start = UNFINISHED[number % len(UNFINISHED)]
            if start:
                sock.sendall(start)
            sockets.append(sock)
        assert server.call("GET", "/api/games")[0] == 200, "a whole request is answered meanwhile"

        received, still_open = read_to_end(sockets, 1 + WAIT)
        assert still_open == 0, f"{still_open} of 300 connections with unfinished requests still open"
        for data in received.values():
            status, error = error_of(data)
            assert status == 408, data[-300:]
            assert error["code"] == "request_timeout", data[-300:]
            assert error["message"]
        assert server.call("GET", "/api/games")[0] == 200
        # A body cut off is the client's doing: no traceback (the app saw its ClientDisconnect).
        assert "Traceback" not in server.log.read_text(), server.log_text()
    finally:
        for sock in sockets:
            sock.close()
        server.stop()


def test_an_idle_connection_is_closed_after_the_keep_alive_time(storage: Storage, tmp_path: Path) -> None:
    """A connection idle after a whole request is closed (without an answer: nothing was asked)."""
    server = storage.server(tmp_path, limits={"keep_alive_seconds": 1, "header_seconds": 600}).start()
    try:
        sock = socket.create_connection(host_port(server), timeout=WAIT)
        sock.sendall(GET)
        assert b" 200 " in answered(sock).split(b"\r\n")[0]
        received, still_open = read_to_end([sock], 1 + WAIT)
        assert still_open == 0, "an idle kept-alive connection was not closed"
        assert received[sock] == b""
        sock.close()
    finally:
        server.stop()


# --- connections per address -----------------------------------------------------------------------

CAP = 8


def keep_alive(server: Server) -> http.client.HTTPConnection:
    """An HTTP connection from the holder's address, kept open after one answered request."""
    host, port = host_port(server)
    connection = http.client.HTTPConnection(host, port, timeout=WAIT, source_address=(HOLDER, 0))
    connection.request("GET", "/api/games")
    answer = connection.getresponse()
    assert answer.status == 200, answer.status
    answer.read()
    return connection


def refused_http(server: Server) -> dict[str, Any]:
    """The error a further HTTP connection from the holder's address gets (it must get one)."""
    host, port = host_port(server)
    connection = http.client.HTTPConnection(host, port, timeout=WAIT, source_address=(HOLDER, 0))
    try:
        connection.request("GET", "/api/games")
        answer = connection.getresponse()
        body = answer.read()
    finally:
        connection.close()
    assert answer.status == 429, f"one connection over the cap got {answer.status}: {body[:200]!r}"
    assert answer.getheader("content-type") == "application/json"
    error: dict[str, Any] = json.loads(body)["error"]
    return error


async def websocket(server: Server, match_id: str) -> ClientConnection:
    """A spectator's WebSocket from the holder's address, past its hello."""
    sock = await asyncio.wait_for(connect(server.match_ws(match_id), proxy=None, open_timeout=WAIT,
                                          close_timeout=2, local_addr=(HOLDER, 0)), WAIT)
    await sock.send(json.dumps({"type": "hello", "spectator": True}))
    answer = json.loads(await asyncio.wait_for(sock.recv(), WAIT))
    assert answer["type"] == "state", answer
    return sock


def failed_upgrade(server: Server, path: str) -> bytes:
    """What a WebSocket upgrade without its key gets from the holder's address, read to the close."""
    sock = socket.create_connection(host_port(server), timeout=WAIT, source_address=(HOLDER, 0))
    with sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: parlour\r\nConnection: Upgrade\r\n"
                     "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        received, still_open = read_to_end([sock], WAIT)
    assert still_open == 0, "the server kept a failed upgrade open"
    return received[sock]


async def closed_by_server(server: Server, path: str) -> None:
    """A WebSocket from the holder's address that the app accepts and then closes (no such match)."""
    sock = await asyncio.wait_for(connect(server.ws_base + path, proxy=None, open_timeout=WAIT,
                                          close_timeout=2, local_addr=(HOLDER, 0)), WAIT)
    await asyncio.wait_for(sock.wait_closed(), WAIT)
    assert sock.close_code is not None


async def answers_ping(sock: ClientConnection) -> None:
    """The spectator's socket still works: its ping is answered (after the updates it was sent)."""
    await sock.send(json.dumps({"type": "ping", "id": "still there?"}))
    while True:
        answer = json.loads(await asyncio.wait_for(sock.recv(), WAIT))
        if answer["type"] != "update":
            break
    assert answer == {"type": "pong", "id": "still there?"}, answer


async def refused_websocket(server: Server, match_id: str) -> None:
    with pytest.raises(InvalidStatus) as refused:
        await websocket(server, match_id)
    response = refused.value.response
    assert response.status_code == 429, response.status_code
    assert json.loads(response.body)["error"]["code"] == "too_many_connections"


async def admitted_again(server: Server, match_id: str) -> ClientConnection:
    """A WebSocket once a closed connection's place is given back (the server sees the close a
    moment after the client: retried within a bound)."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            return await websocket(server, match_id)
        except InvalidStatus as refused:
            status = refused.response.status_code
        assert status == 429, f"a WebSocket from {HOLDER} got {status}"
        assert time.monotonic() < deadline, f"closed connections' places not given back within {WAIT} s"
        await asyncio.sleep(0.05)


class Game:
    """A Lines of Action match between two clients from 127.0.0.1, one move at a time."""

    def __init__(self, server: Server, clients: list[Client]) -> None:
        self.server = server
        self.clients = clients
        self.state = LOA.new(options={"move_limit": 0})
        self.players: list[Client] = []

    async def start(self) -> str:
        created = self.server.create(game="loa", seats=["open", "open"], join=0, name="Ann")
        match_id: str = created["match"]["id"]
        other = self.server.join(match_id, name="Bob")
        for seat, token in enumerate((created["token"], other["token"])):
            client = await open_client(self.clients, self.server, match_id, f"player {seat}")
            await client.hello(token)
            self.players.append(client)
        return match_id

    async def move(self) -> None:
        mover = self.state.to_move()
        text = self.state.action_to_text(self.state.legal_actions()[0])
        version = len(self.state.history)
        await self.players[mover].send({"type": "action", "text": text, "version": version})
        self.state.play_text(text)
        for player in self.players:
            update = await player.expect("update")
            assert update["event"]["action"] == text


@ASYNC
async def test_one_address_holds_at_most_its_connections_while_others_play_on(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    limits = {"connections_per_address": CAP, "keep_alive_seconds": 600, "header_seconds": 1,
              "body_seconds": 1, "hello_seconds": 600}
    server = storage.server(tmp_path, limits=limits).start()
    held_http: list[http.client.HTTPConnection] = []
    held_ws: list[ClientConnection] = []
    try:
        game = Game(server, clients)
        match_id = await game.start()
        await game.move()

        held_http += [keep_alive(server) for _ in range(CAP // 2)]
        held_ws += [await websocket(server, match_id) for _ in range(CAP - CAP // 2)]
        error = refused_http(server)
        assert error["code"] == "too_many_connections", error
        assert error["message"], error
        await refused_websocket(server, match_id)
        await game.move()  # another address is not held back

        # A request's deadlines (1 s here) end at the upgrade: WebSockets live on past them.
        await asyncio.sleep(2)
        for sock in held_ws:
            await answers_ping(sock)
        await game.move()

        # Closing gives places back, HTTP and WebSocket alike.
        held_http.pop().close()
        await held_ws.pop().close()
        held_ws.append(await admitted_again(server, match_id))
        held_ws.append(await admitted_again(server, match_id))
        await refused_websocket(server, match_id)
        await game.move()

        # Many WebSockets opened and closed leave nothing counted: the cap admits its full number again.
        for connection in held_http:
            connection.close()
        for sock in held_ws:
            await sock.close()
        held_http.clear()
        held_ws.clear()
        for _ in range(3 * CAP):
            await (await admitted_again(server, match_id)).close()
        for _ in range(2 * CAP):  # and so do upgrades refused by the WebSocket layer or by the app
            assert failed_upgrade(server, "/ws/matches/" + match_id).startswith(b"HTTP/1.1 400 ")
            await closed_by_server(server, "/ws/matches/no-such-match")
        for _ in range(CAP):
            held_ws.append(await admitted_again(server, match_id))
        await refused_websocket(server, match_id)
        assert refused_http(server)["code"] == "too_many_connections"
        await game.move()
    finally:
        for connection in held_http:
            connection.close()
        for sock in held_ws:
            with contextlib.suppress(Exception):
                await sock.close()
        server.stop()


# --- the count itself --------------------------------------------------------------------------------


@ASYNC
async def test_the_count_is_per_address_given_back_once_and_forgets_idle_addresses() -> None:
    """Real transports from two addresses: each address has its own count; a transport gives its
    place back once however often it is released; an address with nothing open leaves the table."""
    loop = asyncio.get_running_loop()
    accepted: list[asyncio.BaseTransport] = []  # the server's side of each connection: peer = the client

    class Accepting(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted.append(transport)

    listener = await loop.create_server(Accepting, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    dialled: list[asyncio.BaseTransport] = []
    try:
        for source in ["127.0.0.1"] * 3 + [HOLDER] * 2:
            client, _ = await loop.create_connection(asyncio.Protocol, "127.0.0.1", port,
                                                     local_addr=(source, 0))
            dialled.append(client)
        for _ in range(int(WAIT / 0.01)):
            if len(accepted) == len(dialled):
                break
            await asyncio.sleep(0.01)
        assert len(accepted) == len(dialled), f"{len(accepted)} of {len(dialled)} connections accepted"
        transports = sorted(accepted, key=lambda transport: transport.get_extra_info("peername")[0])
        count = ConnectionCount(2)
        assert [count.admit(transport) for transport in transports] == [True, True, False, True, True]
        assert count.by_address == {"127.0.0.1": 2, HOLDER: 2}
        count.release(transports[0])
        count.release(transports[0])
        count.release(transports[2])  # never counted: gives nothing back
        assert count.by_address == {"127.0.0.1": 1, HOLDER: 2}
        assert count.admit(transports[2])
        assert not count.admit(transports[0])
        for transport in transports:
            count.release(transport)
        assert count.by_address == {}
        assert len(count) == 0
    finally:
        for transport in dialled + accepted:
            transport.close()
        listener.close()


# --- open files -----------------------------------------------------------------------------------


def open_files_soft_limit(pid: int) -> str:
    """The soft limit on open files of a running process, as ``/proc`` shows it."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return line.split()[3]
    raise AssertionError(f"no open-files line in /proc/{pid}/limits")


def test_the_server_raises_its_open_files_limit_to_the_hard_one(tmp_path: Path) -> None:
    """Started with a soft limit of 256 open files (a few addresses at their cap would exhaust the
    usual 1024), the server raises it to the hard limit (it kept 256 before)."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "serve", "--port", "0", "--db", str(tmp_path / "files.sqlite3"),
         "--workers", "1"],
        cwd=ROOT, env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")},
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard)),
    )
    try:
        line = read_line(server, START_SECONDS)
        assert line.startswith(READY), f"parlour serve printed {line!r}"
        wanted = 1 << 16 if hard == resource.RLIM_INFINITY else hard
        assert open_files_soft_limit(server.pid) == str(wanted)
    finally:
        server.terminate()
        server.wait(WAIT)
