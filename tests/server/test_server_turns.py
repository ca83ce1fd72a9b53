"""Turn numbers (issue 15: "chance rolls sit with the move they belong to, with turn numbers"):
every event, in ``state.events`` and ``update.event``, says the turn it belongs to. A seat's
actions in a row are one turn (Conflict's moves of one roll, Biloba's continuations, Mille's extra
play after a safety); a chance action belongs to the turn of the seat that moves after it; a
leaving action carries the current turn. The expected numbers are worked out here from the
server's own store (its secret seed and actions) with the engine, and compared with what a
spectator is sent while the match is in memory and after a restart (when it is replayed)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Client, open_client, wait_until_over
from server_process import Server, Storage

from parlour.engine import CHANCE, is_leaving
from parlour.games import get_game

ASYNC = pytest.mark.asyncio(loop_scope="session")

BOTS_ALONE = ("conflict", "mille", "biloba")
"""Games played by random bots to their end: chance with several moves a roll, a deal of several
cards in a row and draws before each play, a seat's continuations."""


def stored(server: Server, match_id: str) -> tuple[int, dict[str, Any], int, list[int]]:
    """The match's players, options, secret seed and actions, from the server's own store."""
    [(players, options, seed)] = server.query(
        "SELECT players, options, seed FROM matches WHERE id = ?", match_id)
    actions = [action for (action,) in server.query(
        "SELECT action FROM events WHERE match_id = ? ORDER BY version", match_id)]
    return players, json.loads(options), seed, actions


def expected_turns(game_name: str, match_id: str, server: Server) -> list[int]:
    """Each action's turn by the issue's rule, from the engine's replay of the stored match."""
    players, options, seed, actions = stored(server, match_id)
    state = get_game(game_name).new(players, options, seed)
    who: list[int | str] = []
    after: list[int] = []
    for action in actions:
        mover = state.to_move()
        who.append("leaving" if is_leaving(action) else "chance" if mover == CHANCE else mover)
        state.play_recorded(action)
        after.append(state.to_move())
    turns: list[int] = []
    number, whose = 0, None
    for index, actor in enumerate(who):
        if actor == "chance":  # the seat that decides after this run of chance
            end = index
            while end < len(who) - 1 and who[end + 1] == "chance" and after[end] == CHANCE:
                end += 1
            actor = after[end] if after[end] >= 0 else "leaving"
        if actor != "leaving" and (number == 0 or actor != whose):  # leaving starts no turn
            number, whose = number + 1, actor
        turns.append(max(number, 1))
    return turns


@pytest.fixture(scope="module")
def played(
    storage: Storage, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, dict[str, str]]]:
    """A server of its own (what it stored is read) with a finished match of random bots per game."""
    server = storage.server(tmp_path_factory.mktemp("turns")).start()
    made = {}
    for game in BOTS_ALONE:
        created = server.create(game=game, seats=["bot:random", "bot:random"], bot_seconds=0.01)
        made[game] = created["match"]["id"]
    wait_until_over(server, list(made.values()))  # as a spectator is told: no polling
    yield server, made
    server.stop()


async def spectators_turns(server: Server, clients: list[Client], match_id: str) -> list[int]:
    watcher = await open_client(clients, server, match_id, "spectator")
    state = await watcher.hello()
    await watcher.close()
    return [event["turn"] for event in state["events"]]


@ASYNC
async def test_every_event_has_its_turn_in_memory_and_after_a_restart(
    played: tuple[Server, dict[str, str]], clients: list[Client]
) -> None:
    server, made = played
    for game, match_id in made.items():
        expected = expected_turns(game, match_id, server)
        assert await spectators_turns(server, clients, match_id) == expected, game
        assert expected[0] == 1
        assert expected[-1] > 1
        assert all(later - earlier in (0, 1) for earlier, later in itertools.pairwise(expected))
    server.kill()  # after a restart each match is replayed from the store: the same turns
    server.start()
    for game, match_id in made.items():
        assert await spectators_turns(server, clients, match_id) == expected_turns(game, match_id, server)


@ASYNC
async def test_a_roll_and_the_moves_it_allows_are_one_turn(
    played: tuple[Server, dict[str, str]], clients: list[Client]
) -> None:
    server, made = played
    watcher = await open_client(clients, server, made["conflict"], "spectator")
    events = (await watcher.hello())["events"]
    rolls = [event for event in events if event["seat"] == "chance"]
    assert rolls
    for roll in rolls:
        following = [event for event in events if event["turn"] == roll["turn"] and event["seat"] != "chance"]
        assert following, roll  # a roll's turn has the moves that followed it
        assert len({event["seat"] for event in following}) == 1
    # Each turn is one seat's, and the seats take turns.
    seats = [next(event["seat"] for event in events if event["turn"] == turn and event["seat"] != "chance")
             for turn in sorted({event["turn"] for event in events})
             if any(event["turn"] == turn and event["seat"] != "chance" for event in events)]
    assert all(first != second for first, second in itertools.pairwise(seats))


@ASYNC
async def test_updates_carry_the_turn_and_leaving_carries_the_current_one(
    server: Server, clients: list[Client]
) -> None:
    created = server.create(game="loa", seats=["open", "open"], join=0, name="Ann")
    match_id = created["match"]["id"]
    bob_token = server.join(match_id, name="Bob")["token"]
    ann = await open_client(clients, server, match_id, "Ann")
    bob = await open_client(clients, server, match_id, "Bob")
    ann_state = await ann.hello(created["token"])
    await bob.hello(bob_token)
    await ann.send({"type": "action", "text": ann_state["legal"][0]["text"]})
    await ann.expect("update", version=1)
    bob_update = await bob.expect("update", version=1)
    await bob.send({"type": "action", "text": bob_update["legal"][0]["text"]})
    await bob.expect("update", version=2)
    ann_update = await ann.expect("update", version=2)
    await ann.send({"type": "resign"})  # Ann's move would start turn 3: resigning starts none
    resigned = await ann.expect("update", version=3)
    assert [bob_update["event"]["turn"], ann_update["event"]["turn"], resigned["event"]["turn"]] == [1, 2, 2]
    assert "leaving" in resigned["event"]
    again = await open_client(clients, server, match_id, "Ann again")
    assert [event["turn"] for event in (await again.hello(created["token"]))["events"]] == [1, 2, 2]


@ASYNC
async def test_a_resignation_before_any_move_is_in_the_first_turn(
    server: Server, clients: list[Client]
) -> None:
    created = server.create(game="loa", seats=["open", "bot:random"], join=0, name="Ann")
    match_id = created["match"]["id"]
    ann = await open_client(clients, server, match_id, "Ann")
    await ann.hello(created["token"])
    await ann.send({"type": "resign"})
    resigned = await ann.until("the resignation", lambda m: m["type"] == "update")
    assert resigned["event"]["turn"] == 1
    assert "leaving" in resigned["event"]
