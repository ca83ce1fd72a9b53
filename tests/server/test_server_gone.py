"""A seat gone too long, and a match abandoned (issue 14), over real WebSockets on a server whose
time moves only when the test says (``parlour serve --test-clock``): nothing here sleeps.

A seat without a connection for ``gone_minutes`` (10; ``gone_minutes_timed``, 2, with a clock)
may be claimed by the others: with two players the claimer wins ("gone"), with three the seat is
out and play goes on. Claiming too soon, a connected seat or a bot is refused and changes nothing.
A running match no person has touched for ``abandon_hours`` ends as abandoned, its result stored.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from server_helpers import Client, open_client
from server_process import Server, Storage

ASYNC = pytest.mark.asyncio(loop_scope="session")
MINUTE = 60


@pytest.fixture(scope="module")
def clocked(storage: Storage, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = storage.server(tmp_path_factory.mktemp("gone"), flags=["--test-clock"]).start()
    yield running
    running.stop()


def advance(server: Server, seconds: float) -> None:
    status, answer = server.call("POST", "/api/test/clock", {"advance": seconds})
    assert status == 200, answer


async def seated(server: Server, clients: list[Client], game: str, names: list[str],
                 **options: object) -> tuple[str, list[Client]]:
    """A match of ``game`` with a person in every seat, each connected."""
    created = server.create(game=game, players=len(names), seats=["open"] * len(names), join=0, name=names[0],
                            **options)
    match_id = created["match"]["id"]
    tokens = [created["token"], *(server.join(match_id, name=name)["token"] for name in names[1:])]
    players = []
    for seat, token in enumerate(tokens):
        client = await open_client(clients, server, match_id, names[seat])
        await client.hello(token)
        players.append(client)
    return match_id, players


async def goes(leaving: Client, staying: Client, seat: int) -> float:
    """``leaving`` closes its connection; ``staying`` sees the seat go; since when it is away."""
    await leaving.close()
    seats = await staying.seat_connected(seat, False)
    away: float = seats["seats"][seat]["away_since"]
    assert away is not None
    return away


@ASYNC
async def test_a_seat_gone_too_long_is_claimed_and_the_claimer_wins(
    clocked: Server, clients: list[Client]
) -> None:
    match_id, (ann, bob) = await seated(clocked, clients, "loa", ["Ann", "Bob"])
    await ann.seat_connected(1, True)
    await ann.send({"type": "claim"})
    assert "White is connected" in (await ann.error("not_gone"))["message"]
    await goes(bob, ann, 1)
    advance(clocked, 10 * MINUTE - 1)
    await ann.send({"type": "claim"})
    refused = await ann.error("not_gone")
    assert "may be claimed after 10 min" in refused["message"]
    assert clocked.summary(match_id)["status"] == "running"
    advance(clocked, 1)
    await ann.send({"type": "claim"})
    update = await ann.expect("update", version=1)
    assert update["event"] == {"version": 1, "seat": 1, "action": "White was gone too long", "turn": 1,
                               "leaving": {"kind": "retire", "seat": 1, "why": "gone"}}
    assert update["status"] == "over"
    assert update["view"]["outcome"]["winner"] == 0
    assert update["view"]["outcome"]["reason"] == "gone"
    assert clocked.summary(match_id)["result"] == "Black (Ann) wins: the other side was gone too long"


@ASYNC
async def test_clients_are_told_the_server_time_and_how_long_a_seat_may_be_away(
    clocked: Server, clients: list[Client]
) -> None:
    """So that a client shows "away 3 min" and a claim from the server's clock and its limits,
    not from its own machine's time and the default limits."""
    for options, limit in (({}, 10 * MINUTE), ({"clock": {"base": 600}}, 2 * MINUTE)):
        match_id, (ann, bob) = await seated(clocked, clients, "loa", ["Ann", "Bob"], **options)
        state = ann.seen[-1]
        assert state["type"] == "state"
        assert state["gone_seconds"] == limit
        await ann.seat_connected(1, True)
        advance(clocked, 1234)
        now = clocked.call("POST", "/api/test/clock", {"advance": 0})[1]["now"]
        await bob.close()
        seats = await ann.seat_connected(1, False)
        assert seats["now"] == now == seats["seats"][1]["away_since"]  # only the test moves it
        watcher = await open_client(clients, clocked, match_id, "watcher")
        assert (await watcher.hello())["now"] == now


@ASYNC
async def test_a_claim_is_refused_for_a_bot_a_spectator_and_oneself(
    clocked: Server, clients: list[Client]
) -> None:
    created = clocked.create(game="loa", seats=["open", "bot:random"], join=0, name="Ann")
    match_id = created["match"]["id"]
    ann = await open_client(clients, clocked, match_id, "Ann")
    await ann.hello(created["token"])
    advance(clocked, 100 * MINUTE)
    await ann.send({"type": "claim"})
    assert "played by a bot" in (await ann.error("not_gone"))["message"]
    await ann.send({"type": "claim", "seat": 0})
    await ann.error("bad_seat")
    await ann.send({"type": "claim", "seat": 7})
    await ann.error("bad_seat")
    await ann.send({"type": "claim", "seat": "1"})
    await ann.error("bad_message")
    watcher = await open_client(clients, clocked, match_id, "watcher")
    await watcher.hello()
    await watcher.send({"type": "claim"})
    await watcher.error("not_seated")
    assert clocked.summary(match_id)["version"] == 0


@ASYNC
async def test_in_a_timed_match_a_seat_is_gone_after_two_minutes(
    clocked: Server, clients: list[Client]
) -> None:
    match_id, (ann, bob) = await seated(clocked, clients, "loa", ["Ann", "Bob"], clock={"base": 3600})
    await goes(ann, bob, 0)
    advance(clocked, 2 * MINUTE - 1)
    await bob.send({"type": "claim", "seat": 0})
    assert "after 2 min" in (await bob.error("not_gone"))["message"]
    advance(clocked, 1)
    await bob.send({"type": "claim", "seat": 0})
    update = await bob.expect("update", version=1)
    assert update["event"]["action"] == "Black was gone too long"
    assert update["view"]["outcome"]["winner"] == 1
    assert update["clock"]["running"] is None
    assert clocked.summary(match_id)["status"] == "over"


@ASYNC
async def test_with_three_players_the_seat_gone_is_out_and_play_goes_on(
    clocked: Server, clients: list[Client]
) -> None:
    match_id, (ann, bob, cy) = await seated(clocked, clients, "biloba", ["Ann", "Bob", "Cy"])
    await goes(cy, ann, 2)
    await bob.seat_connected(2, False)
    advance(clocked, 10 * MINUTE)
    await bob.send({"type": "claim"})  # every other seat in play: Ann is here, Cy is gone
    for client in (ann, bob):
        update = await client.expect("update", version=1)
        assert update["event"]["seat"] == 2
        assert update["event"]["action"].endswith("was gone too long")
        assert update["status"] == "running"
        out = await client.expect("out", version=1)
        assert out["seat"] == 2
    await bob.send({"type": "claim", "seat": 2})
    await bob.error("not_in_play")
    assert clocked.summary(match_id)["status"] == "running"


@ASYNC
async def test_a_match_nobody_touches_for_a_day_is_abandoned(clocked: Server, clients: list[Client]) -> None:
    match_id, (ann, bob) = await seated(clocked, clients, "loa", ["Ann", "Bob"])
    kept_id, (kept, _) = await seated(clocked, clients, "loa", ["Cy", "Di"])
    watcher = await open_client(clients, clocked, match_id, "watcher")
    await watcher.hello()
    await goes(ann, watcher, 0)
    await goes(bob, watcher, 1)
    advance(clocked, 23 * 3600)
    assert clocked.summary(match_id)["status"] == "running"
    advance(clocked, 3600 + 10 * MINUTE)  # past a day, and the next check
    update = await watcher.expect("update", version=1)
    assert update["event"] == {"version": 1, "seat": None, "action": update["event"]["action"], "turn": 1,
                               "leaving": {"kind": "abandoned", "seat": None, "why": None}}
    assert update["view"]["outcome"]["winner"] is None
    assert update["view"]["outcome"]["reason"] == "abandoned"
    summary = clocked.summary(match_id)
    assert (summary["status"], summary["result"]) == ("over", "Draw: the match was abandoned")
    # A match a person is connected to is touched: it goes on.
    assert clocked.summary(kept_id)["status"] == "running"
    await kept.ping()
