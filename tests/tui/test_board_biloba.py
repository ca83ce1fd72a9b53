"""The Biloba board in a terminal (issue 18, "Boards"): a turn with a replacement picked by keys,
a move through the centre picked square by square, the screen at 80×24."""

from __future__ import annotations

import pytest
from board_pilot import arrows_to, board_app, board_app_on, check_snapshot, press, settle

from parlour.games import get_game

pytestmark = pytest.mark.asyncio(loop_scope="session")

# Orange to move: b6-c6 flanks blue d6 between c6 and e6 (BIL-22).
FLANKING = [
    "##.....##",
    "#.......#",
    ".........",
    "...O.....",
    "....*....",
    ".O.BO....",
    "..B....B.",
    "#....BB.#",
    "##.....##",
]


async def test_the_start_at_80_by_24() -> None:
    app = board_app("biloba", "--seed", "3", "--seat", "1=bot:random", "--time", "0.01")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        check_snapshot("biloba_start", app.screen_lines())


async def test_a_turn_with_a_replacement_by_keys() -> None:
    # Issue 18, Tests: "a Biloba turn with a replacement". BIL-28: after the capture one of the
    # flanking pawns moves into the emptied tile, chosen by the player.
    state = get_game("biloba").new(2, None, 1, {"players": 2, "board": FLANKING, "to_move": "orange"})
    app = board_app_on(state, "human", "random")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, *arrows_to(app, "b6"), "enter")
        await press(pilot, *arrows_to(app, "c6"), "enter")
        assert [app.state.action_to_text(a) for a in app.state.history] == ["b6-c6"]
        assert app.table.human_to_move()
        assert app.picker.starts() == {"c6", "e6"}  # the pawns that flanked d6
        text = "\n".join(app.screen_lines())
        assert "Orange captures d6." in text
        assert "Replacement: pick one of c6 e6, then the tile." in text
        check_snapshot("biloba_replacement", app.screen_lines())
        await press(pilot, *arrows_to(app, "e6"), "enter")
        assert app.picker.targets() == {"d6"}
        await press(pilot, *arrows_to(app, "d6"), "enter")
        played = [app.state.action_to_text(a) for a in app.state.history]
        assert played[:2] == ["b6-c6", "e6>d6"]
        assert len(played) == 3  # and Blue's bot answered
        assert "Orange plays e6>d6" in "\n".join(app.screen_lines())


async def test_a_move_through_the_centre_is_picked_square_by_square() -> None:
    # BIL-17, BIL-18: a pawn steps onto e5 and on, in the same move: d4, then e5, then where.
    app = board_app("biloba", "--seed", "3", "--seat", "1=bot:random", "--time", "0.01")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, *arrows_to(app, "d4"), "enter")
        assert "e5" in app.picker.targets()
        await press(pilot, *arrows_to(app, "e5"), "enter")
        assert app.picker.picked == ["d4", "e5"]
        assert app.picker.targets() == {"d5", "f5"}  # the free tiles round the centre but d4
        await press(pilot, *arrows_to(app, "d5"), "enter")
        assert app.state.action_to_text(app.state.history[0]) == "d4-e5-d5"
