"""``parlour ladder`` on bad input (issue 19's review): "bad input gets a clear error and loses
nothing" — a results file that is not UTF-8 or names impossible games, a ``--file`` that cannot be
a file, a rules option whose value (a whole map) cannot go into a file name. Tic-tac-toe at tiny
budgets, for speed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.bots import ladder
from parlour.games import get_game

TINY = ["--budgets", "0.001", "--jobs", "1"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = ladder.main([*argv, *TINY])
    out, err = capsys.readouterr()
    return status, out, err


def played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, list[str]]:
    """A file of a finished tic-tac-toe ladder, and the command that wrote it."""
    path = tmp_path / "ttt.jsonl"
    argv = ["tictactoe", "--games", "2", "--file", str(path)]
    assert run(capsys, *argv)[0] == 0
    return path, argv


def test_a_line_that_is_not_utf8_is_a_damaged_line_named_and_nothing_is_lost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, argv = played(tmp_path, capsys)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"tictactoe"', b'"tic\xe9tac"')  # Latin-1, as another editor may save
    damaged = b"".join(lines)
    path.write_bytes(damaged)
    status, out, err = run(capsys, *argv)
    assert status == 1
    assert f"{path}, line 3 is damaged (not UTF-8 text: byte 0xe9 at column " in err
    assert "mend or remove that line" in err
    assert out == ""
    assert path.read_bytes() == damaged


@pytest.mark.parametrize(("change", "problem"), [
    ({"b": "random", "a": "random"}, "'a' and 'b' are both 'random': a game is between two entrants"),
    ({"b": "wizard"}, "'b' is 'wizard', and tictactoe has no such bot (its bots: random, greedy, strong)"),
    ({"a": "greedy@0.2"},
     "'a' is 'greedy@0.2', but greedy plays alike whatever its time, so it enters without one"),
    ({"a": "strong"}, "'a' is 'strong', but strong enters at a budget, as strong@SECONDS"),
    ({"a": "strong@fast"}, "no entrant 'strong@fast'"),
])
def test_a_line_with_no_game_the_ladder_could_play_is_refused_naming_it(
        change: dict[str, str], problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, argv = played(tmp_path, capsys)
    lines = path.read_text().splitlines(keepends=True)
    lines[1] = json.dumps({**json.loads(lines[1]), **change}) + "\n"
    damaged = "".join(lines)
    path.write_text(damaged)
    status, out, err = run(capsys, *argv)
    assert status == 1
    assert f"{path}, line 2 is damaged ({problem})" in err
    assert out == ""
    assert path.read_text() == damaged


def test_a_file_that_is_a_directory_or_under_a_file_is_a_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "tictactoe", "--games", "2", "--file", str(tmp_path))
    assert status == 1
    assert err.startswith(f"parlour ladder: the results file {tmp_path} cannot be used (Is a directory")
    assert "give another --file" in err
    assert out == ""
    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine\n")
    status, _, err = run(capsys, "tictactoe", "--games", "2", "--file", str(blocker / "ttt.jsonl"))
    assert status == 1
    assert f"the results file {blocker / 'ttt.jsonl'} cannot be used ({blocker} is a file, not a folder)" \
        in err
    assert blocker.read_text() == "mine\n"


def test_a_map_given_as_a_rules_option_makes_a_short_safe_default_file_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # the user's data directory, for the test
    maps = get_game("conflict").boards
    assert maps is not None
    ocean = maps.shipped()["ocean"]
    path = ladder.read_ladder(["conflict", "--option", f"board={ocean}"]).path
    assert path.parent == tmp_path / "parlour" / "ladders"
    name = path.name
    assert name.startswith("conflict-2p-board=_ocean_a_26x26_map")
    assert name.endswith(".jsonl")
    assert len(name) < 80
    assert all(letter.isalnum() or letter in "_.=-" for letter in name)
    # another map with the same first lines has a file of its own
    other = ladder.read_ladder(["conflict", "--option", f"board={ocean}; my copy\n"])
    assert other.path != path
    # a plain value stays as it is
    plain = ladder.read_ladder(["conflict", "--option", "board=ocean"])
    assert plain.path.name == "conflict-2p-board=ocean.jsonl"
    status, out, err = run(capsys, "conflict", "--option", f"board={ocean}", "--rounds", "0")
    assert status == 0
    assert f"0 games in {path}, 0 to play\n" in err
    assert "no games yet" in out
