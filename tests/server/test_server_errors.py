"""Bad input (docs/protocol.md, "Error codes"): each case gets its error, the match is unchanged and
the connection still works. Then Hypothesis throws random frames at a live server."""

from __future__ import annotations

import http.client as http_client
import json
import socket
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import Client, host_port, open_client
from server_process import WAIT, Server
from websockets.sync.client import ClientConnection, connect

ASYNC = pytest.mark.asyncio(loop_scope="session")


async def running_match(server: Server, clients: list[Client]) -> tuple[str, Client, Client, str]:
    """A running match two moves in: (id, Black's client, White's client, Black's token); Black to move."""
    created = server.create(game="loa", seats=["open", "open"], join=0, seed=1)
    match_id, black_token = created["match"]["id"], created["token"]
    white_token = server.join(match_id)["token"]
    black = await open_client(clients, server, match_id, "black")
    white = await open_client(clients, server, match_id, "white")
    await black.hello(black_token)
    await white.hello(white_token)
    await black.send({"type": "action", "text": "b1-d3", "version": 0})
    await white.expect("update", version=1)
    await white.send({"type": "action", "text": "a2-c2", "version": 1})
    await black.expect("update", version=1)
    await black.expect("update", version=2)
    await white.expect("update", version=2)
    return match_id, black, white, black_token


# (what the client sends, the error code it gets back) — sent by Black, whose turn it is.
AS_BLACK: list[tuple[Any, str]] = [
    ("{not json", "bad_json"),
    ("", "bad_json"),
    (b"\x00\x01binary", "bad_json"),
    ("[1, 2, 3]", "bad_message"),
    ('"hello"', "bad_message"),
    ("null", "bad_message"),
    ({"text": "b1-d3"}, "bad_message"),
    ({"type": 7}, "bad_message"),
    ({"type": "dance"}, "unknown_type"),
    ({"type": "action"}, "bad_message"),
    ({"type": "action", "text": 42}, "bad_message"),
    ({"type": "action", "text": "c1-c3", "version": True}, "bad_message"),
    ({"type": "action", "text": "c1-c3", "version": -1}, "bad_message"),
    ({"type": "action", "text": "c1-c3", "version": 1.5}, "bad_message"),
    ({"type": "action", "text": "x" * 5000}, "bad_message"),
    ({"type": "action", "text": "c1-c3", "version": 1}, "stale_version"),
    ({"type": "action", "text": "c1-c3", "version": 3}, "stale_version"),
    ({"type": "action", "text": "bogus", "version": 2}, "bad_notation"),
    ({"type": "action", "text": "z9-a1"}, "bad_notation"),
    ({"type": "action", "text": "c1-c7", "version": 2}, "illegal_action"),
    ({"type": "action", "text": "pass"}, "illegal_action"),
    ({"type": "hello", "spectator": True}, "duplicate_hello"),
    ({"type": "join"}, "already_seated"),
    ("x" * 70_000, "bad_message"),
]


@ASYNC
async def test_every_bad_message_gets_its_error_and_changes_nothing(
    server: Server, clients: list[Client]
) -> None:
    match_id, black, white, _ = await running_match(server, clients)
    for index, (sent, code) in enumerate(AS_BLACK):
        message = sent if isinstance(sent, str | bytes) else {**sent, "id": index}
        await black.send(message if isinstance(message, str | bytes) else json.dumps(message))
        error = await black.error(code)
        if isinstance(sent, dict) and code != "bad_message":
            assert error["id"] == index, error  # the client's id comes back with the error
        await black.ping()
    # White, not to move: out of turn, whatever the move.
    for text in ("e8-e6", "c1-c3", "bogus"):
        await white.send({"type": "action", "text": text, "version": 2})
        await white.error("not_your_turn")
    await white.ping()
    summary = server.summary(match_id)
    assert summary["version"] == 2
    assert summary["status"] == "running"
    # The connections still play.
    await black.send({"type": "action", "text": "e1-e3", "version": 2})
    assert (await white.expect("update", version=3))["event"]["action"] == "e1-e3"


@ASYNC
async def test_only_legal_actions_pass_the_gate(server: Server, clients: list[Client]) -> None:
    """Whatever a game's notation reads, the server applies only what the rules allow the mover:
    MIL-17 lets only a seat order its own hand, yet Mille's notation reads ``1: order on``."""
    created = server.create(game="mille", seats=["open", "open"], join=0)
    match_id = created["match"]["id"]
    second = server.join(match_id)
    mover = await open_client(clients, server, match_id, "mille seat 0")
    other = await open_client(clients, server, match_id, "mille seat 1")
    state = await mover.hello(created["token"])
    await other.hello(second["token"])
    if not state["legal"]:  # the deal (chance) may still be under way
        state = await mover.until("seat 0 to move", lambda m: bool(m.get("legal")))
    assert state["view"]["to_move"] == 0, state["view"]["to_move"]
    legal = {entry["text"] for entry in state["legal"]}
    texts = ["1: order on", "1: order off", "order on", "order off", *(f"1: {text}" for text in legal)]
    for text in texts:
        if text in legal:
            continue
        await mover.send({"type": "action", "text": text, "version": state["version"]})
        error = await mover.expect("error")
        assert error["code"] in ("illegal_action", "bad_notation"), (text, error)
        assert error["message"], error
    await mover.ping()
    assert server.summary(match_id)["version"] == state["version"]
    await mover.send({"type": "action", "text": state["legal"][0]["text"], "version": state["version"]})
    update = await mover.expect("update", version=state["version"] + 1)
    assert update["event"]["seat"] == 0


@ASYNC
async def test_errors_before_hello_and_for_spectators(server: Server, clients: list[Client]) -> None:
    match_id, black, _, _ = await running_match(server, clients)
    stranger = await open_client(clients, server, match_id, "stranger")
    await stranger.send({"type": "action", "text": "c1-c3"})
    await stranger.error("hello_first")
    await stranger.send({"type": "hello"})
    await stranger.error("missing_token")
    await stranger.send({"type": "hello", "token": "not-a-token"})
    await stranger.error("bad_token")
    await stranger.send({"type": "hello", "token": ["a"]})
    await stranger.error("bad_message")
    await stranger.send({"type": "join", "seat": 1})
    await stranger.error("seat_taken")
    await stranger.send({"type": "join"})
    await stranger.error("no_free_seat")
    await stranger.send({"type": "join", "seat": 5})
    await stranger.error("bad_seat")
    await stranger.ping()
    assert (await stranger.hello())["seat"] is None  # still free to watch
    await stranger.send({"type": "action", "text": "c1-c3"})
    await stranger.error("not_seated")
    await stranger.send({"type": "hello", "spectator": True})
    await stranger.error("duplicate_hello")
    await stranger.ping()
    assert server.summary(match_id)["version"] == 2
    await black.ping()


@ASYNC
async def test_open_match_and_unknown_match(server: Server, clients: list[Client]) -> None:
    created = server.create(game="loa", seats=["open", "open"], join=0)
    early = await open_client(clients, server, created["match"]["id"], "early")
    await early.hello(created["token"])
    await early.send({"type": "action", "text": "b1-d3"})
    await early.error("not_started")
    await early.ping()
    assert server.summary(created["match"]["id"])["version"] == 0
    nowhere = await open_client(clients, server, "no-such-match", "nowhere")
    await nowhere.error("no_match")
    await nowhere.socket.wait_closed()
    assert nowhere.socket.close_code == 4404


# --- the HTTP side: every API answer is JSON, and /static holds only the client's files ------------


def http(server: Server, method: str, path: str) -> tuple[int, dict[str, str], bytes]:
    """(status, headers with lower-case names, body) of a request without a body."""
    connection = http_client.HTTPConnection(*host_port(server), timeout=WAIT)
    try:
        connection.request(method, path)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


@pytest.mark.parametrize("path", ["/api/nothing", "/api", "/api/matches/x/y/z", "/api/games/loa"])
def test_an_unknown_api_address_answers_the_json_error(server: Server, path: str) -> None:
    status, headers, body = http(server, "GET", path)
    assert status == 404, body
    assert headers["content-type"] == "application/json", headers
    error = json.loads(body)["error"]
    assert error["code"] == "not_found", error
    assert error["message"], error


@pytest.mark.parametrize(("method", "path", "allowed"), [
    ("DELETE", "/api/matches", {"GET", "POST"}),
    ("PUT", "/api/matches", {"GET", "POST"}),
    ("GET", "/api/matches/x/join", {"POST"}),
    ("POST", "/api/games", {"GET"}),
    ("POST", "/", {"GET"}),
])
def test_a_wrong_method_answers_the_json_error_with_allow(
    server: Server, method: str, path: str, allowed: set[str]
) -> None:
    status, headers, body = http(server, method, path)
    assert status == 405, body
    assert headers["content-type"] == "application/json", headers
    assert json.loads(body)["error"]["code"] == "method_not_allowed", body
    assert {name.strip() for name in headers["allow"].split(",")} - {"HEAD"} == allowed, headers


def test_a_missing_page_stays_a_page(server: Server) -> None:
    status, headers, _ = http(server, "GET", "/no-such-page")
    assert status == 404
    assert headers["content-type"].startswith("text/plain"), headers


@pytest.mark.parametrize("path", [
    "/static/__init__.py", "/static/__pycache__/__init__.cpython-311.pyc", "/static/js/../__init__.py",
    "/static/js", "/static/.hidden.js", "/static/nothing.py",
])
def test_static_serves_only_the_clients_files(server: Server, path: str) -> None:
    status, _, body = http(server, "GET", path)
    assert status == 404, (path, body[:200])


def test_static_serves_the_clients_files(server: Server) -> None:
    for path, kind in [("/static/js/page.js", "javascript"), ("/static/css/parlour.css", "text/css"),
                       ("/static/favicon.svg", "image/svg+xml")]:
        status, headers, _ = http(server, "GET", path)
        assert status == 200, path
        assert kind in headers["content-type"], (path, headers)


# --- Hypothesis: random frames at a live server --------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["type", "text", "version", "token", "spectator", "last_version", "seat", "name", "id"]
)
MESSAGES = st.dictionaries(
    FIELDS, JSON | st.sampled_from(["hello", "join", "action", "ping", "b1-d3", "pass"]), max_size=5
)
FRAMES = st.one_of(
    st.binary(max_size=64),
    st.text(max_size=64),
    JSON.map(json.dumps),
    MESSAGES.map(json.dumps),
    MESSAGES.map(lambda message: json.dumps({**message, "type": "action"})),
    MESSAGES.map(lambda message: json.dumps({**message, "type": "hello"})),
)


class Fuzzed:
    """Two sync connections to a running match with White to move: Black's (out of turn) and a
    fresh one; whatever arrives, nothing may change the match."""

    def __init__(self, server: Server) -> None:
        created = server.create(game="loa", seats=["open", "open"], join=0, seed=2)
        self.server = server
        self.match_id = created["match"]["id"]
        self.black_token = created["token"]
        self.white_token = server.join(self.match_id)["token"]
        self.black = self.connect()
        self.send(self.black, {"type": "hello", "token": self.black_token})
        self.send(self.black, {"type": "action", "text": "b1-d3", "version": 0})
        self.pings = 0
        seen = self.answered(self.black)
        assert seen[-1]["type"] == "update", seen
        assert seen[-1]["version"] == 1, seen

    def connect(self) -> ClientConnection:
        # The sync client leaves Nagle on; a frame sent right after another would wait for an ACK.
        sock = socket.create_connection(host_port(self.server), timeout=WAIT)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connect(self.server.match_ws(self.match_id), sock=sock, open_timeout=WAIT, legacy=True)

    def send(self, socket: ClientConnection, message: dict[str, Any]) -> None:
        socket.send(json.dumps(message))

    def answered(self, socket: ClientConnection) -> list[dict[str, Any]]:
        """Everything up to the pong for a fresh ping: the connection still answers."""
        self.pings += 1
        self.send(socket, {"type": "ping", "id": self.pings})
        got: list[dict[str, Any]] = []
        while True:
            frame = socket.recv(WAIT)
            message = json.loads(frame)
            if message == {"type": "pong", "id": self.pings}:
                return got
            got.append(message)


@pytest.fixture(scope="module")
def fuzzed(server: Server) -> Fuzzed:
    return Fuzzed(server)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(frames=st.lists(FRAMES, min_size=1, max_size=4))
def test_random_frames_change_nothing(fuzzed: Fuzzed, frames: list[str | bytes]) -> None:
    fresh = fuzzed.connect()
    try:
        for frame in frames:
            for socket in (fuzzed.black, fresh):
                socket.send(frame)
                for message in fuzzed.answered(socket):
                    assert message["type"] in ("error", "state", "seats", "joined", "pong"), message
                    if message["type"] == "error":
                        assert message["code"], message
                        assert message["message"], message
                    if message["type"] == "state":
                        assert message["version"] == 1, message
    finally:
        fresh.close()
    summary = fuzzed.server.summary(fuzzed.match_id)
    assert summary["version"] == 1, summary
    assert summary["to_move"] == 1, summary
    assert [seat["kind"] for seat in summary["seats"]] == ["person", "person"]


def test_after_the_fuzzing_the_match_still_plays(fuzzed: Fuzzed) -> None:
    white = fuzzed.connect()
    try:
        fuzzed.send(white, {"type": "hello", "token": fuzzed.white_token})
        fuzzed.send(white, {"type": "action", "text": "a2-c2", "version": 1})
        seen = fuzzed.answered(white)
        assert any(m["type"] == "update" and m["event"]["action"] == "a2-c2" for m in seen), seen
    finally:
        white.close()
    assert fuzzed.server.summary(fuzzed.match_id)["version"] == 2
