"""``parlour arena`` shows progress while it runs (issue 19): "games done, the score so far with its
interval, the time left", on stderr, so that the report on stdout stays as it is."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest
from server_process import ROOT, WAIT

from parlour.bots import arena


class Clock:
    """A clock the test moves by hand: the progress's arithmetic, not its timing, is checked."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_short_arena_reports_its_progress_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    status = arena.main(["loa", "random", "greedy", "-n", "3", "--time", "0.01", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert status == 0
    assert "games |" not in out  # the report on stdout is the report alone
    assert out.startswith("loa: random vs greedy, 3 games")
    progress = [line for line in err.splitlines() if " games | " in line]
    # Not a terminal: plain lines, the first before any game and the last when all are done (the
    # ones between come at most every few seconds, so a quick run may have none).
    assert progress[0] == "0/3 games | random: no game yet | time left not known yet"
    number = r"(\d\.\d{3})"
    last = re.fullmatch(rf"3/3 games \| random {number} \(95% {number}-{number}\) \| all done in \d+ s",
                        progress[-1])
    assert last is not None, progress[-1]
    score, low, high = (float(group) for group in last.groups())
    wins, draws = (int(word) for word in out.split("random: ")[1].split()[0:4:2])
    assert score == pytest.approx((wins + draws / 2) / 3, abs=0.0005)
    assert (low, high) == pytest.approx(arena.wilson(score, 3), abs=0.0005)
    assert len(progress) <= 3 + 1
    assert err.count("done): random") == 3  # each finished game keeps its own line


def test_the_time_left_is_the_mean_time_a_game_so_far_times_the_games_left() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = arena.Progress(10, stream, live=False, clock=clock)
    clock.now += 40.0  # 4 games in 40 s: 6 left at 10 s each
    assert progress.line(4, "A 0.500") == "4/10 games | A 0.500 | about 1 min 00 s left"
    clock.now += 3560.0  # 2 games in an hour: 8 left at half an hour each
    assert progress.line(2, "A 0.500").endswith("about 4 h 00 min left")
    assert progress.line(10, "A 0.500").endswith("all done in 1 h 00 min")
    assert arena.duration(59.4) == "59 s"
    assert arena.duration(61) == "1 min 01 s"


def test_without_a_terminal_a_plain_line_comes_at_most_every_few_seconds_and_at_the_end() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = arena.Progress(4, stream, live=False, every=5.0, clock=clock)
    for done in range(1, 5):
        clock.now += 3.0
        progress.update(done, f"A {done}")
    lines = stream.getvalue().splitlines()
    # after 3 s (the first), 6 s (too soon), 9 s (due again), 12 s (the last game: always)
    assert [line.split(" | ")[1] for line in lines] == ["A 1", "A 3", "A 4"]
    assert "\r" not in stream.getvalue()


def test_on_a_terminal_one_line_is_redrawn_in_place_below_the_finished_games() -> None:
    clock, stream = Clock(), Terminal()
    progress = arena.Progress(2, stream, clock=clock)
    assert progress.live
    progress.update(0, arena.score_so_far("strong", 0.0, 0))
    clock.now += 3.0
    progress.note("game 1: strong beat greedy")
    progress.update(1, arena.score_so_far("strong", 1.0, 1))
    progress.close()
    shown = stream.getvalue()
    assert shown == (
        "\r\x1b[K0/2 games | strong: no game yet | time left not known yet"
        "\r\x1b[Kgame 1: strong beat greedy\n"
        "0/2 games | strong: no game yet | time left not known yet"
        "\r\x1b[K1/2 games | strong 1.000 (95% 0.207-1.000) | about 3 s left"
        "\n"
    )


def test_the_live_line_fits_the_terminal_it_is_drawn_on_not_the_one_of_stdout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The report goes to stdout, often a file or a pipe; the progress goes to stderr's terminal,
    whose width is the one that counts: a wider line would wrap, and its redraw leave lines behind."""
    monkeypatch.setenv("COLUMNS", "200")  # what stdout's width would say (shutil reads it first)
    main, seat = pty.openpty()
    fcntl.ioctl(seat, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))  # a 40-column terminal
    with os.fdopen(seat, "w") as terminal:
        progress = arena.Progress(100, terminal)
        assert progress.live
        progress.update(0, "strong@0.05 vs strong@0.2 0.500 (95% 0.300-0.700)")
        assert progress.drawn == "0/100 games | strong@0.05 vs strong@0.2"  # 39 columns: no wrap
        progress.close()
    os.close(main)
    # A terminal nobody has sized (0 columns), and a stream that is no terminal of its own (drawn
    # live all the same), are taken as 80 columns.
    main, seat = pty.openpty()
    with os.fdopen(seat, "w") as unsized:
        progress = arena.Progress(100, unsized)
        progress.update(0, "x" * 200)
        assert len(progress.drawn) == 79
        progress.close()
    os.close(main)
    progress = arena.Progress(100, Terminal())
    progress.update(0, "x" * 200)
    assert len(progress.drawn) == 79


def test_in_a_real_terminal_the_line_is_redrawn_and_stdout_keeps_the_report_alone() -> None:
    """``parlour arena`` run as a user runs it, its stderr a pseudo-terminal, its stdout a pipe."""
    main, seat = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "arena", "tictactoe", "random", "greedy", "-n", "3",
         "--time", "0.01", "--jobs", "1"],
        cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=seat,
    )
    os.close(seat)
    shown = b""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], max(deadline - time.monotonic(), 0))
        try:
            chunk = os.read(main, 65536) if ready else b""
        except OSError:  # the terminal's other end closed: the arena has finished
            chunk = b""
        if not chunk:
            break
        shown += chunk
    os.close(main)
    out, _ = process.communicate(timeout=WAIT)
    assert process.returncode == 0
    terminal = shown.decode()
    assert "\r\x1b[K0/3 games | random: no game yet | time left not known yet" in terminal
    last = r"\r\x1b\[K3/3 games \| random 0\.\d{3} \(95% 0\.\d{3}-\d\.\d{3}\) \| all done in"
    assert re.search(last, terminal)
    assert terminal.count("done): random") == 3
    report = out.decode()
    assert report.startswith("tictactoe: random vs greedy, 3 games")
    assert "\x1b" not in report
    assert "games |" not in report
