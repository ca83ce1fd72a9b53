"""The Conflict board in a terminal (issue 18, "Boards"): a roll using both dice by keys, the
numbered choice of piece and die, a bigger map scrolled with the cursor in view, 80×24."""

from __future__ import annotations

import pytest
from board_pilot import arrows_to, board_app, board_app_on, check_snapshot, pick_by_keys, press, settle

from parlour.games import get_game
from parlour.tui.board.widgets import Choices

pytestmark = pytest.mark.asyncio(loop_scope="session")

AGAINST_RANDOM = ("conflict", "--seed", "3", "--seat", "1=bot:random", "--time", "0.01")


async def test_the_first_roll_at_80_by_24() -> None:
    # CON-67: the dice, the rows of available and reserve pieces, the bases and mines by seat.
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = "\n".join(app.screen_lines())
        assert "Dice: [2] [6]" in text
        assert "Red rolls 2-6" in text
        check_snapshot("conflict_start", app.screen_lines())


async def test_a_roll_using_both_dice_by_keys() -> None:
    # Issue 18, Tests: "a Conflict roll with both dice". CON-36: an available piece enters from
    # the base; CON-63: which piece and die, when several reach the square, by number.
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, *arrows_to(app, "e5"), "enter")
        await press(pilot, *arrows_to(app, "c3"), "enter")
        labels = [app.drawing.label(o.text, o.parts) for o in app.picker.choices()]
        assert labels[:2] == ["enter a cannon, die 2", "enter a cannon, die 6"]
        assert "1  enter a cannon, die 2" in "\n".join(app.screen_lines())
        await pilot.click(Choices, offset=(3, 0))  # the first choice, by the mouse
        await settle(pilot)
        assert app.state.action_to_text(app.state.history[-1]) == "enter cannon 2: d4 c3"
        assert "Dice:  2· [6]" in "\n".join(app.screen_lines())  # the 2 is used
        six = next(o for o in app.picker.options if o.text == "enter ship 6: f5 g5 h5 i4 j3 k3")
        await pick_by_keys(pilot, six)
        texts = [app.state.action_to_text(a) for a in app.state.history]
        assert texts[1:3] == ["enter cannon 2: d4 c3", "enter ship 6: f5 g5 h5 i4 j3 k3"]
        assert app.table.human_to_move()  # CON-31: the roll ended by itself, Orange's bot played
        told = app.log_view.entries
        assert "Red enters a ship at e5 and moves it to k3 with the 6" in told
        assert "Red's roll ends automatically" in told
        assert any(entry.startswith("Orange rolls") for entry in told)


async def test_the_base_offers_each_piece_that_may_enter_by_number() -> None:
    # CON-36, CON-67 item 3: the available pieces enter from the base; picking the base, a
    # number narrows the destinations to one type's (the browser picks it from the row).
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, *arrows_to(app, "e5"), "enter")
        labels = [app.choice_label(choice) for choice in app.picker.choices()]
        assert labels == ["enter a cannon: only its moves", "enter an aagun: only its moves",
                          "enter an airplane: only its moves", "enter a ship: only its moves",
                          "enter a submarine: only its moves"]
        everything = app.picker.targets()
        await press(pilot, "4")
        ships = app.picker.targets()
        assert ships < everything
        terrain = app.view["content"]["board"]["terrain"]
        assert all(terrain[int(square[1:]) - 1][ord(square[0]) - ord("a")] in "~+" for square in ships)
        assert "1  enter a ship, die 2" not in "\n".join(app.screen_lines())  # a square first
        await press(pilot, "escape")
        assert app.picker.targets() == everything
        assert app.picker.picked == ["e5"]


async def test_a_big_map_scrolls_with_the_cursor() -> None:
    # Issue 18: "Conflict scrolls or zooms its map, with the cursor square always in view".
    app = board_app("conflict", "--option", "board=ocean", "--seed", "3", "--seat", "1=bot:random",
                    "--time", "0.01")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lines = app.screen_lines()
        assert len(lines) == 24
        await press(pilot, *(["down"] * 26), *(["right"] * 26))
        assert app.cursor == "z26"
        lines = app.screen_lines()
        assert any(line.startswith("26 ") for line in lines)
        assert " z" in lines[0]
        check_snapshot("conflict_ocean_corner", lines)
        await press(pilot, *(["up"] * 26), *(["left"] * 26))
        assert app.cursor == "a1"
        assert app.screen_lines()[1].startswith(" 1 ")


# Red's cannon on q4 next to Orange's mine on r3, the dice 1 and 3 to play.
BY_THE_MINE = {
    "seats": [1, 2], "pieces": ["1C q4", "2C b1"], "available": {"1": "", "2": "C"},
    "reserve": {"1": "", "2": ""}, "owners": {}, "out": {}, "phase": "decision", "seat": 1, "rolls": 3,
    "dice": [1, 3], "unused": [1, 3], "moved": [], "activation": False,
}


async def test_a_walk_ending_on_a_hostile_mine_is_confirmed_first() -> None:
    # CON-68: "The UI must warn before confirming a move whose walk ends on a hostile mine".
    state = get_game("conflict").new(2, None, 1, BY_THE_MINE)
    app = board_app_on(state, "human", "random")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, *arrows_to(app, "q4"), "enter")
        await press(pilot, *arrows_to(app, "r3"), "enter")
        assert [o.text for o in app.picker.choices()] == ["q4 1: r3", "q4 3: r3"]
        await press(pilot, "1")
        text = "\n".join(app.screen_lines())
        assert "The walk ends on Orange's mine on r3: the piece is destroyed." in text
        await press(pilot, "escape")
        assert app.state.history == []  # not played
        await press(pilot, *arrows_to(app, "q4"), "enter")
        await press(pilot, *arrows_to(app, "r3"), "enter")
        await press(pilot, "1", "y")
        assert app.state.action_to_text(app.state.history[0]) == "q4 1: r3"
        assert "The red cannon is destroyed by Orange's mine on r3" in app.log_view.entries


async def test_take_back_goes_back_to_before_the_persons_last_decision() -> None:
    # Issue 18: "u takes back where the game and the seats allow it" (against a bot: its answer too).
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        rolled = list(app.state.history)  # the first roll, made before Red's first decision
        await pick_by_keys(pilot, next(o for o in app.picker.options if o.text == "enter cannon 2: d4 c3"))
        assert len(app.state.history) == len(rolled) + 1  # the 6 is still to play
        await press(pilot, "u")
        assert app.state.history == rolled
        assert "Dice: [2] [6]" in "\n".join(app.screen_lines())
