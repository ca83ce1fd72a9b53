"""Files written so that a failure loses nothing: a save, a front end's kept game, the levels table."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` through a temporary file in the same directory, synced and then
    renamed over the target: a reader sees the old file or the new one, never a part. On failure
    the temporary file is removed, ``path`` is left as it was, and the ``OSError`` is raised.
    The file is private to its owner (mode 0600): a saved game may hold what an opponent holds."""
    directory = path.parent
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    # The rename is durable only once the directory is synced (where the system allows it).
    with contextlib.suppress(OSError):
        directory_handle = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(directory_handle)
        finally:
            os.close(directory_handle)
