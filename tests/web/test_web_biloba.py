"""Biloba in the browser: centre routes and replacements picked with the mouse, and a whole game
against a bot."""

from __future__ import annotations

import random
from typing import Any

import pytest
from lobby_steps import create_match, join_from_lobby, watch_from_lobby
from server_process import Server
from web_helpers import Client, OpenClient, bot_name

from parlour.games import get_game

pytestmark = pytest.mark.asyncio(loop_scope="session")
TAB_LIMIT = 40
"""Tabs from the top of the match page to the board, at most."""


async def pick_centre_route(client: Client, route: str) -> None:
    """Plays ``X-e5-Y`` click by click, checking the page between the clicks (BIL-18)."""
    origin, centre, final = route.split("-")
    await client.click_square(origin)
    await client.page.wait_for_selector("[data-target='e5']", state="attached")
    await client.click_square(centre)
    # Half-way: the pawn stands on e5, a ghost where it came from, and only continuation steps are offered.
    await client.page.wait_for_selector(".pawn:not(.ghost)[data-square='e5']", state="attached")
    assert await client.page.locator(f".pawn.ghost[data-square='{origin}']").count() == 1
    assert await client.page.locator(f"[data-target='{origin}']").count() == 0
    assert "Centre" in (await client.page.text_content("#turn") or "")
    await client.page.wait_for_selector(f"[data-target='{final}']", state="attached")
    await client.click_square(final)


async def test_centre_routes_a_forced_capture_and_its_replacement(
    server: Server, open_client: OpenClient,
) -> None:
    oli, bo, eve = await open_client("Oli"), await open_client("Bo"), await open_client("Eve")
    match_id = await create_match(oli, server, game="biloba", seats={0: "you", 1: "open"})
    await join_from_lobby(bo, server, match_id, seat=1)
    await watch_from_lobby(eve, server, match_id)
    everyone = (oli, bo, eve)

    await oli.wait_my_turn()
    assert "f4-e5-d5" in await oli.legal()
    await pick_centre_route(oli, "f4-e5-d5")
    for client in everyone:
        await client.wait_version(1)
    # BIL-23: Blue may step between orange e4 and g4 ...
    await bo.wait_my_turn()
    await pick_centre_route(bo, "f6-e5-f4")
    for client in everyone:
        await client.wait_version(2)
    # ... and orange captures it at the start of its turn (BIL-26), then must replace (BIL-28).
    await oli.wait_my_turn()
    replacements = (await oli.match_json())["legal"]
    assert sorted((a["parts"]["kind"], a["parts"]["from"], a["parts"]["to"]) for a in replacements) == [
        ("replace", "e4", "f4"), ("replace", "g4", "f4")]
    for client in everyone:
        page = client.page
        await page.wait_for_selector("[data-captured='f4']", state="attached")
        assert await page.locator(".pawn.pending").count() == 2
        for pawn in ("e4", "g4"):
            assert await page.locator(f".pawn.pending[data-square='{pawn}']").count() == 1
        assert await page.locator(".tile.vacated[data-square='f4']").count() == 1
        assert "16 pawns" in (await page.text_content("#seats li[data-seat='0']") or "")
        assert "15 pawns" in (await page.text_content("#seats li[data-seat='1']") or "")
    assert "Replacement" in (await oli.page.text_content("#turn") or "")
    assert "replacements" in (await eve.page.text_content("#turn") or "")
    await oli.click_square("g4")
    await oli.page.wait_for_selector("[data-target='f4']", state="attached")
    assert await oli.page.locator("[data-target]").count() == 1
    await oli.click_square("f4")
    for client in everyone:
        await client.wait_version(3)
        await client.page.wait_for_selector(".pawn-orange[data-square='f4']", state="attached")
        assert await client.page.locator(".pawn.pending").count() == 0
    await bo.wait_my_turn()
    for client in everyone:
        assert client.errors == [], f"{client.name}'s console: {client.errors}"


async def test_a_centre_route_with_the_keyboard(server: Server, open_client: OpenClient) -> None:
    """BIL-18 by keyboard: Tab to the board's one tab stop, the arrow keys to each tile of the route (the
    board is turned for Orange, BIL-5, and the keys follow the screen), Enter on each; the focus stays on
    the board after the move, and Blue's answer is read out by the live region."""
    oli = await open_client("Oli")
    await create_match(oli, server, game="biloba", seats={0: "you", 1: "bot:random"})
    page = oli.page
    await oli.wait_my_turn()
    snapshot = await oli.match_json()
    route = next(a for a in snapshot["legal"] if a["parts"]["kind"] == "route")
    on_board = "document.activeElement?.matches('#board [data-hit]') ?? false"
    for _ in range(TAB_LIMIT):
        if await page.evaluate(on_board):
            break
        await page.keyboard.press("Tab")
    assert await page.evaluate(on_board), f"{TAB_LIMIT} Tabs never reached the board"
    assert await page.locator("#board [data-hit][tabindex='0']").count() == 1  # one tab stop for the board
    origin = route["parts"]["from"]
    assert await page.get_attribute(f"#board [data-hit='{origin}']", "aria-label") == f"{origin}, orange pawn"
    for i, square in enumerate(route["parts"]["path"]):
        if i:
            await page.wait_for_selector(f"[data-target='{square}']", state="attached")
        await oli.arrow_to(f"#board [data-hit='{square}']")
        await page.keyboard.press("Enter")
    await oli.wait_version(snapshot["version"] + 2)  # the route, then Blue's answer
    await oli.wait_my_turn()  # Blue's whole answer, replacements included
    assert await page.evaluate("document.activeElement?.closest('#board') !== null")
    moves = await page.evaluate("window.parlourMatch.moves")
    # Blue's answer may be more than one action (a capture, then its replacements: BIL-28).
    assert next(m for m in moves if m["version"] == snapshot["version"] + 1)["action"] == route["text"]
    assert moves[-1]["seat"] == 1
    assert moves[-1]["action"] in (await page.text_content("#announce") or "")
    assert oli.errors == [], oli.errors


def capturing_choice(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
                     want_route: bool) -> dict[str, Any]:
    """A one-ply greedy player: the action that leaves the opponent fewest pawns; among equals a
    centre route when ``want_route`` (so that the test clicks through one), else one at random. It
    rebuilds the position from the view the page was sent (Game.sample_state) and tries each action
    with parlour's own engine."""
    game = get_game("biloba")
    state = game.sample_state(view, rng)
    seat = state.to_move()
    scored = []
    for action in legal:
        after = state.copy()
        after.apply(after.parse_action(action["text"]))
        counts = after.view(None)["content"]["pawn_counts"]
        enemies = sum(n for other, n in enumerate(counts) if other != seat)
        route = want_route and action["parts"]["kind"] == "route"
        scored.append((enemies, not route, rng.random(), action["text"], action))
    return min(scored)[4]


@pytest.mark.slow
async def test_a_person_plays_biloba_against_a_bot_to_the_end(
    server: Server, open_client: OpenClient,
) -> None:
    bea = await open_client("Bea")
    await create_match(bea, server, game="biloba", seats={0: "you", 1: "bot:random"},
                       options={"quiet_limit": "30"})
    rng = random.Random(4)
    page = bea.page
    played: set[str] = set()
    for _ in range(400):
        await page.wait_for_function(
            "document.body.dataset.myTurn === 'true' || document.body.dataset.status === 'over'",
        )
        if await page.get_attribute("body", "data-status") == "over":
            break
        snapshot = await bea.match_json()
        legal = snapshot["legal"]
        assert await bea.legal() == [action["text"] for action in legal]
        action = capturing_choice(snapshot["view"], legal, rng, want_route="centre" not in played)
        parts = action["parts"]
        if parts["kind"] == "replace":  # BIL-28
            played.add("replacement")
            assert await page.locator(f".pawn.pending[data-square='{parts['from']}']").count() == 1
            await bea.play_squares([parts["from"], parts["to"]])
        elif parts["kind"] == "route":  # BIL-18: through the centre
            played.add("centre")
            await pick_centre_route(bea, "-".join(parts["path"]))
        else:
            played.add("move")
            await bea.play_squares([parts["from"], parts["to"]])
        await bea.wait_version(snapshot["version"] + 1)
    else:
        pytest.fail("the game did not end within 400 of Bea's decisions")

    final = await bea.match_json()
    assert final["view"]["outcome"] is not None
    banner = (await page.text_content("#turn") or "").strip()
    assert banner.startswith(("You win!", f"{bot_name('biloba', 'random')} (Blue) wins", "Draw")), banner
    assert await page.locator("#result:not([hidden])").count() == 1
    assert await page.locator("#moves [data-step]").count() == final["version"]  # one step a move
    assert {"centre", "move"} <= played
    assert bea.errors == [], bea.errors


async def test_the_form_starts_from_the_quiet_limit_a_server_match_of_three_or_four_takes(
    server: Server, open_client: OpenClient,
) -> None:
    """Issue 14: with 3–4 players a Biloba match has the quiet limit on unless its creator clears
    it, and the lobby's form says so (200); with 2 it is off, and what the form sends is kept."""
    ann = await open_client("Ann")
    page = ann.page
    await page.goto(server.base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await page.click(".game-option[data-game='biloba']")
    await page.select_option("#players", "4")
    assert await page.input_value("#opt-quiet_limit") == "200"
    await page.select_option("#players", "2")
    assert await page.input_value("#opt-quiet_limit") == ""
    match_id = await create_match(ann, server, game="biloba", players=3,
                                  seats={0: "you", 1: "bot:random", 2: "bot:random"})
    assert server.summary(match_id)["options"]["quiet_limit"] == 200
    match_id = await create_match(ann, server, game="biloba", players=3, options={"quiet_limit": ""},
                                  seats={0: "you", 1: "bot:random", 2: "bot:random"})
    assert server.summary(match_id)["options"]["quiet_limit"] is None
