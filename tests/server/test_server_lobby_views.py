"""The lobby's views (issue 15): every summary says when the match last moved (``updated``: "time
since the last move") and how many watch it (``watching``: "the playing now list shows how many
watch"); ``ids=`` lists the matches a browser holds seats of ("my matches"), of any status."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_helpers import Client, call, open_client
from server_process import WAIT, Server, Storage

ASYNC = pytest.mark.asyncio(loop_scope="session")

TEST_CLOCK = ["--test-clock"]


def listed(server: Server, query: str) -> list[dict[str, Any]]:
    status, answer = server.call("GET", "/api/matches?" + query)
    assert status == 200, (query, answer)
    return answer["matches"]  # type: ignore[no-any-return]


def advance(server: Server, seconds: float) -> float:
    status, answer = server.call("POST", "/api/test/clock", {"advance": seconds})
    assert status == 200, answer
    return float(answer["now"])


@pytest.fixture
def clocked(storage: Storage, tmp_path: Any) -> Any:
    running = storage.server(tmp_path, flags=TEST_CLOCK).start()
    yield running
    running.stop()


@ASYNC
async def test_updated_is_the_creation_then_the_server_time_of_the_last_action(
    clocked: Server, clients: list[Client]
) -> None:
    created = clocked.create(game="loa", seats=["open", "open"], join=0, name="Ann")
    match = created["match"]
    assert match["updated"] == match["created"]
    match_id = match["id"]
    clocked.join(match_id, name="Bob")
    assert clocked.summary(match_id)["updated"] == match["created"]  # a seat taken is no move
    moved_at = advance(clocked, 500)
    ann = await open_client(clients, clocked, match_id, "Ann")
    state = await ann.hello(created["token"])
    await ann.send({"type": "action", "text": state["legal"][0]["text"]})
    await ann.expect("update", version=1)
    assert clocked.summary(match_id)["updated"] == moved_at
    advance(clocked, 60)  # time passing without a move changes nothing
    summary = clocked.summary(match_id)
    assert summary["updated"] == moved_at
    assert [m["updated"] for m in listed(clocked, f"ids={match_id}")] == [moved_at]
    # Created on the same clock as the moves (the server's, here the test's), not the machine's.
    later = clocked.create(game="loa", seats=["open", "open"])["match"]
    assert later["created"] == later["updated"] == advance(clocked, 0) == moved_at + 60


@ASYNC
async def test_watching_counts_the_spectators_connections_and_not_the_players(
    server: Server, clients: list[Client]
) -> None:
    created = server.create(game="loa", seats=["open", "open"], join=0, name="Ann")
    match_id = created["match"]["id"]
    assert created["match"]["watching"] == 0
    ann = await open_client(clients, server, match_id, "Ann")
    await ann.hello(created["token"])
    watchers = []
    for number in range(3):
        watcher = await open_client(clients, server, match_id, f"spectator {number}")
        await watcher.hello()
        watchers.append(watcher)
    assert server.summary(match_id)["watching"] == 3
    assert [m["watching"] for m in listed(server, f"ids={match_id}")] == [3]
    # A spectator who joins a seat plays: it watches no more.
    await watchers[0].send({"type": "join", "name": "Bob"})
    await watchers[0].until("joined", lambda message: message["type"] == "joined")
    assert server.summary(match_id)["watching"] == 2
    await watchers[1].close()
    # The server counts a spectator gone once its socket is closed: wait on the summary saying so.
    await until_watching(server, match_id, 1)


async def until_watching(server: Server, match_id: str, count: int) -> None:
    """Waits (bounded) for the summary to say ``count`` watch. A poll, and why: a closed socket
    leaves the server's count when the server has read the close, which no message to any client
    marks (spectators are in no ``seats`` message), so there is no state of the server's to wait on."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while (watching := server.summary(match_id)["watching"]) != count:
        assert loop.time() < deadline, f"watching stayed {watching}, not {count}"
        await asyncio.sleep(0.05)


def test_a_match_not_in_memory_has_no_watchers(own_server: Server) -> None:
    server = own_server
    match_id = server.create(game="loa", seats=["open", "open"])["match"]["id"]
    server.kill()
    server.start()
    summary = server.summary(match_id)
    assert summary["watching"] == 0
    assert summary["updated"] == summary["created"]


def test_ids_lists_those_matches_of_any_status_newest_first(server: Server) -> None:
    first = server.create(game="loa", seats=["open", "open"])["match"]["id"]
    second = server.create(game="biloba", seats=["open", "open"], join=0)["match"]["id"]
    server.join(second)
    bots = server.create(game="tictactoe", seats=["bot:random", "bot:random"], bot_seconds=0.01)
    third = bots["match"]["id"]
    others = server.create(game="loa", seats=["open", "open"])["match"]["id"]
    ids = f"{first},{second},nosuchmatch,{third}"
    assert [m["id"] for m in listed(server, f"ids={ids}")] == [third, second, first]
    assert others not in [m["id"] for m in listed(server, f"ids={ids}")]
    # Combined with a game and a status, as the other filters.
    assert [m["id"] for m in listed(server, f"ids={ids}&game=loa")] == [first]
    assert [m["id"] for m in listed(server, f"ids={ids}&status=open")] == [first]
    assert [m["id"] for m in listed(server, f"ids={ids}&status=open,running&game=biloba")] == [second]
    # No ids: no match of one's own (not every match, as an empty parameter would be).
    assert listed(server, "ids=") == []
    assert listed(server, "ids=,") == []
    # Repeated, as the other parameters may be.
    assert [m["id"] for m in listed(server, f"ids={first}&ids={second}")] == [second, first]


def test_bad_ids_are_refused_and_change_nothing(server: Server) -> None:
    too_many = ",".join(f"m{number}" for number in range(101))
    for query, words in ((f"ids={too_many}", "at most 100"), ("ids=a%20b", "is not a match id"),
                         ("ids=" + "x" * 41, "is not a match id")):
        status, _, answer = call(server, "GET", "/api/matches?" + query)
        assert status == 400, (query, answer)
        assert answer["error"]["code"] == "bad_request"
        assert words in answer["error"]["message"], answer
    # "at most page_size" counts the ids of every ids= parameter together.
    halves = [",".join(f"m{number}" for number in range(start, start + 51)) for start in (0, 51)]
    status, _, answer = call(server, "GET", f"/api/matches?ids={halves[0]}&ids={halves[1]}")
    assert (status, answer["error"]["code"]) == (400, "bad_request")
    assert "at most 100" in answer["error"]["message"]
