"""``parlour play GAME``: play any registered game in the terminal, against bots or friends.

Generic over the engine contract: the board is the game's own ``render(seat)``, moves are read
in the game's notation, seat names come from ``GameInfo``. Nothing here knows a particular game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import shlex
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from parlour.bots import DEFAULT_BOT, bot_kinds, make_bot
from parlour.engine import (
    CHANCE,
    NOBODY,
    Action,
    FormatError,
    Game,
    IllegalActionError,
    JSONDict,
    MatchRecord,
    NotationError,
    ParlourError,
    State,
)
from parlour.engine.player import Bot, seen_by
from parlour.games import GAMES, get_game
from parlour.tui.files import write_atomically
from parlour.tui.replay import RecordError, Stepper, read_record

HUMAN = "human"
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
  parlour play loa --seat 0=human --seat 1=human    two people at one keyboard
  parlour play loa --load saved.json                resume a game saved with 'save FILE'
  parlour play --replay record.json                 step through a record: a save, or a match's
                                                    record downloaded from its page on a server
  parlour play --load record.json --at 30           a new match from ply 30 of a record
  parlour play loa --join http://HOST:8080/match/ID play a seat of a match on a parlour server"""


class UsageError(Exception):
    """A bad command line: reported in one line, exit status 2."""


class LoadError(Exception):
    """A saved game that cannot be resumed: reported in one line, exit status 1."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot load {path}: {reason}")
        self.path = path
        self.reason = reason


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
        epilog=EPILOG,
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
        "--time", type=float, default=DEFAULT_SECONDS, metavar="T",
        help=f"seconds a bot may think per move (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument("--load", metavar="FILE", help="resume a game saved with 'save FILE'")
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
        help="keep the line interface (for scripts and pipes); today it is the only one, so this "
             "changes nothing yet",
    )
    return parser


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


# --- the command line ----------------------------------------------------------------------------


def read_settings(argv: Sequence[str]) -> Settings:
    """Parses and checks the arguments; ``UsageError`` (exit 2) or ``LoadError`` (exit 1)."""
    args = build_parser().parse_args(list(argv))
    if args.join is not None:
        raise _JoinWanted()
    check_time(args.time)
    check_record_arguments(args)
    if args.replay is not None:
        raise _ReplayWanted(args)
    if args.load is not None and (args.players is not None or args.option):
        raise UsageError("--players and --option cannot be used with --load (the saved game fixes them)")
    if args.load is None and args.game is None:
        raise UsageError(f"name the game to play (games: {', '.join(listed_games())})")
    game = find_game(args.game) if args.game is not None else None
    seed = fresh_seed(args.seed)
    if args.load is not None and args.at is not None:
        state = load_at(args.load, game, args.at, seed)
        game = state.game
        bot_seed = seed
    elif args.load is not None:
        state = load_game(args.load, game)
        game = state.game
        bot_seed = args.seed if args.seed is not None else state.seed
    else:
        assert game is not None
        try:
            state = game.new(args.players, read_options(game, args.option), seed)
        except ParlourError as error:
            raise UsageError(str(error)) from None
        bot_seed = seed
    seats = read_seats(game, state.seat_names(), args.seat)
    return Settings(game, state, seats, bot_seed, args.time, args.load, args.at, args.text)


def check_time(seconds: float) -> None:
    if not math.isfinite(seconds) or seconds <= 0:
        raise UsageError(f"--time must be a positive number of seconds, not {seconds:g}")


def check_record_arguments(args: argparse.Namespace) -> None:
    """``--replay`` and ``--at`` go with the arguments they make sense with."""
    if args.replay is not None:
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


def read_seats(game: Game[State], names: Sequence[str], texts: list[str]) -> list[str]:
    """Who plays each seat (``names``: the match's seat names, ``State.seat_names``). Seats not
    given: the first is the human's unless a human was named, the rest are the default bot."""
    kinds = list(bot_kinds(game.info.name))
    given: dict[int, str] = {}
    for text in texts:
        seat_text, equals, who = text.partition("=")
        if not equals:
            raise UsageError(f"--seat {text!r}: write SEAT=WHO, e.g. --seat 1=bot:{DEFAULT_BOT}")
        seat = read_seat_number(names, seat_text.strip())
        if seat in given:
            raise UsageError(f"seat {seat} ({names[seat]}) is given twice")
        given[seat] = read_player(game, who.strip().lower(), kinds)
    seats: list[str] = []
    human_wanted = HUMAN not in given.values()
    for seat in range(len(names)):
        if seat in given:
            seats.append(given[seat])
        elif human_wanted:
            seats.append(HUMAN)
            human_wanted = False
        else:
            seats.append(default_bot(game, kinds))
    return seats


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


def read_player(game: Game[State], who: str, kinds: list[str]) -> str:
    """``human``, ``bot`` (the default bot) or ``bot:KIND``."""
    if who == HUMAN:
        return HUMAN
    if who == "bot":
        return default_bot(game, kinds)
    kind = who.removeprefix("bot:")
    if who.startswith("bot:") and kind in kinds:
        return kind
    raise UsageError(f"a seat is human, bot or bot:KIND with KIND one of {', '.join(kinds)}; not {who!r}")


# --- saving and loading ----------------------------------------------------------------------------


def save_game(state: State, path: str) -> None:
    """Writes ``state.to_json()`` to ``path`` atomically: a failed write leaves any old file intact."""
    write_atomically(Path(path).expanduser(), json.dumps(state.to_json()) + "\n")


def load_game(path: str, game: Game[State] | None) -> State:
    """The state saved in ``path`` (of ``game`` when given); ``LoadError`` with the reason."""
    try:
        data = read_json(Path(path).expanduser())
        if game is None:
            game = get_game(MatchRecord.from_json(data).game)
        return game.state_from_json(data)
    except ParlourError as error:
        raise LoadError(path, str(error)) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as error:
        # The engine checks records; this is the net under a damaged record it did not foresee.
        raise LoadError(path, f"not a saved parlour game ({type(error).__name__}: {error})") from None


def load_at(path: str, game: Game[State] | None, ply: int, seed: int) -> State:
    """A new match from the position after ``ply`` actions of the record in ``path``, with ``seed``
    for chance from there; the file is only read. ``LoadError`` with the reason."""
    try:
        replay = read_record(path, game, read_json)
    except RecordError as error:
        raise LoadError(path, str(error)) from None
    if ply > replay.plies:
        raise LoadError(path, f"it has {replay.plies} plies, so --at takes 0 to {replay.plies}, not {ply}")
    state = replay.continued_at(ply, seed)
    if state.is_over():
        raise LoadError(path, f"the game is over at ply {ply}: choose an earlier ply to play on from")
    return state


def read_json(path: Path) -> Any:
    """The file's JSON; ``FormatError`` saying why there is none (missing, empty, damaged)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise FormatError("no such file") from None
    except IsADirectoryError:
        raise FormatError("it is a directory, not a file") from None
    except OSError as error:
        raise FormatError(error.strerror or str(error)) from None
    if not raw.strip():
        raise FormatError("the file is empty")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise FormatError("not a saved game (not UTF-8 text)") from None
    except json.JSONDecodeError as error:
        raise FormatError(
            f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
            "the file is truncated or damaged, or not a saved game"
        ) from None
    except (ValueError, RecursionError) as error:
        raise FormatError(f"not valid JSON ({error})") from None


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
    ) -> None:
        self.game = settings.game
        self.info = settings.game.info
        self.state = settings.state
        self.seats = settings.seats
        self.seconds = settings.seconds
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

    # --- the loop ---

    def run(self) -> int:
        self.say(self.introduction())
        while True:
            mover = self.state.to_move()
            if mover == NOBODY:
                self.finish()
                return 0
            if mover == CHANCE:
                self.resolve_chance()
            elif mover in self.bots:
                if not self.bot_moves(mover):
                    return 1
            else:
                done = self.human_turn(mover)
                if done is not None:
                    return done

    def introduction(self) -> str:
        names = []
        for seat, who in enumerate(self.seats):
            label = ("you" if len(self.humans) == 1 else "human") if who == HUMAN else f"bot:{who}"
            names.append(f"{self.state.seat_names()[seat]}: {label}")
        text = f"{self.info.title}. {', '.join(names)}."
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

    def viewer(self) -> int | None:
        """Whose eyes the board is drawn for when nobody is to type: the human's, else a spectator's."""
        return self.humans[0] if len(self.humans) == 1 else None

    def resolve_chance(self) -> None:
        action = self.state.sample_chance()
        # In a hidden-information game a chance outcome (a card drawn) may be private.
        if not self.info.hidden_information:
            self.say(f"Chance: {self.state.action_to_text(action)}")
        self.state.apply(action)
        self.board_shown = False

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
        self.board_shown = False
        if not self.humans and not self.state.is_over():
            self.say(self.state.render(None))
        return True

    def human_turn(self, seat: int) -> int | None:
        """Reads lines until one changes the game; an exit status ends the session."""
        name = self.state.seat_names()[seat]
        if not self.board_shown:
            self.say("")
            self.say(self.state.render(seat))
            self.board_shown = True
        try:
            line = self.ask(f"{name} to move> ")
        except EOFError:
            self.say("")
            self.say("End of input: the game is left unfinished.")
            return 0
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        if word.lower() in self.COMMANDS:
            return self.command(word.lower(), rest.strip(), seat)
        try:
            action = self.state.parse_action(text)
        except NotationError as error:
            self.say(f"Cannot read that as a move: {error}. Type 'help' to see how moves are written.")
            return None
        except IllegalActionError as error:
            self.say(f"That move is not allowed: {error}. Type 'moves' for the legal moves.")
            return None
        if not self.state.is_legal(action):  # the gate: a notation may read more than the rules allow
            self.say(f"That move is not allowed: {self.state.action_to_text(action)} is not legal here. "
                     "Type 'moves' for the legal moves.")
            return None
        return self.play_move(seat, action)

    def play_move(self, seat: int, action: Action) -> int | None:
        """Plays a human's parsed action (a network session sends it to the server instead)."""
        move_text = self.state.action_to_text(action)
        self.state.apply(action)
        self.say(f"{self.state.seat_names()[seat]} plays {move_text}")
        self.board_shown = False
        return None

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
            self.say("Game left unfinished.")
            return 0
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
            "  quit        leave the game (unsaved progress is lost)",
            f"Anything else is read as a move in {self.info.title} notation, for example:",
            "  " + "   ".join(self.examples()),
        ]
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
        probe = self.state.copy()
        count = 0
        while probe.history:
            probe.undo()
            count += 1
            if probe.to_move() in self.humans:
                break
        else:
            self.say("Nothing to undo: no move has been made by a human yet.")
            return
        for _ in range(count):
            self.state.undo()
        self.say(f"Took back {count} {'move' if count == 1 else 'moves'}.")
        self.board_shown = False

    def save(self, path: str) -> None:
        if not path:
            self.say("Save needs a file name: save FILE")
            return
        try:
            save_game(self.state, path)
        except OSError as error:
            reason = error.strerror or str(error)
            self.say(f"Could not save to {path}: {reason} (any earlier file there is unchanged).")
            return
        self.say(f"Saved to {path}. Resume with: {self.resume_command(path)}")

    def resume_command(self, path: str) -> str:
        """The command line that resumes a save with the same people in the same seats."""
        words = ["parlour", "play", self.info.name, "--load", path]
        try:
            usual = read_seats(self.game, self.state.seat_names(), [])
        except UsageError:
            usual = []
        if self.seats != usual:
            for seat, who in enumerate(self.seats):
                words += ["--seat", f"{seat}={who if who == HUMAN else 'bot:' + who}"]
        return shlex.join(words)


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
    except LoadError as error:
        print(f"parlour play: {error}", file=sys.stderr)
        return 1
    if settings.at is not None:
        print(playing_on(settings.loaded_from, settings.at))
    elif settings.loaded_from is not None:
        print(f"Resuming {settings.loaded_from} ({len(settings.state.history)} moves made).")
    line_editing()
    return run_session(settings)


def run_session(settings: Settings) -> int:
    session = Session(settings, ask=_ask, say=print, complain=_complain)
    try:
        return session.run()
    except KeyboardInterrupt:  # Ctrl-C at the prompt or while a bot thinks
        print("\nInterrupted: the game is left unfinished.")
        return 130


def playing_on(path: str | None, ply: int) -> str:
    return f"A new match from ply {ply} of {path} (the file is not changed)."


def replay_main(args: argparse.Namespace) -> int:
    """``--replay FILE``: steps through the record; ``play`` there goes on as a new local match."""
    try:
        game = find_game(args.game) if args.game is not None else None
        replay = read_record(args.replay, game, read_json)
        game = replay.game
        seats = read_seats(game, replay.state_at(0).seat_names(), args.seat)
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
    return run_session(Settings(game, state, seats, seed, args.time, args.replay, stepper.ply,
                                args.text))


def line_editing() -> None:
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())


def _ask(prompt: str) -> str:
    return input(prompt)


def _complain(text: str) -> None:
    print(text, file=sys.stderr)
