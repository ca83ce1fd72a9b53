"""``parlour cluster up`` (issue 17, "Starting it"): PostgreSQL, two server processes and HAProxy
started by one command, played through HAProxy's one address, and stopped cleanly by SIGTERM.

The cluster runs once for the module (a subprocess, as a person would start it); the tests run in
this file's order, the last one stopping it. Every wait is bounded and says what it awaited.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from cluster_helpers import until
from server_helpers import Client
from server_process import ROOT, START_SECONDS, WAIT, read_line
from starlette.websockets import WebSocket
from websockets.exceptions import ConnectionClosed

from parlour.server import relay
from parlour.server.cluster import UP, haproxy_config
from parlour.server.leases import Node
from parlour.server.process import call
from parlour.server.services import free_port, haproxy_check

ASYNC = pytest.mark.asyncio(loop_scope="session")


@dataclass
class Cluster:
    process: subprocess.Popen[bytes]
    dir: Path
    said: list[str] = field(default_factory=list)
    base: str = ""
    made: list[str] = field(default_factory=list)
    """The matches the tests made through it."""
    tokens: dict[str, str] = field(default_factory=dict)
    """The first seat's token of those of people."""

    def line(self, seconds: float = START_SECONDS) -> str:
        """The command's next line of output ('' when none came within ``seconds``)."""
        text = read_line(self.process, seconds)
        self.said.append(text)
        return text

    def output(self) -> str:
        return "\n".join(self.said)

    def pids(self, part: str) -> list[int]:
        """The process ids the lines starting with ``part`` printed."""
        return [int(found) for text in self.said if text.startswith(f"parlour cluster: {part}")
                for found in re.findall(r"pid (\d+)", text)]

    def servers(self) -> list[int]:
        """The servers' own ports, as printed."""
        return [int(port) for text in self.said
                for port in re.findall(r"^parlour cluster: server \d+ on http://127\.0\.0\.1:(\d+),", text)]

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1].rstrip("/"))


def cluster_up(directory: Path) -> Cluster:
    """``parlour cluster up --processes 2`` on a free port with its files in ``directory``, once it
    says it is up."""
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "cluster", "up", "--processes", "2", "--port", str(free_port()),
         "--dir", str(directory)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    running = Cluster(process, directory)
    while not running.base:
        text = running.line()
        if text.startswith(UP):
            running.base = text.removeprefix(UP).split()[0].rstrip("/")
        elif not text:
            stop(running)
            pytest.fail(f"parlour cluster up never said it was up:\n{running.output()}")
    return running


def stop(running: Cluster) -> None:
    if running.process.poll() is None:
        running.process.send_signal(signal.SIGTERM)
        try:
            running.process.wait(START_SECONDS)
        except subprocess.TimeoutExpired:
            running.process.kill()


@pytest.fixture(scope="module")
def directory() -> Iterator[Path]:
    # In /tmp, open to others: PostgreSQL runs as the postgres user, which must reach its directory
    # (pytest's own temporary directories are closed to other users).
    made = Path(tempfile.mkdtemp(prefix="parlour-cluster-", dir="/tmp"))
    made.chmod(0o755)
    yield made
    shutil.rmtree(made, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(directory: Path) -> Iterator[Cluster]:
    running = cluster_up(directory)
    try:
        yield running
    finally:
        stop(running)


def ask(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """(status, decoded JSON answer) of one request to 127.0.0.1:``port``."""
    return call(f"http://127.0.0.1:{port}", method, path, body)


async def join_and_move(cluster: Cluster, player: Client, match_id: str) -> None:
    """Seat 1 of ``match_id`` joined through HAProxy, and ``player`` (seat 0) plays the first move."""
    try:
        status, joined = ask(cluster.port, "POST", f"/api/matches/{match_id}/join", {})
        assert status == 200, joined
        ready = await player.until("the match to start", lambda message: bool(message.get("legal")))
        await player.send({"type": "action", "text": ready["legal"][0]["text"], "version": 0})
        await player.expect("update", version=1)
    finally:
        await player.close()


def exited(pid: int) -> bool:
    """Whether a process has exited (gone, or a zombie its parent has not reaped yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (children, their children …), read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def haproxy_says(cluster: Cluster, command: str) -> list[str]:
    """HAProxy's answer to a command on its stats socket, as lines (comments left out)."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(WAIT)
        sock.connect(str(cluster.dir / "haproxy.sock"))
        sock.sendall(command.encode() + b"\n")
        text = b""
        while chunk := sock.recv(65536):
            text += chunk
    return [line for line in text.decode().splitlines() if line.strip() and not line.startswith("#")]


def haproxy_stat(cluster: Cluster) -> dict[tuple[str, str], str]:
    """(backend, server) -> status ("UP", "DOWN" …), from HAProxy's ``show stat``."""
    rows = [line.split(",") for line in haproxy_says(cluster, "show stat")]
    return {(row[0], row[1]): row[17] for row in rows if row[1] not in ("FRONTEND", "BACKEND")}


def server_states(cluster: Cluster, server: str) -> set[str]:
    """What HAProxy says of ``server`` (``s1``…) in its backends: {"UP"}, {"DOWN"}…"""
    return {status for (_, name), status in haproxy_stat(cluster).items() if name == server}


def writer_port(cluster: Cluster, match_id: str) -> int:
    """The port of the server holding the match's lease (PostgreSQL's ``leases`` table)."""
    port = re.findall(r"PostgreSQL on 127\.0\.0\.1:(\d+)", cluster.output())[0]
    with psycopg.connect(f"postgresql://parlour@127.0.0.1:{port}/parlour", connect_timeout=int(WAIT)) as db:
        row = db.execute("SELECT nodes.address FROM leases JOIN nodes ON nodes.id = leases.node"
                         " WHERE leases.match_id = %s", (match_id,)).fetchone()
    assert row is not None, f"nobody holds {match_id}'s lease"
    return int(str(row[0]).rsplit(":", 1)[1])


def noted_port(cluster: Cluster, match_id: str) -> int:
    """The port of the server HAProxy's table of writers names for the match."""
    entries = [line for line in haproxy_says(cluster, "show table writers") if f" key={match_id} " in line]
    assert len(entries) == 1, haproxy_says(cluster, "show table writers")
    server = int(re.findall(r"gpt0=(\d+)", entries[0])[0])
    return cluster.servers()[server - 1]


# --- the configuration ------------------------------------------------------------------------------


def test_the_generated_haproxy_configuration_is_valid(tmp_path: Path) -> None:
    """HAProxy 2.6 accepts the configuration; a match's paths hash on its id (the 4th field)."""
    text = haproxy_config("127.0.0.1", 8080, [8081, 8082, 8083], tmp_path / "haproxy.sock")
    config = tmp_path / "haproxy.cfg"
    config.write_text(text)
    haproxy_check(config)
    assert "balance hash path,field(4,/)" in text
    assert "hash-type consistent" in text
    assert "timeout tunnel 1h" in text
    assert "option httpchk GET /api/health" in text
    assert "http-request del-header x-parlour-relayed" in text  # only servers may say "relayed"
    assert text.count("check\n") == 6  # each of three servers in both backends, each checked


def test_the_cluster_wrote_a_valid_configuration(cluster: Cluster) -> None:
    haproxy_check(cluster.dir / "haproxy.cfg")
    assert len(cluster.servers()) == 2
    written = (cluster.dir / "haproxy.cfg").read_text()
    for number, port in enumerate(cluster.servers(), start=1):
        assert f"server s{number} 127.0.0.1:{port} id {number} check" in written


# --- a relay to a server that hangs -----------------------------------------------------------------

ECHO = """
import asyncio, sys
from websockets.asyncio.server import serve

async def echo(connection):
    async for message in connection:
        await connection.send(message)

async def main():
    async with serve(echo, "127.0.0.1", 0, ping_interval=None) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()

asyncio.run(main())
"""
"""A writer that only echoes: once stopped (SIGSTOP) it hangs as a paused process does."""


@ASYNC
async def test_a_relay_to_a_writer_that_hangs_ends_and_its_client_is_told_to_reconnect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A relay to a writer that hangs must end even when it is not this process that takes the match
    over (a third one does: nothing else tells this one). Its pings go unanswered, and its client is
    closed with 1013, a code the browser reconnects on (never 4404, on which it gives up)."""
    monkeypatch.setattr(relay, "PING_SECONDS", 0.2)  # the same path as 5 s, sooner
    writer = subprocess.Popen([sys.executable, "-c", ECHO], stdout=subprocess.PIPE)
    try:
        port = int(read_line(writer, START_SECONDS))
        to_relay: asyncio.Queue[MutableMapping[str, Any]] = asyncio.Queue()
        from_relay: asyncio.Queue[MutableMapping[str, Any]] = asyncio.Queue()
        scope = {"type": "websocket", "scheme": "ws", "path": "/ws/matches/m", "query_string": b"",
                 "headers": [], "server": ("127.0.0.1", 8080), "client": ("127.0.0.1", 1)}
        client = WebSocket(scope, to_relay.get, from_relay.put)
        await to_relay.put({"type": "websocket.connect"})
        await client.accept()
        assert (await from_relay.get())["type"] == "websocket.accept"
        holder = Node("hung", f"http://127.0.0.1:{port}")
        never_taken = asyncio.Event()  # a third process takes the match over: this one is not told
        relaying = asyncio.create_task(relay.relay_socket(client, holder, "127.0.0.1", 1 << 16, never_taken))
        await to_relay.put({"type": "websocket.receive", "text": "hello"})
        assert await asyncio.wait_for(from_relay.get(), WAIT) == {"type": "websocket.send", "text": "hello"}
        os.kill(writer.pid, signal.SIGSTOP)
        closed = await asyncio.wait_for(from_relay.get(), WAIT)
        assert (closed["type"], closed["code"]) == ("websocket.close", 1013), closed
        assert await asyncio.wait_for(relaying, WAIT) is True
    finally:
        writer.kill()
        writer.wait(WAIT)


# --- through HAProxy ------------------------------------------------------------------------------


def test_the_lobby_answers_through_haproxy(cluster: Cluster) -> None:
    status, answer = ask(cluster.port, "GET", "/api/games")
    assert status == 200, answer
    assert "loa" in json.dumps(answer)


def test_each_server_answers_its_health_check_itself(cluster: Cluster) -> None:
    """'GET /api/health → 200 {"ok": true, "node": …}': two processes, two nodes, each on the
    cluster's Redis ('parlour cluster up … starts PostgreSQL, Redis, N server processes'): a server
    started with --pubsub counts the spectators it serves from replicas."""
    nodes = set()
    for port in cluster.servers():
        status, answer = ask(port, "GET", "/api/health")
        assert (status, answer["ok"]) == (200, True), answer
        assert "replicas" in answer, f"the server on port {port} runs without --pubsub: {answer}"
        nodes.add(answer["node"])
    assert len(nodes) == 2
    assert len(cluster.pids("Redis on 127.0.0.1:")) == 1, cluster.output()


@ASYNC
async def test_a_person_plays_a_bot_through_haproxy(cluster: Cluster) -> None:
    status, created = ask(cluster.port, "POST", "/api/matches",
                          {"game": "loa", "seats": ["open", "bot:random"], "bot_seconds": 0.01, "join": 0})
    assert status == 201, created
    match_id = created["match"]["id"]
    cluster.made.append(match_id)
    ws_base = cluster.base.replace("http://", "ws://")
    person = await Client.open(f"{ws_base}/ws/matches/{match_id}", "person through HAProxy")
    try:
        snapshot = await person.hello(created["token"])
        for ply in range(3):
            assert snapshot["view"]["to_move"] == 0, snapshot
            assert snapshot["legal"], snapshot
            await person.send({"type": "action", "text": snapshot["legal"][0]["text"],
                               "version": snapshot["version"]})
            mine = await person.expect("update", version=2 * ply + 1)
            assert mine["event"]["seat"] == 0
            snapshot = await person.expect("update", version=2 * ply + 2)
            assert snapshot["event"]["seat"] == 1  # the bot answered, from the match's writer
    finally:
        await person.close()
    status, answer = ask(cluster.port, "GET", f"/api/matches/{match_id}")
    assert (status, answer["match"]["version"]) == (200, 6), answer
    # 'HAProxy hashes on the match id … so nearly all connections land on the writer directly':
    # HAProxy noted the server that created the match, which holds its lease.
    assert noted_port(cluster, match_id) == writer_port(cluster, match_id)


def test_every_match_made_through_haproxy_is_sent_to_its_writer(cluster: Cluster) -> None:
    """Creations go round the servers; each match's later requests go to the one that made it."""
    made = [ask(cluster.port, "POST", "/api/matches", {"game": "loa", "seats": ["open", "open"], "join": 0})
            for _ in range(6)]
    assert {status for status, _ in made} == {201}, made
    ids = [answer["match"]["id"] for _, answer in made]
    cluster.made += ids
    cluster.tokens |= {answer["match"]["id"]: answer["token"] for _, answer in made}
    writers = [writer_port(cluster, match_id) for match_id in ids]
    assert len(set(writers)) == 2  # round robin: both servers made some
    assert [noted_port(cluster, match_id) for match_id in ids] == writers


def test_a_client_cannot_say_its_request_was_relayed(cluster: Cluster) -> None:
    """Only server processes may send ``x-parlour-relayed`` (a relayed request is never relayed
    again: for a match it does not hold, a server answers 503 "moving"). HAProxy drops a client's,
    so a match HAProxy has no note of (made at a server directly), hashed to either server, is
    answered, relayed to its writer when need be. Twelve matches: with the header kept, those
    hashed to the other server (about half) would be refused."""
    first = cluster.servers()[0]
    ids = []
    for _ in range(12):
        status, created = ask(first, "POST", "/api/matches", {"game": "loa", "seats": ["open", "open"]})
        assert status == 201, created
        ids.append(created["match"]["id"])
    answers = {}
    for match_id in ids:
        connection = http.client.HTTPConnection("127.0.0.1", cluster.port, timeout=WAIT)
        try:
            connection.request("GET", f"/api/matches/{match_id}", headers={"x-parlour-relayed": "1"})
            answer = connection.getresponse()
            answers[match_id] = (answer.status, answer.read()[:200])
        finally:
            connection.close()
    assert {status for status, _ in answers.values()} == {200}, answers
    assert {writer_port(cluster, match_id) for match_id in ids} == {first}


# --- a server that dies, and stopping -----------------------------------------------------------------


@ASYNC
async def test_a_server_that_hangs_is_left_out_and_its_clients_play_on_through_the_other(
    cluster: Cluster,
) -> None:
    """A server that hangs (SIGSTOP: a paused process, a frozen machine) keeps its clients'
    connections open but answers nothing. HAProxy's check leaves it out and closes those connections
    (``on-marked-down shutdown-sessions``), so the clients reconnect by themselves, through the same
    address, and play on through the other server once the hung one's lease runs out."""
    first = cluster.servers()[0]
    for _ in range(4):  # creations go round the servers: one of these is the first server's
        status, created = ask(cluster.port, "POST", "/api/matches",
                              {"game": "loa", "seats": ["open", "open"], "join": 0})
        assert status == 201, created
        if noted_port(cluster, created["match"]["id"]) == first:
            break
    match_id = created["match"]["id"]
    assert writer_port(cluster, match_id) == first
    cluster.tokens[match_id] = created["token"]
    person = await Client.open(cluster.base.replace("http://", "ws://") + f"/ws/matches/{match_id}", "person")
    await person.hello(created["token"])
    pid = cluster.pids("server 1 on")[0]
    os.kill(pid, signal.SIGSTOP)
    try:
        await until("HAProxy marks the hung server 1 down",
                    lambda: server_states(cluster, "s1") == {"DOWN"}, START_SECONDS)
        with pytest.raises(ConnectionClosed):  # closed by HAProxy: the server itself says nothing
            await person.until("the hung server's connection to be closed", lambda message: False)
        # Through server 2, once the lease ran out.
        await join_and_move(cluster, await reconnected(cluster, match_id), match_id)
        assert writer_port(cluster, match_id) == cluster.servers()[1]
    finally:
        os.kill(pid, signal.SIGCONT)
        await person.close()
    await until("HAProxy marks server 1 up again", lambda: server_states(cluster, "s1") == {"UP"},
                START_SECONDS)


@ASYNC
async def test_a_server_that_dies_is_reported_left_out_and_its_matches_play_on(cluster: Cluster) -> None:
    """'a process that dies is taken out of rotation': reported in one line, marked DOWN by HAProxy's
    health check, not restarted; the lobby still answers through HAProxy, and a match the dead
    server wrote is played on through the same address ('its matches resume on the other')."""
    second = cluster.servers()[1]
    orphan = next(match_id for match_id in cluster.tokens if noted_port(cluster, match_id) == second)
    pid = cluster.pids("server 2 on")[0]
    os.kill(pid, signal.SIGKILL)
    report = cluster.line(WAIT)
    said = rf"parlour cluster: server 2 \(pid {pid}, port \d+\) exited on SIGKILL"
    assert re.match(said, report), cluster.output()
    await until("HAProxy marks server 2 down in both backends",
                lambda: server_states(cluster, "s2") == {"DOWN"}, START_SECONDS)
    assert server_states(cluster, "s1") == {"UP"}
    for _ in range(4):  # round robin would send every other request to the dead one
        assert ask(cluster.port, "GET", "/api/games")[0] == 200
    await join_and_move(cluster, await reconnected(cluster, orphan), orphan)


async def reconnected(cluster: Cluster, match_id: str) -> Client:
    """The first seat of the match, connected through HAProxy once a server takes it: until its lease
    runs out the dead writer's matches are refused (1013, try again), and a browser tries again."""
    deadline = time.monotonic() + START_SECONDS
    url = cluster.base.replace("http://", "ws://") + f"/ws/matches/{match_id}"
    while True:
        client = await Client.open(url, f"the first seat of {match_id}")
        try:
            await client.send({"type": "hello", "token": cluster.tokens[match_id]})
            answer = await client.receive("the state, or to try again")
            if answer["type"] == "state":
                return client
            assert (answer["type"], answer.get("code")) == ("error", "unavailable"), answer
            why = answer["message"]
        except ConnectionClosed as closed:
            why = str(closed)
        await client.close()
        if time.monotonic() > deadline:
            raise AssertionError(f"{match_id} was not taken over: {why}")
        await asyncio.sleep(0.05)


def test_sigterm_stops_every_part_and_leaves_postgresql_stopped(cluster: Cluster) -> None:
    """'stops them cleanly': HAProxy, the servers, then Redis and PostgreSQL; no process of it is left,
    and the data directory has no postmaster.pid."""
    postgres = cluster.pids("PostgreSQL")
    started = descendants(cluster.process.pid) | set(postgres)
    assert len(postgres) == 1
    assert set(cluster.pids("HAProxy")) <= started
    assert set(cluster.pids("Redis")) <= started
    assert cluster.pids("server 1 on")
    cluster.process.send_signal(signal.SIGTERM)
    assert cluster.process.wait(START_SECONDS) == 0
    assert cluster.process.stdout is not None
    said = cluster.output() + "\n" + cluster.process.stdout.read().decode(errors="replace")
    order = [said.index(part) for part in ("HAProxy stopped", "server 1 stopped", "Redis stopped",
                                           "PostgreSQL stopped")]
    assert order == sorted(order), said
    assert "server 2 stopped" not in said  # it had died already, and said so
    assert [pid for pid in started if not exited(pid)] == []
    data = Path(re.findall(r"data in (\S+)", said)[0])
    assert (data / "PG_VERSION").exists()
    assert not (data / "postmaster.pid").exists()


@ASYNC
async def test_the_next_run_keeps_the_matches_and_a_killed_run_leaves_no_server(cluster: Cluster) -> None:
    """PostgreSQL's data is kept in the directory between runs. A run killed outright (SIGKILL: no
    code of it runs) takes its servers and HAProxy with it; the PostgreSQL it left running is
    stopped by the next run before it starts its own."""
    assert cluster.process.poll() is not None  # the test before stopped it
    assert len(cluster.made) == 7
    again = cluster_up(cluster.dir)
    try:
        for match_id in cluster.made:
            status, answer = ask(again.port, "GET", f"/api/matches/{match_id}")
            assert status == 200, answer
        parts = descendants(again.process.pid)
        postgres = again.pids("PostgreSQL")[0]
        assert set(again.pids("HAProxy")) <= parts
        again.process.kill()
        again.process.wait(WAIT)
        await until("the killed run's servers and HAProxy exit", lambda: all(exited(pid) for pid in parts),
                    START_SECONDS)
        assert not exited(postgres)  # a daemon of pg_ctl's: none of ours
        third = cluster_up(cluster.dir)
        try:
            assert "stopping the PostgreSQL an earlier run left running" in third.output()
            assert exited(postgres)
            assert ask(third.port, "GET", f"/api/matches/{cluster.made[0]}")[0] == 200
        finally:
            stop(third)
    finally:
        stop(again)
