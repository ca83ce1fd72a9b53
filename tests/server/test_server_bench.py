"""``parlour bench server``: a smoke run (figures are printed, never asserted)."""

from __future__ import annotations

import subprocess
import sys

from server_process import ROOT

from parlour.server import bench


def test_a_short_server_bench_prints_its_figures() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "bench", "server", "--matches", "3", "--seconds", "1",
         "--warmup", "0.5", "--think", "0.01"],
        cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "action -> broadcast to the opponent: median" in result.stdout, result.stdout
    assert "server CPU:" in result.stdout and "connections lost: 0" in result.stdout, result.stdout


def test_bad_arguments_exit_with_status_2() -> None:
    for args in (["--matches", "0"], ["--think", "-1"], ["--game", "chess"], ["--seconds", "x"]):
        assert bench.main(args) == 2
