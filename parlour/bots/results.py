"""Finished bot games, one JSON line each: the file of ``parlour ladder`` and ``parlour arena --file``.

A line names its game, player count and rules options, the two entrants (``a``, the lone one, and
``b``, in every other seat), the lone entrant's seat and the deal's seed, and what happened:
``a_points`` (1, 1/2 or 0), the winner's seat, the reason, the number of actions, each side's
thinking time, decisions and slowest decision, and, for a game played in hands, bot A's points
less bot B's in each hand (``hands``). Lines written before a field existed are read without it.

A game is known by its key: the entrants, the lone entrant's seat and the deal's seed. The arena
plays a game from exactly these (``parlour.bots.arena.play_game``: the deal's seed seeds the
chance and, with the seat, the bots), so a key is one game whichever series asked for it, and a
series finds the games it is missing by their keys.

Entrants are named as the ladder names them: ``strong@0.2`` for a kind whose play depends on its
time, at 0.2 s a move; ``greedy`` for the others, which are given ``UNTIMED_SECONDS``.

Every line is appended and flushed as its game finishes, so a kill loses at most the games being
played. A damaged line (not UTF-8, not JSON, a game of other settings) is named with its number
and nothing is played, so that what the file holds is never mixed with what it should not.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from parlour.bots import bot_kinds
from parlour.engine import ParlourError

TIMED_KINDS: Final = ("strong",)
"""The kinds whose play depends on the time they are given: they enter at a budget."""

UNTIMED_SECONDS: Final = 1.0
"""The time per move handed to the other kinds: they do not use it, but greedy's whole-turn search
keeps a safety clock on it, which a tiny budget would stop short."""


class ResultsFileError(ParlourError):
    """The results file cannot be read as this series' (a damaged line, another game's file)."""


@dataclass(frozen=True)
class Entrant:
    """A bot kind, at a budget when its play depends on one."""

    kind: str
    seconds: float | None = None

    @property
    def name(self) -> str:
        return self.kind if self.seconds is None else f"{self.kind}@{self.seconds:g}"

    @property
    def budget(self) -> float:
        """The seconds per move it is given."""
        return UNTIMED_SECONDS if self.seconds is None else self.seconds

    @classmethod
    def parse(cls, name: str) -> Entrant:
        """``strong@0.2`` → ``Entrant("strong", 0.2)``; ``ValueError`` for anything else."""
        kind, at, seconds = name.partition("@")
        if not kind or not kind.isidentifier():
            raise ValueError(f"no entrant {name!r}")
        if not at:
            return cls(kind)
        try:
            budget = float(seconds)
        except ValueError:
            raise ValueError(f"no entrant {name!r}") from None
        if not budget > 0 or math.isinf(budget):
            raise ValueError(f"no entrant {name!r}")
        return cls(kind, budget)

    @classmethod
    def at(cls, kind: str, seconds: float) -> Entrant:
        """The entrant of ``kind`` given ``seconds`` a move: timed kinds keep them, the others none."""
        return cls(kind, seconds if kind in TIMED_KINDS else None)


Key = tuple[str, str, int, int]
"""A game in the file: lone entrant, the other, the lone entrant's seat, the deal's seed."""

Pair = tuple[float, float]


@dataclass(frozen=True)
class Record:
    """One game as the file keeps it."""

    a: str
    b: str
    a_seat: int
    deal: int
    a_points: float
    winner: int | None
    reason: str
    plies: int
    seconds: Pair = (0.0, 0.0)
    """Thinking time of A and of B, in total."""
    moves: tuple[int, int] = (0, 0)
    slowest: Pair = (0.0, 0.0)
    hands: tuple[float, ...] = ()
    """A's points less B's in each hand, for a game played in hands (none in older lines)."""

    @property
    def key(self) -> Key:
        return (self.a, self.b, self.a_seat, self.deal)


def record_line(game: str, players: int, options: dict[str, Any], record: Record) -> str:
    """The file's line for a finished game."""
    data: dict[str, Any] = {
        "game": game, "players": players, "options": options, "a": record.a, "b": record.b,
        "a_seat": record.a_seat, "deal": record.deal, "a_points": record.a_points,
        "winner": record.winner, "reason": record.reason, "plies": record.plies,
        "seconds": [round(spent, 3) for spent in record.seconds], "moves": list(record.moves),
        "slowest": [round(spent, 3) for spent in record.slowest],
    }
    if record.hands:
        data["hands"] = list(record.hands)
    return json.dumps(data, separators=(",", ":"))


def read_records(path: Path, game: str, players: int, options: dict[str, Any]) -> list[Record]:
    """The games in ``path`` (none when it does not exist yet); ``ResultsFileError`` naming the
    first line that is damaged or of other settings."""
    if not path.exists():
        return []
    records: list[Record] = []
    seen: dict[Key, int] = {}
    # Read as bytes and decoded line by line, so that a line that is not UTF-8 is a damaged line
    # like any other, named, rather than a failure of the whole file.
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                record = parse_record(decoded(raw), game, players, options)
            except ValueError as error:
                raise ResultsFileError(
                    f"{path}, line {number} is damaged ({error}): mend or remove that line and run "
                    "again (nothing was played, the file is as it was)") from None
            if record.key in seen:
                raise ResultsFileError(
                    f"{path}, line {number} is the game of line {seen[record.key]} again (were two "
                    "runs writing the file at once?): remove one of them and run again")
            seen[record.key] = number
            records.append(record)
    return records


def decoded(raw: bytes) -> str:
    """A line of the file as text; ``ValueError`` when it is not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = raw[error.start]
        raise ValueError(f"not UTF-8 text: byte 0x{byte:02x} at column {error.start + 1}") from None


def parse_record(line: str, game: str, players: int, options: dict[str, Any]) -> Record:
    """One line of the file; ``ValueError`` saying what is wrong with it."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON: {error.msg} (column {error.colno})") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if (data.get("game"), data.get("players")) != (game, players):
        raise ValueError(f"a game of {data.get('game')!r} with {data.get('players')!r} players; this "
                         f"series is {game} with {players}: give another --file")
    if data.get("options", {}) != json.loads(json.dumps(options)):
        raise ValueError(f"a game with the options {data.get('options')!r}, this series' are {options!r}: "
                         "give another --file")
    fields: dict[str, tuple[type, ...]] = {"a": (str,), "b": (str,), "a_seat": (int,), "deal": (int,),
                                           "a_points": (int, float), "reason": (str,), "plies": (int,)}
    for name, kinds in fields.items():
        value = data.get(name)
        if not isinstance(value, kinds) or isinstance(value, bool):
            raise ValueError(f"{name!r} is missing or not {' or '.join(kind.__name__ for kind in kinds)}")
    winner = data.get("winner")
    if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
        raise ValueError("'winner' is neither a seat nor null")
    if data["a_points"] not in (0, 0.5, 1):
        raise ValueError(f"'a_points' is {data['a_points']!r}, not 0, 0.5 or 1")
    if not 0 <= data["a_seat"] < players:
        raise ValueError(f"'a_seat' {data['a_seat']} is no seat of {players} players")
    for name in ("a", "b"):
        check_entrant(name, data[name], game)
    if data["a"] == data["b"]:
        raise ValueError(f"'a' and 'b' are both {data['a']!r}: a game is between two entrants")
    return Record(data["a"], data["b"], data["a_seat"], data["deal"], float(data["a_points"]), winner,
                  data["reason"], data["plies"], numbers(data, "seconds", 2), numbers(data, "moves", 2, int),
                  numbers(data, "slowest", 2), numbers(data, "hands"))


def numbers(data: dict[str, Any], name: str, count: int | None = None, kind: type = float) -> Any:
    """The optional list of numbers ``name`` as a tuple (``count`` zeros when the line has none)."""
    value = data.get(name)
    if value is None:
        return (kind(0),) * (count or 0)
    if (not isinstance(value, list) or (count is not None and len(value) != count)
            or not all(isinstance(item, (int, float)) and not isinstance(item, bool) for item in value)):
        length = f"{count} " if count is not None else ""
        raise ValueError(f"{name!r} is not a list of {length}numbers")
    return tuple(kind(item) for item in value)


def check_entrant(field_name: str, name: str, game: str) -> None:
    """``ValueError`` unless ``name`` is an entrant of ``game`` (at any budget: a file may hold
    budgets an earlier sitting was given)."""
    entrant = Entrant.parse(name)
    kinds = bot_kinds(game)
    said = f"{field_name!r} is {name!r}"
    if entrant.kind not in kinds:
        raise ValueError(f"{said}, and {game} has no such bot (its bots: {', '.join(kinds)})")
    if entrant.kind in TIMED_KINDS and entrant.seconds is None:
        raise ValueError(f"{said}, but {entrant.kind} enters at a budget, as {entrant.kind}@SECONDS")
    if entrant.kind not in TIMED_KINDS and entrant.seconds is not None:
        raise ValueError(f"{said}, but {entrant.kind} plays alike whatever its time, so it enters "
                         "without one")


Append = Callable[[Record], None]
"""Appends a finished game to a results file (``appending``)."""


@contextmanager
def appending(path: Path, game: str, players: int, options: dict[str, Any]) -> Iterator[Append]:
    """The file opened (made, with its folder, when missing) for games of these settings: what this
    yields appends a game's line and flushes it, so that a kill loses at most the games in play."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as file:
        if file.tell() > 0 and not ends_with_newline(path):
            file.write("\n")  # a line written by hand without its end: ours must start a line

        def append(record: Record) -> None:
            file.write(record_line(game, players, options, record) + "\n")
            file.flush()

        yield append


def ends_with_newline(path: Path) -> bool:
    with path.open("rb") as file:
        file.seek(-1, os.SEEK_END)
        return file.read(1) == b"\n"
