"""Conflict's help for a new player in the browser (issue 16): the threat warning when an enemy piece
can reach the home base, the "how to play" card the first time, and the board that fits the window
(at 1366×768 the whole board, the dice and the move controls in view; on a phone, zoom to squares
of at least 32 px and pan)."""

from __future__ import annotations

import pytest
from lobby_steps import join_from_lobby, watch_from_lobby
from server_process import Server
from test_web_a11y import assert_accessible
from web_helpers import WAIT_MS, Client, OpenClient

from parlour.games import get_game

ASYNC = pytest.mark.asyncio(loop_scope="session")
SHIPPED = list(boards.shipped()) if (boards := get_game("conflict").boards) else ["classic"]
LAPTOP_768 = {"width": 1366, "height": 768}

NEAR_BASES = """\
conflict-map 1
name near-bases
size 7x6
terrain
.......
.+~~+..
.~~~~~.
.~~~~~.
.+~~~+.
.......
end
base 1 b2
base 2 e2
base 3 b5
base 4 f5
mine 1 a1
mine 1 a3
mine 2 g1
mine 2 g3
mine 3 a6
mine 3 c6
mine 4 g6
mine 4 e6
"""
"""A made position (CON-10, the option ``board``): Orange's base e2 is three squares from Red's b2, so
before Red has played at all, Orange's airplane or ship entering from e2 can reach Red's base."""


def square_name(col: int, row: int) -> str:
    """A square's name (CON-5) from its column and row, both from 0."""
    return f"{chr(97 + col)}{row + 1}"


def made_map(cols: int, rows: int) -> str:
    """A plain map of ``cols`` × ``rows`` (CON-10): land with a lake in the middle, a base in each
    corner by a bay of water, two mines each along the edges."""
    lake = range(rows // 3, rows - rows // 3)
    terrain = []
    for row in range(rows):
        line = ["~" if row in lake and cols // 4 <= col < cols - cols // 4 else "." for col in range(cols)]
        terrain.append(line)
    bases = {1: (2, 2), 2: (cols - 3, 2), 3: (2, rows - 3), 4: (cols - 3, rows - 3)}
    for col, row in bases.values():
        terrain[row][col] = "+"
        # A bay: the base touches water (CON-12 item 8).
        terrain[row + (1 if row < rows // 2 else -1)][col] = "~"
    mines = {1: [(0, 0), (0, 4)], 2: [(cols - 1, 0), (cols - 1, 4)],
             3: [(0, rows - 1), (4, rows - 1)], 4: [(cols - 1, rows - 1), (cols - 5, rows - 1)]}
    lines = ["conflict-map 1", f"name wide-{cols}x{rows}", f"size {cols}x{rows}", "terrain",
             *("".join(line) for line in terrain), "end"]
    lines += [f"base {seat} {square_name(*square)}" for seat, square in bases.items()]
    lines += [f"mine {seat} {square_name(*square)}" for seat, squares in mines.items() for square in squares]
    return "\n".join(lines) + "\n"


async def seated(server: Server, open_client: OpenClient, options: dict[str, object],
                 **kwargs: object) -> Client:
    """Ann plays Red against a random bot, on her turn (Red rolls first, CON-18)."""
    created = server.create(game="conflict", players=2, options=options, seats=["open", "bot:random"],
                            bot_seconds=0.01)
    ann = await open_client("Ann", **kwargs)
    await join_from_lobby(ann, server, created["match"]["id"], seat=0)
    await ann.wait_my_turn()
    return ann


@ASYNC
async def test_the_threat_warning_says_the_base_is_open_and_rings_it(server: Server,
                                                                     open_client: OpenClient) -> None:
    # Issue 16: "the squares and home bases that enemy pieces can reach on their next roll are shown,
    # with the chance ... 'Your base is open: Orange's airplane reaches it with a 6 (31 %)'".
    ann = await seated(server, open_client, {"board": NEAR_BASES})
    page = ann.page
    content = (await ann.match_json())["view"]["content"]
    threats = content.get("threats")
    assert threats, sorted(content)
    # The view lists the threats to the player on roll, Red (the same for every viewer).
    assert {t["against"] for t in threats} == {1}, threats
    on_base = [t for t in threats if t["target"] == "base"]
    assert on_base, threats
    assert on_base[0]["square"] == "b2"
    # One entry a rival: Orange's pieces entering from e2 that reach b2 are counted in it.
    assert on_base[0]["others"] >= 1, on_base
    warning = page.locator("#cf-base-danger li[data-threat-item='b2']").first
    await warning.wait_for()
    words = await warning.locator(".cf-threat-first").text_content() or ""
    for said in ("Your base is open", "Orange's", "%"):
        assert said in words, words
    assert words.strip() == on_base[0]["text"]
    assert f"; {on_base[0]['others']} more pieces can too (" in words, words
    # One line for the base, the other rivals that reach it (none here) folded under it.
    assert await page.locator("#cf-base-danger > li").count() == 1
    others = await warning.locator(".cf-threat-more li").all_text_contents()
    assert [text.strip() for text in others] == [t["text"] for t in on_base[1:]]
    # Orange's own danger (Red can reach e2 as well) comes with Orange's roll, not on Red's.
    assert await page.locator("[data-threat-item='e2']").count() == 0
    # The base warning comes first, before any piece's.
    first = page.locator("#cf-threats li").first
    assert await first.get_attribute("data-threat-target") == "base"
    # On the board: the base ringed in Orange's colour, and said to a screen reader.
    assert await page.locator("[data-threat='b2'] [data-threat-by='2']").count() == 1
    said = await page.get_attribute("[data-hit='b2']", "aria-label") or ""
    assert "in danger: Your base is open" in said, said
    await page.screenshot(path=str(server.log.parent / "conflict-threat.png"))
    await assert_accessible(ann, "a Conflict match with a base warning and how to play")
    # A spectator is shown no warning (the view's threats are the players', each against a seat).
    cid = await open_client("Cid")
    await watch_from_lobby(cid, server, page.url.rstrip("/").rsplit("/", 1)[1])
    await cid.page.wait_for_selector(".conflict-board")
    assert await cid.page.locator("#cf-threats").count() == 0
    assert await cid.page.locator("#cf-howto").count() == 0  # nor shown how to play: he is not playing
    assert ann.errors == [], ann.errors
    assert cid.errors == [], cid.errors


SEAT_TO_MOVE_PAST = ("v => { const s = window.parlourMatch.snap;"
                     " return s.version > v && typeof s.view.to_move === 'number'; }")
"""Past ``v`` and past the roll after an ``end``: a seat, not chance, is to move."""


@ASYNC
async def test_only_the_player_on_roll_is_warned(server: Server, open_client: OpenClient) -> None:
    # Issue 16: "before a roll ends, the squares and home bases that enemy pieces can reach on their
    # next roll are shown": to the player whose roll it is. On NEAR_BASES each base is in the other's
    # reach from the start; Bob's (Orange's) warning comes when his roll begins, and Ann's goes.
    created = server.create(game="conflict", players=2, options={"board": NEAR_BASES}, seats=["open", "open"])
    match_id = created["match"]["id"]
    ann = await open_client("Ann")
    bob = await open_client("Bob")
    await join_from_lobby(ann, server, match_id, seat=0)
    await join_from_lobby(bob, server, match_id, seat=1)
    await ann.wait_my_turn()
    await ann.page.locator("#cf-base-danger li[data-threat-item='b2']").wait_for()
    # Bob's page has drawn the very position in which Ann is warned (not an older one without threats).
    await bob.wait_version(await ann.version())
    assert await bob.page.locator(".conflict-board [data-hit='b2']").count() == 1
    assert await bob.page.locator("#cf-threats").count() == 0
    assert await bob.page.locator("[data-threat]").count() == 0
    for _ in range(20):  # a double gives Ann another roll first (CON-50): end that one too
        version = await ann.version()
        await ann.page.click("[data-action='end']")
        await ann.page.wait_for_function(SEAT_TO_MOVE_PAST, arg=version, timeout=WAIT_MS)
        if (await ann.match_json())["view"]["to_move"] != 0:
            break
        await ann.wait_my_turn()
    await bob.wait_my_turn()
    warning = bob.page.locator("#cf-base-danger li[data-threat-item='e2']")
    await warning.wait_for()
    assert "Your base is open: Red's" in (await warning.text_content() or "")
    await ann.page.locator("#cf-threats").wait_for(state="detached")
    assert await ann.page.locator("[data-threat]").count() == 0
    assert ann.errors == [], ann.errors
    assert bob.errors == [], bob.errors


@ASYNC
async def test_how_to_play_shows_the_first_time_and_comes_back_with_its_button(server: Server,
                                                                             open_client: OpenClient) -> None:
    # Issue 16: "A short 'how to play' on the match page the first time a person plays Conflict,
    # pointing at the dice, the pieces to enter and the base to guard."
    ann = await seated(server, open_client, {"board": NEAR_BASES})
    page = ann.page
    card = page.locator("#cf-howto")
    await card.wait_for()
    text = await card.text_content() or ""
    for said in ("The dice", "pieces to enter", "Your base (b2)"):
        assert said in text, text
    # Its marks point at the dice, at Ann's own row of pieces and at her base on the board.
    assert await page.locator("#cf-dice [data-howto-mark='1']").count() == 1
    assert await page.locator(".cf-row[data-player='1'] [data-howto-mark='2']").count() == 1
    assert await page.locator(".conflict-board [data-howto-mark='3']").count() == 1
    await page.click("#cf-howto-close")
    await card.wait_for(state="detached")
    # Remembered: a second match on this browser does not show it; the button brings it back.
    first_url = page.url
    second = server.create(game="conflict", players=2, options={"board": NEAR_BASES},
                           seats=["open", "bot:random"], bot_seconds=0.01)
    await join_from_lobby(ann, server, second["match"]["id"], seat=0)
    await ann.wait_my_turn()
    assert page.url != first_url
    assert await page.locator("#cf-howto").count() == 0
    await page.click("#cf-howto-open")
    await card.wait_for()
    assert await page.locator("#cf-dice [data-howto-mark='1']").count() == 1
    assert ann.errors == [], ann.errors


async def in_view(client: Client, selector: str) -> None:
    """``selector``'s box lies wholly inside the viewport, the page not scrolled."""
    page = client.page
    box = await page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None, selector
    assert size is not None
    assert box["x"] >= 0, (selector, box)
    assert box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= size["width"], (selector, box)
    assert box["y"] + box["height"] <= size["height"], (selector, box)


@ASYNC
@pytest.mark.parametrize("board", [*SHIPPED, "26x40", "26x20"])
async def test_at_1366x768_the_whole_board_the_dice_and_the_move_controls_are_in_view(
    server: Server, open_client: OpenClient, board: str,
) -> None:
    # Issue 16: "at 1366×768 the whole board, the dice and the move controls are visible without
    # scrolling" — every shipped map (the 20×20 classic among them) and drawn 26-column maps, the
    # tallest the editor offers among them.
    text = board if board in SHIPPED else made_map(*map(int, board.split("x")))
    ann = await seated(server, open_client, {"board": text}, viewport=LAPTOP_768)
    page = ann.page
    assert await page.evaluate("() => window.scrollY") == 0
    await in_view(ann, ".conflict-board")
    await in_view(ann, "#cf-dice")
    await in_view(ann, ".cf-buttons [data-action='end']")
    await in_view(ann, ".cf-row[data-player='1'] [data-available]")  # the pieces to enter
    # Picking a piece to enter brings its controls up, in view too.
    await page.click(".cf-row[data-player='1'] [data-available='1A']")
    await page.wait_for_selector("#cf-pick")
    await in_view(ann, "#cf-pick")
    await page.screenshot(path=str(server.log.parent / f"conflict-1366-{board}.png"))
    assert ann.errors == [], ann.errors


@ASYNC
async def test_on_a_phone_the_board_zooms_to_squares_of_32_px_and_pans(server: Server,
                                                                        open_client: OpenClient) -> None:
    # Issue 16: "on a phone, pinch or buttons zoom to squares of at least 32 px, with panning".
    ann = await seated(server, open_client, {}, phone=True)
    page = ann.page
    square = page.locator("[data-hit='a1']")

    async def square_px() -> float:
        box = await square.bounding_box()
        assert box is not None
        return box["width"]

    assert await square_px() < 32  # fitted, the 20×20 board's squares are small
    # Fitted, a finger moving up the board scrolls the page (the board does not hold on to it).
    touch = await ann.context.new_cdp_session(page)
    frame = await page.locator("#cf-viewport").bounding_box()
    assert frame is not None
    x, y = frame["x"] + 30, frame["y"] + frame["height"] - 20
    await touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 16):
        point = {"x": x, "y": y - 15 * step}
        await touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    await touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    await page.wait_for_function("() => window.scrollY > 0")
    await page.evaluate("() => window.scrollTo(0, 0)")
    for _ in range(4):
        if await square_px() >= 32:
            break
        await page.click("button[aria-label='Zoom in']")
    assert await square_px() >= 32
    viewport = page.locator("#cf-viewport")
    assert await viewport.evaluate("v => v.scrollWidth > v.clientWidth && v.scrollHeight > v.clientHeight")
    # Panning: scroll the board to its far corner, where t20 comes into view; a click there still plays.
    await viewport.evaluate("v => { v.scrollLeft = v.scrollWidth; v.scrollTop = v.scrollHeight; }")
    corner = await page.locator("[data-hit='t20']").bounding_box()
    frame = await viewport.bounding_box()
    assert corner is not None
    assert frame is not None
    assert frame["x"] <= corner["x"]
    assert corner["x"] + corner["width"] <= frame["x"] + frame["width"] + 1
    # The zoom and the scroll outlast a redraw (closing the how-to card draws the table again).
    before = await viewport.evaluate("v => [v.scrollLeft, v.scrollTop]")
    await page.click("#cf-howto-close")
    await page.wait_for_selector("#cf-howto", state="detached")
    assert await square_px() >= 32
    assert await viewport.evaluate("v => [v.scrollLeft, v.scrollTop]") == before
    # A piece picked to enter brings its base, where its path starts, into view.
    await page.click(".cf-row[data-player='1'] [data-available='1A']")
    await page.wait_for_selector("#cf-pick")
    base = await page.locator("[data-hit='e5']").bounding_box()
    frame = await viewport.bounding_box()
    assert base is not None
    assert frame is not None
    assert frame["x"] <= base["x"]
    assert base["y"] + base["height"] <= frame["y"] + frame["height"] + 1
    await page.screenshot(path=str(server.log.parent / "conflict-phone-zoomed.png"))
    await page.click("button[aria-label='Fit the whole board in the window']")
    assert await square_px() < 32
    # Two fingers spread apart on the board zoom it, not the page.
    frame = await viewport.bounding_box()
    assert frame is not None
    x, y = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2

    def fingers(apart: float) -> list[dict[str, float]]:
        return [{"x": x - apart, "y": y, "id": 1}, {"x": x + apart, "y": y, "id": 2}]

    await touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(20)})
    for apart in (30, 45, 60, 75):
        await touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": fingers(apart)})
    await touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert await square_px() >= 32
    assert await page.evaluate("() => window.visualViewport.scale") == 1
    assert ann.errors == [], ann.errors


@ASYNC
async def test_a_drag_that_pans_the_board_does_not_eat_the_next_click(server: Server,
                                                                      open_client: OpenClient) -> None:
    # Issue 16's panning with the mouse: the click a release makes ends the drag and picks nothing,
    # but a drag whose release made no click must not swallow the player's next real click.
    ann = await seated(server, open_client, {"board": "classic"}, viewport=LAPTOP_768)
    page = ann.page
    legal = (await ann.match_json())["legal"]
    enter = next(a for a in legal if a["parts"]["kind"] == "enter")
    await page.click("button[aria-label='Zoom in']")
    await page.click(f"[data-available='{enter['parts']['piece']}']")
    await page.wait_for_selector("#cf-pick")
    viewport = page.locator("#cf-viewport")
    frame = await viewport.bounding_box()
    assert frame is not None
    # A real drag with the mouse: the board pans.
    x, y = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2
    before = await viewport.evaluate("v => [v.scrollLeft, v.scrollTop]")
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x - 60, y - 60, steps=6)
    await page.mouse.up()
    assert await viewport.evaluate("v => [v.scrollLeft, v.scrollTop]") != before
    # A drag ended where the browser made no click after it (the page sees the press, the move and the
    # release only).
    await viewport.evaluate("""v => {
      const at = (type, dx, buttons) => v.dispatchEvent(new PointerEvent(type, { bubbles: true, pointerId: 1,
        pointerType: "mouse", isPrimary: true, button: 0, buttons, clientX: 200 + dx, clientY: 200 + dx }));
      at("pointerdown", 0, 1); at("pointermove", 30, 1); at("pointerup", 30, 0);
    }""")
    # The next real click on the first square of the path still draws it.
    first = enter["parts"]["path"][0]
    await page.locator(f"[data-hit='{first}']").scroll_into_view_if_needed()
    await ann.click_square(first)
    await page.wait_for_selector(f"[data-path='{first}']", state="attached")
    assert ann.errors == [], ann.errors
