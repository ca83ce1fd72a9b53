"""Lines typed at a terminal, for tests of the line interface."""

from __future__ import annotations

import io


class Keyboard(io.StringIO):
    """Lines typed by a person at a terminal (``isatty``): only then is a game in progress kept."""

    def isatty(self) -> bool:
        return True
