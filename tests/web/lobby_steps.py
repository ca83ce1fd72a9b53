"""What a person does in the lobby page, step by step, shared by the browser tests."""

from __future__ import annotations

from server_process import Server
from web_helpers import WAIT_MS, Client


async def create_match(client: Client, server: Server, *, game: str, seats: dict[int, str],
                       options: dict[str, str] | None = None, players: int | None = None,
                       clock: str | None = None) -> str:
    """Fills in the lobby's form and creates the match; returns its id once the match page is open.

    ``seats`` maps a seat to the lobby's choice for it: "you", "open" or "bot:KIND"; ``clock`` is a
    choice of the form's clock menu ("5+3", "per_move:60").
    """
    page = client.page
    await page.goto(server.base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await page.fill("#name", client.name)
    await page.click(f".game-option[data-game='{game}']")
    if players is not None:
        await page.select_option("#players", str(players))
    for seat, choice in seats.items():
        await page.select_option(f"#seat-rows select[data-seat='{seat}']", choice)
    if options:
        await page.click("#options-box summary")
        for name, value in options.items():
            field = page.locator(f"#opt-{name}")
            if await field.evaluate("element => element.tagName") == "SELECT":  # a map picker
                await field.select_option(value)
            else:
                await field.fill(value)
    if clock is not None:
        await page.select_option("#clock", clock)
    await page.select_option("#bot-seconds", "0.2")
    await page.click("#create-button")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    await page.wait_for_selector("body[data-version]", state="attached")
    return page.url.rstrip("/").rsplit("/", 1)[1]


VIEW_OF_STATUS = {"open": "open", "running": "playing", "over": "finished"}
"""The lobby's view that lists a match of each status."""


async def open_lobby_at(client: Client, server: Server, match_id: str) -> None:
    """Opens the lobby on the view and game that list ``match_id`` (the list shows a page at a time,
    and a shared test server holds many matches)."""
    match = server.summary(match_id)
    page = client.page
    await page.goto(f"{server.base}/#view={VIEW_OF_STATUS[match['status']]}&game={match['game']}")
    await page.wait_for_selector("body[data-ready='true']", state="attached")


async def join_from_lobby(client: Client, server: Server, match_id: str, seat: int) -> None:
    """Finds the match in the lobby's list and takes ``seat``."""
    page = client.page
    await open_lobby_at(client, server, match_id)
    await page.fill("#name", client.name)
    await page.click(f"[data-join='{match_id}:{seat}']")
    await page.wait_for_url(f"**/match/{match_id}", timeout=WAIT_MS)
    await page.wait_for_selector(f"body[data-seat='{seat}']", state="attached")


async def watch_from_lobby(client: Client, server: Server, match_id: str) -> None:
    page = client.page
    await open_lobby_at(client, server, match_id)
    await page.click(f"[data-watch='{match_id}']")
    await page.wait_for_url(f"**/match/{match_id}", timeout=WAIT_MS)
    await page.wait_for_selector("body[data-seat='spectator']", state="attached")
