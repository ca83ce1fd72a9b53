"""Every page for everyone (issue 12): axe-core finds nothing serious or critical on the lobby, on a
match page of every game (for a seat and for a spectator), on the generic board, on a match waiting
for a friend, on a finished match and on every rules page; the focus ring stands out from what is
behind it (two-toned on the boards); the lobby's list does not read itself out again on every refresh.

axe-core comes from npm, pinned by hash in ``scripts/axe/package-lock.json`` and installed by
``scripts/bootstrap`` into ``.tools/axe``.
"""

from __future__ import annotations

from typing import Any

import pytest
from server_process import ROOT, Server
from web_helpers import WAIT_MS, Client, OpenClient

from parlour.games import GAMES

pytestmark = pytest.mark.asyncio(loop_scope="session")

AXE_JS = ROOT / ".tools" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
RULES_PAGES = sorted(path.stem for path in (ROOT / "parlour" / "web" / "help").glob("*.html"))
FOCUS_CONTRAST = 3.0
"""WCAG 2.2 non-text contrast: a focus indicator at least 3:1 against the colours next to it."""


# ---- axe ----

async def axe_findings(client: Client) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    assert AXE_JS.exists(), f"{AXE_JS} is missing: ./scripts/bootstrap installs axe-core with npm"
    page = client.page
    if not await page.evaluate("typeof window.axe !== 'undefined'"):
        await page.add_script_tag(path=str(AXE_JS))
    violations: list[dict[str, Any]] = await page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations",
    )
    return [v for v in violations if v.get("impact") in BLOCKING]


def readable(findings: list[dict[str, Any]]) -> str:
    """One paragraph a finding: its rule, what it asks, and each element with axe's advice."""
    lines: list[str] = []
    for finding in findings:
        lines.append(f"[{finding['impact']}] {finding['id']}: {finding['help']} ({finding['helpUrl']})")
        for node in finding["nodes"][:8]:
            advice = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"    {' '.join(map(str, node['target']))}: {advice[:400]}")
        if len(finding["nodes"]) > 8:
            lines.append(f"    … and {len(finding['nodes']) - 8} more elements")
    return "\n".join(lines)


async def assert_accessible(client: Client, what: str) -> None:
    findings = await axe_findings(client)
    assert not findings, f"axe-core on {what}:\n{readable(findings)}"
    assert client.errors == [], client.errors


# ---- focus ring ----

FOCUS_CONTRAST_JS = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const rgb = (text) => (text.match(/rgba?\\(([^)]+)\\)/) || [null, "0,0,0,0"])[1].split(",").map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  // What the ring is drawn on: the first ancestor with an opaque colour (a gradient counts by its first).
  let behind = null;
  for (let node = el.parentElement; node && !behind; node = node.parentElement) {
    const style = getComputedStyle(node);
    const colour = rgb(style.backgroundColor);
    if (colour.length < 4 || colour[3] > 0.9) behind = colour;
    else if (style.backgroundImage.includes("gradient")) behind = rgb(style.backgroundImage);
  }
  behind ??= [255, 255, 255];
  const style = getComputedStyle(el);
  const ring = rgb(style.outlineColor);
  const [a, b] = [lum(ring), lum(behind)].sort((x, y) => y - x);
  return {
    name: el.id || el.getAttribute("aria-label") || el.textContent.trim().slice(0, 30) || el.tagName,
    style: style.outlineStyle, width: parseFloat(style.outlineWidth), contrast: (a + 0.05) / (b + 0.05),
  };
}
"""


async def focus_rings(client: Client, presses: int) -> list[dict[str, Any]]:
    """The focus ring of each element Tab reaches, ``presses`` times from the top of the page."""
    rings: list[dict[str, Any]] = []
    for _ in range(presses):
        await client.page.keyboard.press("Tab")
        ring = await client.page.evaluate(FOCUS_CONTRAST_JS)
        if ring is not None:
            rings.append(ring)
    return rings


# ---- pages ----

async def open_lobby(client: Client, server: Server) -> None:
    await client.page.goto(server.base + "/")
    await client.page.wait_for_selector("body[data-ready='true']", state="attached")


async def open_match(client: Client, server: Server, match_id: str) -> None:
    await client.page.goto(f"{server.base}/match/{match_id}")
    await client.page.wait_for_selector("body[data-version]", state="attached")


async def take_seat_0_against_bots(client: Client, server: Server, game: str) -> str:
    """A match of ``game`` (listed in the lobby or not) with ``client`` in seat 0 and quick bots in the
    others, its seat token where the page looks for it."""
    players = GAMES[game].info.min_players
    created = server.create(game=game, players=players, seats=["open"] + ["bot:random"] * (players - 1),
                            join=0, name=client.name, bot_seconds=0.2)
    match_id = str(created["match"]["id"])
    await client.page.goto(server.base + "/")
    await client.page.evaluate("([id, token]) => localStorage.setItem(`parlour.token.${id}`, token)",
                               [match_id, created["token"]])
    await open_match(client, server, match_id)
    return match_id


def finished_loa(server: Server) -> str:
    """A LOA match between two bots that ends at once (LOA-16: a tie after two plies)."""
    created = server.create(game="loa", players=2, options={"move_limit": 2},
                            seats=["bot:random", "bot:random"], bot_seconds=0.01)
    return str(created["match"]["id"])


async def test_the_lobby_has_no_serious_findings(server: Server, open_client: OpenClient) -> None:
    server.create(game="loa", players=2, seats=["open", "open"])  # an open match: its join buttons
    finished_loa(server)
    ann = await open_client("Ann")
    await open_lobby(ann, server)
    await ann.page.check("#show-all")
    await ann.page.wait_for_selector(".status-pill.over")
    await ann.page.wait_for_selector("[data-join]")
    await assert_accessible(ann, "the lobby")
    await ann.page.click("#options-box summary")  # the rules options, open
    await assert_accessible(ann, "the lobby with the rules options open")


@pytest.mark.parametrize("game", RULES_PAGES)
async def test_every_rules_page_has_no_serious_findings(server: Server, open_client: OpenClient,
                                                        game: str) -> None:
    reader = await open_client("Reader")
    await reader.page.goto(f"{server.base}/help/{game}")
    await reader.page.wait_for_selector("body[data-ready='true']", state="attached")
    await assert_accessible(reader, f"the rules of {game}")


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_match_page_of_every_game_has_no_serious_findings_for_a_seat_and_a_spectator(
    server: Server, open_client: OpenClient, game: str,
) -> None:
    ann, eve = await open_client("Ann"), await open_client("Eve")
    match_id = await take_seat_0_against_bots(ann, server, game)
    await ann.page.wait_for_selector("body[data-status='running'][data-seat='0']", state="attached")
    await ann.wait_my_turn()
    await assert_accessible(ann, f"a {game} match, seat 0 to move")
    await open_match(eve, server, match_id)
    await eve.page.wait_for_selector("body[data-seat='spectator']", state="attached")
    await assert_accessible(eve, f"a {game} match, as a spectator")


async def test_the_generic_board_and_a_match_waiting_for_a_friend_have_no_serious_findings(
    server: Server, open_client: OpenClient,
) -> None:
    ann, bob = await open_client("Ann"), await open_client("Bob")
    match_id = await take_seat_0_against_bots(ann, server, "loa")
    await ann.page.goto(f"{server.base}/match/{match_id}?board=generic")
    await ann.page.wait_for_selector("body[data-board='generic'][data-seat='0']", state="attached")
    await ann.wait_my_turn()
    await ann.page.wait_for_selector("[data-generic-action]")
    await assert_accessible(ann, "a LOA match on the generic board, seat 0 to move")
    waiting = server.create(game="biloba", players=2, seats=["open", "open"], join=0, name="Bob")
    await bob.page.goto(server.base + "/")
    await bob.page.evaluate("([id, token]) => localStorage.setItem(`parlour.token.${id}`, token)",
                            [waiting["match"]["id"], waiting["token"]])
    await open_match(bob, server, waiting["match"]["id"])
    await bob.page.wait_for_selector("body[data-status='open']", state="attached")
    await assert_accessible(bob, "a Biloba match waiting for a second player")


async def test_a_finished_match_has_no_serious_findings(server: Server, open_client: OpenClient) -> None:
    eve = await open_client("Eve")
    await open_match(eve, server, finished_loa(server))
    await eve.page.wait_for_selector("body[data-status='over']", state="attached")
    await eve.page.wait_for_selector("#result:not([hidden])")
    await assert_accessible(eve, "a finished LOA match, as a spectator")


async def test_the_focus_ring_stands_out_on_the_lobby_and_a_match(server: Server,
                                                                  open_client: OpenClient) -> None:
    server.create(game="loa", players=2, seats=["open", "open"])
    ann = await open_client("Ann")
    await open_lobby(ann, server)
    await ann.page.wait_for_selector("[data-join]")
    rings = await focus_rings(ann, 30)
    match_id = await take_seat_0_against_bots(ann, server, "mille")
    await ann.wait_my_turn()
    rings += await focus_rings(ann, 30)
    assert len(rings) >= 20  # Tab went somewhere each time
    faint = [r for r in rings if r["style"] == "none" or r["width"] < 2 or r["contrast"] < FOCUS_CONTRAST]
    assert not faint, f"focus rings under {FOCUS_CONTRAST}:1 or missing (match {match_id}):\n" + \
        "\n".join(f"  {r['name']}: {r['style']} {r['width']}px, {r['contrast']:.2f}:1" for r in faint)


BOARD_RING_JS = """
() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  return {square: el.dataset.hit, outline: style.outlineStyle, width: parseFloat(style.outlineWidth),
          ring: style.outlineColor, inner: style.stroke};
}
"""


@pytest.mark.parametrize("game", ["loa", "biloba", "conflict"])
async def test_a_board_square_with_the_focus_shows_a_two_tone_ring(server: Server, open_client: OpenClient,
                                                                  game: str) -> None:
    # A ring of one colour vanishes on some square (blue on LOA's dark wood is 2.2:1, on Conflict's
    # water less): the focused square has a dark ring and a white one, 3:1 against each other at least.
    ann = await open_client("Ann")
    await take_seat_0_against_bots(ann, server, game)
    await ann.wait_my_turn()
    for _ in range(40):
        await ann.page.keyboard.press("Tab")
        if await ann.page.evaluate("Boolean(document.activeElement?.dataset?.hit)"):
            break
    ring = await ann.page.evaluate(BOARD_RING_JS)
    assert ring["square"], "Tab never reached the board"
    assert ring["outline"] != "none", ring
    assert ring["width"] >= 2, ring
    assert ring["inner"].startswith("rgb"), f"no inner ring: {ring}"
    assert contrast(ring["ring"], ring["inner"]) >= FOCUS_CONTRAST, ring


def contrast(first: str, second: str) -> float:
    """WCAG contrast of two CSS ``rgb(r, g, b)`` colours."""
    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


LISTEN_JS = """
() => {
  window.parlourSaid = [];
  const region = document.getElementById("lobby-news");
  new MutationObserver(() => window.parlourSaid.push(region.textContent.trim()))
    .observe(region, {childList: true, characterData: true, subtree: true});
}
"""
"""Keeps every text the lobby's status line is given (a later refresh may bring other news)."""


async def test_the_lobby_list_tells_news_once_and_keeps_focus(server: Server,
                                                             open_client: OpenClient) -> None:
    first = server.create(game="loa", players=2, seats=["open", "open"])["match"]["id"]
    ann = await open_client("Ann")
    page = ann.page
    await open_lobby(ann, server)
    card = page.locator(f"[data-match='{first}']")
    await card.wait_for()
    # The list itself is no live region: a redraw would read every card out again.
    assert await page.get_attribute("#matches", "aria-live") is None
    await card.evaluate("card => { card.dataset.drawnOnce = 'yes'; }")
    await page.focus(f"[data-watch='{first}']")
    await page.evaluate(LISTEN_JS)
    second = server.create(game="biloba", players=2, seats=["open", "open"])["match"]["id"]
    await page.wait_for_selector(f"[data-match='{second}']", timeout=WAIT_MS)
    # The unchanged card was not redrawn, and the focus stayed on its Watch link.
    assert await card.get_attribute("data-drawn-once") == "yes"
    assert await page.evaluate("document.activeElement.dataset.watch") == first
    assert await page.locator("#lobby-news[role='status']").count() == 1
    # Told once: after a later refresh (a third match appears) the Biloba news is not told again.
    third = server.create(game="loa", players=2, seats=["open", "open"])["match"]["id"]
    await page.wait_for_selector(f"[data-match='{third}']", timeout=WAIT_MS)
    said: list[str] = await page.evaluate("window.parlourSaid")
    assert sum("New match: Biloba, 2 free seats." in text for text in said) == 1, said
    # A seat's name is written beside its colour (not told by colour alone).
    assert "Orange: free" in (await page.locator(f"[data-match='{second}'] .seats").text_content() or "")
    assert ann.errors == [], ann.errors



async def test_the_turn_banner_is_not_read_out_again_when_its_words_have_not_changed(
    server: Server, open_client: OpenClient,
) -> None:
    # The banner is a live region: rewriting it with the same words makes a screen reader say them
    # again, as the lobby's list once did every 4 s.
    ann = await open_client("Ann")
    await take_seat_0_against_bots(ann, server, "loa")
    await ann.wait_my_turn()
    said = await ann.page.text_content("#turn")
    rewrites = await ann.page.evaluate("""() => {
        let count = 0;
        const observer = new MutationObserver((records) => { count += records.length; });
        const watch = {childList: true, subtree: true, characterData: true};
        observer.observe(document.getElementById("turn"), watch);
        window.parlourMatch.render();
        window.parlourMatch.render();
        return new Promise((done) => setTimeout(() => { observer.disconnect(); done(count); }, 50));
    }""")
    assert rewrites == 0
    assert await ann.page.text_content("#turn") == said
