"""Tic-tac-toe in ``parlour play``, the generic terminal front end: nothing there knows the game."""

from __future__ import annotations

import io
import sys

import pytest

from parlour.tui import play


def run(args: list[str], lines: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    status = play.main(args)
    return status, capsys.readouterr().out


def test_two_people_play_to_a_win(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # TTT-2, TTT-4: X takes row 1 while O plays row 2
    moves = ["a1", "a2", "b1", "b2", "c1"]
    status, out = run(["tictactoe", "--seat", "0=human", "--seat", "1=human"], moves, monkeypatch, capsys)
    assert status == 0
    assert " 1  x x x" in out
    assert " 2  o o -" in out
    assert "X wins" in out


def test_a_person_plays_the_strong_bot_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The person tries every square in order; taken ones are refused in words (TTT-3).
    squares = [f"{file}{row}" for row in "123" for file in "abc"]
    args = ["tictactoe", "--seat", "0=human", "--seat", "1=bot:strong", "--time", "0.1", "--seed", "3"]
    status, out = run(args, squares, monkeypatch, capsys)
    assert status == 0
    assert "already holds an O" in out
    assert "Result:" in out
    assert "X wins" not in out
