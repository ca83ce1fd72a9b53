"""Choosing one legal action by its parts, square by square, then from a short list.

Nothing here knows a game: the legal actions come with their parts (``State.action_parts``) and
the board's drawing says which squares a player picks for each (its ``route``: the piece, then
the square it goes to, with a stop on the way where the game has one). Picking narrows the
legal list one square at a time; what is still open once the squares are picked (which die,
which piece from a base) and the actions with no squares at all (pass, end a roll) are listed
as numbered choices.
"""

from __future__ import annotations

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
    group: str = ""
    """What moves, when one square starts actions of several things (a piece standing on a
    base, the pieces that may enter from it): a group is chosen by number to narrow them."""


@dataclass(frozen=True)
class Group:
    """A numbered choice that narrows the actions of the square picked to one group."""

    label: str


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
    group: str | None = None
    """The group chosen for the square picked, if any."""

    def _live(self) -> list[Option]:
        if self.group is None:
            return self.options
        return [o for o in self.options if o.group == self.group or not o.route]

    def _following(self) -> list[Option]:
        """Options whose route goes on past the squares picked."""
        depth = len(self.picked)
        return [o for o in self._live() if len(o.route) > depth and list(o.route[:depth]) == self.picked]

    def groups(self) -> list[Group]:
        """The groups of the square picked, when it starts actions of more than one."""
        if len(self.picked) != 1 or self.group is not None:
            return []
        labels = list(dict.fromkeys(o.group for o in self._following() if o.group))
        return [Group(label) for label in labels] if len(labels) > 1 else []

    def starts(self) -> set[str]:
        """Squares that begin some action: the pieces that can move."""
        return {o.route[0] for o in self.options if o.route}

    def targets(self) -> set[str]:
        """Where the next square may be, once a piece is picked."""
        if not self.picked:
            return set()
        return {o.route[len(self.picked)] for o in self._following()}

    def choices(self) -> list[Option | Group]:
        """The numbered list: the actions the squares picked complete when more than one does,
        the groups of a square that starts several things, else (nothing picked) the actions
        that take no square."""
        if not self.picked:
            return [o for o in self.options if not o.route]
        groups = self.groups()
        if groups:
            return list(groups)
        return list(self.completed())

    def completed(self) -> list[Option]:
        """The actions whose whole route is the squares picked."""
        return [o for o in self._live() if o.route and list(o.route) == self.picked]

    def pick(self, square: str) -> Option | None:
        """A square chosen (Enter or a click): the action it completes when exactly one is left,
        else ``None`` with the selection changed (or dropped, for a square that means nothing)."""
        if self.picked and square in self.targets():
            self.picked.append(square)
            done = self.completed()
            if len(done) == 1 and not self._following():
                self.drop()
                return done[0]
            return None
        if self.picked == [square]:
            self.drop()
        elif square in self.starts():
            self.drop()
            self.picked = [square]
        else:
            self.drop()
        return None

    def drop(self) -> None:
        self.picked = []
        self.group = None

    def back(self) -> None:
        """Esc: one step back (the group chosen, then each square)."""
        if self.group is not None and len(self.picked) == 1:
            self.group = None
        elif len(self.picked) == 1:
            self.drop()
        elif self.picked:
            self.picked.pop()

    def choose(self, number: int) -> Option | None:
        """The numbered choice ``number`` (from 1): the action it is, or ``None`` (a group
        chosen narrows the square's actions; a number with no choice does nothing)."""
        listed = self.choices()
        if not 1 <= number <= len(listed):
            return None
        chosen = listed[number - 1]
        if isinstance(chosen, Group):
            self.group = chosen.label
            return None
        self.drop()
        return chosen
