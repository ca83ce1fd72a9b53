"""Conflict in the browser: the page's copy of the maps is the engine's; a person plays against a bot,
drawing paths square by square (taking a path back, having an illegal path refused with the
server's reason), heading for the bot's base until the takeover ends the game."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from lobby_steps import create_match, join_from_lobby
from web_helpers import PHONE, ROOT, WAIT_MS, Client, OpenClient, Server

from parlour.games.conflict.maps import MAPS

ASYNC = pytest.mark.asyncio(loop_scope="session")
BASES = {1: "e5", 2: "p5", 3: "e16", 4: "p16"}  # parlour-20 (CON-15)


def test_the_pages_maps_are_the_engines() -> None:
    text = (ROOT / "parlour/web/js/boards/conflict-maps.js").read_text()
    entries = re.findall(r'^  ("[^"]+"): (".*"),$', text, re.M)
    copied = {json.loads(name): json.loads(body) for name, body in entries}
    assert copied == dict(MAPS)


def square_xy(square: str) -> tuple[int, int]:
    return ord(square[0]) - 97, int(square[1:])


def distance(a: str, b: str) -> int:
    (ac, ar), (bc, br) = square_xy(a), square_xy(b)
    return max(abs(ac - bc), abs(ar - br))


LETTERS = {"cannon": "C", "aagun": "G", "airplane": "A", "ship": "S", "submarine": "U"}


def parse(text: str, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """A legal text. An entry without ``@seat`` enters the piece of the one seat the mover controls
    that has such a piece available (CON-64)."""
    enter = re.fullmatch(r"enter (\w+)(?:@(\d))? (\d): (.+)", text)
    if enter:
        seat = int(enter[2]) if enter[2] else entry_seat(view, LETTERS[enter[1]])
        return {"kind": "enter", "type": enter[1], "seat": seat, "die": int(enter[3]),
                "path": enter[4].split(), "start": BASES[seat]}
    move = re.fullmatch(r"([a-z]\d+) (\d): (.+)", text)
    if move:
        return {"kind": "move", "from": move[1], "die": int(move[2]), "path": move[3].split(),
                "start": move[1]}
    return {"kind": text.split()[0], "text": text}


def entry_seat(view: dict[str, Any] | None, letter: str) -> int:
    if view is None:
        return 1
    me = view["seats"][view["to_move"]]
    return next(s for s in (1, 2, 3, 4)
                if view["controllers"][s - 1] == me and letter in view["available"].get(str(s), ""))


def choose(legal: list[str], target: str, view: dict[str, Any] | None = None) -> str:
    """Greedy: the move that ends nearest the target base, if it brings a piece nearer; else end."""
    best, gain = "end", 0
    for text in legal:
        d = parse(text, view)
        if d["kind"] not in ("move", "enter"):
            continue
        improvement = distance(d["start"], target) - distance(d["path"][-1], target)
        if d["path"][-1] == target:
            improvement = 100
        if improvement > gain:
            best, gain = text, improvement
    return best


async def draw_and_confirm(client: Client, text: str, take_back: bool = False) -> None:
    """Picks the piece, clicks every square of the path (optionally going past the first square and
    clicking it again to take the path back), then confirms with the die."""
    page = client.page
    d = parse(text, (await client.match_json())["view"])
    if d["kind"] == "enter":
        await page.click(f"[data-available='{d['seat']}{LETTERS[d['type']]}']")
    else:
        await client.click_square(d["from"])
    path = d["path"]
    if take_back and len(path) >= 2:
        await client.click_square(path[0])
        await client.click_square(path[1])
        await page.wait_for_selector(f"[data-path='{path[1]}']", state="attached")
        await client.click_square(path[0])  # back to the first square
        await page.wait_for_selector(f"[data-path='{path[1]}']", state="detached")
        assert (await page.text_content("#cf-path-text") or "").strip() == path[0]
        path = path[1:]
    for square in path:
        await client.click_square(square)
        await page.wait_for_selector(f"[data-path='{square}']", state="attached")
    await page.click(f"[data-confirm='{d['die']}']")


async def refused_path(client: Client, legal: list[str]) -> None:
    """A cannon entered onto water (CON-8) is refused with the server's reason; nothing moves."""
    page = client.page
    version = await client.version()
    die = min(parse(t)["die"] for t in legal if parse(t)["kind"] == "enter")
    await page.click("[data-available='1C']")
    await client.click_square("f5")  # water next to Red's base
    await page.click(f"[data-confirm='{die}']")
    await page.wait_for_selector("#cf-error")
    assert (await page.text_content("#cf-error") or "").startswith("Refused: ")
    assert await client.version() == version
    await page.click("[data-cancel]")


@pytest.mark.slow
@ASYNC
async def test_a_person_plays_conflict_against_a_bot_through_a_takeover(server: Server,
                                                                        open_client: OpenClient) -> None:
    ann = await open_client("Ann")
    await create_match(ann, server, game="conflict", seats={0: "you", 1: "bot:random"},
                       options={"roll_limit": "120"})
    page = ann.page
    shots = server.log.parent
    await page.wait_for_selector(".conflict-board")
    first = True
    for _ in range(300):
        await page.wait_for_function(
            "() => document.body.dataset.myTurn === 'true' || document.body.dataset.status === 'over'",
            timeout=WAIT_MS)
        snap = await ann.match_json()
        if snap["status"] == "over":
            break
        legal, version = snap["legal"], snap["version"]
        text = choose(legal, BASES[2], snap["view"])
        if first and any(t.startswith("enter cannon") for t in legal):
            await refused_path(ann, legal)
            await page.screenshot(path=str(shots / "conflict-laptop.png"), full_page=True)
        if text == "end" or text.startswith("activate"):
            await page.click(f"[data-action='{text}']")
        else:
            await draw_and_confirm(ann, text, take_back=first)
            first = False
        await ann.wait_past(version)
    else:
        pytest.fail("the game did not end within 300 decisions")
    messages = await page.text_content("#cf-messages") or ""
    await page.screenshot(path=str(shots / "conflict-over.png"), full_page=True)
    await page.set_viewport_size(PHONE)
    await page.screenshot(path=str(shots / "conflict-phone.png"), full_page=True)
    snap = await ann.match_json()
    assert snap["outcome"]["winner"] == 0, (snap["outcome"], messages)
    assert "takes over" in messages  # CON-45
    assert await page.locator("[data-taken='p5']").count() == 1
    assert (await page.text_content("#result-text") or "").strip() == "You win!"
    assert ann.errors == []


@pytest.mark.slow
@ASYNC
async def test_three_people_and_a_bot_play_four_player_conflict(server: Server,
                                                                open_client: OpenClient) -> None:
    ann, bob, cid = await open_client("Ann"), await open_client("Bob"), await open_client("Cid")
    seats = {0: "you", 1: "open", 2: "open", 3: "bot:random"}
    match_id = await create_match(ann, server, game="conflict", players=4, seats=seats,
                                  options={"roll_limit": "10"})
    await join_from_lobby(bob, server, match_id, seat=1)
    await join_from_lobby(cid, server, match_id, seat=2)
    people = [ann, bob, cid]
    for client in people:
        await client.page.wait_for_selector("body[data-status='running']", state="attached")
    moved = [0, 0, 0]
    for _ in range(200):
        await ann.page.wait_for_function(
            "() => { const s = window.parlourMatch.snap;"
            " return s.status === 'over' || [0, 1, 2].includes(s.to_move); }", timeout=WAIT_MS)
        snap = await ann.match_json()
        if snap["status"] == "over":
            break
        seat = snap["to_move"]
        mover = people[seat]
        await mover.wait_my_turn()
        mine = await mover.match_json()
        for other in people:
            if other is not mover:
                assert await other.page.locator("[data-confirm], [data-action='end']").count() == 0
        version = mine["version"]
        text = choose(mine["legal"], BASES[(seat + 1) % 4 + 1], mine["view"])
        if text == "end" or text.startswith("activate"):
            await mover.page.click(f"[data-action='{text}']")
        else:
            await draw_and_confirm(mover, text)
            moved[seat] += 1
        await ann.wait_past(version)
    else:
        pytest.fail("the game did not end within 200 decisions")
    # A double can let a player be taken over before its first roll; at least two people moved.
    assert sum(1 for n in moved if n) >= 2, moved
    for client in people:
        await client.page.wait_for_selector("body[data-status='over']", state="attached")
        assert client.errors == [], client.errors
    await cid.page.screenshot(path=str(server.log.parent / "conflict-four.png"), full_page=True)
    # Every page agrees on the board.
    boards = [(await c.match_json())["view"]["pieces"] for c in people]
    assert boards[0] == boards[1] == boards[2]
