"""Chat per match (issue 15): "players talk; spectators talk among themselves (players do not see
it during play). Plain text, escaped, length- and rate-limited, stored with the match, included
in replays". Over real WebSockets: who hears what while the match runs and once it is over, in
live messages, in ``state.chat`` and in ``GET /api/matches/{id}/chat``; every refusal has its
code and stores nothing; messages come back after a restart, and a file of schema 3 gains the
chat table."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from server_helpers import Client, call, open_client
from server_process import Server, Storage

from parlour.server.storage import (
    SCHEMA_VERSION,
    ChatLine,
    ChatRoom,
    MatchRow,
    MemoryStore,
    Progress,
    SeatRecord,
    SQLiteStore,
    Store,
    StoreError,
)

ASYNC = pytest.mark.asyncio(loop_scope="session")

HTML = '<img src=x onerror="alert(1)"><b>gg</b> & <script>x</script>'


async def table(server: Server, clients: list[Client]) -> tuple[str, list[str], Client, Client, Client]:
    """A running Lines of Action match of Ann and Bob with a spectator: the id, the tokens, and
    Ann's, Bob's and the spectator's connections."""
    created = server.create(game="loa", seats=["open", "open"], join=0, name="Ann")
    match_id = created["match"]["id"]
    tokens = [created["token"], server.join(match_id, name="Bob")["token"]]
    ann = await open_client(clients, server, match_id, "Ann")
    await ann.hello(tokens[0])
    bob = await open_client(clients, server, match_id, "Bob")
    await bob.hello(tokens[1])
    watcher = await open_client(clients, server, match_id, "spectator")
    await watcher.hello()
    return match_id, tokens, ann, bob, watcher


def numbered(number: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is the chat line numbered ``number``."""
    return lambda message: message.get("id") == number


async def said(client: Client) -> dict[str, Any]:
    return await client.until("a chat message", lambda message: message["type"] == "chat")


def chat_of(server: Server, match_id: str, token: str | None = None) -> list[dict[str, Any]]:
    query = f"?token={token}" if token else ""
    status, answer = server.call("GET", f"/api/matches/{match_id}/chat{query}")
    assert status == 200, answer
    return answer["chat"]  # type: ignore[no-any-return]


@ASYNC
async def test_players_talk_and_markup_is_just_text(server: Server, clients: list[Client]) -> None:
    match_id, tokens, ann, bob, watcher = await table(server, clients)
    await ann.send({"type": "chat", "text": f"  {HTML}  "})
    heard = [await said(client) for client in (ann, bob, watcher)]  # spectators may read the players
    assert heard[0] == heard[1] == heard[2]
    message = heard[0]
    assert {key: message[key] for key in ("type", "match", "room", "seat", "name", "text", "id")} == {
        "type": "chat", "match": match_id, "room": "players", "seat": 0, "name": "Ann", "text": HTML, "id": 1}
    assert isinstance(message["at"], float)
    await bob.send({"type": "chat", "text": "hello, Ann"})
    assert (await said(ann))["name"] == "Bob"
    assert [line["text"] for line in chat_of(server, match_id, tokens[0])] == [HTML, "hello, Ann"]
    again = await open_client(clients, server, match_id, "Ann again")
    assert [line["id"] for line in (await again.hello(tokens[0]))["chat"]] == [1, 2]


@ASYNC
async def test_the_spectators_room_reaches_no_player_until_the_match_is_over(
    server: Server, clients: list[Client]
) -> None:
    match_id, tokens, ann, bob, watcher = await table(server, clients)
    other = await open_client(clients, server, match_id, "another spectator")
    await other.hello()
    await watcher.send({"type": "chat", "text": "Black should take on d4"})
    for spectator in (watcher, other):
        message = await said(spectator)
        assert (message["room"], message["seat"], message["name"]) == ("spectators", None, "spectator")
    for player in (ann, bob):
        await player.ping()  # the pong comes, and nothing of the spectators' before it
    assert not any(message["type"] == "chat" for message in ann.seen + bob.seen)
    assert chat_of(server, match_id, tokens[0]) == []
    assert [line["room"] for line in chat_of(server, match_id)] == ["spectators"]
    again = await open_client(clients, server, match_id, "Ann again")
    assert (await again.hello(tokens[0]))["chat"] == []
    # Once over, everyone may read it: in a new state, in /chat, and live.
    await ann.send({"type": "resign"})
    await ann.expect("update", version=1)
    await watcher.send({"type": "chat", "text": "well played"})
    assert (await said(ann))["text"] == "well played"
    later = await open_client(clients, server, match_id, "Ann later")
    texts = [line["text"] for line in (await later.hello(tokens[0]))["chat"]]
    assert texts == ["Black should take on d4", "well played"]
    assert [line["text"] for line in chat_of(server, match_id, tokens[1])] == texts


@ASYNC
async def test_bad_chat_is_refused_and_nothing_is_said(server: Server, clients: list[Client]) -> None:
    match_id, _tokens, ann, bob, _watcher = await table(server, clients)
    early = await open_client(clients, server, match_id, "before hello")
    await early.send({"type": "chat", "text": "hi"})
    await early.error("hello_first")
    for text in ("", "   ", "x" * 501, "bell\u0007", "\ud800", None, 5, ["hi"]):
        await ann.send({"type": "chat", "text": text} if text is not None else {"type": "chat"})
        await ann.error("bad_chat")
    await ann.send({"type": "chat", "text": "y" * 500})  # the longest there may be
    assert (await said(bob))["text"] == "y" * 500
    assert [len(line["text"]) for line in chat_of(server, match_id)] == [500]
    status, answer = server.call("GET", f"/api/matches/{match_id}/chat?token=nobody")
    assert (status, answer["error"]["code"]) == (403, "bad_token")
    status, answer = server.call("GET", "/api/matches/nosuchmatch/chat")
    assert (status, answer["error"]["code"]) == (404, "no_match")


@ASYNC
async def test_each_connection_has_its_chat_rate(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    server = storage.server(tmp_path, limits={"chat_burst": 3, "chat_per_minute": 1}).start()
    try:
        match_id, tokens, ann, bob, _watcher = await table(server, clients)
        for number in range(3):
            await ann.send({"type": "chat", "text": f"message {number}"})
            await said(bob)
        await ann.send({"type": "chat", "text": "one too many"})
        refused = await ann.until("the refusal", lambda message: message["type"] == "error")
        assert refused["code"] == "rate_limited"
        assert refused["retry_after"] >= 1
        second = await open_client(clients, server, match_id, "Ann's second tab")
        await second.hello(tokens[0])
        await second.send({"type": "chat", "text": "from another tab"})
        assert (await said(bob))["text"] == "from another tab"
        assert [line["text"] for line in chat_of(server, match_id)][-2:] == ["message 2", "from another tab"]
    finally:
        server.stop()


@ASYNC
async def test_an_address_has_one_chat_budget_over_all_its_connections(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    """"length- and rate-limited": many sockets from one address do not make many budgets."""
    server = storage.server(tmp_path, limits={"chat_address_burst": 4, "chat_address_per_minute": 1}).start()
    try:
        match_id, _tokens, ann, bob, watcher = await table(server, clients)
        for number, speaker in enumerate((ann, bob, watcher, ann)):  # each well within its own rate
            await speaker.send({"type": "chat", "text": f"message {number}"})
            await speaker.until("its own message", numbered(number + 1))
        fresh = await open_client(clients, server, match_id, "a new spectator")
        await fresh.hello()
        await fresh.send({"type": "chat", "text": "one too many"})
        refused = await fresh.error("rate_limited")
        assert refused["retry_after"] >= 1
        assert [line["text"] for line in chat_of(server, match_id)] == [f"message {n}" for n in range(4)]
    finally:
        server.stop()


@ASYNC
async def test_a_match_s_chat_is_bounded_and_says_so(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    """"stored with the match", but not without bound: one address cannot grow a match's chat for ever."""
    server = storage.server(tmp_path, limits={"chat_per_match": 3}).start()
    try:
        match_id, tokens, ann, bob, watcher = await table(server, clients)
        for number, speaker in enumerate((ann, watcher, bob), start=1):
            await speaker.send({"type": "chat", "text": "room left"})
            await speaker.until("its own message", numbered(number))
        for speaker in (ann, watcher):
            await speaker.send({"type": "chat", "text": "no room"})
            refused = await speaker.until("the refusal", lambda message: message["type"] == "error")
            assert refused["code"] == "chat_full"
        assert [line["id"] for line in chat_of(server, match_id)] == [1, 2, 3]
        later = await open_client(clients, server, match_id, "Bob later")
        assert [line["id"] for line in (await later.hello(tokens[1]))["chat"]] == [1, 3]  # players' room
    finally:
        server.stop()


def test_reading_the_chat_has_its_own_budget(storage: Storage, tmp_path: Path) -> None:
    """A replay reads the chat from GET …/chat: its own per-address budget, not the lobby list's."""
    server = storage.server(tmp_path, limits={"chat_list_burst": 2, "chat_list_per_minute": 1}).start()
    try:
        match_id = server.create(game="loa", seats=["open", "open"])["match"]["id"]
        for _ in range(2):
            chat_of(server, match_id)
        status, headers, answer = call(server, "GET", f"/api/matches/{match_id}/chat")
        assert (status, answer["error"]["code"]) == (429, "rate_limited")
        assert int(headers["retry-after"]) >= 1
        assert server.call("GET", "/api/matches")[0] == 200  # the list's budget is untouched
        assert call(server, "GET", f"/api/matches/{match_id}/chat", source="127.0.0.2")[0] == 200
    finally:
        server.stop()


@ASYNC
async def test_chat_is_stored_with_the_match_and_back_after_a_restart(
    own_server: Server, clients: list[Client]
) -> None:
    server = own_server
    match_id, tokens, ann, _bob, watcher = await table(server, clients)
    await ann.send({"type": "chat", "text": "first"})
    await said(watcher)
    await watcher.send({"type": "chat", "text": "from the gallery"})
    await said(watcher)
    server.kill()
    server.start()
    ann = await open_client(clients, server, match_id, "Ann after the restart")
    assert [line["text"] for line in (await ann.hello(tokens[0]))["chat"]] == ["first"]
    watcher = await open_client(clients, server, match_id, "spectator after the restart")
    assert [line["id"] for line in (await watcher.hello())["chat"]] == [1, 2]
    await ann.send({"type": "chat", "text": "second"})
    assert (await said(watcher))["id"] == 3  # numbered on from the stored ones
    assert [line["text"] for line in chat_of(server, match_id)] == ["first", "from the gallery", "second"]


@pytest.mark.sqlite_only("it writes a SQLite file of the old schema")
@ASYNC
async def test_a_file_of_schema_3_gains_the_chat_table(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    server = storage.server(tmp_path).start()
    match_id = server.create(game="loa", seats=["open", "open"], join=0, name="Ann")["match"]["id"]
    server.stop()
    db = sqlite3.connect(server.db)  # as a parlour before chat left it: no chat table, schema 3
    db.execute("DROP TABLE chat")
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()
    server.start()
    try:
        watcher = await open_client(clients, server, match_id, "spectator")
        assert (await watcher.hello())["chat"] == []
        await watcher.send({"type": "chat", "text": "anyone?"})
        assert (await said(watcher))["id"] == 1
        assert server.summary(match_id)["seats"][0]["player"] == "Ann"
    finally:
        server.stop()
    db = sqlite3.connect(server.db)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    assert db.execute("SELECT text FROM chat WHERE match_id = ?", (match_id,)).fetchall() == [("anyone?",)]
    db.close()


# --- the stores ---------------------------------------------------------------------------------


@pytest_asyncio.fixture(params=["sqlite", "memory"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    made: Store = SQLiteStore(tmp_path / "chat.sqlite3") if request.param == "sqlite" else MemoryStore()
    yield made
    await made.close()


@ASYNC
async def test_both_stores_number_a_match_s_chat_and_read_only_the_latest_asked_for(store: Store) -> None:
    for match_id in ("m1", "m2"):
        await store.create(MatchRow(id=match_id, game="loa", players=2, options={}, seed=1,
                                    seats=[SeatRecord("open"), SeatRecord("open")], bot_seconds=1.0,
                                    progress=Progress("open", 0, 0, None)))
    said = [ChatLine(0, "players", 0, "Ann", "one", 10.0),
            ChatLine(0, "spectators", None, "spectator", "<b>two</b>", 11.5),
            ChatLine(0, "players", 1, "Bob", "three", 12.0)]
    # The store numbers the messages (what a caller says is ignored): two copies of a match in
    # memory, each saying something, never take the same number.
    stored = [await store.add_chat("m1", line, 10) for line in said]
    assert [line.id if line else None for line in stored] == [1, 2, 3]
    assert (await store.add_chat("m2", ChatLine(7, "players", 1, "Bob", "elsewhere", 12.0), 10)) == \
        ChatLine(1, "players", 1, "Bob", "elsewhere", 12.0)
    both: list[ChatRoom] = ["players", "spectators"]
    assert await store.load_chat("m1", both, 10) == stored
    assert [line.text for line in await store.load_chat("m1", both, 2)] == ["<b>two</b>", "three"]
    assert [line.text for line in await store.load_chat("m1", ["players"], 10)] == ["one", "three"]
    assert [line.text for line in await store.load_chat("m1", ["spectators"], 10)] == ["<b>two</b>"]
    # "stored with the match", but not without bound: a match full says so and stores nothing.
    assert await store.add_chat("m1", ChatLine(0, "players", 1, "Bob", "four", 13.0), 3) is None
    with pytest.raises(StoreError):  # text that is not Unicode is refused, by either store
        await store.add_chat("m1", ChatLine(0, "players", 1, "Bob", "\ud800", 13.0), 10)
    assert [line.text for line in await store.load_chat("m1", both, 10)] == ["one", "<b>two</b>", "three"]
    assert await store.load_chat("nosuchmatch", both, 10) == []
