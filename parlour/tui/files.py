"""Where the terminal front ends keep their files (saved games are written by
``parlour.engine.files.write_atomically``)."""

from __future__ import annotations

from pathlib import Path

import platformdirs


def data_directory() -> Path:
    """The user's data directory for parlour: ``$XDG_DATA_HOME/parlour``, else
    ``~/.local/share/parlour`` (tests point ``XDG_DATA_HOME`` at a directory of their own)."""
    return platformdirs.user_data_path("parlour", appauthor=False)
