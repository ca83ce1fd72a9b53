"""The generic board (issue 12): any game without a board module of its own is played with the view's
content as text and the legal actions as buttons grouped by their parts. Forced on a Lines of Action
match with ``?board=generic``, a person plays a few moves through it against a bot."""

from __future__ import annotations

from typing import Any

import pytest
from server_process import Server
from web_helpers import Client, OpenClient

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def offered(client: Client) -> list[str]:
    texts: list[str] = await client.page.eval_on_selector_all(
        "[data-generic-action]", "buttons => buttons.map(b => b.dataset.genericAction)",
    )
    return texts


async def groups(client: Client) -> dict[str, list[str]]:
    """The buttons by kind and group (`capture from a1`, …), as the page shows them."""
    found: dict[str, list[str]] = await client.page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.generic-group')].map(g => [
            `${g.closest('.generic-kind').dataset.kind} ${g.dataset.group}`,
            [...g.querySelectorAll('[data-generic-action]')].map(b => b.dataset.genericAction)]))"""
    )
    return found


def by_start(legal: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The legal texts by kind (LOA-4: a move or a capture) and by the square they start from."""
    expected: dict[str, list[str]] = {}
    for action in legal:
        parts = action["parts"]
        expected.setdefault(f"{parts['kind']} from {parts['from']}", []).append(action["text"])
    return expected


async def test_a_loa_match_is_played_through_the_generic_board(server: Server,
                                                               open_client: OpenClient) -> None:
    ann = await open_client("Ann")
    created = server.create(game="loa", players=2, seats=["open", "bot:random"], join=0, bot_seconds=0.01)
    match_id, token = created["match"]["id"], created["token"]
    page = ann.page
    await page.goto(server.base + "/")
    await page.evaluate("([id, token]) => localStorage.setItem('parlour.token.' + id, token)",
                        [match_id, token])
    await page.goto(f"{server.base}/match/{match_id}?board=generic")
    await page.wait_for_selector("body[data-board='generic'][data-seat='0']", state="attached")
    assert await page.locator("#board svg").count() == 0  # no drawn board: the view as text

    for ply in range(1, 4):
        await ann.wait_my_turn()
        snapshot = await ann.match_json()
        legal = snapshot["legal"]
        # Every legal action is one button, grouped by kind and then by the square it starts from.
        assert sorted(await offered(ann)) == sorted(a["text"] for a in legal)
        kinds = {a["parts"]["kind"] for a in legal}
        shown_kinds = await page.eval_on_selector_all(".generic-kind", "ks => ks.map(k => k.dataset.kind)")
        assert set(shown_kinds) == kinds
        shown = await groups(ann)
        for group, texts in by_start(legal).items():
            assert sorted(shown[group]) == sorted(texts), group
        # The position is there as text: LOA-1's board rows, from the view's content.
        text = await page.text_content("[data-board='generic'] pre") or ""
        for row in snapshot["view"]["content"]["position"]["board"]:
            assert row in text
        choice = legal[-1]["text"]
        await page.click(f"[data-generic-action='{choice}']")
        await ann.wait_version(snapshot["version"] + 2)  # the move, then the bot's answer
        moves = await page.locator("#moves li").all_text_contents()
        assert choice in moves[2 * ply - 2]
        # The bot's move is read out by the live region.
        assert "White" in (await page.text_content("#announce") or "")

    await ann.wait_my_turn()
    assert await page.locator("#moves li").count() == 6
    assert ann.errors == [], ann.errors
