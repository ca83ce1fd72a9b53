"""Lines of Action in the browser: two people play a whole game while a spectator watches; a reload
keeps the seat; the pages work on a phone-sized screen."""

from __future__ import annotations

import pytest
from lobby_steps import create_match, join_from_lobby, watch_from_lobby
from server_process import Server
from web_helpers import Client, OpenClient

from parlour.games import GAMES

pytestmark = pytest.mark.asyncio(loop_scope="session")

# W-10 (specs/loa.md, the staff test full-game1-1): 51 plies, then White connects with b6-c7.
W10_PLIES = """
d8-d6 a3-c3 d1-f3 a6-c8 f8-f5 a2-c2 f1-a1 a5-b6 c1-e3 h6-e6 e1-c3 h5-f3
b8-e5 h4-f4 e5-e1 h2-f2 b1-f1 c2-a2 f5-h7 f4-d6 e3-d2 e6-h6 f1-h3 b6-b5
h3-f5 a2-c4 d2-f4 b5-d5 f4-f8 f3-g4 g8-d5 d6-c7 f8-h6 a4-c6 e1-h1 f2-c5
h7-g8 g4-e4 e8-c6 e4-e5 c6-f3 a7-d4 c3-b4 c8-b7 a1-d4 c7-b6 g1-c5 c4-d3
f5-d3 e5-d6 h1-g1 b6-c7
"""
FULL_GAME = W10_PLIES.split()


async def result_text(client: Client) -> str:
    await client.page.wait_for_selector("body[data-status='over']", state="attached")
    return (await client.page.text_content("#result-text") or "").strip()


async def spectator_cannot_move(eve: Client, mover: Client, text: str) -> None:
    """Eve clicks the mover's piece and its destination: nothing is picked, nothing is sent. Then her
    page sends the action anyway: the server refuses it and the match does not move."""
    version = await eve.version()
    start, end = text.split("-")
    await eve.click_square(start)
    assert await eve.page.locator(".square.selected, [data-target]").count() == 0  # LOA: nothing picked
    await eve.click_square(end)
    assert await eve.legal() == []
    assert await eve.page.locator("#legal-wrap").is_hidden()
    await eve.page.evaluate("text => window.parlourMatch.play(text)", text)
    # The server's own refusal (the page's "You are watching" hint came at the click already).
    await eve.page.wait_for_selector("#toast:not([hidden]):has-text('join a seat first')")
    assert await eve.version() == version
    assert await mover.version() == version
    assert text in await mover.legal()


@pytest.mark.slow
async def test_two_people_play_a_whole_game_while_a_spectator_watches(
    server: Server, open_client: OpenClient,
) -> None:
    ann, bob, eve = await open_client("Ann"), await open_client("Bob"), await open_client("Eve")
    match_id = await create_match(ann, server, game="loa", seats={0: "you", 1: "open"})
    await ann.page.wait_for_selector("body[data-status='open'][data-seat='0']", state="attached")
    await join_from_lobby(bob, server, match_id, seat=1)
    await watch_from_lobby(eve, server, match_id)
    for client in (ann, bob, eve):
        await client.page.wait_for_selector("body[data-status='running']", state="attached")
    # Everyone sees both people connected.
    for client in (ann, bob, eve):
        for seat in (0, 1):
            await client.page.wait_for_selector(f"#seats li[data-seat='{seat}'] .presence.online")
    assert await ann.page.locator("#seats li.me[data-seat='0']").count() == 1
    assert await bob.page.locator("#seats li.me[data-seat='1']").count() == 1

    people = (ann, bob)
    for ply, text in enumerate(FULL_GAME, start=1):
        mover, waiting = people[(ply - 1) % 2], people[ply % 2]
        await mover.wait_my_turn()
        assert text in await mover.legal(), f"ply {ply}: {text} is not offered"
        assert await waiting.legal() == []
        if ply == 9:
            await spectator_cannot_move(eve, mover, text)
        await mover.play(text)
        for client in (ann, bob, eve):
            await client.wait_version(ply)
        if text == "a6-c8":  # W-5: White captures the black piece on c8 (LOA-8)
            for client in (ann, bob, eve):
                assert await client.page.locator("[data-captured='c8']").count() == 1
                assert "c8" in (await client.page.text_content("#moves li:last-child") or "")
        last = eve.page.locator(f".square.last[data-square='{text[-2:]}']")
        assert await last.count() == 1, f"ply {ply}: the last move is not shown"

    # LOA-13.2: b6-c7 joins White's three pieces.
    assert await result_text(bob) == "You win!"
    # The winner by name, with the seat's colour (issue 14).
    assert await result_text(ann) == "Bob (White) wins"
    assert await result_text(eve) == "Bob (White) wins"
    # The banner says the game's own words for the end (GameInfo.end_reasons), from the view's outcome.
    outcome = (await eve.match_json())["view"]["outcome"]
    assert outcome["reason"] == "connected"
    assert outcome["words"] == GAMES["loa"].info.reason_words("connected")
    assert outcome["words"] in (await eve.page.text_content("#turn") or "")
    assert await eve.page.locator("#moves li").count() == len(FULL_GAME)
    for client in (ann, bob, eve):
        assert client.errors == [], f"{client.name}'s console: {client.errors}"


async def test_a_reload_keeps_the_seat(server: Server, open_client: OpenClient) -> None:
    ann = await open_client("Ann")
    match_id = await create_match(ann, server, game="loa", seats={0: "you", 1: "bot:random"})
    await ann.wait_my_turn()
    await ann.play("b1-d3")
    await ann.wait_version(2)  # the bot has answered
    token = await ann.page.evaluate("id => localStorage.getItem('parlour.token.' + id)", match_id)
    assert token

    await ann.page.reload()
    await ann.wait_my_turn()
    # The bot's move is still marked after the reload: the view says what the last move was.
    last = (await ann.match_json())["view"]["content"]["last_move"]
    marked = await ann.page.eval_on_selector_all("#board rect.square.last",
                                                 "rects => rects.map(r => r.dataset.square)")
    assert sorted(marked) == sorted([last["from"], last["to"]])
    assert await ann.page.get_attribute("body", "data-seat") == "0"
    assert await ann.page.locator("#seats li.me[data-seat='0']").count() == 1
    moves = await ann.page.locator("#moves li").all_text_contents()
    assert len(moves) == 2
    assert "b1-d3" in moves[0]
    legal = await ann.legal()
    assert legal
    await ann.play(legal[0])
    await ann.wait_version(3)

    # A new person with no token who opens the same link only watches.
    other = await open_client("Other")
    await other.page.goto(f"{server.base}/match/{match_id}")
    await other.page.wait_for_selector("body[data-seat='spectator']", state="attached")
    assert await other.legal() == []
    for client in (ann, other):
        assert client.errors == [], f"{client.name}'s console: {client.errors}"


async def test_picking_a_piece_redraws_neither_the_moves_nor_the_legal_list(
    server: Server, open_client: OpenClient,
) -> None:
    """A click that only picks a piece draws the board again, not the lists beside it (a long game's
    move list and a big legal list would be rebuilt at every click); a move redraws them."""
    ann = await open_client("Ann")
    await create_match(ann, server, game="loa", seats={0: "you", 1: "bot:random"})
    await ann.wait_my_turn()
    old = "els => els.forEach(e => { e.dataset.old = '1'; })"
    await ann.page.eval_on_selector_all("#moves li, #legal button", old)
    await ann.click_square("c1")
    await ann.page.wait_for_selector("[data-target='c3']", state="attached")
    assert await ann.page.locator("#legal button:not([data-old])").count() == 0
    assert await ann.page.locator("#moves li:not([data-old])").count() == 0
    await ann.click_square("c3")
    await ann.wait_version(2)
    await ann.wait_my_turn()
    assert await ann.page.locator("#moves li:not([data-old])").count() == 2
    assert await ann.page.locator("#legal button:not([data-old])").count() == len(await ann.legal()) > 0
    assert ann.errors == [], ann.errors


async def no_sideways_scroll(client: Client) -> None:
    overflow = await client.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone's screen"


async def test_a_phone_sized_screen(server: Server, open_client: OpenClient) -> None:
    pia = await open_client("Pia", phone=True)
    await create_match(pia, server, game="loa", seats={0: "you", 1: "bot:random"})
    await no_sideways_scroll(pia)
    await pia.wait_my_turn()
    board = await pia.page.locator("#board svg").bounding_box()
    width = pia.page.viewport_size["width"] if pia.page.viewport_size else 0
    assert board is not None
    assert board["x"] >= 0
    assert board["x"] + board["width"] <= width
    await pia.page.tap("[data-hit='c1']")
    await pia.page.wait_for_selector("[data-target='c3']", state="attached")
    await pia.page.tap("[data-hit='c3']")
    await pia.wait_version(2)
    await no_sideways_scroll(pia)
    await pia.page.goto(server.base + "/")
    await pia.page.wait_for_selector("body[data-ready='true']", state="attached")
    await no_sideways_scroll(pia)
    assert pia.errors == [], pia.errors


@pytest.mark.parametrize("game", ["loa", "biloba"])
async def test_the_rules_page_draws_its_diagrams(server: Server, open_client: OpenClient, game: str) -> None:
    reader = await open_client("Reader")
    await reader.page.goto(f"{server.base}/help/{game}")
    await reader.page.wait_for_selector("body[data-ready='true']", state="attached")
    figures = reader.page.locator("figure[data-diagram]")
    count = await figures.count()
    assert count >= 5
    assert await reader.page.locator("figure[data-diagram] > svg.board").count() == count
    assert reader.errors == [], reader.errors
