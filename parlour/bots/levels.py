"""Levels: the bots a new player picks by a plain name (beginner … master), placed by a ladder.

A level is one of a ladder's entrants (``parlour.bots.ladder``): a bot kind, at a budget when its
play depends on one, with the rating the ladder gave it. ``place`` picks the levels from a ladder's
ratings:

- ``beginner`` is the anchor (``random``, rated 0 by definition);
- ``master`` is the highest rated entrant;
- ``casual``, ``club`` and ``expert`` are the entrants nearest a quarter, a half and three quarters
  of the way from 0 up to the master's rating, each entrant used once and the three in rating
  order (of every such choice, the one nearest its marks in all).

With fewer entrants between the beginner and the master, fewer of the middle levels are given (the
ones whose marks are nearest); with the beginner alone, it is the only level.

The levels of every game and player count a ladder has placed are kept in ``levels.json`` beside
this module, shipped with the package; ``parlour ladder GAME --levels`` writes a game's entry from
its results file, with where it came from (the file's name, its games, the date). A game and
player count without an entry has no levels: the front ends offer its bot kinds as they are.

Reading the levels is cheap (a small JSON file, read once); placing them needs ratings, which
only the ladder computes, so the front ends and the server never import the rating library.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final, Protocol

from parlour.engine import ParlourError
from parlour.engine.files import write_atomically

LEVEL_NAMES: Final = ("beginner", "casual", "club", "expert", "master")
MIDDLE_MARKS: Final = {"casual": 0.25, "club": 0.5, "expert": 0.75}
"""Where each middle level is aimed: this share of the way from the beginner's rating to the master's."""

BEGINNER_KIND: Final = "random"
LEVELS_FILE: Final = Path(__file__).with_name("levels.json")


class LevelsError(ParlourError):
    """A level that does not exist, or a levels file that cannot be read."""


@dataclass(frozen=True)
class Level:
    name: str
    kind: str
    seconds: float | None
    """Seconds a move for a kind whose play depends on its time (``strong``); ``None`` for the others."""
    rating: float
    """Elo-scale points above ``random`` (the ladder's anchor)."""
    low: float
    high: float
    """The rating's 95 % interval."""
    games: int
    """The games the ladder's rating rests on."""

    @property
    def entrant(self) -> str:
        """The ladder's name for it: ``strong@0.2``, ``greedy``."""
        return self.kind if self.seconds is None else f"{self.kind}@{self.seconds:g}"

    @property
    def described(self) -> str:
        """``club: strong at 0.05 s a move, rated +567``."""
        budget = "" if self.seconds is None else f" at {self.seconds:g} s a move"
        return f"{self.name}: {self.kind}{budget}, rated {rating_text(self.rating)}"


def rating_text(points: float) -> str:
    """``+567``; the anchor's ``0`` without a sign (it is no better than itself)."""
    return "0" if round(points) == 0 else f"{points:+.0f}"


class Rated(Protocol):
    """A ladder entrant's rating as ``place`` takes it (``parlour.bots.ratings.Rating`` is one)."""

    @property
    def name(self) -> str: ...
    @property
    def points(self) -> float: ...
    @property
    def low(self) -> float: ...
    @property
    def high(self) -> float: ...
    @property
    def games(self) -> int: ...


def entrant_parts(name: str) -> tuple[str, float | None]:
    """``strong@0.2`` → ``("strong", 0.2)``, ``greedy`` → ``("greedy", None)``."""
    kind, at, seconds = name.partition("@")
    return kind, (float(seconds) if at else None)


def level(name: str, rated: Rated) -> Level:
    kind, seconds = entrant_parts(rated.name)
    return Level(name, kind, seconds, rated.points, rated.low, rated.high, rated.games)


def place(ratings: Sequence[Rated], anchor: str = BEGINNER_KIND) -> list[Level]:
    """The levels from a ladder's ratings, easiest first (see the module); ``LevelsError`` when the
    anchor is not among them (without it no rating means anything)."""
    beginner = next((rated for rated in ratings if rated.name == anchor), None)
    if beginner is None:
        raise LevelsError(f"no rating of {anchor}, the beginner's level: the ladder has not played it yet")
    above = sorted((rated for rated in ratings if rated.points > beginner.points), key=lambda r: r.points)
    if not above:
        return [level("beginner", beginner)]
    master = above[-1]
    middle = middle_levels(above[:-1], beginner.points, master.points)
    return [level("beginner", beginner), *middle, level("master", master)]


def middle_levels(between: Sequence[Rated], bottom: float, top: float) -> list[Level]:
    """Casual, club and expert from the entrants ``between`` (in rating order): the choice, each used
    once and in order, whose ratings are nearest their marks in all; as many as there are entrants."""
    names = list(MIDDLE_MARKS)
    marks = [bottom + share * (top - bottom) for share in MIDDLE_MARKS.values()]
    count = min(len(between), len(names))
    best: tuple[float, tuple[int, ...], tuple[int, ...]] | None = None
    for chosen_marks in itertools.combinations(range(len(names)), count):
        for chosen in itertools.combinations(range(len(between)), count):
            distance = sum(abs(between[entrant].points - marks[mark])
                           for mark, entrant in zip(chosen_marks, chosen, strict=True))
            if best is None or distance < best[0]:
                best = (distance, chosen_marks, chosen)
    if best is None:
        return []
    _, chosen_marks, chosen = best
    return [level(names[mark], between[entrant]) for mark, entrant in zip(chosen_marks, chosen, strict=True)]


# --- the shipped file ---------------------------------------------------------------------------


def levels_for(game: str, players: int, path: Path = LEVELS_FILE) -> list[Level]:
    """The levels of ``game`` with ``players`` players, easiest first; none when no ladder placed them."""
    entry = placements(path).get(game, {}).get(str(players))
    return [] if entry is None else [read_level(data, path) for data in entry["levels"]]


def level_counts(game: str, path: Path = LEVELS_FILE) -> list[int]:
    """The player counts of ``game`` that have levels."""
    return sorted(int(players) for players in placements(path).get(game, {}))


def find_level(game: str, players: int, name: str, path: Path = LEVELS_FILE) -> Level:
    """The level called ``name``; ``LevelsError`` saying which levels there are (or that there are none)."""
    levels = levels_for(game, players, path)
    wanted = name.strip().lower()
    for found in levels:
        if found.name == wanted:
            return found
    if levels:
        listed = ", ".join(found.name for found in levels)
        raise LevelsError(f"{game} has no level {name!r} (levels: {listed})")
    counts = " or ".join(map(str, level_counts(game, path)))
    if counts:
        raise LevelsError(f"{game} has levels only with {counts} players, not {players}")
    placed = sorted(placements(path))
    elsewhere = f" (games with levels: {', '.join(placed)})" if placed else ""
    raise LevelsError(f"{game} has no levels yet: no ladder has placed them{elsewhere}")


def level_of(game: str, players: int, kind: str, seconds: float, path: Path = LEVELS_FILE) -> Level | None:
    """The level a bot of ``kind`` given ``seconds`` a move plays at, when it is one of the game's
    levels (a kind that plays alike whatever its time is its level at any time); else ``None``."""
    for found in levels_for(game, players, path):
        if found.kind == kind and found.seconds in (None, seconds):
            return found
    return None


def placements(path: Path = LEVELS_FILE) -> dict[str, dict[str, dict[str, Any]]]:
    """The whole file: game → player count (as text) → its entry. Read once per path and
    modification (the ladder may write it while a test reads it); none when the file is absent."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return {}
    return _read_placements(path, (status.st_ino, status.st_mtime_ns, status.st_size))


@cache
def _read_placements(path: Path, stamp: tuple[int, int, int]) -> dict[str, dict[str, dict[str, Any]]]:
    del stamp  # part of the cache's key only
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LevelsError(f"the levels file {path} cannot be read ({error})") from None
    if not isinstance(data, dict) or not all(
            isinstance(counts, dict) and all(isinstance(entry, dict) and isinstance(entry.get("levels"), list)
                                             for entry in counts.values())
            for counts in data.values()):
        raise LevelsError(f"the levels file {path} is not one written by parlour ladder --levels")
    return data


def read_level(data: Any, path: Path) -> Level:
    try:
        seconds = data["seconds"]
        return Level(str(data["name"]), str(data["kind"]), None if seconds is None else float(seconds),
                     float(data["rating"]), float(data["low"]), float(data["high"]), int(data["games"]))
    except (KeyError, TypeError, ValueError):
        raise LevelsError(f"the levels file {path} has a damaged level: {data!r}") from None


def level_json(found: Level) -> dict[str, Any]:
    """A level as the file and ``GET /api/games`` give it (ratings to the nearest point)."""
    data = asdict(found)
    for name in ("rating", "low", "high"):
        data[name] = round(data[name])
    return data


def write_levels(game: str, players: int, levels: Sequence[Level], source: dict[str, Any],
                 path: Path = LEVELS_FILE) -> None:
    """Puts ``game``'s entry for ``players`` into the file, the others' kept; written to a new file
    then moved over the old, so that a reader never sees half a file."""
    data = placements(path)
    counts = dict(data.get(game, {}))
    counts[str(players)] = {**source, "levels": [level_json(found) for found in levels]}
    whole = {**data, game: dict(sorted(counts.items(), key=lambda item: int(item[0])))}
    text = json.dumps(dict(sorted(whole.items())), indent=2) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, text)
