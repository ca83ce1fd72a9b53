"""``parlour bench GAME``: how fast the rules and the search run (figures, never pass/fail).

perft from the initial position (with the exact counts where the spec gives them), seeded random
playouts, and the strong bot's search speed; when the optional ``open_spiel`` package is
importable, the same random playouts through OpenSpiel's implementation of the game, for a ratio.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, NoReturn

from parlour.bots import make_bot
from parlour.bots.determinised import SampleReport
from parlour.bots.search import SearchResult
from parlour.engine import (
    CHANCE,
    Action,
    Benchmark,
    Game,
    ParlourError,
    State,
    game_part,
    random_playout,
    seen_by,
)
from parlour.games import GAMES, get_game

BENCH_PART: Final = "bench"
"""The module of a game's package that holds its benchmark settings: ``BENCHMARK``, a
``parlour.engine.Benchmark`` (perft depth and unit, the spec's exact counts, OpenSpiel's name of
the game, what a round is). A game without one is measured with ``Benchmark()``'s defaults."""


def benchmark_of(game: Game[State]) -> Benchmark:
    """``game``'s benchmark settings, from its package's ``bench`` module (``BENCH_PART``)."""
    module = game_part(game, BENCH_PART)
    if module is None:
        return Benchmark()
    found = getattr(module, "BENCHMARK", None)
    if not isinstance(found, Benchmark):
        raise ParlourError(f"{module.__name__} defines no BENCHMARK (a parlour.engine.Benchmark)")
    return found


SEARCH_BOT: Final = "strong"
TARGET_RATIO: Final = 0.3
"""Issue 2: parlour's random playouts at least 0.3 x OpenSpiel's plies per second."""


@dataclass(frozen=True)
class Plan:
    """What to measure."""

    game: Game[State]
    options: dict[str, Any]
    depth: int
    playouts: int
    search_seconds: float
    seed: int
    openspiel: bool
    players: int | None = None
    """Players per game (``None``: the game's default)."""


@dataclass(frozen=True)
class Throughput:
    games: int
    plies: int
    seconds: float
    rounds: int = 0
    """Hands (or other rounds, ``Benchmark.rounds``) played, where the game has them."""

    @property
    def plies_per_second(self) -> float:
        return self.plies / self.seconds if self.seconds > 0 else float("inf")

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


class UsageError(Exception):
    """A bad command line: one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser() -> _Parser:
    parser = _Parser(prog="parlour bench", description="Measure how fast the rules and the search run.")
    parser.add_argument("game", help=f"the game to measure ({', '.join(sorted(GAMES))}), "
                                     "or 'server' or 'traffic' (see 'parlour bench server --help')")
    parser.add_argument("--depth", type=int, default=None, metavar="N",
                        help="perft up to depth N (default: the game's, 4 or 3; loa depth 5 takes minutes)")
    parser.add_argument("--quick", action="store_true",
                        help="a fast smoke run: perft to depth 3, few playouts, a short search")
    parser.add_argument("--playouts", type=int, metavar="N", help="random games to play (default 2000)")
    parser.add_argument("--search-time", type=float, metavar="T",
                        help=f"seconds of budget for the bot:{SEARCH_BOT} search (default 5)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="first playout seed (default 0)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rules option for parlour's side; repeatable")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    parser.add_argument("--players", type=int, metavar="P", help="players per game (default: the game's)")
    parser.add_argument("--balance", action="store_true",
                        help="instead: how fair a board is, from bots of one kind playing it (first mover's "
                             "score, its wins within its first two rolls, rolls per game); see "
                             "'parlour bench GAME --balance --help'")
    return parser


def read_plan(argv: Sequence[str]) -> Plan:
    args = build_parser().parse_args(list(argv))
    try:
        game = get_game(args.game)
        options = read_options(game, args.option)
        game.info.resolve_options(options)
        if args.players is not None:
            game.info.check_players(args.players)
    except ParlourError as error:
        raise UsageError(str(error)) from None
    depth = args.depth if args.depth is not None else benchmark_of(game).perft_depth
    depth = min(depth, 3) if args.quick else depth
    playouts = args.playouts if args.playouts is not None else 20 if args.quick else 2000
    search = args.search_time if args.search_time is not None else 0.25 if args.quick else 5.0
    if depth < 0 or playouts < 0 or not search >= 0:
        raise UsageError("--depth, --playouts and --search-time cannot be negative")
    return Plan(game, options, depth, playouts, search, args.seed, not args.no_openspiel, args.players)


def read_options(game: Game[State], texts: list[str]) -> dict[str, Any]:
    known = {option.name: option for option in game.info.options}
    options: dict[str, Any] = {}
    for text in texts:
        name, equals, value = text.partition("=")
        if not equals or name.strip() not in known:
            listed = ", ".join(known) or "none"
            raise UsageError(f"--option {text!r}: write NAME=VALUE with NAME one of {listed}")
        options[name.strip()] = known[name.strip()].parse(value.strip())
    return options


# --- the measurements ----------------------------------------------------------------------------


def parlour_playouts(
    game: Game[State], options: dict[str, Any], games: int, seed: int, players: int | None = None
) -> Throughput:
    """``games`` random games, game ``i`` from seed ``seed + i`` (the same games every run)."""
    plies = rounds = 0
    count_rounds = benchmark_of(game).rounds
    started = time.perf_counter()
    for index in range(games):
        state = game.new(players, options=options, seed=seed + index)
        plies += random_playout(state, random.Random(seed + index))
        if count_rounds is not None:
            rounds += count_rounds(state)
    return Throughput(games, plies, time.perf_counter() - started, rounds)


def openspiel_playouts(name: str, games: int, seed: int) -> Throughput | None:
    """The same loop through OpenSpiel (``None`` when it is not installed)."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    plies = 0
    started = time.perf_counter()
    for index in range(games):
        rng = random.Random(seed + index)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return Throughput(games, plies, time.perf_counter() - started)


# --- the report ----------------------------------------------------------------------------------


def report_perft(plan: Plan, say: Callable[[str], None]) -> None:
    benchmark = benchmark_of(plan.game)
    default_players = plan.players in (None, plan.game.info.default_players)
    expected = benchmark.reference_perft if not plan.options and default_players else ()
    say(f"perft from the initial position ({benchmark.perft_unit})")
    say(f"  {'depth':>5} {'count':>14} {'seconds':>9} {'nodes/s':>12}")
    state = plan.game.new(plan.players, options=plan.options, seed=plan.seed)
    for depth in range(1, plan.depth + 1):
        started = time.perf_counter()
        count = benchmark.perft(state, depth)
        seconds = time.perf_counter() - started
        rate = f"{count / seconds:12,.0f}" if seconds > 0 else f"{'-':>12}"
        check = ""
        if depth <= len(expected):
            wanted = expected[depth - 1]
            check = "  ok" if count == wanted else f"  WRONG: the spec says {wanted:,}"
        say(f"  {depth:>5} {count:>14,} {seconds:>9.3f} {rate}{check}")


def report_playouts(plan: Plan, say: Callable[[str], None]) -> None:
    name = plan.game.info.name
    benchmark = benchmark_of(plan.game)
    first, last = plan.seed, plan.seed + plan.playouts - 1
    players = plan.game.info.check_players(plan.players)
    say(f"random playouts ({plan.playouts} games of {players} players, seeds {first}-{last})")
    ours = parlour_playouts(plan.game, plan.options, plan.playouts, plan.seed, plan.players)
    say(describe("parlour", ours))
    if ours.rounds and ours.seconds > 0:
        unit = benchmark.rounds_name
        say(f"  parlour: {ours.rounds:,} {unit} = {ours.rounds / ours.seconds:,.1f} random {unit}/s "
            f"({ours.rounds / ours.games:.2f} {unit} a game)")
    if not plan.openspiel:
        return
    spiel_name = benchmark.openspiel_name
    if spiel_name is None:
        say(f"  OpenSpiel: no counterpart of {name} known")
        return
    theirs = openspiel_playouts(spiel_name, plan.playouts, plan.seed)
    if theirs is None:
        say("  OpenSpiel: not installed (optional: pip install open-spiel to compare)")
        return
    say(describe(f"OpenSpiel {spiel_name}", theirs))
    if ours.games and theirs.plies:
        ratio = ours.plies_per_second / theirs.plies_per_second
        verdict = "meets" if ratio >= TARGET_RATIO else "is below"
        say(f"  plies/s ratio parlour / OpenSpiel: {ratio:.2f} ({verdict} the target of {TARGET_RATIO})")
    say("  (the two rule sets end games differently, so plies per second is the fair unit)")


WIDEST_KEPT: Final = 5
WIDEST_PLAYOUTS: Final = 50
WIDEST_REPEATS: Final = 40


def widest_positions(plan: Plan) -> list[tuple[int, int, list[Action]]]:
    """The positions with the most legal decisions (not chance) met in the first seeded random
    playouts: (width, seed, the actions that lead there), widest first."""
    kept: list[tuple[int, int, list[Action]]] = []
    for index in range(min(plan.playouts, WIDEST_PLAYOUTS)):
        seed = plan.seed + index
        state = plan.game.new(plan.players, options=plan.options, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            actions = state.legal_actions()
            if state.to_move() != CHANCE and (len(kept) < WIDEST_KEPT or len(actions) > kept[-1][0]):
                kept = sorted([*kept, (len(actions), seed, list(state.history))], key=lambda k: -k[0])
                kept = kept[:WIDEST_KEPT]
            state.apply(state.sample_chance() if state.to_move() == CHANCE else rng.choice(actions))
    return kept


def report_widest(plan: Plan, say: Callable[[str], None]) -> None:
    """How fast the widest decisions are listed: the last action before each position is applied,
    the legal decisions listed (the rules' own cache is cold after ``apply``), and undone."""
    widest = [entry for entry in widest_positions(plan) if entry[2]]
    if not widest:
        return
    say(f"decision generation at the {len(widest)} widest positions of the random playouts "
        f"(apply the last action, list, undo; {WIDEST_REPEATS} times each)")
    listed = 0
    seconds = 0.0
    for _, seed, history in widest:
        state = plan.game.new(plan.players, options=plan.options, seed=seed)
        for action in history[:-1]:
            state.apply(action)
        last = history[-1]
        started = time.perf_counter()
        for _ in range(WIDEST_REPEATS):
            state.apply(last)
            listed += len(state.legal_actions())
            state.undo()
        seconds += time.perf_counter() - started
    widths = ", ".join(str(entry[0]) for entry in widest)
    rate = f"{listed / seconds:,.0f}" if seconds > 0 else "-"
    say(f"  widths {widths}: {listed:,} decisions in {seconds:.3f} s = {rate} decisions/s")


def describe(label: str, figures: Throughput) -> str:
    if not figures.games:
        return f"  {label}: no games played"
    return (
        f"  {label}: {figures.plies:,} plies in {figures.seconds:.2f} s = "
        f"{figures.plies_per_second:,.0f} plies/s, {figures.games_per_second:,.1f} games/s "
        f"({figures.plies / figures.games:.1f} plies a game)"
    )


def search_position(plan: Plan) -> tuple[State, int]:
    """The first position of a seeded game where a seat has a choice (chance and forced
    decisions played out), and how many actions led there."""
    state: State = plan.game.new(plan.players, options=plan.options, seed=plan.seed)
    steps = 0
    while not state.is_over():
        if state.to_move() == CHANCE:
            state.apply(state.sample_chance())
        elif len(state.legal_actions()) == 1:
            state.apply(state.legal_actions()[0])
        else:
            break
        steps += 1
    return state, steps


def report_search(plan: Plan, say: Callable[[str], None]) -> None:
    try:
        bot = make_bot(plan.game.info.name, SEARCH_BOT, plan.seed)
    except ParlourError as error:
        say(f"bot:{SEARCH_BOT} search: not measured: {error}")
        return
    root, steps = search_position(plan)
    where = "the initial position" if not steps else f"the first choice, after {steps} actions"
    say(f"bot:{SEARCH_BOT} search ({where}, {plan.search_seconds:g} s of budget)")
    if root.is_over():
        say("  not measured: the game ended before anybody had a choice")
        return
    seen = seen_by(root, root.to_move(), bot.rng)
    started = time.perf_counter()
    action = bot.choose(seen, plan.search_seconds)
    seconds = time.perf_counter() - started
    result = getattr(bot, "last", None)
    if isinstance(result, SearchResult):
        say(
            f"  search: {result.nodes:,} nodes in {result.seconds:.2f} s = "
            f"{result.nodes_per_second:,.0f} nodes/s, depth {result.depth}, "
            f"chose {root.action_to_text(action)}"
        )
    elif isinstance(result, SampleReport):
        say(f"  determinised: {result.describe()}, chose {root.action_to_text(action)}")
    else:
        say(f"  chose {root.action_to_text(action)} in {seconds:.2f} s; the bot reports no node count")


def main(argv: Sequence[str]) -> int:
    if list(argv[:1]) == ["server"]:  # not a game: the server's own benchmark
        from parlour.server.bench import main as bench_server

        return bench_server(argv[1:])
    if list(argv[:1]) == ["traffic"]:  # not a game: the bytes one seat receives from the server
        from parlour.server.traffic import main as bench_traffic

        return bench_traffic(argv[1:])
    if "--balance" in argv:  # not speed: a board's fairness (parlour.bots.balance)
        from parlour.bots.balance import main as bench_balance

        return bench_balance(list(argv))
    try:
        plan = read_plan(argv)
    except UsageError as error:
        print(f"parlour bench: {error}\nTry 'parlour bench --help'.", file=sys.stderr)
        return 2
    except SystemExit as shown:  # argparse's --help
        return int(shown.code or 0)

    def say(line: str) -> None:
        print(line, flush=True)

    say(
        f"parlour bench {plan.game.info.name}: Python {platform.python_version()} "
        f"({platform.python_implementation()}), {os.cpu_count()} CPUs, {platform.machine()}"
    )
    if plan.options:
        say(f"options: {', '.join(f'{name}={value}' for name, value in plan.options.items())}")
    if plan.depth:
        report_perft(plan, say)
    if plan.playouts:
        report_playouts(plan, say)
        report_widest(plan, say)
    if plan.search_seconds > 0:
        report_search(plan, say)
    return 0
