"""Dark mode (issue 15, "Dark mode following the system setting"): a browser that asks for a dark
scheme gets dark pages (the lobby, a match, a rules page) that axe-core still finds readable; one that
does not gets the light ones."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Literal

import pytest
import pytest_asyncio
from playwright.async_api import Browser
from server_process import Server
from test_web_a11y import assert_accessible, finished_loa, open_lobby, open_match, take_seat_0_against_bots
from web_helpers import LAPTOP, WAIT_MS, Client

pytestmark = pytest.mark.asyncio(loop_scope="session")

Scheme = Literal["dark", "light"]
OpenSchemed = Callable[[str, Scheme], Awaitable[Client]]

LUMINANCE_JS = """
selector => {
  const lum = (text) => {
    const [r, g, b] = text.match(/[\\d.]+/g).slice(0, 3).map(Number).map((c) => {
      c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(document.querySelector(selector));
  return {background: lum(style.backgroundColor), text: lum(style.color)};
}
"""
"""The relative luminance (WCAG) of an element's background colour and of its text colour."""


@pytest_asyncio.fixture(loop_scope="session")
async def schemed(browser: Browser) -> AsyncIterator[OpenSchemed]:
    """``await schemed("Ann", "dark")``: a person whose system asks for a dark (or light) scheme."""
    opened: list[Client] = []

    async def make(name: str, scheme: Scheme) -> Client:
        context = await browser.new_context(viewport=LAPTOP, color_scheme=scheme)
        context.set_default_timeout(WAIT_MS)
        client = Client(context, await context.new_page(), name)
        opened.append(client)
        return client

    yield make
    for client in opened:
        with contextlib.suppress(Exception):
            await client.context.close()


async def luminance(client: Client, selector: str) -> dict[str, float]:
    found: dict[str, float] = await client.page.evaluate(LUMINANCE_JS, selector)
    return found


async def test_the_lobby_is_dark_when_the_system_asks_and_light_when_not(
        server: Server, schemed: OpenSchemed, tmp_path: Path) -> None:
    server.create(game="loa", players=2, seats=["open", "open"])
    finished_loa(server)
    ann, bob = await schemed("Ann", "dark"), await schemed("Bob", "light")
    for client in (ann, bob):
        await open_lobby(client, server)
        await client.page.wait_for_selector("[data-join]")
    dark, light = await luminance(ann, "body"), await luminance(bob, "body")
    assert dark["background"] < 0.03 < 0.6 < dark["text"], dark  # a dark page, light words
    assert light["background"] > 0.8 > 0.05 > light["text"], light
    card = await luminance(ann, ".card")
    assert card["background"] < 0.05, card
    await ann.page.screenshot(path=str(tmp_path / "dark-lobby.png"), full_page=True)
    await assert_accessible(ann, "the lobby in dark mode")


async def test_a_match_page_is_dark_and_readable_for_a_seat_and_a_spectator(
        server: Server, schemed: OpenSchemed, tmp_path: Path) -> None:
    ann, eve = await schemed("Ann", "dark"), await schemed("Eve", "dark")
    match_id = await take_seat_0_against_bots(ann, server, "loa")
    await ann.wait_my_turn()
    await ann.page.fill("#chat-text", "good luck")
    await ann.page.click("#chat-send")
    await ann.page.wait_for_selector("#chat-log .chat-text")  # a message in the log, its name and time
    await ann.page.fill("#chat-text", "a" * 501)                # and the counter's and the box's error
    await ann.page.click("#chat-send")
    assert (await luminance(ann, "body"))["background"] < 0.03
    assert (await luminance(ann, "#chat-text"))["background"] < 0.05  # the fields too, not white boxes
    await ann.page.screenshot(path=str(tmp_path / "dark-match.png"), full_page=True)
    await assert_accessible(ann, "a LOA match in dark mode, seat 0 to move")
    await open_match(eve, server, match_id)
    await eve.page.wait_for_selector("body[data-seat='spectator']", state="attached")
    await assert_accessible(eve, "a LOA match in dark mode, as a spectator")


@pytest.mark.parametrize("game", ["biloba", "conflict", "mille"])
async def test_every_game_is_readable_in_dark_mode(server: Server, schemed: OpenSchemed, game: str,
                                                 tmp_path: Path) -> None:
    ann = await schemed("Ann", "dark")
    await take_seat_0_against_bots(ann, server, game)
    await ann.wait_my_turn()
    # axe alone passes a light page too: the page and its cards are dark, their words light.
    page, card = await luminance(ann, "body"), await luminance(ann, ".side .card")
    assert page["background"] < 0.03 < 0.6 < page["text"], page
    assert card["background"] < 0.05 < 0.6 < card["text"], card
    await ann.page.screenshot(path=str(tmp_path / f"dark-{game}.png"), full_page=True)
    await assert_accessible(ann, f"a {game} match in dark mode, seat 0 to move")


async def test_a_finished_match_and_a_rules_page_are_readable_in_dark_mode(
        server: Server, schemed: OpenSchemed, tmp_path: Path) -> None:
    eve = await schemed("Eve", "dark")
    await open_match(eve, server, finished_loa(server))
    await eve.page.wait_for_selector("#result:not([hidden])")
    await assert_accessible(eve, "a finished LOA match in dark mode")
    await eve.page.goto(f"{server.base}/help/mille")
    await eve.page.wait_for_selector("body[data-ready='true']", state="attached")
    assert (await luminance(eve, "body"))["background"] < 0.03
    await eve.page.screenshot(path=str(tmp_path / "dark-help.png"), full_page=True)
    await assert_accessible(eve, "the rules of Mille Bornes in dark mode")
