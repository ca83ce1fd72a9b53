"""Chance is the server's secret (issue 13): one seat plays real Conflict and Mille Bornes matches
over the WebSocket, and a predictor armed with everything that seat was sent (every message and
every API answer) tries each integer in it, the match id and its times as the match's seed, with
the engine's own derivation of chance from a seed; it must do no better than guessing. A seed a
client chooses is refused for such games unless bots play every seat.

Before issue 13 every Conflict view carried the record and its seed, and a creator could choose
the seed: the same predictor then foretold 129 rolls of 129."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, open_client
from server_process import Server, Storage

from parlour.engine import CHANCE, Game, State
from parlour.games import get_game

ASYNC = pytest.mark.asyncio(loop_scope="session")
CHANCE_EVENTS = 120
"""Chance decisions to watch (a match may end sooner; at least MINIMUM_EVENTS are required)."""
MINIMUM_EVENTS = 60
MOST_MATCHES = 6
"""Matches played at most to see one with MINIMUM_EVENTS (a random Conflict game falls short one
time in twelve)."""
MISS_PROBABILITY = 1e-9
"""The chance that a fair server fails the test (the bound below is set from it)."""
MOST_MESSAGES = 20_000
QUICK = {"messages_per_second": 10_000, "message_burst": 10_000}
"""This test's player answers at once: no message rate limit gets in its way."""


@pytest.fixture
def fair_server(storage: Storage, tmp_path: Path) -> Any:
    running = storage.server(tmp_path, limits=QUICK).start()
    yield running
    running.stop()


def stored(server: Server, match_id: str) -> tuple[int, list[int]]:
    """The match's secret seed and every action, from the server's own store."""
    [(seed,)] = server.query("SELECT seed FROM matches WHERE id = ?", match_id)
    actions = [action for (action,) in server.query(
        "SELECT action FROM events WHERE match_id = ? ORDER BY version", match_id)]
    return seed, actions


async def play_one_seat(
    server: Server, clients: list[Client], game: str, choices: random.Random
) -> tuple[dict[str, Any], list[str]]:
    """Plays seat 0 (random legal moves) against a random bot until enough chance decisions were
    made or the match ends, watched by a spectator; the created match and every text the seat and
    the spectator were sent (an error's too)."""
    created = server.create(game=game, seats=["open", "bot:random"], join=0, bot_seconds=0.01)
    match_id = created["match"]["id"]
    spectator = await open_client(clients, server, match_id, f"{game} spectator")
    await spectator.hello()
    client = await open_client(clients, server, match_id, f"{game} seat 0")
    message = await client.hello(created["token"])
    await client.send({"type": "action", "text": "nonsense", "version": message["version"]})
    chance = 0
    for _ in range(MOST_MESSAGES):
        if message["status"] == "over" or chance >= CHANCE_EVENTS:
            break
        if message["legal"]:
            choice = choices.choice(message["legal"])["text"]
            await client.send({"type": "action", "text": choice, "version": message["version"]})
        message = await client.until("an update", lambda m: m["type"] in ("update", "state"))
        chance += message["type"] == "update" and message["event"]["seat"] == "chance"
    await spectator.send({"type": "ping", "id": "last"})
    await spectator.until("the pong after the spectator's updates", lambda m: m["type"] == "pong")
    assert any(m["type"] == "error" for m in client.seen), "the nonsense action was not answered"
    answers = [
        created, server.call("GET", f"/api/matches/{match_id}")[1], server.call("GET", "/api/matches")[1],
        server.call("GET", "/api/matches?status=over")[1], server.call("GET", "/api/games")[1],
    ]
    return created["match"], [json.dumps(item) for item in [*client.seen, *spectator.seen, *answers]]


def candidates(texts: list[str], match: dict[str, Any]) -> set[Any]:
    """Every seed a client could try: each integer it was sent, the match id, its creation time."""
    found: set[Any] = {int(number) for text in texts for number in re.findall(r"-?\d+", text)}
    created = match["created"]
    return found | {match["id"], created, str(created), int(created), round(created), int(created * 1000)}


def predictions(game: Game[State], match: dict[str, Any], seed: Any, actions: list[int]) -> list[bool]:
    """For each chance decision of the match, whether the engine run from ``seed`` (the match's own
    actions replayed, chance taken from ``State.sample_chance``) foretells it."""
    shadow = game.new(match["players"], match["options"], seed)
    hits = []
    for action in actions:
        if shadow.to_move() == CHANCE:
            hits.append(shadow.sample_chance() == action)
        shadow.apply(action)
    return hits


def guessing_bound(
    game: Game[State], match: dict[str, Any], seed: int, actions: list[int], tries: int
) -> float:
    """The most hits guessing may reach (failing a fair server with probability MISS_PROBABILITY).

    Whatever a wrong seed predicts, the true outcome (from the secret seed) matches it with at most
    the likeliest outcome's probability p_i, whatever came before. So the hits of one seed are a
    sum whose excess over sum(p_i) is a supermartingale with steps in [-1, 1]: by Azuma-Hoeffding,
    P(hits >= sum(p_i) + t) <= exp(-2 t^2 / n); a union bound covers every seed tried."""
    state = game.new(match["players"], match["options"], seed)
    likeliest = []
    for action in actions:
        if state.to_move() == CHANCE:
            likeliest.append(max(probability for _, probability in state.chance_outcomes()))
        state.apply(action)
    n = len(likeliest)
    return sum(likeliest) + math.sqrt(n / 2 * math.log(tries / MISS_PROBABILITY))


@ASYNC
@pytest.mark.parametrize("game_name", ["conflict", "mille"])
async def test_what_a_seat_is_sent_does_not_foretell_chance(
    fair_server: Server, clients: list[Client], game_name: str
) -> None:
    game = get_game(game_name)
    choices = random.Random(13)
    longest = 0
    for _ in range(MOST_MATCHES):  # a Conflict match may end after a few rolls: then another
        match, texts = await play_one_seat(fair_server, clients, game_name, choices)
        seed, actions = stored(fair_server, match["id"])
        assert not any(str(seed) in text for text in texts), "the seed reached the seat"
        events = len(predictions(game, match, seed, actions))
        # The predictor itself works: given the true seed it foretells every chance decision.
        assert all(predictions(game, match, seed, actions))
        tries = candidates(texts, match)
        hits = {repr(tried): sum(predictions(game, match, tried, actions)) for tried in tries}
        best_seed = max(hits, key=hits.__getitem__)  # seeds of mixed types: compare the hits only
        best = hits[best_seed]
        bound = guessing_bound(game, match, seed, actions, len(tries))
        assert best < bound, (
            f"seed {best_seed} from the seat's messages foretold {best} of {events} (bound {bound:.1f})")
        longest = max(longest, events)
        if longest >= MINIMUM_EVENTS:
            break
    assert longest >= MINIMUM_EVENTS, f"no match of {MOST_MATCHES} had {MINIMUM_EVENTS} chance decisions"


@pytest.mark.parametrize("game_name", ["conflict", "mille"])
def test_a_client_may_not_choose_the_seed_of_a_game_of_chance(fair_server: Server, game_name: str) -> None:
    for seats in (["open", "bot:random"], ["open", "open"]):
        body = {"game": game_name, "seats": seats, "seed": 12345}
        status, answer = fair_server.call("POST", "/api/matches", body)
        assert (status, answer["error"]["code"]) == (400, "seed_not_allowed"), answer
        assert "seed" in answer["error"]["message"]
    assert fair_server.call("GET", "/api/matches?all=true")[1]["matches"] == []
    # Bots in every seat: nobody is to be kept in the dark, and a seed makes a bot match repeatable.
    bots = fair_server.create(game=game_name, seats=["bot:random"] * 2, seed=12345, bot_seconds=0.01)
    assert stored(fair_server, bots["match"]["id"])[0] == 12345
    # A game with neither chance nor hidden information takes a seed from anyone.
    assert fair_server.create(game="loa", seats=["open", "open"], seed=5, join=0)["match"]["game"] == "loa"
