"""``parlour arena``: two bots play a series of games; the score of the first, with its interval.

    parlour arena GAME BOT_A BOT_B -n N [--time T] [--seed S] [--jobs J] [--players P]
                  [--option NAME=VALUE ...] [--duplicate]

Bot A sits in seat ``i % P`` of game ``i`` (seat 0 in even games of two players), bot B in every
other seat. Games run in worker processes; each game's bots and chance are seeded from
``--seed`` and the game's number, so a series is reproduced by its command line. With
``--duplicate`` each deal is played with A in every seat in turn, as duplicate bridge does, so
that the luck of the deal cancels (the interval printed then errs on the wide side). A game
played in hands whose evaluator reports them (``HandPoints``) also gets bot A's mean points a
hand less bot B's, with a 95 % interval that takes the hands as independent.

``--time`` is the strong bot's: the other kinds decide alike whatever their time, and are given
the ladder's (``parlour.bots.results.UNTIMED_SECONDS``), so that a game is the same game in the
arena and in the ladder.

With ``--file FILE`` the series is resumable: every finished game is appended to FILE (the
ladder's format, ``parlour.bots.results``) as it ends, and a run plays only the games of the
series missing from it and reports on all of them, so that a long series spans several sittings
(run the same command again to go on, or with a larger ``-n`` to extend it).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol, TextIO, TypeVar, runtime_checkable

from parlour.bots import bot_kinds, make_bot, provided, seen_by
from parlour.bots.results import Entrant, Key, Record, ResultsFileError, appending, read_records
from parlour.engine import CHANCE, Bot, GameInfo, IllegalActionError, ParlourError, State
from parlour.engine.processes import die_with_parent
from parlour.games import get_game

MAX_PLIES: Final = 2_000
"""A game still going after this many actions is scored as a draw (games without a move limit),
unless the game declares its own bound (``GameInfo.max_actions``)."""


ARENA_LIMIT: Final = "arena-limit"
"""The reason of a game the arena stopped at its ply limit (not one of the game's end reasons)."""


def ply_limit(game: str) -> int:
    """The number of actions after which the arena scores a game of ``game`` as a draw."""
    return get_game(game).info.max_actions or MAX_PLIES


Z_95: Final = 1.959964


@runtime_checkable
class HandPoints(Protocol):
    """An evaluator of a game played in hands that says what each hand scored: the arena then
    reports bot A's points a hand against bot B's (a game's result says little about a hand)."""

    def hand_points(self, state: State) -> tuple[int, ...] | None:
        """Each seat's points of the hand just ended, while ``state`` stands at its end, else
        ``None`` (the arena counts a hand when this turns from ``None`` to points)."""
        ...


def hand_scorer(game: str) -> HandPoints | None:
    """The game's evaluator when it reports the points of its hands, else ``None``."""
    make = provided(game).evaluator
    evaluator = make() if make is not None else None
    return evaluator if isinstance(evaluator, HandPoints) else None


def margin(points: tuple[int, ...], a_seat: int) -> float:
    """Bot A's points less the mean of the other seats' (bot B's, with two players)."""
    others = [p for seat, p in enumerate(points) if seat != a_seat]
    return points[a_seat] - sum(others) / len(others)

Played = TypeVar("Played")
"""What one game of a series gives back (``GameResult`` for the arena's own games)."""


@dataclass(frozen=True)
class Series:
    """The settings of one arena run."""

    game: str
    bots: tuple[str, str]
    games: int
    seconds: float
    seed: int
    jobs: int
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = False
    """Each deal is played once with bot A in every seat: games ``k*P`` to ``k*P + P - 1`` share
    their game seed, so the luck of the cards and dice cancels within the group."""
    b_seconds: float | None = None
    """Bot B's seconds per move when they differ from A's (the ladder's entrants at several budgets)."""
    file: Path | None = None
    """``--file``: the results file the series' games accumulate in (``None``: none is kept)."""

    def seconds_of(self, side: int) -> float:
        """The seconds per move of bot A (side 0) or bot B (side 1)."""
        return self.b_seconds if side == 1 and self.b_seconds is not None else self.seconds

    def entrants(self) -> tuple[Entrant, Entrant]:
        """Bot A and bot B as a results file names them: ``strong@0.2``, ``greedy``."""
        return Entrant.at(self.bots[0], self.seconds_of(0)), Entrant.at(self.bots[1], self.seconds_of(1))

    def key(self, index: int) -> Key:
        """Game ``index`` as a results file knows it: the entrants, A's seat, the deal's seed."""
        a, b = self.entrants()
        return (a.name, b.name, index % self.players, self.game_seed(index))

    def game_seed(self, index: int) -> int:
        """The seed of game ``index`` (its chance, and with the seat its bots')."""
        return self.seed * 100_003 + (index // self.players if self.duplicate else index)


@dataclass(frozen=True)
class GameResult:
    """One finished game, from bot A's side."""

    index: int
    a_seat: int
    winner: int | None
    reason: str
    plies: int
    seconds: tuple[float, float]
    """Thinking time of bot A and of bot B, in total."""
    moves: tuple[int, int]
    slowest: tuple[float, float] = (0.0, 0.0)
    """The longest single decision of bot A and of bot B."""
    hands: tuple[float, ...] = ()
    """For a game played in hands (``HandPoints``): bot A's points less bot B's in each hand."""

    @property
    def a_points(self) -> float:
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == self.a_seat else 0.0


def bot_kind(spec: str) -> str:
    """``strong`` or ``bot:strong`` → ``strong``."""
    return spec.removeprefix("bot:")


def play_game(series: Series, index: int, before: Callable[[int], None] | None = None) -> GameResult:
    """Plays game number ``index`` of ``series``; every bot sees only its seat's view.
    ``before`` is told who makes each action (a seat, or ``CHANCE``) before it is made."""
    game = get_game(series.game)
    game_seed = series.game_seed(index)
    state = game.new(series.players, series.options, seed=game_seed)
    a_seat = index % series.players
    bots: list[Bot] = [
        make_bot(series.game, series.bots[0 if seat == a_seat else 1], seed=game_seed * 8 + seat)
        for seat in range(series.players)
    ]
    views = random.Random(f"arena/{game_seed}")
    seconds, moves, slowest = [0.0, 0.0], [0, 0], [0.0, 0.0]
    limit = ply_limit(series.game)
    scorer = hand_scorer(series.game)
    hands: list[float] = []
    ended: tuple[int, ...] | None = None
    while not state.is_over() and len(state.history) < limit:
        if scorer is not None:
            points = scorer.hand_points(state)
            if points is not None and ended is None:
                hands.append(margin(points, a_seat))
            ended = points
        seat = state.to_move()
        if before is not None:
            before(seat)
        if seat == CHANCE:
            state.apply(state.sample_chance())
            continue
        side = 0 if seat == a_seat else 1
        started = time.perf_counter()
        action = bots[seat].choose(seen_by(state, seat, views), series.seconds_of(side))
        spent = time.perf_counter() - started
        seconds[side] += spent
        slowest[side] = max(slowest[side], spent)
        moves[side] += 1
        if not state.is_legal(action):  # the arena applies only legal actions: anything else is a bot's bug
            raise IllegalActionError(
                f"bug: bot {series.bots[side]!r} answered the illegal action {action!r} for seat {seat} "
                f"in game {index + 1} after {len(state.history)} actions (seed {game_seed})"
            )
        state.apply(action)
    if scorer is not None and ended is None:  # the hand that ended the game
        points = scorer.hand_points(state)
        if points is not None:
            hands.append(margin(points, a_seat))
    outcome = state.outcome()
    winner, reason = (outcome.winner, outcome.reason) if outcome else (None, ARENA_LIMIT)
    return GameResult(index, a_seat, winner, reason, len(state.history), (seconds[0], seconds[1]),
                      (moves[0], moves[1]), (slowest[0], slowest[1]), tuple(hands))


def record_of(series: Series, result: GameResult) -> Record:
    """A finished game of ``series`` as a results file keeps it."""
    a, b = series.entrants()
    return Record(a.name, b.name, result.a_seat, series.game_seed(result.index), result.a_points,
                  result.winner, result.reason, result.plies, result.seconds, result.moves, result.slowest,
                  result.hands)


def result_of(record: Record, index: int) -> GameResult:
    """A game read from a results file, as game ``index`` of the series that asks for it."""
    return GameResult(index, record.a_seat, record.winner, record.reason, record.plies, record.seconds,
                      record.moves, record.slowest, record.hands)


def wilson(score: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``score`` observed over ``games`` games."""
    if games == 0:
        return 0.0, 1.0
    centre = score + z * z / (2 * games)
    half = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - half) / scale), min(1.0, (centre + half) / scale)


PROGRESS_EVERY: Final = 5.0
"""Seconds between two progress lines when stderr is no terminal (a log file, a pipe)."""

CLEAR_LINE: Final = "\r\x1b[K"
"""Back to the start of the terminal's line, and erase it (the live progress line is redrawn)."""

DEFAULT_COLUMNS: Final = 80
"""The width taken for a progress stream drawn live that is no terminal of its own."""


def duration(seconds: float) -> str:
    """A stretch of time read at a glance: ``12 s``, ``3 min 05 s``, ``2 h 07 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


def score_so_far(label: str, points: float, games: int) -> str:
    """``label``'s score over ``games`` games with its 95 % Wilson interval, for progress lines."""
    if games == 0:
        return f"{label}: no game yet"
    score = points / games
    low, high = wilson(score, games)
    return f"{label} {score:.3f} (95% {low:.3f}-{high:.3f})"


@dataclass
class Progress:
    """How a run is going, on stderr: games done of the total, a score so far with its 95 %
    interval, and the time left from the mean time a game so far (wall time, so that several
    workers count as they run together). On a terminal one line is redrawn in place below the
    lines of finished games; elsewhere (a log file, a pipe) a plain line is written at most every
    ``every`` seconds, and at the last game."""

    total: int
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    live: bool | None = None
    """Redraw one line in place; ``None``: when ``stream`` is a terminal."""
    every: float = PROGRESS_EVERY
    clock: Callable[[], float] = time.monotonic
    started: float = field(init=False)
    shown: float | None = field(init=False, default=None)
    """When the last plain line was written."""
    drawn: str = field(init=False, default="")
    """The live line now on the terminal ("" when none is)."""

    def __post_init__(self) -> None:
        if self.live is None:
            self.live = self.stream.isatty()
        self.started = self.clock()

    def line(self, done: int, score: str) -> str:
        """The progress line after ``done`` games, ``score`` being the score so far in words."""
        elapsed = self.clock() - self.started
        if done == 0:
            left = "time left not known yet"
        elif done >= self.total:
            left = f"all done in {duration(elapsed)}"
        else:
            left = f"about {duration(elapsed / done * (self.total - done))} left"
        return f"{done}/{self.total} games | {score} | {left}"

    def update(self, done: int, score: str) -> None:
        """Shows the progress after ``done`` games (a plain line only when one is due)."""
        text = self.line(done, score)
        if self.live:
            # A line wider than the terminal would wrap, and the redraw would leave its top behind.
            text = text[: max(20, self.columns() - 1)]
            self.stream.write(CLEAR_LINE + text)
            self.drawn = text
        else:
            now = self.clock()
            if done < self.total and self.shown is not None and now - self.shown < self.every:
                return
            self.stream.write(text + "\n")
            self.shown = now
        self.stream.flush()

    def columns(self) -> int:
        """The width of the terminal the line is drawn on: the progress stream's own, not stdout's
        (``shutil.get_terminal_size`` looks at stdout, usually the report redirected to a file);
        80 when the stream has no terminal to ask, or its terminal does not know (0 columns: a
        pseudo-terminal nobody has sized)."""
        try:
            columns = os.get_terminal_size(self.stream.fileno()).columns
        except (OSError, ValueError):  # no file descriptor (io.UnsupportedOperation is both), no terminal
            return DEFAULT_COLUMNS
        return columns if columns > 0 else DEFAULT_COLUMNS

    def note(self, text: str) -> None:
        """A line of its own (a finished game), written above the live line."""
        if self.drawn:
            self.stream.write(CLEAR_LINE)
        self.stream.write(text + "\n")
        if self.drawn:
            self.stream.write(self.drawn)
        self.stream.flush()

    def close(self) -> None:
        """Leaves the live line in place and moves below it, so that what follows has its own line."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = ""


def run_games(series: Series, play: Callable[[Series, int], Played]) -> Iterator[Played]:
    """``play(series, index)`` for every game of ``series``, as they finish (in worker processes
    when ``jobs`` > 1; ``play`` must then be a module-level function, so that it pickles)."""
    return run_each([(series, index) for index in range(series.games)], play, series.jobs)


def run_each(work: Sequence[tuple[Series, int]], play: Callable[[Series, int], Played],
             jobs: int) -> Iterator[Played]:
    """``play(series, index)`` for every game of ``work``, as they finish: in this process, in
    order, when ``jobs`` is 1, else in ``jobs`` worker processes (the ladder's games come from
    several series at once)."""
    if jobs <= 1:
        for series, index in work:
            yield play(series, index)
        return
    # "spawn" rather than fork: the workers start clean, whatever the parent has running.
    context = multiprocessing.get_context("spawn")
    # Each worker ends with this process, so that a run killed alone does not play on for nobody.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=die_with_parent,
                             initargs=(os.getpid(),)) as pool:
        futures = [pool.submit(play, series, index) for series, index in work]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            raise


def describe(series: Series, result: GameResult, names: list[str]) -> str:
    """One game's line; ``names``: the seat names of the series' games (``State.seat_names``)."""
    a, b = labels(series)
    seat = names[result.a_seat]
    if result.winner is None:
        verdict = f"{a} ({seat}) drew with {b}"
    elif result.winner == result.a_seat:
        verdict = f"{a} ({seat}) beat {b}"
    else:
        verdict = f"{a} ({seat}) lost to {b}"
    return f"{verdict} in {result.plies} plies: {reason_words(series.game, result.reason)}"


def reason_words(game: str, reason: str) -> str:
    """How a game ended, in the game's own words (the arena's limit in its own)."""
    if reason == ARENA_LIMIT:
        return f"stopped at the arena's limit of {ply_limit(game):,} actions ({ARENA_LIMIT})"
    return get_game(game).info.reason_words(reason)


def labels(series: Series) -> tuple[str, str]:
    a, b = series.bots
    return (f"{a} (A)", f"{b} (B)") if a == b else (a, b)


def report(series: Series, results: list[GameResult]) -> str:
    """The final summary: bot A's wins, draws and losses, its score and interval, and timings."""
    a, b = labels(series)
    wins = sum(1 for r in results if r.a_points == 1.0)
    draws = sum(1 for r in results if r.a_points == 0.5)
    losses = len(results) - wins - draws
    played = len(results)
    score = (wins + draws / 2) / played if played else 0.0
    low, high = wilson(score, played)
    plies = sum(r.plies for r in results) / played if played else 0.0
    per_move, longest = [], []
    for side, name in enumerate((a, b)):
        moves = sum(r.moves[side] for r in results)
        spent = sum(r.seconds[side] for r in results)
        per_move.append(f"{name} {spent / moves if moves else 0.0:.3f}")
        longest.append(f"{name} {max((r.slowest[side] for r in results), default=0.0):.3f}")
    hands = points_a_hand(results, (a, b))
    return "\n".join([
        f"{series.game}: {a} vs {b}, {played} games, {timing(series)}seed {series.seed}"
        + (", each deal with A in every seat" if series.duplicate else ""),
        f"{a}: {wins} wins, {draws} draws, {losses} losses",
        f"score {score:.3f} (95% Wilson interval {low:.3f}-{high:.3f})",
        *([hands] if hands else []),
        f"average plies per game: {plies:.1f}",
        f"plies per game: {lengths(results)}",
        f"how the games ended: {endings(series.game, results)}",
        f"seconds per move: {', '.join(per_move)}",
        f"slowest move (seconds): {', '.join(longest)}",
    ])


def timing(series: Series) -> str:
    """``strong 0.1 s a move, `` for each side whose play depends on its time (none for the others)."""
    sides = zip(labels(series), series.entrants(), strict=True)
    return "".join(f"{label} {entrant.seconds:g} s a move, " for label, entrant in sides
                   if entrant.seconds is not None)


def points_a_hand(results: list[GameResult], labels_: tuple[str, str]) -> str | None:
    """Bot A's mean points a hand less bot B's, with its 95 % interval (the hand is the unit:
    a normal interval from the spread of the hands' margins), for a game played in hands."""
    margins = [m for r in results for m in r.hands]
    if not margins:
        return None
    a, b = labels_
    count = len(margins)
    mean = sum(margins) / count
    if count < 2:
        return f"points a hand, {a} less {b}: {mean:+.1f} over 1 hand"
    spread = math.sqrt(sum((m - mean) ** 2 for m in margins) / (count - 1))
    half = Z_95 * spread / math.sqrt(count)
    return (f"points a hand, {a} less {b}: {mean:+.1f} (95% interval {mean - half:+.1f} to "
            f"{mean + half:+.1f}) over {count} hands")


def lengths(results: list[GameResult]) -> str:
    """The spread of the games' lengths in actions: median, 90th and 99th percentiles, longest."""
    plies = sorted(r.plies for r in results)
    if not plies:
        return "none"

    def at(share: float) -> int:
        return plies[min(len(plies) - 1, int(share * len(plies)))]

    return f"median {at(0.5)}, 90% {at(0.9)}, 99% {at(0.99)}, longest {plies[-1]}"


def endings(game: str, results: list[GameResult]) -> str:
    """How many games ended for each reason, the most frequent first."""
    counts = Counter(r.reason for r in results)
    return "; ".join(f"{count}: {reason_words(game, reason)}" for reason, count in counts.most_common())


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(
        prog="parlour arena",
        description="Play two bots against each other and report the first one's score.",
        epilog="Seats: in game i bot A plays seat i % P and bot B every other seat, so with "
               "--players 4 each game is one A against three B, A's seat rotating; A scores "
               "1 for a win, 1/2 for a draw.",
    )
    parse.add_argument("game", help="the game, e.g. loa")
    parse.add_argument("bot_a", metavar="BOT_A",
                       help="a bot kind: strong, greedy, random, classic where a game has one (or bot:KIND)")
    parse.add_argument("bot_b", metavar="BOT_B", help="the opponent's kind")
    parse.add_argument("-n", "--games", type=int, required=True, help="number of games")
    parse.add_argument("--time", type=float, default=1.0,
                       help="seconds per move of a strong bot (default 1); the other kinds decide alike "
                            "whatever their time")
    parse.add_argument("--seed", type=int, default=0, help="seed of the series (default 0)")
    parse.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                       help="worker processes (default: the number of CPUs)")
    parse.add_argument("--players", type=int, default=None, help="players per game (default: the game's)")
    parse.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a rules option; may be repeated")
    parse.add_argument("--duplicate", action="store_true",
                       help="play each deal (cards, dice) with A in every seat in turn, so its luck cancels")
    parse.add_argument("--file", type=Path, default=None,
                       help="keep every finished game in this file and play only the games of the series "
                            "missing from it: run the same command again to go on")
    return parse


def read_series(argv: list[str]) -> Series:
    """The command line as a ``Series``; ``ParlourError`` (or ``SystemExit`` from argparse)."""
    args = parser().parse_args(argv)
    game = get_game(args.game)
    info = game.info
    kinds = (bot_kind(args.bot_a), bot_kind(args.bot_b))
    known = bot_kinds(args.game)
    for kind in kinds:
        if kind not in known:
            raise ParlourError(f"no bot {kind!r} for {args.game} (bots: {', '.join(known)})")
    if args.games < 1:
        raise ParlourError(f"-n must be at least 1, not {args.games}")
    if not args.time > 0 or math.isinf(args.time):
        raise ParlourError(f"--time must be a positive number of seconds, not {args.time}")
    if args.jobs < 1:
        raise ParlourError(f"--jobs must be at least 1, not {args.jobs}")
    players = info.check_players(args.players)
    options = read_options(info, args.option)
    a, b = (Entrant.at(kind, args.time) for kind in kinds)
    if args.file is not None and a == b:
        raise ParlourError(f"--file keeps games between two entrants, and both are {a.name}: give one "
                           "another --time, or leave out --file")
    return Series(args.game, kinds, args.games, a.budget, args.seed, min(args.jobs, args.games), players,
                  options, args.duplicate, b.budget, args.file)


def read_options(info: GameInfo, texts: list[str]) -> dict[str, Any]:
    """``--option NAME=VALUE`` arguments as the game's options (``ParlourError`` for a bad one)."""
    options: dict[str, Any] = {}
    declared = {option.name: option for option in info.options}
    for text in texts:
        name, equals, value = text.partition("=")
        if not equals:
            raise ParlourError(f"--option takes NAME=VALUE, not {text!r}")
        if name not in declared:
            listed = ", ".join(declared) or "none"
            raise ParlourError(f"{info.name} has no option {name!r} (options: {listed})")
        options[name] = declared[name].parse(value)
    info.resolve_options(options)
    return options


def main(argv: list[str]) -> int:
    """Runs ``parlour arena``; returns the exit status (2 for bad arguments, 1 for a results file
    that cannot be used or a bot's illegal action)."""
    try:
        series = read_series(argv)
    except SystemExit as exit_:  # argparse has printed its message (or the help)
        return exit_.code if isinstance(exit_.code, int) else 2
    except ParlourError as error:
        print(f"parlour arena: {error}", file=sys.stderr)
        return 2
    try:
        results = play_series(series)
    except ResultsFileError as error:
        print(f"parlour arena: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # the file cannot be read or written: a directory, a full disk, no right to
        print(f"parlour arena: the results file {series.file} cannot be used ({error.strerror or error}): "
              "give another --file (the games already in it, if any, are kept)", file=sys.stderr)
        return 1
    except IllegalActionError as error:
        print(f"parlour arena: {error}", file=sys.stderr)
        return 1
    if results is None:
        return 130
    results.sort(key=lambda r: r.index)
    print(report(series, results))
    return 0


def play_series(series: Series) -> list[GameResult] | None:
    """Plays the series' games (those missing from its file, when it keeps one), with progress on
    stderr; every game of the series played so far, or ``None`` when interrupted before any."""
    names = get_game(series.game).new(series.players, series.options).seat_names()
    a, _ = labels(series)
    results, to_play = kept_games(series)
    if series.file is not None:
        print(f"{len(results)} games of this series in {series.file}, {len(to_play)} to play",
              file=sys.stderr, flush=True)
    progress = Progress(len(to_play))
    keeping = (nullcontext() if series.file is None
               else appending(series.file, series.game, series.players, series.options))
    with keeping as append:
        progress.update(0, score_so_far(a, sum(r.a_points for r in results), len(results)))
        work = [(series, index) for index in to_play]
        try:
            for done, result in enumerate(run_each(work, play_game, series.jobs), start=1):
                if append is not None:
                    append(record_of(series, result))
                results.append(result)
                wins = sum(1 for r in results if r.a_points == 1.0)
                draws = sum(1 for r in results if r.a_points == 0.5)
                progress.note(
                    f"game {result.index + 1} ({done}/{len(to_play)} done): "
                    f"{describe(series, result, names)} | {a}: {wins}-{draws}-{len(results) - wins - draws}"
                )
                progress.update(done, score_so_far(a, wins + draws / 2, len(results)))
        except KeyboardInterrupt:
            progress.close()
            kept = f"; the finished games are kept in {series.file}" if series.file is not None else ""
            print(f"parlour arena: interrupted{kept}", file=sys.stderr)
            return results or None
        finally:
            progress.close()
    return results


def kept_games(series: Series) -> tuple[list[GameResult], list[int]]:
    """The series' games already in its file (none without one), and the numbers of those to play."""
    if series.file is None:
        return [], list(range(series.games))
    records = {record.key: record for record in
               read_records(series.file, series.game, series.players, series.options)}
    kept: list[GameResult] = []
    to_play: list[int] = []
    for index in range(series.games):
        record = records.get(series.key(index))
        if record is None:
            to_play.append(index)
        else:
            kept.append(result_of(record, index))
    return kept, to_play
