"""``parlour play``: the generic terminal front end, driven through real pipes and through ``main``.

Lines of Action is the game under test, but nothing here relies on more than the engine
contract and the front end's own wording. Bots are ``bot:random`` so that nothing waits on a
search; no test asserts on timing.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from keyboard import Keyboard

from parlour.engine import State
from parlour.games import get_game
from parlour.tui import play

LOA = get_game("loa")
PROMPT = "to move> "
FAST = ["--seat", "1=bot:random", "--seed", "11", "--time", "0.01"]
NOT_READABLE = "Cannot read that as a move"
NOT_ALLOWED = "That move is not allowed"


# --- helpers -------------------------------------------------------------------------------------




def run(
    args: list[str], lines: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    terminal: bool = False,
) -> tuple[int, str, str]:
    """Calls ``main`` with ``lines`` as standard input, piped in (as by a script) unless ``terminal``;
    returns (status, stdout, stderr)."""
    typed = "".join(f"{line}\n" for line in lines)
    monkeypatch.setattr(sys, "stdin", Keyboard(typed) if terminal else io.StringIO(typed))
    status = play.main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def replies(out: str) -> list[str]:
    """The output split at the prompts: ``[before the first prompt, reply to line 1, …]``."""
    return re.split(r"\w+ to move> ", out)


def initial_board() -> str:
    return LOA.new().render(0)


def saved_state(path: Path) -> State:
    return LOA.state_from_json(json.loads(path.read_text()))


class Terminal:
    """``parlour play`` in a child process, talked to through its pipes like a person would."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "parlour.cli", "play", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.pending = b""

    def read(self, limit: float = 120.0) -> tuple[str, bool]:
        """Output up to the next prompt; ``(text, True)`` at a prompt, ``(text, False)`` at the end."""
        assert self.process.stdout is not None
        descriptor = self.process.stdout.fileno()
        deadline = time.monotonic() + limit  # only a guard against a hung child
        while not self.pending.endswith(PROMPT.encode()):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.process.kill()
                pytest.fail(f"parlour play stopped answering; last output: {self.pending[-500:]!r}")
            ready, _, _ = select.select([descriptor], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(descriptor, 65536)
            if not chunk:
                text, self.pending = self.pending.decode(), b""
                return text, False
            self.pending += chunk
        text, self.pending = self.pending.decode(), b""
        return text, True

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n".encode())
        self.process.stdin.flush()

    def finish(self) -> tuple[int, str]:
        _, err = self.process.communicate(timeout=60)  # closes standard input
        return self.process.returncode, err.decode()


def legal_moves_listed(text: str) -> list[str]:
    """The moves of a ``moves`` reply (``Legal moves (N):`` then indented, comma-separated)."""
    lines = text.splitlines()
    header = next(index for index, line in enumerate(lines) if line.startswith("Legal moves ("))
    count = int(lines[header].removeprefix("Legal moves (").split(")")[0])
    listing = " ".join(line for line in lines[header + 1 :] if line.startswith("  "))
    moves = [move.strip() for move in listing.split(",")]
    assert len(moves) == count
    return moves


# --- a whole game ----------------------------------------------------------------------------------


def test_whole_game_against_the_random_bot_through_pipes() -> None:
    terminal = Terminal("loa", *FAST)
    rng = random.Random(3)
    transcript = []
    for _ in range(200):  # at most 30 of Black's moves before the move limit (LOA-16)
        text, prompted = terminal.read()
        transcript.append(text)
        if not prompted:
            break
        terminal.send("moves")
        listing, prompted = terminal.read()
        assert prompted
        move = rng.choice(legal_moves_listed(listing))
        terminal.send(move)
    else:
        pytest.fail("the game did not end")
    status, err = terminal.finish()
    output = "".join(transcript)
    assert status == 0, err
    assert err == ""
    assert "Traceback" not in output
    result = [line for line in output.splitlines() if line.startswith("Result: ")]
    assert len(result) == 1
    assert result[0].startswith(("Result: Black wins (", "Result: White wins (", "Result: draw ("))
    assert "Black plays " in output
    assert "White plays " in output


def test_bots_alone_play_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["loa", "--seat", "0=bot:random", "--seat", "1=bot:random", "--seed", "4"],
                           [], monkeypatch, capsys)
    assert status == 0, err
    assert PROMPT not in out
    assert out.rstrip().splitlines()[-1].startswith("Result: ")


def test_a_finished_game_loads_and_reports_its_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = LOA.new(seed=2)
    rng = random.Random(2)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "over.json"
    path.write_text(json.dumps(state.to_json()))
    status, out, _ = run(["loa", "--load", str(path)], [], monkeypatch, capsys)
    assert status == 0
    outcome = state.outcome_json()
    assert outcome is not None
    assert out.rstrip().splitlines()[-1] == play.describe_outcome(state.seat_names(), outcome)
    # The game's own words for the reason, not its code.
    assert f"({LOA.info.reason_words(outcome['reason'])})" in out.rstrip().splitlines()[-1]


# --- reading moves -------------------------------------------------------------------------------


def test_malformed_and_illegal_moves_get_different_messages_and_change_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["xyz", "b1 d3", "i9-a1", "a1-a2", "b1-b4", "b1xb3", "board", "quit"]
    status, out, _ = run(["loa", *FAST], lines, monkeypatch, capsys)
    assert status == 0
    answers = replies(out)
    for malformed in (1, 2, 3):  # LOA-4: not FROM-TO at all
        assert answers[malformed].startswith(NOT_READABLE), answers[malformed]
        assert NOT_ALLOWED not in answers[malformed]
    for illegal in (4, 5, 6):  # LOA-8 (empty origin), LOA-7 (wrong distance), LOA-4 (x without capture)
        assert answers[illegal].startswith(NOT_ALLOWED), answers[illegal]
        assert NOT_READABLE not in answers[illegal]
    assert initial_board() in answers[7]
    assert "plays" not in out


def test_only_legal_actions_are_played_whatever_the_notation_reads(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The gate: an action the game's parser returns is played only if ``is_legal`` says so (a
    notation may read more than the rules allow the mover, as Mille's ``1: order on`` did)."""
    state, later = LOA.new(), LOA.new()
    later.play_text("b1-d3")
    illegal = later.parse_action("a2-c2")  # White's move: not Black's at the start (LOA-2)
    assert not state.is_legal(illegal)
    real_parse = type(state).parse_action

    def lenient(self: State, text: str) -> Any:
        return illegal if text == "anything" else real_parse(self, text)

    monkeypatch.setattr(type(state), "parse_action", lenient)
    status, out, _ = run(["loa", *FAST], ["anything", "board", "quit"], monkeypatch, capsys)
    assert status == 0
    answers = replies(out)
    assert answers[1].startswith(NOT_ALLOWED), answers[1]
    assert initial_board() in answers[2]
    assert "plays" not in out


def test_help_shows_the_commands_and_example_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["loa", *FAST], ["help", "quit"], monkeypatch, capsys)
    assert status == 0
    text = replies(out)[1]
    for command in ("help", "moves", "undo", "save FILE", "quit"):
        assert f"  {command}" in text
    legal = {LOA.new().action_to_text(action) for action in LOA.new().legal_actions()}
    examples = text.rstrip().splitlines()[-1].split()
    assert examples
    assert set(examples) <= legal


def test_moves_lists_every_legal_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["loa", *FAST], ["moves", "quit"], monkeypatch, capsys)
    assert status == 0
    state = LOA.new()
    assert legal_moves_listed(replies(out)[1]) == [state.action_to_text(a) for a in state.legal_actions()]


def test_a_typed_move_is_played_and_the_bot_replies(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    status, out, _ = run(["loa", *FAST], ["b1-d3", f"save {path}", "quit"], monkeypatch, capsys)
    assert status == 0
    assert "Black plays b1-d3" in out
    assert "White plays " in out
    state = saved_state(path)
    assert len(state.history) == 2
    assert state.action_to_text(state.history[0]) == "b1-d3"


# --- undo ------------------------------------------------------------------------------------------


def test_undo_takes_back_the_move_and_the_bot_reply(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["loa", *FAST], ["undo", "b1-d3", "undo", "board", "quit"], monkeypatch, capsys)
    assert status == 0
    answers = replies(out)
    assert answers[1].startswith("Nothing to undo")
    assert answers[3].startswith("Took back 2 moves.")
    assert initial_board() in answers[3]
    assert initial_board() in answers[4]


def test_undo_when_the_bot_moved_first_goes_back_to_the_human_decision(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["loa", "--seat", "0=bot:random", "--seat", "1=human", "--seed", "5"]
    _, out, _ = run(args, ["moves"], monkeypatch, capsys)
    move = legal_moves_listed(replies(out)[1])[0]  # the same seed gives the same first bot move
    status, out, _ = run(args, ["board", "undo", move, "undo", "board", "quit"], monkeypatch, capsys)
    assert status == 0
    answers = replies(out)
    first_board = answers[1]  # after Black's (the bot's) first move
    assert answers[2].startswith("Nothing to undo")
    assert answers[4].startswith("Took back 2 moves.")
    assert answers[5] == first_board


def test_two_humans_undo_one_move_at_a_time(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["loa", "--seat", "0=human", "--seat", "1=human"]
    status, out, _ = run(args, ["b1-d3", "a2-c4", "undo", "quit", "n"], monkeypatch, capsys)
    assert status == 0
    answers = replies(out)
    assert answers[3].startswith("Took back 1 move.")
    assert out.endswith("White to move> Save the game before leaving (1 move not saved)? y(es), n(o) or "
                        "c(ancel): Game left unfinished, not saved.\n")


# --- save and load ---------------------------------------------------------------------------------


def test_save_then_load_resumes_the_same_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "saved.json"
    status, out, _ = run(["loa", *FAST], ["b1-d3", "g8-g6", f"save {path}", "board", "quit"],
                         monkeypatch, capsys)
    assert status == 0
    answers = replies(out)
    assert answers[3].startswith(f"Saved to {path}.")
    board_when_saved = answers[4]
    assert len(saved_state(path).history) == 4

    status, out, _ = run(["loa", "--load", str(path), "--seat", "1=bot:random"], ["board", "quit"],
                         monkeypatch, capsys)
    assert status == 0
    assert replies(out)[1] == board_when_saved
    assert saved_state(path).render(0) + "\n" == board_when_saved


def test_load_without_naming_the_game_reads_it_from_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = LOA.new()
    state.play_text("b1-d3")
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(state.to_json()))
    status, out, _ = run(["--load", str(path), "--seat", "0=bot:random"], ["board", "quit"],
                         monkeypatch, capsys)
    assert status == 0
    assert state.render(1) in replies(out)[1]


def test_saving_over_a_file_replaces_it_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "saved.json"
    path.write_text("an older, much longer file " * 100)
    status, _, _ = run(["loa", *FAST], [f"save {path}", "quit"], monkeypatch, capsys)
    assert status == 0
    assert saved_state(path).history == []
    assert sorted(os.listdir(tmp_path)) == ["saved.json"]


def test_a_failed_save_leaves_the_old_file_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "saved.json"
    path.write_text("OLD")

    def disk_full(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    status, out, _ = run(["loa", *FAST], ["b1-d3", f"save {path}", "board", "quit"], monkeypatch, capsys)
    assert status == 0
    answers = replies(out)
    assert answers[2].startswith(f"Could not save to {path}: No space left on device")
    assert path.read_text() == "OLD"
    assert sorted(os.listdir(tmp_path)) == ["saved.json"]  # no temporary file left behind
    assert "Black plays b1-d3" in out  # the game went on


def test_saving_into_a_missing_directory_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "no" / "such" / "dir.json"
    status, out, _ = run(["loa", *FAST], [f"save {path}", "save", "quit"], monkeypatch, capsys)
    assert status == 0
    answers = replies(out)
    assert answers[1].startswith(f"Could not save to {path}:")
    assert answers[2].startswith("Save needs a file name")
    assert not path.parent.exists()


def record_of_two_moves() -> dict[str, Any]:
    state = LOA.new()
    state.play_text("b1-d3")
    state.play_text("a2-c4")
    return state.to_json()


def bad_files() -> list[Any]:
    good = json.dumps(record_of_two_moves())

    def edited(old: str, new: str) -> bytes:
        assert old in good
        return good.replace(old, new, 1).encode()

    cases: list[tuple[str, bytes | None, str]] = [
        ("missing", None, "no such file"),
        ("empty", b"", "the file is empty"),
        ("blank", b"  \n", "the file is empty"),
        ("truncated", good[: len(good) // 2].encode(), "not valid JSON"),
        ("not-json", b"b1-d3 a2-c4\n", "not valid JSON"),
        ("not-text", b"\xff\xfe\x00garbage", "not UTF-8"),
        ("not-an-object", b"[1, 2, 3]", "must be a JSON object"),
        ("wrong-format", edited('"parlour.record"', '"chess.pgn"'), "not a parlour match record"),
        ("wrong-version", edited('"version": 1', '"version": 99'), "version 99 is not supported"),
        ("wrong-game", edited('"game": "loa"', '"game": "mille"'), "record of 'mille', not 'loa'"),
        ("illegal-record", edited("[83, ", "[83, 83, "), "action 2 of the record"),
        ("bad-option", edited('"move_limit": 60', '"move_limit": "x"'), "move_limit"),
        ("missing-field", edited('"seed"', '"sid"'), "no 'seed'"),
    ]
    return [pytest.param(content, message, id=name) for name, content, message in cases]


@pytest.mark.parametrize(("content", "message"), bad_files())
def test_a_bad_save_file_gets_one_clear_line_and_status_1(
    content: bytes | None, message: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "saved.json"
    if content is not None:
        path.write_bytes(content)
    status, out, err = run(["loa", "--load", str(path)], ["quit"], monkeypatch, capsys)
    assert status == 1
    assert out == ""
    assert err.startswith(f"parlour play: cannot load {path}: ")
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert (path.read_bytes() if path.exists() else None) == content  # nothing overwritten
    assert sorted(os.listdir(tmp_path)) == ([] if content is None else ["saved.json"])


def test_a_directory_is_not_a_save_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["loa", "--load", str(tmp_path)], [], monkeypatch, capsys)
    assert (status, out) == (1, "")
    assert "directory" in err
    assert err.count("\n") == 1


def test_a_bad_file_through_the_real_command(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    path.write_text('{"format": "parlour.record", "version": 1, "game": "loa"')
    result = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "play", "loa", "--load", str(path)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=60,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"parlour play: cannot load {path}: not valid JSON")
    assert "Traceback" not in result.stderr


# --- the command line ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "name the game"),
        (["chess"], "unknown game 'chess'"),
        (["loa", "--players", "3"], "not 3"),
        (["loa", "--players", "two"], "--players"),
        (["loa", "--seat", "2=human"], "no seat '2'"),
        (["loa", "--seat", "purple=human"], "no seat 'purple'"),
        (["loa", "--seat", "1"], "write SEAT=WHO"),
        (["loa", "--seat", "1=robot"], "not 'robot'"),
        (["loa", "--seat", "1=bot:nonesuch"], "not 'bot:nonesuch'"),
        (["loa", "--seat", "0=human", "--seat", "black=bot"], "given twice"),
        (["loa", "--option", "speed=11"], "no option 'speed'"),
        (["loa", "--option", "move_limit=lots"], "must be an integer"),
        (["loa", "--option", "repetition=always"], "must be one of"),
        (["loa", "--option", "move_limit"], "write NAME=VALUE"),
        (["loa", "--seed", "x"], "--seed"),
        (["loa", "--time", "0"], "--time must be a positive"),
        (["loa", "--time", "-1"], "--time must be a positive"),
        (["loa", "--time", "inf"], "--time must be a positive"),
        (["loa", "--load", "x.json", "--option", "move_limit=10"], "cannot be used with --load"),
        (["loa", "--frobnicate"], "unrecognized arguments"),
        (["loa", "extra"], "unrecognized arguments"),
    ],
)
def test_bad_arguments_exit_with_status_2(
    args: list[str], message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(args, [], monkeypatch, capsys)
    assert status == 2
    assert out == ""
    assert err.startswith("parlour play: ")
    assert message in err.splitlines()[0]
    assert "Traceback" not in err


def test_bad_arguments_through_the_real_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "play", "loa", "--seat", "1=bot:nonesuch"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("parlour play: ")
    assert "Traceback" not in result.stderr


def test_help_option_exits_0(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["--help"], [], monkeypatch, capsys)
    assert status == 0
    assert err == ""
    assert "--seat" in out
    assert "--load" in out


def test_seats_default_to_the_human_first_and_bots_elsewhere() -> None:
    names = ["Black", "White"]
    assert play.read_seats(LOA, names, []) == ["human", "strong"]
    assert play.read_seats(LOA, names, ["1=human"]) == ["strong", "human"]
    assert play.read_seats(LOA, names, ["black=bot:random"]) == ["random", "human"]
    assert play.read_seats(LOA, names, ["0=bot", "White=bot:greedy"]) == ["strong", "greedy"]


def test_conflict_seats_are_named_by_the_colours_the_match_uses(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    # CON-17: with seats [1, 4] the second player is Yellow, and answers to that name.
    status, out, err = run(["conflict", "--option", "seats=1,4", "--seat", "yellow=bot:random", "--seat",
                            "red=human"], ["quit"], monkeypatch, capsys)
    assert status == 0, err
    assert out.startswith("Conflict. Red: you, Yellow: bot:random.")


def test_options_are_passed_to_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["loa", "--option", "move_limit=2", *FAST], ["b1-d3"], monkeypatch, capsys)
    assert status == 0
    assert "(ply 0 of 2)" in out
    # LOA-13.4, in the game's words for its end reason
    assert out.rstrip().splitlines()[-1] == f"Result: draw ({LOA.info.reason_words('move-limit')})"


# --- the end of input ------------------------------------------------------------------------------


def test_end_of_input_leaves_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 18: Ctrl-D asks too, and Ctrl-D at the question leaves; the game is kept for --resume
    # (typed at a terminal: a script's piped moves keep nothing, test_saves.py).
    status, out, err = run(["loa", *FAST], ["b1-d3"], monkeypatch, capsys, terminal=True)
    assert status == 0
    assert err == ""
    assert out.endswith("Black to move> \nSave the game before leaving (2 moves not saved)? y(es), n(o) or "
                        "c(ancel): \nGame left unfinished; it is kept: parlour play --resume takes it up "
                        "again.\n")


def test_quit_leaves_at_once(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["loa", *FAST], ["QUIT", "b1-d3"], monkeypatch, capsys)
    assert status == 0
    assert out.endswith("Game left unfinished.\n")
    assert "plays" not in out


def test_text_keeps_the_line_interface(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 18: "--text keeps today's line interface for scripts and pipes".
    assert play.read_settings(["loa", "--text"]).text is True
    assert play.read_settings(["loa"]).text is False
    status, out, err = run(["loa", "--text", *FAST], ["quit"], monkeypatch, capsys)
    assert status == 0, err
    assert out.startswith("Lines of Action. Black: you, White: bot:random.")
    status, out, _ = run(["--help"], [], monkeypatch, capsys)
    assert "keep the line interface (for scripts and pipes)" in " ".join(out.split())


def test_a_move_the_notation_reads_but_the_rules_forbid_is_refused_in_the_engines_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 18: "An illegal action says why, from the engine". The gate after parse_action (a
    # notation that reads more than the rules allow) says the engine's reason (State.refusal), in
    # the line interface and in a seat of a server's match alike: one check, in Session.
    from parlour.tui.remote import RemoteSession

    tictactoe = get_game("tictactoe")
    settings = play.read_settings(["tictactoe", "--seat", "0=human", "--seat", "1=human"])
    state = settings.state
    state.play_text("b2")
    taken = state.history[0]
    monkeypatch.setattr(type(state), "parse_action", lambda self, text: taken)  # b2, taken already
    said: list[str] = []
    session = play.Session(settings, ask=lambda prompt: "b2", say=said.append, complain=said.append)
    assert session.human_turn(1) is None
    remote = RemoteSession.__new__(RemoteSession)  # only what reading a move needs: no server
    remote.game, remote.state, remote.seat, remote.say = tictactoe, state, 1, said.append
    monkeypatch.setattr(remote, "play_move", lambda seat, action: pytest.fail("an illegal move was sent"))
    remote.read_move("b2")
    words = ("That move is not allowed: b2: already holds an X, and a mark goes only on an empty "
             "square (TTT-3). Type 'moves' for the legal moves.")
    assert said[-2:] == [words, words]
    assert state.history == [taken]
