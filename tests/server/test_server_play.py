"""Matches over real WebSockets: two people play a whole game, bots play their seats, a player
reconnects and gets the seat back with the moves missed. Every message is checked against the
engine: its view is ``view(seat)`` of the state the moves reach, its legal list the seat's own
(text and parts); only the ``state`` message carries the move list."""

from __future__ import annotations

import json
import random
import sqlite3
from typing import Any

import pytest
from server_helpers import Client, check_message, open_client, replayed
from server_process import WAIT, Server

from parlour.engine import State
from parlour.games import get_game

LOA = get_game("loa")
ASYNC = pytest.mark.asyncio(loop_scope="session")


def check_snapshot(message: dict[str, Any], seat: int | None, state: State | None = None) -> State:
    """The message is built from ``state`` (default: the one its move list reaches) for ``seat``."""
    state = state if state is not None else replayed(LOA, message)
    check_message(message, seat, state)
    return state


async def two_players(server: Server, clients: list[Client], **create: Any) -> tuple[str, list[Client]]:
    created = server.create(game="loa", seats=["open", "open"], join=0, name="Ann", **create)
    match_id = created["match"]["id"]
    other = server.join(match_id, name="Bob")
    players = []
    for seat, token in enumerate((created["token"], other["token"])):
        client = await open_client(clients, server, match_id, f"seat {seat}")
        check_snapshot(await client.hello(token), seat)
        players.append(client)
    return match_id, players


@ASYNC
async def test_a_whole_game_between_two_players(server: Server, clients: list[Client]) -> None:
    match_id, players = await two_players(server, clients, options={"move_limit": 0}, seed=0)
    watcher = await open_client(clients, server, match_id, "spectator")
    await watcher.hello()
    rng = random.Random(6)  # a game that ends by connection after 138 plies
    version, state = 0, LOA.new(options={"move_limit": 0})
    while not state.is_over():
        mover = state.to_move()
        text = state.action_to_text(rng.choice(state.legal_actions()))
        await players[mover].send({"type": "action", "text": text, "version": version})
        state.play_text(text)
        version += 1
        for seat, client in [(0, players[0]), (1, players[1]), (None, watcher)]:
            update = await client.expect("update")
            assert update["event"] == {"version": version, "seat": mover, "action": text, "turn": version}
            check_snapshot(update, seat, state)
    assert version > 10
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is not None
    assert update["view"]["outcome"] == state.outcome_json()
    assert update["view"]["outcome"]["words"]
    summary = server.summary(match_id)
    assert summary["status"] == "over"
    assert summary["version"] == version
    assert summary["outcome"] == state.outcome_json()
    # A late spectator gets the whole game as events, once.
    late = await open_client(clients, server, match_id, "late spectator")
    check_snapshot(await late.hello(), None, state)
    # After the end: no more moves, no more seats; the connections still answer.
    await players[0].send({"type": "action", "text": "pass"})
    await players[0].error("game_over")
    await players[1].ping()
    assert server.summary(match_id)["version"] == version


@ASYNC
async def test_bots_play_their_seats(server: Server, clients: list[Client]) -> None:
    created = server.create(game="loa", seats=["bot:random", "bot:random"], bot_seconds=0.01, seed=5)
    match_id = created["match"]["id"]
    watcher = await open_client(clients, server, match_id, "spectator")
    state = check_snapshot(await watcher.hello(), None)
    while not state.is_over():
        update = await watcher.expect("update")
        assert update["event"]["seat"] in (0, 1)
        assert update["event"]["version"] == len(state.history) + 1
        state.play_text(update["event"]["action"])
        check_snapshot(update, None, state)
    assert server.summary(match_id)["status"] == "over"


@ASYNC
async def test_a_person_against_a_bot(server: Server, clients: list[Client]) -> None:
    created = server.create(game="loa", seats=["open", "bot:random"], bot_seconds=0.01, join=0)
    match_id = created["match"]["id"]
    person = await open_client(clients, server, match_id, "person")
    snapshot = await person.hello(created["token"])
    state = check_snapshot(snapshot, 0)
    for _ in range(3):
        assert snapshot["view"]["to_move"] == 0
        assert snapshot["legal"]
        text = snapshot["legal"][0]["text"]
        await person.send({"type": "action", "text": text, "version": snapshot["version"]})
        mine = await person.expect("update")
        assert mine["event"]["seat"] == 0
        state.play_text(mine["event"]["action"])
        check_snapshot(mine, 0, state)
        if mine["status"] == "over":
            break
        snapshot = await person.expect("update")
        assert snapshot["event"]["seat"] == 1  # the bot answered through the same path
        state.play_text(snapshot["event"]["action"])
        check_snapshot(snapshot, 0, state)
        if snapshot["status"] == "over":
            break
    assert server.summary(match_id)["version"] >= 2


@ASYNC
async def test_reconnect_with_the_token_gets_the_seat_and_the_missed_moves(
    server: Server, clients: list[Client]
) -> None:
    created = server.create(game="loa", seats=["open", "open"], join=0)
    match_id, black_token = created["match"]["id"], created["token"]
    white_token = server.join(match_id)["token"]
    black = await open_client(clients, server, match_id, "black")
    white = await open_client(clients, server, match_id, "white")
    await black.hello(black_token)
    await white.hello(white_token)
    await black.send({"type": "action", "text": "b1-d3", "version": 0})
    await white.expect("update", version=1)
    await black.expect("update", version=1)
    await white.close()
    await black.seat_connected(1, False)
    # White reloads the page: same token, the one move so far, White's turn.
    white = await open_client(clients, server, match_id, "white again")
    state = await white.hello(white_token)
    assert state["seat"] == 1
    assert state["events"] == [{"version": 1, "seat": 0, "action": "b1-d3", "turn": 1}]
    assert state["legal"]
    await black.seat_connected(1, True)
    await white.send({"type": "action", "text": state["legal"][0]["text"], "version": 1})
    played = (await white.expect("update", version=2))["event"]["action"]
    await black.expect("update", version=2)
    await black.close()
    await white.send({"type": "action", "text": "x9-z0", "version": 2})
    await white.error("not_your_turn")
    # Black comes back (an older client still says its last version): both moves, in order.
    black = await open_client(clients, server, match_id, "black again")
    state = await black.hello(black_token, last_version=0)
    assert state["events"] == [{"version": 1, "seat": 0, "action": "b1-d3", "turn": 1},
                               {"version": 2, "seat": 1, "action": played, "turn": 2}]
    check_snapshot(state, 0)
    assert state["view"]["to_move"] == 0
    assert state["legal"]
    # A second connection with the same token (a second tab) acts for the same seat.
    tab = await open_client(clients, server, match_id, "black tab")
    assert (await tab.hello(black_token))["seat"] == 0
    await tab.send({"type": "action", "text": state["legal"][0]["text"], "version": 2})
    for client in (black, white, tab):
        update = await client.expect("update", version=3)
        assert "events" not in update
        assert "seats" not in update


@ASYNC
async def test_updates_do_not_grow_with_the_game(server: Server, clients: list[Client]) -> None:
    """What one action costs a seat does not depend on how long the match has run: the history
    travels once, in the ``state`` message."""
    created = server.create(game="loa", seats=["bot:random", "bot:random"], bot_seconds=0.01, seed=11,
                            options={"move_limit": 0})
    watcher = await open_client(clients, server, created["match"]["id"], "spectator")
    await watcher.hello()
    sizes: list[int] = []
    while len(sizes) < 40:
        update = await watcher.expect("update")
        sizes.append(len(json.dumps(update)))
        if update["status"] == "over":
            break
    assert len(sizes) >= 20
    # The same board and a few more characters of event at most (LOA: only the plies count grows).
    assert max(sizes[10:]) - min(sizes[:10]) < 200, sizes


@pytest.mark.sqlite_only("SQLite's write lock, held by the test, is what makes the store refuse")
@ASYNC
async def test_an_action_the_store_refuses_changes_nothing(own_server: Server, clients: list[Client]) -> None:
    """The state an action leads to is shown only once stored with its progress: while another
    connection holds the SQLite file's write lock the store fails, the mover is told, the match
    is as it was for everyone, and the same action goes through once the file is free."""
    server = own_server
    match_id, players = await two_players(server, clients)
    move = players[0].seen[-1]["legal"][0]["text"]
    blocker = sqlite3.connect(server.db, isolation_level=None, timeout=WAIT)
    try:
        blocker.execute("BEGIN EXCLUSIVE")
        await players[0].send({"type": "action", "text": move, "version": 0})
        error = await players[0].error("unavailable")
        assert "unchanged" in error["message"]
        await players[1].ping()  # everything sent to seat 1 so far has arrived: no update among it
        assert all(message["type"] != "update" for message in players[1].seen)
        assert server.summary(match_id)["version"] == 0
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    await players[0].send({"type": "action", "text": move, "version": 0})
    for client in players:
        assert (await client.expect("update"))["event"]["action"] == move
    with sqlite3.connect(server.db) as db:
        query = "SELECT status, version, to_move FROM matches WHERE id = ?"
        stored = db.execute(query, (match_id,)).fetchone()
    assert stored == ("running", 1, "1")  # the progress is stored with the action
