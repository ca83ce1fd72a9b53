"""The map editor in the browser (issue 16): "draw a small map in the editor, see a validation error
appear on the right square and go away when fixed, save it, start a match on it against a bot and
play a roll"; mirroring a quarter for a fair map; a bad upload that loses nothing of the drawing; the
keyboard alone; a download that is the map's file.

Real ``parlour serve``, real Chromium; every wait is for the page's state, none for time."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from playwright.async_api import FilePayload
from server_process import Server
from test_web_a11y import assert_accessible
from test_web_conflict import draw_and_confirm
from web_helpers import WAIT_MS, Client, OpenClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCREEN = {"width": 1366, "height": 768}
_names = itertools.count(1)


def upload(name: str, content: bytes, kind: str = "text/plain") -> FilePayload:
    return {"name": name, "mimeType": kind, "buffer": content}


def fresh_name(stem: str) -> str:
    """A map name no other test on the shared server has saved (saved maps never change)."""
    return f"{stem}-{next(_names)}"


async def open_editor(client: Client, server: Server) -> None:
    page = client.page
    await page.set_viewport_size(SCREEN)  # type: ignore[arg-type]
    await page.goto(server.base + "/games/conflict/editor")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await checked(client)


async def checked(client: Client) -> str:
    """Waits for the engine's answer about the drawing as it now stands; returns the status line."""
    await client.page.wait_for_selector("#ed-status:not([data-state='checking'])", state="attached")
    return " ".join((await client.page.text_content("#ed-status") or "").split())


async def new_blank(client: Client, cols: int, rows: int) -> None:
    page = client.page
    await page.fill("#ed-cols", str(cols))
    await page.fill("#ed-rows", str(rows))
    await page.click("#ed-blank")
    await page.wait_for_selector(f"#ed-grid [data-square='{chr(96 + cols)}{rows}']", state="attached")


async def map_text(client: Client) -> str:
    """The map file the editor would save, download or play (its own writer)."""
    text: str = await client.page.evaluate("window.parlourEditor.text()")
    return text


async def problem_at(client: Client, square: str) -> str | None:
    return await client.page.get_attribute(f"#ed-grid [data-square='{square}']", "data-problem")


async def tool(client: Client, name: str) -> None:
    await client.page.click(f"label.ed-tool:has(input[value='{name}'])")


async def play_a_roll(client: Client) -> dict[str, Any]:
    """Plays the person's first decision of a roll (an entry or a move drawn square by square, or
    ending the roll), and waits for the match to take it."""
    await client.wait_my_turn()
    snap = await client.match_json()
    legal = snap["legal"]
    action = next((a for a in legal if a["parts"]["kind"] == "enter"), None) or \
        next(a for a in legal if a["parts"]["kind"] in ("end", "activate"))
    if action["parts"]["kind"] == "enter":
        await draw_and_confirm(client, action)
    else:
        await client.page.click(f"[data-action='{action['text']}']")
    await client.wait_past(snap["version"])
    played: dict[str, Any] = action
    return played


async def test_draw_a_small_map_see_its_error_on_the_square_fix_it_save_it_and_play_it(
    server: Server, open_client: OpenClient,
) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await open_editor(ann, server)
    await new_blank(ann, 8, 8)
    assert await checked(ann) == "The map is ready to play."
    assert await page.locator("#ed-grid [data-problem]").count() == 0
    # Red's base moved to b1, a square with land all round: CON-12 item 8, on b1 itself.
    await tool(ann, "base")
    await page.click("#ed-grid [data-square='b1']")
    status = await checked(ann)
    assert status.startswith("1 error"), status
    assert await problem_at(ann, "b1") == "error"
    assert await page.locator("#ed-grid [data-problem='error']").count() == 1
    problem = page.locator("#ed-problems li[data-severity='error']")
    assert await problem.get_attribute("data-squares") == "b1"
    assert "water" in (await problem.text_content() or "")
    assert "error" in (await page.get_attribute("#ed-grid [data-square='b1']", "aria-label") or "")
    # Said aloud too (the page's live region): the count, the square and the problem.
    await page.wait_for_function(
        "() => document.getElementById('announce').textContent.startsWith('1 error')", timeout=WAIT_MS)
    heard = await page.text_content("#announce") or ""
    assert "b1: " in heard
    assert "water" in heard
    await page.screenshot(path=str(server.log.parent / "editor-error.png"))
    await assert_accessible(ann, "the map editor showing an error")
    # Fixed with the keyboard: from b1 (the click left the focus there) to c2, which "w" makes water;
    # b1 now touches water and the error goes away.
    assert await page.evaluate("document.activeElement.dataset.square") == "b1"
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("w")
    assert await checked(ann) != status
    assert await problem_at(ann, "b1") != "error"
    # c3 too (Red's base was there): the pond joins the sea and b1 has no problem left, not even
    # CON-13's warning that its ships could reach no other base.
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("w")
    assert await checked(ann) == "The map is ready to play."
    assert await problem_at(ann, "b1") is None
    assert await page.locator("#ed-problems li[data-severity='error']").count() == 0
    assert await page.get_attribute("#ed-grid [data-square='c2']", "class") == "ed-cell t-water"
    # Saved to the library under its name: the list the lobby offers names it.
    name = fresh_name("little-sea")
    await page.fill("#ed-name", name)
    await page.click("#ed-save")
    await page.wait_for_selector(f"#ed-saved[data-saved='{name}']")
    status_code, listed = server.call("GET", "/api/games/conflict/boards")
    assert status_code == 200
    assert {"name": name, "cols": 8, "rows": 8, "shipped": False} in [
        {k: b[k] for k in ("name", "cols", "rows", "shipped")} for b in listed["boards"]]
    status_code, saved = server.call("GET", f"/api/games/conflict/boards/{name}")
    assert saved["text"] == await map_text(ann)
    await page.click("#ed-save")  # saved maps never change: the same name again is refused
    await page.wait_for_selector("#ed-file-problems:has-text('already in the library')")
    # Tried at once against a bot: the match plays the drawn map, and a roll is played on it.
    await page.click("#ed-try")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    await page.wait_for_selector(".conflict-board")
    snap = await ann.match_json()
    board = snap["view"]["content"]["board"]
    assert (board["cols"], board["rows"], board["bases"]["1"]) == (8, 8, "b1")
    assert await page.locator("[data-hit]").count() == 64
    await play_a_roll(ann)
    await page.screenshot(path=str(server.log.parent / "editor-tried.png"))
    # Chromium logs the refused second save (409) as a failed resource: that refusal was the point.
    assert [e for e in ann.errors if "409 (Conflict)" not in e] == [], ann.errors


async def test_mirroring_the_upper_left_quarter_gives_every_seat_its_corner(
    server: Server, open_client: OpenClient,
) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await open_editor(ann, server)
    # Any listed map opens: the shipped classic, 20 by 20, Red's base on e5 (CON-15).
    await page.wait_for_selector("#ed-open-choice[data-ready='true']", state="attached")
    await page.select_option("#ed-open-choice", "classic")
    await page.click("#ed-open")
    await page.wait_for_selector("#ed-grid [data-square='e5'][data-base='1']", state="attached")
    assert await page.locator("#ed-grid [data-square]").count() == 400
    assert await page.input_value("#ed-cols") == "20"
    await new_blank(ann, 10, 9)
    # Red's base to b2 beside a lake dragged over c3, d3 and e3, impassable d1, a Red mine on a4.
    await tool(ann, "water")
    start = await page.locator("#ed-grid [data-square='c3']").bounding_box()
    end = await page.locator("#ed-grid [data-square='e3']").bounding_box()
    assert start is not None
    assert end is not None
    await page.mouse.move(start["x"] + 4, start["y"] + 4)
    await page.mouse.down()
    await page.mouse.move(end["x"] + 4, end["y"] + 4, steps=8)
    await page.mouse.up()
    await tool(ann, "block")
    await page.click("#ed-grid [data-square='d1']")
    await tool(ann, "base")
    await page.click("#ed-grid [data-square='b2']")
    await tool(ann, "mine")
    await page.click("#ed-grid [data-square='a4']")
    await page.click("#ed-mirror-both")
    await checked(ann)
    cells = await page.eval_on_selector_all(
        "#ed-grid [data-square]",
        "cs => Object.fromEntries(cs.map(c => [c.dataset.square,"
        " [c.classList[1], c.dataset.base ?? null, c.dataset.mine ?? null]]))")
    # Ten columns mirror a..e onto j..f; nine rows keep the middle row 5 and mirror 1..4 onto 9..6.
    for left, right in (("c", "h"), ("d", "g"), ("e", "f")):
        assert {cells[f"{left}3"][0], cells[f"{right}3"][0], cells[f"{left}7"][0], cells[f"{right}7"][0]} == \
            {"t-water"}
    assert cells["c4"][0] == cells["c2"][0] == "t-land"
    assert cells["d1"][0] == cells["g1"][0] == cells["d9"][0] == cells["g9"][0] == "t-block"
    assert [cells[s][1] for s in ("b2", "i2", "b8", "i8")] == ["1", "2", "3", "4"]
    assert [cells[s][2] for s in ("a4", "j4", "a6", "j6")] == ["1", "2", "3", "4"]
    text = await map_text(ann)
    assert "base 1 b2\nbase 2 i2\nbase 3 b8\nbase 4 i8\n" in text
    # Undo takes back the mirror, the mine, the base and d1 one at a time, then the whole drag at once.
    await page.click("#ed-undo")
    await page.click("#ed-undo")
    await page.click("#ed-undo")
    await page.click("#ed-undo")
    await page.wait_for_selector("#ed-grid [data-square='d1'].t-land", state="attached")
    assert await page.get_attribute("#ed-grid [data-square='e3']", "class") == "ed-cell t-water"
    await page.click("#ed-undo")
    await page.wait_for_selector("#ed-grid [data-square='e3'].t-land", state="attached")
    assert await page.get_attribute("#ed-grid [data-square='c3']", "class") == "ed-cell t-land"
    assert ann.errors == [], ann.errors


async def test_a_bad_upload_is_explained_and_loses_nothing_a_good_one_opens(
    server: Server, open_client: OpenClient,
) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await open_editor(ann, server)
    await new_blank(ann, 7, 6)
    await checked(ann)
    before = await map_text(ann)
    bad = before.replace("base 4", "base 3")  # two bases for seat 3, none for seat 4 (CON-12 item 5)
    await page.set_input_files("#ed-upload", files=[upload("bad.cmap", bad.encode())])
    await page.wait_for_selector("#ed-file-problems:not([hidden])")
    words = " ".join((await page.text_content("#ed-file-problems") or "").split())
    assert words.startswith("bad.cmap was not opened"), words
    assert "seat" in words
    assert await map_text(ann) == before
    assert await page.locator("#ed-grid [data-square='g6']").count() == 1  # still 7x6
    # Opened by choice to mend it: the grid shows the file, and its errors on their squares.
    await page.click("#ed-open-anyway")
    assert await page.is_hidden("#ed-file-problems")
    assert "the map cannot be played yet" in await checked(ann)
    assert await page.locator("#ed-grid [data-problem='error']").count() >= 1
    await page.click("#ed-undo")
    assert await checked(ann) == "The map is ready to play."
    not_a_map = b"\x89PNG\x00\x00"
    await page.set_input_files("#ed-upload", files=[upload("picture.cmap", not_a_map, "image/png")])
    await page.wait_for_selector("#ed-file-problems:has-text('picture.cmap')")
    assert await map_text(ann) == before
    # Longer than the server takes (GET /api/games: the boards' max_characters, else 16,384): refused
    # before it is sent, the limit named.
    _, games = server.call("GET", "/api/games")
    limit = next(g for g in games["games"] if g["name"] == "conflict")["boards"].get("max_characters", 16384)
    padded = before + "; a comment\n" * (limit // 12 + 1)
    await page.set_input_files("#ed-upload", files=[upload("long.cmap", padded.encode())])
    await page.wait_for_selector("#ed-file-problems:has-text('long.cmap')")
    words = " ".join((await page.text_content("#ed-file-problems") or "").split())
    assert f"{limit:,} characters at most" in words, words
    assert await map_text(ann) == before
    # The shipped classic, as a file: it opens, 20 by 20, ready to play.
    status_code, classic = server.call("GET", "/api/games/conflict/boards/classic")
    assert status_code == 200
    await page.set_input_files("#ed-upload", files=[upload("classic.cmap", classic["text"].encode())])
    await page.wait_for_selector("#ed-grid [data-square='t20']", state="attached")
    assert await page.is_hidden("#ed-file-problems")
    assert await page.get_attribute("#ed-grid [data-square='e5']", "data-base") == "1"
    assert (await checked(ann)).startswith(("The map is ready", "Playable"))
    # Undo brings the drawing from before the upload back.
    await page.click("#ed-undo")
    await page.wait_for_selector("#ed-grid [data-square='g6']", state="attached")
    assert await map_text(ann) == before
    assert ann.errors == [], ann.errors


async def test_the_keyboard_alone_draws_and_the_download_is_the_maps_file(
    server: Server, open_client: OpenClient,
) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await open_editor(ann, server)
    await new_blank(ann, 8, 8)  # rows 2 and 7 hold no base and no mine
    await checked(ann)
    await page.focus("#ed-grid [data-square='a2']")
    # "i" chooses impassable ground and paints a2; Shift+Right paints b2 on the way; five rows down,
    # "w" paints b7 water and two Shift+Rights c7 and d7.
    await page.keyboard.press("i")
    await page.keyboard.press("Shift+ArrowRight")
    for _ in range(5):
        await page.keyboard.press("ArrowDown")
    await page.keyboard.press("w")
    await page.keyboard.press("Shift+ArrowRight")
    await page.keyboard.press("Shift+ArrowRight")
    await checked(ann)
    assert await page.evaluate("document.activeElement.dataset.square") == "d7"
    ground = await page.eval_on_selector_all(
        "#ed-grid [data-square]", "cs => Object.fromEntries(cs.map(c => [c.dataset.square, c.classList[1]]))")
    assert ground["a2"] == ground["b2"] == "t-block"
    assert ground["b7"] == ground["c7"] == ground["d7"] == "t-water"
    assert ground["a3"] == ground["e7"] == "t-land"
    # The keys 3 and m: Green's mine on d7.
    await page.keyboard.press("3")
    await page.keyboard.press("m")
    await checked(ann)
    assert await page.get_attribute("#ed-grid [data-square='d7']", "data-mine") == "3"
    await assert_accessible(ann, "the map editor")
    async with page.expect_download() as waiting:
        await page.click("#ed-download")
    download = await waiting.value
    assert download.suggested_filename == "my-map.cmap"
    path = await download.path()
    assert path is not None
    written = path.read_text()
    assert written == await map_text(ann)
    assert "mine 3 d7" in written
    # Dark, as a system may ask: the drawing kept in the browser comes back, readable.
    await page.emulate_media(color_scheme="dark")
    await page.reload()
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await checked(ann)
    assert await map_text(ann) == written
    # Kept as the drawing itself (JSON), not as a map file to read back.
    kept = await page.evaluate("JSON.parse(localStorage.getItem('parlour.editor.conflict'))")
    assert kept["mines"]["d7"] == 3, kept
    await assert_accessible(ann, "the map editor in dark mode")
    # A copy an older page kept as the map's text comes back too.
    await page.evaluate("text => localStorage.setItem('parlour.editor.conflict', text)", written)
    await page.reload()
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    assert await map_text(ann) == written
    assert ann.errors == [], ann.errors


async def test_a_map_with_errors_is_neither_saved_nor_played_and_a_resize_keeps_what_fits(
    server: Server, open_client: OpenClient,
) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await open_editor(ann, server)
    await new_blank(ann, 6, 6)
    await tool(ann, "block")
    await page.click("#ed-grid [data-square='a1']")  # on Red's mine: CON-12 item 6
    assert "the map cannot be played yet" in await checked(ann)
    assert await problem_at(ann, "a1") == "error"
    before = await map_text(ann)
    name = fresh_name("broken")
    await page.fill("#ed-name", name)
    await page.click("#ed-save")
    await page.wait_for_selector("#ed-file-problems:has-text('Not saved.')")
    assert "a1" in (await page.text_content("#ed-file-problems") or "")
    assert server.call("GET", f"/api/games/conflict/boards/{name}")[0] == 404
    await page.click("#ed-try")
    await page.wait_for_selector("#ed-file-problems:has-text('The match was not created.')")
    assert "/games/conflict/editor" in page.url
    assert await map_text(ann) == before.replace("name my-map", f"name {name}")
    # Resized, the drawing keeps its place from the upper-left corner: a1 is still impassable, the
    # new column g is land, and the mines of row 6 are gone with it (the check says so).
    await page.fill("#ed-cols", "7")
    await page.fill("#ed-rows", "5")
    await page.click("#ed-resize")
    await page.wait_for_selector("#ed-grid [data-square='g5'].t-land", state="attached")
    assert await page.locator("#ed-grid [data-square]").count() == 35
    assert await page.get_attribute("#ed-grid [data-square='a1']", "class") == "ed-cell t-block has-error"
    assert "mine 3" not in await map_text(ann)
    await page.fill("#ed-rows", "41")
    await page.click("#ed-resize")
    await page.wait_for_selector("#ed-file-problems:has-text('5–40 rows')")
    assert await page.locator("#ed-grid [data-square]").count() == 35
    # Chromium logs the two refusals (400) as failed resources: they were the point.
    assert [e for e in ann.errors if "400 (Bad Request)" not in e] == [], ann.errors
