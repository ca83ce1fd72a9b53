"""The lobby's map picker (issue 16): the shipped and saved maps of GET /api/games/{game}/boards, the
recommended map chosen by default, a drawing of the map chosen, a link to draw your own; a saved
map chosen there is the map the match plays."""

from __future__ import annotations

import secrets

import pytest
from server_process import Server
from test_web_conflict_help import NEAR_BASES
from web_helpers import WAIT_MS, OpenClient

ASYNC = pytest.mark.asyncio(loop_scope="session")


@ASYNC
async def test_the_map_picker_offers_the_recommended_map_and_every_saved_one(server: Server,
                                                                             open_client: OpenClient) -> None:
    status, games = server.call("GET", "/api/games")
    assert status == 200
    boards = next(g for g in games["games"] if g["name"] == "conflict")["boards"]
    recommended = boards["recommended"]
    # A map someone saved earlier is offered too (helper C's library).
    name = f"bay-{secrets.token_hex(3)}"
    status, saved = server.call("POST", "/api/games/conflict/boards", {
        "name": name, "text": NEAR_BASES.replace("name near-bases", f"name {name}"), "author": "Bea"})
    assert status == 201, saved
    status, listed = server.call("GET", "/api/games/conflict/boards")
    assert status == 200
    shipped = [b["name"] for b in listed["boards"] if b["shipped"]]

    ann = await open_client("Ann")
    page = ann.page
    await page.goto(server.base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await page.fill("#name", "Ann")
    await page.click(".game-option[data-game='conflict']")
    await page.click("#options-box summary")
    # Issue 16: "the recommended default in the lobby": chosen before anyone touches the menu, and drawn.
    await page.wait_for_selector(f"#opt-board option[value='{name}']", state="attached")
    assert await page.input_value("#opt-board") == recommended
    chosen = await page.text_content("#opt-board option:checked") or ""
    assert "recommended" in chosen, chosen
    drawn = page.locator(f"#opt-board-preview[data-board='{recommended}'] .conflict-board")
    await drawn.wait_for(state="attached")
    offered = await page.eval_on_selector_all("#opt-board optgroup:first-child option",
                                              "os => os.map(o => o.value)")
    assert offered == shipped
    saved_label = await page.text_content(f"#opt-board option[value='{name}']") or ""
    assert saved_label == f"{name} (7×6) by Bea"
    assert await page.get_attribute("#opt-board-editor", "href") == "/games/conflict/editor"
    assert (await page.text_content("#opt-board-editor") or "").strip() == "Draw your own map"
    # Choosing the saved map draws it (7 columns × 6 rows: 42 squares' worth of terrain).
    await page.select_option("#opt-board", name)
    preview = page.locator(f"#opt-board-preview[data-board='{name}'] .conflict-board")
    await preview.wait_for(state="attached")
    assert await preview.locator("[data-base]").count() == 4
    await page.locator("#options-box").screenshot(path=str(server.log.parent / "conflict-map-picker.png"))
    # And the match plays it.
    await page.select_option("#seat-rows select[data-seat='1']", "bot:random")
    await page.select_option("#bot-seconds", "0.2")
    await page.click("#create-button")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    assert server.summary(match_id)["options"]["board"] == name
    await page.wait_for_selector(".conflict-board")
    assert await page.locator("#board [data-hit]").count() == 7 * 6
    assert ann.errors == [], ann.errors


@ASYNC
async def test_play_the_computer_plays_conflict_on_the_recommended_map(server: Server,
                                                                       open_client: OpenClient) -> None:
    # Issue 16: the balanced map is "the recommended default in the lobby": the one-click game too.
    status, games = server.call("GET", "/api/games")
    assert status == 200
    recommended = next(g for g in games["games"] if g["name"] == "conflict")["boards"]["recommended"]
    ann = await open_client("Ann")
    page = ann.page
    await page.goto(server.base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await page.click("[data-quick='conflict']")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    assert server.summary(match_id)["options"]["board"] == recommended
    await page.wait_for_selector(".conflict-board")
    assert ann.errors == [], ann.errors
