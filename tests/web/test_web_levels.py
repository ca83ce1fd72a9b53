"""The lobby's levels (issue 19): "The lobby and ``parlour play`` offer levels with plain names
(beginner, casual, club, expert, master or similar), each a bot kind and budget placed by the ladder,
with its rating shown." A computer seat offers "Computer — club (rated +567)"; the match is created
with the level's bot kind and thinking time. Real Chromium; every wait is for the page's state."""

from __future__ import annotations

from pathlib import Path

import pytest
from server_process import Server
from web_helpers import WAIT_MS, Client, OpenClient

from parlour.bots.levels import LEVEL_NAMES, find_level, levels_for, rating_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

CLUB = find_level("loa", 2, "club")
EXPERT = find_level("loa", 2, "expert")
MASTER = find_level("loa", 2, "master")
SEAT_1 = "#seat-rows select[data-seat='1']"


async def lobby_form(client: Client, server: Server, game: str) -> None:
    page = client.page
    await page.goto(server.base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await page.fill("#name", client.name)
    await page.click(f".game-option[data-game='{game}']")
    await page.wait_for_selector(f"{SEAT_1}", state="attached")


def stored(server: Server, match_id: str) -> tuple[str, float]:
    """The bot of seat 1 and the bots' time a move, as the server stored the match."""
    (seconds,), = server.query("SELECT bot_seconds FROM matches WHERE id = ?", match_id)
    return server.summary(match_id)["seats"][1]["bot"], seconds


def match_count(server: Server) -> int:
    (count,), = server.query("SELECT COUNT(*) FROM matches")
    return int(count)


async def test_a_computer_seat_offers_the_levels_with_their_ratings_and_plays_the_one_chosen(
        server: Server, open_client: OpenClient, tmp_path: Path) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await lobby_form(ann, server, "loa")
    labels = await page.eval_on_selector_all(f"{SEAT_1} optgroup[label='Computer by level'] option",
                                             "os => os.map(o => [o.value, o.textContent])")
    ratings = {name: rating_text(find_level("loa", 2, name).rating) for name in LEVEL_NAMES}
    expected = [(f"level:{name}", f"Computer — {name} (rated {ratings[name]})") for name in LEVEL_NAMES]
    assert [tuple(label) for label in labels] == expected
    assert "Computer — club (rated +" in expected[2][1]
    # The kinds are still offered, after the levels; a computer seat starts at the club level.
    kinds = await page.eval_on_selector_all(f"{SEAT_1} optgroup[label='Computer by kind'] option",
                                            "os => os.map(o => o.value)")
    assert "bot:strong" in kinds
    assert await page.input_value(SEAT_1) == "level:club"
    # A level with a time of its own sets the computers' time: the menu gives way to a note saying so.
    await page.select_option(SEAT_1, "level:expert")
    await page.wait_for_selector("#level-note:not([hidden])")
    note = await page.text_content("#level-note") or ""
    assert f"think {EXPERT.seconds:g} s a move: the expert level's time" in note
    assert not await page.is_visible("#bot-seconds")
    await page.locator("#create").screenshot(path=str(tmp_path / "levels-form.png"))
    # The beginner's bot plays alike whatever its time: the menu is back.
    await page.select_option(SEAT_1, "level:beginner")
    await page.wait_for_selector("#level-note", state="hidden")
    assert await page.is_visible("#bot-seconds")
    await page.select_option(SEAT_1, "level:expert")
    await page.click("#create-button")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    assert stored(server, match_id) == (EXPERT.kind, EXPERT.seconds)
    assert ann.errors == [], ann.errors


async def test_two_levels_of_different_times_are_refused_in_words_and_nothing_is_sent(
        server: Server, open_client: OpenClient, tmp_path: Path) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await lobby_form(ann, server, "loa")
    before = match_count(server)
    await page.select_option("#seat-rows select[data-seat='0']", "level:club")
    await page.select_option(SEAT_1, "level:master")
    await page.wait_for_selector("#level-note:not([hidden])")
    note = await page.text_content("#level-note") or ""
    assert "all think for the same time" in note
    assert f"club thinks {CLUB.seconds:g} s a move, master thinks {MASTER.seconds:g} s a move" in note
    await page.click("#create-button")
    await page.wait_for_selector("#lobby-error:not([hidden])")
    assert "all think for the same time" in (await page.text_content("#lobby-error") or "")
    await page.locator("#create").screenshot(path=str(tmp_path / "levels-refused.png"))
    assert page.url.rstrip("/") == server.base
    assert match_count(server) == before
    # A level whose bot has no time of its own goes with any.
    await page.select_option("#seat-rows select[data-seat='0']", "level:casual")
    await page.wait_for_function("!document.getElementById('level-note').textContent.includes('same time')")
    await page.click("#create-button")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    assert stored(server, match_id) == (MASTER.kind, MASTER.seconds)
    assert server.summary(match_id)["seats"][0]["bot"] == find_level("loa", 2, "casual").kind


async def test_play_the_computer_plays_the_club_level_where_there_are_levels(
        server: Server, open_client: OpenClient) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await page.goto(server.base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await page.fill("#name", "Ann")
    assert await page.get_attribute("[data-quick='loa']", "title") == \
        f"Against the club level (rated {rating_text(CLUB.rating)})"
    await page.click("[data-quick='loa']")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    assert stored(server, match_id) == (CLUB.kind, CLUB.seconds)
    # The match page names the level chosen, not the bot kind behind it.
    seat = page.locator("li[data-seat='1']")
    await seat.filter(has_text="club bot").wait_for(timeout=WAIT_MS)
    assert f"{CLUB.kind} bot" not in (await seat.text_content() or "")


async def test_a_player_count_without_levels_offers_its_bot_kinds_as_before(
        server: Server, open_client: OpenClient) -> None:
    assert levels_for("biloba", 2)
    assert not levels_for("biloba", 3)  # Biloba's ladder has placed two players only
    ann = await open_client("Ann")
    await lobby_form(ann, server, "biloba")
    await ann.page.select_option("#players", "3")
    await ann.page.wait_for_selector("#seat-rows select[data-seat='2']", state="attached")
    values = await ann.page.eval_on_selector_all(f"{SEAT_1} option", "os => os.map(o => o.value)")
    assert values == ["you", "open", "bot:random", "bot:greedy", "bot:strong", "bot:classic"]
    assert await ann.page.input_value(SEAT_1) == "bot:strong"
    assert await ann.page.is_hidden("#level-note")
