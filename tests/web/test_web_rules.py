"""The rules pages: one per game, each reachable from the lobby and from a match of its game, each
drawing its diagrams in SVG without a single error in the browser console."""

from __future__ import annotations

import pytest
from server_process import Server
from web_helpers import Client, OpenClient

from parlour.games import GAMES

pytestmark = pytest.mark.asyncio(loop_scope="session")
LISTED = sorted(name for name, game in GAMES.items() if game.info.listed)
"""The games of the lobby, each with a rules page (an unlisted example game has none)."""


async def open_rules(client: Client, server: Server, game: str) -> None:
    await client.page.goto(f"{server.base}/help/{game}")
    await client.page.wait_for_selector("body[data-ready='true']", state="attached")


@pytest.mark.parametrize("game", LISTED)
async def test_every_rules_page_draws_its_diagrams_without_errors(server: Server, open_client: OpenClient,
                                                                  game: str) -> None:
    reader = await open_client("Reader")
    await open_rules(reader, server, game)
    page = reader.page
    figures = page.locator("figure[data-diagram]")
    count = await figures.count()
    assert count >= 3
    assert await page.locator("figure[data-diagram] > svg").count() == count  # every diagram drawn
    # The navigation is built from /api/games: every listed game's rules, this one marked current.
    assert await page.locator(f"nav a[href='/help/{game}'][aria-current='page']").count() == 1
    for other in LISTED:
        assert await page.locator(f"nav a[href='/help/{other}']").count() == 1
    assert await page.locator("h1").count() == 1
    await page.screenshot(path=str(server.log.parent / f"rules-{game}.png"), full_page=True)
    assert reader.errors == [], reader.errors


async def test_every_rules_page_is_reachable_from_the_lobby_and_from_a_match(
    server: Server, open_client: OpenClient,
) -> None:
    reader = await open_client("Reader")
    page = reader.page
    await page.goto(server.base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    for game in LISTED:
        assert await page.locator(f".game-option[data-game='{game}'] a[href='/help/{game}']").count() == 1
        assert await page.locator(f"header nav a[href='/help/{game}']").count() == 1
    for game in LISTED:
        players = GAMES[game].info.min_players
        created = server.create(game=game, players=players, seats=["open"] * players)
        await page.goto(f"{server.base}/match/{created['match']['id']}")
        await page.wait_for_selector("body[data-version]", state="attached")
        assert await page.get_attribute("#rules-link", "href") == f"/help/{game}"
        await page.click("#rules-link")
        await page.wait_for_url(f"**/help/{game}")
        await page.wait_for_selector("body[data-ready='true']", state="attached")
    assert reader.errors == [], reader.errors


@pytest.mark.parametrize("game", ["mille", "conflict"])
async def test_the_new_rules_pages_fit_a_phone(server: Server, open_client: OpenClient, game: str) -> None:
    reader = await open_client("Reader", phone=True)
    await open_rules(reader, server, game)
    overflow = await reader.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    await reader.page.screenshot(path=str(server.log.parent / f"rules-{game}-phone.png"), full_page=True)
    assert reader.errors == [], reader.errors
