"""``tests/conftest.py``: no test writes the user's own data directory (issue 18's follow-up: runs of
``parlour play`` during tests left ``~/.local/share/parlour/*.autosave.json`` in the real home)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from parlour.tui.files import data_directory
from parlour.tui.saves import autosave_path


def test_the_data_directory_is_the_tests_own(own_data_home: Path,
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    assert os.environ["XDG_DATA_HOME"] == str(own_data_home)
    assert own_data_home.is_relative_to(tmp_path_factory.getbasetemp())
    assert data_directory() == own_data_home / "parlour"
    assert autosave_path("loa").is_relative_to(own_data_home)


def test_a_child_process_inherits_it(own_data_home: Path) -> None:
    child = subprocess.run(
        [sys.executable, "-c", "from parlour.tui.files import data_directory; print(data_directory())"],
        capture_output=True, text=True, check=True,
    )
    assert child.stdout.strip() == str(own_data_home / "parlour")


def test_each_test_has_its_own(own_data_home: Path, session_data_home: Path) -> None:
    assert own_data_home != session_data_home
    assert not (own_data_home / "parlour").exists()  # nothing left by another test
