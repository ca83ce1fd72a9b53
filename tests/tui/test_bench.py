"""``parlour bench``: a smoke run of the quick benchmark (figures are printed, never asserted)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from parlour import bench


def test_quick_bench_prints_the_perft_counts() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "bench", "loa", "--quick"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    rows = {
        int(match[1]): int(match[2].replace(",", ""))
        for match in re.finditer(r"^\s+(\d)\s+([\d,]+)\s+\d+\.\d+\s+.*\bok$", result.stdout, re.MULTILINE)
    }
    assert rows == {1: 36, 2: 1_244, 3: 44_952}  # LOA-25
    assert "plies/s" in result.stdout
    assert "nodes/s" in result.stdout


@pytest.mark.parametrize(
    "args",
    [[], ["chess"], ["loa", "--depth", "x"], ["loa", "--option", "speed=3"], ["loa", "--playouts", "-1"]],
)
def test_bad_arguments_exit_with_status_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("parlour bench: ")
    assert "Traceback" not in err
