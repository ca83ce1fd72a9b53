"""Playing the classic program through its keys (MIL-81, MIL-87, MIL-88, MIL-90, MIL-91, MIL-93,
MIL-94): a whole hand, the questions, quitting, the next hand and the next game."""

from __future__ import annotations

import threading

import pytest
from mille_pilot import (
    Scripted,
    app_for,
    kinds,
    lines,
    message,
    play_until_asked,
    position,
    press,
    prompt,
    settle,
)

from parlour.bots import seen_by
from parlour.engine import Action, State
from parlour.games.mille import MilleState
from parlour.games.mille.cards import TOKENS
from parlour.tui.mille.match import Match, bot_seed_for, default_bot

pytestmark = pytest.mark.asyncio(loop_scope="session")

@pytest.mark.parametrize("kind", kinds("random", "classic", "strong"))
async def test_a_whole_hand_through_the_keys(kind: str) -> None:
    """From the deal to `Another hand?`, then the next hand (MIL-93), against each kind of Comp."""
    app = app_for(seed=5, kind=kind)
    async with app.run_test() as pilot:
        asked = await play_until_asked(pilot)
        while asked == "Extension?":
            await press(pilot, "n")
            asked = await play_until_asked(pilot)
        assert asked == "Another hand?"
        state = app.state
        assert state.stale
        score = state.last_hand
        assert score is not None
        screen = lines(pilot)
        # The full window with the hand's bonuses, whatever the window chosen (MIL-85).
        assert screen[5][45:59] == "Trip Completed"
        for seat, column in ((0, 61), (1, 67)):
            assert int(screen[11][column:column + 4]) == score.hand_totals[seat]
            assert int(screen[13][column:column + 4]) == score.game_totals[seat]
            assert int(screen[5][column:column + 4]) == score.lines[seat][4]
        assert any(line.startswith("0: play") for line in state.record_lines())
        if kind == "classic":  # Comp's cards leave from the slots it names (MIL-106 step 9)
            assert any(line.startswith("1: ") and " @" in line for line in state.record_lines())
        await press(pilot, "y")
        assert state.hand_serial == 2
        assert not state.stale
        assert lines(pilot)[5][42:] == "                   ----   ----   -----"  # small window again
        assert "Comp" not in "".join(lines(pilot)[11:13]) or state.events[-1].seat == 1


async def test_comp_decides_from_its_view_only() -> None:
    """MIL-81, MIL-100: Comp is given states sampled from its own view, never the true one."""
    bot = Scripted()
    app = app_for(seed=8, bot=bot)
    async with app.run_test() as pilot:
        await press(pilot, "p")
        await press(pilot, "d", "1", "enter")
        assert bot.shown
        for seen in bot.shown:
            assert isinstance(seen, MilleState)
            assert seen is not app.state
            assert seen.history == []
        assert app.state.to_move() == 0


async def test_the_default_bot_is_the_strongest_offered() -> None:
    match = Match.new(seed=1)
    assert match.bot_kind == default_bot()
    assert match.bot_seed == bot_seed_for(1)
    seen = seen_by(match.state, 1, match.bot.rng)
    assert isinstance(seen, MilleState)


async def test_quitting() -> None:
    """MIL-91: Q, Delete and Ctrl-C ask `Really?`; N goes back, Y ends with status 0."""
    app = app_for(seed=2)
    async with app.run_test() as pilot:
        for key in ("q", "Q", "delete", "ctrl+c"):
            await press(pilot, key)
            assert prompt(pilot) == "Really?"
            await press(pilot, "x")
            assert prompt(pilot) == "Really? x"
            await press(pilot, "n")
            assert prompt(pilot) == ">>:Move:"
        await press(pilot, "u", "ctrl+c")
        assert prompt(pilot) == "Really?"
        await press(pilot, "N")
        assert prompt(pilot) == ">>:Move:"  # the half-typed command is gone
        await press(pilot, "q", "y")
    assert app.return_code == 0
    assert app.bells == 4


async def test_ignored_and_redraw_keys() -> None:
    """MIL-87: RETURN, SPACE, NUL, Backspace, Ctrl-U do nothing; R and Ctrl-L redraw."""
    app = app_for(seed=2)
    async with app.run_test() as pilot:
        before = lines(pilot)
        await press(pilot, "enter", "space", "ctrl+@", "backspace", "ctrl+u", "r", "R", "ctrl+l")
        assert lines(pilot) == before
        assert app.bells == 0


async def test_choosing_a_slot() -> None:
    """MIL-88: the slot is echoed; Backspace takes it back; Ctrl-U cancels; other keys ring."""
    app = app_for(seed=4)
    async with app.run_test() as pilot:
        await press(pilot, "p", "u")
        assert prompt(pilot) == ">>:Move: U"
        await press(pilot, "space", "enter", "x", "7")
        assert prompt(pilot) == ">>:Move: U"
        assert app.bells == 2
        await press(pilot, "0")
        assert prompt(pilot) == ">>:Move: UP"
        await press(pilot, "q")
        assert prompt(pilot) == ">>:Move: UP"
        assert app.bells == 3
        await press(pilot, "backspace")
        assert prompt(pilot) == ">>:Move: U"
        await press(pilot, "3", "ctrl+u")
        assert prompt(pilot) == ">>:Move:"
        await press(pilot, "d", "backspace")
        assert prompt(pilot) == ">>:Move:"
        history = len(app.state.history)
        card = app.state.view(0)["content"]["private"]["slots"][2]
        await press(pilot, "D", "2", "enter")
        assert app.state.record_lines()[history] == f"0: discard {card} @2"


async def test_your_extension() -> None:
    """MIL-94: reaching 700 shows the card played, then asks `Extension?`; Y extends."""
    state = position({"cards": ["50", "25", "go", "stop", "gasoline", "75", "100"], "battle": "go",
                      "miles": {"100": 4, "200": 1, "50": 1, "25": 1}},
                     {"cards": ["25", "50", "75", "100", "go", "repairs"]}, drawn=True)
    app = app_for(state)
    async with app.run_test() as pilot:
        await press(pilot, "u", "1", "enter")  # 675 + 25
        assert prompt(pilot) == "Extension?"
        assert lines(pilot)[1][61:65] == " 700"
        assert lines(pilot)[18].startswith("25")
        assert lines(pilot)[6][:20] == "P".ljust(20)
        assert lines(pilot)[7][:4] == "1 50"
        await press(pilot, "k")
        assert prompt(pilot) == "Extension? k"
        assert app.bells == 1
        await press(pilot, "Y")
        assert app.state.goal == 1000
        assert lines(pilot)[4][9:18] == "Extension"


async def test_the_next_game() -> None:
    """MIL-55, MIL-56, MIL-93: a game over asks `Another game?`; Y starts the next one with the
    games-won count already raised (D-16); N, then N to `Save game?`, ends the program."""
    def near_the_end() -> MilleState:
        return position({"cards": ["50", "25", "go", "stop", "gasoline", "75", "100"], "battle": "go",
                         "miles": {"100": 4, "200": 1, "50": 1, "25": 1}},
                        {"cards": ["25", "50", "75", "100", "go", "repairs"]},
                        match={"totals": [4400, 1200]}, drawn=True)

    app = app_for(near_the_end())
    async with app.run_test() as pilot:
        await press(pilot, "u", "1", "enter", "n")
        assert prompt(pilot) == "Another game?"
        assert lines(pilot)[14][55:] == "Games    1     0"
        await press(pilot, "y")
        assert app.state.game_no == 2
        assert app.state.game_total == [0, 0]
        assert app.state.games_won == [1, 0]
        assert app.state.hand_serial == 2  # the alternation goes on (MIL-13): Comp starts
        # MIL-56, MIL-66: the next game is a new state; the match keeps the first one's record
        earlier = app.match.earlier
        assert earlier == ["0: play 25 @1", "0: extend no", "new_game"]
        assert app.match.record()[:len(earlier)] == earlier
    app = app_for(near_the_end())
    async with app.run_test() as pilot:
        await press(pilot, "u", "1", "enter", "n", "n")
        assert prompt(pilot) == "Save game?"
        await press(pilot, "z")
        assert prompt(pilot) == "Save game? z"
        await press(pilot, "n")
    assert app.return_code == 0


async def test_comps_moves_are_shown() -> None:
    """MIL-83 rows 11-12: Comp's last play or discard; MIL-89: Comp's move clears the message."""
    state = position({"cards": ["25", "50", "go", "stop", "gasoline", "75", "100"]},
                     {"cards": ["25", "50", "75", "100", "go", "repairs"]}, drawn=True)
    app = app_for(state, bot=Scripted("draw", "play go"))
    async with app.run_test() as pilot:
        await press(pilot, "u", "1", "enter")
        assert message(pilot) == "cannot move now"
        await press(pilot, "u", "2", "enter")  # your Go
        assert message(pilot) == ""
        assert lines(pilot)[11][20:24] == "PLAY"
        assert lines(pilot)[12][20:36] == f"{'Go':>16}"
        assert lines(pilot)[14][:40] == "  Go".ljust(20) + "  Go".ljust(20)
        assert TOKENS[app.state.battle[1]] == "go"


class Slow(Scripted):
    """Comp thinking until the test lets it answer."""

    def __init__(self) -> None:
        super().__init__()
        self.go_on = threading.Event()

    def choose(self, state: State, seconds: float) -> Action:
        self.go_on.wait(timeout=30)
        return super().choose(state, seconds)


async def test_keys_typed_while_comp_thinks_wait_their_turn() -> None:
    """MIL-81: Comp's decisions take the time they take; what you type meanwhile is read after,
    in order, as a terminal's type-ahead would be."""
    bot = Slow()
    app = app_for(seed=8, bot=bot)
    async with app.run_test() as pilot:
        await press(pilot, "p")
        await pilot.press("d", "1", "enter", "p", "u")  # Comp starts thinking after the Enter
        assert app.busy
        assert list(app.pending) == ["p", "u"]
        assert prompt(pilot) == ""  # no prompt while Comp moves
        bot.go_on.set()
        await settle(pilot)
        assert not app.busy
        assert not app.pending
        assert prompt(pilot) == ">>:Move: U"
        assert app.state.record_lines()[-2] == "0: draw"
