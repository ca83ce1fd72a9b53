"""The server's limits (docs/operations.md): rates per address, request bodies, the WebSocket's
message rate and hello deadline, text frames that are not UTF-8, and the budget of log lines about
clients' faults. Each test starts a server of its own with the limit it tests set tight.

Every wait is bounded and fails with a message; nothing asserts on time. Rates are set so slow
(a token an hour) that no token comes back while a test runs.
"""

from __future__ import annotations

import asyncio
import base64
import http.client
import json
import os
import random
import re
import select
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, call, host_port, open_client
from server_process import WAIT, Server, Storage
from websockets.exceptions import ConnectionClosed

from parlour.games import get_game
from parlour.server.limits import Limits

ASYNC = pytest.mark.asyncio(loop_scope="session")
LOA = get_game("loa")
SLOW = 1 / 60
"""A rate of one a minute's sixtieth: one token an hour, so none comes back during a test."""


def start(storage: Storage, tmp_path: Path, **limits: float) -> Server:
    return storage.server(tmp_path, limits=limits).start()


def assert_rate_limited(status: int, headers: dict[str, str], answer: Any) -> None:
    assert status == 429, (status, answer)
    assert answer["error"]["code"] == "rate_limited", answer
    retry = headers.get("retry-after", "")
    assert retry.isdigit(), headers  # whole seconds
    assert int(retry) >= 1, headers
    assert answer["error"]["retry_after"] == int(retry), answer
    assert f"try again in {retry} s" in answer["error"]["message"], answer


# --- rates per address ------------------------------------------------------------------------------


def test_creating_matches_is_rate_limited_per_address(storage: Storage, tmp_path: Path) -> None:
    server = start(storage, tmp_path, create_burst=3, create_per_minute=SLOW)
    try:
        for _ in range(3):
            status, _, answer = call(server, "POST", "/api/matches", {"game": "loa"})
            assert status == 201, answer
        before = call(server, "GET", "/api/matches")[2]["matches"]
        assert_rate_limited(*call(server, "POST", "/api/matches", {"game": "loa"}))
        # Refused before anything is read or stored, bad requests included.
        assert_rate_limited(*call(server, "POST", "/api/matches", {"game": "nothing"}))
        assert call(server, "GET", "/api/matches")[2]["matches"] == before
        # Another address has a bucket of its own.
        status, _, answer = call(server, "POST", "/api/matches", {"game": "loa"}, source="127.0.0.2")
        assert status == 201, answer
    finally:
        server.stop()


def test_listing_matches_is_rate_limited_per_address(storage: Storage, tmp_path: Path) -> None:
    """A page is built from the store: a client looping on the list (the flood of issue 13) is
    throttled, and the list still answers everyone else."""
    server = start(storage, tmp_path, list_burst=3, list_per_minute=SLOW)
    try:
        for _ in range(3):
            status, _, answer = call(server, "GET", "/api/matches?status=over")
            assert status == 200, answer
        assert_rate_limited(*call(server, "GET", "/api/matches"))
        status, _, answer = call(server, "GET", "/api/matches", source="127.0.0.2")
        assert status == 200, answer
    finally:
        server.stop()


@ASYNC
async def test_joining_seats_is_rate_limited_per_address_over_http_and_websocket(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    server = start(storage, tmp_path, join_burst=1, join_per_minute=SLOW)
    try:
        first, second = (server.create(game="loa")["match"]["id"] for _ in range(2))
        assert call(server, "POST", f"/api/matches/{first}/join", {})[0] == 200
        assert_rate_limited(*call(server, "POST", f"/api/matches/{second}/join", {}))
        # Over the WebSocket the same bucket: an error, and the connection goes on.
        socket = await open_client(clients, server, second, "joiner")
        await socket.send({"type": "join", "id": 1})
        error = await socket.error("rate_limited")
        assert error["id"] == 1, error
        assert error["retry_after"] >= 1, error
        await socket.ping()
        assert [seat["kind"] for seat in server.summary(second)["seats"]] == ["open", "open"]
        # Another address still joins.
        status, _, answer = call(server, "POST", f"/api/matches/{second}/join", {}, source="127.0.0.2")
        assert status == 200, answer
    finally:
        server.stop()


# --- request bodies ---------------------------------------------------------------------------------

HUGE = 100 * 1024 * 1024
PIECE = b"x" * (1024 * 1024)


def read_answer(received: bytearray) -> tuple[int, Any] | None:
    """The (status, JSON body) of a complete HTTP answer in ``received``, or ``None`` while incomplete."""
    head, found, rest = bytes(received).partition(b"\r\n\r\n")
    if not found:
        return None
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    assert length is not None, head
    if len(rest) < int(length.group(1)):
        return None
    status = int(head.split()[1])
    return status, json.loads(rest[: int(length.group(1))])


def post_huge(server: Server, chunked: bool) -> tuple[int, Any]:
    """POSTs a 100 MB body (its length declared, or chunked without one), sending until the whole
    body is sent or the server has answered, and returns that answer."""
    sock = socket.create_connection(host_port(server), timeout=WAIT)
    try:
        framing = b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % HUGE
        sock.sendall(b"POST /api/matches HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                     + framing + b"\r\n\r\n")
        piece = b"%x\r\n%s\r\n" % (len(PIECE), PIECE) if chunked else PIECE
        pending, sent, received = memoryview(piece), 0, bytearray()
        deadline = time.monotonic() + 4 * WAIT
        while time.monotonic() < deadline:
            writing = [sock] if sent < HUGE else []
            readable, writable, _ = select.select([sock], writing, [], WAIT)
            if readable:
                more = sock.recv(65536)
                assert more, f"the server closed the connection without an answer: {bytes(received)[:200]!r}"
                received += more
                answer = read_answer(received)
                if answer is not None:
                    return answer
            if writable:
                pending = pending[sock.send(pending):]
                if not pending:
                    sent += len(PIECE)
                    pending = memoryview(piece if sent < HUGE else b"0\r\n\r\n" if chunked else b"")
        raise AssertionError(f"no answer to a {HUGE} byte body ({sent} bytes sent)")
    finally:
        sock.close()


def peak_memory(server: Server) -> int:
    """The server process's peak resident memory (``VmHWM``), in bytes."""
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    assert found is not None, status
    return int(found.group(1)) * 1024


def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_sent(
    storage: Storage, tmp_path: Path
) -> None:
    server = start(storage, tmp_path)
    try:
        with socket.create_connection(host_port(server), timeout=WAIT) as sock:
            sock.sendall(b"POST /api/matches HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100000000\r\n\r\n")  # and not a byte of the body
            received = bytearray()
            answer = None
            while answer is None:
                try:
                    more = sock.recv(65536)
                except TimeoutError:
                    raise AssertionError(f"no answer in {WAIT} s: the server waits for the body") from None
                assert more, "closed without an answer"
                received += more
                answer = read_answer(received)
        status, body = answer
        assert status == 413, body
        assert body["error"]["code"] == "too_large", body
        assert body["error"]["message"] == "the body is longer than 65536 bytes", body
        # The connection was not spoiled for others: the server answers.
        assert call(server, "GET", "/api/games")[0] == 200
    finally:
        server.stop()


@pytest.mark.slow
def test_ten_huge_bodies_at_once_are_refused_without_being_held(storage: Storage, tmp_path: Path) -> None:
    """10 concurrent 100 MB bodies (half with their length, half chunked): each refused with the
    JSON error, and the server's peak memory stays far below even one of them."""
    server = start(storage, tmp_path)
    try:
        answers: list[tuple[int, Any] | BaseException] = []

        def post(chunked: bool) -> None:
            try:
                answers.append(post_huge(server, chunked))
            except BaseException as error:
                answers.append(error)

        threads = [threading.Thread(target=post, args=(index % 2 == 1,)) for index in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(8 * WAIT)
        assert len(answers) == 10, answers
        for answer in answers:
            assert not isinstance(answer, BaseException), answer
            status, body = answer
            assert (status, body["error"]["code"]) == (413, "too_large"), answer
        peak = peak_memory(server)
        assert peak < 200 * 1024 * 1024, f"the server's memory peaked at {peak / 2**20:.0f} MB"
    finally:
        server.stop()


# --- the WebSocket: a message rate, a hello deadline --------------------------------------------------


async def closed(client: Client) -> None:
    try:
        await asyncio.wait_for(client.socket.wait_closed(), WAIT)
    except TimeoutError:
        raise AssertionError(f"{client.label}: still open after {WAIT} s") from None


@ASYNC
async def test_messages_over_the_rate_are_refused_and_a_flood_is_closed(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    server = start(storage, tmp_path, message_burst=5, messages_per_second=SLOW)
    try:
        match_id = server.create(game="loa")["match"]["id"]
        calm = await open_client(clients, server, match_id, "calm")
        for index in range(5):
            await calm.send({"type": "ping", "id": index})
            await calm.expect("pong", id=index)
        await calm.send({"type": "ping", "id": "one too many"})
        error = await calm.error("rate_limited")
        assert error["retry_after"] >= 1, error
        assert "id" not in error, error  # dropped unread
        # A client that goes on sending over the rate is closed: 3 bursts' worth refused in a row.
        flood = await open_client(clients, server, match_id, "flood")
        for index in range(5 + 3 * 5):
            await flood.send({"type": "ping", "id": index})
        for index in range(5):
            await flood.expect("pong", id=index)
        refused = 0
        while True:
            try:
                message = await flood.receive("rate_limited errors, then the close")
            except ConnectionClosed:  # what with is checked below
                break
            assert message["type"] == "error", message
            assert message["code"] == "rate_limited", message
            refused += 1
        # Errors for the refused messages (those the server sent before it closed: the 15th closes).
        assert 1 <= refused < 3 * 5, refused
        await closed(flood)
        assert flood.socket.close_code == 1008, flood.socket.close_code
        assert flood.socket.close_reason, "the close says why"
        assert "closed with 1008" in server.log_text()
        # The other connection is not affected (its own bucket is empty, which it is told).
        await calm.send({"type": "ping"})
        await calm.error("rate_limited")
    finally:
        server.stop()


@ASYNC
async def test_a_socket_that_never_says_hello_is_closed(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    server = start(storage, tmp_path, hello_seconds=2)
    try:
        match_id = server.create(game="loa")["match"]["id"]
        greeted = await open_client(clients, server, match_id, "greeted")
        await greeted.hello()
        silent = await open_client(clients, server, match_id, "silent")
        # Messages that do not say who one is do not count.
        await silent.send({"type": "ping", "id": 1})
        await silent.expect("pong", id=1)
        await closed(silent)
        assert silent.socket.close_code == 4408, silent.socket.close_code
        assert "hello" in (silent.socket.close_reason or ""), silent.socket.close_reason
        await greeted.ping()  # the deadline has passed, and a client that said hello stays
    finally:
        server.stop()


# --- text frames that are not UTF-8, and the budget of log lines ----------------------------------------


class RawSocket:
    """A WebSocket spoken by hand on a plain socket, to send what no library sends: a text frame
    whose bytes are not UTF-8."""

    def __init__(self, server: Server, match_id: str) -> None:
        host, port = host_port(server)
        self.sock = socket.create_connection((host, port), timeout=WAIT)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /ws/matches/{match_id} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.recv()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head

    def recv(self) -> bytes:
        try:
            more = self.sock.recv(65536)
        except TimeoutError:
            raise AssertionError(f"nothing from the server within {WAIT} s") from None
        assert more, "the server closed the TCP connection"
        return more

    def send(self, payload: bytes, opcode: int = 1) -> None:
        """One final frame, masked as a client's must be."""
        mask = os.urandom(4)
        size = len(payload)
        head = bytes([0x80 | opcode])
        if size < 126:
            head += bytes([0x80 | size])
        else:
            head += bytes([0x80 | 126]) + struct.pack("!H", size)
        self.sock.sendall(head + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload)))

    def frame(self) -> tuple[int, bytes]:
        """The server's next frame: (opcode, payload)."""
        while len(self.buffer) < 2:
            self.buffer += self.recv()
        opcode, size = self.buffer[0] & 0x0F, self.buffer[1] & 0x7F
        start = 2
        if size == 126:
            while len(self.buffer) < 4:
                self.buffer += self.recv()
            size, start = struct.unpack("!H", self.buffer[2:4])[0], 4
        assert size < 127, "no frame of this test is that long"
        while len(self.buffer) < start + size:
            self.buffer += self.recv()
        payload, self.buffer = self.buffer[start:start + size], self.buffer[start + size:]
        return opcode, payload

    def close_code(self) -> int:
        """The code of the close frame that comes next (text frames before it are skipped)."""
        while True:
            opcode, payload = self.frame()
            if opcode == 8:
                return int(struct.unpack("!H", payload[:2])[0])

    def close(self) -> None:
        self.sock.close()


NOT_UTF8 = b'{"type": "ping", "id": "\xff\xfe"}'


def log_lines(server: Server, needle: str) -> list[str]:
    return [line for line in server.log.read_text(errors="replace").splitlines() if needle in line]


def test_a_text_frame_that_is_not_utf8_is_closed_with_1007_and_no_traceback(
    storage: Storage, tmp_path: Path
) -> None:
    server = start(storage, tmp_path)
    try:
        match_id = server.create(game="loa")["match"]["id"]
        raw = RawSocket(server, match_id)
        raw.send(b'{"type": "ping", "id": 1}')
        opcode, payload = raw.frame()
        assert (opcode, json.loads(payload)) == (1, {"type": "pong", "id": 1})
        raw.send(NOT_UTF8)
        assert raw.close_code() == 1007
        raw.close()
        # One line says so, with the client's address and the match; no traceback.
        deadline = time.monotonic() + WAIT
        while not log_lines(server, "not UTF-8") and time.monotonic() < deadline:
            time.sleep(0.05)
        lines = log_lines(server, "not UTF-8")
        assert len(lines) == 1, server.log_text()
        assert "127.0.0.1" in lines[0], lines
        assert match_id in lines[0], lines
        assert "Traceback" not in server.log.read_text(), server.log_text()
        assert "Invalid UTF-8" not in server.log.read_text(), server.log_text()
    finally:
        server.stop()


def test_a_flood_of_client_faults_writes_a_bounded_log(storage: Storage, tmp_path: Path) -> None:
    server = start(storage, tmp_path, client_fault_logs_per_minute=10)
    try:
        match_id = server.create(game="loa")["match"]["id"]
        for _ in range(40):
            raw = RawSocket(server, match_id)
            raw.send(NOT_UTF8)
            assert raw.close_code() == 1007
            raw.close()
        # Then one line says how many were left out, once the budget allows (within 6 s at 10 a minute).
        deadline = time.monotonic() + 2 * WAIT
        while not log_lines(server, "were not logged") and time.monotonic() < deadline:
            time.sleep(0.1)
        summary = log_lines(server, "were not logged")
        assert len(summary) == 1, server.log_text()
        left_out = int(re.search(r"(\d+) more client faults", summary[0]).group(1))  # type: ignore[union-attr]
        written = log_lines(server, "not UTF-8")
        assert len(written) <= 10, server.log_text()
        assert len(written) + left_out == 40, (len(written), left_out)
        assert "Traceback" not in server.log.read_text(), server.log_text()
        assert call(server, "GET", "/api/games")[0] == 200  # and the server serves on
    finally:
        server.stop()


# --- a flood from one address while others play ------------------------------------------------------


class Flooder:
    """Threads that create matches and list them at full speed from 127.0.0.2, on kept-alive
    connections, until told to stop; they count the answers by status."""

    def __init__(self, server: Server, threads: int = 4) -> None:
        self.server = server
        self.stopping = threading.Event()
        self.statuses: dict[tuple[str, int], int] = {}
        self.codes: set[str] = set()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, daemon=True) for _ in range(threads)]

    def __enter__(self) -> Flooder:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(WAIT)

    def run(self) -> None:
        host, port = host_port(self.server)
        connection = http.client.HTTPConnection(host, port, timeout=WAIT, source_address=("127.0.0.2", 0))
        body = json.dumps({"game": "loa"}).encode()
        while not self.stopping.is_set():
            for method, data in (("POST", body), ("GET", None)):
                try:
                    connection.request(method, "/api/matches", body=data,
                                       headers={"Content-Type": "application/json"})
                    answer = connection.getresponse()
                    text = answer.read()
                except (OSError, http.client.HTTPException):
                    connection.close()  # the server may close a kept-alive connection: open another
                    continue
                with self.lock:
                    key = (method, answer.status)
                    self.statuses[key] = self.statuses.get(key, 0) + 1
                    if answer.status >= 400:
                        self.codes.add(json.loads(text)["error"]["code"])
        connection.close()


@ASYNC
async def test_a_flooding_client_is_throttled_and_another_match_plays_to_its_end(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    server = start(storage, tmp_path, create_burst=5, create_per_minute=SLOW)
    try:
        created = server.create(game="loa", join=0, name="Ann", options={"move_limit": 0})
        match_id = created["match"]["id"]
        tokens = [created["token"], server.join(match_id, name="Bob")["token"]]
        with Flooder(server) as flooder:
            players = []
            for seat, token in enumerate(tokens):
                player = await open_client(clients, server, match_id, f"seat {seat}")
                await player.hello(token)
                players.append(player)
            state, rng, version = LOA.new(options={"move_limit": 0}), random.Random(3), 0
            while not state.is_over():
                text = state.action_to_text(rng.choice(state.legal_actions()))
                await players[state.to_move()].send({"type": "action", "text": text, "version": version})
                state.play_text(text)
                version += 1
                for player in players:
                    await player.expect("update", version=version)
        assert server.summary(match_id)["status"] == "over"
        statuses = flooder.statuses
        assert statuses.get(("POST", 201), 0) == 5, statuses  # its burst, then nothing
        assert statuses.get(("POST", 429), 0) > 0, statuses
        assert flooder.codes == {"rate_limited"}, flooder.codes
        assert statuses.get(("GET", 200), 0) > 0, statuses
        assert set(statuses) <= {("POST", 201), ("POST", 429), ("GET", 200)}, statuses
    finally:
        server.stop()


# --- setting the limits ------------------------------------------------------------------------------


@pytest.mark.parametrize(("setting", "wrong"), [
    ("message_burst=0.5", "message_burst counts things: a whole number of at least 1"),
    ("page_size=2.5", "page_size counts things"),
    ("body_bytes=0", "above 0"),
    ("create_per_minute=-1", "above 0"),
    ("header_seconds=nan", "above 0"),
    ("nonsense=3", "no limit called 'nonsense'"),
    ("create_burst", "write NAME=VALUE"),
])
def test_a_limit_that_would_refuse_everything_is_refused_at_start(setting: str, wrong: str) -> None:
    """A burst, cap or size under 1 would make the server refuse every request or message."""
    with pytest.raises(ValueError, match=re.escape(wrong)):
        Limits().changed([setting])


def test_rates_and_times_may_be_fractions() -> None:
    changed = Limits().changed(["create_per_minute=0.5", "open_expiry_hours=0.25", "message_burst=3"])
    assert (changed.create_per_minute, changed.open_expiry_hours, changed.message_burst) == (0.5, 0.25, 3)
