"""Chance and hidden information through the server, for whichever registered game has them
(chosen by its metadata): chance is resolved by the match's writer and stored like any action;
every message carries exactly ``view(seat)`` of the true state (rebuilt here from the server's
own SQLite file) and the seat's legal actions; events spell out actions only as far as the seat
may read them."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import Client, check_message, open_client
from server_process import Server

from parlour.bots import bot_kinds
from parlour.engine import Game, State
from parlour.games import GAMES

ASYNC = pytest.mark.asyncio(loop_scope="session")
SECRETIVE = [game for game in GAMES.values() if game.info.chance or game.info.hidden_information]


def stored_seed(server: Server, match_id: str) -> int:
    """The match's seed: the server's secret, read from its own store (no client is told it)."""
    [(seed,)] = server.query("SELECT seed FROM matches WHERE id = ?", match_id)
    assert isinstance(seed, int)
    return seed


def true_state(server: Server, game: Game[State], summary: dict[str, Any], seed: int, version: int) -> State:
    """The match as the server stored it, up to ``version``."""
    actions = [action for (action,) in server.query(
        "SELECT action FROM events WHERE match_id = ? AND version <= ? ORDER BY version",
        summary["id"], version)]
    state = game.new(summary["players"], summary["options"], seed)
    for action in actions:
        state.apply(action)
    return state


def check(message: dict[str, Any], state: State, seat: int | None) -> None:
    """The message is ``view(seat)``; each event's text is the action as ``seat`` may read it
    (``State.action_text_for`` in the position before it), revealing nothing hidden."""
    assert message["view"] == state.view(seat), f"version {message['version']}: not view({seat})"
    check_message(message, seat, state)
    events = [message["event"]] if message["type"] == "update" else message["events"]
    record = state.history
    for event in events:
        version = event["version"]
        before = state.copy()
        while len(before.history) >= version:
            before.undo()
        action = record[version - 1]
        assert event["action"] == before.action_text_for(action, seat), event
        for secret in before.hidden_from(seat):
            assert secret not in str(event["action"]), event


@ASYNC
async def test_chance_and_hidden_information_go_through_views(server: Server, clients: list[Client]) -> None:
    assert SECRETIVE, "no registered game has chance or hidden information"
    game = SECRETIVE[0]
    assert "random" in bot_kinds(game.info.name), f"no random bot for {game.info.name}"
    players = game.info.min_players
    created = server.create(game=game.info.name, players=players, join=0, bot_seconds=0.01,
                            seats=["open"] + ["bot:random"] * (players - 1))
    summary = created["match"]
    seed = stored_seed(server, summary["id"])
    person = await open_client(clients, server, summary["id"], "person")
    watcher = await open_client(clients, server, summary["id"], "spectator")
    snapshot = await person.hello(created["token"])
    check(snapshot, true_state(server, game, summary, seed, snapshot["version"]), 0)
    watched = await watcher.hello()
    check(watched, true_state(server, game, summary, seed, watched["version"]), None)
    chance_seen = 0
    for _ in range(40):
        if snapshot["status"] == "over":
            break
        if snapshot["legal"]:
            move = {"type": "action", "text": snapshot["legal"][0]["text"], "version": snapshot["version"]}
            await person.send(move)
        snapshot = await person.expect("update")
        state = true_state(server, game, summary, seed, snapshot["version"])
        check(snapshot, state, 0)
        if snapshot["version"] > watched["version"]:  # the spectator came in a little later
            check(await watcher.expect("update", version=snapshot["version"]), state, None)
        chance_seen += snapshot["event"]["seat"] == "chance"
    if game.info.chance:
        assert chance_seen > 0, "no chance decision in 40 events"
