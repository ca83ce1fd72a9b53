"""The browser says why a move is refused, for clicks too (issue 18: "An illegal action says why, from
the engine … in words, for every game, through every front end, the browser's move refusals
included").

A click the legal list does not offer is sent in the game's notation as the person meant it, the
server refuses it with the engine's reason, and the page shows that reason; the match does not move.
Away from the person's turn nothing is sent at all: the page says whose turn it is.

Real ``parlour serve``, real Chromium; every wait is for the page's state, none for time."""

from __future__ import annotations

import json
import sqlite3

import pytest
from lobby_steps import create_match, join_from_lobby
from server_process import Server
from test_web_a11y import assert_accessible
from test_web_conflict import draw_and_confirm
from test_web_tictactoe import create_against_bot
from web_helpers import LAPTOP, PHONE, Client, OpenClient

from parlour.engine import IllegalActionError, State
from parlour.games import GAMES

pytestmark = pytest.mark.asyncio(loop_scope="session")


def sent_actions(client: Client) -> list[str]:
    """The texts of every ``action`` message the page's WebSockets send, from now on."""
    texts: list[str] = []

    def on_frame(payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "action":
            texts.append(message["text"])

    client.page.on("websocket", lambda socket: socket.on("framesent", on_frame))
    return texts


async def toast(client: Client) -> str:
    """The words of the page's toast once it shows (its role is alert: a screen reader says them)."""
    await client.page.wait_for_selector("#toast:not([hidden])")
    return " ".join((await client.page.text_content("#toast") or "").split())


async def toast_saying(client: Client, start: str) -> str:
    await client.page.wait_for_function(
        "s => { const t = document.getElementById('toast');"
        " return !t.hidden && t.textContent.startsWith(s); }",
        arg=start)
    return await toast(client)


def refusal(state: State, text: str) -> str:
    """What the engine says of ``text`` in ``state``: the reason its refusal carries, as the server
    sends it (``text: reason``)."""
    try:
        action = state.parse_action(text)
    except IllegalActionError as refused:
        return str(refused)
    assert not state.is_legal(action), f"{text} is legal here"
    return str(state.refusal(action, text))


def stored_state(server: Server, match_id: str) -> State:
    """The match's true state now, from the server's SQLite file."""
    with sqlite3.connect(server.db) as db:
        game, players, options, seed = db.execute(
            "SELECT game, players, options, seed FROM matches WHERE id = ?", (match_id,)).fetchone()
        actions = [a for (a,) in db.execute(
            "SELECT action FROM events WHERE match_id = ? ORDER BY version", (match_id,))]
    state = GAMES[game].new(players, json.loads(options), seed)
    for action in actions:
        state.apply(action)
    return state


async def pieces(client: Client) -> list[tuple[str | None, str | None]]:
    """The pieces the board draws: (colour, square) of each."""
    found: list[tuple[str | None, str | None]] = await client.page.eval_on_selector_all(
        "#board .pieces [data-piece]", "els => els.map(e => [e.dataset.piece, e.dataset.square])")
    return sorted(found, key=str)


async def test_loa_a_click_on_a_square_the_piece_cannot_reach_says_why_in_the_engines_words(
    server: Server, open_client: OpenClient,
) -> None:
    ann, bob = await open_client("Ann"), await open_client("Bob")
    ann_sent, bob_sent = sent_actions(ann), sent_actions(bob)
    match_id = await create_match(ann, server, game="loa", seats={0: "you", 1: "open"})
    await join_from_lobby(bob, server, match_id, seat=1)
    await ann.wait_my_turn()
    before = await pieces(ann)

    # Bob clicks at Ann's turn: his page sends nothing and says whose turn it is.
    await bob.page.wait_for_selector("body[data-status='running']", state="attached")
    await bob.click_square("a2")
    assert await toast(bob) == "It is Ann (Black)'s turn, not yours."
    await bob.click_square("c2")
    assert bob_sent == []

    # Ann clicks an empty square with nothing picked: a word on what to click, nothing sent.
    await ann.click_square("d4")
    assert (await toast(ann)).startswith("Pick one of your (black) pieces first")
    assert ann_sent == []

    # b1, then b4: the column holds two pieces, so b1 moves exactly 2 squares (LOA-7). The page
    # sends b1-b4 as Ann meant it; the toast gives the engine's reason, and nothing moves.
    await ann.click_square("b1")
    await ann.page.wait_for_selector("[data-target='b3']", state="attached")
    await ann.click_square("b4")
    words = await toast_saying(ann, "Refused:")
    expected = refusal(stored_state(server, match_id), "b1-b4")
    assert "LOA-7" in expected
    assert words == f"Refused: {expected}"
    assert ann_sent == ["b1-b4"]
    assert await ann.version() == 0
    assert server.summary(match_id)["version"] == 0
    assert await pieces(ann) == before
    # The piece stays picked, to be tried again: its legal destination still plays.
    assert await ann.page.locator(".square.selected[data-square='b1']").count() == 1
    shots = server.log.parent
    await ann.page.screenshot(path=str(shots / "refusal-loa.png"))
    await ann.click_square("b3")
    await ann.wait_version(1)
    assert ann_sent == ["b1-b4", "b1-b3"]
    await bob.wait_version(1)
    assert ann.errors == []
    assert bob.errors == []


async def test_mille_a_card_that_cannot_be_played_says_why_when_asked(
    server: Server, open_client: OpenClient,
) -> None:
    ann = await open_client("Ann")
    sent = sent_actions(ann)
    match_id = await create_match(ann, server, game="mille", seats={0: "you", 1: "bot:random"})
    page = ann.page
    await ann.wait_my_turn()
    snap = await ann.match_json()
    assert [a["text"] for a in snap["legal"]] == ["draw"]
    slots: list[str | None] = snap["view"]["content"]["private"]["slots"]

    # Before drawing, a card is chosen and asked about: "Why not play …?" is answered by the rules
    # (MIL-23: draw first), and the match waits as it was.
    card = next(token for token in slots if token)
    await page.click(f".hand-slot[data-card='{card}']")
    await page.click(f"#hand-actions [data-why='play {card}']")
    words = await toast_saying(ann, "Refused:")
    assert words == f"Refused: {refusal(stored_state(server, match_id), f'play {card}')}"
    assert sent == [f"play {card}"]
    assert await ann.version() == snap["version"]

    await page.click("[data-draw='true']")
    await ann.wait_past(snap["version"])
    await ann.wait_my_turn()
    snap = await ann.match_json()
    legal = {a["text"] for a in snap["legal"]}
    slots = snap["view"]["content"]["private"]["slots"]
    # A card of the hand with no legal play: it shows no Play button, but a way to ask why.
    card = next(token for token in slots if token and f"play {token}" not in legal)
    await page.click(f".hand-slot[data-card='{card}']")
    assert await page.locator(f"#hand-actions [data-action='play {card}']").count() == 0
    assert await page.locator(f"#hand-actions [data-action='discard {card}']").count() == 1
    why = page.locator(f"#hand-actions [data-why='play {card}']")
    assert (await why.text_content() or "").startswith("Why not play ")
    await why.click()
    words = await toast_saying(ann, f"Refused: play {card}:")
    expected = refusal(stored_state(server, match_id), f"play {card}")
    assert "(MIL-" in expected
    assert words == f"Refused: {expected}"
    assert await ann.version() == snap["version"]
    assert server.summary(match_id)["version"] == snap["version"]
    # The card stays chosen, its discard still there to press.
    assert await page.locator(f".hand-slot.chosen[data-card='{card}']").count() >= 1
    await page.screenshot(path=str(server.log.parent / "refusal-mille.png"))
    await assert_accessible(ann, "Mille's hand with a refused card asked about")
    # On a phone the hand's buttons, the question among them, still fit the screen's width.
    await page.set_viewport_size(PHONE)
    await page.locator("#hand-actions").scroll_into_view_if_needed()
    await page.screenshot(path=str(server.log.parent / "refusal-mille-phone.png"))
    box = await page.locator(f"#hand-actions [data-why='play {card}']").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    await page.set_viewport_size(LAPTOP)
    await page.click(f"#hand-actions [data-action='discard {card}']")
    await ann.wait_past(snap["version"])
    assert sent[-1] == f"discard {card}"
    assert ann.errors == []


def beside(square: str) -> str:
    """A square next to ``square`` on any map (CON-6): west, or east on the first column."""
    column, row = ord(square[0]) - 97, square[1:]
    return f"{chr(97 + column + (-1 if column > 0 else 1))}{row}"


async def test_conflict_a_piece_that_moved_this_roll_may_be_picked_and_says_why_it_cannot_move_again(
    server: Server, open_client: OpenClient,
) -> None:
    ann = await open_client("Ann")
    sent = sent_actions(ann)
    match_id = await create_match(ann, server, game="conflict", seats={0: "you", 1: "bot:random"})
    page = ann.page
    for _ in range(20):  # rolls, until one leaves Ann a die after her first entry
        await ann.wait_my_turn()
        snap = await ann.match_json()
        entries = [a for a in snap["legal"] if a["parts"]["kind"] == "enter"]
        assert entries, "Ann's roll offers no entry"
        entry = min(entries, key=lambda a: a["parts"]["die"])
        await draw_and_confirm(ann, entry)
        await ann.wait_past(snap["version"])
        after = await ann.match_json()
        if after["view"]["to_move"] == 0 and after["legal"] and after["status"] == "running":
            break
        end = next((a for a in after["legal"] if a["parts"]["kind"] == "end"), None)
        if end is not None:
            await page.click(f"[data-action='{end['text']}']")
    else:
        pytest.fail("no roll of twenty left Ann a die after her first entry")
    # The piece just entered has moved this roll: no move of it is legal, yet it may be picked, a
    # square drawn, and the die pressed; the page sends that as CON-64 writes it and shows why not.
    square = entry["parts"]["to"]
    die = after["view"]["content"]["position"]["unused"][0]
    assert not any(a["parts"].get("from") == square for a in after["legal"])
    await ann.click_square(square)
    await page.wait_for_selector("#cf-pick")
    await ann.click_square(beside(square))
    await page.click(f"[data-confirm='{die}']")
    text = f"{square} {die}: {beside(square)}"
    words = await toast_saying(ann, f"Refused: {text}:")
    expected = refusal(stored_state(server, match_id), text)
    assert words == f"Refused: {expected}"
    assert sent[-1] == text
    assert await ann.version() == after["version"]
    assert (await page.text_content("#cf-error") or "").strip() == f"Refused: {expected}"
    await page.screenshot(path=str(server.log.parent / "refusal-conflict.png"))
    assert ann.errors == []


async def test_generic_board_an_action_typed_that_the_rules_forbid_says_why(
    server: Server, open_client: OpenClient,
) -> None:
    ann = await open_client("Ann")
    sent = sent_actions(ann)
    match_id = await create_against_bot(ann, server)  # tic-tac-toe: the generic board
    page = ann.page
    await ann.wait_my_turn()
    await page.click("[data-generic-action='b2']")
    await ann.wait_version(2)  # Ann's mark, then the bot's
    await ann.wait_my_turn()
    # b2 holds Ann's own mark now: typed and tried, it is refused with TTT-3's words; nothing moves.
    await page.fill("#generic-try", "b2")
    await page.click("[data-try='send']")
    words = await toast_saying(ann, "Refused:")
    expected = refusal(stored_state(server, match_id), "b2")
    assert "TTT-3" in expected
    assert words == f"Refused: {expected}"
    assert sent == ["b2", "b2"]
    assert await ann.version() == 2
    # What was typed is still there to mend (the board was drawn again for the refusal).
    assert await page.input_value("#generic-try") == "b2"
    await page.screenshot(path=str(server.log.parent / "refusal-generic.png"))
    await assert_accessible(ann, "the generic board's line to type an action")
    assert ann.errors == []


async def test_biloba_a_pawn_sent_where_it_cannot_go_says_why(
    server: Server, open_client: OpenClient,
) -> None:
    oli = await open_client("Oli")
    sent = sent_actions(oli)
    match_id = await create_match(oli, server, game="biloba", seats={0: "you", 1: "bot:random"})
    page = oli.page
    await oli.wait_my_turn()
    # A Blue pawn is not Oli's to pick: a word on the page, nothing sent.
    await oli.click_square("d6")
    assert (await toast(oli)).startswith("The pawn on d6 is blue")
    # d4 to d7 is neither a step nor a jump over one pawn (BIL-15, BIL-16): sent as Oli meant it.
    await oli.click_square("d4")
    await page.wait_for_selector("[data-target='d5']", state="attached")
    await oli.click_square("d7")
    words = await toast_saying(oli, "Refused: d4-d7:")
    expected = refusal(stored_state(server, match_id), "d4-d7")
    assert "BIL-15" in expected
    assert words == f"Refused: {expected}"
    assert sent == ["d4-d7"]
    assert await oli.version() == 0
    assert await page.locator(".tile.selected[data-square='d4']").count() == 1
    assert oli.errors == []
