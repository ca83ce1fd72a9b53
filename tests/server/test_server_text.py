"""Text from clients (docs/protocol.md, ``bad_text``): every name, option, token and action text is
valid Unicode without control or invisible characters and within its length, or it is refused
with ``bad_text`` before anything is stored; names people really have pass unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_helpers import Client, open_client
from server_process import Server

from parlour.games.conflict.maps import DEFAULT_MAP, MAPS

ASYNC = pytest.mark.asyncio(loop_scope="session")

BAD_NAMES = [
    "\ud800",  # a lone surrogate, as a JSON "\ud800" escape gives it: not Unicode text
    "Ana\udfff",
    "bell\u0007",
    "line\nbreak",
    "\u202eevil",  # a bidi override: shows text other than it is
    "in\u200bvisible",  # a zero-width space
    "\ue000",  # private use
    "\u0378",  # unassigned
    "x" * 41,
]
GOOD_NAMES = ["Zoë", "Ana María", "👩\u200d💻 Kim", "می\u200cخواهم", "李小龍", "O'Brien-Šmíd"]


def post(server: Server, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    # json.dumps writes a lone surrogate as the escape "\ud800": what a client's JSON can carry.
    return server.call("POST", path, raw=json.dumps(body).encode("ascii"))


def assert_bad_text(status: int, answer: Any, field: str) -> None:
    assert status == 400, answer
    assert answer["error"]["code"] == "bad_text", answer
    assert answer["error"]["message"].startswith(field), answer


def listed(server: Server) -> list[str]:
    status, answer = server.call("GET", "/api/matches")
    assert status == 200, answer
    return [match["id"] for match in answer["matches"]]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_bad_name_when_creating_is_refused_and_nothing_is_stored(own_server: Server, name: str) -> None:
    status, answer = post(own_server, "/api/matches", {"game": "loa", "join": 0, "name": name})
    assert_bad_text(status, answer, "name")
    assert listed(own_server) == []


def test_text_in_options_is_checked_keys_too(own_server: Server) -> None:
    for options, where in [({"repetition": "none\u0000"}, "options.repetition"), ({"\ud800": 1}, "options"),
                           ({"repetition": "\u202enone"}, "options.repetition")]:
        status, answer = post(own_server, "/api/matches", {"game": "loa", "options": options})
        assert_bad_text(status, answer, where)
    assert listed(own_server) == []


def test_an_option_may_hold_a_text_of_several_lines(server: Server) -> None:
    """A Conflict map may be given as its text (CON-10): line breaks (and tabs, and the \\r of a
    file written elsewhere) are a text's, other control characters are not."""
    board = MAPS[DEFAULT_MAP].replace("\nname ", "\r\nname\t")
    created = server.create(game="conflict", options={"board": board}, seats=["open", "bot:random"])
    assert created["match"]["options"]["board"] == DEFAULT_MAP  # the summary shows a map's name, not its text
    spoiled = {"game": "conflict", "options": {"board": board + "\u000b"}}  # a vertical tab
    status, answer = post(server, "/api/matches", spoiled)
    assert_bad_text(status, answer, "options.board")


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_bad_name_when_joining_is_refused_and_the_seat_stays_open(server: Server, name: str) -> None:
    match_id = server.create(game="loa")["match"]["id"]
    status, answer = post(server, f"/api/matches/{match_id}/join", {"name": name})
    assert_bad_text(status, answer, "name")
    assert [seat["kind"] for seat in server.summary(match_id)["seats"]] == ["open", "open"]


def test_names_people_have_pass_unchanged(server: Server) -> None:
    for name in GOOD_NAMES:
        created = server.create(game="loa", join=0, name=name)
        assert created["match"]["seats"][0]["player"] == name
        joined = server.join(created["match"]["id"], name=f" {name} ")  # trimmed, nothing else
        assert joined["match"]["seats"][1]["player"] == name


@ASYNC
async def test_bad_text_on_the_websocket_gets_bad_text_and_changes_nothing(
    server: Server, clients: list[Client]
) -> None:
    match_id = server.create(game="loa")["match"]["id"]
    client = await open_client(clients, server, match_id, "writer")
    for index, name in enumerate(BAD_NAMES):
        await client.send(json.dumps({"type": "join", "name": name, "id": index}))
        error = await client.error("bad_text")
        assert error["message"].startswith("name"), error
        assert error["id"] == index, error
    # A token that is not text was a server fault (it could not be hashed): now it is the client's.
    await client.send(json.dumps({"type": "hello", "token": "\ud800"}))
    assert (await client.error("bad_text"))["message"].startswith("token")
    await client.ping()
    assert [seat["kind"] for seat in server.summary(match_id)["seats"]] == ["open", "open"]
    # Seated, an action's text is checked too.
    await client.send({"type": "join", "name": "Zoë"})
    await client.expect("joined")
    await client.expect("state")
    await client.send(json.dumps({"type": "action", "text": "b1-d3\u0000"}))
    assert (await client.error("bad_text"))["message"].startswith("text")
    await client.ping()
    summary = server.summary(match_id)
    assert summary["seats"][0]["player"] == "Zoë"
    assert summary["version"] == 0
