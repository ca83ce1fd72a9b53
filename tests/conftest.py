"""Fixtures of every test: nothing a test runs writes the user's own directories.

parlour writes per user only to its data directory (``platformdirs.user_data_path``:
``$XDG_DATA_HOME/parlour``, else ``~/.local/share/parlour``): the games in progress of
``parlour play``, ``parlour serve``'s default database, a cluster's files, ladders, a terminal's
seats. Runs of ``parlour play`` during tests once left ``*.autosave.json`` in the real home. So
``XDG_DATA_HOME`` points at a directory of the test's own, in this process's environment, which
child processes inherit. (parlour reads no ``XDG_CONFIG_HOME``, ``XDG_STATE_HOME`` or
``XDG_CACHE_HOME``, and those are left alone: the browser tests' Chromium and Playwright use them.)

A test that sets ``XDG_DATA_HOME`` itself (a fixture of its module, or ``monkeypatch.setenv``) wins:
its fixtures run after these.

Tests press Ctrl-C in the programs they start (SIGINT). A shell that starts the run in the
background ignores SIGINT in it, and the programs would inherit that and wait for ever; a
handler here lets them start with the default (a caught signal is reset by exec, an ignored
one is not).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

DATA_HOME = "XDG_DATA_HOME"

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def session_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """For what starts before any test and lives through many (a session's shared server)."""
    home = tmp_path_factory.mktemp("session-data-home")
    before = os.environ.get(DATA_HOME)
    os.environ[DATA_HOME] = str(home)
    yield home
    if before is None:
        os.environ.pop(DATA_HOME, None)
    else:
        os.environ[DATA_HOME] = before


@pytest.fixture(autouse=True)
def own_data_home(session_data_home: Path, tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own, so that no test finds another's game in progress."""
    home = tmp_path_factory.mktemp("data-home")
    monkeypatch.setenv(DATA_HOME, str(home))
    return home


@pytest.fixture
def data_home(own_data_home: Path) -> Path:
    """parlour's own folder in the test's data directory (where a game in progress is kept)."""
    return own_data_home / "parlour"
