"""Rematches over real WebSockets (issue 14): once a match is over either side offers one; when
the other persons accept, a new match with the same game, options and bots starts at once with
every player moved one seat on, and every connection of the old match is told where it is, with
its own new seat and token. Bots keep their kinds and never need asking. Offering a rematch
counts as creating a match. Every refusal has its code and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import Client, open_client
from server_process import Server, Storage

ASYNC = pytest.mark.asyncio(loop_scope="session")

REMATCH: dict[str, Any] = {"what": "rematch"}


async def finished(
    server: Server, clients: list[Client], **create: Any
) -> tuple[str, list[Client], list[str]]:
    """A Lines of Action match Ann (Black) resigned to Bob (White), both still connected; their tokens."""
    created = server.create(game="loa", seats=["open", "open"], join=0, name="Ann", **create)
    match_id = created["match"]["id"]
    bob_token = server.join(match_id, name="Bob")["token"]
    players = []
    for name, token in (("Ann", created["token"]), ("Bob", bob_token)):
        client = await open_client(clients, server, match_id, name)
        await client.hello(token)
        players.append(client)
    await players[0].send({"type": "resign"})
    for client in players:
        await client.expect("update", version=1)
    return match_id, players, [created["token"], bob_token]


async def everyone_hears(clients: list[Client], change: str, seat: int) -> None:
    for client in clients:
        message = await client.expect("offers")
        assert message["news"]["what"] == "rematch"
        assert message["news"]["change"] == change, (client.label, message)
        assert message["news"]["seat"] == seat


@ASYNC
async def test_a_rematch_rotates_the_seats_and_hands_out_new_tokens(
    server: Server, clients: list[Client]
) -> None:
    match_id, (ann, bob), tokens = await finished(server, clients, options={"move_limit": 40})
    watcher = await open_client(clients, server, match_id, "spectator")
    await watcher.hello()
    await bob.send({"type": "offer", **REMATCH})
    await everyone_hears([ann, bob, watcher], "made", 1)
    assert ann.seen[-1]["offers"] == [{"what": "rematch", "by": 1, "agreed": [1], "waiting": [0]}]
    assert ann.seen[-1]["news"]["words"] == "White offers a rematch"
    await ann.send({"type": "accept", **REMATCH})
    await everyone_hears([ann, bob, watcher], "accepted", 0)
    told = {client.label: (await client.expect("rematch"))["rematch"] for client in (ann, bob, watcher)}
    new_id = told["Ann"]["match"]
    assert new_id != match_id
    assert {entry["match"] for entry in told.values()} == {new_id}
    assert told["Ann"]["url"] == f"/match/{new_id}"
    assert told["Ann"]["ws"] == f"/ws/matches/{new_id}"
    assert (told["Ann"]["seat"], told["Bob"]["seat"], told["spectator"]["seat"]) == (1, 0, None)
    assert told["spectator"]["token"] is None
    assert told["Ann"]["token"] != told["Bob"]["token"]
    # The new match: the same game and options, every player one seat on, already running.
    summary = server.summary(new_id)
    assert summary["status"] == "running"
    assert summary["version"] == 0
    assert summary["options"]["move_limit"] == 40
    assert [(seat["kind"], seat["player"]) for seat in summary["seats"]] == [
        ("person", "Bob"), ("person", "Ann")]
    # Each new token holds its new seat there (and no seat of the old match).
    for label, old in (("Ann", ann), ("Bob", bob)):
        client = await open_client(clients, server, new_id, f"{label} in the rematch")
        state = await client.hello(told[label]["token"])
        assert state["seat"] == told[label]["seat"]
        assert state["status"] == "running"
        stranger = await open_client(clients, server, match_id, f"{label}'s new token on the old match")
        await stranger.send({"type": "hello", "token": told[label]["token"]})
        await stranger.error("bad_token")
        assert old.seen[-1]["type"] == "rematch"
    # A second tab of Ann's old seat finds the rematch in its state.
    second = await open_client(clients, server, match_id, "Ann's second tab")
    assert (await second.hello(tokens[0]))["rematch"] == told["Ann"]
    # One rematch per match.
    await bob.send({"type": "offer", **REMATCH})
    assert new_id in (await bob.error("rematch_made"))["message"]


@ASYNC
async def test_refusals_change_nothing(server: Server, clients: list[Client]) -> None:
    created = server.create(game="tictactoe", seats=["open", "open"], join=0, name="Ann")
    match_id = created["match"]["id"]
    bob_token = server.join(match_id, name="Bob")["token"]
    ann = await open_client(clients, server, match_id, "Ann")
    await ann.hello(created["token"])
    bob = await open_client(clients, server, match_id, "Bob")
    await bob.hello(bob_token)
    await ann.send({"type": "offer", **REMATCH})
    await ann.error("not_over")
    await ann.send({"type": "accept", **REMATCH})
    await ann.error("not_over")
    await bob.send({"type": "resign"})
    for client in (ann, bob):
        await client.expect("update", version=1)
    watcher = await open_client(clients, server, match_id, "spectator")
    await watcher.hello()
    await watcher.send({"type": "offer", **REMATCH})
    await watcher.error("not_seated")
    await bob.send({"type": "accept", **REMATCH})
    await bob.error("no_offer")
    await ann.send({"type": "offer", **REMATCH})
    await everyone_hears([ann, bob, watcher], "made", 0)
    await ann.send({"type": "offer", **REMATCH})
    await ann.error("already_offered")
    await ann.send({"type": "accept", **REMATCH})
    await ann.error("already_offered")
    await bob.send({"type": "decline", **REMATCH})
    await everyone_hears([ann, bob, watcher], "declined", 1)
    assert ann.seen[-1]["offers"] == []
    await bob.send({"type": "accept", **REMATCH})
    await bob.error("no_offer")
    listed = server.call("GET", "/api/matches?status=running,open&limit=100")[1]["matches"]
    assert not [entry for entry in listed if entry["seats"][0]["player"] == "Bob"
                and entry["seats"][1]["player"] == "Ann" and entry["game"] == "tictactoe"
                and entry["created"] > server.summary(match_id)["created"]]


@ASYNC
async def test_against_a_bot_the_rematch_starts_at_once_and_the_bot_keeps_its_kind(
    server: Server, clients: list[Client]
) -> None:
    created = server.create(game="loa", seats=["open", "bot:greedy"], join=0, name="Ann", bot_seconds=0.01)
    match_id = created["match"]["id"]
    ann = await open_client(clients, server, match_id, "Ann")
    await ann.hello(created["token"])
    await ann.send({"type": "resign"})
    await ann.until("the end", lambda message: message["type"] == "update" and message["status"] == "over")
    await ann.send({"type": "offer", **REMATCH})
    await everyone_hears([ann], "accepted", 0)
    rematch = (await ann.expect("rematch"))["rematch"]
    assert rematch["seat"] == 1
    summary = server.summary(rematch["match"])
    assert [(seat["kind"], seat["bot"], seat["player"]) for seat in summary["seats"]] == [
        ("bot", "greedy", None), ("person", None, "Ann")]
    # The bot, Black now, moves first without anyone asking.
    player = await open_client(clients, server, rematch["match"], "Ann in the rematch")
    state = await player.hello(rematch["token"])
    if state["version"] == 0:
        state = await player.expect("update", version=1)
    assert state["view"]["to_move"] == 1
    assert state["legal"]


@ASYNC
async def test_a_rematch_offer_counts_as_creating_a_match(
    storage: Storage, tmp_path: Any, clients: list[Client]
) -> None:
    server = storage.server(tmp_path, limits={"create_burst": 2, "create_per_minute": 0.001}).start()
    try:
        match_id, (ann, bob), _ = await finished(server, clients)  # one creation spent, one left
        await ann.send({"type": "offer", **REMATCH})
        await everyone_hears([ann, bob], "made", 0)  # the last one spent
        await ann.send({"type": "offer", **REMATCH})  # refused for what it is: it costs nothing
        await ann.error("already_offered")
        await bob.send({"type": "decline", **REMATCH})
        await everyone_hears([ann, bob], "declined", 1)
        await bob.send({"type": "accept", **REMATCH})
        await bob.error("no_offer")
        await ann.send({"type": "offer", **REMATCH})
        refusal = await ann.error("rate_limited")
        assert refusal["retry_after"] >= 1
        assert server.summary(match_id)["status"] == "over"
    finally:
        server.stop()


@ASYNC
async def test_a_match_finished_before_a_restart_gets_its_rematch(
    own_server: Server, clients: list[Client]
) -> None:
    server = own_server
    match_id, _, tokens = await finished(server, clients)
    server.kill()
    server.start()
    ann = await open_client(clients, server, match_id, "Ann after the restart")
    await ann.hello(tokens[0])
    bob = await open_client(clients, server, match_id, "Bob after the restart")
    await bob.hello(tokens[1])
    await ann.send({"type": "offer", **REMATCH})
    await bob.send({"type": "offer", **REMATCH})  # both offered: as good as accepted
    await everyone_hears([ann, bob], "made", 0)
    await everyone_hears([ann, bob], "accepted", 1)
    seats = [(await client.expect("rematch"))["rematch"]["seat"] for client in (ann, bob)]
    assert seats == [1, 0]
    new_id = ann.seen[-1]["rematch"]["match"]
    assert server.summary(new_id)["status"] == "running"
    # The rematch is on record: after another restart the old match knows it (but not the new
    # seats' tokens, which only the connections then told have), and makes no second one.
    server.kill()
    server.start()
    again = await open_client(clients, server, match_id, "Ann after the second restart")
    assert (await again.hello(tokens[0]))["rematch"] == {
        "match": new_id, "url": f"/match/{new_id}", "ws": f"/ws/matches/{new_id}",
        "seat": None, "token": None}
    await again.send({"type": "offer", **REMATCH})
    assert new_id in (await again.error("rematch_made"))["message"]


async def finish_others(server: Server, clients: list[Client], count: int) -> None:
    """``count`` more matches end (Ann resigns to a bot) and nobody stays connected to them: the
    server's cache of finished matches (64) fills with newer ones."""
    for number in range(count):
        created = server.create(game="tictactoe", seats=["open", "bot:random"], join=0, name="Ann")
        client = await open_client(clients, server, created["match"]["id"], f"filler {number}")
        await client.hello(created["token"])
        await client.send({"type": "resign"})
        await client.expect("update", version=1)
        await client.close()


@ASYNC
async def test_a_finished_match_in_use_stays_one_object_however_many_end_after_it(
    own_server: Server, clients: list[Client]
) -> None:
    server = own_server
    # One match's rematch is made while its players stay connected; another's offer is pending
    # while its maker waits and the other player has gone.
    made_id, (ann, bob), made_tokens = await finished(server, clients)
    await bob.send({"type": "offer", **REMATCH})
    await everyone_hears([ann, bob], "made", 1)
    await ann.send({"type": "accept", **REMATCH})
    await everyone_hears([ann, bob], "accepted", 0)
    told = (await ann.expect("rematch"))["rematch"]
    offered_id, (cy, di), offered_tokens = await finished(server, clients)
    await cy.send({"type": "offer", **REMATCH})
    await everyone_hears([cy, di], "made", 0)
    await di.close()
    await finish_others(server, clients, 70)
    # Ann's second tab is on the same match: it knows the rematch, and no second one is made.
    second = await open_client(clients, server, made_id, "Ann's second tab")
    assert (await second.hello(made_tokens[0]))["rematch"] == told
    await second.send({"type": "offer", **REMATCH})
    assert told["match"] in (await second.error("rematch_made"))["message"]
    # Di comes back to the pending offer and accepts it.
    back = await open_client(clients, server, offered_id, "Di back")
    state = await back.hello(offered_tokens[1])
    assert state["offers"] == [{"what": "rematch", "by": 0, "agreed": [0], "waiting": [1]}]
    await back.send({"type": "accept", **REMATCH})
    await everyone_hears([back, cy], "accepted", 1)
    assert (await back.expect("rematch"))["rematch"]["seat"] == 0


@ASYNC
async def test_a_rematch_offer_lapses_when_everyone_has_left_the_table(
    server: Server, clients: list[Client]
) -> None:
    """Nobody is there to answer it, and a finished match with a pending offer stays in memory."""
    match_id, (ann, bob), tokens = await finished(server, clients)
    watcher = await open_client(clients, server, match_id, "spectator")
    await watcher.hello()
    await ann.send({"type": "offer", **REMATCH})
    await everyone_hears([ann, bob, watcher], "made", 0)
    await bob.close()
    await watcher.seat_connected(1, False)
    assert watcher.seen[-1]["type"] == "seats"  # Ann is still there: the offer stands
    await ann.close()
    lapsed = await watcher.until("the offer lapses", lambda message: message["type"] == "offers")
    assert lapsed["offers"] == []
    assert lapsed["news"] == {"what": "rematch", "change": "lapsed", "seat": 0,
                              "words": "The rematch offer lapsed: everyone left the table"}
    back = await open_client(clients, server, match_id, "Bob again")
    assert (await back.hello(tokens[1]))["offers"] == []
    await back.send({"type": "accept", **REMATCH})
    await back.error("no_offer")
