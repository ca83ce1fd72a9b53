"""The keyboard alone (issue 12, "Every board for everyone"): a person who uses no mouse creates a
match in the lobby, plays a whole game of Lines of Action and a whole hand of Mille Bornes against the
computer with Tab, the arrow keys and Enter, keeps the focus where play goes on after each move, and
hears the other side's moves in the live region.

Every key is a ``page.keyboard.press``; the test reads the page (what is focused, the legal actions
the server sent) only to decide which key to press next, as a person reads the screen.
"""

from __future__ import annotations

from typing import Any

import pytest
from server_process import Server
from web_helpers import WAIT_MS, Client, OpenClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

TAB_LIMIT = 80
"""Tabs that may pass before the wanted control has the focus: more fails (the page has that many stops)."""
ARROW_LIMIT = 60
TABS_PER_MOVE = 8
"""Once play is going, a move takes at most this many Tabs (issue 12 measured 34–40 through the
"Legal moves" list, focus dropped to <body> after each)."""

FOCUSED_JS = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const attrs = {};
  for (const a of el.attributes) attrs[a.name] = a.value;
  return {tag: el.tagName.toLowerCase(), attrs, onBoard: Boolean(el.closest("#board"))};
}
"""


# ---- keys ----

async def focused(client: Client) -> dict[str, Any] | None:
    """The focused element's tag and attributes, or None when the focus is on <body>."""
    element: dict[str, Any] | None = await client.page.evaluate(FOCUSED_JS)
    return element


async def is_focused(client: Client, selector: str) -> bool:
    matches: bool = await client.page.evaluate(
        "s => Boolean(document.activeElement && document.activeElement.matches(s))", selector,
    )
    return matches


async def tab_to(client: Client, selector: str) -> int:
    """Presses Tab until the focused element matches ``selector``; returns the Tabs it took."""
    for presses in range(TAB_LIMIT + 1):
        if await is_focused(client, selector):
            return presses
        await client.page.keyboard.press("Tab")
    raise AssertionError(f"{TAB_LIMIT} Tabs never reached {selector}; stopped on {await focused(client)}")


async def arrow_to(client: Client, selector: str) -> None:
    """Presses the arrow key towards ``selector`` (on the screen) until it has the focus: the roving
    tab stop of a board or a hand of cards."""
    page = client.page
    for _ in range(ARROW_LIMIT):
        if await is_focused(client, selector):
            return
        here = await page.evaluate("() => { const r = document.activeElement.getBoundingClientRect();"
                                   " return [r.x + r.width / 2, r.y + r.height / 2]; }")
        box = await page.locator(selector).first.bounding_box()  # the nearest of equal cards would do as well
        assert box is not None, f"{selector} is not on the screen"
        dx, dy = box["x"] + box["width"] / 2 - here[0], box["y"] + box["height"] / 2 - here[1]
        if abs(dx) >= abs(dy):
            await page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        else:
            await page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    stopped = await focused(client)
    raise AssertionError(f"{ARROW_LIMIT} arrow keys never reached {selector}; stopped on {stopped}")


# ---- the lobby, by keyboard ----

async def pick_radio(client: Client, name: str, value: str) -> None:
    """Arrow keys through a radio group (they move the choice as well as the focus) until ``value``."""
    checked = f"document.querySelector('input[name={name}]:checked')?.value"
    for _ in range(ARROW_LIMIT):
        if await client.page.evaluate(checked) == value:
            return
        await client.page.keyboard.press("ArrowDown")
    raise AssertionError(f"the arrow keys never chose {value} in the {name} group")


async def choose_option(client: Client, selector: str, value: str) -> None:
    """Tab to a <select> and move its choice with the arrow keys (a closed select changes its value)."""
    await tab_to(client, selector)
    values: list[str] = await client.page.eval_on_selector(selector, "s => [...s.options].map(o => o.value)")
    steps = values.index(value) - values.index(await client.page.input_value(selector))
    for _ in range(abs(steps)):
        await client.page.keyboard.press("ArrowDown" if steps > 0 else "ArrowUp")
    assert await client.page.input_value(selector) == value


async def create_by_keyboard(client: Client, server: Server, game: str,
                             options: dict[str, str] | None = None) -> str:
    """The lobby's form with the keyboard: name, game, a quick random bot in seat 1, options; Enter
    creates the match with this page in seat 0."""
    page = client.page
    await page.goto(server.base + "/")
    await page.wait_for_selector("body[data-ready='true']", state="attached")
    await tab_to(client, "#name")
    await page.keyboard.type(client.name)
    await tab_to(client, "input[name=game]")
    await pick_radio(client, "game", game)
    await page.wait_for_selector("#seat-rows select[data-seat='0']")
    await choose_option(client, "#seat-rows select[data-seat='1']", "bot:random")
    for name, value in (options or {}).items():
        await tab_to(client, "#options-box summary")
        if not await page.evaluate("document.getElementById('options-box').open"):
            await page.keyboard.press("Enter")
        await tab_to(client, f"#opt-{name}")
        await page.keyboard.press("Control+A")
        await page.keyboard.type(value)
    await choose_option(client, "#bot-seconds", "0.2")
    await tab_to(client, "#create-button")
    await page.keyboard.press("Enter")
    await page.wait_for_url("**/match/*", timeout=WAIT_MS)
    await page.wait_for_selector("body[data-seat='0']", state="attached")
    return page.url.rstrip("/").rsplit("/", 1)[1]


# ---- the match page ----

async def running(client: Client) -> bool:
    return await client.page.get_attribute("body", "data-status") == "running"


async def snapshot(client: Client) -> dict[str, Any]:
    return await client.match_json()


async def my_decision(client: Client, choose: Any) -> dict[str, Any]:
    """Waits for this page's turn and returns the legal action ``choose`` picks from the server's list."""
    await client.wait_my_turn()
    legal: list[dict[str, Any]] = (await snapshot(client))["legal"]
    assert legal, "my turn, and nothing to play"
    picked: dict[str, Any] = choose(legal)
    return picked


async def announced(client: Client) -> str:
    return (await client.page.text_content("#announce") or "").strip()


LISTEN_JS = """
() => {
  window.parlourSaid = [];
  const region = document.getElementById("announce");
  new MutationObserver(() => window.parlourSaid.push(region.textContent.trim()))
    .observe(region, {childList: true, characterData: true, subtree: true});
}
"""


async def listen(client: Client) -> None:
    """From now on, every text the live region is given is kept in ``window.parlourSaid``."""
    await client.page.wait_for_selector("#announce[aria-live]", state="attached")
    await client.page.evaluate(LISTEN_JS)


async def said(client: Client) -> list[str]:
    texts: list[str] = await client.page.evaluate("window.parlourSaid")
    return texts


def loa_choice(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A capture when there is one (the game moves on), else the first move in the server's order."""
    captures = [a for a in legal if a["parts"]["kind"] == "capture"]
    return (captures or legal)[0]


async def play_loa_move(client: Client, action: dict[str, Any]) -> int:
    """The piece's square, Enter, its destination, Enter (LOA-6); returns the Tabs to reach the board."""
    parts = action["parts"]
    tabs = await tab_to(client, "#board [data-hit][tabindex='0']")
    await arrow_to(client, f"#board [data-hit='{parts['from']}']")
    await client.page.keyboard.press("Enter")
    await client.page.wait_for_selector(f"#board [data-target='{parts['to']}']", state="attached")
    await arrow_to(client, f"#board [data-hit='{parts['to']}']")
    await client.page.keyboard.press("Enter")
    return tabs


@pytest.mark.slow
async def test_a_whole_loa_game_with_the_keyboard_alone(server: Server, open_client: OpenClient) -> None:
    ann = await open_client("Ann")
    # LOA-16: a tie after 10 plies at the latest, so the game ends whatever the moves.
    match_id = await create_by_keyboard(ann, server, "loa", {"move_limit": "10"})
    await ann.page.wait_for_selector("body[data-status='running']", state="attached")
    moves = 0
    while await running(ann):
        version = await ann.version()
        if not await ann.page.evaluate("document.body.dataset.myTurn === 'true'"):
            await ann.wait_past(version)
            continue
        action = await my_decision(ann, loa_choice)
        tabs = await play_loa_move(ann, action)
        moves += 1
        if moves > 1:
            assert tabs <= TABS_PER_MOVE, f"move {moves}: {tabs} Tabs to get back to the board"
        await ann.wait_past(version)
        await focus_is_on_the_board(ann, f"after {action['text']}")
        if await other_side_is_announced(ann, version + 1):
            await focus_is_on_the_board(ann, f"after White's answer to {action['text']}")
    summary = server.summary(match_id)
    assert summary["status"] == "over"
    assert moves >= 5  # Black made at least half of the 10 plies (LOA-16) before the tie
    assert ann.errors == [], ann.errors


async def focus_is_on_the_board(client: Client, when: str) -> None:
    """Play goes on on the board: the focus is there, not dropped to <body> by the redraw."""
    here = await focused(client)
    assert here is not None, f"{when} the focus fell to <body>"
    assert here["onBoard"], f"{when} the focus is on {here}"


async def other_side_is_announced(client: Client, my_version: int) -> bool:
    """Once the bot has answered (the version after mine), the live region names both squares of its
    move (LOA-4). False when the game ended with my move."""
    if await client.page.get_attribute("body", "data-status") != "running":
        return False
    await client.wait_past(my_version)
    moves = await client.page.evaluate("window.parlourMatch.moves")
    last = moves[-1]
    assert last["seat"] == 1, f"after my move {moves[-2:]}"
    text = await announced(client)
    squares = last["action"].replace("x", "-").split("-")
    assert all(square in text for square in squares), f"the bot's {last['action']} was announced as {text!r}"
    return True


# ---- Mille Bornes ----

MILLE_PREFERENCE = ("coup", "extend", "draw", "play", "discard")


def mille_choice(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A coup fourré, extending, drawing, then playing before discarding (MIL-20), else what is left."""
    for kind in MILLE_PREFERENCE:
        for action in legal:
            if action["parts"]["kind"] == kind:
                return action
    return legal[0]


async def play_mille_decision(client: Client, action: dict[str, Any]) -> int:
    """The keys for one decision; returns the Tabs they took."""
    parts, text = action["parts"], action["text"]
    if parts["kind"] == "draw":
        # The server's list can say "draw" a moment before the page has enabled its Draw button.
        await client.page.wait_for_selector("[data-draw]:not([disabled])")
        tabs = await tab_to(client, "[data-draw]:not([disabled])")
    elif parts["kind"] in ("play", "discard"):
        tabs = await tab_to(client, ".hand-slot[data-card][tabindex='0']")
        await arrow_to(client, f".hand-slot[data-card='{parts['card']}']")
        await client.page.keyboard.press("Enter")
        await client.page.wait_for_selector(f"#hand-actions [data-action='{text}']")
        tabs += await tab_to(client, f"[data-action='{text}']")
    else:
        tabs = await tab_to(client, f"[data-action='{text}']")
    await client.page.keyboard.press("Enter")
    return tabs


async def hand_number(client: Client) -> int:
    number: int = (await snapshot(client))["view"]["content"]["match"]["hand_no"]
    return number


async def other_seat_was_heard(client: Client, other: int) -> None:
    """Each action the other seat took (chance's cards aside) went to the live region, under the name
    the seat list gives who plays it ("strong bot")."""
    name = (await client.page.text_content(f"#seats li[data-seat='{other}'] .who") or "").strip()
    assert name
    moves = await client.page.evaluate("window.parlourMatch.moves")
    theirs = [m["action"] for m in moves if m["seat"] == other]
    heard = [text for text in await said(client) if name in text]
    assert theirs, "the other seat never played"
    assert len(heard) >= len(theirs), f"{len(theirs)} actions of {name}, {len(heard)} announced: {heard[-6:]}"


@pytest.mark.slow
async def test_a_whole_mille_hand_with_the_keyboard_alone(server: Server, open_client: OpenClient) -> None:
    ann = await open_client("Ann")
    match_id = await create_by_keyboard(ann, server, "mille")
    await ann.page.wait_for_selector("body[data-status='running']", state="attached")
    await listen(ann)
    first_hand = await hand_number(ann)
    decisions, most_tabs = 0, 0
    dropped: list[str] = []  # decisions after which the focus fell to <body>
    while await hand_number(ann) == first_hand and await running(ann):
        version = await ann.version()
        if not await ann.page.evaluate("document.body.dataset.myTurn === 'true'"):
            await ann.wait_past(version)
            continue
        action = await my_decision(ann, mille_choice)
        tabs = await play_mille_decision(ann, action)
        decisions += 1
        most_tabs = max(most_tabs, tabs)
        await ann.wait_past(version)
        if await focused(ann) is None:
            dropped.append(action["text"])
    await other_seat_was_heard(ann, other=1)
    # MIL-12, MIL-21: six cards dealt, 89 in the pile, a draw each turn: a hand is many decisions.
    assert decisions >= 10, f"a hand with only {decisions} decisions of mine"
    assert most_tabs <= TABS_PER_MOVE, f"a decision took {most_tabs} Tabs"
    assert not dropped, f"the focus fell to <body> after {len(dropped)} of {decisions} decisions: " \
        f"{dropped[:12]}"
    assert server.summary(match_id)["status"] in ("running", "over")
    assert ann.errors == [], ann.errors
