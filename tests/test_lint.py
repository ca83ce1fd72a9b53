"""Static checks are part of the suite: ruff on everything, mypy --strict on the whole package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRICT = ["parlour"]


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff() -> None:
    result = run(sys.executable, "-m", "ruff", "check", "parlour", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict() -> None:
    result = run(sys.executable, "-m", "mypy", "--strict", *STRICT)
    assert result.returncode == 0, result.stdout + result.stderr
