"""Save files of ``parlour play`` (issue 18): what a save keeps, what loading refuses, quitting,
and the game in progress kept for ``--resume``.

The issue's findings are the regression tests here: "``parlour play loa --seat 1=human``, ``save
w.json``, ``quit``, then ``parlour play loa --load w.json``: the bot now plays the person's side. The
save keeps no seats, bot kinds or thinking time"; "Out-of-range numbers in a save file show as
squares"; "Ctrl-C and Ctrl-D end a game at once, without asking and without saving".
"""

from __future__ import annotations

import io
import json
import os
import select
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from keyboard import Keyboard
from test_mille_save import bsd_save

from parlour.games import get_game
from parlour.tui import play, saves

LOA = get_game("loa")
RANDOM_WHITE = ["--seat", "0=human", "--seat", "1=bot:random", "--seed", "5", "--time", "0.01"]
ASKED = "Save the game before leaving"
PAIR = ["human", "strong"]




def run(args: list[str], lines: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], terminal: bool = True) -> tuple[int, str, str]:
    """``parlour play ARGS`` with ``lines`` as its input, typed at a terminal unless ``terminal`` is
    false (then piped in, as by a script); (status, stdout, stderr)."""
    typed = "".join(f"{line}\n" for line in lines)
    monkeypatch.setattr(sys, "stdin", Keyboard(typed) if terminal else io.StringIO(typed))
    status = play.main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def record_with(game: str, actions: list[int], **extra: Any) -> dict[str, Any]:
    data = get_game(game).new(None, {}, 7).to_json()
    return {**data, "actions": actions, **extra}


def written(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data))
    return path


# --- what a save keeps -----------------------------------------------------------------------------


def test_a_save_keeps_the_seats_bots_and_thinking_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The finding: the person played White against bot:random at 0.1 s; after loading,
    # the bot played the person's side, came back as 'strong', and thought 1 s.
    path = tmp_path / "w.json"
    args = ["loa", "--seat", "1=human", "--seat", "0=bot:random", "--time", "0.1", "--seed", "3"]
    status, out, err = run(args, [f"save {path}", "quit"], monkeypatch, capsys)
    assert status == 0, err
    assert f"Saved to {path}. Resume with: parlour play --load {path}" in out
    settings = play.read_settings(["loa", "--load", str(path)])
    assert settings.seats == ["random", "human"]
    assert settings.seconds == 0.1
    status, out, err = run(["loa", "--load", str(path)], ["quit"], monkeypatch, capsys)
    assert status == 0, err
    assert "Lines of Action. Black: bot:random, White: you. Bots think 0.1 s a move." in out
    assert "White to move> " in out


def test_reading_a_save_back_gives_the_same_settings(tmp_path: Path) -> None:
    first = play.read_settings(["biloba", "--players", "4", "--seat", "2=human", "--seat", "0=bot:greedy",
                                "--time", "0.25", "--seed", "9"])
    first.clocks = (30.0, 29.5, 12.0, 0.0)
    path = tmp_path / "b.json"
    saves.write_save(path, first.state, first.table())
    again = play.read_settings(["--load", str(path), "--seed", "9"])
    assert again.game is first.game
    assert again.state == first.state
    assert again.table() == first.table()
    assert (again.seats, again.seconds, again.clocks) == (first.seats, 0.25, (30.0, 29.5, 12.0, 0.0))


def test_seat_and_time_on_the_command_line_override_the_save(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    state = LOA.new(seed=1)
    saves.write_save(path, state, saves.Table(("random", "human"), 0.1))
    settings = play.read_settings(["--load", str(path), "--seat", "0=human", "--time", "2"])
    assert settings.seats == ["human", "human"]  # seat 1 as saved, seat 0 as given
    assert settings.seconds == 2.0
    changed = play.read_settings(["--load", str(path), "--seat", "white=bot:greedy"])
    assert changed.seats == ["random", "greedy"]


def test_an_old_save_without_a_table_loads_with_todays_defaults(tmp_path: Path) -> None:
    # "old save files still load (with today's defaults for what they lack)"
    state = LOA.new(seed=4)
    state.play_text("b1-d3")
    path = written(tmp_path / "old.json", state.to_json())
    settings = play.read_settings(["--load", str(path)])
    assert settings.state == state
    assert settings.seats == ["human", "strong"]
    assert settings.seconds == play.DEFAULT_SECONDS
    assert settings.clocks is None
    assert play.read_settings(["--load", str(path), "--seat", "1=human"]).seats == ["strong", "human"]


def test_a_save_is_still_a_record_for_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = LOA.new(seed=2)
    state.play_text("b1-d3")
    path = tmp_path / "s.json"
    saves.write_save(path, state, saves.Table(("human", "random"), 0.5))
    assert LOA.state_from_json(json.loads(path.read_text())) == state  # the engine reads it as it is
    status, out, err = run(["--replay", str(path)], ["last", "quit"], monkeypatch, capsys)
    assert status == 0, err
    assert "Black: b1-d3" in out


def test_a_save_file_is_private_and_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    saves.write_save(path, LOA.new(seed=1), saves.Table(("human", "strong"), 1.0))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["p.json"]


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ({"version": 1, "seats": ["human"], "seconds": 1}, "seats must be 2 names"),
        ({"version": 1, "seats": ["human", 3], "seconds": 1}, "seats must be 2 names"),
        ({"version": 1, "seats": PAIR, "seconds": 0}, "thinking time must be a positive number"),
        ({"version": 1, "seats": PAIR, "seconds": True}, "thinking time must be a positive"),
        ({"version": 1, "seats": PAIR, "seconds": 1, "clocks": [1]}, "clocks must be 2 numbers"),
        ({"version": 1, "seats": PAIR, "seconds": 1, "clocks": [1, -2]}, "clocks must be"),
        ({"version": 7, "seats": PAIR, "seconds": 1}, "saved table version 7 is not supported"),
        ([], "must be a JSON object"),
    ],
)
def test_a_damaged_table_is_refused_in_words(
    table: Any, words: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    path = written(tmp_path / "t.json", record_with("loa", [], table=table))
    status, out, err = run(["--load", str(path)], [], monkeypatch, capsys)
    assert status == 1
    assert out == ""
    assert err.startswith(f"parlour play: cannot load {path}: ")
    assert words in err
    assert "Traceback" not in err


def test_a_bot_this_parlour_lacks_is_named_and_can_be_replaced(tmp_path: Path) -> None:
    path = written(tmp_path / "k.json", record_with(
        "loa", [], table={"version": 1, "seats": ["human", "oracle"], "seconds": 1}))
    with pytest.raises(play.LoadError, match=r"seat 1 \(White\) was played by bot:oracle.*--seat 1=WHO"):
        play.read_settings(["--load", str(path)])
    assert play.read_settings(["--load", str(path), "--seat", "1=bot:random"]).seats == ["human", "random"]


# --- numbers that are no action --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "actions", "bad"),
    [
        ("loa", [-1], -1),  # once written h0-h8
        ("loa", [1954 * 64 + 63], 1954 * 64 + 63),  # once written a1954-h8 … and never refused as such
        ("loa", [83, 1 << 40], 1 << 40),
        ("biloba", [10**6], 10**6),  # an IndexError before
        ("biloba", [-3], -3),
        ("tictactoe", [4, 50], 50),  # an IndexError before
        ("tictactoe", [-1], -1),  # read as c3 before
        ("conflict", [-7], -7),
        ("mille", [-2], -2),
    ],
)
def test_a_number_that_is_no_action_is_refused_naming_its_ply_and_number(
    game: str, actions: list[int], bad: int, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    path = written(tmp_path / "bad.json", record_with(game, actions))
    status, out, err = run(["--load", str(path)], [], monkeypatch, capsys)
    assert status == 1
    assert out == ""
    assert err.startswith(f"parlour play: cannot load {path}: action {len(actions)} of the record: ")
    assert str(bad) in err
    assert "Traceback" not in err
    assert "Error" not in err
    assert "h0" not in err
    assert "a1954" not in err


def test_a_bsd_mille_save_is_named_for_what_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "Saves from the BSD program are recognised and named as such."
    path = tmp_path / "mille.sav"
    path.write_bytes(bsd_save())
    status, out, err = run(["--load", str(path)], [], monkeypatch, capsys)
    assert status == 1
    assert out == ""
    assert err == f"parlour play: cannot load {path}: a BSD mille save, which parlour cannot read\n"
    path.write_bytes(b"\x00\xff" * 284)  # as long as one, but not one
    status, _, err = run(["--load", str(path)], [], monkeypatch, capsys)
    assert status == 1
    assert "not a saved game (not UTF-8 text)" in err


# --- quitting asks ---------------------------------------------------------------------------------


def test_quit_with_moves_not_saved_asks_and_saves_on_yes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "q.json"
    status, out, err = run(["loa", *RANDOM_WHITE], ["b1-d3", "quit", "y", str(path)], monkeypatch, capsys)
    assert status == 0, err
    assert f"{ASKED} (2 moves not saved)? y(es), n(o) or c(ancel): Save to file: Saved to {path}." in out
    saved = saves.read_save(path)
    assert len(saved.state.history) == 2
    assert saved.table == saves.Table(("human", "random"), 0.01)


def test_quit_offers_the_file_last_saved_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "q.json"
    lines = ["b1-d3", f"save {path}", "c1-c3", "quit", "yes", ""]
    status, out, err = run(["loa", *RANDOM_WHITE], lines, monkeypatch, capsys)
    assert status == 0, err
    assert f"Save to file [{path}]: Saved to {path}." in out
    assert len(saves.read_save(path).state.history) == 4


def test_quit_cancelled_plays_on_and_nothing_unsaved_leaves_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.json"
    lines = ["b1-d3", "quit", "maybe", "c", "moves", f"save {path}", "quit"]
    status, out, err = run(["loa", *RANDOM_WHITE], lines, monkeypatch, capsys)
    assert status == 0, err
    assert "Answer y to save the game, n to leave without saving, c to go back to it." in out
    assert "Back to the game." in out
    assert "Legal moves (" in out  # played on after the cancel
    assert out.count(ASKED) == 2  # the unknown answer was asked again; the last quit, all saved, was not
    assert out.endswith("Game left unfinished.\n")


def test_ctrl_c_at_the_prompt_asks(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    # "Ctrl-C asks too": input() raises KeyboardInterrupt as it does at a terminal.
    lines: list[str | None] = ["b1-d3", None, "c", "quit", "n"]

    def ask(prompt: str) -> str:
        print(prompt, end="")
        line = lines.pop(0)
        if line is None:
            raise KeyboardInterrupt
        return line

    monkeypatch.setattr(play, "_ask", ask)
    status = play.main(["loa", *RANDOM_WHITE])
    out = capsys.readouterr().out
    assert status == 0
    assert f"Black to move> \n{ASKED} (2 moves not saved)? y(es), n(o) or c(ancel): Back to the game." in out
    assert out.endswith("Game left unfinished, not saved.\n")


# --- the game in progress, kept for --resume -------------------------------------------------------


def test_the_game_in_progress_is_kept_privately_and_resumed(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["loa", *RANDOM_WHITE], ["b1-d3"], monkeypatch, capsys)  # then the input ends
    assert status == 0
    assert "it is kept: parlour play --resume takes it up again" in out
    kept = data_home / "loa.autosave.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    moves = saves.read_save(kept).state.history
    assert len(moves) == 2
    status, out, err = run(["--resume"], ["board", "quit", "n"], monkeypatch, capsys)
    assert status == 0, err
    assert out.startswith("Resuming the Lines of Action game in progress (2 moves made).\n"
                          "Lines of Action. Black: you, White: bot:random. Bots think 0.01 s a move.")
    assert not kept.exists()  # let go of with 'n'


def test_resume_says_when_there_is_nothing_to_resume(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["--resume"], [], monkeypatch, capsys)
    assert status == 1
    assert out == ""
    assert err == (f"parlour play: there is no game in progress to resume (games left unfinished are kept "
                   f"in {data_home})\n")
    for wrong in (["--resume", "--load", "w.json"], ["loa", "--resume", "--players", "2"],
                  ["--resume", "--replay", "w.json"]):
        status, _, err = run(wrong, [], monkeypatch, capsys)
        assert status == 2, wrong
        assert "--resume" in err


def test_resume_asks_which_when_several_games_are_kept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saves.write_autosave(LOA.new(seed=1), saves.Table(("human", "random"), 0.01))
    tictactoe = get_game("tictactoe").new(seed=1)
    tictactoe.play_text("b2")
    saves.write_autosave(tictactoe, saves.Table(("human", "human"), 1.0))
    status, _, err = run(["--resume"], [], monkeypatch, capsys)
    assert status == 2
    assert "games in progress: " in err
    assert "loa" in err
    assert "tictactoe" in err
    status, out, err = run(["tictactoe", "--resume"], ["quit", "n"], monkeypatch, capsys)
    assert status == 0, err
    assert "Tic-tac-toe. X: human, O: human." in out
    assert "O to move> " in out


def test_naming_no_game_offers_the_one_in_progress(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run([], [], monkeypatch, capsys)
    assert status == 2
    assert "--resume" not in err
    saves.write_autosave(LOA.new(seed=1), saves.Table(("human", "random"), 0.01))
    status, _, err = run([], [], monkeypatch, capsys)
    assert status == 2
    assert "; or take up the loa game in progress: parlour play --resume" in err


def test_a_finished_game_is_no_longer_kept(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = ["a1", "a2", "b1", "b2"]
    args = ["tictactoe", "--seat", "0=human", "--seat", "1=human"]
    run(args, moves, monkeypatch, capsys)
    assert (data_home / "tictactoe.autosave.json").exists()
    status, out, _ = run(["--resume"], ["c1"], monkeypatch, capsys)
    assert status == 0
    assert "X wins" in out
    assert not (data_home / "tictactoe.autosave.json").exists()


def test_a_kept_game_outlives_another_game_left_at_once(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run(["loa", *RANDOM_WHITE], ["b1-d3"], monkeypatch, capsys)  # left unfinished: kept
    kept = (data_home / "loa.autosave.json").read_bytes()
    status, out, _ = run(["loa", *RANDOM_WHITE], ["quit"], monkeypatch, capsys)
    assert status == 0
    assert out.startswith("(A Lines of Action game left unfinished is kept for parlour play --resume; "
                          "this game's first move replaces it.)\n")
    assert (data_home / "loa.autosave.json").read_bytes() == kept
    finished = LOA.new(seed=1)
    finished.retire(1, "resigned")
    path = data_home.parent / "finished.json"
    saves.write_save(path, finished, saves.Table(("human", "random"), 1.0))
    status, out, _ = run(["--load", str(path)], [], monkeypatch, capsys)
    assert "Black wins" in out
    assert (data_home / "loa.autosave.json").read_bytes() == kept


def test_a_game_that_cannot_be_kept_goes_on_and_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    status, out, _ = run(["loa", *RANDOM_WHITE], ["b1-d3", "moves", "quit", "n"], monkeypatch, capsys)
    assert status == 0
    assert out.count("(The game in progress cannot be kept for --resume: ") == 1
    assert "Use save FILE to keep it.)" in out
    assert "Legal moves (" in out
    assert out.endswith("Game left unfinished, not saved.\n")


def test_moves_piped_in_by_a_script_keep_no_game(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Brief of issue 18's follow-up: a script piping moves into parlour play --text leaves no file
    # in the user's data directory, and a game a person left there is neither replaced nor let go.
    status, out, _ = run(["loa", "--text", *RANDOM_WHITE], ["b1-d3"], monkeypatch, capsys, terminal=False)
    assert status == 0
    assert "Black plays b1-d3" in out
    assert out.endswith("c(ancel): \nGame left unfinished.\n")  # not "it is kept"
    assert not data_home.exists()
    kept = saves.write_autosave(LOA.new(seed=1), saves.Table(("human", "random"), 0.01)).read_bytes()
    status, out, _ = run(["loa", "--text", *RANDOM_WHITE], ["b1-d3", "quit", "n"], monkeypatch, capsys,
                         terminal=False)
    assert status == 0
    assert "Black plays b1-d3" in out
    assert "--resume" not in out  # nothing said of the kept game: this one does not touch it
    assert [path.name for path in data_home.iterdir()] == ["loa.autosave.json"]
    assert (data_home / "loa.autosave.json").read_bytes() == kept


def test_undo_is_kept_too(data_home: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    run(["loa", "--seat", "0=human", "--seat", "1=human"], ["b1-d3", "a2-c4", "undo"], monkeypatch, capsys)
    assert len(saves.read_save(data_home / "loa.autosave.json").state.history) == 1


# --- a real process on pipes -----------------------------------------------------------------------


class Child:
    """``parlour play`` as a child process on pipes, its data directory the test's own."""

    def __init__(self, args: list[str], data: Path, cwd: Path) -> None:
        env = {**os.environ, "XDG_DATA_HOME": str(data.parent), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "parlour.cli", "play", *args], cwd=cwd, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self.output = ""

    def read_until(self, text: str) -> str:
        assert self.process.stdout is not None
        deadline = time.monotonic() + 120  # only a guard against a hung child
        while text not in self.output:
            ready, _, _ = select.select([self.process.stdout], [], [], max(deadline - time.monotonic(), 0))
            chunk = os.read(self.process.stdout.fileno(), 65536) if ready else b""
            if not chunk:
                _, err = self.process.communicate(timeout=60)
                pytest.fail(f"parlour play never printed {text!r}; it printed:\n{self.output}\n"
                            f"{err.decode()}")
            self.output += chunk.decode()
        found, self.output = self.output.split(text, 1)
        return found + text

    def wait_reading(self) -> None:
        """Waits until the child is blocked reading its input, as a person's Ctrl-C finds it: a
        signal caught between the prompt's write and the read is only noticed at the next line."""
        deadline = time.monotonic() + 120  # only a guard against a hung child
        wchan = Path(f"/proc/{self.process.pid}/wchan")
        while "pipe" not in wchan.read_text():
            if time.monotonic() > deadline:
                pytest.fail(f"parlour play never waited for input; it printed:\n{self.output}")
            time.sleep(0.01)  # polling a state, not waiting out a time

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n".encode())
        self.process.stdin.flush()


def test_a_real_process_on_pipes_keeps_nothing(data_home: Path, tmp_path: Path) -> None:
    child = Child(["loa", "--text", *RANDOM_WHITE], data_home, tmp_path)
    child.read_until("Black to move> ")
    child.send("b1-d3")
    child.read_until("Black to move> ")
    _, err = child.process.communicate(timeout=60)  # the end of the script's input
    assert child.process.returncode == 0, err
    assert not data_home.exists()
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_in_a_real_process_asks_before_leaving(data_home: Path, tmp_path: Path) -> None:
    child = Child(["loa", *RANDOM_WHITE], data_home, tmp_path)
    child.read_until("Black to move> ")
    child.send("b1-d3")
    child.read_until("Black to move> ")
    child.wait_reading()
    child.process.send_signal(signal.SIGINT)
    child.read_until(f"{ASKED} (2 moves not saved)? y(es), n(o) or c(ancel): ")
    child.send("y")
    child.read_until("Save to file: ")
    child.send("mine.json")
    _, err = child.process.communicate(timeout=60)
    assert child.process.returncode == 0, err
    assert len(saves.read_save(tmp_path / "mine.json").state.history) == 2
    assert not (data_home / "loa.autosave.json").exists()  # saved by name: nothing else to resume



def test_a_deal_by_chance_replaces_no_kept_game(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A new Conflict game starts with a deal by chance, before anyone moves: that is no move of the
    # player's, so the game kept earlier is neither replaced by it nor removed when it is left at once.
    conflict = get_game("conflict")
    earlier = conflict.new(seed=1)
    while earlier.to_move() < 0:
        earlier.apply(earlier.sample_chance())
    earlier.apply(earlier.legal_actions()[0])
    kept = saves.write_autosave(earlier, saves.Table(("human",) * earlier.players, 0.01)).read_bytes()
    status, out, _ = run(["conflict", "--seed", "2", "--time", "0.01"], ["quit", "n"], monkeypatch, capsys)
    assert status == 0
    assert out.startswith("(A Conflict game left unfinished is kept for parlour play --resume; "
                          "this game's first move replaces it.)\n")
    assert out.endswith("Game left unfinished, not saved.\n")
    assert (data_home / "conflict.autosave.json").read_bytes() == kept


def test_both_front_ends_count_the_moves_not_saved_alike() -> None:
    # One count for the line interface and the board (saves.GameInProgress): moves made since the
    # last save, taken back since, and none once the game is over (nothing left to play).
    from parlour.tui.board.drawing import drawing_for
    from parlour.tui.board.table import Table as BoardTable

    settings = play.read_settings(["loa", "--seed", "3", "--seat", "0=human", "--seat", "1=human"])
    drawing = drawing_for(settings.game)
    assert drawing is not None
    session = play.Session(settings, ask=input, say=print, complain=print)
    board = BoardTable(settings, drawing)
    counts = []
    for text in ("b1-d3", "a2-c4"):
        settings.state.play_text(text)
        counts.append((session.unsaved(), board.unsaved()))
    settings.state.undo()
    counts.append((session.unsaved(), board.unsaved()))
    settings.state.retire(1, "resigned")
    counts.append((session.unsaved(), board.unsaved()))
    assert counts == [(1, 1), (2, 2), (1, 1), (0, 0)]
