"""Tic-tac-toe in the browser through the generic board: a game with no board module of its own is
playable the day it is registered. A person plays a whole game against the strong bot."""

from __future__ import annotations

from typing import Any

import pytest
from server_process import Server
from web_helpers import WAIT_MS, Client, OpenClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

SQUARES = [f"{file}{row}" for row in "123" for file in "abc"]

CREATE = """async (body) => {
  const response = await fetch("/api/matches", {
    method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(JSON.stringify(answer));
  localStorage.setItem(`parlour.token.${answer.match.id}`, answer.token);
  return answer.match.id;
}"""


async def create_against_bot(client: Client, server: Server) -> str:
    """Tic-tac-toe is unlisted, so not in the lobby's form: the page asks the server's API for the
    match (as the lobby's form would), keeps the seat's token where the pages keep it, and opens
    the match. Returns the match id."""
    page = client.page
    await page.goto(server.base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    body = {"game": "tictactoe", "players": 2, "options": {}, "seats": ["open", "bot:strong"],
            "join": 0, "name": client.name, "bot_seconds": 0.2}
    match_id: str = await page.evaluate(CREATE, body)
    await page.goto(f"{server.base}/match/{match_id}")
    await page.wait_for_selector("body[data-version][data-seat='0']", state="attached")
    return match_id


async def my_turn_or_over(client: Client) -> str:
    await client.page.wait_for_function(
        "() => document.body.dataset.status === 'over' || document.body.dataset.myTurn === 'true'",
        timeout=WAIT_MS,
    )
    return await client.page.get_attribute("body", "data-status") or ""


def empty_squares(view: dict[str, Any]) -> list[str]:
    """The empty squares of the view's board, a1 to c3 (rows come row 3 first)."""
    rows = view["content"]["position"]["board"]
    return [square for square in SQUARES if rows[3 - int(square[1])]["abc".index(square[0])] == "-"]


async def test_the_unlisted_example_is_not_in_the_lobby(server: Server, open_client: OpenClient) -> None:
    # GameInfo.listed is False: played by name only, neither in the lobby's form nor in the navigation.
    ann = await open_client("Ann")
    await ann.page.goto(server.base + "/")
    await ann.page.wait_for_selector("body[data-ready='true']", state="attached")
    assert await ann.page.locator(".game-option[data-game='loa']").count() == 1
    assert await ann.page.locator(".game-option[data-game='tictactoe']").count() == 0
    await ann.page.wait_for_selector("a[href='/help/loa']", state="attached")
    assert await ann.page.locator("a[href='/help/tictactoe']").count() == 0


@pytest.mark.slow
async def test_a_person_plays_a_whole_game_against_the_bot(server: Server, open_client: OpenClient) -> None:
    ann = await open_client("Ann")
    await create_against_bot(ann, server)
    page = ann.page
    await page.wait_for_selector("[data-board='generic']", state="attached")
    assert await page.get_attribute("body", "data-board") == "generic"

    played = 0
    while await my_turn_or_over(ann) != "over":
        snap = await ann.match_json()
        offered = await page.eval_on_selector_all(
            "[data-generic-action]", "buttons => buttons.map(b => b.dataset.genericAction)"
        )
        # TTT-3: a button for every empty square, none for a taken one.
        assert sorted(offered) == sorted(empty_squares(snap["view"])), offered
        version = await ann.version()
        await page.click(f"[data-generic-action='{offered[0]}']")
        await ann.wait_past(version)
        played += 1
        assert played <= 5, "X makes at most five moves"

    snap = await ann.match_json()
    outcome = snap["view"]["outcome"]
    assert outcome["reason"] in ("three-in-a-row", "full-board")
    assert outcome["winner"] in (1, None), "the strong bot does not lose to the first square every time"
    words = {"three-in-a-row": "three in a row", "full-board": "the board is full"}[outcome["reason"]]
    assert words in (await page.text_content("body") or "")  # the game's own words for the end
    assert (await page.text_content("#result-text") or "").strip()
    # The generic board shows the final position as text, and no action is left to pick.
    shown = await page.text_content("[data-board='generic'] pre") or ""
    lines = [line.strip() for line in shown.splitlines()]
    for row in snap["view"]["content"]["position"]["board"]:
        assert row in lines, f"the board's rows one under the other: {shown!r}"
    # The example has no rules page: the match page offers no Rules link to follow.
    assert await page.locator("#rules-link").is_hidden()
    assert await page.locator("[data-generic-action]").count() == 0
    moves = await page.locator("#moves li").count()
    assert moves == snap["version"]
    assert played in (moves // 2, moves // 2 + 1)
    assert ann.errors == [], f"Ann's console: {ann.errors}"
