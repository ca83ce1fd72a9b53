"""The lobby's views (issue 15, "Lobby"): open, playing now, finished and my matches, each card with the
game, players, time since the last move and whose turn; a filter by game and pages; "play the
computer" first; a proper control for every rules option (Conflict's seats as colour toggles), with
help in plain words linking to the rules page instead of a rule id.

Each test has a server of its own (``fresh``), so that what the lists show is known; real Chromium,
every wait for the page's state."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from lobby_steps import create_match
from server_process import Server
from test_web_a11y import assert_accessible
from web_helpers import WAIT_MS, Client, OpenClient, bot_name

pytestmark = pytest.mark.asyncio(loop_scope="session")

RULE_ID = re.compile(r"\b[A-Z]{2,4}-\d+")
"""A rule id of the specs (LOA-16, BIL-51, CON-17)."""
JARGON = re.compile(r"\bnull\b|\bNone\b|\bplies\b|\bply\b|\btrue\b|\bfalse\b")
"""Words of a programmer, not of a player ("null = off")."""


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path, name="lobby").start()
    yield running
    running.stop()


async def open_lobby(client: Client, server: Server, hash_: str = "") -> None:
    await client.page.goto(f"{server.base}/{hash_}")
    await client.page.wait_for_selector("body[data-ready='true']", state="attached")


async def choose_view(client: Client, view: str) -> None:
    await client.page.check(f"input[name=view][value={view}]")
    await client.page.wait_for_selector(f"body[data-view='{view}']", state="attached")


async def cards(client: Client) -> list[str]:
    """The ids of the matches the list shows, in order."""
    ids: list[str] = await client.page.eval_on_selector_all(".match-card",
                                                            "cs => cs.map(c => c.dataset.match)")
    return ids


async def wait_cards(client: Client, count: int) -> list[str]:
    await client.page.wait_for_function("n => document.querySelectorAll('.match-card').length === n",
                                        arg=count, timeout=WAIT_MS)
    return await cards(client)


def finished_loa(server: Server) -> str:
    """A LOA match of two bots that ends at once (a tie after two plies, the move limit)."""
    created = server.create(game="loa", players=2, options={"move_limit": 2},
                            seats=["bot:random", "bot:random"], bot_seconds=0.01)
    return str(created["match"]["id"])


def running_loa(server: Server) -> str:
    """A LOA match that runs and waits on a person (Bob, seat 0, holds no page): Black to move."""
    created = server.create(game="loa", players=2, seats=["open", "bot:random"], join=0, name="Bob",
                            bot_seconds=0.01)
    return str(created["match"]["id"])


SECTION_TEXT_JS = """
async ([path, id]) => {
  const text = await (await fetch(path)).text();
  return new DOMParser().parseFromString(text, "text/html").getElementById(id)?.textContent ?? "";
}
"""
"""The text of a section of a rules page, by its id ("" when there is none)."""


# ---- my matches ----

async def test_my_match_is_found_in_the_lobby_after_a_reload(fresh: Server, open_client: OpenClient) -> None:
    """Issue 15: "my matches" (the seats this browser holds), and "find my match in the lobby after a
    reload"."""
    others = running_loa(fresh)
    ann = await open_client("Ann")
    mine = await create_match(ann, fresh, game="loa", seats={0: "you", 1: "bot:random"})
    await open_lobby(ann, fresh)
    await choose_view(ann, "mine")
    assert await wait_cards(ann, 1) == [mine]
    await ann.page.reload()
    await ann.page.wait_for_selector("body[data-ready='true']", state="attached")
    # The view is kept (in the address) and the match is still found: its token is the browser's.
    assert await ann.page.is_checked("input[name=view][value=mine]")
    assert await wait_cards(ann, 1) == [mine]
    card = ann.page.locator(f"[data-match='{mine}']")
    assert await card.locator(f"[data-resume='{mine}']").count() == 1
    words = " ".join((await card.text_content() or "").split())
    assert "Ann" in words, words
    assert bot_name("loa", "random") in words, words
    assert re.search(r"to move|Waiting", words), words
    assert re.search(r"just now|min ago", words), words
    # Someone else's running match is in "playing now", with how many watch it, and not in mine.
    await choose_view(ann, "playing")
    await ann.page.wait_for_selector(f"[data-match='{others}'] [data-watching='0']")
    assert others in await cards(ann)
    assert "Bob (Black) to move" in (await ann.page.text_content(f"[data-match='{others}'] .to-move") or "")
    # Someone opens it as a spectator: the card says one watches (the list is asked again every few s).
    eve = await open_client("Eve")
    await eve.page.goto(f"{fresh.base}/match/{others}")
    await eve.page.wait_for_selector("body[data-seat='spectator']", state="attached")
    await ann.page.wait_for_selector(f"[data-match='{others}'] [data-watching='1']")
    assert await ann.page.text_content(f"[data-match='{others}'] .watching") == "1 watching"
    assert ann.errors == [], ann.errors


# ---- filter and pages ----

async def test_the_list_filters_by_game_and_pages(fresh: Server, open_client: OpenClient) -> None:
    """Issue 15: "Filters by game; pages". 25 open Biloba matches and 3 Lines of Action ones: Biloba
    shows 20, then 25 after More, and no other game; the filter is kept on a reload."""
    def open_match(game: str) -> str:
        return str(fresh.create(game=game, players=2, seats=["open", "open"])["match"]["id"])
    biloba = [open_match("biloba") for _ in range(25)]
    loa = [open_match("loa") for _ in range(3)]
    ann = await open_client("Ann")
    await open_lobby(ann, fresh)
    assert await wait_cards(ann, 20) == (loa[::-1] + biloba[::-1])[:20]  # newest first
    await ann.page.select_option("#game-filter", "biloba")
    await ann.page.wait_for_function("() => location.hash.includes('game=biloba')")
    # The unfiltered list shows 20 cards too: wait until the filtered one has replaced it.
    gone = "ids => ids.every(id => !document.querySelector(`[data-match='${id}']`))"
    await ann.page.wait_for_function(gone, arg=loa, timeout=WAIT_MS)
    shown = await wait_cards(ann, 20)
    assert shown == biloba[::-1][:20]
    await ann.page.click("#more")
    assert await wait_cards(ann, 25) == biloba[::-1]
    await ann.page.wait_for_selector("#more", state="hidden")
    # The list is asked again every few seconds: the two pages shown in one request, not one a page
    # (a tab that pressed More often would otherwise outgrow the lobby's own rate).
    for _ in range(2):
        async with ann.page.expect_request(lambda r: "/api/matches?" in r.url, timeout=WAIT_MS) as asked:
            pass
        query = parse_qs(urlsplit((await asked.value).url).query)
        assert query["limit"] == ["40"], query
        assert "cursor" not in query, query
    await ann.page.select_option("#game-filter", "loa")
    assert await wait_cards(ann, 3) == loa[::-1]
    await ann.page.reload()
    await ann.page.wait_for_selector("body[data-ready='true']", state="attached")
    assert await ann.page.input_value("#game-filter") == "loa"
    assert await wait_cards(ann, 3) == loa[::-1]
    assert ann.errors == [], ann.errors


async def test_a_server_with_smaller_pages_is_asked_in_smaller_pieces(tmp_path: Path,
                                                                      open_client: OpenClient) -> None:
    """A server whose page size is 30 refuses a request for more (400): the list asks again a page at
    a time, and "my matches" asks for fewer ids at once, and nothing is lost."""
    small = Server(tmp_path, name="small", limits={"page_size": 30}).start()
    try:
        seated = [small.create(game="loa", players=2, seats=["open", "open"], join=0, name="Ann")
                  for _ in range(35)]
        others = [str(small.create(game="loa", players=2, seats=["open", "open"])["match"]["id"])
                  for _ in range(10)]
        mine = [str(created["match"]["id"]) for created in seated]
        ann = await open_client("Ann")
        await ann.page.goto(small.base + "/")
        await ann.page.evaluate("""tokens => { for (const [id, token] of tokens) {
            localStorage.setItem(`parlour.token.${id}`, token); } }""",
                                [[str(c["match"]["id"]), c["token"]] for c in seated])
        await open_lobby(ann, small)
        newest_first = (mine + others)[::-1]
        assert await wait_cards(ann, 20) == newest_first[:20]
        await ann.page.click("#more")  # 40 at once is more than this server gives
        assert await wait_cards(ann, 40) == newest_first[:40]
        await ann.page.click("#more")
        assert await wait_cards(ann, 45) == newest_first
        await ann.page.wait_for_selector("#more", state="hidden")
        # My 35 matches: more ids than the server takes at once.
        await choose_view(ann, "mine")
        assert await wait_cards(ann, 20) == mine[::-1][:20]
        await ann.page.click("#more")
        assert await wait_cards(ann, 35) == mine[::-1]
        assert await ann.page.is_hidden("#lobby-error")  # the refusals were mended, not shown
        # The browser logs each refused request itself; nothing else went wrong.
        assert [e for e in ann.errors if "status of 400" not in e] == [], ann.errors
    finally:
        small.stop()


# ---- the form ----

async def test_the_conflict_seats_control_creates_a_match_of_red_and_yellow(
        fresh: Server, open_client: OpenClient, tmp_path: Path) -> None:
    """Issue 15: "the Conflict seats control creates a [1, 4] match" (a number field once made 14)."""
    ann = await open_client("Ann")
    page = ann.page
    await open_lobby(ann, fresh)
    await page.fill("#name", "Ann")
    await page.click(".game-option[data-game='conflict']")
    await page.click("#options-box summary")
    toggles = page.locator("#opt-seats")
    await toggles.get_by_label("Orange").uncheck()
    # One colour alone is no game: said at once, and refused if sent.
    await page.wait_for_selector("#opt-seats-short:not([hidden])")
    await page.click("#create-button")
    assert "at least 2 colours" in (await page.text_content("#lobby-error") or "")
    await toggles.get_by_label("Yellow").check()
    await page.wait_for_selector("#opt-seats-short", state="hidden")
    assert await page.input_value("#players") == "2"
    names = await page.eval_on_selector_all("#seat-rows .seat-row span:not(.swatch)",
                                            "s => s.map(e => e.textContent)")
    assert names == ["Red", "Yellow"]
    # The map picker draws the map it offers (the standard board, from the game's start), small.
    await page.wait_for_selector("#opt-board-preview[data-preview='map'] .conflict-board", state="attached")
    caption = await page.text_content("#opt-board-preview figcaption") or ""
    assert caption.startswith("The map: "), caption
    await page.locator("#options-box").screenshot(path=str(tmp_path / "conflict-options.png"))
    await page.select_option("#seat-rows select[data-seat='1']", "bot:random")
    await page.select_option("#bot-seconds", "0.2")
    await page.click("#create-button")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    summary = fresh.summary(match_id)
    assert summary["options"]["seats"] == [1, 4]
    assert [seat["name"] for seat in summary["seats"]] == ["Red", "Yellow"]
    assert ann.errors == [], ann.errors


async def test_a_third_colour_makes_three_players_and_the_first_colours_are_the_default(
    fresh: Server, open_client: OpenClient,
) -> None:
    ann = await open_client("Ann")
    page = ann.page
    await open_lobby(ann, fresh)
    await page.click(".game-option[data-game='conflict']")
    await page.click("#options-box summary")
    await page.locator("#opt-seats").get_by_label("Green").check()
    assert await page.input_value("#players") == "3"
    assert await page.locator("#seat-rows .seat-row").count() == 3
    # Choosing a player count starts again from the first colours (the rules' default, sent as such).
    await page.select_option("#players", "2")
    checked = await page.eval_on_selector_all(
        "[data-seat-toggle]", "bs => bs.filter(b => b.checked).map(b => b.dataset.seatToggle)")
    assert checked == ["1", "2"]
    match_id = await create_match(ann, fresh, game="conflict", seats={0: "you", 1: "bot:random"})
    assert fresh.summary(match_id)["options"]["seats"] is None


async def test_a_nullable_option_has_an_explicit_off(fresh: Server, open_client: OpenClient) -> None:
    """Biloba's quiet limit: off by default with 2 players (the box ticked, the field empty); a number
    unticks it; ticking it clears the number; the match takes what the form shows."""
    ann = await open_client("Ann")
    page = ann.page
    await open_lobby(ann, fresh)
    await page.click(".game-option[data-game='biloba']")
    await page.click("#options-box summary")
    assert await page.is_checked("#opt-quiet_limit-off")
    await page.fill("#opt-quiet_limit", "40")
    assert not await page.is_checked("#opt-quiet_limit-off")
    await page.check("#opt-quiet_limit-off")
    assert await page.input_value("#opt-quiet_limit") == ""
    await page.uncheck("#opt-quiet_limit-off")
    assert await page.input_value("#opt-quiet_limit") == "40"  # the number written before comes back
    await page.select_option("#seat-rows select[data-seat='1']", "bot:random")
    await page.click("#create-button")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    assert fresh.summary(page.url.rstrip("/").rsplit("/", 1)[1])["options"]["quiet_limit"] == 40
    assert ann.errors == [], ann.errors


async def test_play_the_computer_starts_a_match_at_once(fresh: Server, open_client: OpenClient) -> None:
    """Issue 15: 'A new player finds "play the computer" first: one button per game'."""
    status, answer = fresh.call("GET", "/api/games")
    assert status == 200
    listed = [g for g in answer["games"] if g["listed"]]
    ann = await open_client("Ann")
    await open_lobby(ann, fresh)
    offered = await ann.page.eval_on_selector_all("[data-quick]", "bs => bs.map(b => b.dataset.quick)")
    assert offered == [g["name"] for g in listed]
    # First: before the form and the list.
    assert await ann.page.evaluate(
        "document.querySelector('[data-quick]').compareDocumentPosition(document.getElementById('create')) "
        "& Node.DOCUMENT_POSITION_FOLLOWING") != 0
    await ann.page.fill("#name", "Ann")
    await ann.page.click("[data-quick='loa']")
    await ann.page.wait_for_url("**/match/*", timeout=WAIT_MS)
    await ann.page.wait_for_selector("body[data-seat='0'][data-status='running']", state="attached")
    summary = fresh.summary(ann.page.url.rstrip("/").rsplit("/", 1)[1])
    loa = next(g for g in listed if g["name"] == "loa")
    assert summary["seats"][0]["player"] == "Ann"
    assert summary["seats"][1]["kind"] == "bot"
    assert summary["seats"][1]["bot"] == loa["default_bot"]
    assert summary["clock"] is None
    assert summary["options"] == {o["name"]: o["default"] for o in loa["options"]}
    assert ann.errors == [], ann.errors


async def test_option_help_is_in_plain_words_and_links_to_the_rules(fresh: Server,
                                                                  open_client: OpenClient) -> None:
    """Issue 15: "help in plain words, with a link to the rules page section instead of a rule id"."""
    status, answer = fresh.call("GET", "/api/games")
    assert status == 200
    for game in answer["games"]:
        for option in game["options"]:
            assert not RULE_ID.search(option["help"]), f"{game['name']} {option['name']}: {option['help']}"
            assert not JARGON.search(option["help"]), f"{game['name']} {option['name']}: {option['help']}"
    ann = await open_client("Ann")
    page = ann.page
    await open_lobby(ann, fresh)
    await page.click("#options-box summary")
    for game in (g for g in answer["games"] if g["listed"] and g["options"]):
        await page.click(f".game-option[data-game='{game['name']}']")
        shown = [o["name"] for o in game["options"] if len(o["choices"]) != 1]
        for name in shown:
            link = page.locator(f"a[data-rules-for='{name}']")
            await page.wait_for_function(
                "a => a.getAttribute('href').includes('#')", arg=await link.element_handle(), timeout=WAIT_MS)
            href = await link.get_attribute("href") or ""
            path, section = href.split("#")
            assert path == f"/help/{game['name']}", href
            help_text = await page.text_content(f"#opt-{name}-help") or ""
            assert not RULE_ID.search(help_text), help_text
            # The section exists on the rules page and speaks of the option.
            words = name.replace("_", " ")
            text = await page.evaluate(SECTION_TEXT_JS, [path, section])
            assert words in text.lower(), (href, words)
    assert ann.errors == [], ann.errors


# ---- every view, for everyone ----

async def test_every_view_is_accessible_on_a_laptop_and_a_phone(fresh: Server,
                                                                 open_client: OpenClient) -> None:
    fresh.create(game="biloba", players=3, seats=["open", "bot:random", "open"])
    fresh.create(game="conflict", players=2, options={"seats": [1, 4]}, seats=["open", "open"])
    running = running_loa(fresh)
    finished = finished_loa(fresh)
    ann = await open_client("Ann", viewport={"width": 1366, "height": 900})
    mine = await create_match(ann, fresh, game="mille", seats={0: "you", 1: "bot:random"})
    phone = await open_client("Ann", phone=True)
    await phone.page.goto(fresh.base + "/")
    token = await ann.page.evaluate(f"localStorage.getItem('parlour.token.{mine}')")
    await phone.page.evaluate("([id, t]) => localStorage.setItem(`parlour.token.${id}`, t)", [mine, token])
    expected = {"open": None, "playing": running, "finished": finished, "mine": mine}
    for client, size in ((ann, "laptop"), (phone, "phone")):
        await open_lobby(client, fresh)
        for view, match_id in expected.items():
            await choose_view(client, view)
            await client.page.wait_for_selector(f"[data-match='{match_id}']" if match_id else "[data-join]")
            await assert_accessible(client, f"the lobby's {view} view ({size})")
            shot = fresh.db.parent / f"lobby-{view}-{size}.png"
            await client.page.screenshot(path=str(shot), full_page=True)
        await client.page.click("#options-box summary")
        await client.page.click(".game-option[data-game='conflict']")
        await assert_accessible(client, f"the lobby with Conflict's options open ({size})")
        await client.page.screenshot(path=str(fresh.db.parent / f"lobby-options-{size}.png"), full_page=True)
        assert client.errors == [], client.errors
    # Dark mode (the system's setting): every view still readable.
    await ann.page.emulate_media(color_scheme="dark")
    await open_lobby(ann, fresh)
    for view, match_id in expected.items():
        await choose_view(ann, view)
        await ann.page.wait_for_selector(f"[data-match='{match_id}']" if match_id else "[data-join]")
        await assert_accessible(ann, f"the lobby's {view} view in dark mode")
    await ann.page.click("#options-box summary")
    await ann.page.click(".game-option[data-game='conflict']")
    await assert_accessible(ann, "the lobby with Conflict's options open, in dark mode")
    await ann.page.screenshot(path=str(fresh.db.parent / "lobby-dark.png"), full_page=True)
    await ann.page.emulate_media(color_scheme="light")
    # A finished match's card says how it ended and offers its replay.
    await ann.page.goto(f"{fresh.base}/#view=finished")
    card = ann.page.locator(f"[data-match='{finished}']")
    await card.wait_for()
    assert "Draw" in (await card.locator(".to-move").text_content() or "")
    assert await card.locator(f"[data-watch='{finished}']").text_content() == "Replay"
