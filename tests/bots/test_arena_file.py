"""``parlour arena --file``: a series that spans sittings (issue 19: "The measurement may run over
several sittings through the resumable series"; issue 16's 400-game series at 1 s a decision).

The file is the ladder's (``parlour.bots.results``): a game is known by its entrants, the lone
entrant's seat and the deal's seed, so a run plays only what is missing and reports on everything.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from server_process import ROOT, WAIT

from parlour.bots import arena, ladder
from parlour.bots.results import UNTIMED_SECONDS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = arena.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def verdict(out: str) -> list[str]:
    """The report's lines that do not depend on the machine's speed."""
    return [line for line in out.splitlines() if not line.startswith(("seconds per move", "slowest move"))]


def test_a_second_run_plays_only_the_missing_games_and_reports_them_all(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "series.jsonl"
    common = ["tictactoe", "random", "greedy", "--jobs", "1", "--seed", "3"]
    status, _, err = run(capsys, *common, "-n", "4", "--file", str(path))
    assert status == 0
    assert "0 games of this series in" in err
    assert "4 to play" in err
    assert len(path.read_text().splitlines()) == 4

    status, resumed, err = run(capsys, *common, "-n", "6", "--file", str(path))
    assert status == 0
    assert "4 games of this series in" in err
    assert "2 to play" in err
    assert err.count("done): random") == 2  # only the two new games were played
    assert len(path.read_text().splitlines()) == 6

    status, whole, _ = run(capsys, *common, "-n", "6")
    assert status == 0
    assert verdict(resumed) == verdict(whole)  # the same six games, whether in one sitting or two
    assert "tictactoe: random vs greedy, 6 games, seed 3" in whole

    status, again, err = run(capsys, *common, "-n", "6", "--file", str(path))
    assert "6 games of this series in" in err
    assert "0 to play" in err
    assert verdict(again) == verdict(whole)


def test_points_a_hand_are_kept_in_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Mille Bornes series read back from its file reports the same points a hand as when played."""
    path = tmp_path / "mille.jsonl"
    common = ["mille", "classic", "random", "-n", "2", "--duplicate", "--jobs", "1", "--file", str(path)]
    status, played, _ = run(capsys, *common)
    assert status == 0
    hands = [line for line in played.splitlines() if line.startswith("points a hand, classic less random")]
    assert len(hands) == 1
    assert all("hands" in json.loads(line) for line in path.read_text().splitlines())
    status, read_back, err = run(capsys, *common)
    assert "0 to play" in err
    assert hands[0] in read_back.splitlines()


def test_the_ladder_and_the_arena_share_their_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ladder's pairing is the arena's series of the same entrants: the arena finds its games."""
    path = tmp_path / "ladder.jsonl"
    played = ladder.main(["tictactoe", "--games", "2", "--budgets", "0.01", "--jobs", "1",
                          "--file", str(path)])
    assert played == 0
    capsys.readouterr()
    status, _, err = run(capsys, "tictactoe", "random", "greedy", "-n", "2", "--jobs", "1",
                         "--file", str(path))
    assert status == 0
    assert "2 games of this series in" in err
    assert "0 to play" in err


def test_untimed_kinds_are_given_the_ladders_time() -> None:
    """``--time`` is the strong bot's: greedy plays alike whatever the command says, as in the ladder."""
    series = arena.read_series(["conflict", "strong", "greedy", "-n", "1", "--time", "0.1"])
    assert series.seconds_of(0) == 0.1
    assert series.seconds_of(1) == UNTIMED_SECONDS
    assert [entrant.name for entrant in series.entrants()] == ["strong@0.1", "greedy"]


def test_a_damaged_file_is_named_and_left_as_it_was(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "series.jsonl"
    path.write_text('{"game": "tictactoe"\n')
    status, _, err = run(capsys, "tictactoe", "random", "greedy", "-n", "2", "--file", str(path))
    assert status == 1
    assert f"{path}, line 1 is damaged (not JSON" in err
    assert path.read_text() == '{"game": "tictactoe"\n'


def test_a_file_of_other_options_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "series.jsonl"
    assert run(capsys, "loa", "random", "greedy", "-n", "1", "--jobs", "1", "--file", str(path))[0] == 0
    before = path.read_text()
    status, _, err = run(capsys, "loa", "random", "greedy", "-n", "1", "--option", "move_limit=6",
                         "--file", str(path))
    assert status == 1
    assert "line 1 is damaged (a game with the options {}, this series' are {'move_limit': 6}" in err
    assert path.read_text() == before


def test_one_entrant_against_itself_keeps_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "loa", "greedy", "greedy", "-n", "1", "--file", str(tmp_path / "x.jsonl"))
    assert status == 2
    assert "--file keeps games between two entrants, and both are greedy" in err
    assert not (tmp_path / "x.jsonl").exists()


def test_a_folder_is_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "tictactoe", "random", "greedy", "-n", "1", "--jobs", "1",
                         "--file", str(tmp_path))
    assert status == 1
    assert f"the results file {tmp_path} cannot be used" in err


PARLOUR = "import sys; from parlour import cli; sys.exit(cli.main(sys.argv[1:]))"


def workers_of(parent: int) -> set[int]:
    """The pool's worker processes started by ``parent`` (by their command line: ``spawn_main``)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent and b"spawn_main" in command:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_run_killed_alone_takes_its_workers_with_it(tmp_path: Path) -> None:
    """``kill -9`` of the arena alone (not its process group): its workers, each deep in a game at
    30 s a move, end with it instead of playing on for nobody (noticed in issue 19's ladder)."""
    argv = ["loa", "strong", "greedy", "-n", "4", "--time", "30", "--jobs", "2",
            "--file", str(tmp_path / "long.jsonl")]
    process = subprocess.Popen([sys.executable, "-c", PARLOUR, "arena", *argv], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert process.stderr is not None
        assert process.stderr.readline().startswith(b"0 games of this series in")  # the pool comes next
        deadline = time.monotonic() + WAIT
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
            workers = workers_of(process.pid)
        assert len(workers) == 2
        process.kill()
        process.wait(timeout=WAIT)
        deadline = time.monotonic() + WAIT  # a bound on a busy machine: without the fix they think on
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in workers)
    finally:
        if process.poll() is None:
            process.kill()
        os.killpg(process.pid, signal.SIGKILL)  # whatever is left of the group, pass or fail
