"""SIGKILL at any moment, then a restart on the same SQLite file: no accepted action is lost (every
event a client saw is in the record), every match resumes where it was, bots included."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from server_helpers import Client, open_client
from server_process import WAIT, Server

from parlour.games import get_game

LOA = get_game("loa")
ASYNC = pytest.mark.asyncio(loop_scope="session")


def texts_of(snapshot: dict[str, Any]) -> list[str]:
    """The actions of a ``state`` message's move list, as text."""
    return [event["action"] for event in snapshot["events"]]


def events_seen(client: Client) -> list[str]:
    """The actions a client was told of, in version order (checked to have no gaps)."""
    texts: list[str] = []
    for message in client.seen:
        if message["type"] == "state" and not texts:
            texts = texts_of(message)
        elif message["type"] == "update":
            assert message["event"]["version"] == len(texts) + 1, (client.label, message["event"])
            texts.append(message["event"]["action"])
    return texts


@ASYNC
async def test_sigkill_mid_game_and_restart(own_server: Server, clients: list[Client]) -> None:
    server = own_server
    # People: four moves made.
    people = server.create(game="loa", seats=["open", "open"], join=0, seed=1)
    people_id, tokens = people["match"]["id"], [people["token"], server.join(people["match"]["id"])["token"]]
    players = [await open_client(clients, server, people_id, f"person {seat}") for seat in (0, 1)]
    for seat in (0, 1):
        await players[seat].hello(tokens[seat])
    played = []
    for ply in range(4):
        snapshot = players[ply % 2].seen[-1]
        text = snapshot["legal"][ply]["text"]
        await players[ply % 2].send({"type": "action", "text": text, "version": ply})
        played.append(text)
        for client in players:
            await client.expect("update", version=ply + 1)
    # Bots: strong search with a short budget, so the game is mid-way when the server dies.
    bots = server.create(game="loa", seats=["bot:strong", "bot:strong"], bot_seconds=0.05, seed=2)
    bots_id = bots["match"]["id"]
    watcher = await open_client(clients, server, bots_id, "bot watcher")
    await watcher.hello()
    while (await watcher.expect("update"))["version"] < 3:
        pass
    # A person against a bot: the person's move is broadcast, then the server dies at once.
    mixed = server.create(game="loa", seats=["open", "bot:random"], join=0, bot_seconds=0.01, seed=3)
    mixed_id = mixed["match"]["id"]
    person = await open_client(clients, server, mixed_id, "person v bot")
    first = await person.hello(mixed["token"])
    await person.send({"type": "action", "text": first["legal"][0]["text"], "version": 0})
    await person.expect("update", version=1)

    server.kill()
    server.start()  # the same file, a new port

    assert server.summary(people_id)["version"] == 4
    players = [await open_client(clients, server, people_id, f"person {seat} again") for seat in (0, 1)]
    for seat in (0, 1):
        state = await players[seat].hello(tokens[seat])
        assert state["seat"] == seat
        assert state["version"] == 4
        assert texts_of(state) == played
    legal = players[0].seen[-1]["legal"] or (await players[0].expect("state"))["legal"]
    await players[0].send({"type": "action", "text": legal[0]["text"], "version": 4})
    await players[1].expect("update", version=5)

    seen = events_seen(watcher)
    watcher = await open_client(clients, server, bots_id, "bot watcher again")
    state = await watcher.hello()
    assert texts_of(state)[: len(seen)] == seen, "an action the watcher saw was lost"
    resumed_at = state["version"]
    if state["status"] == "running":
        await watcher.expect("update", version=resumed_at + 1)  # the bots think again
        await watcher.expect("update", version=resumed_at + 2)

    person = await open_client(clients, server, mixed_id, "person v bot again")
    state = await person.hello(mixed["token"])
    assert state["version"] >= 1
    assert texts_of(state)[0] == first["legal"][0]["text"]
    while state["view"]["to_move"] != 0 and state["status"] == "running":
        state = await person.expect("update")  # the bot's reply, after the restart if need be
    assert state["version"] == 2


@ASYNC
async def test_sigkill_at_arbitrary_moments(own_server: Server, clients: list[Client]) -> None:
    """Fast bot games, killed again and again while they play: what was seen is always kept."""
    server = own_server
    rng = random.Random(7)
    ids = [
        server.create(game="loa", seats=["bot:random", "bot:random"], bot_seconds=0.01,
                      options={"move_limit": 0}, seed=seed)["match"]["id"]
        for seed in range(4)
    ]
    seen: dict[str, list[str]] = {match_id: [] for match_id in ids}
    for round_ in range(3):
        watchers = {}
        for match_id in ids:
            watcher = await open_client(clients, server, match_id, f"watcher {match_id} #{round_}")
            state = await watcher.hello()
            texts = texts_of(state)
            assert texts[: len(seen[match_id])] == seen[match_id], f"round {round_}: {match_id} lost actions"
            watchers[match_id] = watcher
        # Let the games run for a while (a random number of events), then kill.
        target = rng.randrange(3, 30)
        for match_id, watcher in watchers.items():
            goal = len(seen[match_id]) + target
            if watcher.seen[-1]["status"] == "running":
                await watcher.until(f"version {goal}", lambda m, goal=goal: m["type"] == "update" and (
                    m["status"] == "over" or m["version"] >= goal))
        await asyncio.sleep(rng.random() * 0.05)  # and a little more: the kill falls anywhere
        for match_id, watcher in watchers.items():
            seen[match_id] = events_seen(watcher)
        server.kill()
        server.start()
    finals = [server.summary(match_id) for match_id in ids]
    for match_id, final in zip(ids, finals, strict=True):
        assert final["version"] >= len(seen[match_id])


def at_rest(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary as it reads with no person connected."""
    seats = [seat | {"connected": seat["kind"] == "bot"} for seat in summary["seats"]]
    return summary | {"seats": seats}


def wait_for_status(server: Server, match_ids: list[str], status: str) -> None:
    deadline = time.monotonic() + WAIT
    while any(server.summary(match_id)["status"] != status for match_id in match_ids):
        assert time.monotonic() < deadline, f"the matches were not {status} within {WAIT} s"
        time.sleep(0.05)


@ASYNC
async def test_finished_matches_are_read_from_the_store_when_asked_for(
    own_server: Server, clients: list[Client]
) -> None:
    """Start-up loads only unfinished matches; a finished one is read back, read-only, when a
    client asks for it: its summary, its whole move list for a spectator or its own player."""
    server = own_server
    finished = [server.create(game="tictactoe", seats=["bot:random"] * 2, bot_seconds=0.01)["match"]["id"]
                for _ in range(6)]
    mine = server.create(game="tictactoe", seats=["open", "bot:random"], join=0, bot_seconds=0.01)
    player = await open_client(clients, server, mine["match"]["id"], "player")
    state = await player.hello(mine["token"])
    while state["status"] != "over":
        if state["legal"]:
            move = {"type": "action", "text": state["legal"][0]["text"], "version": state["version"]}
            await player.send(move)
        state = await player.until("an update", lambda m: m["type"] == "update")
    finished.append(mine["match"]["id"])
    unfinished = server.create(game="loa", seats=["open", "open"])["match"]["id"]
    wait_for_status(server, finished, "over")
    await player.close()  # nobody connected: summaries from before and after the restart agree
    before = {match_id: at_rest(server.summary(match_id)) for match_id in finished}

    server.stop()
    server.start()
    if server.store is None:  # on PostgreSQL (cluster mode) none is loaded at start: each is taken when asked
        assert "1 unfinished matches loaded" in server.log_text()
    assert server.summary(unfinished)["status"] == "open"
    over = {entry["id"]: entry for entry in server.call("GET", "/api/matches?status=over")[1]["matches"]}
    assert over == before
    for match_id in finished:
        assert server.summary(match_id) == before[match_id]
        status, answer = server.call("POST", f"/api/matches/{match_id}/join", {})
        assert (status, answer["error"]["code"]) == (409, "game_over"), answer
    watcher = await open_client(clients, server, finished[0], "watcher")
    watched = await watcher.hello()
    assert (watched["status"], watched["version"], len(watched["events"])) == (
        "over", before[finished[0]]["version"], before[finished[0]]["version"])
    again = await open_client(clients, server, mine["match"]["id"], "player again")
    replayed = await again.hello(mine["token"])
    assert replayed["seat"] == 0
    assert replayed["legal"] == []
    assert replayed["events"] == state_events(state, replayed)
    await again.send({"type": "action", "text": "a1", "version": replayed["version"]})
    await again.error("game_over")


def state_events(last_update: dict[str, Any], replayed: dict[str, Any]) -> list[dict[str, Any]]:
    """The move list a finished match must show: its last event is the last update's."""
    assert replayed["events"][-1] == last_update["event"]
    return list(replayed["events"])
