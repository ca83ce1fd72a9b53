"""The cluster's faults (issue 17, "Faults it survives"), with the real parts: two ``parlour serve``
processes on one PostgreSQL schema (leases of 1.5 s), clients straight to the writer and relayed
through the other process, and the faults made for real: SIGKILL of the writer (and of the
relaying process), SIGSTOP past the lease (one writer taken over, two writers fenced by the store),
PostgreSQL stopped past the leases' length and started again (a PostgreSQL of these tests' own),
a process started again on a dead one's address.

What is checked against PostgreSQL itself: the ``leases`` row (who writes a match) and the
``events`` rows (every acknowledged action there once, versions 1..N without gap or double).
Fail-over times are printed (``pytest -s``), never asserted; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from cluster_helpers import (
    LEASE_SECONDS,
    MOVED_CLOSE,
    POLL,
    TRY_AGAIN_CLOSE,
    Seat,
    closed_with,
    closing_seats,
    connect,
    finish,
    holder,
    leases_locked,
    node_of,
    node_server,
    pause,
    reconnect,
    resume,
    running_pair,
    stored_events,
    stored_version,
    until,
)
from postgres_server import PostgresServer
from server_helpers import Client, call
from server_process import Server
from websockets.exceptions import ConnectionClosed

ASYNC = pytest.mark.asyncio(loop_scope="session")

pytestmark = pytest.mark.slow


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """A schema of this test's own in the session's PostgreSQL."""
    return postgres.fresh()


@pytest.fixture
def pair(tmp_path: Path, url: str) -> Iterator[tuple[Server, Server]]:
    """Processes A and B of one cluster, on the test's schema."""
    with running_pair(tmp_path, url) as both:
        yield both


@pytest_asyncio.fixture
async def players() -> AsyncIterator[list[Seat]]:
    """The seats a test registers here have every connection closed after it."""
    async with closing_seats() as seats:
        yield seats


def seated(players: list[Seat], match_id: str, label: str, token: str | None = None) -> Seat:
    seat = Seat(match_id, label, token)
    players.append(seat)
    return seat


async def first_state(seat: Seat, server: Server) -> dict[str, Any]:
    state = await connect(seat, server)
    assert state is not None, f"{seat.label}: {server.base} refused the connection"
    return state


async def update(seat: Seat, version: int) -> dict[str, Any]:
    """The ``update`` of ``version`` on the seat's connection (whatever comes before it)."""
    message: dict[str, Any] = await seat.client.until(
        f"update {version}", lambda m: m["type"] == "update" and m["version"] == version)
    return message


async def play(seat: Seat, seen: dict[str, Any], choice: int = 0) -> dict[str, Any]:
    """Plays the ``choice``-th legal action of the ``state`` or ``update`` ``seen`` at its version;
    the ``update`` that acknowledges it."""
    version = seen["version"]
    assert seen["legal"], f"{seat.label}: not to move at version {version}: {seen}"
    text = seen["legal"][choice]["text"]
    await seat.client.send({"type": "action", "text": text, "version": version})
    answer: dict[str, Any] = await seat.client.until(
        f"the update of {text} (version {version + 1})",
        lambda m: m["type"] == "error" or (m["type"] == "update" and m["version"] == version + 1))
    assert answer["type"] == "update", f"{seat.label}: {text} at version {version} refused: {answer}"
    assert answer["event"]["action"] == text, answer
    return answer


def all_stored_once(url: str, match_id: str, *seats: Seat) -> list[tuple[int, str]]:
    """'no acknowledged action is lost or duplicated': the match's ``events`` rows are versions 1..N,
    each the action every client was sent for that version, and the clients were sent them all."""
    stored = stored_events(url, match_id)
    versions = [version for version, _ in stored]
    assert versions == list(range(1, len(stored) + 1)), f"match {match_id}: stored versions {versions}"
    sent: dict[int, str] = {}
    for seat in seats:
        for version, (_, action) in seat.events().items():
            assert sent.setdefault(version, action) == action, (
                f"{seat.label} was sent {action} for version {version}, another client {sent[version]}")
    assert sent == dict(stored), f"match {match_id}: clients were sent {sorted(sent.items())}, " \
                                 f"PostgreSQL holds {stored}"
    return stored


def seconds_since(moment: float) -> float:
    return time.monotonic() - moment


# --- relaying ------------------------------------------------------------------------------------------


@ASYNC
async def test_a_match_written_by_one_process_is_served_through_the_other(
    url: str, pair: tuple[Server, Server], players: list[Seat],
) -> None:
    """'Any process accepts any connection; actions sent to another process reach the writer': a
    match A writes, asked for, joined, played and talked in through B, is the one A writes."""
    a, b = pair
    a_node, b_node = node_of(a), node_of(b)
    assert a_node != b_node
    created = a.create(game="loa", seats=["open", "bot:random"], bot_seconds=0.01, join=0, name="Ann")
    match_id = created["match"]["id"]
    assert holder(url, match_id) == a_node, "the process that made the match writes it"
    status, through_b = b.call("GET", f"/api/matches/{match_id}")
    assert status == 200, through_b
    assert through_b == a.call("GET", f"/api/matches/{match_id}")[1]

    opened = a.create(game="loa", seats=["open", "open"], join=0, name="Cas")
    open_id = opened["match"]["id"]
    joined = b.join(open_id, name="Dora")
    assert (joined["seat"], joined["match"]["status"]) == (1, "running"), joined
    shown = a.summary(open_id)
    assert (shown["status"], shown["seats"][1]["player"]) == ("running", "Dora"), shown
    assert holder(url, open_id) == a_node, "B passed the join to A, which still writes the match"

    watcher = seated(players, match_id, "spectator on A")
    await first_state(watcher, a)
    ann = seated(players, match_id, "Ann through B", created["token"])
    seen = await first_state(ann, b)
    assert (seen["version"], seen["seat"]) == (0, 0), seen
    for ply in range(3):
        mine = await play(ann, seen)
        assert mine["event"]["seat"] == 0
        seen = await update(ann, 2 * ply + 2)
        assert seen["event"]["seat"] == 1, f"the bot answers (from A): {seen}"
    await update(watcher, 6)
    assert sorted(ann.events()) == list(range(1, 7)), "versions without gap through the relay"
    assert watcher.events() == ann.events(), "A's own connection saw the moves made through B"
    assert holder(url, match_id) == a_node
    all_stored_once(url, match_id, ann, watcher)

    cas = seated(players, open_id, "Cas on A", opened["token"])
    dora = seated(players, open_id, "Dora through B", joined["token"])
    cas_seen = await first_state(cas, a)
    await first_state(dora, b)
    await dora.client.send({"type": "chat", "text": "hello from B"})
    said = await cas.client.until("Dora's chat", lambda m: m["type"] == "chat")
    assert (said["text"], said["seat"], said["name"]) == ("hello from B", 1, "Dora"), said
    await play(cas, cas_seen)
    dora_seen = await update(dora, 1)
    dora_move = await play(dora, dora_seen)
    cas_seen = await update(cas, 2)
    assert cas_seen["event"] == dora_move["event"], "Cas on A saw Dora's move made through B"

    # The relaying process dies: A sees Dora's seat go, and she comes back straight to A.
    b.kill()
    await cas.client.seat_connected(1, False)
    code, _ = await closed_with(dora.client, "Dora's connection through the killed B")
    assert code is None, f"a killed process sends no close frame, yet {code} came"
    dora_seen, _ = await reconnect(dora, a)
    await cas.client.seat_connected(1, True)
    assert dora_seen["version"] == 2, dora_seen
    await play(cas, cas_seen)
    await play(dora, await update(dora, 3))
    await update(cas, 4)
    assert holder(url, open_id) == a_node
    all_stored_once(url, open_id, cas, dora)


# --- a writer killed, a writer paused -------------------------------------------------------------------


@ASYNC
async def test_a_killed_writer_s_matches_go_on_through_the_other_process(
    url: str, pair: tuple[Server, Server], players: list[Seat],
) -> None:
    """'SIGKILL of one of two server processes in the middle of play: its matches resume on the
    other within 5 s, the browser reconnects by itself, no acknowledged action is lost or
    duplicated, bots resume.' Clients straight to A and relayed through B; A killed while a bot
    of its thinks; every client reconnects to B."""
    a, b = pair
    b_node = node_of(b)
    bot_match = a.create(game="loa", seats=["open", "bot:strong"], bot_seconds=1.0, join=0, name="Ann")
    bot_id = bot_match["match"]["id"]
    duel = a.create(game="loa", seats=["open", "open"], join=0, name="Cas")
    duel_id = duel["match"]["id"]
    dora_seat = b.join(duel_id, name="Dora")
    waiting_id = a.create(game="loa", seats=["open", "open"], join=0, name="Eve")["match"]["id"]
    ann = seated(players, bot_id, "Ann on A", bot_match["token"])
    watcher = seated(players, bot_id, "spectator through B")
    cas = seated(players, duel_id, "Cas on A", duel["token"])
    dora = seated(players, duel_id, "Dora through B", dora_seat["token"])
    ann_seen = await first_state(ann, a)
    await first_state(watcher, b)
    cas_seen = await first_state(cas, a)
    await first_state(dora, b)

    await play(cas, cas_seen)
    await play(dora, await update(dora, 1))
    await play(cas, await update(cas, 2))
    dora_seen = await update(dora, 3)
    await play(ann, ann_seen)
    await play(ann, await update(ann, 2))  # the strong bot now thinks for a second
    await update(watcher, 3)
    in_flight = dora_seen["legal"][0]["text"]
    await dora.client.send({"type": "action", "text": in_flight, "version": 3})  # its answer never comes

    a.kill()
    killed = time.monotonic()
    assert stored_version(url, bot_id) == 3, "the bot moved before the kill: 'bots resume' is not tested"
    for relayed in (watcher, dora):
        code, _ = await closed_with(relayed.client, "B closing the relayed connection of a dead writer")
        assert code == TRY_AGAIN_CLOSE, f"{relayed.label}: closed with {code}"
    refusals = await joined_through(b, waiting_id)
    print(f"\nSIGKILL fail-over: a join through B answered {refusals or 'nothing'} first, then joined,"
          f" {seconds_since(killed):.2f} s after the kill")
    states = {}
    for seat in (ann, watcher, cas, dora):
        states[seat.label], tries_took = await reconnect(seat, b)
        print(f"\nSIGKILL fail-over: {seat.label} has its match from B {seconds_since(killed):.2f} s after"
              f" the kill (reconnecting took {tries_took:.2f} s)")
        assert states[seat.label]["status"] == "running", states[seat.label]
    assert (holder(url, bot_id), holder(url, duel_id)) == (b_node, b_node)

    ann_seen = states[ann.label]
    if ann_seen["version"] == 3:  # the bot's move comes from B
        ann_seen = await update(ann, 4)
    print(f"bots resume: the bot's move on B {seconds_since(killed):.2f} s after the kill")
    assert (ann_seen["version"], ann_seen["view"]["to_move"]) == (4, 0), ann_seen
    assert ann.events()[4][0] == 1, "version 4 is the bot's"
    await play(ann, ann_seen)
    await update(ann, 6)
    await update(watcher, 6)

    # The move in flight at the kill was stored once or not at all: the state says which.
    dora_seen = states[dora.label]
    print(f"Dora's move in flight at the kill: {'stored' if dora_seen['version'] == 4 else 'not stored'}")
    if dora_seen["version"] == 3:
        await play(dora, dora_seen)
    assert dora_seen["events"][3:] in ([], [{"version": 4, "seat": 1, "action": in_flight}]), dora_seen
    await play(cas, await seen_version(cas, b, 4))
    await update(dora, 5)

    all_stored_once(url, bot_id, ann, watcher)
    all_stored_once(url, duel_id, cas, dora)


async def joined_through(server: Server, match_id: str) -> list[str]:
    """Asks ``server`` to join seat 1 of ``match_id`` until it does (a refusal must say to try
    again: 503 ``unavailable`` with ``Retry-After``); the refusals' words."""
    refusals: list[str] = []
    while len(refusals) < 100:
        status, headers, answer = call(server, "POST", f"/api/matches/{match_id}/join", {"name": "Fay"})
        if status == 200:
            assert answer["seat"] == 1, answer
            return refusals
        assert (status, answer["error"]["code"]) == (503, "unavailable"), answer
        assert "retry-after" in headers, headers
        refusals.append(answer["error"]["message"])
        await asyncio.sleep(POLL)
    pytest.fail(f"joining {match_id} through {server.base} refused 100 times: {refusals[-1]}")


@ASYNC
async def test_a_paused_writer_s_match_is_taken_over_when_its_lease_runs_out(
    url: str, pair: tuple[Server, Server], players: list[Seat],
) -> None:
    """A writer that stops answering without dying (SIGSTOP: connections to it hang, nothing
    refuses them) keeps its match only until its lease runs out: then B takes it over, and a client
    that reconnects through B plays on, against B's bot."""
    a, b = pair
    b_node = node_of(b)
    created = a.create(game="loa", seats=["open", "bot:random"], bot_seconds=0.01, join=0, name="Ann")
    match_id = created["match"]["id"]
    ann = seated(players, match_id, "Ann on A", created["token"])
    await play(ann, await first_state(ann, a))
    await update(ann, 2)

    pause(a)
    paused = time.monotonic()
    took = await until("B held the lease of the paused writer's match",
                       lambda: holder(url, match_id) == b_node)
    print(f"\nSIGSTOP fail-over: B holds the lease {took:.2f} s after the pause (lease {LEASE_SECONDS:g} s)")
    again = seated(players, match_id, "Ann through B", created["token"])
    state, _ = await reconnect(again, b)
    print(f"SIGSTOP fail-over: Ann has her match from B {seconds_since(paused):.2f} s after the pause")
    assert state["version"] == 2, state
    await play(again, state)
    assert (await update(again, 4))["event"]["seat"] == 1, "B's bot answers"
    a.kill()  # SIGKILL ends a stopped process too
    all_stored_once(url, match_id, ann, again)


@ASYNC
async def test_a_client_relayed_to_a_paused_writer_is_sent_on_once_its_match_is_taken_over(
    url: str, pair: tuple[Server, Server], players: list[Seat],
) -> None:
    """'The browser reconnects by itself' when its connection closes; nothing else makes it (its
    pings are never checked for an answer: parlour/web/js/net.js). A spectator relayed through B to
    A: A is paused (SIGSTOP) and B takes the match over; B, now its writer, is to close the
    connection it relays to the paused A (1012, the match moved, or 1013), so that the client
    reconnects and watches the match go on; otherwise it waits on the hung A for as long as A hangs."""
    a, b = pair
    b_node = node_of(b)
    created = a.create(game="loa", seats=["open", "bot:random"], bot_seconds=0.01, join=0, name="Ann")
    match_id = created["match"]["id"]
    watcher = seated(players, match_id, "spectator through B")
    await first_state(watcher, b)

    pause(a)
    try:
        await until("B held the lease of the paused writer's match", lambda: holder(url, match_id) == b_node)
        held = time.monotonic()
        code, _ = await closed_with(watcher.client, "B closing its relay to the paused writer of a match"
                                                    " it holds")
        print(f"\nthe relay to the paused writer closed with {code} {seconds_since(held):.2f} s after B"
              " took over")
        assert code in (MOVED_CLOSE, TRY_AGAIN_CLOSE), f"closed with {code}"
        state, _ = await reconnect(watcher, b)
        assert state["version"] == 0, state
    finally:
        a.kill()


async def two_moves_in(
    players: list[Seat], a: Server, bob_on: Server, bob_label: str,
) -> tuple[dict[str, Any], Seat, Seat, dict[str, Any]]:
    """A duel made on A, Ann connected to A and Bob joined and connected through ``bob_on``, each
    having played once: the creation, Ann, Bob, and what Ann was sent at version 2."""
    created = a.create(game="loa", seats=["open", "open"], join=0, name="Ann")
    match_id = created["match"]["id"]
    bob_seat = bob_on.join(match_id, name="Bob")
    ann = seated(players, match_id, "Ann on A", created["token"])
    bob = seated(players, match_id, bob_label, bob_seat["token"])
    ann_seen = await first_state(ann, a)
    await first_state(bob, bob_on)
    await play(ann, ann_seen)
    await play(bob, await update(bob, 1))
    return created, ann, bob, await update(ann, 2)


@ASYNC
@pytest.mark.parametrize("order", ["as it comes", "the commit first"])
async def test_two_writers_of_one_match_commit_one_action_per_version(
    url: str, pair: tuple[Server, Server], players: list[Seat], order: str,
) -> None:
    """'Two processes both believing they own a match (lease expired under a paused process):
    exactly one commit per version, proven by a test that pauses a process (SIGSTOP) past its
    lease.' A is paused; B takes the match and commits version v+1; A, woken with a different move
    for version v in its socket, cannot commit it: it answers no update for it, closes its
    connection (1012) and lets the match go. Woken, A either renews first (and hears the match is
    no longer its) or tries the commit first: ``the commit first`` holds A's renewal back (the
    leases table locked in PostgreSQL) until A has answered, so that its commit meets the store's
    expected-version check, the fence itself."""
    a, b = pair
    b_node = node_of(b)
    created, ann, bob, ann_seen = await two_moves_in(players, a, a, "Bob on A")
    match_id = created["match"]["id"]
    version = 2

    pause(a)
    await until("B held the lease of the paused writer's match", lambda: holder(url, match_id) == b_node)
    tab = seated(players, match_id, "Ann's second tab, through B", created["token"])
    state, _ = await reconnect(tab, b)
    assert (state["version"], state["legal"]) == (version, ann_seen["legal"]), state
    b_move = state["legal"][0]["text"]
    a_move = state["legal"][1]["text"]
    await play(tab, state, 0)
    await ann.client.send({"type": "action", "text": a_move, "version": version})  # waits in A's socket
    if order == "the commit first":
        with leases_locked(url):
            resume(a)
            fenced = await ann.client.until("A's answer to its move",
                                            lambda m: m["type"] in ("error", "update"))
        assert (fenced["type"], fenced.get("code")) == ("error", "unavailable"), fenced
        assert "moved to another server process" in fenced["message"], fenced
    else:
        resume(a)
    code, after = await closed_with(ann.client, "A's answer to its fenced move, then its close")
    answered = [message for message in ann.client.seen if message["type"] == "error"]
    said = [line.split(" parlour.server ")[-1] for line in a.log.read_text(errors="replace").splitlines()
            if match_id in line and ("letting it go" in line or "lease was lost" in line)]
    print(f"\n{order}: the fenced writer answered Ann's first tab "
          f"{[m['message'] for m in answered] or 'nothing'}, then closed it with {code}; its log: {said}")
    assert not [message for message in ann.client.seen if message["type"] == "update"
                and message["version"] > version], f"A sent an update after B took the match: {after}"
    assert all(message["code"] == "unavailable" for message in answered), answered
    assert code == MOVED_CLOSE, f"A closed Ann's first tab with {code}, not {MOVED_CLOSE}: {after}"
    bob_code, _ = await closed_with(bob.client, "A closing Bob's connection: the match moved")
    assert bob_code == MOVED_CLOSE

    stored = stored_events(url, match_id)
    assert [stored_version for stored_version, _ in stored] == [1, 2, 3], stored
    assert stored[2][1] == b_move, f"version 3 is B's move {b_move}, not {stored[2][1]} (A's was {a_move})"
    state, _ = await reconnect(ann, b)
    assert (state["version"], state["events"][-1]["action"]) == (3, b_move), state
    assert holder(url, match_id) == b_node, "A, woken, did not take the match back"
    all_stored_once(url, match_id, ann, tab)


# --- PostgreSQL restarted --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL of these tests' own: stopping the session's would fail the other tests' stores."""
    running = PostgresServer().start()
    try:
        yield running
    finally:
        running.stop()


async def played_once_back(seat: Seat, server: Server, text: str, version: int) -> dict[str, Any]:
    """Plays ``text`` at ``version`` until it is accepted: while the store is away it is refused
    (``unavailable``), and a connection closed meanwhile (the match moved) is opened again; the
    message that shows it played."""
    started = time.monotonic()
    while seconds_since(started) < 60:
        try:
            await seat.client.send({"type": "action", "text": text, "version": version})
            answer: dict[str, Any] = await seat.client.until(
                f"the update of {text}",
                lambda m: m["type"] == "error" or (m["type"] == "update" and m["version"] == version + 1))
        except ConnectionClosed:  # its match moved to the other process
            answer, _ = await reconnect(seat, server)
            if answer["version"] == version + 1:
                assert answer["events"][-1]["action"] == text, answer
                return answer
            assert answer["version"] == version, answer
            continue
        if answer["type"] == "update":
            assert answer["event"]["action"] == text, answer
            return answer
        assert answer["code"] == "unavailable", answer
        await asyncio.sleep(POLL)
    pytest.fail(f"{seat.label}: {text} still refused a minute after PostgreSQL came back")


@ASYNC
async def test_actions_while_postgresql_restarts_are_refused_and_play_goes_on(
    tmp_path: Path, own_postgres: PostgresServer, players: list[Seat],
) -> None:
    """'PostgreSQL restarted: actions during the outage are refused with a clear unavailable error
    and the match is unchanged; play continues when it is back', in a cluster of two."""
    url = own_postgres.fresh()
    a = node_server(tmp_path, "a", url)
    b = node_server(tmp_path, "b", url)
    try:
        a.start()
        b.start()
        created, ann, bob, ann_seen = await two_moves_in(players, a, b, "Bob through B")
        match_id = created["match"]["id"]

        renewals = failed_renewals(a)
        own_postgres.halt()
        stopped = time.monotonic()
        text = ann_seen["legal"][0]["text"]
        await ann.client.send({"type": "action", "text": text, "version": 2})
        refused = await ann.client.until("the refusal", lambda m: m["type"] in ("error", "update"))
        assert (refused["type"], refused.get("code")) == ("error", "unavailable"), refused
        print(f"\nwhile PostgreSQL is down: {refused['message']!r}")
        # Down past the leases' length: both processes' leases run out meanwhile (A's renewals
        # fail, a third of a lease apart), so that its coming back also settles who writes the match.
        await until("A failed to renew its leases 4 times", lambda: failed_renewals(a) >= renewals + 4)
        await ann.client.ping()  # nothing came before the pong: no update
        await bob.client.ping()
        assert a.summary(match_id)["version"] == 2
        assert not [m for m in [*ann.client.seen, *bob.client.seen] if m["type"] == "update"
                    and m["version"] > 2]

        own_postgres.start()
        print(f"PostgreSQL back {seconds_since(stopped):.2f} s after it stopped")
        back = time.monotonic()
        await played_once_back(ann, a, text, 2)
        print(f"Ann's move accepted {seconds_since(back):.2f} s after PostgreSQL was back")
        bob_seen = await seen_version(bob, b, 3)
        await played_once_back(bob, b, bob_seen["legal"][0]["text"], 3)
        await seen_version(ann, a, 4)
        all_stored_once(url, match_id, ann, bob)
    finally:
        finish(a)
        finish(b)


def failed_renewals(server: Server) -> int:
    return server.log.read_text(errors="replace").count("renewing leases:")


@contextlib.contextmanager
def stopped_for_a_while(postgres: PostgresServer) -> Iterator[None]:
    """PostgreSQL stopped in the block, started again (on the same port) after it, whatever happens."""
    postgres.halt()
    try:
        yield
    finally:
        postgres.start()


@ASYNC
async def test_a_client_reconnecting_while_postgresql_is_down_is_told_to_try_again(
    tmp_path: Path, own_postgres: PostgresServer, players: list[Seat],
) -> None:
    """'The browser reconnects by itself': it gives up only when told the match does not exist
    (close code 4404, parlour/web/js/net.js). A connection that reaches a process which must read
    the match from the store while PostgreSQL is down (B, which does not hold it) is to be told to
    try again (``unavailable``, close 1013), not that there is no such match; once PostgreSQL is
    back the client's next try has its match."""
    url = own_postgres.fresh()
    a = node_server(tmp_path, "a", url)
    b = node_server(tmp_path, "b", url)
    try:
        a.start()
        b.start()
        created = a.create(game="loa", seats=["open", "bot:random"], bot_seconds=0.01, join=0, name="Ann")
        match_id = created["match"]["id"]
        watcher = seated(players, match_id, "spectator through B")
        with stopped_for_a_while(own_postgres):
            client = await Client.open(b.match_ws(match_id), watcher.label)
            watcher.connections.append(client)
            with contextlib.suppress(ConnectionClosed):  # B may answer and close before the hello
                await client.send(watcher.hello_message())
            code, said = await closed_with(client, "B's answer while PostgreSQL is down")
            status, shown = b.call("GET", f"/api/matches/{match_id}")
            print(f"\nPostgreSQL down: a WebSocket through B is answered {said} and closed with {code};"
                  f" GET /api/matches/ID through B answers {status} {shown}")
        assert [message.get("code") for message in said] == ["unavailable"], said
        assert code == TRY_AGAIN_CLOSE, f"closed with {code}: the browser stops reconnecting on 4404"
        state, _ = await reconnect(watcher, b)
        assert (state["version"], state["seat"]) == (0, None), state
    finally:
        finish(a)
        finish(b)


async def seen_version(seat: Seat, server: Server, version: int) -> dict[str, Any]:
    """The message that shows ``seat`` the match at ``version``: its update, or, when its
    connection was closed because the match moved, the state it reconnects to."""
    for message in seat.client.seen:
        if message["type"] in ("update", "state") and message["version"] == version:
            return message
    try:
        return await update(seat, version)
    except ConnectionClosed:  # the match moved
        state, _ = await reconnect(seat, server)
        assert state["version"] == version, state
        return state


# --- a process started again -----------------------------------------------------------------------------


@ASYNC
async def test_a_process_started_again_on_a_dead_one_s_address_takes_over_its_matches(
    tmp_path: Path, url: str, players: list[Seat],
) -> None:
    """A process started on the address of one that was killed (a new node: it inherits no lease)
    takes over the dead one's match, and its bot plays on."""
    a = node_server(tmp_path, "a", url)
    try:
        a.start()
        old_node = node_of(a)
        created = a.create(game="loa", seats=["open", "bot:random"], bot_seconds=0.01, join=0, name="Ann")
        match_id = created["match"]["id"]
        ann = seated(players, match_id, "Ann", created["token"])
        await play(ann, await first_state(ann, a))
        await update(ann, 2)

        a.kill()
        killed = time.monotonic()
        a.flags += ["--port", a.base.rsplit(":", 1)[1]]  # the last --port counts: the dead one's
        a.start()
        print(f"\nrestarted on {a.base} {seconds_since(killed):.2f} s after the kill")
        new_node = node_of(a)
        assert new_node != old_node
        state, took = await reconnect(ann, a)
        print(f"Ann has her match from the new process {seconds_since(killed):.2f} s after the kill"
              f" (reconnecting took {took:.2f} s; lease {LEASE_SECONDS:g} s)")
        assert state["version"] == 2, state
        assert holder(url, match_id) == new_node
        await play(ann, state)
        assert (await update(ann, 4))["event"]["seat"] == 1, "the new process's bot answers"
        all_stored_once(url, match_id, ann)
    finally:
        finish(a)


LONG_LEASE = "30"
"""A lease that cannot run out during the test: whatever takes a match over did not wait for it."""


@ASYNC
@pytest.mark.parametrize("reached", ["the new process", "the other process"])
async def test_a_dead_writer_s_address_answering_as_another_node_hands_its_matches_over_at_once(
    tmp_path: Path, url: str, players: list[Seat], reached: str,
) -> None:
    """'A writer known to be gone (its address refuses connections, or answers as another node)
    has its leases run out at once' (the lead's design, common17b.md): A is killed and a new process
    started on its address (a new node); a client reaching that new process, or B, which relays to
    the dead writer's address, has the match at its first try, not after the dead writer's lease
    (made too long to run out here) has run out."""
    a = node_server(tmp_path, "a", url, "--lease-seconds", LONG_LEASE)
    b = node_server(tmp_path, "b", url, "--lease-seconds", LONG_LEASE)
    try:
        a.start()
        if reached == "the other process":
            b.start()
        old_node = node_of(a)
        created = a.create(game="loa", seats=["open", "bot:random"], bot_seconds=0.01, join=0, name="Ann")
        match_id = created["match"]["id"]
        ann = seated(players, match_id, "Ann", created["token"])
        await play(ann, await first_state(ann, a))
        await update(ann, 2)

        a.kill()
        a.flags += ["--port", a.base.rsplit(":", 1)[1]]  # the last --port counts: the dead one's
        a.start()
        assert node_of(a) != old_node
        assert holder(url, match_id) == old_node
        state = await connect(ann, a if reached == "the new process" else b)
        refused = [message for message in ann.client.seen if message["type"] == "error"]
        assert state is not None, (
            f"{reached} answered {refused} to the first try: the dead node's lease, at an address that "
            f"answers as another node, was not run out (the match waits out its {LONG_LEASE} s lease)")
        assert state["version"] == 2, state
        assert holder(url, match_id) in (node_of(a), node_of(b) if b.process is not None else None)
    finally:
        finish(a)
        finish(b)
