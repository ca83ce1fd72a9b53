"""Clocks over real WebSockets (issue 14), on a server whose time moves only when the test says
(``parlour serve --test-clock``, ``POST /api/test/clock``): nothing here sleeps or times anything.

A clock that runs out retires its seat ("out-of-time": with two players the other wins); the
increment is added after each move; a per-move clock starts afresh at every move; a restart charges
nobody for the time the server was down; a bot moves within its clock; bad clock options are
refused and nothing is stored; the test clock exists only when asked for, and only on 127.0.0.1.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_helpers import Client, check_message, open_client, replayed
from server_process import ROOT, Server, Storage

from parlour.games import get_game
from parlour.server.match import ClockRule
from parlour.server.storage import SCHEMA_VERSION

LOA = get_game("loa")
ASYNC = pytest.mark.asyncio(loop_scope="session")
TEST_CLOCK = ["--test-clock"]


@pytest.fixture(scope="module")
def clocked(storage: Storage, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server on the test clock, shared by the tests that do not restart it."""
    running = storage.server(tmp_path_factory.mktemp("clocked"), flags=TEST_CLOCK).start()
    yield running
    running.stop()


def advance(server: Server, seconds: float, timers: bool = True) -> float:
    """Moves the server's clock on; it answers once whatever ran out is stored and published
    (without ``timers``, nothing runs out yet: as on a server too busy to notice)."""
    status, answer = server.call("POST", "/api/test/clock", {"advance": seconds, "timers": timers})
    assert status == 200, answer
    now: float = answer["now"]
    return now


async def two_players(
    server: Server, clients: list[Client], clock: dict[str, Any]
) -> tuple[str, Client, Client]:
    """Ann (seat 0, Black, to move first) and Bob (seat 1) in a timed match of Lines of Action."""
    created = server.create(game="loa", seats=["open", "open"], join=0, name="Ann", clock=clock)
    match_id = created["match"]["id"]
    stored = {"increment": 0, **clock} if "base" in clock else clock  # the increment defaults to none
    assert created["match"]["clock"] == stored
    other = server.join(match_id, name="Bob")
    players = []
    for seat, token in enumerate((created["token"], other["token"])):
        client = await open_client(clients, server, match_id, f"seat {seat}")
        await client.hello(token)
        players.append(client)
    return match_id, players[0], players[1]


def latest(client: Client) -> dict[str, Any]:
    return next(message for message in reversed(client.seen) if message["type"] in ("state", "update"))


async def move(mover: Client, others: list[Client], version: int) -> dict[str, Any]:
    """The mover plays its first legal action; every client sees the update, which is returned."""
    await mover.send({"type": "action", "text": latest(mover)["legal"][0]["text"], "version": version})
    updates = [await client.expect("update", version=version + 1) for client in [mover, *others]]
    assert all(update["clock"] == updates[0]["clock"] for update in updates)
    return updates[0]


@ASYNC
async def test_a_clock_that_runs_out_retires_the_seat_and_ends_a_two_player_match(
    clocked: Server, clients: list[Client]
) -> None:
    match_id, ann, bob = await two_players(clocked, clients, {"base": 60, "increment": 5})
    start = ann.seen[0]["clock"]
    assert start["rule"] == {"base": 60, "increment": 5}
    assert start["remaining"] == [60, 60]
    assert start["running"] == 0
    assert start["now"] >= start["since"]
    advance(clocked, 10)
    update = await move(ann, [bob], 0)
    # 60 - 10 spent + 5 increment; Bob's clock runs from the time of the move.
    assert update["clock"]["remaining"] == [55, 60]
    assert update["clock"]["running"] == 1
    assert update["clock"]["since"] == start["since"] + 10
    advance(clocked, 59)
    await bob.ping()  # nothing ran out: nothing came before the pong
    state = await (await open_client(clients, clocked, match_id, "watcher")).hello()
    assert state["clock"]["remaining"] == [55, 60]
    assert state["clock"]["now"] - state["clock"]["since"] == 59  # a client ticks the rest itself
    advance(clocked, 1)
    game = replayed(LOA, state)
    game.retire(1, "out-of-time")
    for seat, client in ((0, ann), (1, bob)):
        over = await client.expect("update", version=2)
        assert over["event"] == {"version": 2, "seat": 1, "action": "White ran out of time", "turn": 1,
                                 "leaving": {"kind": "retire", "seat": 1, "why": "out-of-time"}}
        assert over["status"] == "over"
        assert over["view"]["outcome"]["winner"] == 0
        assert over["view"]["outcome"]["reason"] == "out-of-time"
        assert over["clock"]["remaining"] == [55, 0]
        assert over["clock"]["running"] is None
        check_message(over, seat, game)
    summary = clocked.summary(match_id)
    assert summary["result"] == "Black (Ann) wins: the other side ran out of time"
    # Over: the clock stands, and moving again is refused.
    advance(clocked, 1000)
    await ann.send({"type": "action", "text": "a2-c2"})
    await ann.error("game_over")
    assert clocked.summary(match_id)["version"] == 2


@ASYNC
async def test_a_rematch_keeps_the_clock(clocked: Server, clients: list[Client]) -> None:
    clock = {"base": 30, "increment": 2}
    _, ann, bob = await two_players(clocked, clients, clock)
    await ann.send({"type": "resign"})
    await ann.until("the end", lambda message: message["type"] == "update" and message["status"] == "over")
    await ann.send({"type": "offer", "what": "rematch"})
    await bob.until("the offer", lambda message: message["type"] == "offers")
    await bob.send({"type": "accept", "what": "rematch"})
    rematch = (await bob.until("the rematch", lambda message: message["type"] == "rematch"))["rematch"]
    assert clocked.summary(rematch["match"])["clock"] == clock
    player = await open_client(clients, clocked, rematch["match"], "Bob in the rematch")
    state = await player.hello(rematch["token"])
    assert state["clock"]["remaining"] == [30, 30]
    assert state["clock"]["running"] == 0  # Bob, seat 0 now, moves first: his clock runs


@ASYNC
async def test_a_per_move_clock_starts_afresh_at_every_move(clocked: Server, clients: list[Client]) -> None:
    match_id, ann, bob = await two_players(clocked, clients, {"per_move": 20})
    assert ann.seen[0]["clock"]["rule"] == {"per_move": 20}
    advance(clocked, 19)
    update = await move(ann, [bob], 0)
    assert update["clock"]["remaining"] == [20, 20]  # 19 s spent, none carried over
    advance(clocked, 19)
    update = await move(bob, [ann], 1)
    assert update["clock"]["remaining"] == [20, 20]
    assert update["clock"]["running"] == 0
    advance(clocked, 20)
    over = await bob.expect("update", version=3)
    assert over["event"]["action"] == "Black ran out of time"
    assert over["view"]["outcome"]["winner"] == 1
    assert clocked.summary(match_id)["status"] == "over"


@ASYNC
async def test_an_untimed_match_has_no_clock(clocked: Server, clients: list[Client]) -> None:
    created = clocked.create(game="loa", seats=["open", "bot:random"], join=0, name="Ann")
    assert created["match"]["clock"] is None
    ann = await open_client(clients, clocked, created["match"]["id"], "Ann")
    assert (await ann.hello(created["token"]))["clock"] is None
    advance(clocked, 10**6)  # nothing runs out in a match without a clock
    update = await move(ann, [], 0)
    assert update["clock"] is None
    assert update["status"] == "running"


@ASYNC
async def test_a_bot_moves_within_its_clock(clocked: Server, clients: list[Client]) -> None:
    created = clocked.create(game="loa", seats=["open", "bot:greedy"], join=0, name="Ann",
                             clock={"base": 10, "increment": 2}, bot_seconds=5)
    ann = await open_client(clients, clocked, created["match"]["id"], "Ann")
    await ann.hello(created["token"])
    advance(clocked, 3)
    await move(ann, [], 0)
    answered = await ann.expect("update", version=2)
    assert answered["event"]["seat"] == 1
    assert answered["clock"]["remaining"] == [9, 12]  # the bot spent no test-clock time, gained 2
    assert answered["status"] == "running"
    # What a bot may think, from its clock: a twentieth of what is left and half the increment.
    assert ClockRule(10, 2).bot_budget(10, 5) == 1.5
    assert ClockRule(300, 3).bot_budget(300, 1) == 1  # never above the match's bot_seconds
    assert ClockRule(20, per_move=True).bot_budget(0.1, 1) == 0.01  # a hundredth to think in
    assert ClockRule(20, per_move=True).bot_share(0.1, 1) == 0.005  # but charged no more than its share


@given(st.floats(1, 10**4), st.floats(0, 60), st.booleans(), st.floats(0.01, 60),
       st.lists(st.floats(0, 10**6), min_size=1, max_size=400))
def test_a_bot_charged_its_share_at_most_never_runs_out(
    base: float, increment: float, per_move: bool, most: float, spent: list[float]
) -> None:
    rule = ClockRule(base, 0.0 if per_move else increment, per_move)
    left = base
    for seconds in spent:  # however long the machine kept it (the server charges as _clock_mark)
        left = rule.after_move(left - min(seconds, rule.bot_share(left, most)))
        assert left > 0


@ASYNC
async def test_bots_never_lose_on_time_however_long_the_server_keeps_them(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    server = storage.server(tmp_path, flags=TEST_CLOCK).start()
    try:
        created = server.create(game="loa", seats=["bot:strong", "bot:strong"], clock={"base": 4},
                                bot_seconds=0.2)
        watcher = await open_client(clients, server, created["match"]["id"], "watcher")
        await watcher.hello()
        await watcher.expect("update", version=1)
        # A bot is thinking (in real time, about 0.2 s) while the server's clock jumps a day on:
        # whichever move spans the jump costs its clock its share, 4 / 20 seconds, and no more.
        advance(server, 86_400)
        charged = 0.0
        while charged == 0:  # the moves made before the jump cost nothing: the clock stood still
            update = await watcher.until("a move", lambda m: m["type"] == "update")
            assert update["status"] == "running", update["event"]
            assert "time" not in update["event"]["action"]
            charged = sum(4 - left for left in update["clock"]["remaining"])
        assert charged == pytest.approx(0.2)
    finally:
        server.stop()


BAD_CLOCKS: list[tuple[Any, str]] = [
    ("5+3", "must be null"),
    ([300, 3], "must be null"),
    ({}, "say the base time"),
    ({"increment": 3}, "say the base time"),
    ({"base": 300, "per_move": 30}, "a per-move clock has no base"),
    ({"base": 300, "extra": 1}, "no clock option 'extra'"),
    ({"base": 0}, '"base"'),
    ({"base": -5}, '"base"'),
    ({"base": True}, '"base"'),
    ({"base": "300"}, '"base"'),
    ({"base": 300, "increment": -1}, '"increment"'),
    ({"base": 300, "increment": 601}, '"increment"'),
    ({"per_move": 0.5}, '"per_move"'),
    ({"per_move": 10**6}, '"per_move"'),
]


@pytest.mark.parametrize(("clock", "words"), BAD_CLOCKS)
def test_bad_clock_options_are_refused_and_nothing_is_stored(clocked: Server, clock: Any, words: str) -> None:
    status, before = clocked.call("GET", "/api/matches?all=1")
    assert status == 200
    status, answer = clocked.call("POST", "/api/matches", {"game": "loa", "clock": clock})
    assert status == 400, answer
    assert answer["error"]["code"] == "bad_clock"
    assert words in answer["error"]["message"]
    assert clocked.call("GET", "/api/matches?all=1")[1]["matches"] == before["matches"]


@ASYNC
async def test_a_restart_keeps_every_clock_and_charges_nobody_for_the_time_down(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    server = storage.server(tmp_path, flags=TEST_CLOCK).start()
    try:
        match_id, ann, bob = await two_players(server, clients, {"base": 100})
        advance(server, 30)
        update = await move(ann, [bob], 0)
        assert update["clock"]["remaining"] == [70, 100]
        advance(server, 12)  # Bob thinks; then the server stops (the time down is nobody's)
        server.stop()
        server.start()
        assert server.summary(match_id)["clock"] == {"base": 100, "increment": 0}
        watcher = await open_client(clients, server, match_id, "after the restart")
        state = await watcher.hello()
        assert state["clock"]["remaining"] == [70, 100]
        assert state["clock"]["running"] == 1
        assert state["clock"]["now"] == state["clock"]["since"]  # Bob's clock starts again at start-up
        advance(server, 99)
        await watcher.ping()
        advance(server, 1)
        over = await watcher.expect("update", version=2)
        assert over["event"]["action"] == "White ran out of time"
        assert over["clock"]["remaining"] == [70, 0]
    finally:
        server.stop()


def test_the_test_clock_is_not_there_unless_asked_for(server: Server) -> None:
    status, answer = server.call("POST", "/api/test/clock", {"advance": 60})
    assert status == 404
    assert answer["error"]["code"] == "not_found"


def test_the_test_clock_refuses_bad_advances(clocked: Server) -> None:
    for body in ({}, {"advance": -1}, {"advance": "10"}, [10], {"advance": 1, "timers": "no"}):
        status, answer = clocked.call("POST", "/api/test/clock", body)
        assert (status, answer["error"]["code"]) == (400, "bad_request"), body


def test_the_test_clock_is_refused_unless_the_host_is_loopback(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "serve", "--test-clock", "--host", "0.0.0.0", "--port", "0",
         "--db", str(tmp_path / "never.sqlite3")],
        cwd=ROOT, capture_output=True, text=True, timeout=30, check=False,
    )
    assert done.returncode == 2
    assert "127.0.0.1" in done.stderr
    assert not (tmp_path / "never.sqlite3").exists()


@ASYNC
async def test_with_three_players_a_seat_out_of_time_is_out_and_play_goes_on(
    clocked: Server, clients: list[Client]
) -> None:
    created = clocked.create(game="biloba", players=3, seats=["open"] * 3, join=0, name="Ann",
                             clock={"base": 50})
    match_id = created["match"]["id"]
    tokens = [created["token"], *(clocked.join(match_id, name=name)["token"] for name in ("Bob", "Cy"))]
    players = []
    for seat, token in enumerate(tokens):
        client = await open_client(clients, clocked, match_id, f"seat {seat}")
        await client.hello(token)
        players.append(client)
    first = players[0].seen[-1]["view"]["to_move"]
    assert first == 0
    await move(players[0], players[1:], 0)
    second = latest(players[0])["view"]["to_move"]
    assert second != 0
    advance(clocked, 50)  # the second seat's 50 s run out
    for seat, client in enumerate(players):
        update = await client.expect("update", version=2)
        assert update["event"]["seat"] == second
        assert update["event"]["action"].endswith("ran out of time")
        assert update["status"] == "running"  # two seats play on
        clock = update["clock"]
        assert clock["remaining"][second] == 0
        assert clock["running"] == update["view"]["to_move"] != second
        out = await client.expect("out", version=2)
        assert out["seat"] == second
        assert out["words"].endswith("ran out of time")
        assert out["words"].startswith("You (" if seat == second else update["view"]["seats"][second])
    third = latest(players[0])["view"]["to_move"]
    update = await move(players[third], [client for client in players if client is not players[third]], 2)
    assert update["clock"]["running"] not in (second, None)
    assert clocked.summary(match_id)["status"] == "running"


@ASYNC
async def test_a_move_after_the_clock_ran_out_is_refused_and_the_seat_retired(
    clocked: Server, clients: list[Client]
) -> None:
    match_id, ann, bob = await two_players(clocked, clients, {"base": 30})
    advance(clocked, 31, timers=False)  # out of time, but the timer has not had its turn yet
    await ann.send({"type": "action", "text": latest(ann)["legal"][0]["text"], "version": 0})
    for client in (ann, bob):
        over = await client.expect("update", version=1)
        assert over["event"]["action"] == "Black ran out of time"
        assert over["view"]["outcome"]["winner"] == 1
        assert over["clock"]["remaining"] == [0, 30]
    refused = await ann.error("out_of_time")
    assert refused["message"] == "your clock ran out before that move came: Black is retired"
    advance(clocked, 0)  # the held timer runs now, and finds the game over: nothing more happens
    await bob.ping()
    assert clocked.summary(match_id)["version"] == 1


OLD_CLOCKLESS = """
CREATE TABLE matches (
    id TEXT PRIMARY KEY, created REAL NOT NULL, game TEXT NOT NULL, players INTEGER NOT NULL,
    options TEXT NOT NULL, seed INTEGER NOT NULL, start TEXT, bot_seconds REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'running', version INTEGER NOT NULL DEFAULT 0, to_move TEXT,
    outcome TEXT, updated REAL NOT NULL DEFAULT 0
);
CREATE TABLE seats (
    match_id TEXT NOT NULL REFERENCES matches(id), seat INTEGER NOT NULL, kind TEXT NOT NULL,
    bot TEXT, name TEXT, token_hash TEXT, PRIMARY KEY (match_id, seat)
);
CREATE TABLE events (
    match_id TEXT NOT NULL REFERENCES matches(id), version INTEGER NOT NULL, action INTEGER NOT NULL,
    created REAL NOT NULL, PRIMARY KEY (match_id, version)
) WITHOUT ROWID;
PRAGMA user_version = 1;
"""


@pytest.mark.sqlite_only("it writes a SQLite file of the old schema")
@ASYNC
async def test_a_file_from_before_clocks_is_migrated_and_its_matches_have_none(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    path = tmp_path / "parlour.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(OLD_CLOCKLESS)
    db.execute("INSERT INTO matches VALUES "
               "('old', 1, 'loa', 2, '{}', 3, NULL, 1.0, 'running', 1, '1', NULL, 1)")
    db.executemany("INSERT INTO seats (match_id, seat, kind, name) VALUES ('old', ?, 'person', ?)",
                   [(0, "Ann"), (1, "Bob")])
    first = LOA.new(2, {}, 3).legal_actions()[0]
    db.execute("INSERT INTO events VALUES ('old', 1, ?, 1)", (first,))
    db.commit()
    db.close()
    server = storage.server(tmp_path, flags=TEST_CLOCK).start()
    try:
        assert server.summary("old")["clock"] is None
        watcher = await open_client(clients, server, "old", "watcher")
        state = await watcher.hello()
        assert (state["version"], state["clock"]) == (1, None)
        advance(server, 20 * 3600)  # less than a day untouched: it is not abandoned either
        await watcher.ping()  # nothing runs out in a match without a clock
        timed = server.create(game="loa", clock={"per_move": 30})
        assert server.summary(timed["match"]["id"])["clock"] == {"per_move": 30}
    finally:
        server.stop()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    assert db.execute("SELECT clock, rematch_of FROM matches WHERE id = 'old'").fetchone() == (None, None)
    assert db.execute("SELECT clock FROM events WHERE match_id = 'old'").fetchall() == [(None,)]
    db.close()
