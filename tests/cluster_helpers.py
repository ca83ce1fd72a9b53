"""Helpers for the cluster's fault tests (issue 17): ``parlour serve`` processes sharing one
PostgreSQL schema, what PostgreSQL says about a match (its lease's holder, its stored events), and
clients that reconnect as a browser does.

Every wait is bounded and fails saying what it waited for; nothing asserts on time. Fail-over times
are measured and printed (``pytest -s`` shows them), never asserted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from server_helpers import Client
from server_process import WAIT, Server
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from parlour.games import get_game

LEASE_SECONDS = 1.5
"""The processes' lease: short, so that a paused writer's matches move within the test."""

POLL = 0.05
"""The pause between two looks at a state awaited (not a time awaited)."""

RECONNECT_SECONDS = 2 * WAIT
"""How long a client keeps reconnecting before the test fails (a bound, not a timing)."""

MOVED_CLOSE = 1012
TRY_AGAIN_CLOSE = 1013


def node_server(workdir: Path, name: str, url: str, *flags: str) -> Server:
    """A ``parlour serve`` of the cluster on the PostgreSQL schema ``url`` (not started). ``--db``,
    which ``Server`` may pass too, is unused with ``--store``."""
    return Server(workdir / name, name=name, flags=["--store", url, "--lease-seconds", f"{LEASE_SECONDS:g}",
                                                    *flags])


@contextlib.contextmanager
def running_pair(workdir: Path, url: str, *flags: str) -> Iterator[tuple[Server, Server]]:
    """Processes A and B of one cluster on ``url`` (with ``flags``), stopped after the test."""
    a = node_server(workdir, "a", url, *flags)
    b = node_server(workdir, "b", url, *flags)
    try:
        a.start()
        b.start()
        yield a, b
    finally:
        finish(a)
        finish(b)


def node_of(server: Server) -> str:
    """The node id the process answers its health check with."""
    status, answer = server.call("GET", "/api/health")
    assert (status, answer["ok"]) == (200, True), f"{server.base}/api/health: {status} {answer}"
    return str(answer["node"])


def pause(server: Server) -> None:
    """SIGSTOP: its sockets stay open and nothing answers, as with a hung host."""
    assert server.process is not None
    server.process.send_signal(signal.SIGSTOP)


def resume(server: Server) -> None:
    assert server.process is not None
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGCONT)


def finish(server: Server) -> None:
    """Stops a process whatever its state (a stopped one would not hear SIGTERM)."""
    if server.process is not None and server.process.poll() is None:
        os.kill(server.process.pid, signal.SIGCONT)
    server.stop()


# --- what PostgreSQL says -----------------------------------------------------------------------------


def holder(url: str, match_id: str) -> str | None:
    """The node named by the match's lease row (run out or not), ``None`` without one."""
    with psycopg.connect(url, autocommit=True) as db:
        found = db.execute("SELECT node FROM leases WHERE match_id = %s", (match_id,)).fetchone()
    return None if found is None else str(found[0])


def stored_version(url: str, match_id: str) -> int:
    with psycopg.connect(url, autocommit=True) as db:
        found = db.execute("SELECT version FROM matches WHERE id = %s", (match_id,)).fetchone()
    assert found is not None, f"match {match_id} is not stored"
    return int(found[0])


def stored_events(url: str, match_id: str) -> list[tuple[int, str]]:
    """Every event row of the match, (version, the action in the game's notation), by version: the
    actions are stored as the engine's numbers, read back by replaying them from the set-up."""
    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute("SELECT game, players, options, seed, start FROM matches WHERE id = %s",
                         (match_id,)).fetchone()
        assert row is not None, f"match {match_id} is not stored"
        events = db.execute("SELECT version, action FROM events WHERE match_id = %s ORDER BY version",
                            (match_id,)).fetchall()
    game, players, options, seed, start = row
    state = get_game(game).new(players, json.loads(options), seed, start)
    texts = []
    for version, action in events:
        texts.append((int(version), state.action_to_text(action)))
        state.apply(action)
    return texts


"""The tables the leases are kept in (``nodes``: the processes' rows, which a renewal extends)."""


@contextlib.contextmanager
def leases_locked(url: str) -> Iterator[None]:
    """The nodes table locked against every change (``LOCK TABLE … EXCLUSIVE``; reading it stays
    free) while in the block: every process's renewals and takes (each writes its node's row first)
    wait for it to end; the matches' own writes, which lock only their lease's row (FOR SHARE, the
    store's fence), do not."""
    with psycopg.connect(url) as db:
        db.execute("LOCK TABLE nodes IN EXCLUSIVE MODE")
        yield
        db.rollback()


async def until(what: str, holds: Callable[[], bool], seconds: float = WAIT) -> float:
    """Looks at ``holds`` (in a worker thread: it may ask PostgreSQL) until it is true; the seconds
    that took. Fails the test after ``seconds``."""
    started = time.monotonic()
    while not await asyncio.to_thread(holds):
        if time.monotonic() - started > seconds:
            pytest.fail(f"never {what} (looked for {seconds:g} s)")
        await asyncio.sleep(POLL)
    return time.monotonic() - started


# --- clients ------------------------------------------------------------------------------------------


def acknowledged(seen: list[dict[str, Any]]) -> dict[int, tuple[int | str | None, str]]:
    """The events a connection was sent, by version: (seat, action) from each ``update`` and from
    each ``state``'s event list."""
    events: dict[int, tuple[int | str | None, str]] = {}
    for message in seen:
        listed = [message["event"]] if message["type"] == "update" else message.get("events", []) \
            if message["type"] == "state" else []
        for event in listed:
            known = events.setdefault(event["version"], (event["seat"], event["action"]))
            assert known == (event["seat"], event["action"]), f"version {event['version']} sent twice: " \
                                                              f"{known} and {event}"
    return events


@dataclass
class Seat:
    """One player (or a spectator: ``token`` None) of a match, over however many connections the
    test's reconnecting takes."""

    match_id: str
    label: str
    token: str | None = None
    connections: list[Client] = field(default_factory=list)
    """Every connection it opened, the current one last."""

    @property
    def client(self) -> Client:
        return self.connections[-1]

    def events(self) -> dict[int, tuple[int | str | None, str]]:
        """What all its connections were sent, by version (the same everywhere, or the test fails)."""
        merged: dict[int, tuple[int | str | None, str]] = {}
        for connection in self.connections:
            for version, event in acknowledged(connection.seen).items():
                assert merged.setdefault(version, event) == event, (
                    f"{self.label}: version {version} was {merged[version]}, then {event}")
        return merged

    def hello_message(self) -> dict[str, Any]:
        return {"type": "hello", "token": self.token} if self.token else {"type": "hello", "spectator": True}


@contextlib.asynccontextmanager
async def closing_seats() -> AsyncIterator[list[Seat]]:
    """A list for the test's seats, every connection of each closed after the test."""
    seats: list[Seat] = []
    try:
        yield seats
    finally:
        for seat in seats:
            for client in seat.connections:
                with contextlib.suppress(Exception):
                    await client.close()


async def connect(seat: Seat, server: Server) -> dict[str, Any] | None:
    """One try: a connection to ``server`` and ``hello``; the ``state`` it answers, or ``None`` when
    the server refused for now (``unavailable``, or closed with 1012 / 1013, or not listening)."""
    try:
        client = await Client.open(server.match_ws(seat.match_id), seat.label)
    except (OSError, InvalidHandshake, TimeoutError):
        return None
    seat.connections.append(client)
    try:
        await client.send(seat.hello_message())
        answer: dict[str, Any] = await client.until(
            "state (or a refusal)", lambda m: m["type"] in ("state", "error"))
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd is not None else None
        assert code in (None, MOVED_CLOSE, TRY_AGAIN_CLOSE), f"{seat.label}: closed with {code}"
        return None
    if answer["type"] == "state":
        return answer
    assert answer["code"] == "unavailable", f"{seat.label}: {answer}"
    await client.close()
    return None


async def reconnect(seat: Seat, server: Server) -> tuple[dict[str, Any], float]:
    """Connects ``seat`` to ``server`` again and again (a short pause between tries) until it is
    answered a ``state``: that state, and the seconds it took."""
    started = time.monotonic()
    while True:
        state = await connect(seat, server)
        if state is not None:
            return state, time.monotonic() - started
        if time.monotonic() - started > RECONNECT_SECONDS:
            pytest.fail(f"{seat.label}: not reconnected to {server.base} within {RECONNECT_SECONDS:g} s")
        await asyncio.sleep(POLL)


async def closed_with(client: Client, what: str) -> tuple[int | None, list[dict[str, Any]]]:
    """Reads ``client`` until its server closes it: the close code, and what came before."""
    before = len(client.seen)
    try:
        while True:
            await client.receive(what)
    except ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd is not None else None), client.seen[before:]


async def bounded(work: Awaitable[Any], what: str, seconds: float = WAIT) -> Any:
    try:
        return await asyncio.wait_for(work, seconds)
    except TimeoutError:
        pytest.fail(f"{what}: not within {seconds:g} s")
