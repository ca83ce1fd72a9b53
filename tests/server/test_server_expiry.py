"""Open matches are bounded and expire (issue 13): one address may have only so many matches
waiting for players (``429 too_many_open``), the server only so many in all (``503
server_full``), and an open match nobody filled within ``open_expiry_hours`` expires: it leaves
the lobby and memory, joining it answers ``410 expired``, and it stays expired after a restart."""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import Client, call, open_client
from server_process import WAIT, Server, Storage

SECOND = 1 / 3600
"""``open_expiry_hours`` for matches that expire after about a second."""


@pytest.fixture
def quick_expiry(storage: Storage, tmp_path: Path) -> Iterator[Server]:
    limits = {"open_expiry_hours": 1.1 * SECOND, "open_per_address": 2}
    running = storage.server(tmp_path, limits=limits).start()
    yield running
    running.stop()


def listed(server: Server, query: str = "all=true") -> set[str]:
    return {entry["id"] for entry in server.call("GET", f"/api/matches?{query}")[1]["matches"]}


def stored_status(server: Server, match_id: str) -> str:
    [(status,)] = server.query("SELECT status FROM matches WHERE id = ?", match_id)
    assert isinstance(status, str)
    return status


def wait_until_gone(server: Server, match_ids: set[str]) -> None:
    deadline = time.monotonic() + WAIT
    while listed(server) & match_ids:
        assert time.monotonic() < deadline, f"{listed(server) & match_ids} still listed after {WAIT} s"
        time.sleep(0.1)


@pytest.mark.asyncio(loop_scope="session")
async def test_an_open_match_nobody_fills_expires(quick_expiry: Server, clients: list[Client]) -> None:
    server = quick_expiry
    empty = server.create(game="loa", seats=["open", "open"])["match"]["id"]
    waiting = server.create(game="loa", seats=["open", "open"], join=0)
    half = waiting["match"]["id"]
    running = server.create(game="loa", seats=["open", "bot:random"], join=0, bot_seconds=5)["match"]["id"]
    # Two open matches are this address's most: a third is refused until one goes.
    status, answer = server.call("POST", "/api/matches", {"game": "loa", "seats": ["open", "open"]})
    assert (status, answer["error"]["code"]) == (429, "too_many_open"), answer
    watcher = await open_client(clients, server, half, "spectator")
    await watcher.hello()

    wait_until_gone(server, {empty, half})
    assert running in listed(server)
    for match_id in (empty, half):
        status, answer = server.call("POST", f"/api/matches/{match_id}/join", {})
        assert (status, answer["error"]["code"]) == (410, "expired"), answer
        assert answer["error"]["message"]
        assert server.summary(match_id)["status"] == "expired"
        assert stored_status(server, match_id) == "expired"
    # The creator still at the table is told, and cannot join the empty seat either.
    await watcher.until("the match expired", lambda m: m.get("status") == "expired")
    late = await open_client(clients, server, half, "late")
    await late.send({"type": "join"})
    await late.error("expired")
    creator = await open_client(clients, server, half, "creator")
    assert (await creator.hello(waiting["token"]))["status"] == "expired"
    await creator.send({"type": "action", "text": "b1-b3", "version": 0})
    await creator.error("expired")
    # Expired matches no longer count against their creator.
    server.create(game="loa", seats=["open", "open"])

    server.stop()
    server.start()
    assert server.summary(empty)["status"] == "expired"
    assert {empty, half}.isdisjoint(listed(server))
    assert server.call("POST", f"/api/matches/{empty}/join", {})[0] == 410


def test_one_address_may_hold_only_so_many_open_matches(storage: Storage, tmp_path: Path) -> None:
    server = storage.server(tmp_path, limits={"open_per_address": 3}).start()
    try:
        made = [server.create(game="loa", seats=["open", "open"])["match"]["id"] for _ in range(3)]
        # Matches with no open seat are no burden: they are not counted.
        server.create(game="loa", seats=["open", "bot:random"], join=0)
        server.create(game="loa", seats=["bot:random", "bot:random"], bot_seconds=0.01)
        before = listed(server)
        body = {"game": "loa", "seats": ["open", "open"], "join": 0}
        status, answer = server.call("POST", "/api/matches", body)
        assert (status, answer["error"]["code"]) == (429, "too_many_open"), answer
        message = answer["error"]["message"]
        assert "3 open matches" in message, message
        assert "expire" in message, message
        assert listed(server) == before  # nothing stored
        # Filling one (its seats taken) frees a place.
        server.join(made[0])
        server.join(made[0])
        server.create(game="loa", seats=["open", "open"])
    finally:
        server.stop()


def test_the_server_holds_only_so_many_open_matches(storage: Storage, tmp_path: Path) -> None:
    server = storage.server(tmp_path, limits={"open_total": 4}).start()
    try:
        for _ in range(4):
            server.create(game="loa", seats=["open", "open"])
        status, answer = server.call("POST", "/api/matches", {"game": "loa", "seats": ["open", "open"]})
        assert (status, answer["error"]["code"]) == (503, "server_full"), answer
        assert "4 open matches" in answer["error"]["message"]
        assert len(listed(server)) == 4
        # A match that needs nobody to join is still welcome.
        server.create(game="loa", seats=["open", "bot:random"], join=0)
    finally:
        server.stop()


def test_creations_at_once_do_not_pass_the_cap_together(storage: Storage, tmp_path: Path) -> None:
    """Twelve creations sent together from one address with room for four: four are made (each
    holds its place while it is stored), the rest refused."""
    server = storage.server(tmp_path, limits={"open_per_address": 4}).start()
    try:
        body = {"game": "loa", "seats": ["open", "open"]}
        with concurrent.futures.ThreadPoolExecutor(12) as pool:
            answers = list(pool.map(lambda _: server.call("POST", "/api/matches", body), range(12)))
        statuses = sorted(status for status, _ in answers)
        assert statuses == [201] * 4 + [429] * 8, answers
        assert len(listed(server)) == 4
    finally:
        server.stop()


def test_matches_of_bots_alone_are_capped_per_address_and_in_all(storage: Storage, tmp_path: Path) -> None:
    """Nobody waits on a match of bots alone, but its bots take the CPUs until it ends: one address
    may keep only so many playing, and the server only so many in all."""
    server = storage.server(tmp_path, limits={"bot_matches_per_address": 2, "bot_matches_total": 3}).start()
    slow = {"game": "loa", "seats": ["bot:strong", "bot:strong"], "bot_seconds": 30}
    try:
        for _ in range(2):
            assert call(server, "POST", "/api/matches", slow)[0] == 201
        status, _, answer = call(server, "POST", "/api/matches", slow)
        assert (status, answer["error"]["code"]) == (429, "too_many_bot_matches"), answer
        assert "2 matches" in answer["error"]["message"], answer
        # A match a person plays in is not one of them; another address has room of its own.
        with_person = {"game": "loa", "seats": ["open", "bot:strong"]}
        assert call(server, "POST", "/api/matches", with_person)[0] == 201
        assert call(server, "POST", "/api/matches", slow, source="127.0.0.2")[0] == 201
        status, _, answer = call(server, "POST", "/api/matches", slow, source="127.0.0.3")
        assert (status, answer["error"]["code"]) == (503, "server_full"), answer
        assert len(listed(server, "status=running")) == 3
    finally:
        server.stop()
