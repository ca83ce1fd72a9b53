"""Draw offers over real WebSockets (issue 14): an offer is shown to every connection, lapses when
its maker moves, can be declined (and then not made again before the maker's next move) or
accepted (the engine's agreed draw, stored: a draw with reason "agreed"). With three players it
is "end the game here": it passes when every seat still in play agrees. Bots take no draws.
Every refusal has its code and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import Client, open_client
from server_process import Server

ASYNC = pytest.mark.asyncio(loop_scope="session")

DRAW: dict[str, Any] = {"what": "draw"}


def latest(client: Client) -> dict[str, Any]:
    """The latest ``state`` or ``update`` the client was sent."""
    return next(message for message in reversed(client.seen) if message["type"] in ("state", "update"))


async def seated(server: Server, clients: list[Client], game: str, players: int) -> tuple[str, list[Client]]:
    """A match of ``players`` people (Ann, Bob, Cy, …), every one connected; it is running."""
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    created = server.create(game=game, players=players, seats=["open"] * players, join=0, name=names[0])
    match_id = created["match"]["id"]
    tokens = [created["token"], *(server.join(match_id, name=name)["token"] for name in names[1:])]
    connected = []
    for seat, token in enumerate(tokens):
        client = await open_client(clients, server, match_id, names[seat])
        await client.hello(token)
        connected.append(client)
    return match_id, connected


async def everyone_hears(clients: list[Client], change: str, seat: int) -> list[dict[str, Any]]:
    """The ``offers`` message every client is sent for one change of the draw offer."""
    heard = []
    for client in clients:
        message = await client.expect("offers")
        assert message["news"]["what"] == "draw"
        assert message["news"]["change"] == change, (client.label, message)
        assert message["news"]["seat"] == seat
        assert message["news"]["words"]
        heard.append(message)
    return heard


async def play(mover: Client, others: list[Client]) -> dict[str, Any]:
    before = latest(mover)
    await mover.send({"type": "action", "text": before["legal"][0]["text"], "version": before["version"]})
    for client in [mover, *others]:
        update = await client.expect("update", version=before["version"] + 1)
    return update


@ASYNC
async def test_an_offer_lapses_when_its_maker_moves(server: Server, clients: list[Client]) -> None:
    match_id, (ann, bob) = await seated(server, clients, "loa", 2)
    watcher = await open_client(clients, server, match_id, "spectator")
    await watcher.hello()
    await ann.send({"type": "offer", **DRAW})
    for message in await everyone_hears([ann, bob, watcher], "made", 0):
        assert message["offers"] == [{"what": "draw", "by": 0, "agreed": [0], "waiting": [1]}]
        assert message["news"]["words"] == "Black offers a draw"
    # A client that comes now sees the offer in its state.
    late = await open_client(clients, server, match_id, "late spectator")
    assert (await late.hello())["offers"] == [{"what": "draw", "by": 0, "agreed": [0], "waiting": [1]}]
    await play(ann, [bob, watcher, late])  # Ann plays on: her offer lapses
    for message in await everyone_hears([ann, bob, watcher, late], "lapsed", 0):
        assert message["offers"] == []
        assert message["news"]["words"] == "The draw offer lapsed: Black moved"
    await bob.send({"type": "accept", **DRAW})
    await bob.error("no_offer")
    assert server.summary(match_id)["status"] == "running"
    assert server.summary(match_id)["version"] == 1


@ASYNC
async def test_a_declined_offer_is_not_made_again_before_the_next_move(
    server: Server, clients: list[Client]
) -> None:
    match_id, (ann, bob) = await seated(server, clients, "loa", 2)
    await bob.send({"type": "offer", **DRAW})  # not Bob's turn: an offer may come at any time
    await everyone_hears([ann, bob], "made", 1)
    await bob.send({"type": "offer", **DRAW})
    await bob.error("already_offered")
    await bob.send({"type": "accept", **DRAW})  # his own offer
    await bob.error("already_offered")
    await ann.send({"type": "decline", **DRAW})
    for message in await everyone_hears([ann, bob], "declined", 0):
        assert message["offers"] == []
        assert message["declined"] == [1]
        assert message["news"]["words"] == "Black declines the draw"
    await ann.send({"type": "decline", **DRAW})
    await ann.error("no_offer")
    await bob.send({"type": "offer", **DRAW})
    await bob.error("offer_declined")
    # A page loaded now knows Bob may not offer yet.
    again = await open_client(clients, server, match_id, "a page loaded after the decline")
    assert (await again.hello())["declined"] == [1]
    await play(ann, [bob, again])
    await play(bob, [ann, again])  # Bob has moved since: he may offer again, and withdraw it
    reloaded = await open_client(clients, server, match_id, "after Bob's move")
    assert (await reloaded.hello())["declined"] == []
    await bob.send({"type": "offer", **DRAW})
    for message in await everyone_hears([ann, bob], "made", 1):
        assert message["declined"] == []
    await bob.send({"type": "decline", **DRAW})
    for message in await everyone_hears([ann, bob], "withdrawn", 1):
        assert message["declined"] == [1]
    # Offering and withdrawing in a loop would pester Ann: not again before Bob's next move.
    await bob.send({"type": "offer", **DRAW})
    await bob.error("offer_declined")
    assert latest(ann)["status"] == "running"
    assert server.summary(match_id)["version"] == 2


@ASYNC
async def test_an_accepted_draw_ends_the_match_and_is_stored(
    own_server: Server, clients: list[Client]
) -> None:
    server = own_server
    match_id, (ann, bob) = await seated(server, clients, "loa", 2)
    await play(ann, [bob])
    await ann.send({"type": "offer", **DRAW})
    await everyone_hears([ann, bob], "made", 0)
    await bob.send({"type": "offer", **DRAW})  # both offered: as good as accepted
    for client in (ann, bob):
        update = await client.expect("update", version=2)
        assert update["event"] == {"version": 2, "seat": None, "action": "draw agreed", "turn": 1,
                                   "leaving": {"kind": "agreed", "seat": None, "why": None}}
        assert update["status"] == "over"
        assert update["view"]["outcome"] == {"winner": None, "reason": "agreed", "scores": [],
                                             "words": "agreed at the table"}
        assert update["legal"] == []
    for message in await everyone_hears([ann, bob], "accepted", 1):
        assert message["offers"] == []
    assert server.summary(match_id)["result"] == "Draw: agreed at the table"
    await ann.send({"type": "offer", **DRAW})
    await ann.error("game_over")
    server.kill()
    server.start()
    summary = server.summary(match_id)
    assert summary["status"] == "over"
    assert summary["outcome"]["reason"] == "agreed"
    watcher = await open_client(clients, server, match_id, "after the restart")
    state = await watcher.hello()
    assert state["events"][-1] == {"version": 2, "seat": None, "action": "draw agreed", "turn": 1,
                                   "leaving": {"kind": "agreed", "seat": None, "why": None}}
    assert state["offers"] == []


@ASYNC
async def test_a_pending_offer_is_forgotten_by_a_restart(own_server: Server, clients: list[Client]) -> None:
    server = own_server
    created = server.create(game="tictactoe", seats=["open", "open"], join=0, name="Ann")
    match_id = created["match"]["id"]
    bob_token = server.join(match_id, name="Bob")["token"]
    ann = await open_client(clients, server, match_id, "Ann")
    await ann.hello(created["token"])
    await ann.send({"type": "offer", **DRAW})
    await ann.expect("offers")
    server.kill()
    server.start()
    bob = await open_client(clients, server, match_id, "Bob after the restart")
    state = await bob.hello(bob_token)
    assert state["offers"] == []
    assert state["status"] == "running"
    await bob.send({"type": "accept", **DRAW})
    await bob.error("no_offer")


@ASYNC
async def test_who_may_not_offer_or_answer(server: Server, clients: list[Client]) -> None:
    created = server.create(game="loa", seats=["open", "open"], join=0, name="Ann")
    match_id = created["match"]["id"]
    ann = await open_client(clients, server, match_id, "Ann")
    await ann.send({"type": "offer", **DRAW})
    await ann.error("hello_first")
    await ann.hello(created["token"])
    await ann.send({"type": "offer", **DRAW})
    await ann.error("not_started")
    await ann.send({"type": "offer", "what": "chess"})
    await ann.error("bad_message")
    await ann.send({"type": "offer"})
    await ann.error("bad_message")
    bob_token = server.join(match_id, name="Bob")["token"]
    watcher = await open_client(clients, server, match_id, "spectator")
    await watcher.hello()
    for step in ("offer", "accept", "decline"):
        await watcher.send({"type": step, **DRAW})
        await watcher.error("not_seated")
    bob = await open_client(clients, server, match_id, "Bob")
    await bob.hello(bob_token)
    await bob.send({"type": "accept", **DRAW})
    await bob.error("no_offer")
    await ann.send({"type": "ping", "id": "last"})  # all sent to Ann before is read by its pong
    await ann.until("pong", lambda message: message["type"] == "pong")
    assert not [message for message in ann.seen if message["type"] == "offers"]
    assert server.summary(match_id)["version"] == 0


@ASYNC
async def test_bots_take_no_draws(server: Server, clients: list[Client]) -> None:
    created = server.create(game="loa", seats=["open", "bot:random"], join=0, name="Ann", bot_seconds=0.01)
    match_id = created["match"]["id"]
    ann = await open_client(clients, server, match_id, "Ann")
    await ann.hello(created["token"])
    await ann.send({"type": "offer", **DRAW})
    refusal = await ann.until("the refusal", lambda message: message["type"] == "error")
    assert refusal["code"] == "bots_play_on"
    assert "White" in refusal["message"]
    # The refused offer is pending nowhere: not in a state made after it, and nobody was told of it.
    watcher = await open_client(clients, server, match_id, "spectator after the refusal")
    assert (await watcher.hello())["offers"] == []
    await ann.ping()
    await watcher.ping()
    assert not [message for message in [*ann.seen, *watcher.seen] if message["type"] == "offers"]
    assert server.summary(match_id)["status"] == "running"


@ASYNC
async def test_three_players_end_the_game_when_everyone_in_play_agrees(
    server: Server, clients: list[Client]
) -> None:
    match_id, players = await seated(server, clients, "biloba", 3)
    ann, bob, cy = players
    await bob.send({"type": "offer", **DRAW})
    for message in await everyone_hears(players, "made", 1):
        assert message["offers"] == [{"what": "draw", "by": 1, "agreed": [1], "waiting": [0, 2]}]
        assert "end the game here" in message["news"]["words"]
    await ann.send({"type": "accept", **DRAW})
    for message in await everyone_hears(players, "agreed", 0):
        assert message["offers"] == [{"what": "draw", "by": 1, "agreed": [0, 1], "waiting": [2]}]
    await ann.send({"type": "accept", **DRAW})
    await ann.error("already_agreed")
    await cy.send({"type": "accept", **DRAW})
    for client in players:
        update = await client.expect("update", version=1)
        assert update["event"] == {"version": 1, "seat": None, "action": "draw agreed", "turn": 1,
                                   "leaving": {"kind": "agreed", "seat": None, "why": None}}
        assert update["status"] == "over"
        assert update["view"]["outcome"]["winner"] is None
        assert update["view"]["outcome"]["reason"] == "agreed"
    await everyone_hears(players, "accepted", 2)
    assert server.summary(match_id)["status"] == "over"


@ASYNC
async def test_three_players_a_seat_out_cannot_answer_and_the_offer_lapses(
    server: Server, clients: list[Client]
) -> None:
    match_id, players = await seated(server, clients, "biloba", 3)
    ann, bob, cy = players
    await ann.send({"type": "offer", **DRAW})
    await everyone_hears(players, "made", 0)
    await cy.send({"type": "resign"})  # the table changes: the proposal lapses
    for client in players:
        await client.expect("update", version=1)
        await client.expect("out", version=1)
    for message in await everyone_hears(players, "lapsed", 0):
        assert message["offers"] == []
        assert "Red is out" in message["news"]["words"]
    for step in ("offer", "accept"):
        await cy.send({"type": step, **DRAW})
        await cy.error("not_in_play")
    await bob.send({"type": "offer", **DRAW})
    for message in await everyone_hears(players, "made", 1):
        assert message["offers"] == [{"what": "draw", "by": 1, "agreed": [1], "waiting": [0]}]
    await cy.send({"type": "decline", **DRAW})
    await cy.error("not_in_play")
    await ann.send({"type": "accept", **DRAW})
    for client in players:
        update = await client.expect("update", version=2)
        assert update["view"]["outcome"]["reason"] == "agreed"
    assert server.summary(match_id)["result"] == "Draw: agreed at the table"
