"""Replays on the match page (issue 15, "Replays"): a finished match of each game is stepped through
with the buttons, the arrow keys and a click on the scoresheet, and the board at three plies is the
engine's position there (the record the page offers for download, replayed with ``MatchRecord``);
the record replays to the final position; a Mille replay shows every hand only once the match is
over (a seat of a running match steps through its own views); the moves list reads like a
scoresheet; the page passes axe while a past position is shown.

Matches of bots alone are made through the API with a fixed seed (short options), watched to the end
in the browser; every wait is on a state of the page, none on time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_process import Server
from test_web_a11y import assert_accessible
from web_helpers import WAIT_MS, Client, OpenClient, bot_name

from parlour.engine import MatchRecord, State
from parlour.games import get_game

pytestmark = pytest.mark.asyncio(loop_scope="session")

SHORT = {
    "loa": {"move_limit": 40},  # LOA-16: a draw after 40 plies at the latest
    "biloba": {"quiet_limit": 20},
    "conflict": {"roll_limit": 12},  # CON-70: the game ends at the roll limit
}
"""Options that keep a game of random bots short (each game's own limit)."""

BOARD_PIECES_JS = """
() => Object.fromEntries([...document.querySelectorAll(
  '#board g.piece[data-square]:not(.ghost), #board g.cf-piece[data-square]')]
  .map(g => [g.dataset.square, g.dataset.piece]))
"""

STRAY_MARKS_JS = """
() => [...document.querySelectorAll('#moves .move-steps')].flatMap(steps => {
  const step = steps.querySelector('.move-step'), mark = step.nextSibling;
  if (!mark || !mark.textContent.trim()) return [];
  const words = document.createRange(), range = document.createRange();
  words.selectNodeContents(step);  // the words' own lines, not the box round them
  range.selectNodeContents(mark);
  const at = range.getBoundingClientRect(), last = [...words.getClientRects()].at(-1);
  const apart = Math.abs(at.left - last.right) > 6 || Math.abs(at.bottom - last.bottom) > 6;
  return apart ? [`${step.textContent}${mark.textContent}`] : [];
})
"""
"""The scoresheet's steps whose comma or colon does not sit right after their last word."""


# ---- the engine's side ----

def position_at(record: MatchRecord, ply: int) -> State:
    """The engine's state after the first ``ply`` actions of ``record``."""
    part = MatchRecord(record.game, record.players, record.options, record.seed, record.start,
                       record.actions[:ply])
    return part.replay(get_game(record.game))


LOA_PIECES = {"b": "black", "w": "white"}
BILOBA_PIECES = {"O": "orange", "B": "blue", "R": "red", "G": "green"}


def pieces_of(state: State) -> dict[str, str]:
    """{square: piece} as the boards mark them (data-square, data-piece), from ``position_json``."""
    position = state.position_json()
    game = state.game.info.name
    if game == "conflict":
        return {entry.split()[1]: entry.split()[0] for entry in position["pieces"]}
    out: dict[str, str] = {}
    for i, row in enumerate(position["board"]):
        for col, letter in enumerate(row):
            if game == "loa" and letter in LOA_PIECES:  # rows from 8 down
                out[f"{'abcdefgh'[col]}{8 - i}"] = LOA_PIECES[letter]
            if game == "biloba" and letter in BILOBA_PIECES:  # rows from 1 up
                out[f"{'abcdefghi'[col]}{i + 1}"] = BILOBA_PIECES[letter]
    return out


def hands_of(state: State) -> list[list[str | None]]:
    """Each seat's hand (Mille): its slots in order, an empty one null."""
    return [list(seat["slots"]) for seat in state.position_json()["hand"]["seats"]]


# ---- the page's side ----

async def open_match(client: Client, server: Server, match_id: str, token: str | None = None) -> None:
    page = client.page
    if token:
        await page.goto(server.base + "/")
        await page.evaluate("([id, t]) => localStorage.setItem('parlour.token.' + id, t)", [match_id, token])
    await page.goto(f"{server.base}/match/{match_id}")
    await page.wait_for_selector("body[data-version]", state="attached")


async def watch_to_end(client: Client) -> dict[str, Any]:
    await client.page.wait_for_selector("body[data-status='over']", state="attached", timeout=60_000)
    return await client.match_json()


async def shown(client: Client, version: int) -> None:
    """Until the page shows version ``version`` of the match on its board (a step of the replay)."""
    await client.page.wait_for_selector(f"#board[data-version='{version}']", state="attached",
                                        timeout=WAIT_MS)
    assert await client.page.get_attribute("#replay-bar", "data-at") == str(version)


async def board_pieces(client: Client) -> dict[str, str]:
    pieces: dict[str, str] = await client.page.evaluate(BOARD_PIECES_JS)
    return pieces


async def download_record(client: Client, tmp_path: Path) -> MatchRecord:
    """The record behind the result card's download link, as the browser saves it."""
    async with client.page.expect_download() as info:
        await client.page.click("#download-record")
    download = await info.value
    saved = tmp_path / download.suggested_filename
    await download.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["seed"] == 0  # the server's secret stays on the server
    return MatchRecord.from_json(data)


async def step_view(client: Client, version: int) -> dict[str, Any]:
    """The view the replay drew version ``version`` from."""
    view: dict[str, Any] = await client.page.evaluate(
        "v => window.parlourMatch.replay.steps.get(v).view", version)
    return view


async def scoresheet_rows(client: Client) -> list[str]:
    """The moves list as it reads: "12. Ann draws, plays 100"."""
    rows: list[str] = await client.page.eval_on_selector_all(
        "#moves li",
        "lis => lis.map(li => [...li.querySelectorAll('.n, .move')].map(e => e.textContent).join(' '))")
    return [" ".join(row.split()) for row in rows]


def no_errors(client: Client) -> None:
    assert client.errors == [], f"{client.name}'s console: {client.errors}"


# ---- the tests ----

@pytest.mark.parametrize(("game", "seed"), [("loa", 11), ("biloba", 1), ("conflict", 5)])
async def test_a_finished_match_steps_through_the_engines_positions(
    server: Server, open_client: OpenClient, tmp_path: Path, game: str, seed: int,
) -> None:
    """Issue 15: any finished match opens in a replay view: first, back, forward, last; arrow keys;
    a click on a move; the board shows that position with its last move marked."""
    created = server.create(game=game, seats=["bot:random", "bot:random"], bot_seconds=0.01, seed=seed,
                            options=SHORT[game])
    match_id = created["match"]["id"]
    eve = await open_client("Eve")
    await open_match(eve, server, match_id)
    final = await watch_to_end(eve)
    last = final["version"]
    assert last >= 6, f"a game of {last} actions is too short to step through"

    # The record download replays to the final position, the one on the board.
    record = await download_record(eve, tmp_path)
    assert len(record.actions) == last
    assert await board_pieces(eve) == pieces_of(position_at(record, last))

    # Home and End are the page's own (scrolling) with the focus elsewhere: the replay stays live.
    # The page's key handlers step at once (the board follows), so a step would show here already.
    await eve.page.evaluate("document.activeElement?.blur()")
    await eve.page.keyboard.press("Home")
    assert await eve.page.get_attribute("body", "data-replay") == "live"
    # Home from the moves list: the start; Right: one action on; a click on a move: that position.
    await eve.page.focus("#moves")
    await eve.page.keyboard.press("Home")
    await shown(eve, 0)
    assert await board_pieces(eve) == pieces_of(position_at(record, 0))
    await eve.page.keyboard.press("ArrowRight")
    await shown(eve, 1)
    assert await board_pieces(eve) == pieces_of(position_at(record, 1))
    await eve.page.screenshot(path=str(tmp_path / f"{game}-ply-1.png"))
    # A seat's move half-way (not a roll of Conflict's dice, which moves nothing to mark).
    events = await eve.page.evaluate("window.parlourMatch.moves")
    middle = next(e["version"] for e in events if e["version"] >= last // 2 and isinstance(e["seat"], int)
                  and (game != "conflict" or ":" in e["action"]))
    await eve.page.click(f"#moves [data-step='{middle}']")
    await shown(eve, middle)
    assert await board_pieces(eve) == pieces_of(position_at(record, middle))
    # The step shown is the one marked in the scoresheet, and the last move is marked on the board.
    assert await eve.page.get_attribute("#moves [aria-current='step']", "data-step") == str(middle)
    assert await eve.page.locator("#board .last, #board .cf-last, #board .last-arrow").count() > 0
    await eve.page.keyboard.press("ArrowLeft")
    await shown(eve, middle - 1)
    assert await board_pieces(eve) == pieces_of(position_at(record, middle - 1))
    # The mark follows the step, also within one turn's row (Conflict's roll and moves share one).
    assert await eve.page.get_attribute("#moves [aria-current='step']", "data-step") == str(middle - 1)
    await eve.page.screenshot(path=str(tmp_path / f"{game}-replay.png"), full_page=True)
    await assert_accessible(eve, f"a {game} replay at move {middle - 1}")

    # The buttons: back one, forward one, last (the final position again, live).
    await eve.page.click("#replay-back")
    await shown(eve, middle - 2)
    assert await eve.page.get_attribute("#moves [aria-current='step']", "data-step") == str(middle - 2)
    await eve.page.click("#replay-forward")
    await shown(eve, middle - 1)
    assert await eve.page.get_attribute("#moves [aria-current='step']", "data-step") == str(middle - 1)
    await eve.page.click("#replay-last")
    await eve.page.wait_for_selector("body[data-replay='live']", state="attached")
    assert await board_pieces(eve) == pieces_of(position_at(record, last))
    await eve.page.click("#replay-first")
    await shown(eve, 0)
    await eve.page.keyboard.press("End")
    await eve.page.wait_for_selector("body[data-replay='live']", state="attached")

    # The scoresheet: turn numbers from 1, the people by name, Conflict's roll leading its moves.
    rows = await scoresheet_rows(eve)
    assert rows[0].startswith(f"1. {bot_name(game, 'random', 0.01)}"), rows[:2]
    turns = [int(row.split(".", 1)[0]) for row in rows]
    assert turns == sorted(turns)
    assert turns[0] == 1
    if game == "conflict":
        assert any(" rolls " in row and ": " in row.split(" rolls ", 1)[1] for row in rows), rows[:6]
        assert not any(row.split(". ", 1)[1].startswith("Chance") for row in rows), rows[:6]
    # However narrow the list, a step's comma or colon follows its last word, on its line.
    await eve.page.add_style_tag(content="#moves { width: 9rem !important; }")
    assert await eve.page.evaluate(STRAY_MARKS_JS) == []
    no_errors(eve)


async def test_mille_shows_every_hand_only_after_the_end(
    server: Server, open_client: OpenClient, tmp_path: Path,
) -> None:
    """Issue 15: a seat in a running match of a hidden-information game steps through its own views
    only; once the match is over its whole record is public (all hands shown). The scoresheet folds
    Mille's draws into the play that follows."""
    created = server.create(game="mille", seats=["open", "bot:random"], bot_seconds=0.01, join=0, name="Ann")
    match_id, token = created["match"]["id"], created["token"]
    ann = await open_client("Ann")
    await open_match(ann, server, match_id, token)

    # Ann plays three turns (the first legal action each time: a draw, then a card).
    for _ in range(6):
        await ann.wait_my_turn()
        snap = await ann.match_json()
        await ann.page.evaluate("t => window.parlourMatch.play(t)", snap["legal"][0]["text"])
        await ann.wait_past(snap["version"])
    running = await ann.match_json()
    assert running["status"] == "running"

    # Stepping back in the running match: Ann's own views (her hand, never the bot's).
    seen: dict[int, list[str]] = {}
    for ply in (14, 20, running["version"] - 1):
        await goto_step(ann, ply)
        await shown(ann, ply)
        view = await step_view(ann, ply)
        assert view["seat"] == 0
        assert "hands" not in view["content"], "a running match's replay shows a hand not Ann's own"
        assert await ann.page.locator(".open-hand").count() == 0
        seen[ply] = await ann.page.eval_on_selector_all(
            ".hand-slot[data-card]", "els => els.map(e => e.dataset.card)")
    await ann.page.screenshot(path=str(tmp_path / "mille-running-replay.png"), full_page=True)

    # A spectator of the running match steps through spectators' views: no hand at all.
    eve = await open_client("Eve")
    await open_match(eve, server, match_id)
    await goto_step(eve, 14)
    await shown(eve, 14)
    view = await step_view(eve, 14)
    assert view["seat"] is None
    assert "hands" not in view["content"]
    assert "private" not in view["content"]
    assert await eve.page.locator(".hand-slot[data-card]").count() == 0
    no_errors(eve)
    await ann.page.click("#replay-last")
    await ann.page.wait_for_selector("body[data-replay='live']", state="attached")

    # Ann resigns: the match is over, and its replay shows every hand.
    await ann.page.click("#resign")
    await ann.page.click("#confirm-yes")
    final = await watch_to_end(ann)
    record = await download_record(ann, tmp_path)
    assert len(record.actions) == final["version"]
    # The end itself shows every hand, card for card the engine's.
    await ann.page.wait_for_selector(".open-hand[data-hand='1'] .hand-slot[data-card]", state="attached")
    end = hands_of(position_at(record, final["version"]))
    for seat in (0, 1):
        drawn = await ann.page.eval_on_selector_all(
            f".open-hand[data-hand='{seat}'] .hand-slot[data-card]", "els => els.map(e => e.dataset.card)")
        assert drawn == [card for card in end[seat] if card], f"seat {seat}'s hand at the end"
    for ply, cards in seen.items():
        held = [card for card in hands_of(position_at(record, ply))[0] if card]
        assert cards == held, f"Ann's hand at ply {ply}"
    for ply in seen:
        await goto_step(ann, ply)  # a draw and its card are one phrase: the keys reach every version
        await shown(ann, ply)
        view = await step_view(ann, ply)
        hands = hands_of(position_at(record, ply))
        assert view["content"]["hands"] == hands, f"the hands at ply {ply}"
        for seat in (0, 1):  # and on the table, face up
            drawn = await ann.page.eval_on_selector_all(
                f".open-hand[data-hand='{seat}'] .hand-slot[data-card]",
                "els => els.map(e => e.dataset.card)")
            assert drawn == [card for card in hands[seat] if card], f"seat {seat}'s hand at ply {ply}"
    await ann.page.screenshot(path=str(tmp_path / "mille-finished-replay.png"), full_page=True)

    # The scoresheet: the deal, then each turn's draw folded into the play after it.
    rows = await scoresheet_rows(ann)
    assert rows[0].startswith("1. Cards dealt"), rows[:3]
    assert any("Ann draws" in row and ("plays" in row or "discards" in row) for row in rows), rows[:6]
    assert not any("card ?" in row or "Chance" in row for row in rows), rows[:6]
    await assert_accessible(ann, "a finished Mille match's replay")
    no_errors(ann)


async def goto_step(client: Client, version: int) -> None:
    """Steps with the keys from the start to ``version`` (a version folded into a phrase has no button
    of its own), from the moves list: on one's own turn the keys step the replay only from there."""
    await client.page.focus("#moves")
    await client.page.keyboard.press("Home")
    await shown(client, 0)
    for _ in range(version):
        await client.page.keyboard.press("ArrowRight")


async def test_escape_cancels_a_drawn_path_and_enter_confirms_it(
    server: Server, open_client: OpenClient,
) -> None:
    """Issue 15, keyboard: Escape cancels a selection, Enter confirms. On Conflict's board a piece is
    picked and its path drawn (CON-68); Escape drops it; drawn again, Enter moves it with its die
    (with no control focused, and on the path's last square)."""
    created = server.create(game="conflict", seats=["open", "bot:random"], bot_seconds=0.01, join=0,
                            name="Ann")
    ann = await open_client("Ann")
    await open_match(ann, server, created["match"]["id"], created["token"])
    page = ann.page
    await ann.wait_my_turn()
    snap = await ann.match_json()
    action = next(a for a in snap["legal"] if a["parts"]["kind"] in ("move", "enter"))

    async def draw_path(parts: dict[str, Any]) -> None:
        if parts["kind"] == "enter":
            await page.click(f"[data-available='{parts['piece']}']")
        else:
            await ann.click_square(parts["from"])
        for square in parts["path"]:
            await ann.click_square(square)
            await page.wait_for_selector(f"[data-path='{square}']", state="attached")

    await draw_path(action["parts"])
    await page.keyboard.press("Escape")
    await page.wait_for_selector("#cf-pick", state="detached")
    assert await page.locator("[data-path]").count() == 0
    assert await ann.version() == snap["version"]  # nothing was played

    await draw_path(action["parts"])
    await page.evaluate("document.activeElement?.blur()")  # Enter on no control: the board's confirmation
    await page.keyboard.press("Enter")
    await ann.wait_past(snap["version"])
    moves = await page.evaluate("window.parlourMatch.moves")
    assert moves[snap["version"]]["action"] == action["text"]

    # The next piece of the roll (or of Ann's next roll): Enter on the square the path ends on.
    while True:
        await ann.wait_my_turn()
        snap = await ann.match_json()
        pieces = [a for a in snap["legal"] if a["parts"]["kind"] in ("move", "enter")]
        if pieces:
            break
        await page.click("[data-action='end']")  # nothing left to move this roll
        await ann.wait_past(snap["version"])
    action = pieces[0]
    await draw_path(action["parts"])
    assert await page.evaluate("document.activeElement?.dataset.hit") == action["parts"]["to"]
    await page.keyboard.press("Enter")
    await ann.wait_past(snap["version"])
    moves = await page.evaluate("window.parlourMatch.moves")
    assert moves[snap["version"]]["action"] == action["text"]
    no_errors(ann)


SCORESHEET_JS = """async (events) => {
  const { scoresheet, rowPhrases } = await import('/static/js/scoresheet.js');
  const words = (sheet) => sheet.rows.map((row) => [row.turn, row.seat,
    row.runs.map((run) => run.leaving ? `left:${run.seat}`
      : rowPhrases({ runs: [run] }).map((p) => p.text).join(' '))]);
  const whole = scoresheet(null, events);
  // Folded one event at a time, as updates come: the rows before the last are the same objects.
  let step = scoresheet(null, events.slice(0, 1));
  const kept = [];
  for (let n = 2; n <= events.length; n += 1) {
    const next = scoresheet(null, events.slice(0, n), step);
    kept.push(step.rows.slice(0, -1).every((row, i) => next.rows[i] === row));
    step = next;
  }
  return { whole: words(whole), stepwise: words(step), kept };
}"""


async def test_a_seat_leaving_mid_turn_keeps_one_row_per_turn_number(server: Server,
                                                                     open_client: OpenClient) -> None:
    """A seat resigning in the middle of another seat's turn (three players) is said in that turn's
    row: one row a turn number, the turn's moves on either side of it."""
    eve = await open_client("Eve")
    await eve.page.goto(server.base + "/")
    events = [
        {"version": 1, "seat": 0, "action": "a1-a2", "turn": 1},
        {"version": 2, "seat": 1, "action": "b1-b2", "turn": 2},
        {"version": 3, "seat": 1, "action": "b2-b3", "turn": 2},
        {"version": 4, "seat": 2, "action": "Green resigned", "turn": 2,
         "leaving": {"kind": "retire", "seat": 2}},
        {"version": 5, "seat": 1, "action": "b3-b4", "turn": 2},
        {"version": 6, "seat": 0, "action": "a2-a3", "turn": 3},
    ]
    folded = await eve.page.evaluate(SCORESHEET_JS, events)
    assert folded["whole"] == [
        [1, 0, ["a1-a2"]],
        [2, 1, ["b1-b2 b2-b3", "left:2", "b3-b4"]],
        [3, 0, ["a2-a3"]],
    ]
    assert folded["stepwise"] == folded["whole"]
    assert all(folded["kept"]), folded["kept"]  # an update folds the last turn again, not the match
    no_errors(eve)
