"""``parlour ladder``: every bot a game offers, at several budgets, in a round robin, and their ratings.

    parlour ladder GAME [--players P] [--budgets 0.05,0.2,1,5] [--games N] [--rounds R]
                        [--option NAME=VALUE ...] [--file PATH] [--seed S] [--jobs J] [--markdown]
                        [--levels [FILE]]

Entrants: every kind of bot the game offers (``parlour.bots.bot_kinds``); a kind whose play depends
on the time it is given (``strong``) enters once per budget, as ``strong@0.2`` (0.2 s a move),
the others once (``random``, ``greedy``, ``classic`` decide alike whatever the time).

Pairings: every two entrants. With two players each pairing is one entrant against the other; with
more, one entrant sits against ``P - 1`` copies of the other, and each pairing is played both
ways round (A alone against copies of B, and B alone against copies of A). A table of one
against copies is the arena's own (``parlour.bots.arena``), and it keeps the rating sound: the
chance that A wins such a table is, by Luce's choice axiom, ``r_A / (r_A + (P - 1) r_B)``, which
is what ``parlour.bots.ratings`` fits. A mixed table of several entrants would tie each rating to
who else sat there.

Rounds: a round of a pairing is ``P`` games with the lone entrant in each seat once. In a game
with chance (cards, dice) the round plays one deal, the same cards or dice in every seat (the
arena's ``--duplicate``), so that the luck of the deal cancels; every pairing plays the same
deals. The games of a sitting are played round by round across all pairings, so that a run
stopped early leaves every pairing with about as many games as the others.

The file: every finished game is appended at once to a file of JSON lines (``--file``, by
default ``ladders/GAME-Pp.jsonl`` in the user's data directory, any options added to the name,
a long value such as a map's text in a short safe form; its lines: ``parlour.bots.results``),
flushed, so that a kill loses at most the games being played. A game is known by its entrants,
the lone entrant's seat and the deal's seed: run the same command again and only the games
missing from the file are played, so that a long series spans several sittings. ``--rounds R``
plays at most R rounds of what is missing, then stops; ``--rounds 0`` plays nothing and prints
the table of the file. A damaged line (not UTF-8, not JSON, not a game this ladder could have
played) stops the run before anything is played, naming the line.

The table: every entrant's rating on the Elo scale, ``random`` at 0, with its 95 % interval and
its number of games, from every game in the file (``parlour.bots.ratings`` says how and why).
``--levels``: after the table, the levels (beginner … master) are placed from it and written into
the levels file (``parlour.bots.levels``; by default the one shipped in the package, which the
lobby and ``parlour play --level`` read), with the file's name, its number of games and the date.

A ladder plays the game's rules with its ``--option`` settings (the game's defaults otherwise);
they are part of the file's every line, and a file of other settings is refused.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import math
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, TextIO

import platformdirs

from parlour.bots import bot_kinds
from parlour.bots.arena import (
    GameResult,
    Progress,
    Series,
    play_game,
    read_options,
    record_of,
    run_each,
    score_so_far,
)
from parlour.bots.levels import LEVELS_FILE, Level, LevelsError, place, write_levels
from parlour.bots.ratings import Outcome, Rating, RatingError, rate, unlinked
from parlour.bots.results import (
    TIMED_KINDS,
    Entrant,
    Key,
    Record,
    ResultsFileError,
    appending,
    read_records,
)
from parlour.engine import IllegalActionError, ParlourError
from parlour.games import get_game

ANCHOR: Final = "random"
DEFAULT_BUDGETS: Final = (0.05, 0.2, 1.0, 5.0)
DEFAULT_GAMES: Final = 20


@dataclass(frozen=True)
class Ladder:
    """The settings of one ``parlour ladder`` run."""

    game: str
    players: int
    entrants: tuple[Entrant, ...]
    games: int
    """Games per pairing (and per way round with more than two players): whole rounds."""
    seed: int
    jobs: int
    rounds: int | None
    """Rounds to play this sitting at most (``None``: all that are missing)."""
    path: Path
    options: dict[str, Any] = field(default_factory=dict)
    markdown: bool = False
    levels: Path | None = None
    """``--levels``: the levels file to write this game's placement into (``None``: write none)."""

    @property
    def duplicate(self) -> bool:
        """Each round plays one deal in every seat: for games with cards or dice."""
        return get_game(self.game).info.chance

    def pairings(self) -> list[tuple[Entrant, Entrant]]:
        """(lone entrant, the other) for every pairing, both ways round with more than two players."""
        if self.players == 2:
            return list(itertools.combinations(self.entrants, 2))
        return list(itertools.permutations(self.entrants, 2))

    def series(self, a: Entrant, b: Entrant) -> Series:
        """The arena's series of the pairing: its seats and deals are the arena's."""
        return Series(self.game, (a.kind, b.kind), self.games, a.budget, self.seed, 1, self.players,
                      self.options, self.duplicate, b.budget)


Work = list[tuple[Series, int]]


def missing(ladder: Ladder, done: set[Key]) -> Work:
    """The games not yet in the file, round by round across the pairings (at most ``rounds``
    rounds that have something missing)."""
    pairings = [ladder.series(a, b) for a, b in ladder.pairings()]
    work: Work = []
    rounds = 0
    for first in range(0, ladder.games, ladder.players):
        if ladder.rounds is not None and rounds >= ladder.rounds:
            break
        this_round = [(series, index) for series in pairings
                      for index in range(first, first + ladder.players)
                      if series.key(index) not in done]
        if this_round:
            work += this_round
            rounds += 1
    return work


def play(series: Series, index: int) -> tuple[Series, GameResult]:
    """The arena's game, handed back with its series (games of many series finish in any order)."""
    return series, play_game(series, index)


def outcomes(records: Iterable[Record], players: int) -> list[Outcome]:
    return [Outcome(record.a, record.b, players, record.a_points) for record in records]


def table(ladder: Ladder, records: list[Record]) -> str:
    """The ratings of every entrant in the file, best first."""
    head = (f"{ladder.game}, {ladder.players} players: {len(records)} games in {ladder.path}\n"
            "Bradley-Terry ratings on the Elo scale, random = 0, with 95% intervals")
    if not records:
        return f"{head}\nno games yet"
    games = outcomes(records, ladder.players)
    try:
        ratings = rate(games, ANCHOR)
    except RatingError as error:
        return f"{head}\n{error}"
    rows = markdown_rows(ratings) if ladder.markdown else text_rows(ratings)
    apart = unlinked(games, ANCHOR)
    note = [f"not linked to {ANCHOR} by any games yet, so not rated: {', '.join(apart)}"] if apart else []
    return "\n".join([head, *rows, *note])


def text_rows(ratings: list[Rating]) -> list[str]:
    lines = [f"{'entrant':<16}{'rating':>8}  {'95% interval':<18}{'games':>7}"]
    for rating in ratings:
        if rating.name == ANCHOR:
            points, interval = "0", "(the anchor)"
        else:
            points, interval = f"{rating.points:+.0f}", f"{rating.low:+.0f} to {rating.high:+.0f}"
        lines.append(f"{rating.name:<16}{points:>8}  {interval:<18}{rating.games:>7}")
    return lines


def markdown_rows(ratings: list[Rating]) -> list[str]:
    lines = ["", "| entrant | rating | 95 % interval | games |", "| --- | ---: | --- | ---: |"]
    for rating in ratings:
        if rating.name == ANCHOR:
            lines.append(f"| {rating.name} | 0 | anchor | {rating.games} |")
        else:
            lines.append(f"| {rating.name} | {rating.points:+.0f} | {rating.low:+.0f} to {rating.high:+.0f} "
                         f"| {rating.games} |")
    return lines


def run(ladder: Ladder, err: TextIO) -> list[Record]:
    """Plays what is missing from the file, appending each game as it finishes; every game in
    the file at the end (``KeyboardInterrupt`` passes through, the file keeping what finished)."""
    records = read_records(ladder.path, ladder.game, ladder.players, ladder.options)
    work = missing(ladder, {record.key for record in records})
    pairs = len(ladder.pairings())
    print(f"{ladder.game}, {ladder.players} players: {len(ladder.entrants)} entrants, {pairs} pairings, "
          f"{ladder.games} games each; {len(records)} games in {ladder.path}, {len(work)} to play",
          file=err, flush=True)
    if not work:
        return records
    progress = Progress(len(work), err)
    progress.update(0, "no game yet")
    with appending(ladder.path, ladder.game, ladder.players, ladder.options) as append:
        try:
            for done, (series, result) in enumerate(run_each(work, play, ladder.jobs), start=1):
                record = record_of(series, result)
                append(record)
                records.append(record)
                progress.update(done, pairing_score(records, record))
        finally:
            progress.close()
    return records


def pairing_score(records: list[Record], last: Record) -> str:
    """The lone entrant's score so far in the pairing of the ``last`` game, with its interval, for
    the progress line."""
    mine = [record for record in records if (record.a, record.b) == (last.a, last.b)]
    return score_so_far(f"{last.a} vs {last.b}", sum(record.a_points for record in mine), len(mine))


NAMED_VALUE: Final = 40
"""The most characters of an option's value that go into a default file name."""


def default_path(game: str, players: int, options: dict[str, Any]) -> Path:
    """``ladders/GAME-Pp.jsonl`` (``GAME-Pp-NAME=VALUE.jsonl`` with options) in the user's data directory."""
    settings = [f"{option}={file_name_form(value)}" for option, value in sorted(options.items())]
    name = "-".join([game, f"{players}p", *settings])
    return platformdirs.user_data_path("parlour", appauthor=False) / "ladders" / f"{name}.jsonl"


def file_name_form(value: Any) -> str:
    """An option's value as it can go into a file name: as it is when it is short and plain; else
    its letters, digits, ``.`` and ``-`` (each run of anything else one ``_``) cut short, and a short
    hash of the whole value, so that two values alike at the start (two maps given as text) keep two
    files."""
    text = str(value)
    plain = re.sub(r"[^\w.-]+", "_", text, flags=re.ASCII)
    if plain == text and len(text) <= NAMED_VALUE:
        return text
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
    return f"{plain[:NAMED_VALUE]}-{digest}"


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(
        prog="parlour ladder",
        description="Every bot a game offers, at several budgets, in a round robin; their ratings "
                    "with 95 % intervals, random at 0. Games accumulate in a file: run the same "
                    "command again to go on.",
    )
    parse.add_argument("game", help="the game, e.g. loa")
    parse.add_argument("--players", type=int, default=None, help="players per game (default: the game's)")
    parse.add_argument("--budgets", default=",".join(f"{budget:g}" for budget in DEFAULT_BUDGETS),
                       help="seconds per move of the strong bot's entrants, comma-separated "
                            "(default %(default)s)")
    parse.add_argument("--games", type=int, default=DEFAULT_GAMES,
                       help="games per pairing, in rounds of one game in each seat "
                            "(default %(default)s)")
    parse.add_argument("--rounds", type=int, default=None,
                       help="play at most this many rounds of the missing games, then stop "
                            "(0: only print the table)")
    parse.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a rules option; may be repeated")
    parse.add_argument("--file", type=Path, default=None,
                       help="the results file (default: ladders/GAME-Pp.jsonl in the user's data directory)")
    parse.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    parse.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                       help="worker processes (default: the number of CPUs)")
    parse.add_argument("--markdown", action="store_true", help="print the table in Markdown")
    parse.add_argument("--levels", type=Path, nargs="?", const=LEVELS_FILE, default=None, metavar="FILE",
                       help="then place the levels (beginner … master) from the table and write them "
                            "into the levels file the lobby and parlour play offer (default: the one "
                            "shipped with parlour)")
    return parse


def read_ladder(argv: list[str]) -> Ladder:
    """The command line as a ``Ladder``; ``ParlourError`` (or ``SystemExit`` from argparse)."""
    args = parser().parse_args(argv)
    info = get_game(args.game).info
    players = info.check_players(args.players)
    options = read_options(info, args.option)
    budgets = read_budgets(args.budgets)
    entrants = tuple(Entrant(kind, budget) for kind in bot_kinds(args.game)
                     for budget in (budgets if kind in TIMED_KINDS else (None,)))
    if args.games < 1:
        raise ParlourError(f"--games must be at least 1, not {args.games}")
    if args.rounds is not None and args.rounds < 0:
        raise ParlourError(f"--rounds must be 0 or more, not {args.rounds}")
    if args.jobs < 1:
        raise ParlourError(f"--jobs must be at least 1, not {args.jobs}")
    games = -(-args.games // players) * players  # whole rounds: the lone entrant in every seat
    path = args.file if args.file is not None else default_path(args.game, players, options)
    return Ladder(args.game, players, entrants, games, args.seed, args.jobs, args.rounds, path, options,
                  args.markdown, args.levels)


def read_budgets(text: str) -> tuple[float, ...]:
    budgets: set[float] = set()
    for part in text.split(","):
        try:
            budget = float(part)
        except ValueError:
            raise ParlourError(f"--budgets takes seconds separated by commas, not {text!r}") from None
        if not budget > 0 or math.isinf(budget):
            raise ParlourError(f"--budgets: each must be a positive number of seconds, not {part!r}")
        budgets.add(budget)
    return tuple(sorted(budgets))


def file_problem(error: OSError, path: Path) -> str:
    """What the system says is wrong with the results file, naming the folder when it is the
    folder's fault (a file where a folder of the path should be)."""
    culprit = Path(error.filename) if isinstance(error.filename, str) else path
    if culprit == path:
        return error.strerror or str(error)
    if isinstance(error, (FileExistsError, NotADirectoryError)):
        return f"{culprit} is a file, not a folder"
    return f"{culprit}: {error.strerror or error}"


def main(argv: list[str]) -> int:
    """Runs ``parlour ladder``; returns the exit status (2 for bad arguments, 1 for a damaged file or
    one that cannot be used)."""
    try:
        ladder = read_ladder(argv)
    except SystemExit as exit_:  # argparse has printed its message (or the help)
        return exit_.code if isinstance(exit_.code, int) else 2
    except ParlourError as error:
        print(f"parlour ladder: {error}", file=sys.stderr)
        return 2
    try:
        records = run(ladder, sys.stderr)
    except ResultsFileError as error:
        print(f"parlour ladder: {error}", file=sys.stderr)
        return 1
    except IllegalActionError as error:
        print(f"parlour ladder: {error} (the games before it are kept in {ladder.path})", file=sys.stderr)
        return 1
    except OSError as error:  # the file cannot be read or written: a directory, a full disk, no right to
        problem = file_problem(error, ladder.path)
        print(f"parlour ladder: the results file {ladder.path} cannot be used ({problem}): give another "
              "--file (the games already in it, if any, are kept)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"parlour ladder: interrupted; the finished games are kept in {ladder.path}: run the same "
              "command again to go on", file=sys.stderr)
        return 130
    print(table(ladder, records))
    if ladder.levels is None:
        return 0
    try:
        placed = write_placement(ladder, records)
    except (RatingError, LevelsError) as error:
        print(f"parlour ladder: no levels written: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"parlour ladder: the levels file {ladder.levels} cannot be written "
              f"({error.strerror or error}); it is as it was", file=sys.stderr)
        return 1
    print(f"levels of {ladder.game} with {ladder.players} players written to {ladder.levels}:")
    for found in placed:
        interval = "the anchor" if found.kind == ANCHOR else f"{found.low:+.0f} to {found.high:+.0f}"
        print(f"  {found.described} ({interval}, {found.games} games)")
    return 0


def write_placement(ladder: Ladder, records: list[Record]) -> list[Level]:
    """Places the levels from every game in the file and writes them, with where they came from;
    ``RatingError`` or ``LevelsError`` when the games place nothing yet."""
    assert ladder.levels is not None
    if not records:
        raise RatingError(f"{ladder.path} has no games yet")
    games = outcomes(records, ladder.players)
    placed = place(rate(games, ANCHOR), ANCHOR)
    source = {"ladder": ladder.path.name, "games": len(records), "options": ladder.options,
              "date": datetime.now(UTC).date().isoformat()}
    write_levels(ladder.game, ladder.players, placed, source, ladder.levels)
    return placed

