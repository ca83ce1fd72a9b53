"""The HTTP lobby (docs/protocol.md, "HTTP"): games, creating, listing, joining and watching matches."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from server_helpers import Client, check_message, open_client
from server_process import WAIT, Server

from parlour.bots import bot_kinds
from parlour.games import GAMES, get_game
from parlour.server.messages import MAX_MESSAGE

LOA = get_game("loa")


def test_games_are_described_by_their_metadata(server: Server) -> None:
    status, answer = server.call("GET", "/api/games")
    assert status == 200
    listed = {entry["name"]: entry for entry in answer["games"]}
    assert set(listed) == set(GAMES)
    for name, game in GAMES.items():
        entry, info = listed[name], game.info
        assert (entry["title"], entry["min_players"], entry["max_players"]) == (
            info.title, info.min_players, info.max_players)
        assert entry["seat_names"] == [info.seat_name(seat) for seat in range(info.max_players)]
        assert [option["name"] for option in entry["options"]] == [option.name for option in info.options]
        assert [bot["kind"] for bot in entry["bots"]] == bot_kinds(name)
        # A rules page where the game has one (the four classics), none for the example.
        has_page = info.listed
        assert entry["help"] == (f"/help/{name}" if has_page else None)
        if has_page:
            assert server.call("GET", entry["help"])[0] == 200
        else:  # it says so, not that the install lost a file
            assert server.call("GET", f"/help/{name}") == (404, f"{info.title} has no rules page.")
        assert entry["end_reasons"] == dict(info.end_reasons)
        assert entry["end_reasons"]
        assert entry["listed"] is info.listed
        assert (entry["chance"], entry["hidden_information"]) == (info.chance, info.hidden_information)


def test_a_biloba_match_among_three_or_four_has_the_quiet_limit_unless_chosen(server: Server) -> None:
    """Issue 14: bots left among themselves must end, so a server match of Biloba with 3–4 players
    has the quiet limit on (BIL-51) unless its creator set it, and so has a match of two bots; 2 players
    with a person among them keep the rules' default."""
    listed = {entry["name"]: entry for entry in server.call("GET", "/api/games")[1]["games"]}
    assert listed["biloba"]["served_options"] == {"3": {"quiet_limit": 200}, "4": {"quiet_limit": 200}}
    assert listed["loa"]["served_options"] == {}
    bots = ["bot:random"] * 4
    assert server.create(game="biloba", players=4, seats=bots)["match"]["options"]["quiet_limit"] == 200
    assert server.create(game="biloba", players=3, seats=bots[:3],
                         options={"quiet_limit": None})["match"]["options"]["quiet_limit"] is None
    assert server.create(game="biloba", players=4, seats=bots,
                         options={"quiet_limit": 50})["match"]["options"]["quiet_limit"] == 50
    # Two bots shuffle for ever too; a person and a bot end when the person leaves.
    assert server.create(game="biloba", players=2, seats=bots[:2])["match"]["options"]["quiet_limit"] == 200
    with_a_person = server.create(game="biloba", players=2, seats=["open", bots[0]])["match"]
    assert with_a_person["options"]["quiet_limit"] is None


def test_an_unlisted_game_is_declared_and_plays_by_name(server: Server) -> None:
    """A game hidden from the lobby's menus (an example) is still created and played by name."""
    hidden = [game for game in GAMES.values() if not game.info.listed]
    assert hidden, "no registered game is unlisted"
    for game in hidden:
        created = server.create(game=game.info.name, seats=["open"] * game.info.default_players, join=0)
        assert created["match"]["game"] == game.info.name
        assert created["seat"] == 0
    status, answer = server.call("POST", "/api/matches", {"game": "no-such-game"})
    assert status == 404
    for game in hidden:  # the error lists the games on offer, not the hidden ones
        assert game.info.name not in answer["error"]["message"]


def test_create_list_and_join(server: Server) -> None:
    created = server.create(game="loa", options={"move_limit": 80}, seats=["open", "open"])
    match = created["match"]
    assert "token" not in created
    assert match["status"] == "open"
    assert match["version"] == 0
    assert match["to_move"] == 0
    assert match["options"]["move_limit"] == 80
    assert [seat["kind"] for seat in match["seats"]] == ["open", "open"]
    listed = server.call("GET", "/api/matches")[1]["matches"]
    assert match["id"] in [entry["id"] for entry in listed]

    first = server.join(match["id"], name="Ann")
    assert first["seat"] == 0
    assert len(first["token"]) >= 20
    assert first["ws"] == f"/ws/matches/{match['id']}"
    second = server.join(match["id"], seat=1, name="Bob")
    assert second["seat"] == 1
    assert second["token"] != first["token"]
    assert second["match"]["status"] == "running"
    assert [seat["player"] for seat in second["match"]["seats"]] == ["Ann", "Bob"]
    assert server.call("POST", f"/api/matches/{match['id']}/join", {"seat": 1})[0] == 409


def test_create_and_join_at_once(server: Server) -> None:
    created = server.create(game="loa", seats=["open", "bot:random"], join=0, name="Ann")
    assert created["seat"] == 0
    assert created["token"]
    assert created["match"]["status"] == "running"
    assert created["match"]["seats"][1] == {
        "seat": 1, "name": "White", "kind": "bot", "player": None, "bot": "random", "level": "beginner",
        "connected": True}


def test_seats_are_named_for_the_match(server: Server) -> None:
    # CON-17: a Conflict match of seats [1, 4] is played by Red and Yellow, not Red and Orange.
    created = server.create(game="conflict", options={"seats": [1, 4]}, seats=["open", "open"])
    match = created["match"]
    assert [seat["name"] for seat in match["seats"]] == ["Red", "Yellow"]
    server.join(match["id"], seat=0, name="Ann")
    status, answer = server.call("POST", f"/api/matches/{match['id']}/join", {"seat": 0})
    assert status == 409
    assert answer["error"]["message"] == "seat 0 (Red) is already taken"
    assert [seat["name"] for seat in server.join(match["id"])["match"]["seats"]] == ["Red", "Yellow"]


def test_a_games_set_up_is_shown_as_a_spectator_sees_it(server: Server) -> None:
    for name, game in GAMES.items():
        status, answer = server.call("GET", f"/api/games/{name}/start")
        assert status == 200
        assert answer["view"] == game.new().view(None)
    assert server.call("GET", "/api/games/chess/start")[0] == 404


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "no-such-game"}, 404, "unknown_game"),
        ({}, 400, "bad_request"),
        ({"game": "loa", "players": 3}, 400, "bad_option"),
        ({"game": "loa", "options": {"move_limit": -1}}, 400, "bad_option"),
        ({"game": "loa", "options": {"colour": "red"}}, 400, "bad_option"),
        ({"game": "loa", "options": []}, 400, "bad_request"),
        ({"game": "loa", "seats": ["open"]}, 400, "bad_seat"),
        ({"game": "loa", "seats": ["open", "bot:nonsense"]}, 400, "bad_seat"),
        ({"game": "loa", "seats": ["open", "person"]}, 400, "bad_seat"),
        ({"game": "loa", "seats": ["bot:random", "open"], "join": 0}, 400, "bad_seat"),
        ({"game": "loa", "bot_seconds": 0}, 400, "bad_request"),
        ({"game": "loa", "players": True}, 400, "bad_request"),
        ({"game": "loa", "name": 7, "join": 0}, 400, "bad_request"),
        # Text that is not Unicode once got 500 internal, and left the match stored without its seat.
        ({"game": "loa", "name": "Ann\ud800", "join": 0}, 400, "bad_text"),
        ({"game": "conflict", "options": {"seats\ud800": [1, 4]}}, 400, "bad_text"),
        ([1, 2], 400, "bad_request"),
    ],
)
def test_bad_creations_say_what_is_wrong(server: Server, body: Any, status: int, code: str) -> None:
    before = every_match(server)
    got, answer = server.call("POST", "/api/matches", body)
    assert (got, answer["error"]["code"]) == (status, code), answer
    assert answer["error"]["message"]
    assert every_match(server) == before


def every_match(server: Server) -> set[str]:
    """The ids of every match the lobby lists, page after page."""
    ids: set[str] = set()
    cursor = ""
    while True:
        status, answer = server.call("GET", f"/api/matches?all=true&cursor={cursor}")
        assert status == 200, answer
        ids |= {entry["id"] for entry in answer["matches"]}
        if answer["next"] is None:
            return ids
        cursor = answer["next"]


def test_bad_json_body(server: Server) -> None:
    status, answer = server.call("POST", "/api/matches", raw=b"{not json")
    assert status == 400
    assert answer["error"]["code"] == "bad_json"


def test_a_body_over_the_limit_is_refused_without_reading_the_rest(server: Server) -> None:
    """A body is read no further than MAX_MESSAGE: a chunked body that never ends is refused as
    soon as it passes the limit (the server once waited for, and held, the whole body)."""
    host, port = server.base.removeprefix("http://").rstrip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=WAIT) as connection:
        connection.sendall(b"POST /api/matches HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                           b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"x" * 16384
        for _ in range(MAX_MESSAGE // len(chunk) + 2):  # past the limit, and no last chunk ever
            connection.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        received = b""
        while b"the body is longer than" not in received:  # head and body may come in two reads
            more = connection.recv(65536)
            if not more:
                break
            received += more
        answer = received.decode(errors="replace")
    assert answer.startswith("HTTP/1.1 413"), answer[:200]
    assert '"too_large"' in answer
    assert "the body is longer than" in answer


def test_bad_joins(server: Server) -> None:
    match_id = server.create(game="loa", seats=["open", "bot:random"])["match"]["id"]
    cases = [
        ({"seat": 1}, 400, "bad_seat"),  # a bot's seat
        ({"seat": 2}, 400, "bad_seat"),
        ({"seat": "one"}, 400, "bad_request"),
    ]
    for body, status, code in cases:
        got, answer = server.call("POST", f"/api/matches/{match_id}/join", body)
        assert (got, answer["error"]["code"]) == (status, code), (body, answer)
    server.join(match_id)
    got, answer = server.call("POST", f"/api/matches/{match_id}/join", {})
    assert (got, answer["error"]["code"]) == (409, "no_free_seat")
    got, answer = server.call("POST", "/api/matches/nope/join", {})
    assert (got, answer["error"]["code"]) == (404, "no_match")
    assert server.call("GET", "/api/matches/nope")[0] == 404


def test_pages_and_files(server: Server) -> None:
    for path in ("/", "/match/anything", "/help/loa"):
        status, _ = server.call("GET", path)
        assert status in (200, 404), path  # 404 only while parlour/web has not got the page
    assert server.call("GET", "/help/no-such-game")[0] == 404
    assert server.call("GET", "/static/../server/app.py")[0] == 404


@pytest.mark.asyncio(loop_scope="session")
async def test_watch_as_spectator(server: Server, clients: list[Client]) -> None:
    created = server.create(game="loa", seats=["open", "open"], join=0)
    match_id = created["match"]["id"]
    spectator = await open_client(clients, server, match_id, "spectator")
    state = await spectator.hello()
    assert state["seat"] is None
    assert state["legal"] == []
    assert state["status"] == "open"
    check_message(state, None, LOA.new(options=created["match"]["options"], seed=0))
    assert state["events"] == []
    assert state["seats"][0]["kind"] == "person"
    assert state["seats"][1]["kind"] == "open"
    # A spectator is told when a seat is taken, and when the match starts.
    server.join(match_id)
    started = await spectator.expect("state")
    assert started["status"] == "running"
    assert started["seat"] is None
    assert started["legal"] == []
    listed = server.call("GET", "/api/matches")[1]["matches"]
    assert {"id": match_id, "status": "running"}.items() <= next(
        entry for entry in listed if entry["id"] == match_id).items()
