"""``parlour ladder`` (issue 19): "a round robin among every bot kind the game offers at several
budgets, duplicate deals or dice for games with chance … Results accumulate in a file and a run
can resume, so a long series spans several sittings." Tiny budgets and tic-tac-toe, for speed."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from server_process import ROOT, WAIT

from parlour.bots import ladder
from parlour.bots.arena import GameResult, Series
from parlour.bots.ladder import Entrant
from parlour.bots.results import UNTIMED_SECONDS

TINY = ["--budgets", "0.001,0.002", "--jobs", "1"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = ladder.main([*argv, *TINY])
    out, err = capsys.readouterr()
    return status, out, err


def keys(path: Path) -> list[tuple[str, str, int, int]]:
    return [(data["a"], data["b"], data["a_seat"], data["deal"])
            for data in map(json.loads, path.read_text().splitlines())]


def test_every_bot_kind_enters_and_the_strong_one_at_every_budget() -> None:
    settings = ladder.read_ladder(["loa", "--budgets", "1,0.05,0.2"])
    assert [entrant.name for entrant in settings.entrants] == [
        "random", "greedy", "strong@0.05", "strong@0.2", "strong@1"]
    assert len(settings.pairings()) == 10  # every two of five
    biloba = ladder.read_ladder(["biloba", "--players", "3", "--games", "4"])
    assert "classic" in [entrant.name for entrant in biloba.entrants]
    assert len(biloba.pairings()) == 7 * 6  # one against two copies of the other, both ways round
    assert biloba.games == 6  # whole rounds: the lone entrant once in each of the three seats
    assert Entrant.parse("strong@0.2") == Entrant("strong", 0.2)
    assert Entrant("strong", 5.0).name == "strong@5"


def test_games_with_chance_play_each_deal_in_every_seat() -> None:
    mille = ladder.read_ladder(["mille", "--games", "4"])
    series = mille.series(Entrant("classic"), Entrant("strong", 0.2))
    assert series.duplicate
    assert series.seconds_of(0) == UNTIMED_SECONDS
    assert series.seconds_of(1) == 0.2
    assert series.game_seed(0) == series.game_seed(1) != series.game_seed(2) == series.game_seed(3)
    # every pairing plays the same deals
    assert mille.series(Entrant("random"), Entrant("greedy")).game_seed(2) == series.game_seed(2)
    assert not ladder.read_ladder(["loa"]).series(Entrant("random"), Entrant("greedy")).duplicate


def test_a_second_run_with_the_same_file_plays_only_what_is_missing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Its own work (24 games, three runs) takes a tenth of a second. Run first, it seems to take
    # seconds: the first table in a process loads the rating library (statsmodels, with scipy and
    # pandas; about 4 s where Python writes no bytecode cache), whichever test prints it.
    path = tmp_path / "ttt.jsonl"
    argv = ["tictactoe", "--games", "4", "--file", str(path)]
    # 4 entrants, 6 pairings, rounds of 2 games: one round this sitting
    status, out, err = run(capsys, *argv, "--rounds", "1")
    assert status == 0
    assert "6 pairings, 4 games each; 0 games in" in err
    assert "12 to play" in err
    first = keys(path)
    assert len(first) == len(set(first)) == 12
    assert {seat for _, _, seat, _ in first} == {0, 1}
    # a kill loses the games in flight: take two off the end and one from the middle
    lines = path.read_text().splitlines(keepends=True)
    # the last line whole but without its end, as an editor may leave it: the next game starts a line
    path.write_text("".join(lines[:4] + lines[5:10]).rstrip("\n"))
    status, out, err = run(capsys, *argv)
    assert status == 0
    assert "9 games in" in err
    assert "15 to play" in err
    second = keys(path)
    assert len(second) == len(set(second)) == 24
    assert set(first) < set(second)
    status, out, err = run(capsys, *argv)
    assert "24 games in" in err
    assert "0 to play" in err
    assert len(keys(path)) == 24
    assert "tictactoe, 2 players: 24 games in" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[3:]}
    assert set(rows) == {"random", "greedy", "strong@0.001", "strong@0.002"}
    assert rows["random"][1:4] == ["0", "(the", "anchor)"]
    assert all(row[-1] == "12" for row in rows.values())  # each met the other three 4 times


def test_the_progress_says_games_done_score_and_time_left(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "tictactoe", "--games", "2", "--file", str(tmp_path / "t.jsonl"))
    assert status == 0
    progress = [line for line in err.splitlines() if " games | " in line]
    assert progress[0] == "0/12 games | no game yet | time left not known yet"
    assert progress[-1].startswith("12/12 games | strong@0.001 vs strong@0.002 ")
    assert "(95% " in progress[-1]
    assert "all done in" in progress[-1]


def test_a_damaged_line_is_reported_and_nothing_is_played_or_lost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ttt.jsonl"
    argv = ["tictactoe", "--games", "2", "--file", str(path)]
    assert run(capsys, *argv)[0] == 0
    lines = path.read_text().splitlines(keepends=True)
    lines[4] = lines[4][:30] + "\n"  # cut short, as a write stopped half-way would leave it
    damaged = "".join(lines)
    path.write_text(damaged)
    status, out, err = run(capsys, *argv)
    assert status == 1
    assert f"{path}, line 5 is damaged (not JSON:" in err
    assert "mend or remove that line" in err
    assert out == ""
    assert path.read_text() == damaged
    record = json.loads(lines[5])
    lines[4] = json.dumps({**record, "a_points": 0.7}) + "\n"  # whole, but no score a game gives
    path.write_text("".join(lines))
    status, _, err = run(capsys, *argv)
    assert status == 1
    assert "line 5 is damaged ('a_points' is 0.7, not 0, 0.5 or 1)" in err


def test_a_file_of_another_ladder_or_the_same_game_twice_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ttt.jsonl"
    assert run(capsys, "tictactoe", "--games", "2", "--file", str(path))[0] == 0
    status, _, err = run(capsys, "loa", "--games", "2", "--file", str(path))
    assert status == 1
    assert "line 1 is damaged (a game of 'tictactoe' with 2 players; this series is loa with 2" in err
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join([*lines, lines[2]]))
    status, _, err = run(capsys, "tictactoe", "--games", "2", "--file", str(path))
    assert status == 1
    assert f"line {len(lines) + 1} is the game of line 3 again" in err


def test_a_table_only_from_the_file_in_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ttt.jsonl"
    assert run(capsys, "tictactoe", "--games", "2", "--file", str(path))[0] == 0
    before = path.read_text()
    status, out, err = run(capsys, "tictactoe", "--games", "6", "--rounds", "0", "--markdown",
                           "--file", str(path))
    assert status == 0
    assert "0 to play" in err
    assert path.read_text() == before
    assert "| entrant | rating | 95 % interval | games |" in out
    assert "| random | 0 | anchor | 6 |" in out


@pytest.mark.parametrize("argv", [
    ["tictactoe", "--budgets", "0,1"],
    ["tictactoe", "--budgets", "fast"],
    ["tictactoe", "--games", "0"],
    ["tictactoe", "--rounds", "-1"],
    ["loa", "--players", "3"],
    ["chess"],
])
def test_bad_arguments_exit_with_status_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert ladder.main(argv) == 2
    assert capsys.readouterr().err.strip()


def test_rules_options_are_part_of_the_ladder_and_of_its_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = ladder.read_ladder(["conflict", "--option", "board=ocean"])
    assert settings.path.name == "conflict-2p-board=ocean.jsonl"
    assert settings.series(Entrant("random"), Entrant("greedy")).options == {"board": "ocean"}
    path = tmp_path / "loa.jsonl"
    assert run(capsys, "loa", "--games", "2", "--option", "move_limit=6", "--file", str(path))[0] == 0
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert max(line["plies"] for line in lines) == 6  # the option was played
    assert all(line["options"] == {"move_limit": 6} for line in lines)
    status, _, err = run(capsys, "loa", "--games", "2", "--file", str(path))
    assert status == 1
    assert "line 1 is damaged (a game with the options {'move_limit': 6}, this series' are {}" in err


def test_three_players_one_against_two_copies_both_ways_round(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The games are stand-ins (the ladder's bookkeeping and rating are under test, not the bots):
    # the lone entrant wins when it comes later in a known order, else a copy of the other wins.
    order = ["random", "greedy", "strong@0.001", "strong@0.002", "classic"]
    played: list[tuple[tuple[str, str], int]] = []

    def stand_in(series: Series, index: int) -> GameResult:
        played.append((series.bots, index))
        a_seat = index % series.players
        a, b = (Entrant(kind, series.seconds_of(side) if kind == "strong" else None).name
                for side, kind in enumerate(series.bots))
        winner = a_seat if order.index(a) > order.index(b) else (a_seat + 1) % series.players
        return GameResult(index, a_seat, winner, "won", 10, (0.0, 0.0), (5, 5))

    monkeypatch.setattr(ladder, "play_game", stand_in)
    path = tmp_path / "biloba3.jsonl"
    status, out, _ = run(capsys, "biloba", "--players", "3", "--games", "3", "--file", str(path))
    assert status == 0
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 5 * 4 * 3  # 20 pairings both ways round, each seat once
    pairs = {(line["a"], line["b"]) for line in lines}
    assert ("greedy", "classic") in pairs
    assert ("classic", "greedy") in pairs
    assert {line["a_seat"] for line in lines if (line["a"], line["b"]) == ("greedy", "classic")} == {0, 1, 2}
    rated = [line.split()[0] for line in out.splitlines()[3:]]
    assert rated == list(reversed(order))


HOLD_SIXTH = """
import sys
from parlour import cli
from parlour.bots import ladder

real, started = ladder.play_game, []

def held(series, index):
    started.append(index)
    if len(started) == 6:  # five games are in the file: the sixth waits to be interrupted
        print("the sixth game is held", flush=True)
        sys.stdin.readline()
    return real(series, index)

ladder.play_game = held
sys.exit(cli.main(sys.argv[1:]))
"""
"""``parlour ladder`` with its sixth game held until the test interrupts it, so that the run is
interrupted with games in the file and games to come however fast the games are played."""


def test_stopped_with_ctrl_c_the_finished_games_are_in_the_file_and_the_rest_follow(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A real run (its games real, the sixth held back), interrupted with five games in the file:
    they were flushed as they finished, and the same command then plays only the others."""
    path = tmp_path / "ttt.jsonl"
    argv = ["tictactoe", "--games", "4", "--file", str(path), *TINY]
    with subprocess.Popen([sys.executable, "-c", HOLD_SIXTH, "ladder", *argv], cwd=ROOT, text=True,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        # Waits on the run's state: the line comes when the sixth game starts ("" if the run ended).
        assert process.stdout.readline() == "the sixth game is held\n"
        assert len(ladder.read_records(path, "tictactoe", 2, {})) == 5  # flushed, every line whole
        process.send_signal(signal.SIGINT)
        err = process.stderr.read()  # to its end, the run's end; stdin stays open, the sixth game held
        assert process.wait(timeout=WAIT) == 130
    assert f"interrupted; the finished games are kept in {path}: run the same command again" in err
    kept = ladder.read_records(path, "tictactoe", 2, {})
    assert len(kept) == 5  # the game in flight is lost, nothing else
    status = ladder.main([*argv, "--rounds", "1"])
    assert status == 0
    assert "5 games in" in capsys.readouterr().err
    after = ladder.read_records(path, "tictactoe", 2, {})
    assert len(after) == 12  # the first round of every pairing: 6 pairings, the lone entrant in each seat
    assert {record.key for record in kept} < {record.key for record in after}
