"""The classic program's screen (MIL-82 to MIL-86): the spec's two screens, drawn by the program
from positions reached through its keys, and nothing on it that seat 0 may not see."""

from __future__ import annotations

import random

import pytest
from mille_pilot import Scripted, app_for, lines, mille_app, position, press, settle

from parlour.games.mille import MilleState
from parlour.games.mille.cards import NAMES, TOKENS, parse_card
from parlour.tui.mille import screen

pytestmark = pytest.mark.asyncio(loop_scope="session")


def rows(text: str) -> list[str]:
    """A literal screen of the spec: its 24 rows, trailing spaces removed."""
    found = text.splitlines()
    return found + [""] * (screen.HEIGHT - len(found))


# MIL-82 Screen A: rows 0-23, trailing spaces removed.
SCREEN_A = rows("""\
                      Extra Tank        |                     You   Comp   Value
                                        | Milestones Played   275   350
* Driving Ace                           |       Each Safety   100   100      100
                                        |    All 4 Safeties     0     0      300
                                        |  Each Coup Fourre   300     0      300
--HAND--            --DECK--            |                    ----   ----   -----
P Spare Tire          62                |        Hand Total   675   450
1 50                --DISCARD--         |                   -----  -----
2 Go                  Spare Tire        |     Overall Total  2140  1985
3 Stop                                  |              Games    0     1
4 100               >>:Move: UP         |
5 Gasoline          PLAY                | p: pick            q: quit
6 75                       Flat Tire    | u: use #           o: order hand
--BATTLE--          --BATTLE--          | d: discard #       s: save
  Flat Tire           Go                | w: toggle window   r: reprint
--SPEED--           --SPEED--           |    cannot move now
                      End of Limit      |_______________________________________
--MILEAGE--                              --MILEAGE--
25
50                                      50

100 100                                 100 100 100
""")

# MIL-82 Screen B.
SCREEN_B = rows("""\
                      Extra Tank        |                     You   Comp   Value
                                        | Milestones Played   700  1000
  Driving Ace                           |       Each Safety   100   200      100
                    * Right of Way      |    All 4 Safeties     0     0      300
         Extension                      |  Each Coup Fourre     0   300      300
--HAND--            --DECK--            |    Trip Completed     0   400      400
P                     14                |         Safe Trip     0     0      300
1 Gasoline          --DISCARD--         |    Delayed Action     0     0      300
2 25                  Gasoline          |         Extension     0   200      200
3 Go                                    |          Shut-Out     0     0      500
4 Spare Tire        Another hand?       |                    ----   ----   -----
5 75                PLAY                |        Hand Total   800  2100
6 Repairs                        100    |                   -----  -----
--BATTLE--          --BATTLE--          |     Overall Total  3150  4480
  Stop                                  |              Games    1     0
--SPEED--           --SPEED--           |
  Speed Limit                           |_______________________________________
--MILEAGE--                              --MILEAGE--
                                        25  25
50  50  50                              50  50
75  75                                  75  75
100 100 100 100                         100 100 100 100 100
                                        200
""")


def screen_a_position() -> MilleState:
    """Before Screen A: you have drawn a Spare Tire; Comp has just played a Flat Tire on you."""
    return position(
        {"slots": ["spare-tire", "50", "go", "stop", "100", "gasoline", "75"],
         "battle": "flat-tire", "battle_pile": ["go", "accident", "flat-tire"],
         "safeties": [{"card": "driving-ace", "coup": True}],
         "miles": {"25": 1, "50": 1, "100": 2}, "coup_window": "flat-tire"},
        {"cards": ["25", "25", "75", "200", "go", "repairs"], "battle": "go", "battle_pile": ["go"],
         "speed": "end-of-limit", "speed_pile": ["speed-limit", "end-of-limit"],
         "safeties": ["extra-tank"], "miles": {"50": 1, "100": 3}},
        match={"totals": [2140, 1985], "games_won": [0, 1]},
        phase="decision", step="play", to_act=0, drawn=True, pile=62, discards=["spare-tire"],
        events=[{"event": "deal", "hand_serial": 1, "starter": 0},
                {"event": "play", "seat": 1, "card": "flat-tire", "coup": False, "points": 0}],
    )


async def test_screen_a_during_a_hand() -> None:
    """MIL-82 Screen A: U1 refused with `cannot move now`, then U and P typed."""
    app = app_for(screen_a_position())
    async with app.run_test() as pilot:
        await pilot.press("u", "1", "enter", "u", "p")  # Textual's own Pilot, key by key
        await settle(pilot)
        assert lines(pilot) == SCREEN_A
        assert app.canvas.reverse == [(10, 20, 8)]  # >>:Move: in reverse video
        assert app.bells == 1
        # What Textual draws is that text.
        rendered = [app.board.render_line(y).text.rstrip() for y in range(24)]
        assert rendered == SCREEN_A


async def test_screen_b_at_the_end_of_a_hand() -> None:
    """MIL-82 Screen B: Comp completes 1000 miles after an extension; the full window shows
    the hand's bonuses and the prompt asks `Another hand?` (MIL-84, MIL-93)."""
    state = position(
        {"slots": [None, "gasoline", "25", "go", "spare-tire", "75", "repairs"],
         "battle": "stop", "battle_pile": ["go", "stop"], "speed": "speed-limit",
         "speed_pile": ["speed-limit"], "safeties": ["driving-ace"],
         "miles": {"50": 3, "75": 2, "100": 4}},
        {"cards": ["100", "25", "go", "stop", "50", "gasoline"], "safeties": [
            "extra-tank", {"card": "right-of-way", "coup": True}],
         "miles": {"25": 2, "50": 2, "75": 2, "100": 4, "200": 1}},
        match={"totals": [3150, 3780], "games_won": [1, 0], "hand_serial": 4},
        phase="decision", step="draw", to_act=1, goal=1000, pile=15, discards=["gasoline"],
    )
    app = app_for(state, bot=Scripted("draw", "play 100"))
    async with app.run_test() as pilot:
        await press(pilot)
        assert lines(pilot) == SCREEN_B
        assert (4, 9, 9) in app.canvas.reverse  # Extension in reverse video


async def test_the_screen_shows_only_what_seat_0_may_see() -> None:
    """Redealing every card hidden from seat 0 (Comp's hand, the pile) changes nothing on it."""
    app = app_for(seed=11)
    async with app.run_test() as pilot:
        await press(pilot, "p")
        state = mille_app(pilot).state
        shown = screen.draw(state.view(0), app.shown_prompt(), app.message, "small").lines()
        for seed in range(5):
            other = state.redeal(0, random.Random(seed))
            assert other.slots[1] != state.slots[1] or other.pile != state.pile
            assert screen.draw(other.view(0), app.shown_prompt(), app.message, "small").lines() == shown
        with pytest.raises(ValueError, match="seat 0's view"):
            screen.draw(state.view(1), app.shown_prompt(), "", "small")


def hand_shown(pilot_lines: list[str]) -> list[str | None]:
    """Your hand as rows 6–12 show it (MIL-83), as tokens."""
    tokens = {name: TOKENS[kind] for kind, name in enumerate(NAMES)}
    return [tokens.get(line[2:20].rstrip()) for line in pilot_lines[6:13]]


def in_order(cards: list[str | None]) -> bool:
    held = [card for card in cards if card is not None]
    return held == sorted(held, key=parse_card) and cards[:7 - len(held)] == [None] * (7 - len(held))


async def test_window_toggle_and_ordering_line() -> None:
    """MIL-85, MIL-87: W switches the score window; O switches ordering and the line 12 text.
    MIL-16.4, MIL-17: ordering is how the program shows your hand — sorted at once, a drawn card
    left in P until your next decision — and never an entry of the record."""
    app = app_for(seed=3)
    async with app.run_test() as pilot:
        assert lines(pilot)[12][61:] == "o: order hand"
        await press(pilot, "w")
        assert lines(pilot)[5][45:59] == "Trip Completed"
        assert lines(pilot)[11][49:59] == "Hand Total"
        await press(pilot, "W")
        assert lines(pilot)[11][42:49] == "p: pick"
        record, rules_slots = app.state.record_lines(), list(app.state.slots[0])
        await press(pilot, "o")
        assert lines(pilot)[12][61:] == "o: stop ordering"
        assert app.match.ordering
        rules_view = app.state.view(0)["content"]["private"]["slots"]
        assert in_order(hand_shown(lines(pilot)))
        assert not in_order(rules_view)
        assert app.state.record_lines() == record
        assert app.state.slots[0] == rules_slots
        await press(pilot, "p")
        shown = hand_shown(lines(pilot))
        assert shown[0] is not None
        assert in_order([None, *shown[1:]])
        await press(pilot, "d", "1", "enter")  # the card shown in slot 1 leaves
        assert in_order(hand_shown(lines(pilot))) or app.state.to_move() != 0
        await press(pilot, "O")
        assert lines(pilot)[12][61:] == "o: order hand"
        assert not app.match.ordering
        assert hand_shown(lines(pilot)) == app.state.view(0)["content"]["private"]["slots"]
        assert not any("order" in line for line in app.state.record_lines())


async def test_a_small_terminal_waits() -> None:
    """MIL-80: below 80 × 24 only the notice shows, and keys wait for a large enough terminal."""
    app = app_for(seed=3)
    async with app.run_test(size=(79, 24)) as pilot:
        await press(pilot)
        assert lines(pilot)[0] == screen.TOO_SMALL
        await press(pilot, "p")
        assert app.state.view(0)["content"]["hand"]["pile_size"] == 89  # the key did nothing
        await pilot.resize_terminal(80, 24)
        await press(pilot)
        assert lines(pilot)[5].startswith("--HAND--")
        await press(pilot, "p")
        assert app.state.view(0)["content"]["hand"]["pile_size"] == 88
