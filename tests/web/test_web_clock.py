"""Clocks and claims at the browser table (issue 14): a 5+3 match chosen in the lobby shows both clocks
and counts the running one, a clock that runs out ends the match for both browsers, and a seat gone
long enough is claimed by the other after a confirmation.

Real ``parlour serve --test-clock``, real Chromium. Time moves only when the test moves it: the
server's by ``POST /api/test/clock``, each page's by Playwright's clock, paused and moved on by the
same seconds. Nothing sleeps."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from lobby_steps import create_match, join_from_lobby
from server_process import Server
from test_web_a11y import assert_accessible
from web_helpers import Client, OpenClient

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-clock"), flags=["--test-clock"]).start()
    yield running
    running.stop()


async def text(client: Client, selector: str) -> str:
    return " ".join((await client.page.text_content(selector) or "").split())


async def clock_of(client: Client, seat: int) -> str:
    return await text(client, f"[data-clock='{seat}']")


async def wait_clock(client: Client, seat: int, shown: str) -> None:
    """Until the page shows ``shown`` on ``seat``'s clock (polled: a paused page draws no frames)."""
    await client.page.wait_for_function(
        "([seat, shown]) => document.querySelector(`[data-clock='${seat}']`)?.textContent === shown",
        arg=[seat, shown], polling=100,
    )


async def two_people(open_client: OpenClient, server: Server, clock: str) -> tuple[Client, Client, str]:
    """Ann creates a Lines of Action match with ``clock`` in the lobby (seat 0, Black), Bob takes
    White from the lobby; then each page's time stands still, and each page reads the match afresh."""
    ann, bob = await open_client("Ann"), await open_client("Bob")
    for client in (ann, bob):
        await client.page.clock.install()
    match_id = await create_match(ann, server, game="loa", seats={0: "you", 1: "open"}, clock=clock)
    await join_from_lobby(bob, server, match_id, 1)
    for client in (ann, bob):
        await client.page.wait_for_selector("body[data-status='running']", state="attached")
        await client.page.clock.pause_at(time.time() + 0.5)
        await client.page.reload()
        await client.page.wait_for_selector("[data-clock='1']")
    return ann, bob, match_id


async def advance(server: Server, seconds: float, *clients: Client) -> None:
    """The server's time and each page's move on by ``seconds`` together."""
    status, answer = server.call("POST", "/api/test/clock", {"advance": seconds})
    assert status == 200, answer
    for client in clients:
        await client.page.clock.fast_forward(int(seconds * 1000))


async def test_a_5_plus_3_match_shows_both_clocks_and_counts_the_running_one(
    clock_server: Server, open_client: OpenClient,
) -> None:
    ann, bob, match_id = await two_people(open_client, clock_server, "5+3")
    assert clock_server.summary(match_id)["clock"] == {"base": 300, "increment": 3}
    for client in (ann, bob):
        assert "clock 5+3" in await text(client, "#match-info")
        assert [await clock_of(client, 0), await clock_of(client, 1)] == ["5:00", "5:00"]

    await advance(clock_server, 10, ann, bob)
    for client in (ann, bob):
        await wait_clock(client, 0, "4:50")
        assert await clock_of(client, 1) == "5:00"  # White's clock stands while Black thinks
        assert await client.page.get_attribute("[data-clock='0']", "class") == "clock running"

    # Black moves after 10 seconds: 300 - 10 + 3 is 4:53, and White's clock runs.
    version = await ann.version()
    first = (await ann.legal())[0]
    await ann.page.click("#legal-wrap summary")
    await ann.page.click(f"#legal button[data-action='{first}']")
    for client in (ann, bob):
        await client.wait_past(version)
        assert await clock_of(client, 0) == "4:53"
    await advance(clock_server, 275, ann, bob)
    for client in (ann, bob):
        await wait_clock(client, 1, "0:25")
        # Low time is marked (and not by colour alone: a sign comes before the numbers).
        assert "low" in (await client.page.get_attribute("[data-clock='1']", "class") or "")
        assert "low" not in (await client.page.get_attribute("[data-clock='0']", "class") or "")
    await bob.page.clock.resume()  # a screenshot waits for the page's next frame
    await bob.page.screenshot(path=str(clock_server.db.parent / "clock-low.png"))
    await assert_accessible(bob, "a timed match with a clock low")


async def test_a_clock_that_runs_out_ends_the_match_for_both_browsers(
    clock_server: Server, open_client: OpenClient,
) -> None:
    ann, bob, match_id = await two_people(open_client, clock_server, "per_move:30")
    assert clock_server.summary(match_id)["clock"] == {"per_move": 30}
    assert "clock 30 s a move" in await text(ann, "#match-info")
    await advance(clock_server, 31, ann, bob)
    for client in (ann, bob):
        await client.page.wait_for_selector("body[data-status='over']", state="attached")
        assert await text(client, "#result-why") == "Ann (Black) ran out of time"
        assert await clock_of(client, 0) == "out of time"
    assert await text(ann, "#result-text") == "Bob (White) wins"
    assert await text(bob, "#result-text") == "You win!"
    assert clock_server.summary(match_id)["outcome"]["reason"] == "out-of-time"
    await ann.page.clock.resume()
    await ann.page.screenshot(path=str(clock_server.db.parent / "clock-out.png"))
    await assert_accessible(ann, "a match lost on time")


async def test_a_seat_gone_too_long_is_claimed_after_a_confirmation(
    clock_server: Server, open_client: OpenClient,
) -> None:
    ann, bob, match_id = await two_people(open_client, clock_server, "5+3")
    await bob.context.close()  # Bob's browser is gone
    await ann.page.wait_for_selector("[data-presence='1']:text('away')")

    # A minute away is not enough in a timed match (two minutes): nothing to claim yet.
    await advance(clock_server, 60, ann)
    await ann.page.wait_for_selector("[data-presence='1']:text('away 1 min')")
    assert await ann.page.locator("[data-claim]").count() == 0

    await advance(clock_server, 61, ann)
    claim = ann.page.locator("[data-claim='1']")
    await claim.wait_for()
    assert await text(ann, "#claim-1 p") == "Bob has been away 2 min."
    assert await claim.text_content() == "Claim the win…"
    assert await clock_of(ann, 0) == "2:59"  # Black's own clock ran meanwhile
    await ann.page.clock.resume()  # from here on the page's time flows: Bob stays away all the same
    await ann.page.screenshot(path=str(clock_server.db.parent / "claim.png"))
    await assert_accessible(ann, "a seat away long enough to claim")

    # The confirmation's safe answer leaves everything as it was.
    await claim.click()
    assert await text(ann, "#confirm-title") == "Claim the win?"
    await assert_accessible(ann, "the claim confirmation")
    await ann.page.click("#confirm-no")
    assert await ann.page.get_attribute("body", "data-status") == "running"

    await claim.click()
    await ann.page.click("#confirm-yes")
    await ann.page.wait_for_selector("body[data-status='over']", state="attached")
    assert await text(ann, "#result-text") == "You win!"
    assert await text(ann, "#result-why") == "Bob (White) was gone too long"
    assert clock_server.summary(match_id)["outcome"] == {
        "winner": 0, "reason": "gone", "scores": [], "words": "the other side was gone too long",
    }
    assert ann.errors == []


async def test_the_lobby_offers_a_clock_of_ones_own_and_refuses_a_wrong_one(
    clock_server: Server, open_client: OpenClient,
) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await page.goto(clock_server.base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await page.click(".game-option[data-game='loa']")
    assert await page.is_hidden("#clock-base")
    await page.select_option("#clock", "custom")
    await page.fill("#clock-base", "2")
    await page.fill("#clock-increment", "1")
    await assert_accessible(ann, "the lobby with a clock of one's own")
    await page.fill("#clock-increment", "-4")
    await page.click("#create-button")
    # The browser's own check of the field stops the form and says why; nothing is created.
    assert await page.evaluate("document.getElementById('clock-increment').validity.rangeUnderflow")
    assert "/match/" not in page.url
    await page.fill("#clock-increment", "1")
    await page.select_option("#seat-rows select[data-seat='0']", "you")
    await page.click("#create-button")
    await page.wait_for_url("**/match/*")
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    assert clock_server.summary(match_id)["clock"] == {"base": 120, "increment": 1}
