"""``parlour play GAME --level NAME`` (issue 19): "The lobby and ``parlour play`` offer levels with
plain names (beginner, casual, club, expert, master or similar), each a bot kind and budget placed by
the ladder, with its rating shown." The levels are the shipped ones (``parlour/bots/levels.json``):
Lines of Action for two players has them, Mille Bornes none yet."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from parlour.bots.levels import LEVEL_NAMES, find_level
from parlour.tui import play

CLUB = find_level("loa", 2, "club")
CASUAL = find_level("loa", 2, "casual")
BEGINNER = find_level("loa", 2, "beginner")


def run(args: list[str], lines: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    status = play.main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_every_bot_seat_plays_the_levels_kind_at_its_time() -> None:
    assert CLUB.seconds is not None
    settings = play.read_settings(["loa", "--level", "club"])
    assert (settings.seats, settings.seconds) == (["human", CLUB.kind], CLUB.seconds)
    settings = play.read_settings(["loa", "--level", "CASUAL", "--seat", "0=bot", "--seat", "1=human"])
    assert settings.seats == [CASUAL.kind, "human"]


def test_bot_kind_and_time_given_on_the_command_line_come_before_the_level() -> None:
    settings = play.read_settings(["loa", "--level", "club", "--seat", "1=bot:random"])
    assert (settings.seats, settings.seconds) == (["human", "random"], CLUB.seconds)
    settings = play.read_settings(["loa", "--level", "club", "--time", "2"])
    assert (settings.seats, settings.seconds) == (["human", CLUB.kind], 2.0)
    # A level whose bot plays alike whatever its time keeps the usual time.
    assert play.read_settings(["loa", "--level", "beginner"]).seconds == play.DEFAULT_SECONDS


def test_the_game_starts_by_saying_its_level_and_rating(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["loa", "--level", "casual", "--text", "--seed", "3"], ["quit"],
                           monkeypatch, capsys)
    assert status == 0, err
    first = out.splitlines()[0]
    assert f"White: bot:{CASUAL.kind}" in first
    assert f"Level casual: {CASUAL.kind}, rated +{CASUAL.rating:.0f}." in first


def test_an_unknown_level_names_the_levels(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["loa", "--level", "grandmaster"], [], monkeypatch, capsys)
    assert status == 2
    assert out == ""
    assert f"loa has no level 'grandmaster' (levels: {', '.join(LEVEL_NAMES)})" in err


def test_a_game_without_levels_says_so_and_names_its_bots(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["tictactoe", "--level", "club", "--text"], [], monkeypatch, capsys)
    assert status == 2
    assert "tictactoe has no levels yet" in err
    assert re.search(r"games with levels: [a-z, ]*\bloa\b", err)
    assert "--seat N=bot:KIND (random, greedy, strong)" in err


def test_a_seat_of_a_server_match_takes_no_level(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["loa", "--join", "http://localhost:1/match/x", "--level", "club"], [],
                         monkeypatch, capsys)
    assert status == 2
    assert "--level chooses the bots of a game played here" in err


def test_a_loaded_game_takes_the_level_for_its_bots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "saved.json"
    status, _, err = run(["loa", "--seat", "1=bot:random", "--time", "0.01", "--seed", "5", "--text"],
                         ["b1-d3", f"save {path}", "quit"], monkeypatch, capsys)
    assert status == 0, err
    settings = play.read_settings(["--load", str(path), "--level", "club"])
    assert (settings.seats, settings.seconds) == (["human", CLUB.kind], CLUB.seconds)
    # Beginner's bot has no time of its own: the saved game's stays.
    settings = play.read_settings(["--load", str(path), "--level", "beginner"])
    assert (settings.seats, settings.seconds) == (["human", BEGINNER.kind], 0.01)


def test_help_lists_the_levels_with_their_ratings(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert play.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "--level NAME" in out
    assert f"loa (2 players) club      {CLUB.kind} {CLUB.seconds:g} s, rated +{CLUB.rating:.0f}" in out
    assert "loa (2 players) beginner  random, rated 0" in out


def test_the_real_command_plays_a_game_of_two_beginners_to_the_end() -> None:
    command = ["play", "loa", "--level", "beginner", "--seat", "0=bot", "--seat", "1=bot", "--text",
               "--seed", "4"]
    done = subprocess.run([sys.executable, "-m", "parlour.cli", *command], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Lines of Action. Black: bot:random, White: bot:random. Level beginner: "
                                  "random, rated 0.")
    assert done.stdout.rstrip().splitlines()[-1].startswith("Result: ")


def test_playing_on_from_a_replay_takes_the_level(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "saved.json"
    status, _, err = run(["loa", "--seat", "1=bot:random", "--time", "0.01", "--seed", "5", "--text"],
                         ["b1-d3", f"save {path}", "quit"], monkeypatch, capsys)
    assert status == 0, err
    status, out, err = run(["--replay", str(path), "--level", "casual", "--text"], ["play", "quit"],
                           monkeypatch, capsys)
    assert status == 0, err
    assert f"White: bot:{CASUAL.kind}. Level casual: {CASUAL.kind}, rated +{CASUAL.rating:.0f}. Bots think " \
           "0.01 s a move." in out
