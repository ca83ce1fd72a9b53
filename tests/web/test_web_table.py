"""The table around a game in the browser (issue 14): people's names and Mille's final score on the
result, resigning after a confirmation, an agreed draw, a rematch that takes both players to the
new match, and a person out of a 4-player Biloba match told so while the bots play on.

Real ``parlour serve``, real Chromium; every wait is for the page's state, none for time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lobby_steps import create_match, join_from_lobby
from server_process import Server
from test_web_a11y import assert_accessible
from web_helpers import WAIT_MS, Client, OpenClient, bot_name

pytestmark = pytest.mark.asyncio(loop_scope="session")

GAME_MS = 180_000
"""The bound on a whole game of bots alone (a Mille game to 5000 is about 2,000 actions)."""


async def text(client: Client, selector: str) -> str:
    return " ".join((await client.page.text_content(selector) or "").split())


async def over(client: Client, bound: int = WAIT_MS) -> dict[str, Any]:
    await client.page.wait_for_selector("body[data-status='over']", state="attached", timeout=bound)
    return await client.match_json()


async def two_people(open_client: OpenClient, server: Server) -> tuple[Client, Client, str]:
    """Ann creates a match in seat 0, Bob takes seat 1 from the lobby; both pages see it running."""
    ann, bob = await open_client("Ann"), await open_client("Bob")
    match_id = await create_match(ann, server, game="loa", seats={0: "you", 1: "open"})
    await join_from_lobby(bob, server, match_id, 1)
    for client in (ann, bob):
        await client.page.wait_for_selector("body[data-status='running']", state="attached")
    return ann, bob, match_id


HEAR_JS = """
() => {
  window.parlourHeard = [];
  for (const id of ["turn", "toast", "announce"]) {
    const region = document.getElementById(id);
    new MutationObserver(() => window.parlourHeard.push(region.textContent.trim()))
      .observe(region, {childList: true, characterData: true, subtree: true});
  }
}
"""


async def heard(client: Client) -> list[str]:
    """What the page's live regions (banner, alert, announcements) were given since ``HEAR_JS``."""
    texts: list[str] = await client.page.evaluate("window.parlourHeard")
    return [" ".join(t.split()) for t in texts]


def no_errors(*clients: Client) -> None:
    for client in clients:
        assert client.errors == [], f"{client.name}'s console: {client.errors}"


async def play_first_legal(client: Client) -> None:
    """The first action the page lists, clicked in its legal list."""
    await client.wait_my_turn()
    version = await client.version()
    first = (await client.legal())[0]
    await client.page.click("#legal-wrap summary")
    await client.page.click(f"#legal button[data-action='{first}']")
    await client.wait_past(version)


@pytest.mark.slow
async def test_mille_result_names_the_players_and_gives_the_final_score(
    server: Server, open_client: OpenClient, tmp_path: Path,
) -> None:
    # Two bots play a whole game to 5000 (MIL-55) while Eve watches.
    created = server.create(game="mille", seats=["bot:random", "bot:greedy"], bot_seconds=0.01, seed=11)
    match_id = created["match"]["id"]
    eve = await open_client("Eve")
    await eve.page.goto(f"{server.base}/match/{match_id}")
    await eve.page.wait_for_selector("body[data-seat='spectator']", state="attached")
    # The table names who plays, not "Player 1" and "Player 2".
    heads = await eve.page.locator(".mille-seat-head strong").all_text_contents()
    names = [bot_name("mille", "random", 0.01), bot_name("mille", "greedy", 0.01)]
    assert sorted(heads) == sorted(names), heads
    final = await over(eve, GAME_MS)
    outcome = final["view"]["outcome"]
    scores = [int(score) for score in outcome["scores"]]
    assert max(scores) >= 5000, outcome
    assert await text(eve, "#result-text") == f"{names[outcome['winner']]} wins"
    assert outcome["words"] == "a game total reached 5000 (the higher total wins)"
    assert await text(eve, "#result-why") == outcome["words"]
    assert await text(eve, "#final-score caption") == f"Final score {scores[0]}–{scores[1]}"
    for seat in (0, 1):
        row = f"#final-score tr[data-score-seat='{seat}']"
        assert (await text(eve, f"{row} th")).endswith(names[seat])  # after the seat's colour mark
        assert await text(eve, f"{row} td") == str(scores[seat])
    moves = await eve.page.locator("#moves li").all_text_contents()
    assert moves
    assert not any("Player" in move for move in moves), moves[-4:]
    assert any(names[1] in move for move in moves)
    assert any(names[0] in move for move in moves)
    # A spectator gets no controls: nothing to resign, nothing to offer, no rematch of their own.
    assert await eve.page.locator("#table-actions:not([hidden]), #offer-rematch").count() == 0
    await eve.page.screenshot(path=str(tmp_path / "mille-result.png"), full_page=True)
    no_errors(eve)


async def test_resigning_asks_first_and_ends_the_match_for_both(
    server: Server, open_client: OpenClient, tmp_path: Path,
) -> None:
    ann, bob, _ = await two_people(open_client, server)
    await play_first_legal(ann)
    # Names in the moves list and the seat to move in the banner (issue 14).
    assert (await text(bob, "#moves li:first-child .move")).startswith("Ann (Black) ")
    await bob.wait_my_turn()
    assert "Bob (White)" in await text(ann, "#turn")
    # A draw is offered only where people alone play; resigning is always there.
    assert await ann.page.locator("#offer-draw").count() == 1

    # Bob presses Resign: a dialog asks first, its safe answer focused; Escape keeps him playing.
    await bob.page.click("#resign")
    await bob.page.wait_for_selector("dialog#confirm[open]")
    assert await text(bob, "#confirm-title") == "Resign this game?"
    assert await text(bob, "#confirm-text") == "Ann (Black) wins the game."
    assert await bob.page.evaluate("document.activeElement.id") == "confirm-no"
    await assert_accessible(bob, "the resign confirmation")
    await bob.page.screenshot(path=str(tmp_path / "resign-dialog.png"))
    await bob.page.keyboard.press("Escape")
    await bob.page.wait_for_selector("dialog#confirm:not([open])", state="attached")
    assert await bob.page.evaluate("document.activeElement.id") == "resign"
    assert (await bob.match_json())["status"] == "running"

    await bob.page.click("#resign")
    await bob.page.click("#confirm-yes")
    for client in (ann, bob):
        final = await over(client)
        assert final["view"]["outcome"]["winner"] == 0
        assert await text(client, "#result-why") == "Bob (White) resigned"  # who left, not "the other side"
        # Bob leaves in Ann's first turn: said in its row, after her move (one row a turn number).
        assert await text(client, "#moves li:last-child .move-leaving") == "Bob (White) resigned"
        assert await client.page.locator("#moves li").count() == 1
        # After the end only the rematch is offered: no resign, no draw.
        assert await client.page.locator("#table-actions:not([hidden]), #resign, #offer-draw").count() == 0
        assert await client.page.locator("#offer-rematch").count() == 1
    assert await text(ann, "#result-text") == "You win!"
    assert await text(bob, "#result-text") == "Ann (Black) wins"
    await assert_accessible(bob, "the result card after a resignation")
    await bob.page.screenshot(path=str(tmp_path / "resigned.png"), full_page=True)
    no_errors(ann, bob)


async def test_a_draw_declined_then_agreed(server: Server, open_client: OpenClient, tmp_path: Path) -> None:
    ann, bob, _ = await two_people(open_client, server)
    await play_first_legal(ann)
    await ann.page.click("#offer-draw")
    await bob.page.wait_for_selector("#draw-offer #accept-draw")
    assert await text(bob, "#draw-offer p") == "Ann (Black) offers a draw."
    assert await text(ann, "#draw-offer p") == "You offered a draw: waiting for Bob (White)."
    await bob.page.screenshot(path=str(tmp_path / "draw-offered.png"), full_page=True)
    await assert_accessible(bob, "a draw offer to answer")
    # The offer stands for a page opened again (the state lists the pending offers).
    await bob.page.reload()
    await bob.page.wait_for_selector("#draw-offer #decline-draw")
    await ann.page.evaluate(HEAR_JS)
    await bob.page.click("#decline-draw")
    for client in (ann, bob):
        await client.page.wait_for_selector("#draw-offer", state="detached")
    assert "Bob (White) declines the draw." in await heard(ann)
    assert (await ann.match_json())["status"] == "running"
    # A declined offer is not made again before a move of one's own; the other side may offer.
    assert await ann.page.locator("#offer-draw").count() == 0
    assert await ann.page.locator("#resign").count() == 1
    # Nor on a page opened again: the server's state says whose offer was declined.
    await ann.page.reload()
    await ann.page.wait_for_selector("#resign")
    assert await ann.page.locator("#offer-draw").count() == 0

    # Bob offers in his turn; Ann accepts from the keyboard.
    await bob.page.click("#offer-draw")
    await ann.page.wait_for_selector("#accept-draw")
    await ann.page.focus("#accept-draw")
    await ann.page.keyboard.press("Enter")
    for client in (ann, bob):
        final = await over(client)
        assert final["view"]["outcome"]["winner"] is None
        assert await text(client, "#result-text") == "Draw"
        assert await text(client, "#result-why") == "agreed at the table"
        assert await text(client, "#moves li:last-child .move-leaving") == "Draw agreed"
    no_errors(ann, bob)


async def test_a_rematch_takes_both_players_to_the_new_match(
    server: Server, open_client: OpenClient, tmp_path: Path,
) -> None:
    ann, bob, old = await two_people(open_client, server)
    eve = await open_client("Eve")
    await eve.page.goto(f"{server.base}/match/{old}")
    await eve.page.wait_for_selector("body[data-seat='spectator'][data-status='running']", state="attached")
    await play_first_legal(ann)
    await ann.page.click("#resign")
    await ann.page.click("#confirm-yes")
    for client in (ann, bob, eve):
        await over(client)
    assert await eve.page.locator("#offer-rematch").count() == 0
    await bob.page.click("#offer-rematch")
    await ann.page.wait_for_selector("#rematch-offer #accept-rematch")
    assert await text(ann, "#rematch-offer p") == "Bob (White) offers a rematch."
    assert await text(bob, "#rematch-offer p") == "You offered a rematch: waiting for Ann (Black)."
    await ann.page.screenshot(path=str(tmp_path / "rematch-offered.png"), full_page=True)
    await ann.page.click("#accept-rematch")

    # Both are taken to the new match, seats rotated, each with the new seat's token kept.
    for client, seat in ((ann, 1), (bob, 0)):
        await client.page.wait_for_url(lambda url: "/match/" in url and not url.rstrip("/").endswith(old),
                                       timeout=WAIT_MS)
        here = f"body[data-seat='{seat}'][data-status='running']"
        await client.page.wait_for_selector(here, state="attached")
    new = ann.page.url.rstrip("/").rsplit("/", 1)[1]
    assert bob.page.url.rstrip("/").endswith(new)
    assert new != old
    for client in (ann, bob):
        assert await client.page.evaluate(f"localStorage.getItem('parlour.token.{new}')")
        assert await client.page.evaluate(f"localStorage.getItem('parlour.token.{old}')")
    # A spectator is not taken anywhere, but shown the way to watch the rematch.
    await eve.page.wait_for_selector("#go-rematch")
    assert await eve.page.get_attribute("#go-rematch", "href") == f"/match/{new}"
    assert await text(eve, "#go-rematch") == "Watch the rematch"
    assert eve.page.url.rstrip("/").endswith(old)
    assert await text(ann, "#seats li[data-seat='0'] .who") == "Bob"
    assert await text(ann, "#seats li.me[data-seat='1'] .who") == "Ann"
    assert (await text(ann, "#turn .head")).endswith(" Bob (Black) to move")  # after the colour mark
    await bob.wait_my_turn()
    await play_first_legal(bob)
    assert (await text(ann, "#moves li:first-child .move")).startswith("Bob (Black) ")
    no_errors(ann, bob, eve)


async def test_a_person_out_of_a_four_player_biloba_match_is_told_and_watches_the_bots_finish(
    server: Server, open_client: OpenClient, tmp_path: Path,
) -> None:
    ann = await open_client("Ann")
    await create_match(ann, server, game="biloba", players=4,
                       seats={0: "you", 1: "bot:strong", 2: "bot:random", 3: "bot:random"},
                       options={"quiet_limit": "40"})
    await ann.wait_my_turn()
    # With bots at the table there is no draw to offer; resigning says the game goes on.
    assert await ann.page.locator("#offer-draw").count() == 0
    await ann.page.click("#resign")
    assert await text(ann, "#confirm-text") == "You leave the game, and the others play on without you."
    await ann.page.evaluate(HEAR_JS)
    await ann.page.click("#confirm-yes")

    # BIL-39: her pawns leave the board and the bots play on; she is told at once, in words.
    await ann.page.wait_for_function(
        "document.getElementById('out-notice') || document.body.dataset.status === 'over'")
    snap = await ann.match_json()
    words = snap["view"]["out"][0]
    assert words
    told = [said for said in await heard(ann) if f"You are out: {words}" in said]
    assert told, await heard(ann)
    if snap["status"] == "running":
        assert (await text(ann, "#turn .head")).endswith(f" You are out: {words}")
        assert await text(ann, "#out-notice p") == (
            f"You are out: {words}. You can watch the others play on, or leave the table.")
        assert await ann.page.get_attribute("#leave-table", "href") == "/"
        assert await ann.page.locator("#resign, #offer-draw").count() == 0
        await assert_accessible(ann, "a seat out of a running Biloba match")
        await ann.page.screenshot(path=str(tmp_path / "biloba-out.png"), full_page=True)
    assert f"Out: {words}" in await text(ann, "#seats li[data-seat='0']")
    final = await over(ann, GAME_MS)
    assert final["view"]["outcome"]["winner"] != 0
    # The banner said it once, not again at each of the bots' moves (the alert said it too).
    banner = f"You are out: {words}You can watch the others play on, or leave the table."
    assert len([said for said in await heard(ann) if said.endswith(banner)]) == 1, await heard(ann)
    assert await ann.page.locator("#seats li.out[data-seat='0']").count() == 1
    await ann.page.screenshot(path=str(tmp_path / "biloba-over.png"), full_page=True)
    no_errors(ann)


async def test_three_people_end_the_game_here_when_all_agree(server: Server, open_client: OpenClient) -> None:
    ann, bob, cy = await open_client("Ann"), await open_client("Bob"), await open_client("Cy")
    seats = {0: "you", 1: "open", 2: "open"}
    match_id = await create_match(ann, server, game="biloba", players=3, seats=seats)
    await join_from_lobby(bob, server, match_id, 1)
    await join_from_lobby(cy, server, match_id, 2)
    for client in (ann, bob, cy):
        await client.page.wait_for_selector("body[data-status='running']", state="attached")
    colours = (await ann.match_json())["view"]["seats"]
    table = [f"{person} ({colour})" for person, colour in zip(("Ann", "Bob", "Cy"), colours, strict=True)]

    # With three at the table a draw is "ending the game here", among all still in play.
    assert await text(ann, "#offer-draw") == "Propose ending the game here"
    await ann.page.click("#offer-draw")
    await bob.page.wait_for_selector("#accept-draw")
    await cy.page.wait_for_selector("#accept-draw")
    assert await text(cy, "#draw-offer p") == (
        f"{table[0]} proposes to end the game here, a draw among {table[0]}, {table[1]} and {table[2]}.")
    assert await text(cy, "#accept-draw") == "Agree to end here"
    await bob.page.click("#accept-draw")
    await bob.page.wait_for_selector("#draw-offer p:text-matches('You agreed')")
    assert await text(bob, "#draw-offer p") == f"You agreed to end the game here: waiting for {table[2]}."
    assert (await ann.match_json())["status"] == "running"
    await cy.page.click("#accept-draw")
    for client in (ann, bob, cy):
        final = await over(client)
        assert final["view"]["outcome"]["winner"] is None
        assert await text(client, "#result-text") == "Draw"
        assert await text(client, "#result-why") == "agreed at the table"

    # A rematch with three: a seat that agreed is told so, not that it made the offer.
    await ann.page.click("#offer-rematch")
    await bob.page.wait_for_selector("#accept-rematch")
    await bob.page.click("#accept-rematch")
    await bob.page.wait_for_selector("#rematch-offer p:text-matches('You agreed')")
    assert await text(bob, "#rematch-offer p") == f"You agreed to a rematch: waiting for {table[2]}."
    assert await bob.page.locator("#withdraw-rematch").count() == 0
    offered = f"You offered a rematch: waiting for {table[2]}."
    await ann.page.wait_for_selector(f"#rematch-offer p:text-is('{offered}')")
    no_errors(ann, bob, cy)
