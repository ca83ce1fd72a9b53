"""Choosing one legal action by its parts, square by square, then from a short list.

Nothing here knows a game: the legal actions come with their parts (``State.action_parts``) and
the board's drawing says which squares a player picks for each (its ``route``: the piece, then
the square it goes to, with a stop on the way where the game has one). Picking narrows the
legal list one square at a time; what is still open once the squares are picked (which die,
which piece from a base) and the actions with no squares at all (pass, end a roll) are listed
as numbered choices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from parlour.engine import Action, JSONDict


@dataclass(frozen=True)
class Option:
    """One legal action as a player picks it."""

    action: Action
    text: str
    parts: JSONDict
    route: tuple[str, ...]
    """The squares picked for it, in order; empty for an action chosen from the list only."""


def options_of(actions: Sequence[Action], texts: Sequence[str], parts: Sequence[JSONDict],
               route: Callable[[JSONDict], tuple[str, ...]]) -> list[Option]:
    return [Option(action, text, part, route(part))
            for action, text, part in zip(actions, texts, parts, strict=True)]


def from_to(parts: JSONDict) -> tuple[str, ...]:
    """The usual route: the piece's square, then where it goes."""
    start, end = parts.get("from"), parts.get("to")
    if isinstance(start, str) and isinstance(end, str):
        return (start, end)
    return ()


@dataclass
class Picker:
    """The picking of one decision: the squares picked so far and what they leave open."""

    options: list[Option]
    picked: list[str] = field(default_factory=list)

    def _following(self) -> list[Option]:
        """Options whose route goes on past the squares picked."""
        depth = len(self.picked)
        return [o for o in self.options if len(o.route) > depth and list(o.route[:depth]) == self.picked]

    def starts(self) -> set[str]:
        """Squares that begin some action: the pieces that can move."""
        return {o.route[0] for o in self.options if o.route}

    def targets(self) -> set[str]:
        """Where the next square may be, once a piece is picked."""
        if not self.picked:
            return set()
        return {o.route[len(self.picked)] for o in self._following()}

    def ends(self) -> set[str]:
        """The last squares of the routes still open (a stop on the way is not one)."""
        if not self.picked:
            return set()
        return {o.route[-1] for o in self._following()}

    def choices(self) -> list[Option]:
        """The numbered list: the actions the squares picked complete when more than one does,
        else (nothing picked) the actions that take no square."""
        if not self.picked:
            return [o for o in self.options if not o.route]
        return [o for o in self.options if list(o.route) == self.picked]

    def pick(self, square: str) -> Option | None:
        """A square chosen (Enter or a click): the action it completes when exactly one is left,
        else ``None`` with the selection changed (or dropped, for a square that means nothing)."""
        if self.picked and square in self.targets():
            self.picked.append(square)
            done = self.choices()
            if len(done) == 1 and not self._following():
                self.picked = []
                return done[0]
            return None
        if self.picked == [square]:
            self.picked = []
        elif square in self.starts():
            self.picked = [square]
        else:
            self.picked = []
        return None

    def back(self) -> None:
        """Esc: one square back."""
        if self.picked:
            self.picked.pop()

    def choose(self, number: int) -> Option | None:
        """The numbered choice ``number`` (from 1), if there is one."""
        listed = self.choices()
        if 1 <= number <= len(listed):
            self.picked = []
            return listed[number - 1]
        return None
