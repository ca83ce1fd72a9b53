"""Replays and records (issue 15): "any finished match, and any running match for its spectators,
opens in a replay view"; "a seat in a running match of a hidden-information game steps through
its own views only; once a match is over its whole record is public (all hands shown)"; "download
a match's record (JSON, the engine's record format)". Every position is checked against the
engine's own replay of the server's store (its secret seed and actions): nothing hidden leaks, and
the record, sent without the seed, replays to the same end."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Client, call, open_client, until_over, wait_until_over
from server_process import Server, Storage

from parlour.engine import MatchRecord, State
from parlour.games import get_game

ASYNC = pytest.mark.asyncio(loop_scope="session")

ROOMY_REPLAYS = {"replay_burst": 100_000}
"""These tests step through whole matches from one address; the budget's own test sets it."""


def stored(server: Server, match_id: str) -> tuple[str, int, dict[str, Any], int, list[int]]:
    """The match's game, players, options, secret seed and actions, from the server's own store."""
    [(game, players, options, seed)] = server.query(
        "SELECT game, players, options, seed FROM matches WHERE id = ?", match_id)
    actions = [action for (action,) in server.query(
        "SELECT action FROM events WHERE match_id = ? ORDER BY version", match_id)]
    return game, players, json.loads(options), seed, actions


def positions(server: Server, match_id: str) -> list[State]:
    """The match's state at every version, by the engine from the secret seed and the actions."""
    game, players, options, seed, actions = stored(server, match_id)
    state = get_game(game).new(players, options, seed)
    found = [state.copy()]
    for action in actions:
        state.play_recorded(action)
        found.append(state.copy())
    return found


def unshuffled(position: dict[str, Any]) -> dict[str, Any]:
    """A position with Mille's undrawn pile as a sorted list: Mille's set-up shuffles the pile from
    the seed, so a record replayed from seed 0 holds the cards not yet drawn in another order
    (every card drawn is an action of the record: nobody sees the difference)."""
    hand = position.get("hand")
    if isinstance(hand, dict) and isinstance(hand.get("pile"), list):
        return {**position, "hand": {**hand, "pile": sorted(hand["pile"])}}
    return position


def replay(server: Server, match_id: str, query: str = "") -> dict[str, Any]:
    status, answer = server.call("GET", f"/api/matches/{match_id}/replay?{query}")
    assert status == 200, (query, answer)
    return answer  # type: ignore[no-any-return]


def every_step(server: Server, match_id: str, query: str = "") -> list[dict[str, Any]]:
    """Every step of the match, page after page of at most 50."""
    steps: list[dict[str, Any]] = []
    while True:
        page = replay(server, match_id, f"from={len(steps)}&{query}")
        steps += page["steps"]
        if len(steps) > page["version"]:
            return steps
        assert page["steps"], page


@pytest.fixture(scope="module")
def finished(
    storage: Storage, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, dict[str, str]]]:
    """A server of its own (what it stored is read) with a finished match of random bots per game."""
    server = storage.server(tmp_path_factory.mktemp("replay"), limits=ROOMY_REPLAYS).start()
    made = {}
    for game in ("mille", "conflict", "loa", "biloba"):
        created = server.create(game=game, seats=["bot:random", "bot:random"], bot_seconds=0.01)
        made[game] = created["match"]["id"]
    wait_until_over(server, list(made.values()))  # as a spectator is told: no polling
    yield server, made
    server.stop()


@ASYNC
async def test_a_finished_match_replays_every_position_in_the_open(
    finished: tuple[Server, dict[str, str]], clients: list[Client]
) -> None:
    server, made = finished
    for game, match_id in made.items():
        states = positions(server, match_id)
        steps = every_step(server, match_id)
        assert str(stored(server, match_id)[3]) not in json.dumps(steps)  # no seed anywhere
        assert [step["version"] for step in steps] == list(range(len(states))), game
        assert steps[0]["event"] is None
        for version in (0, 1, len(states) // 2, len(states) - 1):  # three plies and the set-up
            assert steps[version]["view"] == states[version].open_view(), (game, version)
            assert steps[version]["legal"] == []
        for version in range(1, len(states)):  # every event in full ("card ?" no more)
            full = states[version - 1].action_to_text(states[version].history[-1])
            assert steps[version]["event"]["action"] == full, (game, version)
        # The events are those of the match (seats, turns), only their texts in full.
        watcher = await open_client(clients, server, match_id, f"{game} spectator")
        live = (await watcher.hello())["events"]
        shown = [{**step["event"], "action": None} for step in steps[1:]]
        assert shown == [{**event, "action": None} for event in live], game
        page = replay(server, match_id, "from=3&count=2")
        assert page["perspective"] == "all"
        assert page["status"] == "over"
        assert page["version"] == len(states) - 1
        assert [step["version"] for step in page["steps"]] == [3, 4]


def test_a_finished_mille_match_shows_every_hand_and_every_card_drawn(
    finished: tuple[Server, dict[str, str]]
) -> None:
    server, made = finished
    steps = replay(server, made["mille"], "count=20")["steps"]
    assert not any(step["event"] and "?" in step["event"]["action"] for step in steps)
    states = positions(server, made["mille"])
    assert all(step["view"] == states[step["version"]].open_view() for step in steps)
    hands = steps[-1]["view"]["content"]["hands"]  # every seat's hand, once the match is over
    assert len(hands) == 2
    assert all(hand for hand in hands)


def test_the_record_replays_to_the_same_end_without_the_seed(finished: tuple[Server, dict[str, str]]) -> None:
    server, made = finished
    for game, match_id in made.items():
        status, headers, record = call(server, "GET", f"/api/matches/{match_id}/record")
        assert status == 200, record
        assert headers["content-disposition"] == f'attachment; filename="parlour-{game}-{match_id}.json"'
        _, _, _, seed, actions = stored(server, match_id)
        assert record["seed"] == 0
        assert str(seed) not in json.dumps(record)
        assert record["actions"] == actions
        replayed = MatchRecord.from_json(record).replay(get_game(game))  # Game.new(…, seed=0) and the actions
        end = positions(server, match_id)[-1]
        assert unshuffled(replayed.position_json()) == unshuffled(end.position_json()), game
        for seat in [None, *range(end.players)]:  # everything anyone sees is the same
            assert replayed.view(seat) == end.view(seat), (game, seat)
        assert replayed.open_view() == end.open_view(), game
        assert replayed.is_over()
        assert replayed.outcome() == end.outcome()


@ASYNC
async def test_a_running_match_replays_as_the_seat_or_a_spectator_sees_it(
    storage: Storage, clients: list[Client], tmp_path: Any
) -> None:
    own = storage.server(tmp_path).start()  # what it stored is read
    try:
        created = own.create(game="mille", seats=["open", "bot:random"], join=0, name="Ann")
        match_id, token = created["match"]["id"], created["token"]
        ann = await open_client(clients, own, match_id, "Ann")
        state = await ann.hello(token)
        while not state["legal"]:  # the deal and the bot's turn come first
            state = await ann.until("Ann to move", lambda m: m["type"] == "update" and bool(m["legal"]))
        await ann.send({"type": "action", "text": state["legal"][0]["text"]})
        await ann.until("Ann's play", lambda m: m["type"] == "update" and m["event"]["seat"] == 0)
        for seat, query in ((0, f"token={token}"), (None, "")):
            page = replay(own, match_id, f"count=50&{query}")
            assert str(stored(own, match_id)[3]) not in json.dumps(page)  # no seed anywhere
            # The bot plays on meanwhile: what the engine and a new connection see is read after the page.
            states = positions(own, match_id)
            listener = await open_client(clients, own, match_id, f"seat {seat}")
            seen = (await listener.hello(None if seat is None else token))["events"]
            assert page["perspective"] == seat
            assert page["status"] == "running"
            for step in page["steps"]:
                assert step["view"] == states[step["version"]].view(seat), (seat, step["version"])
            events = [step["event"] for step in page["steps"][1:]]
            assert events == seen[:len(events)], seat  # the texts this seat may read
            assert any(event["action"] == "card ?" for event in events)  # the other hand's draws stay hidden
            assert not any("hands" in step["view"]["content"] for step in page["steps"])
        status, answer = own.call("GET", f"/api/matches/{match_id}/record")
        assert (status, answer["error"]["code"]) == (409, "not_over")
        status, answer = own.call("GET", f"/api/matches/{match_id}/replay?token=not-a-token")
        assert (status, answer["error"]["code"]) == (403, "bad_token")
    finally:
        own.stop()


def test_bad_requests_are_refused(finished: tuple[Server, dict[str, str]]) -> None:
    server, made = finished
    match_id = made["loa"]
    for query in ("from=-1", "from=x", "count=0", "count=51", "count=1.5", "from=" + "9" * 40):
        status, answer = server.call("GET", f"/api/matches/{match_id}/replay?{query}")
        assert (status, answer["error"]["code"]) == (400, "bad_request"), query
    for path in ("/api/matches/nosuchmatch/replay", "/api/matches/nosuchmatch/record"):
        status, answer = server.call("GET", path)
        assert (status, answer["error"]["code"]) == (404, "no_match"), path
    last = replay(server, match_id, "from=100000")
    assert last["steps"] == []
    assert last["version"] > 0


def test_replays_have_a_budget_per_address(storage: Storage, tmp_path: Any) -> None:
    server = storage.server(tmp_path, limits={"replay_burst": 3, "replay_per_minute": 1}).start()
    try:
        match_id = server.create(game="loa", seats=["open", "open"])["match"]["id"]
        for _ in range(3):
            assert server.call("GET", f"/api/matches/{match_id}/replay")[0] == 200
        status, headers, answer = call(server, "GET", f"/api/matches/{match_id}/replay")
        assert (status, answer["error"]["code"]) == (429, "rate_limited")
        assert int(headers["retry-after"]) >= 1
        # Another address has its own budget.
        assert call(server, "GET", f"/api/matches/{match_id}/replay", source="127.0.0.2")[0] == 200
    finally:
        server.stop()


@ASYNC
async def test_opening_a_match_read_back_is_charged_to_the_replay_budget(
    storage: Storage, tmp_path: Any, clients: list[Client]
) -> None:
    """A finished match's page replays it (in a worker thread): that work counts as a replay's."""
    server = storage.server(tmp_path, limits={"replay_burst": 3, "replay_per_minute": 1}).start()
    try:
        made = [server.create(game="tictactoe", seats=["bot:random", "bot:random"], bot_seconds=0.01)
                ["match"]["id"] for _ in range(2)]
        for match_id in made:
            await until_over(server, match_id)
        server.stop()
        server.start()  # neither is in memory now
        first = await open_client(clients, server, made[0], "spectator of the first")
        assert (await first.hello())["status"] == "over"  # its whole budget: more than 3 actions
        second = await open_client(clients, server, made[1], "spectator of the second")
        await second.send({"type": "hello", "spectator": True})
        refused = await second.error("rate_limited")
        assert refused["retry_after"] >= 1
        await second.ping()  # the connection stays, as it was
        again = await open_client(clients, server, made[0], "the first again")
        assert (await again.hello())["status"] == "over"  # in memory now: nothing to replay
    finally:
        server.stop()
