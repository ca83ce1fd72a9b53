"""The text program ``parlour loa`` (specs/loa.md, LOA-30 to LOA-81), rule ids cited.

Most tests call ``loa_program.run`` with the three standard streams as strings; the tests about
the process itself (exit statuses, flushing, signals, pipes, determinism) start the real command.
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path
from typing import Any, ClassVar

import pytest

import parlour.bots
from parlour.bots import Bot
from parlour.engine import State
from parlour.games.loa import PASS
from parlour.tui import loa_program
from parlour.tui.loa_program import BANNER, HELP_TEXT, USAGE

CONFORMANCE = Path(__file__).resolve().parent / "conformance"
COMMAND = [sys.executable, "-m", "parlour.cli", "loa"]

INITIAL_DUMP = (
    "===\n"
    "    - b b b b b b - \n"
    "    w - - - - - - w \n"
    "    w - - - - - - w \n"
    "    w - - - - - - w \n"
    "    w - - - - - - w \n"
    "    w - - - - - - w \n"
    "    w - - - - - - w \n"
    "    - b b b b b b - \n"
    "Next move: black\n"
    "===\n"
)


def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """The program in this process: (exit status, standard output, standard error)."""
    out, err = io.StringIO(), io.StringIO()
    status = loa_program.run(list(args), io.StringIO(stdin), out, err)
    return status, out.getvalue(), err.getvalue()


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*COMMAND, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop(process: subprocess.Popen[str]) -> None:
    """Ends a process this test started and closes its pipes."""
    process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with suppress(OSError):
                stream.close()


def dialogue(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The real ``parlour loa`` process."""
    return subprocess.run(
        [*COMMAND, *args], input=stdin, capture_output=True, text=True, timeout=timeout, check=False
    )


def dumps(out: str) -> list[str]:
    return re.findall(r"===\n.*?===\n", out, re.DOTALL)


def rows(dump: str) -> list[str]:
    """The board rows of a dump without spaces, row 8 first."""
    return [line.replace(" ", "") for line in dump.splitlines()[1:9]]


# --- banner, prompts, dump, end of input (LOA-40, LOA-41, LOA-70 to LOA-72) -------------------


def test_banner_prompt_and_end_of_input() -> None:
    """LOA-70, LOA-71, LOA-41.4: banner, Black's prompt, then exit 0 with nothing more."""
    result = dialogue()
    assert (result.returncode, result.stdout, result.stderr) == (0, BANNER + "b> ", "")


def test_dump_of_the_initial_position() -> None:
    """LOA-59, LOA-72: the exact dump, every row ending in a space; Black prompted again (LOA-42)."""
    assert run(stdin="dump\n") == (0, BANNER + "b> " + INITIAL_DUMP + "b> ", "")


def test_prompts_follow_the_side_to_move() -> None:
    """LOA-71: ``b> `` and ``w> `` while a game is in progress; nothing printed for typed moves."""
    status, out, _ = run(stdin="manual white\nb1-d3\na3-d3\n")
    assert (status, out) == (0, BANNER + "b> b> w> b> ")


def test_prompt_is_flushed_without_newline() -> None:
    """LOA-71: the prompt reaches a pipe at once, before any input is sent."""
    process = start()
    assert process.stdout is not None
    assert process.stdin is not None
    try:
        assert process.stdout.read(len(BANNER) + 3) == BANNER + "b> "
        process.stdin.write("dump\n")
        process.stdin.flush()
        assert process.stdout.read(len(INITIAL_DUMP) + 3) == INITIAL_DUMP + "b> "
        process.stdin.close()
        assert process.wait(30) == 0
    finally:
        stop(process)


def test_quit_ends_at_once() -> None:
    """LOA-60: exit 0; later lines are not read."""
    assert run(stdin="quit\ndump\n") == (0, BANNER + "b> ", "")


def test_comments_and_blank_lines() -> None:
    """LOA-50, LOA-51: blank lines and ``#`` lines do nothing (each still reads a new line)."""
    assert run(stdin="\n   \n# a comment\n#* move\n") == (0, BANNER + "b> " * 5, "")


def test_commands_are_case_insensitive() -> None:
    """LOA-50: the command word and the player arguments in any case."""
    status, out, err = run(stdin="DUMP\nManual WHITE\nb1-d3\nSet d4 BLACK White\n")
    assert (status, err) == (0, "")
    assert out.endswith("w> ")


# --- moves (LOA-52) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("b1-c3", "unknown command: b1-c3"),  # no common line
        ("a1-a1", "unknown command: a1-a1"),  # the same square
        ("B1-D3", "unknown command: B1-D3"),  # squares are lower case
        ("b1-d3x", "unknown command: b1-d3x"),  # a letter right after the move
        ("b1-d3_", "unknown command: b1-d3_"),
        ("b1-i3", "unknown command: b1-i3"),
        ("hello world", "unknown command: hello world"),
        ("a2-a7", "illegal move: a2-a7"),  # White's piece, Black to move
        ("b1-b2", "illegal move: b1-b2"),  # wrong distance
        ("d4-d6", "illegal move: d4-d6"),  # an empty square
        ("b1-b2   # trailing text", "illegal move: b1-b2   # trailing text"),  # the whole line
    ],
)
def test_move_errors(line: str, message: str) -> None:
    """LOA-52, LOA-62, LOA-76: the error, and the position unchanged."""
    status, out, err = run(stdin=f"  {line}  \ndump\n")
    assert (status, err) == (0, f"Error: {message}\n")
    assert dumps(out) == [INITIAL_DUMP]


def test_a_move_with_trailing_text_is_made() -> None:
    """LOA-52: text after the move (not a letter, digit or _) is ignored."""
    status, out, err = run(stdin="manual white\nb1-d3 # develop\nb8-b6\ndump\n")
    assert (status, err) == (0, "Error: illegal move: b8-b6\n")  # White to move now
    assert "Next move: white" in dumps(out)[0]
    assert rows(dumps(out)[0])[5] == "w--b---w"


def test_no_game_in_progress() -> None:
    """LOA-44, LOA-52, LOA-74: after a result, moves are refused; the result is printed once."""
    removals = "".join(f"set {c}8 - black\n" for c in "bcdefg")
    status, out, err = run(stdin="manual white\n" + removals + "b1-b3\ndump\nmanual black\n")
    assert status == 0
    assert err == "Error: no game in progress\n"
    assert out.count("* Black wins.\n") == 1
    assert out.endswith("b> * Black wins.\n-> -> " + dumps(out)[0] + "-> -> ")


# --- errors and --strict (LOA-31, LOA-76) --------------------------------------------------

ERRORS = [
    ("a2-a7", "illegal move: a2-a7"),
    ("b1-c3", "unknown command: b1-c3"),
    ("auto red", "unknown player: red"),
    ("manual", "unknown player: "),
    ("seed 12x", "Invalid number: 12x"),
    ("set d4 black -", "invalid next player: -"),
    ("set d4 red white", "invalid arguments to set: set d4 red white"),
]


@pytest.mark.parametrize(("line", "message"), ERRORS)
def test_errors_on_standard_error(line: str, message: str) -> None:
    """LOA-76: ``Error: `` and the message, one line ending in a newline; stdout untouched."""
    status, out, err = run(stdin=f"{line}\ndump\n")
    assert (status, err, dumps(out)) == (0, f"Error: {message}\n", [INITIAL_DUMP])


@pytest.mark.parametrize(("line", "message"), ERRORS)
def test_strict_ends_with_status_2(line: str, message: str) -> None:
    """LOA-31: under --strict an error ends the program with status 2 right after the message."""
    assert run("--strict", stdin=f"{line}\ndump\n") == (2, BANNER + "b> ", f"Error: {message}\n")


def test_strict_keeps_going_after_limit_errors() -> None:
    """LOA-31: the two errors of ``limit`` do not end the program, even under --strict."""
    status, out, err = run("--strict", stdin="limit 0\nlimit x\ndump\n")
    assert status == 0
    assert err == "Error: move limit too small\nError: badly formed numeral\n"
    assert dumps(out) == [INITIAL_DUMP]


def test_strict_exit_of_the_real_process() -> None:
    """LOA-31, LOA-37: the process's own exit status."""
    result = dialogue("--strict", stdin="b1-c3\n")
    assert (result.returncode, result.stderr) == (2, "Error: unknown command: b1-c3\n")


# --- seed, auto, manual (LOA-54 to LOA-56) -------------------------------------------------


@pytest.mark.parametrize("text", ["12x", "", "9223372036854775808", "-9223372036854775809", "1_0", "0x10"])
def test_seed_needs_a_64_bit_integer(text: str) -> None:
    """LOA-54: ``Invalid number: N`` with N as typed (empty when missing)."""
    assert run(stdin=f"seed {text}\n")[2] == f"Error: Invalid number: {text}\n"


@pytest.mark.parametrize("text", ["0", "+5", "-9223372036854775808", "9223372036854775807"])
def test_seed_accepts(text: str) -> None:
    assert run(stdin=f"seed {text}\n")[2] == ""


def test_unknown_player_is_lower_cased() -> None:
    """LOA-55, LOA-56."""
    assert run(stdin="auto RED\nmanual\n")[2] == "Error: unknown player: red\nError: unknown player: \n"


# --- set (LOA-57) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("set d4 red -", "invalid arguments to set: set d4 red -"),  # check 1 before check 3
        ("set z9 red white", "invalid arguments to set: set z9 red white"),  # 1 before 4
        ("set d4 RED White", "invalid arguments to set: set d4 red white"),  # lower-cased
        ("set d4 red", "invalid arguments to set: set d4 red "),  # missing N is empty
        ("set d4 black purple", "invalid arguments to set: set d4 black purple"),  # check 2
        ("set z9 black purple", "invalid arguments to set: set z9 black purple"),  # 2 before 4
        ("set d4 black", "invalid next player: -"),  # check 3
        ("set d4", "invalid next player: -"),  # a missing P counts as '-'
        ("set z9 black -", "invalid next player: -"),  # 3 before 4
        ("set", "invalid next player: -"),
        ("set z9 black white", "invalid arguments to set: set z9 black white"),  # check 4
        ("set D4 black white", "invalid arguments to set: set D4 black white"),  # CR as typed
        ("set d44 - black", "invalid arguments to set: set d44 - black"),
    ],
)
def test_set_checks_in_order(line: str, message: str) -> None:
    """LOA-57: the first failing check reports; nothing else changes (LOA-62)."""
    status, out, err = run(stdin=f"{line}\ndump\n")
    assert (status, err, dumps(out)) == (0, f"Error: {message}\n", [INITIAL_DUMP])


def test_set_edits_the_position_only() -> None:
    """LOA-57: piece and side to move change; plies made, limit and players do not."""
    script = "manual white\nb1-d3\na3-d3\nset d4 BLACK white\nset d3 - black\nset e4 w black\ndump\nlimit 1\n"
    status, out, err = run(stdin=script)
    assert status == 0
    assert err == (
        "Error: invalid arguments to set: set e4 w black\n"  # 'w' is not a piece name
        "Error: move limit too small\n"  # two plies were made before: 2 <= 2
    )
    board = rows(dumps(out)[0])
    assert board[4] == "w--b---w"  # row 4: d4 black
    assert board[5] == "-------w"  # row 3: d3 emptied (White had captured there)
    assert dumps(out)[0].endswith("Next move: black\n===\n")
    assert out.endswith("b> w> b> b> " + dumps(out)[0] + "b> b> ")  # White stayed manual


def test_set_announces_a_finished_game() -> None:
    """LOA-57, LOA-12: a position that is over ends the game at once; the side not to move
    wins when both sides are contiguous."""
    removals = "".join(f"set {c}8 - black\n" for c in "bcdefg")
    out = run(stdin="manual white\n" + removals)[1]
    assert out.endswith("* Black wins.\n-> ")


def test_set_does_not_restart_a_finished_game() -> None:
    """LOA-44: after the end, set still edits the board but the game stays over."""
    removals = "".join(f"set {c}8 - black\n" for c in "bcdefg")
    status, out, err = run(stdin="manual white\n" + removals + "set b8 black black\nb1-b3\ndump\n")
    assert (status, err) == (0, "Error: no game in progress\n")
    assert rows(dumps(out)[0])[0] == "-b------"


W14_DUMP = (
    "===\n"
    "    - - - - - - w b \n"
    "    - - - - - - w w \n"
    "    - - - - - - - - \n"
    "    - - - - - - - - \n"
    "    - - - - - - - - \n"
    "    - - - - - - - - \n"
    "    w w - - - - - - \n"
    "    b w - - - - - - \n"
    "Next move: black\n"
    "===\n"
)


def w14_set_up() -> str:
    """W-14 from the initial position by ``set``, never passing through a finished game or a
    position where Black must pass: the white extras go first, Black's extras last."""
    lines = ["manual white"]
    lines += [f"set {square} black black" for square in ("a1", "h8")]
    lines += [f"set {square} white black" for square in ("b1", "b2", "g7", "g8")]
    lines += [f"set {square} - black" for square in ("a3", "a4", "a5", "a6", "a7")]
    lines += [f"set {square} - black" for square in ("h2", "h3", "h4", "h5", "h6")]
    lines += [f"set {c}1 - black" for c in "cdefg"]
    lines += [f"set {c}8 - black" for c in "bcdef"]
    return "\n".join(lines) + "\n"


def test_w14_black_passes() -> None:
    """LOA-11, LOA-41.2, LOA-75 (W-14): Black has no move; the pass is applied and printed, and
    it counts as a ply: with limit 1 (two plies) White's next move ends the game."""
    status, out, err = run(stdin=w14_set_up() + "dump\nlimit 1\ng7-g5\n")
    assert (status, err) == (0, "")
    assert out.count("Black passes (no legal move).\n") == 1
    before, after = out.split("Black passes (no legal move).\n")
    assert before.endswith("b> ")
    assert after == "w> " + W14_DUMP.replace("black", "white") + "w> w> * Tie game.\n-> "


def test_w15_simultaneous_connection() -> None:
    """LOA-13.1 (W-15): White's g6-d6 joins both sides; the mover, White, wins."""
    lines = ["manual white"]
    lines += [f"set {square} black black" for square in ("a1", "a2", "a3", "d6")]
    lines += [f"set {square} white black" for square in ("c6", "c7", "g6")]
    lines += [f"set a{row} - black" for row in "4567"]
    lines += [f"set h{row} - black" for row in "234567"]
    lines += [f"set {c}1 - black" for c in "bcdefg"]
    lines += [f"set {c}8 - black" for c in "bcdef"]
    lines += ["set g8 - white", "dump", "g6-d6", "dump"]
    status, out, err = run(stdin="\n".join(lines) + "\n")
    assert (status, err) == (0, "")
    first, second = dumps(out)
    assert rows(first) == ["--------", "--w-----", "--wb--w-", "--------", "--------", "b-------",
                           "b-------", "b-------"]
    assert first.endswith("Next move: white\n===\n")
    assert out.endswith("w> " + first + "w> * White wins.\n-> " + second + "-> ")
    assert "passes" not in out


# --- limit and new (LOA-53, LOA-58) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("limit x", "badly formed numeral"),
        ("limit", "badly formed numeral"),
        ("limit 2147483648", "badly formed numeral"),  # beyond 32 bits signed
        ("limit 1.5", "badly formed numeral"),
        ("limit 0", "move limit too small"),
        ("limit -3", "move limit too small"),
        ("limit -2147483648", "move limit too small"),
    ],
)
def test_limit_errors(line: str, message: str) -> None:
    """LOA-58."""
    assert run(stdin=f"{line}\n")[2] == f"Error: {message}\n"


def test_limit_counts_moves_per_side() -> None:
    """LOA-16, LOA-58: ``limit 1`` is two plies; the second ends the game as a tie."""
    status, out, err = run(stdin="manual white\nlimit +1\nb1-d3\na3-d3\n")
    assert (status, err) == (0, "")
    assert out.endswith("w> * Tie game.\n-> ")


def test_limit_must_exceed_the_plies_made() -> None:
    """LOA-58: 2N <= plies made is too small; the limit is unchanged then."""
    moves = "b1-d3\na3-d3\nc1-c3\na2-c2\n"
    status, out, err = run(stdin=f"manual white\n{moves}limit 2\nlimit 3\ne1-e3\nh7-f7\n")
    assert (status, err) == (0, "Error: move limit too small\n")
    assert out.endswith("* Tie game.\n-> ")  # limit 3 = 6 plies, made by the last move


def test_new_resets_position_and_limit() -> None:
    """LOA-53: initial position, Black to move, limit back to 60; players unchanged."""
    two_plies = "b1-d3\na3-d3\n"
    status, out, err = run(stdin=f"manual white\nlimit 1\n{two_plies}new ignored words\n{two_plies}dump\n")
    assert (status, err) == (0, "")
    assert out.count("* Tie game.") == 1
    assert rows(dumps(out)[0]) == [
        "-bbbbbb-", "w------w", "w------w", "w------w", "w------w", "---w---w", "w------w", "--bbbbb-",
    ]  # W-3, and the game goes on: the limit is 60 plies again


# --- help and usage (LOA-36, LOA-61, LOA-77, LOA-78) -----------------------------------------


@pytest.mark.parametrize("word", ["help", "?", "HELP extra words"])
def test_help_on_standard_error(word: str) -> None:
    """LOA-61, LOA-77: the CS61B help text, byte for byte, on standard error only."""
    expected = (CONFORMANCE / "HelpText.txt").read_text()
    assert expected == HELP_TEXT
    assert run("--strict", stdin=f"{word}\n") == (0, BANNER + "b> b> ", expected)


def test_usage_text() -> None:
    """LOA-78."""
    assert USAGE == (
        "Usage: parlour loa [ --debug=NUM ] [ --strict ] [ --log=FILE ] [ --time=SECS ] [ --display ]"
        " [ INPUT [ OUTPUT ] ]\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--bogus"],
        ["-x"],
        ["--strict=yes"],
        ["--time=0"],
        ["--time=-1"],
        ["--time=abc"],
        ["--time=1e3"],
        ["--debug=x"],
        ["--debug="],
        ["--log="],
        ["--log"],
        ["a", "b", "c"],
        ["in.txt", "--strict"],
    ],
)
def test_usage_errors(args: list[str]) -> None:
    """LOA-36: the usage text on standard error, status 1, nothing else."""
    assert run(*args, stdin="dump\n") == (1, "", USAGE)


def test_usage_exit_of_the_real_process() -> None:
    result = dialogue("--nonsense")
    assert (result.returncode, result.stdout, result.stderr) == (1, "", USAGE)


@pytest.mark.parametrize("args", [["--time=0.5"], ["--time=.5"], ["--time=2."], ["--debug=0"], ["-"]])
def test_good_options(args: list[str]) -> None:
    assert run(*args, stdin="dump\n") == (0, BANNER + "b> " + INITIAL_DUMP + "b> ", "")


def test_display_is_not_there_yet() -> None:
    """LOA-35: parlour says so on standard error and runs the dialogue without the banner."""
    status, out, err = run("--display", stdin="dump\n")
    assert (status, out) == (0, "b> " + INITIAL_DUMP + "b> ")
    assert "not available" in err


# --- files (LOA-30, LOA-32) ------------------------------------------------------------------


def test_input_and_output_files(tmp_path: Path) -> None:
    """LOA-30: commands from INPUT, standard output to OUTPUT (created or truncated)."""
    (tmp_path / "in.txt").write_text("dump\nb1-c3\n")
    (tmp_path / "out.txt").write_text("old contents that must go\n" * 10)
    status, out, err = run(str(tmp_path / "in.txt"), str(tmp_path / "out.txt"), stdin="quit\n")
    assert (status, out, err) == (0, "", "Error: unknown command: b1-c3\n")
    assert (tmp_path / "out.txt").read_text() == BANNER + "b> " + INITIAL_DUMP + "b> b> "


def test_input_file_only(tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_text("dump")  # no final newline
    assert run(str(tmp_path / "in.txt")) == (0, BANNER + "b> " + INITIAL_DUMP + "b> ", "")


def test_missing_input_file(tmp_path: Path) -> None:
    """LOA-30: ``Could not open file: REASON`` naming the file and the reason; status 1."""
    missing = tmp_path / "missing.in"
    assert run(str(missing), str(tmp_path / "out.txt")) == (
        1, "", f"Could not open file: {missing} (No such file or directory)\n"
    )
    assert not (tmp_path / "out.txt").exists()


def test_output_file_that_cannot_be_created(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir.txt"
    status, out, err = run("-", str(target), stdin="dump\n")
    assert (status, out) == (1, "")
    assert err == f"Could not open file: {target} (No such file or directory)\n"


def test_a_directory_is_not_an_input(tmp_path: Path) -> None:
    status, out, err = run(str(tmp_path))
    assert (status, out) == (1, "")
    assert err.startswith(f"Could not open file: {tmp_path} (")


def test_log_file(tmp_path: Path) -> None:
    """LOA-32: every non-blank processed line, trimmed, in order, including errors and comments."""
    log = tmp_path / "game.log"
    script = "  # hello  \n\n   \nmanual white\nb1-d3 # first\nb1-c3\n a3-d3\nquit\ndump\n"
    status, _, _ = run(f"--log={log}", stdin=script)
    assert status == 0
    assert log.read_text() == "# hello\nmanual white\nb1-d3 # first\nb1-c3\na3-d3\nquit\n"


def test_log_includes_the_ai_moves(tmp_path: Path) -> None:
    """LOA-32, LOA-43: the AI's moves are logged where they were processed."""
    log = tmp_path / "ai.log"
    status, out, err = run(f"--log={log}", "--time=0.05", stdin="seed 3\nb1-d3\ndump\n")
    assert (status, err) == (0, "")
    reply = re.findall(r"\* ([a-h][1-8]-[a-h][1-8])\n", out)  # after the prompt "b> "
    assert len(reply) == 1
    assert log.read_text() == f"seed 3\nb1-d3\n{reply[0]}\ndump\n"


def test_log_file_that_cannot_be_created(tmp_path: Path) -> None:
    """LOA-32: ``Error: Could not open log file`` and status 1."""
    assert run(f"--log={tmp_path}/no/such.log", stdin="dump\n") == (1, "", "Error: Could not open log file\n")


# --- the AI (LOA-41, LOA-43, LOA-73, LOA-80, LOA-81) -------------------------------------------


def test_ai_moves_at_once_when_given_the_side_to_move() -> None:
    """LOA-44, LOA-73: ``auto black`` on Black's turn: ``* MOVE`` with no prompt before it."""
    status, out, err = run("--time=0.05", stdin="manual white\nauto black\n")
    assert (status, err) == (0, "")
    assert re.fullmatch(re.escape(BANNER) + r"b> b> \* [a-h][1-8]-[a-h][1-8]\nw> ", out)


def test_ai_versus_ai_is_deterministic_given_a_seed() -> None:
    """LOA-81: the same seed, commands and --time give the same moves; --debug adds only to
    standard error (LOA-33). LOA-41: the result ends the game, then the ``-> `` prompt."""
    script = "seed 20200320\nlimit 4\nauto black\n"
    first = dialogue("--time=0.1", stdin=script)
    second = dialogue("--time=0.1", stdin=script)
    debugged = dialogue("--time=0.1", "--debug=2", stdin=script)
    assert first.returncode == second.returncode == debugged.returncode == 0
    assert first.stdout == second.stdout == debugged.stdout
    assert (first.stderr, second.stderr) == ("", "")
    assert "[debug" in debugged.stderr
    moves = re.findall(r"\* [a-h][1-8]-[a-h][1-8]\n", first.stdout)
    assert len(moves) == 8
    assert first.stdout.endswith("* Tie game.\n-> ")


class RecordingBot(Bot):
    """Plays the first legal action, or ``answer``, and records what it was shown."""

    made: ClassVar[list[RecordingBot]] = []

    def __init__(self, seed: int, answer: int | None = None) -> None:
        super().__init__(seed)
        self.seeds = [seed]
        self.answer = answer
        self.seen: list[tuple[int, float, dict[str, Any]]] = []
        RecordingBot.made.append(self)

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        self.seeds.append(seed)

    def choose(self, state: State, seconds: float) -> int:
        self.seen.append((state.options["move_limit"], seconds, state.position_json()))
        return state.legal_actions()[0] if self.answer is None else self.answer


@pytest.fixture
def recording_bot(monkeypatch: pytest.MonkeyPatch) -> list[RecordingBot]:
    RecordingBot.made = []
    monkeypatch.setattr(parlour.bots, "make_bot", lambda game, kind, seed=0: RecordingBot(seed))
    return RecordingBot.made


def test_the_ai_sees_the_game_as_it_is(recording_bot: list[RecordingBot]) -> None:
    """LOA-80: the bot gets the position, the current move limit and the --time budget;
    LOA-54: ``seed`` seeds it, also once it exists."""
    status, out, err = run("--time=2.5", stdin="seed 42\nlimit 7\nmanual white\nauto black\nseed -1\n")
    assert (status, err) == (0, "")
    assert out.endswith("b> b> b> b> * b1-h1\nw> w> ")
    [bot] = recording_bot
    assert bot.seeds == [42, -1]
    assert [(limit, seconds) for limit, seconds, _ in bot.seen] == [(14, 2.5)]
    assert bot.seen[0][2]["to_move"] == "black"


def test_without_seed_the_ai_is_seeded_unpredictably(recording_bot: list[RecordingBot]) -> None:
    """LOA-40, LOA-81."""
    run(stdin="auto black\nquit\n")
    run(stdin="auto black\nquit\n")
    assert recording_bot[0].seeds != recording_bot[1].seeds


@pytest.mark.parametrize("answer", [PASS, 0])
def test_an_illegal_ai_answer_is_an_internal_error(monkeypatch: pytest.MonkeyPatch, answer: int) -> None:
    """LOA-37, LOA-80: a bot bug ends the program with a one-line report, not a traceback."""
    monkeypatch.setattr(parlour.bots, "make_bot", lambda game, kind, seed=0: RecordingBot(seed, answer))
    status, out, err = run(stdin="auto black\n")
    assert (status, out) == (loa_program.EXIT_INTERNAL, BANNER + "b> ")
    assert err.startswith("parlour loa: internal error: the AI chose an illegal action")
    assert "Traceback" not in err


# --- the process never shows a traceback (LOA-37) ---------------------------------------------


def test_closed_standard_output() -> None:
    """LOA-37: a reader that goes away is no reason for a traceback."""
    process = start()
    assert process.stdout is not None
    assert process.stdin is not None
    assert process.stderr is not None
    process.stdout.close()
    with suppress(BrokenPipeError):
        process.stdin.write("dump\n" * 2000)
        process.stdin.close()
    try:
        status = process.wait(30)
        error = process.stderr.read()
    finally:
        stop(process)
    assert "Traceback" not in error
    assert status == 1


def test_interrupt() -> None:
    """LOA-37: Ctrl-C at a prompt ends the program quietly."""
    process = start()
    assert process.stdout is not None
    try:
        assert process.stdout.read(len(BANNER) + 3) == BANNER + "b> "
        time.sleep(0.2)
        os.kill(process.pid, signal.SIGINT)
        _, error = process.communicate(timeout=30)
    finally:
        stop(process)
    assert "Traceback" not in error
    assert process.returncode == 130
