"""The server's library of boards (issue 16: "save it to the server's map library with a name …
Saved maps are chosen when creating a match"): listing shipped and saved maps, checking a map
(every problem, on its squares), saving one (refused with its problems, under a taken name, too
large, too often, as bad text: nothing stored), a match on a saved map's name, a restart, a file
of schema 4, and a game without boards. Real ``parlour serve`` processes (docs/protocol.md, "The
library of boards").
"""

from __future__ import annotations

import base64
import json
import re
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from server_helpers import Client, call, open_client
from server_process import Server, Storage

from parlour.games import GAMES
from parlour.server.storage import SCHEMA_VERSION, BoardRow, MemoryStore, SQLiteStore, Store, StoreError

ASYNC = pytest.mark.asyncio(loop_scope="session")
GAME = next(name for name, game in GAMES.items() if game.boards is not None)
"""The game with maps (Conflict): the server itself names none."""
_BOARDS = GAMES[GAME].boards
assert _BOARDS is not None
BOARDS = _BOARDS
OPTION = BOARDS.option
SHIPPED = BOARDS.shipped()
FIRST = next(iter(SHIPPED))
LIBRARY = f"/api/games/{GAME}/boards"


def drawn(name: str, corner: str = "#") -> str:
    """The first shipped map under another name, with its top-left square turned to ``corner``
    (impassable by default): a valid map whose terrain is not the shipped one's."""
    lines = SHIPPED[FIRST].replace(f"name {FIRST}\n", f"name {name}\n").split("\n")
    top = lines.index("terrain") + 1
    lines[top] = corner + lines[top][1:]
    return "\n".join(lines)


def broken(name: str) -> str:
    """A map whose second base names a square that is no base square (CON-12 item 5): problems
    on the square named and on the base square no line names."""
    return drawn(name).replace("base 2 p5", "base 2 p6")


@pytest.fixture(scope="module")
def library(storage: Storage, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose library takes many saves and checks and pages two saved maps at a time."""
    server = storage.server(tmp_path_factory.mktemp("boards"),
                    limits={"boards_burst": 1000, "board_checks_burst": 1000, "page_size": 2}).start()
    yield server
    server.stop()


def save(server: Server, name: str, text: str, **more: Any) -> tuple[int, Any]:
    return server.call("POST", LIBRARY, {"name": name, "text": text, **more})


def saved_names(server: Server) -> list[str]:
    """Every saved map's name, newest first, page after page."""
    names: list[str] = []
    path = LIBRARY
    while True:
        status, answer = server.call("GET", path)
        assert status == 200, answer
        names += [entry["name"] for entry in answer["boards"] if not entry["shipped"]]
        if answer["next"] is None:
            return names
        path = f"{LIBRARY}?cursor={answer['next']}"


# --- listing and showing ---------------------------------------------------------------------------------


def test_the_list_shows_the_shipped_maps_first_then_the_saved_ones_newest_first(library: Server) -> None:
    for name in ("list-one", "list-two", "list-three"):
        assert save(library, name, drawn(name), author="Ann") == (201, {"name": name})
    status, first = library.call("GET", LIBRARY)
    assert status == 200, first
    shipped = [entry for entry in first["boards"] if entry["shipped"]]
    assert [entry["name"] for entry in shipped] == list(SHIPPED)
    assert first["boards"][:len(shipped)] == shipped, "shipped maps come first"
    assert [entry["name"] for entry in shipped if entry["recommended"]] == [BOARDS.recommended]
    newest = first["boards"][len(shipped):]
    assert [entry["name"] for entry in newest] == ["list-three", "list-two"]  # page_size 2
    assert newest[0] | {"created": None} == {"name": "list-three", "cols": 20, "rows": 20, "shipped": False,
                                             "recommended": False, "author": "Ann", "created": None}
    assert isinstance(newest[0]["created"], float)
    assert first["next"] is not None
    # The next page has no shipped maps again, and goes on from the cursor.
    status, second = library.call("GET", f"{LIBRARY}?cursor={first['next']}")
    assert status == 200, second
    assert [entry["name"] for entry in second["boards"]][:1] == ["list-one"]
    assert not any(entry["shipped"] for entry in second["boards"])
    assert library.call("GET", f"{LIBRARY}?cursor=nonsense")[0] == 400


def test_a_map_is_shown_with_its_text_drawing_and_warnings(library: Server) -> None:
    status, shipped = library.call("GET", f"{LIBRARY}/{FIRST}")
    assert status == 200, shipped
    assert shipped["text"] == SHIPPED[FIRST]
    assert shipped["shipped"] is True
    assert shipped["board"] == BOARDS.drawing(SHIPPED[FIRST])
    assert shipped["problems"] == []
    assert save(library, "shown", drawn("shown"))[0] == 201
    status, mine = library.call("GET", f"{LIBRARY}/shown")
    assert status == 200, mine
    assert mine["text"] == drawn("shown")
    assert mine["shipped"] is False
    assert mine["board"]["terrain"][0][0] == "#"
    status, answer = library.call("GET", f"{LIBRARY}/no-such-map")
    assert (status, answer["error"]["code"]) == (404, "no_board")


# --- checking --------------------------------------------------------------------------------------------


def test_a_check_answers_every_problem_of_a_bad_map_on_its_squares(library: Server) -> None:
    status, answer = library.call("POST", f"{LIBRARY}/check", {"text": broken("checked")})
    assert status == 200, answer  # a question, not an error
    assert answer["ok"] is False
    assert answer["board"] is None
    errors = [problem for problem in answer["problems"] if problem["severity"] == "error"]
    squares = {square for problem in errors for square in problem["squares"]}
    assert {"p6", "p5"} <= squares, errors  # the square named, and the base square left unnamed
    assert all(problem["rule"].startswith("CON-12") for problem in errors), errors
    assert {"severity", "rule", "message", "squares", "line"} == set(errors[0])


def test_a_check_answers_ok_and_the_drawing_for_a_good_map(library: Server) -> None:
    status, answer = library.call("POST", f"{LIBRARY}/check", {"text": drawn("fine")})
    assert status == 200, answer
    assert answer == {"ok": True, "problems": [], "board": BOARDS.drawing(drawn("fine"))}


def test_a_map_of_thousands_of_digits_is_checked_not_a_server_fault(library: Server) -> None:
    # Python turns at most 4,300 digits into an int: such a map was a 500 and a traceback (a
    # review of issue 16). It is a map with problems, on a check and when a match is created.
    huge = re.sub(r"\bsize [0-9]+x", "size " + "9" * 5000 + "x", drawn("digits"))
    status, answer = library.call("POST", f"{LIBRARY}/check", {"text": huge})
    assert status == 200, answer
    assert answer["ok"] is False
    assert any(problem["rule"] == "CON-12 item 2" for problem in answer["problems"]), answer
    status, answer = library.call("POST", "/api/matches", {"game": GAME, "options": {OPTION: huge}})
    assert (status, answer["error"]["code"]) == (400, "bad_option"), answer


def test_a_check_of_rubbish_answers_in_a_few_kilobytes(library: Server) -> None:
    # A 14 KB text got a 790 KB answer, a problem a line (a review of issue 16): the problems are
    # the first 100 and one counting the rest, and a run of unknown lines stops the reading.
    lines = SHIPPED[FIRST].split("\n")
    top = lines.index("terrain") + 1
    every_base = [*lines[:top], *("+" * len(line) for line in lines[top:top + 20]), *lines[top + 20:]]
    for text in ("\n".join(every_base), drawn("rubbish") + "what is this\n" * 1100):
        assert len(text) < 16_384
        status, answer = library.call("POST", f"{LIBRARY}/check", {"text": text})
        assert status == 200, answer
        assert answer["ok"] is False
        assert len(answer["problems"]) <= 101
        assert len(json.dumps(answer)) < 32_000, len(json.dumps(answer))


def test_a_cursor_that_is_no_text_is_a_bad_request(library: Server) -> None:
    # A cursor decoding to a lone surrogate (a JSON \ud800 escape) was a 500 (a review of issue 16):
    # both lists answer 400, as for any cursor the server did not give.
    lone = base64.urlsafe_b64encode(b'[1.0, "\\ud800"]').decode().rstrip("=")
    for path in (f"{LIBRARY}?cursor={lone}", f"/api/matches?cursor={lone}"):
        status, answer = library.call("GET", path)
        assert (status, answer["error"]["code"]) == (400, "bad_request"), (path, answer)


def test_a_map_s_own_name_is_60_characters_at_most(library: Server) -> None:
    # A map's name shows in every lobby summary: a 15,000-character one was taken (a review of
    # issue 16). One limit, the game's: a match and a save refuse a longer one alike.
    longest = "n" * BOARDS.max_name
    assert save(library, longest, drawn(longest)) == (201, {"name": longest})
    created = library.create(game=GAME, options={OPTION: drawn(longest)}, seats=["open", "bot:random"])
    assert created["match"]["options"][OPTION] == longest
    longer = longest + "n"
    status, answer = library.call("POST", "/api/matches", {"game": GAME, "options": {OPTION: drawn(longer)}})
    assert (status, answer["error"]["code"]) == (400, "bad_option"), answer
    status, answer = save(library, longer, drawn(longer))
    assert status == 400, answer
    assert longer not in saved_names(library)


def test_a_match_s_map_text_has_the_library_s_limit(storage: Storage, tmp_path: Path) -> None:
    # One limit of a map's text, board_characters: a match created with a longer one is refused as
    # a check or a save is (413), not by another limit of 16 KB (a review of issue 16).
    server = storage.server(tmp_path, limits={"board_characters": 2000}).start()
    try:
        games = {entry["name"]: entry for entry in server.call("GET", "/api/games")[1]["games"]}
        assert games[GAME]["boards"]["max_characters"] == 2000
        text = drawn("padded") + "; a comment that makes it longer\n" * 60
        assert 2000 < len(text) < 16_384
        for path, body in (("/api/matches", {"game": GAME, "options": {OPTION: text}}),
                           (f"{LIBRARY}/check", {"text": text})):
            status, answer = server.call("POST", path, body)
            assert (status, answer["error"]["code"]) == (413, "too_large"), (path, answer)
        short = {"game": GAME, "options": {OPTION: drawn("short")}}
        assert server.call("POST", "/api/matches", short)[0] == 201
    finally:
        server.stop()


# --- saving ----------------------------------------------------------------------------------------------


def test_a_saved_name_is_then_taken_and_a_shipped_one_never_free(library: Server) -> None:
    assert save(library, "taken", drawn("taken")) == (201, {"name": "taken"})
    status, answer = save(library, "taken", drawn("taken", corner="~"))
    assert (status, answer["error"]["code"]) == (409, "board_exists")
    assert library.call("GET", f"{LIBRARY}/taken")[1]["text"] == drawn("taken"), "saved maps never change"
    aliases = BOARDS.aliases()
    assert aliases, "Conflict's 20x20 map keeps its old name (stored matches use it)"
    for name in (FIRST, *aliases):  # a shipped name, and the old names the option still takes
        status, answer = save(library, name, drawn(name))
        assert (status, answer["error"]["code"]) == (409, "board_exists"), name
        assert name not in saved_names(library)
    for alias, shipped in aliases.items():  # an old name, which stored matches show, is its board
        status, answer = library.call("GET", f"{LIBRARY}/{alias}")
        assert status == 200, answer
        assert (answer["name"], answer["text"]) == (shipped, SHIPPED[shipped])


def test_a_bad_map_is_refused_with_its_problems_and_nothing_is_stored(library: Server) -> None:
    status, answer = save(library, "refused", broken("refused"))
    assert (status, answer["error"]["code"]) == (400, "bad_board"), answer
    problems = answer["problems"]
    assert problems
    assert all(problem["severity"] == "error" for problem in problems)
    assert "p6" in {square for problem in problems for square in problem["squares"]}
    # The text's own name must be the one asked for.
    status, answer = save(library, "other-name", drawn("own-name"))
    assert (status, answer["error"]["code"]) == (400, "bad_board"), answer
    assert [problem["rule"] for problem in answer["problems"]] == ["name"]
    assert "own-name" in answer["problems"][0]["message"]
    assert not {"refused", "other-name", "own-name"} & set(saved_names(library))


def test_bad_text_is_refused_clearly_and_nothing_is_stored(library: Server) -> None:
    status, answer = save(library, "bell\u0007map", drawn("bell\u0007map"))
    assert (status, answer["error"]["code"]) == (400, "bad_text"), answer
    assert "name" in answer["error"]["message"]
    assert "control character" in answer["error"]["message"]
    status, answer = save(library, "lone", drawn("lone") + "\ud800")
    assert (status, answer["error"]["code"]) == (400, "bad_text"), answer
    assert "surrogate" in answer["error"]["message"]
    status, answer = library.call("POST", f"{LIBRARY}/check", {"text": "\ud800"})
    assert (status, answer["error"]["code"]) == (400, "bad_text"), answer
    for body in ({"text": drawn("x")}, {"name": "x"}, {"name": "x", "text": 7}, ["x"]):
        status, answer = library.call("POST", LIBRARY, body)
        assert (status, answer["error"]["code"]) == (400, "bad_request"), body
    assert not {"bell\u0007map", "lone", "x"} & set(saved_names(library))


def test_an_oversized_map_is_refused_413(library: Server) -> None:
    huge = drawn("huge") + "#" * 16_384
    for path, body in ((f"{LIBRARY}/check", {"text": huge}), (LIBRARY, {"name": "huge", "text": huge})):
        status, answer = library.call("POST", path, body)
        assert (status, answer["error"]["code"]) == (413, "too_large"), path
    assert "huge" not in saved_names(library)


def test_saving_too_often_is_refused_429_with_retry_after(storage: Storage, tmp_path: Path) -> None:
    server = storage.server(tmp_path, limits={"boards_burst": 2, "boards_per_hour": 0.001}).start()
    try:
        for name in ("flood-1", "flood-2"):
            assert save(server, name, drawn(name))[0] == 201
        status, headers, answer = call(server, "POST", LIBRARY, {"name": "flood-3", "text": drawn("flood-3")})
        assert (status, answer["error"]["code"]) == (429, "rate_limited"), answer
        assert headers["retry-after"].isdigit()
        assert int(headers["retry-after"]) >= 1
        # Another address saves as before: the budget is each address's own.
        status, _, answer = call(server, "POST", LIBRARY, {"name": "flood-3", "text": drawn("flood-3")},
                                 source="127.0.0.2")
        assert status == 201, answer
        assert saved_names(server) == ["flood-3", "flood-2", "flood-1"]
    finally:
        server.stop()


# --- playing on a saved map ------------------------------------------------------------------------------


@ASYNC
async def test_a_match_created_with_a_saved_map_s_name_plays_that_map(
    library: Server, clients: list[Client]
) -> None:
    assert save(library, "island", drawn("island")) == (201, {"name": "island"})
    created = library.create(game=GAME, options={OPTION: "island"}, seats=["open", "bot:random"], join=0,
                             name="Ann")
    summary = created["match"]
    assert summary["options"][OPTION] == "island", "the lobby shows the map's name, not its text"
    player = await open_client(clients, library, summary["id"], "Ann")
    state = await player.hello(created["token"])
    board = state["view"]["content"]["board"]
    assert board["name"] == "island"
    assert board["terrain"][0][0] == "#", "the saved terrain, not the shipped map's"
    assert board == BOARDS.drawing(drawn("island"))
    assert library.summary(summary["id"])["options"][OPTION] == "island"
    # A shipped map's name is played as it always was; a name nobody saved is a bad option.
    shipped = library.create(game=GAME, options={OPTION: FIRST}, seats=["open", "bot:random"])
    assert shipped["match"]["options"][OPTION] == FIRST
    status, answer = library.call("POST", "/api/matches", {"game": GAME, "options": {OPTION: "nobody-s"}})
    assert (status, answer["error"]["code"]) == (400, "bad_option"), answer


# --- kept for good ---------------------------------------------------------------------------------------


@ASYNC
async def test_the_library_survives_a_restart(
    storage: Storage, tmp_path: Path, clients: list[Client]
) -> None:
    server = storage.server(tmp_path).start()
    try:
        assert save(server, "kept", drawn("kept"), author="Bo") == (201, {"name": "kept"})
        created = server.create(game=GAME, options={OPTION: "kept"}, seats=["open", "bot:random"])
        match_id = created["match"]["id"]
        server.kill()  # no shutdown code: the save was committed when it was answered
        server.start()
        status, shown = server.call("GET", f"{LIBRARY}/kept")
        assert status == 200, shown
        assert (shown["text"], shown["author"]) == (drawn("kept"), "Bo")
        assert saved_names(server) == ["kept"]
        assert save(server, "kept", drawn("kept"))[0] == 409
        assert server.summary(match_id)["options"][OPTION] == "kept"
        watcher = await open_client(clients, server, match_id, "spectator")
        assert (await watcher.hello())["view"]["content"]["board"]["terrain"][0][0] == "#"
    finally:
        server.stop()


@pytest.mark.sqlite_only("it writes a SQLite file of the old schema")
def test_a_file_of_schema_4_keeps_its_matches_and_gains_the_library(storage: Storage, tmp_path: Path) -> None:
    server = storage.server(tmp_path).start()
    match_id = server.create(game="loa", seats=["open", "open"], join=0, name="Ann")["match"]["id"]
    server.stop()
    db = sqlite3.connect(server.db)  # as a parlour before the library left it: no boards, schema 4
    db.execute("DROP TABLE boards")
    db.execute("PRAGMA user_version = 4")
    db.commit()
    db.close()
    server.start()
    try:
        assert server.summary(match_id)["seats"][0]["player"] == "Ann"
        assert saved_names(server) == []
        assert save(server, "after", drawn("after"))[0] == 201
    finally:
        server.stop()
    db = sqlite3.connect(server.db)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    assert db.execute("SELECT name, address FROM boards").fetchall() == [("after", "127.0.0.1")]
    db.close()


# --- games without boards --------------------------------------------------------------------------------


def test_a_game_without_boards_has_no_library_and_no_editor(library: Server) -> None:
    plain = next(name for name, game in GAMES.items() if game.boards is None)
    for method, path, body in (("GET", f"/api/games/{plain}/boards", None),
                               ("GET", f"/api/games/{plain}/boards/{FIRST}", None),
                               ("POST", f"/api/games/{plain}/boards/check", {"text": drawn("x")}),
                               ("POST", f"/api/games/{plain}/boards", {"name": "x", "text": drawn("x")})):
        status, answer = library.call(method, path, body)
        assert (status, answer["error"]["code"]) == (404, "no_boards"), path
    status, answer = library.call("GET", "/api/games/no-such-game/boards")
    assert (status, answer["error"]["code"]) == (404, "no_game")
    assert library.call("GET", f"/games/{plain}/editor")[0] == 404
    assert library.call("GET", "/games/no-such-game/editor")[0] == 404
    status, page = library.call("GET", f"/games/{GAME}/editor")
    assert status == 200, "the editor's page, for the game with maps"
    assert "<html" in page.lower()
    games = {entry["name"]: entry for entry in library.call("GET", "/api/games")[1]["games"]}
    assert games[plain]["boards"] is None
    assert games[GAME]["boards"] == {
        "option": OPTION, "noun": BOARDS.noun, "extension": BOARDS.extension,
        "recommended": BOARDS.recommended, "min_cols": BOARDS.min_cols, "max_cols": BOARDS.max_cols,
        "min_rows": BOARDS.min_rows, "max_rows": BOARDS.max_rows, "max_name": BOARDS.max_name,
        "max_characters": 16_384}  # the server's board_characters, which an editor says before sending


# --- the stores ------------------------------------------------------------------------------------------


@pytest_asyncio.fixture(params=["sqlite", "memory"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    made: Store = SQLiteStore(tmp_path / "boards.sqlite3") if request.param == "sqlite" else MemoryStore()
    yield made
    await made.close()


def row(game: str, name: str, created: float, text: str = "text") -> BoardRow:
    return BoardRow(game, name, text, 5, 6, None, created, "127.0.0.1")


@ASYNC
async def test_both_stores_keep_boards_by_game_and_name_page_them_and_cap_them(store: Store) -> None:
    assert [await store.add_board(row(GAME, name, when), 3) for name, when in (("a", 1.0), ("b", 2.0))] == \
        ["saved", "saved"]
    assert await store.add_board(row(GAME, "a", 9.0, "another"), 3) == "exists"
    assert await store.add_board(row("other", "a", 3.0), 3) == "saved", "names are each game's own"
    assert await store.add_board(row(GAME, "c", 4.0), 3) == "full", "the cap counts every game's boards"
    assert await store.load_board(GAME, "a") == row(GAME, "a", 1.0)
    assert await store.load_board(GAME, "c") is None
    # A page lists names and sizes: no text is read for it (a review of issue 16).
    assert await store.list_boards(GAME, None, 10) == [row(GAME, "b", 2.0, ""), row(GAME, "a", 1.0, "")]
    assert [board.name for board in await store.list_boards(GAME, None, 1)] == ["b"]
    assert [board.name for board in await store.list_boards(GAME, (2.0, "b"), 10)] == ["a"]
    with pytest.raises(StoreError):  # text that is not Unicode is refused, by either store
        await store.add_board(row(GAME, "\ud800", 5.0), 10)
    assert [board.name for board in await store.list_boards(GAME, None, 10)] == ["b", "a"]


def test_a_full_library_refuses_a_save_503(storage: Storage, tmp_path: Path) -> None:
    server = storage.server(tmp_path, limits={"boards_total": 1}).start()
    try:
        assert save(server, "only", drawn("only"))[0] == 201
        status, answer = save(server, "second", drawn("second"))
        assert (status, answer["error"]["code"]) == (503, "library_full"), answer
        assert saved_names(server) == ["only"]
    finally:
        server.stop()
