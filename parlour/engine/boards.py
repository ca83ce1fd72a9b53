"""Boards people draw and share: the contract of a game whose board is a file (Conflict's maps,
CON-72). Front ends (the map editor, the server's map library, ``parlour maps``) use it without
knowing the game: they list the shipped boards, check a drawn one and draw a checked one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Final

ERROR: Final = "error"
"""A problem that refuses the board (Conflict: CON-12)."""
WARNING: Final = "warning"
"""A problem the board is loaded with, reported to whoever plays it (Conflict: CON-13)."""


@dataclass(frozen=True)
class BoardProblem:
    """One problem of a board's text, with the squares it concerns so an editor can paint it
    on them, and the line of the text when it comes from one."""

    severity: str
    """``ERROR`` or ``WARNING``."""
    rule: str
    """The rule it breaks, as the game's rules name it: ``"CON-12 item 6"``."""
    message: str
    """Plain English; names squares in the game's notation."""
    squares: tuple[str, ...] = ()
    line: int | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def json(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message,
            "squares": list(self.squares),
            "line": self.line,
        }


def capped(problems: list[BoardProblem], most: int) -> list[BoardProblem]:
    """``problems`` with those past the first ``most`` counted in one last problem (an error if
    any of them is one): a text of rubbish has a problem a line, and an answer listing every one
    would be many times the text's size."""
    if len(problems) <= most:
        return problems
    rest = problems[most:]
    severity = ERROR if any(problem.is_error for problem in rest) else WARNING
    return [*problems[:most], BoardProblem(severity, rest[0].rule, f"…and {len(rest)} more problems")]


class Boards(ABC):
    """A game whose board is a file people may draw and share (``Game.boards``)."""

    option: str
    """The rules option that names the board (it takes a shipped name or a board's text)."""
    noun: str
    """What a board is called in the game's words: ``"map"``."""
    extension: str
    """The file extension of a board's text, with its dot: ``".cmap"``."""
    max_cols: int
    max_rows: int
    """The largest board an editor offers to draw (a board's text may allow more)."""
    min_cols: int
    min_rows: int
    recommended: str
    """The shipped board the lobby offers first."""
    max_name: int
    """Characters in the name a board gives itself (what a library saves it under)."""

    @abstractmethod
    def shipped(self) -> dict[str, str]:
        """The boards shipped with the game, name -> text, in the order to list them."""

    def aliases(self) -> dict[str, str]:
        """Other names the option takes for a shipped board, alias -> shipped name: old names
        stored matches use, never listed, and never free for a new board."""
        return {}

    def shipped_name(self, name: str) -> str | None:
        """The shipped board ``name`` stands for (itself, or the board it is an alias of);
        ``None`` when it names none."""
        name = self.aliases().get(name, name)
        return name if name in self.shipped() else None

    @abstractmethod
    def is_text(self, value: str) -> bool:
        """Whether the option's ``value`` is a board's text rather than the name of one."""

    @abstractmethod
    def check(self, text: str) -> list[BoardProblem]:
        """Every problem of the board ``text``, errors and warnings, not just the first: no
        errors means the option takes it. Problems that stop the reading end the list early, and a
        long list ends in one problem counting the rest (``capped``)."""

    @abstractmethod
    def name_of(self, text: str) -> str | None:
        """The name the board's text gives itself, ``None`` if it gives none that can be read.
        Cheap: it reads no more of the text than it needs (a lobby shows a match's board by it)."""

    @abstractmethod
    def drawing(self, text: str) -> dict[str, Any]:
        """What a view carries to draw the board (its ``board``), for a board without errors;
        ``FormatError`` otherwise."""

    def errors(self, text: str) -> list[BoardProblem]:
        """The problems of ``text`` that refuse it."""
        return [problem for problem in self.check(text) if problem.is_error]
