"""``parlour bench server`` and ``parlour bench traffic``: smoke runs (figures printed, never asserted)."""

from __future__ import annotations

import subprocess
import sys

from server_process import ROOT

from parlour.server import bench, traffic


def test_a_short_server_bench_prints_its_figures() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "bench", "server", "--matches", "3", "--seconds", "1",
         "--warmup", "0.5", "--think", "0.01"],
        cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "action -> broadcast to the opponent: median" in result.stdout, result.stdout
    assert "server CPU:" in result.stdout, result.stdout
    assert "connections lost: 0" in result.stdout, result.stdout


def test_bad_arguments_exit_with_status_2() -> None:
    for args in (["--matches", "0"], ["--think", "-1"], ["--game", "chess"], ["--seconds", "x"]):
        assert bench.main(args) == 2


def test_a_short_traffic_bench_counts_what_one_seat_receives() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "bench", "traffic", "--game", "loa", "--actions", "12"],
        cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "12 actions (stopped at 12 actions)" in lines[0], result.stdout
    # One state on connect, then one update per action after it: the history travels once.
    assert any(line.split()[:2] == ["state", "1"] for line in lines), result.stdout
    assert any(line.split()[0] == "update" for line in lines[2:]), result.stdout


def test_traffic_bad_arguments_exit_with_status_2() -> None:
    for args in (["--actions", "0"], ["--option", "nonsense"], ["--players", "x"]):
        assert traffic.main(args) == 2
