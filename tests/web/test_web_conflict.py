"""Conflict in the browser: a person plays against a bot, drawing paths square by square (taking a
path back, having an illegal path refused with the server's reason), heading for the bot's base
until the takeover ends the game; a match on a map of its own, where a piece steps on a mine."""

from __future__ import annotations

from typing import Any

import pytest
from lobby_steps import create_match, join_from_lobby
from server_process import Server
from web_helpers import PHONE, WAIT_MS, Client, OpenClient

ASYNC = pytest.mark.asyncio(loop_scope="session")
BASES = {1: "e5", 2: "p5", 3: "e16", 4: "p16"}  # classic (CON-15)


def square_xy(square: str) -> tuple[int, int]:
    return ord(square[0]) - 97, int(square[1:])


def distance(a: str, b: str) -> int:
    (ac, ar), (bc, br) = square_xy(a), square_xy(b)
    return max(abs(ac - bc), abs(ar - br))


def choose(legal: list[dict[str, Any]], target: str) -> dict[str, Any]:
    """Greedy: the move or entry whose end (``to``) is nearest the target base, if it brings a piece
    nearer than where it starts (``from``: an entry starts on its base); else end the roll."""
    best = next(a for a in legal if a["parts"]["kind"] == "end")
    gain = 0
    for action in legal:
        parts = action["parts"]
        if parts["kind"] not in ("move", "enter"):
            continue
        nearer = distance(parts["from"], target) - distance(parts["to"], target)
        improvement = 100 if parts["to"] == target else nearer
        if improvement > gain:
            best, gain = action, improvement
    return best


async def draw_and_confirm(client: Client, action: dict[str, Any], take_back: bool = False) -> None:
    """Picks the piece, clicks every square of the path (optionally going past the first square and
    clicking it again to take the path back), then confirms with the die."""
    page = client.page
    parts = action["parts"]
    if parts["kind"] == "enter":
        await page.click(f"[data-available='{parts['piece']}']")  # a piece is written 1S: seat, type
    else:
        await client.click_square(parts["from"])
    path = parts["path"]
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
    await page.click(f"[data-confirm='{parts['die']}']")


async def refused_path(client: Client, legal: list[dict[str, Any]]) -> None:
    """A cannon entered onto water (CON-8) is refused with the server's reason; nothing moves."""
    page = client.page
    version = await client.version()
    die = min(a["parts"]["die"] for a in legal if a["parts"]["kind"] == "enter")
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
                       options={"roll_limit": "120", "board": "classic"})
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
        action = choose(legal, BASES[2])
        if first and any(a["parts"]["kind"] == "enter" and a["parts"]["piece"][1] == "C" for a in legal):
            await refused_path(ann, legal)
            await page.screenshot(path=str(shots / "conflict-laptop.png"), full_page=True)
        if action["parts"]["kind"] in ("end", "activate"):
            await page.click(f"[data-action='{action['text']}']")
        else:
            await draw_and_confirm(ann, action, take_back=first)
            first = False
        await ann.wait_past(version)
    else:
        pytest.fail("the game did not end within 300 decisions")
    messages = await page.text_content("#cf-messages") or ""
    await page.screenshot(path=str(shots / "conflict-over.png"), full_page=True)
    await page.set_viewport_size(PHONE)
    await page.screenshot(path=str(shots / "conflict-phone.png"), full_page=True)
    snap = await ann.match_json()
    assert snap["view"]["outcome"]["winner"] == 0, (snap["view"]["outcome"], messages)
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
                                  options={"roll_limit": "10", "board": "classic"})
    await join_from_lobby(bob, server, match_id, seat=1)
    await join_from_lobby(cid, server, match_id, seat=2)
    people = [ann, bob, cid]
    for client in people:
        await client.page.wait_for_selector("body[data-status='running']", state="attached")
    moved = [0, 0, 0]
    for _ in range(200):
        await ann.page.wait_for_function(
            "() => { const s = window.parlourMatch.snap;"
            " return s.status === 'over' || [0, 1, 2].includes(s.view.to_move); }", timeout=WAIT_MS)
        snap = await ann.match_json()
        if snap["status"] == "over":
            break
        seat = snap["view"]["to_move"]
        mover = people[seat]
        # The mover's page may be behind Ann's, still offering the decision it has just made.
        # Nothing changes until the mover acts, so its page catches up with Ann's version.
        await mover.wait_version(snap["version"])
        await mover.wait_my_turn()
        mine = await mover.match_json()
        for other in people:
            if other is not mover:
                assert await other.page.locator("[data-confirm], [data-action='end']").count() == 0
        version = mine["version"]
        action = choose(mine["legal"], BASES[(seat + 1) % 4 + 1])
        if action["parts"]["kind"] in ("end", "activate"):
            await mover.page.click(f"[data-action='{action['text']}']")
        else:
            await draw_and_confirm(mover, action)
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
    boards = [(await c.match_json())["view"]["content"]["position"]["pieces"] for c in people]
    assert boards[0] == boards[1] == boards[2]


MINEFIELD = """\
conflict-map 1
name minefield
size 5x5
terrain
.....
.+~+.
.~~~.
.+~+.
.....
end
base 1 b2
base 2 d2
base 3 b4
base 4 d4
mine 1 e1
mine 1 e3
mine 2 a1
mine 2 a3
mine 3 a5
mine 3 c5
mine 4 e5
mine 4 c1
"""
"""A map of the match's own (option ``board``): Orange's mine a1 touches Red's base b2."""


@ASYNC
async def test_a_piece_on_a_hostile_mine_is_shown_exploding_on_the_matchs_own_map(
    server: Server, open_client: OpenClient,
) -> None:
    # CON-10: the page draws the map the view carries; CON-42: the cannon entered onto a1 is destroyed.
    created = server.create(game="conflict", players=2, options={"board": MINEFIELD},
                            seats=["open", "bot:random"], bot_seconds=0.01)
    ann = await open_client("Ann")
    await join_from_lobby(ann, server, created["match"]["id"], seat=0)
    page = ann.page
    await ann.wait_my_turn()  # Red rolls first (CON-18)
    assert await page.locator("[data-hit]").count() == 25
    assert sorted(await page.eval_on_selector_all("[data-base]", "bs => bs.map(b => b.dataset.base)")) == \
        ["1", "2", "3", "4"]
    assert await page.locator(".conflict-board .mine").count() == 8
    assert "board: minefield" in (await page.text_content("#match-info") or "")
    snap = await ann.match_json()
    die, version = max(snap["view"]["content"]["position"]["unused"]), snap["version"]
    await page.click("[data-available='1C']")
    await ann.click_square("a1")
    await page.wait_for_selector("#cf-mine-warning")  # CON-68
    await page.click(f"[data-confirm='{die}']")
    await ann.wait_past(version)
    await page.wait_for_selector("[data-exploded='a1']", state="attached")
    assert await page.locator("[data-square='a1']").count() == 0  # the cannon is gone
    snap = await ann.match_json()
    event_data = snap["view"]["content"]["event_data"]
    assert {"kind": "mine", "seat": 1, "piece": "1C", "square": "a1", "mine": 2} in event_data
    assert "destroyed by Orange's mine on a1" in (await page.text_content("#cf-messages") or "")
    await page.screenshot(path=str(server.log.parent / "conflict-mine.png"), full_page=True)
    assert ann.errors == [], ann.errors


@ASYNC
async def test_the_seats_option_names_and_colours_the_players(server: Server,
                                                              open_client: OpenClient) -> None:
    # CON-17: with seats [1, 4] the two players are Red and Yellow, in the lobby and on the match page.
    created = server.create(game="conflict", players=2, options={"seats": [1, 4]},
                            seats=["open", "bot:random"], bot_seconds=0.01)
    match_id = created["match"]["id"]
    ann = await open_client("Ann")
    page = ann.page
    await page.goto(server.base + "/")
    card = page.locator(f"[data-match='{match_id}']")
    await card.wait_for()
    assert await card.locator(".chip .swatch").evaluate_all("ss => ss.map(s => s.className)") == \
        ["swatch swatch-red", "swatch swatch-yellow"]
    await join_from_lobby(ann, server, match_id, seat=0)
    await page.wait_for_selector("#seats li[data-seat='1']")
    yellow = page.locator("#seats li[data-seat='1']")
    assert (await yellow.locator(".what").text_content() or "").startswith("Yellow")
    assert await yellow.locator(".swatch-yellow").count() == 1
    assert await page.locator("#seats li[data-seat='0'] .swatch-red").count() == 1
    assert "Yellow (seat 4)" in (await page.text_content(".cf-row[data-player='4']") or "")
    assert ann.errors == [], ann.errors


@ASYNC
async def test_an_entry_with_the_keyboard_alone(server: Server, open_client: OpenClient) -> None:
    """CON-68 by keyboard: Tab to the row of available pieces, Enter on one, the arrow keys and Enter
    along its path on the board (one tab stop), Tab to the die and Enter: the entry is played."""
    created = server.create(game="conflict", players=2, options={"board": MINEFIELD},
                            seats=["open", "bot:random"], bot_seconds=0.01)
    ann = await open_client("Ann")
    await join_from_lobby(ann, server, created["match"]["id"], seat=0)
    page = ann.page
    await ann.wait_my_turn()
    snap = await ann.match_json()
    entry = next(a for a in snap["legal"] if a["parts"]["kind"] == "enter")
    parts = entry["parts"]
    await tab_to(ann, f"[data-available='{parts['piece']}']")
    await page.keyboard.press("Enter")
    await page.wait_for_selector("#cf-pick")
    await tab_to(ann, "#board [data-hit][tabindex='0']", backwards=True)
    for square in parts["path"]:
        await ann.arrow_to(f"#board [data-hit='{square}']")
        await page.keyboard.press("Enter")
        await page.wait_for_selector(f"[data-path='{square}']", state="attached")
    # The focus stays on the board, on the square just added to the path.
    assert await page.evaluate("document.activeElement?.dataset.hit") == parts["to"]
    await tab_to(ann, f"[data-confirm='{parts['die']}']")
    await page.keyboard.press("Enter")
    await ann.wait_past(snap["version"])
    moves = await page.evaluate("window.parlourMatch.moves")
    assert moves[snap["version"]]["action"] == entry["text"]  # the path drawn is the canonical one
    assert ann.errors == [], ann.errors


async def tab_to(client: Client, selector: str, backwards: bool = False, limit: int = 60) -> None:
    """Tab (or Shift+Tab) until ``selector`` has the focus."""
    for _ in range(limit):
        if await client.page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
        await client.page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"{limit} Tabs never reached {selector}")

