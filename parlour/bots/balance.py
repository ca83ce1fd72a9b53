"""``parlour bench GAME --balance``: how fair a board is, from games of two bots of one kind.

    parlour bench GAME --balance [--map NAME|FILE] [-n N] [--jobs J] [--players P]
                       [--bots A,B] [--compare NAME|FILE] [--seed S] [--option NAME=VALUE ...]

A board is fair when the seat that moves first neither wins more than its share nor wins before
the others have had a chance (issue 16's targets, greedy against greedy: the first mover scores
0.45 to 0.55 with two players and wins within its first two rolls in under 2 % of games). This
prints, for the board and for the one it is compared with: the first mover's score with its 95 %
interval, the share of games it won within its first two rolls, and how long the games ran.

A *roll* is a chance action (a throw of the dice) in a game with chance, a turn (a seat's run of
decisions) in a game without. A chance action counts for the seat that decides after it, as the
scoresheet numbers turns (``parlour.engine.turns``): a roll that ends at once, nothing being
playable (Conflict's CON-31), counts for the next seat that decides, which is rare. The games,
their seats and seeds are the arena's (``parlour.bots.arena``): bot A in seat ``i % P`` of game
``i``; the figures are those of the *first mover*, whichever bot it is, so two bots of one kind
measure the board alone.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from parlour.bots import bot_kinds
from parlour.bots.arena import Series, bot_kind, play_game, reason_words, run_games, wilson
from parlour.engine import CHANCE, Game, IllegalActionError, ParlourError, State
from parlour.engine.boards import Boards
from parlour.games import get_game

EARLY_ROLLS: Final = 2
"""Issue 16: a first mover that wins within its first two rolls won before the others could answer."""

DEFAULT_BOT: Final = "greedy"
DEFAULT_GAMES: Final = 1000


@dataclass(frozen=True)
class BalanceGame:
    """One finished game, from the first mover's side."""

    index: int
    first: int
    """The seat that made the game's first decision."""
    winner: int | None
    reason: str
    rolls: int
    """Rolls in the whole game: chance actions, or turns in a game without chance."""
    first_rolls: int
    """The rolls of the first mover, up to the end of the game."""

    @property
    def points(self) -> float:
        """The first mover's score: 1 a win, 1/2 a draw, as the arena counts."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == self.first else 0.0

    @property
    def early(self) -> bool:
        """The first mover won within its first ``EARLY_ROLLS`` rolls."""
        return self.winner == self.first and self.first_rolls <= EARLY_ROLLS


class RollCount:
    """Rolls per seat as a game goes (see the module): chance actions wait for the seat that
    decides after them; in a game without chance each new turn is one."""

    def __init__(self, chance: bool) -> None:
        self.chance = chance
        self.per_seat: Counter[int] = Counter()
        self.pending = 0
        self.last_decider: int | None = None

    def count(self, decider: int) -> None:
        """Counts the action about to be made by ``decider`` (a seat, or ``CHANCE``)."""
        if decider == CHANCE:
            self.pending += 1
            return
        if self.chance:
            self.per_seat[decider] += self.pending
        elif decider != self.last_decider:
            self.per_seat[decider] += 1
        self.pending = 0
        self.last_decider = decider

    @property
    def total(self) -> int:
        return sum(self.per_seat.values()) + self.pending


def play_balance_game(series: Series, index: int) -> BalanceGame:
    """Plays game ``index`` of ``series`` as the arena does (``play_game``), counting rolls."""
    rolls = RollCount(get_game(series.game).info.chance)
    deciders: list[int] = []

    def before(seat: int) -> None:
        rolls.count(seat)
        if seat != CHANCE and not deciders:
            deciders.append(seat)

    result = play_game(series, index, before)
    first = deciders[0] if deciders else 0
    return BalanceGame(index, first, result.winner, result.reason, rolls.total, rolls.per_seat[first])


# --- the figures ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figures:
    """The balance figures of a series of games (see ``figures``)."""

    games: int
    wins: int
    draws: int
    score: float
    score_interval: tuple[float, float]
    early: int
    early_interval: tuple[float, float]
    median_rolls: float
    quartiles: tuple[float, float]
    longest: int
    endings: Counter[str]


def median(values: Sequence[int]) -> float:
    """The middle value (the mean of the two middle ones for an even count)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (ordered[middle - 1] + ordered[middle]) / 2


def quartiles(values: Sequence[int]) -> tuple[float, float]:
    """The lower and upper quartiles: the medians of the lower and upper halves."""
    ordered = sorted(values)
    half = len(ordered) // 2
    lower, upper = ordered[:half], ordered[half + len(ordered) % 2:]
    if not lower:
        return (median(ordered), median(ordered))
    return median(lower), median(upper)


def figures(results: Sequence[BalanceGame]) -> Figures:
    """The first mover's score and early wins, and the games' lengths in rolls."""
    played = len(results)
    if not played:
        raise ParlourError("no games were played")
    wins = sum(1 for r in results if r.winner is not None and r.winner == r.first)
    draws = sum(1 for r in results if r.winner is None)
    score = sum(r.points for r in results) / played
    early = sum(1 for r in results if r.early)
    rolls = [r.rolls for r in results]
    return Figures(played, wins, draws, score, wilson(score, played), early, wilson(early / played, played),
                   median(rolls), quartiles(rolls), max(rolls), Counter(r.reason for r in results))


def report(title: str, found: Figures, game: str, chance: bool) -> list[str]:
    """The lines that describe ``found``."""
    unit = "rolls" if chance else "turns"
    low, high = found.score_interval
    early_low, early_high = found.early_interval
    losses = found.games - found.wins - found.draws
    endings = "; ".join(f"{count}: {reason_words(game, reason)}"
                        for reason, count in found.endings.most_common())
    return [
        title,
        f"  games: {found.games}",
        f"  first mover: {found.wins} wins, {found.draws} draws, {losses} losses; score {found.score:.3f} "
        f"(95% Wilson interval {low:.3f}-{high:.3f})",
        f"  first mover won within its first {EARLY_ROLLS} {unit}: {found.early} games, "
        f"{100 * found.early / found.games:.1f}% "
        f"(95% interval {100 * early_low:.1f}-{100 * early_high:.1f}%)",
        f"  {unit} per game: median {found.median_rolls:g}, quartiles {found.quartiles[0]:g}-"
        f"{found.quartiles[1]:g}, longest {found.longest}",
        f"  how the games ended: {endings}",
    ]


# --- the command line ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What to measure: the series on the board, and the one on the board compared with."""

    series: Series
    board: str
    compare: Series | None
    compared: str


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(
        prog="parlour bench",
        description="How fair a board is: bots of one kind play it, and the first mover's figures are "
                    "printed (its score, its wins within its first two rolls, the games' lengths).",
        epilog="A roll is a chance action (a throw of the dice) in a game with chance, a turn in a game "
               "without; a chance action counts for the seat that decides after it. Seats and seeds are "
               "the arena's: game i is reproduced by the same command line. Progress goes to stderr.",
    )
    parse.add_argument("game", help="the game, e.g. conflict")
    parse.add_argument("--balance", action="store_true", required=True, help="measure the board's balance")
    parse.add_argument("--map", "--board", dest="board", metavar="NAME|FILE",
                       help="the board: a shipped one's name or a file of a board's text (default: the "
                            "game's recommended board)")
    parse.add_argument("-n", "--games", type=int, default=DEFAULT_GAMES,
                       help=f"games on each board (default {DEFAULT_GAMES})")
    parse.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parse.add_argument("--players", type=int, default=None, help="players per game (default: the game's)")
    parse.add_argument("--bots", default=f"{DEFAULT_BOT},{DEFAULT_BOT}", metavar="A,B",
                       help=f"bot A and bot B (default {DEFAULT_BOT},{DEFAULT_BOT}); with --players 4, "
                            "one A against three B")
    parse.add_argument("--time", type=float, default=1.0,
                       help="seconds per decision for the bots (default 1; greedy ignores it)")
    parse.add_argument("--seed", type=int, default=0, help="seed of the series (default 0)")
    parse.add_argument("--compare", metavar="NAME|FILE",
                       help="the same figures on this board too, e.g. classic, and how much longer the "
                            "games run on the measured board")
    parse.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="another rules option; may be repeated")
    return parse


def board_option(game: Game[State]) -> str:
    """The rules option that chooses ``game``'s board (``Game.boards``)."""
    return boards_of(game).option


def recommended(game: Game[State]) -> str:
    """The shipped board ``game`` offers first."""
    return boards_of(game).recommended


def boards_of(game: Game[State]) -> Boards:
    if game.boards is None:
        raise ParlourError(f"{game.info.name} has no boards to choose from (--map)")
    return game.boards


def board_value(boards: Boards, given: str) -> str:
    """``given`` if it names a shipped board, else the text of the file it names."""
    if boards.shipped_name(given) is not None:
        return given
    try:
        return Path(given).read_text(encoding="utf-8")
    except OSError as error:
        names = ", ".join(boards.shipped())
        raise ParlourError(f"{given!r} is neither a shipped {boards.noun} ({names}) nor a file that can be "
                           f"read: {error.strerror}") from None


def read_plan(argv: list[str]) -> Plan:
    """The command line as a ``Plan``; ``ParlourError`` (or ``SystemExit`` from argparse)."""
    args = parser().parse_args(argv)
    game = get_game(args.game)
    info = game.info
    parts = [part.strip() for part in args.bots.split(",")]
    if len(parts) != 2:
        raise ParlourError(f"--bots takes two kinds, A,B, not {args.bots!r}")
    kinds = (bot_kind(parts[0]), bot_kind(parts[1]))
    known = bot_kinds(args.game)
    for kind in kinds:
        if kind not in known:
            raise ParlourError(f"no bot {kind!r} for {args.game} (bots: {', '.join(known)})")
    if args.games < 1 or args.jobs < 1:
        raise ParlourError("-n and --jobs must be at least 1")
    options = read_options(game, args.option)
    players = info.check_players(args.players)
    series = Series(args.game, kinds, args.games, args.time, args.seed, min(args.jobs, args.games), players)
    board = args.board
    if board is None and (game.boards is not None or args.compare is not None):
        board = recommended(game)
    if board is not None:
        options[board_option(game)] = board_value(boards_of(game), board)
    on_board = with_options(game, series, options)
    if args.compare is None:
        return Plan(on_board, board or "the game's board", None, "")
    other = board_value(boards_of(game), args.compare)
    compared = with_options(game, series, {**options, board_option(game): other})
    return Plan(on_board, str(board), compared, args.compare)


def read_options(game: Game[State], texts: list[str]) -> dict[str, Any]:
    declared = {option.name: option for option in game.info.options}
    options: dict[str, Any] = {}
    for text in texts:
        name, equals, value = text.partition("=")
        if not equals or name not in declared:
            listed = ", ".join(declared) or "none"
            raise ParlourError(f"--option {text!r}: write NAME=VALUE with NAME one of {listed}")
        options[name] = declared[name].parse(value)
    return options


def with_options(game: Game[State], series: Series, options: dict[str, Any]) -> Series:
    """``series`` with ``options``, checked by the game (a bad board is refused here, not in a worker)."""
    game.info.resolve_options(options)
    game.new(series.players, options, seed=0)
    return replace(series, options=dict(options))


def measure(series: Series, label: str, unit: str) -> list[BalanceGame]:
    """Plays ``series``, progress on stderr. Interrupted (Ctrl-C), the games finished so far;
    ``KeyboardInterrupt`` if there are none."""
    results: list[BalanceGame] = []
    try:
        for result in run_games(series, play_balance_game):
            results.append(result)
            verdict = "drew" if result.winner is None else "won" if result.winner == result.first else "lost"
            print(f"{label}: game {result.index + 1} ({len(results)}/{series.games} done): first mover "
                  f"{verdict} after {result.rolls} {unit}", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        if not results:
            raise
        print(f"parlour bench: interrupted after {len(results)} of {series.games} games", file=sys.stderr)
    return results


def title(label: str, series: Series, results: list[BalanceGame]) -> str:
    if len(results) < series.games:
        return f"board {label} (interrupted: the first {len(results)} of {series.games} games to finish):"
    return f"board {label}:"


def main(argv: Sequence[str]) -> int:
    """Runs ``parlour bench GAME --balance``; returns the exit status (2 for bad arguments)."""
    try:
        plan = read_plan(list(argv))
    except SystemExit as exit_:  # argparse has printed its message (or the help)
        return exit_.code if isinstance(exit_.code, int) else 2
    except ParlourError as error:
        print(f"parlour bench: {error}", file=sys.stderr)
        return 2
    series = plan.series
    chance = get_game(series.game).info.chance
    unit = "rolls" if chance else "turns"
    a, b = series.bots
    print(f"parlour bench {series.game} --balance: {a} vs {b}, {series.players} players, "
          f"{series.games} games a board, seed {series.seed}", flush=True)
    try:
        results = measure(series, plan.board, unit)
        found = figures(results)
        print("\n".join(report(title(plan.board, series, results), found, series.game, chance)), flush=True)
        if plan.compare is not None and len(results) == series.games:
            others = measure(plan.compare, plan.compared, unit)
            other = figures(others)
            print("\n".join(report(title(plan.compared, plan.compare, others), other, series.game, chance)),
                  flush=True)
            ratio = found.median_rolls / other.median_rolls if other.median_rolls else float("inf")
            print(f"median game on {plan.board}: {ratio:.2f} times as many {unit} as on {plan.compared}")
    except KeyboardInterrupt:
        print("parlour bench: interrupted", file=sys.stderr)
        return 130
    except IllegalActionError as error:
        print(f"parlour bench: {error}", file=sys.stderr)
        return 1
    return 0
