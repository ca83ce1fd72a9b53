"""A person knocked out BY PLAY of a 4-player Biloba match (issue 14; BIL-32 to BIL-34): Ann plays
the first legal move each turn, as a careless new player would, against three greedy bots until
the page says she is out; she is told in words, keeps watching, and the bots finish the match.

Once only bots are in play they move without delays, and the match ends a moment after she is out.
So that the page can be looked at while the match still runs, the test holds back the server's
messages to her page from the moment the server tells her she is out (a slow network, as far as
the page knows) until it has checked the running table; then it lets them all through, in order.

Real ``parlour serve``, real Chromium; every wait is for the page's state, none for time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from lobby_steps import create_match
from playwright.async_api import WebSocketRoute
from server_process import Server
from test_web_a11y import assert_accessible
from test_web_table import GAME_MS, HEAR_JS, heard, no_errors, over, text
from web_helpers import WAIT_MS, Client, OpenClient

from parlour.engine.leaving import RETIRED_WORDS

pytestmark = pytest.mark.asyncio(loop_scope="session")

MATCHES = 3
"""The most matches Ann starts: the bots' seeds are the server's, so a knockout is likely, not certain
(the first legal move each turn against three greedy bots lost all of 10 simulated games)."""


class HoldAfterOut:
    """Stands between a match page and the server: passes every message on until the server tells
    ``seat`` it is out, passes that one on too, then keeps the server's next messages until
    ``release``. What the page sends goes straight through."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.out: dict[str, Any] | None = None
        self.held: list[str | bytes] = []
        self.page_side: WebSocketRoute | None = None
        self.released = False

    def route(self, socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        self.page_side = socket
        socket.on_message(server.send)
        server.on_message(lambda message: self.from_server(socket, message))

    def from_server(self, socket: WebSocketRoute, message: str | bytes) -> None:
        if self.out is not None and not self.released:
            self.held.append(message)
            return
        socket.send(message)
        if self.out is None and isinstance(message, str):
            data = json.loads(message)
            if data.get("type") == "out" and data.get("seat") == self.seat:
                self.out = data

    def release(self) -> None:
        self.released = True
        assert self.page_side is not None
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()


async def play_first_listed(client: Client) -> None:
    """The first action of the page's legal list, clicked there (the list is opened if it is shut;
    it stays open from one turn to the next)."""
    version = await client.version()
    first = (await client.legal())[0]
    if not await client.page.evaluate("document.getElementById('legal-wrap').open"):
        await client.page.click("#legal-wrap summary")
    await client.page.click(f"#legal button[data-action='{first}']")
    await client.wait_past(version)


async def play_until_out(client: Client) -> bool:
    """Plays Ann's turns until the page says she is out (True) or the match is over with her still
    in (False)."""
    while True:
        await client.page.wait_for_function(
            "document.body.dataset.myTurn === 'true' || document.getElementById('out-notice') !== null"
            " || document.body.dataset.status === 'over'", timeout=WAIT_MS)
        if await client.page.locator("#out-notice").count():
            return True
        if await client.page.get_attribute("body", "data-status") == "over":
            return False
        await play_first_listed(client)


@pytest.mark.slow
async def test_a_person_knocked_out_by_play_of_a_four_player_biloba_match_is_told_and_watches_the_bots_finish(
    server: Server, open_client: OpenClient, tmp_path: Path,
) -> None:
    ends: list[str] = []
    for _ in range(MATCHES):
        ann = await open_client("Ann")
        hold = HoldAfterOut(seat=0)
        await ann.page.route_web_socket("**/ws/matches/**", hold.route)
        await create_match(ann, server, game="biloba", players=4,
                           seats={0: "you", 1: "bot:greedy", 2: "bot:greedy", 3: "bot:greedy"})
        await ann.page.evaluate(HEAR_JS)
        if await play_until_out(ann):
            break
        final = await ann.match_json()
        ends.append(f"{final['view'].get('outcome')} after {final['version']} versions")
        no_errors(ann)
        await ann.context.close()
    else:
        pytest.fail(f"Ann was never knocked out by play in {MATCHES} matches: {ends}")

    # The page shows the running match as it stood when the server told her she was out.
    snap = await ann.match_json()
    assert snap["status"] == "running"
    words = snap["view"]["out"][0]
    assert words, snap["view"]["out"]
    assert hold.out is not None
    assert hold.out["words"].endswith(f": {words}"), hold.out
    # Knocked out by play, not by leaving: not the words of a seat that left, and no leaving of hers
    # among the moves (what the server sent, and what the page lists).
    assert words not in RETIRED_WORDS.values(), words
    moves: list[dict[str, Any]] = await ann.page.evaluate("window.parlourMatch.moves")
    assert [m for m in moves if m.get("leaving", {}).get("seat") == 0] == [], moves
    assert "resigned" not in await text(ann, "#moves")

    # Told at once, in words: the alert with the server's words, the banner, the notice.
    said = await heard(ann)
    assert hold.out["words"] in said, said
    assert [s for s in said if f"You are out: {words}" in s], said
    assert (await text(ann, "#turn .head")).endswith(f" You are out: {words}")
    assert await text(ann, "#out-notice p") == (
        f"You are out: {words}. You can watch the others play on, or leave the table.")
    assert await ann.page.get_attribute("#leave-table", "href") == "/"
    assert await ann.page.locator("#resign, #offer-draw").count() == 0
    assert await ann.page.get_attribute("body", "data-my-turn") != "true"
    assert await ann.page.locator("#legal-wrap:not([hidden])").count() == 0
    assert f"Out: {words}" in await text(ann, "#seats li[data-seat='0']")
    await assert_accessible(ann, "a seat knocked out of a running Biloba match")
    await ann.page.screenshot(path=str(tmp_path / "knocked-out-as-seen.png"))
    await ann.page.evaluate("window.scrollTo(0, 0)")
    await ann.page.screenshot(path=str(tmp_path / "knocked-out.png"), full_page=True)

    # The bots play on and finish; she is not the winner, and her seat stays marked out.
    hold.release()
    final = await over(ann, GAME_MS)
    assert final["view"]["outcome"]["winner"] != 0, final["view"]["outcome"]
    result = await text(ann, "#result-text")
    assert not result.startswith("You win"), result
    assert "Ann" not in result, result
    assert "you" not in result, result
    if final["view"]["outcome"]["winner"] is None:  # a draw among the seats still in play, named
        assert result.startswith("Draw between "), result
    assert await text(ann, "#result-out") == f"You were out: {words}."
    assert await ann.page.locator("#seats li.out[data-seat='0']").count() == 1
    assert f"Out: {words}" in await text(ann, "#seats li[data-seat='0']")
    assert await ann.page.locator("#out-notice, #resign, #offer-draw").count() == 0
    # The banner said it once, not again at each of the bots' moves.
    banner = f"You are out: {words}You can watch the others play on, or leave the table."
    assert len([s for s in await heard(ann) if s.endswith(banner)]) == 1, await heard(ann)
    await assert_accessible(ann, "the result after a seat was knocked out")
    await ann.page.evaluate("window.scrollTo(0, 0)")
    await ann.page.screenshot(path=str(tmp_path / "knocked-out-over.png"), full_page=True)
    no_errors(ann)
