"""``parlour play GAME``: play any registered game in the terminal, against bots or friends.

Generic over the engine contract: the board is the game's own ``render(seat)``, moves are read
in the game's notation, seat names come from ``GameInfo``. Nothing here knows a particular game.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import shlex
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from parlour.bots import DEFAULT_BOT, bot_kinds, make_bot
from parlour.bots.levels import (
    Level,
    LevelsError,
    find_level,
    level_counts,
    levels_for,
    placements,
    rating_text,
)
from parlour.engine import (
    CHANCE,
    NOBODY,
    Action,
    Game,
    IllegalActionError,
    JSONDict,
    NotationError,
    ParlourError,
    State,
)
from parlour.engine.player import Bot, seen_by
from parlour.games import GAMES, get_game
from parlour.tui.replay import RecordError, Stepper, read_record
from parlour.tui.saves import HUMAN as HUMAN  # kept here too, for the front ends that take it from play
from parlour.tui.saves import (
    GameInProgress,
    SavedGame,
    Table,
    autosave_path,
    autosaves,
    kept_game,
    read_save,
    write_save,
)
from parlour.tui.saves import LoadError as LoadError
from parlour.tui.saves import read_json as read_json
from parlour.tui.typed import typing_for

DEFAULT_SECONDS = 1.0
EXAMPLES = 5

DESCRIPTION = """\
Play a game in the terminal against bots or other people. Each seat is a human or a bot. Unless
a seat is given to a human, you take the first seat not named on the command line; bots take
the others. A seat is named by its number (0, 1, ...) or by the game's name for it."""

EPILOG = """\
examples:
  parlour play loa                                  you play Black against the strong bot
  parlour play loa --seat 1=human                   you play White
  parlour play loa --seat 1=bot:random --time 0.5
  parlour play loa --level club                     you play Black against the club level
  parlour play loa --seat 0=human --seat 1=human    two people at one keyboard
  parlour play loa --load saved.json                resume a game saved with 'save FILE'
  parlour play --resume                             take up the game left unfinished (a game
                                                    played at a terminal is kept after each move;
                                                    moves piped in by a script keep nothing)
  parlour play --replay record.json                 step through a record: a save, or a match's
                                                    record downloaded from its page on a server
  parlour play --load record.json --at 30           a new match from ply 30 of a record
  parlour play loa --join http://HOST:8080/match/ID play a seat of a match on a parlour server"""


class UsageError(Exception):
    """A bad command line: reported in one line, exit status 2."""


class NothingToResume(Exception):
    """``--resume`` with no game kept: reported in one line, exit status 1."""


class _JoinWanted(Exception):
    """``--join``: a seat of a server's match (``parlour.tui.remote``), not a local game."""


class _ReplayWanted(Exception):
    """``--replay``: step through a record (``parlour.tui.replay``), checked arguments attached."""

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__(args.replay)
        self.arguments = args


class _HelpShown(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """argparse that reports instead of exiting, so ``main`` returns its status."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            raise UsageError(message.strip())
        raise _HelpShown(status)


def build_parser() -> _Parser:
    parser = _Parser(
        prog="parlour play",
        description=DESCRIPTION,
        epilog=EPILOG + levels_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", nargs="?", help=f"the game to play ({', '.join(listed_games())})")
    parser.add_argument("--players", type=int, metavar="N", help="number of players")
    parser.add_argument(
        "--seat", action="append", default=[], metavar="SEAT=WHO",
        help="who plays a seat: human, bot (the default bot) or bot:KIND; repeatable",
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="a rules option of the game; repeatable",
    )
    parser.add_argument("--seed", type=int, metavar="S", help="random seed (default: a fresh one)")
    parser.add_argument(
        "--time", type=float, metavar="T",
        help=f"seconds a bot may think per move (default {DEFAULT_SECONDS:g}, or the level's, or what a "
             "saved game says)",
    )
    parser.add_argument(
        "--level", metavar="NAME",
        help="every bot plays at this level (levels below): the bot and thinking time the ladder placed "
             "there; a seat given as bot:KIND keeps its KIND, and --time sets the time",
    )
    parser.add_argument(
        "--load", metavar="FILE",
        help="resume a game saved with 'save FILE': the same seats, bots and thinking time "
             "(--seat and --time change them)",
    )
    parser.add_argument(
        "--resume", action="store_true",
        help="take up the game in progress that was left unfinished (with GAME: that game's); "
             "a game is kept in the user's data directory only when played at a terminal",
    )
    parser.add_argument(
        "--replay", metavar="FILE",
        help="step through a match record (a save, or a finished match's record from a server): "
             "Enter for the next ply, b back, a number to jump, play to play on from there",
    )
    parser.add_argument(
        "--at", type=int, metavar="N",
        help="with --load: a new match from the position after ply N of the record (0: the start; "
             "the file is not changed); with --replay: start at ply N",
    )
    parser.add_argument(
        "--join", metavar="URL",
        help="play a seat of a match on a parlour server (the match page's address); "
             "with --seat N, that seat, else the first free one",
    )
    parser.add_argument(
        "--text", action="store_true",
        help="keep the line interface (for scripts and pipes); without it, in a terminal, a game "
             "that has a board opens it",
    )
    return parser


def levels_epilog() -> str:
    """The levels of every game that has them, for the help text."""
    lines = []
    for game in sorted(placements()):
        for players in level_counts(game):
            for level in levels_for(game, players):
                budget = "" if level.seconds is None else f" {level.seconds:g} s"
                lines.append(f"  {game} ({players} players) {level.name:<9} {level.kind}{budget}, "
                             f"rated {rating_text(level.rating)}")
    if not lines:
        return ""
    return ("\n\nlevels (--level NAME; placed by 'parlour ladder GAME --levels', rated on the Elo scale, "
            "random = 0):\n" + "\n".join(lines))


def listed_games() -> list[str]:
    """The games offered by name in help texts (an unlisted example is still played by name)."""
    return sorted(name for name, game in GAMES.items() if game.info.listed)


@dataclass
class Settings:
    """The command line, checked: what to play and who plays it."""

    game: Game[State]
    state: State
    seats: list[str]
    """``HUMAN`` or a bot kind, per seat."""
    seed: int
    seconds: float
    loaded_from: str | None = None
    at: int | None = None
    """With ``--at``: the ply of the record the new match starts from."""
    text: bool = False
    """``--text``: the line interface even in a terminal (a board opens only when this is false and
    stdin and stdout are terminals)."""
    clocks: tuple[float, ...] | None = None
    """Seconds left on each seat's clock, for a session that keeps clocks (a save keeps them)."""
    resumed: bool = False
    """``--resume``: the game comes from the kept game in progress, saved in no file of the player's."""
    level: Level | None = None
    """``--level``: the level the bots play at (said when the game starts)."""

    def table(self) -> Table:
        """What a save keeps beside the record: the seats, the thinking time, the clocks."""
        return Table(tuple(self.seats), self.seconds, self.clocks)


# --- the command line ----------------------------------------------------------------------------


def read_settings(argv: Sequence[str]) -> Settings:
    """Parses and checks the arguments; ``UsageError`` (exit 2) or ``LoadError`` (exit 1)."""
    args = build_parser().parse_args(list(argv))
    if args.join is not None:
        if args.level is not None:
            raise UsageError("--level chooses the bots of a game played here; a server match's bots are "
                             "chosen when it is created (in the lobby)")
        raise _JoinWanted()
    check_time(args.time)
    check_record_arguments(args)
    if args.replay is not None:
        raise _ReplayWanted(args)
    if args.resume:
        args.load = resumed_file(args)
    if args.load is not None and (args.players is not None or args.option):
        raise UsageError("--players and --option cannot be used with --load (the saved game fixes them)")
    if args.load is None and args.game is None:
        raise UsageError(f"name the game to play (games: {', '.join(listed_games())}){resume_hint()}")
    game = find_game(args.game) if args.game is not None else None
    seed = fresh_seed(args.seed)
    if args.load is not None:
        if args.at is not None:
            saved = load_at(args.load, game, args.at, seed)
            bot_seed = seed
        else:
            saved = read_save(args.load, game)
            bot_seed = args.seed if args.seed is not None else saved.state.seed
        level = chosen_level(saved.state, args.level)
        return settings_from_save(saved, args.load, args.seat, args.time, bot_seed, at=args.at,
                                  text=args.text, resumed=args.resume, level=level)
    assert game is not None
    try:
        state = game.new(args.players, read_options(game, args.option), seed)
    except ParlourError as error:
        raise UsageError(str(error)) from None
    level = chosen_level(state, args.level)
    seats = read_seats(game, state.seat_names(), args.seat, None if level is None else level.kind)
    seconds = level_seconds(args.time, level, DEFAULT_SECONDS)
    return Settings(game, state, seats, seed, seconds, text=args.text, level=level)


def chosen_level(state: State, name: str | None) -> Level | None:
    """``--level NAME`` for this game and its number of players; ``UsageError`` naming the levels
    there are, or the bots when the game has no levels."""
    if name is None:
        return None
    game, players = state.game.info.name, len(state.seat_names())
    try:
        return find_level(game, players, name)
    except LevelsError as error:
        if levels_for(game, players):
            raise UsageError(str(error)) from None
        kinds = ", ".join(bot_kinds(game))
        raise UsageError(f"{error}; choose its bots by kind instead: --seat N=bot:KIND ({kinds})") from None


def level_seconds(given: float | None, level: Level | None, otherwise: float) -> float:
    """The bots' time a move: ``--time`` first, then the level's (a level of a bot that plays alike
    whatever its time has none), then ``otherwise``."""
    if given is not None:
        return given
    if level is not None and level.seconds is not None:
        return level.seconds
    return otherwise


def resume_hint() -> str:
    """``; or take up the loa game in progress: …`` when a game is kept, else nothing."""
    kept = [kept_game(path) for path in autosaves()]
    if not kept:
        return ""
    return f"; or take up the {' or '.join(kept)} game in progress: parlour play --resume"


def settings_from_save(
    saved: SavedGame, path: str, seat_texts: list[str], seconds: float | None, seed: int,
    at: int | None = None, text: bool = False, resumed: bool = False, level: Level | None = None,
) -> Settings:
    """The settings of a saved game: the seats, thinking time and clocks it keeps, changed by what
    the command line gives (``seat_texts``: ``--seat`` values; ``seconds``: ``--time``, or ``None``;
    ``level``: ``--level``, which every bot seat not given by ``--seat`` takes, with its time).
    A save without a table gets today's defaults. ``UsageError`` for a bad ``--seat``; ``LoadError``
    when a seat's saved bot is one this parlour does not have and no ``--seat`` replaces it."""
    state = saved.state
    game = state.game
    table = saved.table
    bot = None if level is None else level.kind
    if table is None:
        seats = read_seats(game, state.seat_names(), seat_texts, bot)
        chosen = level_seconds(seconds, level, DEFAULT_SECONDS)
        return Settings(game, state, seats, seed, chosen, path, at, text, None, resumed, level)
    given = read_given_seats(game, state.seat_names(), seat_texts, bot)
    kinds = list(bot_kinds(game.info.name))
    seats = []
    for seat, who in enumerate(table.seats):
        if seat in given:
            seats.append(given[seat])
        elif who != HUMAN and bot is not None:
            seats.append(bot)
        elif who == HUMAN or who in kinds:
            seats.append(who)
        else:
            raise LoadError(path, f"seat {seat} ({state.seat_names()[seat]}) was played by bot:{who}, which "
                                  f"this parlour does not have (bots: {', '.join(kinds)}); give the seat "
                                  f"to another with --seat {seat}=WHO")
    chosen = level_seconds(seconds, level, table.seconds)
    return Settings(game, state, seats, seed, chosen, path, at, text, table.clocks, resumed, level)


def check_time(seconds: float | None) -> None:
    if seconds is not None and (not math.isfinite(seconds) or seconds <= 0):
        raise UsageError(f"--time must be a positive number of seconds, not {seconds:g}")


def resumed_file(args: argparse.Namespace) -> str:
    """``--resume [GAME]``: the kept game in progress to load. ``LoadError`` when there is none;
    ``UsageError`` when several games are kept and none is named."""
    if args.load is not None or args.at is not None or args.players is not None or args.option:
        raise UsageError("--resume takes up a kept game as it was: no --load, --at, --players or --option")
    names = None if args.game is None else [find_game(args.game).info.name]
    kept = autosaves(names)
    if not kept:
        which = "" if args.game is None else f" of {args.game}"
        where = autosave_path(args.game or "GAME").parent
        raise NothingToResume(f"there is no game{which} in progress to resume "
                              f"(games left unfinished are kept in {where})")
    if len(kept) > 1:
        listed = ", ".join(kept_game(path) for path in kept)
        raise UsageError(f"games in progress: {listed}; name the one to resume, e.g. parlour play "
                         f"{kept_game(kept[0])} --resume")
    return str(kept[0])


def check_record_arguments(args: argparse.Namespace) -> None:
    """``--replay`` and ``--at`` go with the arguments they make sense with."""
    if args.replay is not None:
        if args.resume:
            raise UsageError("--replay and --resume cannot be used together (--resume takes up the game "
                             "in progress; --replay steps through a record)")
        if args.load is not None:
            raise UsageError("--replay and --load cannot be used together (type play in the replay "
                             "to play on from a position)")
        if args.players is not None or args.option:
            raise UsageError("--players and --option cannot be used with --replay (the record fixes them)")
    if args.at is not None:
        if args.load is None and args.replay is None:
            raise UsageError("--at N goes with --load FILE or --replay FILE (the record to start from)")
        if args.at < 0:
            raise UsageError(f"--at counts plies from 0 (the start), not {args.at}")


def fresh_seed(given: int | None) -> int:
    """``--seed`` if given, else a new one (a record's own seed may be 0, the same for everyone)."""
    return given if given is not None else random.SystemRandom().randrange(1 << 31)


def find_game(name: str) -> Game[State]:
    try:
        return get_game(name)
    except ParlourError as error:
        raise UsageError(str(error)) from None


def read_options(game: Game[State], texts: list[str]) -> dict[str, Any]:
    """``--option name=value`` pairs, each value read by the option's own type."""
    known = {option.name: option for option in game.info.options}
    options: dict[str, Any] = {}
    for text in texts:
        name, equals, value = text.partition("=")
        name = name.strip()
        if not equals or not name:
            raise UsageError(f"--option {text!r}: write NAME=VALUE")
        if name not in known:
            listed = ", ".join(known) or "none"
            raise UsageError(f"{game.info.name} has no option {name!r} (options: {listed})")
        try:
            options[name] = known[name].parse(value.strip())
        except ParlourError as error:
            raise UsageError(str(error)) from None
    return options


def read_seats(
    game: Game[State], names: Sequence[str], texts: list[str], bot: str | None = None,
) -> list[str]:
    """Who plays each seat (``names``: the match's seat names, ``State.seat_names``). Seats not
    given: the first is the human's unless a human was named, the rest are ``bot`` (a level's kind),
    else the default bot."""
    kinds = list(bot_kinds(game.info.name))
    given = read_given_seats(game, names, texts, bot)
    seats: list[str] = []
    human_wanted = HUMAN not in given.values()
    for seat in range(len(names)):
        if seat in given:
            seats.append(given[seat])
        elif human_wanted:
            seats.append(HUMAN)
            human_wanted = False
        else:
            seats.append(bot or default_bot(game, kinds))
    return seats


def read_given_seats(
    game: Game[State], names: Sequence[str], texts: list[str], bot: str | None = None,
) -> dict[int, str]:
    """The ``--seat SEAT=WHO`` values: seat number → ``HUMAN`` or a bot kind (``bot``, a level's
    kind, for a plain ``bot``)."""
    kinds = list(bot_kinds(game.info.name))
    given: dict[int, str] = {}
    for text in texts:
        seat_text, equals, who = text.partition("=")
        if not equals:
            raise UsageError(f"--seat {text!r}: write SEAT=WHO, e.g. --seat 1=bot:{DEFAULT_BOT}")
        seat = read_seat_number(names, seat_text.strip())
        if seat in given:
            raise UsageError(f"seat {seat} ({names[seat]}) is given twice")
        given[seat] = read_player(game, who.strip().lower(), kinds, bot)
    return given


def default_bot(game: Game[State], kinds: list[str]) -> str:
    """``DEFAULT_BOT`` where the game has it, else the last (strongest) kind it has."""
    if DEFAULT_BOT in kinds:
        return DEFAULT_BOT
    if kinds:
        return kinds[-1]
    raise UsageError(f"no bot plays {game.info.title}: give every seat to a human (--seat N=human)")


def read_seat_number(names: Sequence[str], text: str) -> int:
    """A seat by number (``1``) or by its name in ``names`` (``white``, any case)."""
    players = len(names)
    lowered = [name.lower() for name in names]
    if text.lower() in lowered:
        return lowered.index(text.lower())
    try:
        number = int(text)
    except ValueError:
        number = -1
    if not 0 <= number < players:
        listed = ", ".join(f"{seat} ({name})" for seat, name in enumerate(names))
        raise UsageError(f"no seat {text!r} in this game (seats: {listed})")
    return number


def read_player(game: Game[State], who: str, kinds: list[str], bot: str | None = None) -> str:
    """``human``, ``bot`` (``bot``, a level's kind, else the default bot) or ``bot:KIND``."""
    if who == HUMAN:
        return HUMAN
    if who == "bot":
        return bot or default_bot(game, kinds)
    kind = who.removeprefix("bot:")
    if who.startswith("bot:") and kind in kinds:
        return kind
    raise UsageError(f"a seat is human, bot or bot:KIND with KIND one of {', '.join(kinds)}; not {who!r}")


# --- saving and loading (the file's form: parlour.tui.saves) -----------------------------------


def load_at(path: str, game: Game[State] | None, ply: int, seed: int) -> SavedGame:
    """A new match from the position after ``ply`` actions of the record in ``path``, with ``seed``
    for chance from there, and the record's table if it is a save; the file is only read.
    ``LoadError`` with the reason."""
    try:
        replay = read_record(path, game, read_json)
    except RecordError as error:
        raise LoadError(path, str(error)) from None
    if ply > replay.plies:
        raise LoadError(path, f"it has {replay.plies} plies, so --at takes 0 to {replay.plies}, not {ply}")
    state = replay.continued_at(ply, seed)
    if state.is_over():
        raise LoadError(path, f"the game is over at ply {ply}: choose an earlier ply to play on from")
    return SavedGame(state, table_of(path, replay.data, state.players))


def table_of(path: str, data: dict[str, Any], players: int) -> Table | None:
    """The table kept beside a record, if it is a save that keeps one; ``LoadError`` if it is damaged."""
    if "table" not in data:
        return None
    try:
        return Table.from_json(data["table"], players)
    except ParlourError as error:
        raise LoadError(path, str(error)) from None


# --- the game loop ---------------------------------------------------------------------------------


def describe_outcome(names: Sequence[str], outcome: JSONDict) -> str:
    """``Result: Black wins (all its pieces joined in one group)``, with scores if any, from a
    view's outcome (``State.outcome_json``: the game's own words for the reason); ``names``: the
    match's seat names."""
    winner = outcome["winner"]
    head = "draw" if winner is None else f"{names[winner]} wins"
    line = f"Result: {head} ({outcome['words']})"
    if outcome["scores"]:
        scores = ", ".join(f"{names[s]} {score:g}" for s, score in enumerate(outcome["scores"]))
        line += f"; scores: {scores}"
    return line


class Session:
    """One game at the terminal: bots move by themselves, humans type at the prompt."""

    COMMANDS = ("help", "moves", "board", "undo", "save", "quit", "exit")

    def __init__(
        self,
        settings: Settings,
        ask: Callable[[str], str],
        say: Callable[[str], None],
        complain: Callable[[str], None],
        keep: bool = False,
    ) -> None:
        """``keep``: write the game in progress to the user's data directory after every move, for
        ``parlour play --resume`` (removed when the game ends or the player lets it go)."""
        self.game = settings.game
        self.info = settings.game.info
        self.state = settings.state
        self.seats = settings.seats
        self.seconds = settings.seconds
        self.clocks = settings.clocks
        self.level = settings.level
        self.in_progress = GameInProgress(self.state, keep, settings.resumed)
        """The moves not saved yet, and the game kept for --resume (only once it is this session's)."""
        self.save_path = settings.loaded_from if settings.at is None and not settings.resumed else None
        """The file this game was last saved to or loaded from, offered when quitting asks."""
        self.ask = ask
        self.say = say
        self.complain = complain
        self.humans = [seat for seat, who in enumerate(self.seats) if who == HUMAN]
        self.bots: dict[int, Bot] = {
            seat: make_bot(self.info.name, who, bot_seed(settings.seed, seat))
            for seat, who in enumerate(self.seats)
            if who != HUMAN
        }
        self.board_shown = False
        self.last_mover: int | None = None
        """The seat whose decision was the last action (``None`` after chance)."""

    # --- the loop ---

    def run(self) -> int:
        replacing = self.in_progress.replaced()
        if replacing:
            self.say(replacing)
        self.say(self.introduction())
        while True:
            try:
                done = self.step()
            except KeyboardInterrupt:  # Ctrl-C at the prompt or while a bot thinks: asked, not fatal
                self.say("")
                done = self.leave(interrupted=True)
            if done is not None:
                return done

    def step(self) -> int | None:
        """One move of whoever is to move; an exit status ends the session."""
        mover = self.state.to_move()
        if mover == NOBODY:
            self.finish()
            return 0
        if mover == CHANCE:
            self.resolve_chance()
        elif mover in self.bots:
            return None if self.bot_moves(mover) else 1
        else:
            return self.human_turn(mover)
        return None

    def introduction(self) -> str:
        names = []
        for seat, who in enumerate(self.seats):
            label = ("you" if len(self.humans) == 1 else "human") if who == HUMAN else f"bot:{who}"
            names.append(f"{self.state.seat_names()[seat]}: {label}")
        text = f"{self.info.title}. {', '.join(names)}."
        if self.level is not None:
            text += f" Level {self.level.described}."
        if self.bots:
            text += f" Bots think {self.seconds:g} s a move."
        if self.humans:
            text += " Type 'help' for commands."
        return text

    def finish(self) -> None:
        outcome = self.state.outcome_json()
        self.say("")
        self.say(self.state.render(self.viewer()))
        if outcome is None:  # the contract says NOBODY comes with an outcome
            self.say("Result: the game is over")
        else:
            self.say(describe_outcome(self.state.seat_names(), outcome))
        self.forget()

    def viewer(self) -> int | None:
        """Whose eyes the board is drawn for when nobody is to type: the human's, else a spectator's."""
        return self.humans[0] if len(self.humans) == 1 else None

    def resolve_chance(self) -> None:
        action = self.state.sample_chance()
        # In a hidden-information game a chance outcome (a card drawn) may be private: it is said
        # only to the person who caused it (their draw), when nobody else sees it.
        if not self.info.hidden_information:
            self.say(f"Chance: {self.state.action_to_text(action)}")
        elif self.last_mover is not None and self.last_mover == self.viewer():
            seen = self.state.action_text_for(action, self.last_mover)
            if seen != self.state.action_text_for(action, None):
                self.say(f"You get: {seen}")
        self.last_mover = None
        self.state.apply(action)
        self.moved(decided=False)

    def bot_moves(self, seat: int) -> bool:
        bot = self.bots[seat]
        action = bot.choose(seen_by(self.state, seat, bot.rng), self.seconds)
        if not self.state.is_legal(action):
            self.complain(
                f"parlour play: bot:{self.seats[seat]} in seat {seat} chose an illegal action "
                f"({action!r}); this is a bug in the bot"
            )
            return False
        text = self.state.action_to_text(action)
        self.state.apply(action)
        self.say(f"{self.state.seat_names()[seat]} plays {text}")
        self.last_mover = seat
        self.moved()
        if not self.humans and not self.state.is_over():
            self.say(self.state.render(None))
        return True

    def human_turn(self, seat: int) -> int | None:
        """Reads lines until one changes the game; an exit status ends the session."""
        name = self.state.seat_names()[seat]
        legal = self.state.legal_actions()
        if len(legal) == 1:  # the rules leave no choice (Mille's draw, a pass): no question to ask
            return self.play_forced(seat, legal[0])
        if not self.board_shown:
            self.say("")
            self.say(self.state.render(seat))
            self.board_shown = True
        try:
            line = self.ask(f"{name} to move> ")
        except EOFError:  # Ctrl-D, or the end of a script's input
            self.say("")
            return self.leave()
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        if word.lower() in self.COMMANDS:
            return self.command(word.lower(), rest.strip(), seat)
        typed = self.read_typed(text, seat)
        return None if typed is None else self.play_written(seat, *typed)

    def read_typed(self, text: str, seat: int) -> tuple[Action, str] | None:
        """The legal action ``seat``'s person typed, and the text it was written as in the notation;
        ``None`` once why not is said, in the engine's words (``State.refusal``). A network session
        reads its moves here too (``RemoteSession.read_move``)."""
        try:
            written = self.notation(text, seat)
            action = self.state.parse_action(written)
            if not self.state.is_legal(action):  # the gate: a notation may read more than the rules allow
                raise self.state.refusal(action, written)
        except NotationError as error:
            self.say(f"Cannot read that as a move: {error}. Type 'help' to see how moves are written.")
            return None
        except IllegalActionError as error:
            self.say(f"That move is not allowed: {error}. Type 'moves' for the legal moves.")
            return None
        return action, written

    def notation(self, text: str, seat: int) -> str:
        """What ``seat``'s person typed, in the game's notation: a game whose text board numbers
        things its notation does not (Mille's hand: ``discard 1``) reads the numbers against the
        board that person sees (``parlour.tui.typed``); any other text is left to the notation."""
        reading = typing_for(self.game)
        return text if reading is None else reading.written(text, self.state.view(seat))

    def play_written(self, seat: int, action: Action, written: str) -> int | None:
        """Plays a human's typed move as written (``State.play_text``; a network session sends its
        moves to the server instead, ``RemoteSession.play_move``): the notation may say more
        than the legal action does, and what it says is kept (MIL-64's slot hint: which copy of a
        card leaves the hand, ``discard 25 @4``, where the action says only ``discard 25``)."""
        self.played(seat, action, "", written)
        return None

    def play_forced(self, seat: int, action: Action) -> int | None:
        """Plays a human's only legal action without asking (Mille's draw, a forced pass)."""
        self.played(seat, action, " (the only legal move)")
        return None

    def played(self, seat: int, action: Action, note: str, written: str | None = None) -> None:
        """Plays ``action`` (``written``: the text it was typed as, played as written) and says so."""
        move_text = self.state.action_to_text(action)
        if written is None:
            self.state.apply(action)
        else:
            self.state.play_text(written)
        self.say(f"{self.state.seat_names()[seat]} plays {move_text}{note}")
        self.last_mover = seat
        self.moved()

    # --- keeping the game: the save file, the game in progress, leaving ---

    def table(self) -> Table:
        return Table(tuple(self.seats), self.seconds, self.clocks)

    def moved(self, decided: bool = True) -> None:
        """After every move (and take-back; ``decided`` false: chance): the board is drawn anew, and
        the game in progress is kept for ``--resume`` (a failure to keep it is said once; play goes on)."""
        self.board_shown = False
        if decided:
            self.in_progress.decided()
        trouble = self.in_progress.keep(self.table())
        if trouble:
            self.say(f"(The game in progress cannot be kept for --resume: {trouble}. "
                     "Use save FILE to keep it.)")

    def forget(self) -> None:
        """The game ended or was let go of: nothing left to resume (if the kept game is this one)."""
        self.in_progress.forget()

    def unsaved(self) -> int:
        """How many moves leaving now would lose (made since the last save, or taken back since)."""
        return self.in_progress.unsaved()

    def leave(self, interrupted: bool = False) -> int | None:
        """``quit``, Ctrl-C or Ctrl-D: with moves not saved, asks whether to save them first
        (y, n, or c to play on; Ctrl-D or Ctrl-C at the question leaves at once, the game kept for
        ``--resume``). An exit status, or ``None`` to play on."""
        lost = self.unsaved()
        if not lost:
            self.forget()
            self.say("Game left unfinished.")
            return 0
        while True:
            try:
                answer = self.ask(f"Save the game before leaving ({lost} {plural(lost, 'move')} not saved)? "
                                  "y(es), n(o) or c(ancel): ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                self.say("")
                self.say(self.left_kept())
                return 130 if interrupted else 0
            if answer in ("y", "yes"):
                if self.save_when_leaving():
                    return 0
            elif answer in ("n", "no"):
                self.forget()
                self.say("Game left unfinished, not saved.")
                return 0
            elif answer in ("c", "cancel"):
                self.say("Back to the game.")
                self.board_shown = False
                return None
            else:
                self.say("Answer y to save the game, n to leave without saving, c to go back to it.")

    def left_kept(self) -> str:
        if self.in_progress.is_kept():
            return "Game left unfinished; it is kept: parlour play --resume takes it up again."
        return "Game left unfinished."

    def save_when_leaving(self) -> bool:
        """Asks for a file (the last one used is offered) and saves; ``False``: not saved."""
        offered = f" [{self.save_path}]" if self.save_path else ""
        try:
            path = self.ask(f"Save to file{offered}: ").strip() or (self.save_path or "")
        except (EOFError, KeyboardInterrupt):
            self.say("")
            return False
        if not path:
            self.say("No file named: the game is not saved.")
            return False
        if not self.save(path):
            return False
        self.forget()
        return True

    # --- commands ---

    def command(self, word: str, argument: str, seat: int) -> int | None:
        if word == "help":
            self.say(self.help_text())
        elif word == "moves":
            self.say(self.moves_text())
        elif word == "board":
            self.say(self.state.render(seat))
        elif word == "undo":
            self.take_back()
        elif word == "save":
            self.save(argument)
        else:
            return self.leave()
        return None

    def help_text(self) -> str:
        undo = (
            "  undo        take back your last move and the replies to it"
            if self.info.can_undo
            else f"  undo        (not available: {self.info.title} does not allow taking moves back)"
        )
        lines = [
            "Commands:",
            "  help        this text",
            "  moves       list every legal move",
            "  board       show the board again",
            undo,
            f"  save FILE   save the game; resume with: parlour play {self.info.name} --load FILE",
            "  quit        leave the game (asks whether to save moves not saved yet)",
            f"Anything else is read as a move in {self.info.title} notation, for example:",
            "  " + "   ".join(self.examples()),
        ]
        reading = typing_for(self.game)
        if reading is not None:
            lines.append(reading.help)
        return "\n".join(lines)

    def examples(self) -> list[str]:
        texts = self.legal_texts()
        if len(texts) <= EXAMPLES:
            return texts
        step = len(texts) / EXAMPLES
        return [texts[int(index * step)] for index in range(EXAMPLES)]

    def legal_texts(self) -> list[str]:
        return [self.state.action_to_text(action) for action in self.state.legal_actions()]

    def moves_text(self) -> str:
        texts = self.legal_texts()
        header = f"Legal moves ({len(texts)}):"
        if any(" " in text for text in texts):
            return "\n".join([header, *(f"  {text}" for text in texts)])
        body = textwrap.fill(", ".join(texts), width=78, initial_indent="  ", subsequent_indent="  ",
                             break_on_hyphens=False)
        return f"{header}\n{body}"

    def take_back(self) -> None:
        """Undoes back to before the last human decision (so the bots' replies go too)."""
        if not self.info.can_undo:
            self.say(f"Undo is not available: {self.info.title} does not allow taking moves back.")
            return
        count = take_back_count(self.state, self.humans)
        if not count:
            self.say("Nothing to undo: no move has been made by a human yet.")
            return
        for _ in range(count):
            self.state.undo()
        self.say(f"Took back {count} {plural(count, 'move')}.")
        self.moved()

    def save(self, path: str) -> bool:
        """``save FILE``: the record and the table (seats, bots, thinking time) to ``path``."""
        if not path:
            self.say("Save needs a file name: save FILE")
            return False
        try:
            write_save(path, self.state, self.table())
        except OSError as error:
            reason = error.strerror or str(error)
            self.say(f"Could not save to {path}: {reason} (any earlier file there is unchanged).")
            return False
        self.in_progress.saved()
        self.save_path = path
        self.say(f"Saved to {path}. Resume with: {shlex.join(['parlour', 'play', '--load', path])}")
        return True


def plural(count: int, word: str) -> str:
    return word if count == 1 else f"{word}s"


def take_back_count(state: State, humans: Sequence[int]) -> int:
    """The actions to undo to go back to before a person's last decision (the bots' replies after
    it go too); 0 when no person has decided yet."""
    probe = state.copy()
    count = 0
    while probe.history:
        probe.undo()
        count += 1
        if probe.to_move() in humans:
            return count
    return 0


def bot_seed(seed: int, seat: int) -> int:
    """Each bot its own reproducible stream, derived from the match seed and its seat."""
    return random.Random(f"{seed}/bot/{seat}").getrandbits(63)


def main(argv: Sequence[str]) -> int:
    try:
        settings = read_settings(argv)
    except _JoinWanted:
        from parlour.tui.remote import main as join_main

        return join_main(argv)
    except _ReplayWanted as wanted:
        return replay_main(wanted.arguments)
    except _HelpShown as shown:  # argparse has printed the help
        return shown.status
    except UsageError as error:
        print(f"parlour play: {error}\nTry 'parlour play --help'.", file=sys.stderr)
        return 2
    except (LoadError, NothingToResume) as error:
        print(f"parlour play: {error}", file=sys.stderr)
        return 1
    if settings.at is not None:
        print(playing_on(settings.loaded_from, settings.at))
    elif settings.resumed:
        print(f"Resuming the {settings.game.info.title} game in progress ({moves_made(settings.state)}).")
    elif settings.loaded_from is not None:
        print(f"Resuming {settings.loaded_from} ({moves_made(settings.state)}).")
    line_editing()
    return run_session(settings)


def moves_made(state: State) -> str:
    made = len(state.history)
    return f"{made} {plural(made, 'move')} made"


def run_session(settings: Settings) -> int:
    if not settings.text and sys.stdin.isatty() and sys.stdout.isatty():
        from parlour.tui.board import run_board  # the Textual board (issue 18); None: the game has none

        status = run_board(settings)
        if status is not None:
            return status
    session = Session(settings, ask=_ask, say=print, complain=_complain, keep=person_at_terminal())
    try:
        return session.run()
    except KeyboardInterrupt:  # a second Ctrl-C while the first one's question is being drawn
        print("\nInterrupted: the game is left unfinished.")
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): nobody left to tell; the game is kept
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def person_at_terminal() -> bool:
    """A person types the moves (standard input is a terminal): only then is the game in progress
    kept in the user's data directory for ``--resume``. A script piping moves in leaves no file
    behind, and no game of the person's is replaced by its own."""
    return sys.stdin.isatty()


def playing_on(path: str | None, ply: int) -> str:
    return f"A new match from ply {ply} of {path} (the file is not changed)."


def replay_main(args: argparse.Namespace) -> int:
    """``--replay FILE``: steps through the record; ``play`` there goes on as a new local match."""
    try:
        game = find_game(args.game) if args.game is not None else None
        replay = read_record(args.replay, game, read_json)
        game = replay.game
        start = replay.state_at(0)
        level = chosen_level(start, args.level)
        seats = read_seats(game, start.seat_names(), args.seat, None if level is None else level.kind)
        if args.at is not None and args.at > replay.plies:
            raise UsageError(f"--at {args.at}: the record has {replay.plies} plies (0 is the start)")
    except UsageError as error:
        print(f"parlour play: {error}\nTry 'parlour play --help'.", file=sys.stderr)
        return 2
    except RecordError as error:
        print(f"parlour play: cannot replay {args.replay}: {error}", file=sys.stderr)
        return 1
    line_editing()
    stepper = Stepper(replay, ask=_ask, say=print, describe_outcome=describe_outcome, ply=args.at or 0)
    try:
        status = stepper.run()
    except KeyboardInterrupt:
        print("\nInterrupted.")
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): nobody left to tell
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    if status is not None:
        return status
    seed = fresh_seed(args.seed)
    state = replay.continued_at(stepper.ply, seed)
    print(playing_on(args.replay, stepper.ply))
    table = table_of(args.replay, replay.data, state.players)
    chosen = level_seconds(args.time, level, DEFAULT_SECONDS if table is None else table.seconds)
    return run_session(Settings(game, state, seats, seed, chosen, args.replay, stepper.ply, args.text,
                                level=level))


def line_editing() -> None:
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())


def _ask(prompt: str) -> str:
    return input(prompt)


def _complain(text: str) -> None:
    print(text, file=sys.stderr)
