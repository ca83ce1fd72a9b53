"""Mille Bornes in the browser: a person plays a whole hand against a bot while a spectator watches;
every WebSocket frame either page receives is exactly that page's view of the true match (rebuilt
from the server's SQLite file), so the bot's hand and the pile never reach them."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from lobby_steps import create_match, join_from_lobby, watch_from_lobby
from playwright.async_api import WebSocket
from server_process import Server
from web_helpers import PHONE, WAIT_MS, Client, OpenClient

from parlour.engine import State
from parlour.games import GAMES

pytestmark = pytest.mark.asyncio(loop_scope="session")
MILLE = GAMES["mille"]


def record_frames(client: Client) -> list[dict[str, Any]]:
    """Every JSON message the page's WebSockets receive, from now on."""
    frames: list[dict[str, Any]] = []

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    client.page.on("websocket", on_socket)
    return frames


def stored_match(server: Server, match_id: str) -> tuple[dict[str, Any], list[int]]:
    with sqlite3.connect(server.db) as db:
        players, options, seed = db.execute(
            "SELECT players, options, seed FROM matches WHERE id = ?", (match_id,)).fetchone()
        actions = [a for (a,) in db.execute(
            "SELECT action FROM events WHERE match_id = ? ORDER BY version", (match_id,))]
    return {"players": players, "options": json.loads(options), "seed": seed}, actions


def states_of(match: dict[str, Any], actions: list[int]) -> list[State]:
    """The true state after each version, from version 0 on."""
    state = MILLE.new(match["players"], match["options"], match["seed"])
    states = [state.copy()]
    for action in actions:
        state.apply(action)
        states.append(state.copy())
    return states


def check_frames(frames: list[dict[str, Any]], seat: int | None, match: dict[str, Any],
                 actions: list[int]) -> int:
    """Each view is view(seat) of the true state (MIL-57, MIL-59); each event is the action as
    ``seat`` may read it, so a card drawn by the other seat reads ``card ?``. Returns the count."""
    states = states_of(match, actions)
    checked = 0
    for frame in frames:
        if "view" not in frame:
            continue
        version = frame["version"]
        assert frame["view"] == states[version].view(seat), f"version {version}: not view({seat})"
        private = frame["view"]["content"].get("private")
        assert (private is None) if seat is None else (private["seat"] == seat)
        # An update carries its one event; only a state (connect, resync) carries the move list.
        events = [frame["event"]] if frame["type"] == "update" else frame["events"]
        for event in events:
            before = states[event["version"] - 1]
            action = actions[event["version"] - 1]
            assert event["action"] == before.action_text_for(action, seat), event
            for secret in before.hidden_from(seat):
                assert secret not in str(event["action"]), event
        checked += 1
    return checked


def first(legal: list[dict[str, Any]], kind: str, **parts: Any) -> dict[str, Any] | None:
    return next((a for a in legal if a["parts"]["kind"] == kind
                 and all(a["parts"].get(k) == v for k, v in parts.items())), None)


async def take_turn(client: Client, legal: list[dict[str, Any]]) -> str:
    """One decision by mouse, picked from the legal actions' parts: the question's buttons, the draw
    pile, or a card then its button. Returns the decision's kind."""
    page = client.page
    choice = first(legal, "extend", yes=False) or first(legal, "coup") or first(legal, "draw") \
        or first(legal, "play") or legal[-1]
    kind, text = choice["parts"]["kind"], choice["text"]
    if kind == "extend":  # MIL-48
        await page.click(f"#extend-question [data-action='{text}']")
    elif kind == "coup":  # MIL-33
        await page.click(f"#coup-offer [data-action='{text}']")
    elif kind == "draw":
        await page.click("[data-draw='true']")
    else:
        await page.click(f".hand-slot[data-card='{choice['parts']['card']}']")
        await page.click(f"#hand-actions [data-action='{text}']")
    return str(kind)


@pytest.mark.slow
async def test_a_person_plays_a_whole_hand_against_a_bot(server: Server, open_client: OpenClient) -> None:
    ann, eve = await open_client("Ann"), await open_client("Eve")
    ann_frames = record_frames(ann)
    match_id = await create_match(ann, server, game="mille", seats={0: "you", 1: "bot:random"})
    await watch_from_lobby(eve, server, match_id)
    eve_frames = record_frames(eve)
    await eve.page.reload()
    await eve.page.wait_for_selector("body[data-seat='spectator']", state="attached")
    page = ann.page
    seen: set[str] = set()
    for _ in range(400):
        await page.wait_for_function(
            "() => document.body.dataset.myTurn === 'true' || document.body.dataset.status === 'over'"
            " || (window.parlourMatch.snap?.view?.content?.match?.hand_serial ?? 1) > 1", timeout=WAIT_MS)
        snap = await ann.match_json()
        if snap["status"] == "over" or snap["view"]["content"]["match"]["hand_serial"] > 1:
            break
        version = snap["version"]
        # The opponent's hand is shown only as card backs; the page holds our seven slots.
        assert len(snap["view"]["content"]["private"]["slots"]) == 7
        assert await page.locator(".hand-slot").count() == 7
        seen.add(await take_turn(ann, snap["legal"]))
        await ann.wait_past(version)
    else:
        pytest.fail("the hand did not end within 400 decisions")
    assert {"draw", "play"} <= seen
    # The end-of-hand score table names every line (MIL-53); "Another hand" puts it away.
    await page.wait_for_selector("#mille-scores")
    for line in ("milestones", "safeties", "all_four", "coups", "trip", "safe_trip", "delayed_action",
                 "extension", "shut_out", "hand_total", "game_total"):
        assert await page.locator(f"#mille-scores tr[data-line='{line}']").count() == 1
    snap = await ann.match_json()
    totals = snap["view"]["content"]["match"]["last_hand"]["seats"][0]["game_total"]
    assert str(totals) in (await page.text_content("#mille-scores tr[data-line='game_total']") or "")
    shots = server.log.parent
    await page.screenshot(path=str(shots / "mille-scores.png"), full_page=True)
    await page.click("#another-hand")
    await page.wait_for_selector("#show-scores")
    await page.screenshot(path=str(shots / "mille-laptop.png"), full_page=True)
    await eve.page.screenshot(path=str(shots / "mille-spectator.png"), full_page=True)
    await page.set_viewport_size(PHONE)
    await page.screenshot(path=str(shots / "mille-phone.png"), full_page=True)

    match, actions = stored_match(server, match_id)
    assert check_frames(ann_frames, 0, match, actions) > 20
    assert check_frames(eve_frames, None, match, actions) > 20
    assert ann.errors == []
    assert eve.errors == []


@pytest.mark.slow
async def test_two_people_play_a_hand_and_neither_receives_the_others_hand(server: Server,
                                                                           open_client: OpenClient) -> None:
    ann, bob = await open_client("Ann"), await open_client("Bob")
    frames = [record_frames(ann), record_frames(bob)]
    match_id = await create_match(ann, server, game="mille", seats={0: "you", 1: "open"})
    await join_from_lobby(bob, server, match_id, seat=1)
    people = [ann, bob]
    for _ in range(600):
        await ann.page.wait_for_function(
            "() => { const s = window.parlourMatch.snap; return s.status === 'over'"
            " || (s.view.content.match?.hand_serial ?? 1) > 1 || [0, 1].includes(s.view.to_move); }",
            timeout=WAIT_MS)
        snap = await ann.match_json()
        if snap["status"] == "over" or snap["view"]["content"]["match"]["hand_serial"] > 1:
            break
        mover = people[snap["view"]["to_move"]]
        await mover.wait_version(snap["version"])  # its page may be behind Ann's (nothing moves meanwhile)
        await mover.wait_my_turn()
        mine = await mover.match_json()
        # The other seat's cards are drawn as backs only: no face of theirs is in this page.
        other = 1 - snap["view"]["to_move"]
        assert "private" not in str(mine["view"]["content"]["hand"]["seats"][other])
        await take_turn(mover, mine["legal"])
        await ann.wait_past(mine["version"])
    else:
        pytest.fail("the hand did not end within 600 decisions")
    for client in people:
        await client.page.wait_for_selector("#mille-scores")
    match, actions = stored_match(server, match_id)
    assert check_frames(frames[0], 0, match, actions) > 20
    assert check_frames(frames[1], 1, match, actions) > 20
    assert ann.errors == []
    assert bob.errors == []
