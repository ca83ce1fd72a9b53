"""The lobby list pages (issue 13): ``GET /api/matches?status=…&game=…&cursor=…&limit=…`` gives
at most a page of matches, newest first, each exactly once across the pages, filtered by status
and game, read from the store (a finished match is not in memory) and shown as a live one is."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_process import WAIT, Server, Storage

OPEN, RUNNING, OVER = 60, 45, 30
"""Matches of each status the test makes."""


@pytest.fixture(scope="module")
def lobby(
    storage: Storage, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, dict[str, str]]]:
    """A server holding OPEN open, RUNNING running and OVER finished matches; their statuses by id."""
    server = storage.server(tmp_path_factory.mktemp("paging")).start()
    made: dict[str, str] = {}
    for index in range(OPEN):
        game = "loa" if index % 2 else "biloba"
        made[server.create(game=game, seats=["open", "open"])["match"]["id"]] = "open"
    for _ in range(RUNNING):
        made[server.create(game="loa", seats=["open", "open"], join=0)["match"]["id"]] = "open"
    for match_id in [match_id for match_id, status in made.items() if status == "open"][OPEN:]:
        server.join(match_id)
        made[match_id] = "running"
    for _ in range(OVER):
        bots = server.create(game="tictactoe", seats=["bot:random", "bot:random"], bot_seconds=0.01)
        made[bots["match"]["id"]] = "over"
    wait_until_over(server, [match_id for match_id, status in made.items() if status == "over"])
    yield server, made
    server.stop()


def wait_until_over(server: Server, ids: list[str]) -> None:
    deadline = time.monotonic() + 4 * WAIT
    while time.monotonic() < deadline:
        if all(server.summary(match_id)["status"] == "over" for match_id in ids):
            return
        time.sleep(0.1)
    raise AssertionError(f"the bots' matches did not end within {4 * WAIT} s")


def every_page(server: Server, query: str) -> tuple[list[dict[str, Any]], int]:
    """Every match the list gives for ``query``, following ``next`` to the end; and the pages."""
    listed: list[dict[str, Any]] = []
    cursor, pages = None, 0
    while True:
        path = "/api/matches?" + query + (f"&cursor={cursor}" if cursor else "")
        status, answer = server.call("GET", path)
        assert status == 200, (path, answer)
        assert set(answer) == {"matches", "next"}
        listed += answer["matches"]
        pages += 1
        cursor = answer["next"]
        if cursor is None:
            return listed, pages
        assert pages < 1000, "the list never ends"


def newest_first(listed: list[dict[str, Any]]) -> bool:
    keys = [(entry["created"], entry["id"]) for entry in listed]
    return keys == sorted(keys, reverse=True)


def test_pages_give_every_match_once_newest_first(lobby: tuple[Server, dict[str, str]]) -> None:
    server, made = lobby
    listed, pages = every_page(server, "status=open,running,over&limit=7")
    ids = [entry["id"] for entry in listed]
    assert len(ids) == len(set(ids)) == len(made)
    assert set(ids) == set(made)
    assert pages == -(-len(made) // 7)
    assert newest_first(listed)
    assert all(entry["status"] == made[entry["id"]] for entry in listed)


def test_a_page_holds_at_most_page_size(lobby: tuple[Server, dict[str, str]]) -> None:
    server, made = lobby
    status, answer = server.call("GET", "/api/matches?all=true")
    assert status == 200
    assert len(answer["matches"]) == 100  # limits.page_size, though there are more
    assert answer["next"] is not None
    rest = server.call("GET", f"/api/matches?all=true&cursor={answer['next']}")[1]
    assert len(answer["matches"]) + len(rest["matches"]) == len(made)
    assert rest["next"] is None


def test_the_list_filters_by_status_and_game(lobby: tuple[Server, dict[str, str]]) -> None:
    server, made = lobby
    cases = {
        "": {"open", "running"},  # the default: what can still be joined or watched live
        "status=over": {"over"},
        "status=open&status=over": {"open", "over"},
        "status=running,%20over": {"running", "over"},
        "all=true": {"open", "running", "over"},
        "status=&game=&cursor=": {"open", "running"},  # empty parameters are ones not given
    }
    for query, statuses in cases.items():
        listed, _ = every_page(server, query + "&limit=13")
        expected = {match_id for match_id, status in made.items() if status in statuses}
        assert {entry["id"] for entry in listed} == expected, query
        assert newest_first(listed), query
    tictactoe, _ = every_page(server, "status=over&game=tictactoe&limit=9")
    assert {entry["id"] for entry in tictactoe} == {i for i, status in made.items() if status == "over"}
    biloba, _ = every_page(server, "game=biloba&limit=100")
    assert len(biloba) == OPEN // 2
    assert all(entry["game"] == "biloba" and entry["status"] == "open" for entry in biloba)


def test_a_stored_match_is_listed_as_it_is_shown(lobby: tuple[Server, dict[str, str]]) -> None:
    """A finished match's summary is read from the store for the list; it must be the very same
    as the match's own answer, and so must a live one's."""
    server, _ = lobby
    for query in ("status=over", "status=running", "status=open"):
        listed = server.call("GET", f"/api/matches?{query}&limit=5")[1]["matches"]
        assert len(listed) == 5
        for entry in listed:
            assert entry == server.summary(entry["id"]), query


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("status=finished", "status"),
        ("status=expired", "status"),
        ("game=chess", "game"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=ten", "limit"),
        ("cursor=nonsense!", "cursor"),
        ("cursor=WzEsMl0", "cursor"),  # [1,2]: well formed, but not a cursor
    ],
)
def test_bad_list_queries_say_what_is_wrong(
    lobby: tuple[Server, dict[str, str]], query: str, words: str
) -> None:
    server, _ = lobby
    status, answer = server.call("GET", f"/api/matches?{query}")
    assert (status, answer["error"]["code"]) == (400, "bad_request"), answer
    assert answer["error"]["message"].startswith(words), answer


def test_pages_hold_still_while_matches_are_made(lobby: tuple[Server, dict[str, str]]) -> None:
    """A cursor marks a place in the order: matches created meanwhile (newer) do not shift the
    pages after it, so none is given twice or skipped."""
    server, made = lobby
    first = server.call("GET", "/api/matches?all=true&limit=10")[1]
    newer = server.create(game="loa", seats=["open", "open"])["match"]["id"]
    try:
        rest, _ = every_page(server, f"all=true&limit=10&cursor={first['next']}")
        ids = [entry["id"] for entry in first["matches"] + rest]
        assert newer not in ids
        assert len(ids) == len(set(ids)) == len(made)
    finally:
        made[newer] = "open"
