"""The Lines of Action board in a terminal (issue 18, "Boards"): a whole game by keys against a
bot, the picked piece and its destinations, the last move, take-back, hints, rules and the
screen at 80×24."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from board_pilot import arrows_to, board_app, check_snapshot, pick_by_keys, press, settle, the_app

from parlour.tui.board.app import BoardApp
from parlour.tui.board.drawing import drawing_for
from parlour.tui.board.widgets import BoardView
from parlour.tui.play import read_settings
from parlour.tui.saves import Table, autosave_path, read_save, write_autosave, write_save

pytestmark = pytest.mark.asyncio(loop_scope="session")

AGAINST_RANDOM = ("loa", "--seed", "3", "--seat", "1=bot:random", "--time", "0.01")


async def test_the_start_at_80_by_24() -> None:
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        check_snapshot("loa_start", app.screen_lines())


async def test_a_picked_piece_shows_where_it_may_go() -> None:
    # Issue 18: "pieces chosen with the mouse or the cursor keys and Enter, legal destinations
    # shown". LOA-7: at the start b1 may go to b3, d3 and h1.
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, *(["left"] * 2), "enter")  # from d1, the start square nearest d4
        assert app.picker.picked == ["b1"]
        assert app.picker.targets() == {"b3", "d3", "h1"}
        lines = app.screen_lines()
        assert lines[8].startswith("1    [●] ●  ●  ●  ●  ●  •")  # h1 too
        assert lines[6].startswith("3  ○  •     •")
        check_snapshot("loa_picked", lines)
        await press(pilot, "escape")
        assert app.picker.picked == []


async def test_a_whole_game_by_keys_against_the_bot() -> None:
    # Issue 18, Tests: "a whole LOA game by keys", the bot replying in a worker.
    # Kept short (each key is a redraw): Black takes a piece whenever it can, which joins its
    # pieces in 11 to 18 moves against bot:random whatever the seed (a random move among all
    # ran to the move limit, 30 each); with this seed, 11.
    app = board_app(*AGAINST_RANDOM)
    rng = random.Random(7)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        while not app.state.is_over():
            assert app.table.human_to_move()
            before = len(app.state.history)
            captures = [o for o in app.picker.options if o.parts["kind"] == "capture"]  # LOA-8
            option = rng.choice(captures or app.picker.options)
            await pick_by_keys(pilot, option)
            assert app.state.history[before] == option.action
            assert app.state.is_over() or len(app.state.history) == before + 2  # the bot replied
        text = "\n".join(app.screen_lines())
        assert "Result: " in text
        assert app.table.outcome_text() in " ".join(text.split())


async def test_the_last_move_and_a_capture_are_told() -> None:
    # LOA-8: landing on an enemy piece captures it; the log narrates it and the panel shows it.
    app = board_app("loa", "--seed", "1", "--seat", "0=human", "--seat", "1=human")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for text in ("b1-d3", "a3-d3"):
            option = next(o for o in app.picker.options if o.text == text)
            await pick_by_keys(pilot, option)
        lines = app.screen_lines()
        text = "\n".join(lines)
        assert "Last: White a3-d3" in text
        assert "A black piece is captured on d3." in text
        assert app.marks["a3"] == {"last"}
        assert app.marks["d3"] == {"last", "taken"}


async def test_a_square_that_is_no_move_says_why_in_the_engines_words() -> None:
    # Issue 18: "An illegal action says why, from the engine ... through every front end".
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, *arrows_to(app, "e4"), "enter")
        assert app.told == "Nothing of yours moves from e4: the pieces that can move are underlined."
        await press(pilot, *arrows_to(app, "b1"), "enter")
        await press(pilot, *arrows_to(app, "b5"), "enter")
        assert app.told.startswith("Not b1-b5: a piece on b1 moves exactly 2 squares along that line")
        assert "(LOA-7)" in app.told
        assert app.picker.picked == []
        assert app.state.history == []  # nothing played, nothing lost


async def test_a_click_picks_and_moves() -> None:
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # b1 is column 1 of row 8 (below the files line): x = label (2) + 1 * 3 + 1.
        await pilot.click(BoardView, offset=(2 + 3 + 1, 8))
        assert app.picker.picked == ["b1"]
        await pilot.click(BoardView, offset=(2 + 3 * 3 + 1, 6))  # d3
        await settle(pilot)
        assert app.state.action_to_text(app.state.history[0]) == "b1-d3"
        assert len(app.state.history) == 2


async def test_take_back_undoes_the_move_and_the_bots_answer() -> None:
    # Issue 18: "u takes back ... (against a bot: take back your move and the bot's answer)".
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pick_by_keys(pilot, app.picker.options[0])
        assert len(app.state.history) == 2
        await press(pilot, "u")
        assert app.state.history == []
        assert "Took back 2 moves." in "\n".join(app.screen_lines())
        assert app.table.human_to_move()


async def test_a_hint_is_a_legal_move_marked_on_the_board() -> None:
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "h")
        hint = app.hint
        assert hint is not None
        assert hint.action in app.state.legal_actions()
        assert f"Hint: {hint.text}" in "\n".join(app.screen_lines())
        assert all("hint" in app.marks[square] for square in hint.route)


async def test_a_small_terminal_gets_a_message_and_the_board_when_it_grows() -> None:
    # Issue 18: "a terminal too small gets a message and a redraw when it grows".
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(70, 20)) as pilot:
        await settle(pilot)
        text = " ".join(" ".join(app.screen_lines()).split())
        assert "needs a terminal of at least 80×24; this one is 70×20" in text
        await press(pilot, "enter")
        assert app.picker.picked == []  # keys do nothing while it is too small
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        check_snapshot("loa_start", app.screen_lines())


async def test_a_bigger_terminal_gets_bigger_squares() -> None:
    # Issue 18: "It fits 80×24 for every game ... and uses a bigger terminal when there is one".
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "left", "left", "enter")
        assert app.board.zoom == 2
        check_snapshot("loa_big", app.screen_lines())
        await pilot.click(BoardView, offset=(3 + 3 * 6 + 2, 1 + 5 * 3 + 1))  # d3, zoomed
        await settle(pilot)
        assert app.state.action_to_text(app.state.history[0]) == "b1-d3"
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert app.board.zoom == 1
        assert app.screen_lines()[0].startswith("   a  b  c")


async def test_the_rules_come_from_the_rules_page() -> None:
    # Issue 18: "? shows the game's rules ... from the same source as the rules pages".
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "question_mark")
        text = " ".join(" ".join(app.screen_lines()).split())
        assert "The goal" in text
        assert "Bring all your pieces together into one group" in text
        assert "(LOA-14)" in text
        await press(pilot, "escape")
        assert "Bring all your pieces" not in " ".join(app.screen_lines())


async def test_leaving_with_moves_not_saved_asks() -> None:
    app = board_app(*AGAINST_RANDOM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pick_by_keys(pilot, app.picker.options[0])
        await press(pilot, "q")
        assert "Save the game before leaving (2 moves not saved)?" in "\n".join(app.screen_lines())
        await press(pilot, "escape")
        assert not the_app(pilot).finished
        await press(pilot, "ctrl+c")  # Ctrl-C asks too
        assert "Save the game before leaving" in "\n".join(app.screen_lines())
        await press(pilot, "n")
        assert app.finished


async def test_s_saves_the_game_with_its_seats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 18: save files keep the seats, bot kinds and thinking times (parlour.tui.saves).
    monkeypatch.chdir(tmp_path)  # a short name to type, key by key
    app = board_app(*AGAINST_RANDOM)
    name = "q s.json"  # q and s typed into the name, not taken as keys
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pick_by_keys(pilot, app.picker.options[0])
        await press(pilot, "s", *name, "enter")
        saved = read_save(tmp_path / name)
        assert saved.state.history == app.state.history
        assert saved.table is not None
        assert saved.table.seats == ("human", "random")
        assert saved.table.seconds == 0.01
        assert not app.table.unsaved()
        await press(pilot, "q")
        assert app.finished  # nothing left unsaved: no question


async def test_the_game_in_progress_is_kept_for_resume(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 18: "a game in progress is saved automatically to the user's data directory and
    # parlour play --resume offers it"; leaving without saving lets it go.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    settings = read_settings(list(AGAINST_RANDOM))
    drawing = drawing_for(settings.game)
    assert drawing is not None
    app = BoardApp(settings, drawing, keep=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pick_by_keys(pilot, app.picker.options[0])
        kept = read_save(autosave_path("loa"))
        assert kept.state.history == app.state.history
        await press(pilot, "q", "n")
        assert app.finished
    assert not autosave_path("loa").exists()



def kept_game_of_three_moves() -> bytes:
    """A Lines of Action game left unfinished earlier (three moves made), kept for --resume."""
    state = read_settings(list(AGAINST_RANDOM)).state
    for text in ("b1-d3", "a2-c4", "c1-c4"):
        state.play_text(text)
    return write_autosave(state, Table(("human", "random"), 0.01)).read_bytes()


async def test_a_new_board_left_at_once_keeps_the_game_kept_earlier(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # The reviewer's finding: a board opened as run_board opens it (keep=True) wrote the kept game
    # over with its own start before any move, and q then removed it: three moves lost.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    kept = kept_game_of_three_moves()
    settings = read_settings(list(AGAINST_RANDOM))
    drawing = drawing_for(settings.game)
    assert drawing is not None
    app = BoardApp(settings, drawing, keep=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert autosave_path("loa").read_bytes() == kept
        assert ("(A Lines of Action game left unfinished is kept for parlour play --resume; this "
                "game's first move replaces it.)") in app.log_view.entries
        assert any(line.endswith("replaces it.)") for line in app.screen_lines())  # shown, not only logged
        await press(pilot, "q")
        assert app.finished
    assert autosave_path("loa").read_bytes() == kept


async def test_a_finished_save_on_the_board_keeps_the_game_kept_earlier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A finished game loaded has no first move: nothing is said of replacing, and its end lets go
    # of nothing that is not its own.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    kept = kept_game_of_three_moves()
    finished = read_settings(list(AGAINST_RANDOM)).state
    finished.retire(1, "resigned")
    path = tmp_path / "finished.json"
    write_save(path, finished, Table(("human", "random"), 0.01))
    settings = read_settings(["--load", str(path)])
    drawing = drawing_for(settings.game)
    assert drawing is not None
    app = BoardApp(settings, drawing, keep=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert any("Black wins" in entry for entry in app.log_view.entries)
        assert not any("replaces it" in entry for entry in app.log_view.entries)
        await press(pilot, "q")
        assert app.finished
    assert autosave_path("loa").read_bytes() == kept


async def test_saving_when_leaving_lets_the_kept_copy_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As the line interface does (test_saves: "saved by name: nothing else to resume").
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    settings = read_settings(list(AGAINST_RANDOM))
    drawing = drawing_for(settings.game)
    assert drawing is not None
    app = BoardApp(settings, drawing, keep=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pick_by_keys(pilot, app.picker.options[0])
        assert autosave_path("loa").exists()
        await press(pilot, "q", "y", *"w.json", "enter")
        assert app.finished
    assert len(read_save(tmp_path / "w.json").state.history) == 2
    assert not autosave_path("loa").exists()
