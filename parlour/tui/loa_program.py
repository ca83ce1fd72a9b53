"""``parlour loa``: the CS61B Lines of Action text program (``specs/loa.md``, LOA-30 to LOA-82).

It speaks the course's command language byte for byte, so that the course's test scripts pass
unchanged: the banner, prompts, dumps, AI moves, result and pass lines go to standard output;
errors, help, usage and debug messages to standard error.
"""

from __future__ import annotations

import os
import re
import secrets
import sys
import time
import traceback
from collections.abc import Callable
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from typing import IO, Final

from parlour.bots import Bot, seen_by
from parlour.engine import IllegalActionError, NotationError
from parlour.games import get_game
from parlour.games.loa import PASS, LinesOfAction, LoaState

BANNER: Final = "Lines of Action.  Version 2.0.\nType ? for help.\n"

# Kept as a list of lines: one of them ends in a space, which the help text needs (LOA-77).
HELP_TEXT: Final = "".join(
    line + "\n"
    for line in (
        "Commands: Commands are whitespace-delimited.  Other trailing text on a line",
        "          is ignored. Comment lines begin with # and are ignored.",
        "",
        "  uv-xy     A move from square uv to square xy.  Here u and v are column",
        "            designations (a-h) and v and y are row designations (1-8): ",
        "  new       Stop game and return to initial position.",
        "  seed N    Seed the random number with integer N.",
        "  auto P    P is white or black; makes P into an AI.",
        "  manual P  P is white or black; takes moves for P from terminal.",
        "  set cr P N",
        "            Put P ('white', 'black', or '-') into square cr, and set the",
        "            next player to move to N ('white' or 'black').  Used to",
        "            set up a position, not for play.",
        "  dump      Display the board in standard format.",
        "  quit      End program.",
        "  help",
        "  ?         This text.",
    )
)

USAGE: Final = (
    "Usage: parlour loa [ --debug=NUM ] [ --strict ] [ --log=FILE ] [ --time=SECS ] [ --display ]"
    " [ INPUT [ OUTPUT ] ]\n"
)

DISPLAY_NOTICE: Final = (
    "parlour loa: the browser UI for Lines of Action is not available yet;"
    " using the text dialogue instead.\n"
)

SIDES: Final = ("black", "white")
DEFAULT_LIMIT: Final = 60
DEFAULT_SECONDS: Final = 1.0

EXIT_OK: Final = 0
EXIT_START: Final = 1  # usage, files that cannot be opened (LOA-30, LOA-32, LOA-36)
EXIT_STRICT: Final = 2  # an error under --strict (LOA-31)
EXIT_INTERNAL: Final = 3  # a bug in parlour, reported in one line instead of a traceback
EXIT_INTERRUPTED: Final = 130  # Ctrl-C, as shells report SIGINT

MOVE_LINE: Final = re.compile(r"([a-h][1-8])-([a-h][1-8])\b.*", re.DOTALL)  # LOA-52
SQUARE: Final = re.compile(r"[a-h][1-8]")
INTEGER: Final = re.compile(r"[+-]?[0-9]+")
SECONDS: Final = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


@dataclass
class Settings:
    """The command line (LOA-30)."""

    strict: bool = False
    log: str | None = None
    debug: int = 0
    seconds: float = DEFAULT_SECONDS
    display: bool = False
    input: str | None = None
    output: str | None = None


class UsageError(Exception):
    """A command line that LOA-36 answers with the usage text."""


class CommandError(Exception):
    """An ``Error: …`` report (LOA-76). ``strict_exit`` is false for the two errors of ``limit``,
    which do not end the program even under ``--strict`` (LOA-31)."""

    def __init__(self, message: str, strict_exit: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.strict_exit = strict_exit


class InternalError(Exception):
    """Something parlour itself got wrong (for instance a bot answering an illegal move)."""


class _Exit(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def parse_arguments(argv: list[str]) -> Settings:
    """LOA-30: options in any order, then at most two file arguments; ``UsageError`` otherwise."""
    settings = Settings()
    files: list[str] = []
    for arg in argv:
        is_option = arg.startswith("-") and arg != "-"
        if files or not is_option:
            if is_option:
                raise UsageError(f"option after the file arguments: {arg}")
            files.append(arg)
        elif arg == "--strict":
            settings.strict = True
        elif arg == "--display":
            settings.display = True
        elif arg.startswith("--log="):
            settings.log = arg.removeprefix("--log=")
            if not settings.log:
                raise UsageError("--log needs a file name")
        elif arg.startswith("--debug="):
            value = arg.removeprefix("--debug=")
            if not value.isascii() or not value.isdigit():
                raise UsageError(f"bad debug level: {value}")
            settings.debug = int(value)
        elif arg.startswith("--time="):
            value = arg.removeprefix("--time=")
            if not SECONDS.fullmatch(value) or float(value) <= 0:
                raise UsageError(f"bad time: {value}")
            settings.seconds = float(value)
        else:
            raise UsageError(f"unknown option: {arg}")
    if len(files) > 2:
        raise UsageError("more than two file arguments")
    settings.input = files[0] if files else None
    settings.output = files[1] if len(files) > 1 else None
    return settings


def integer_in_bits(text: str, bits: int) -> int | None:
    """A decimal integer with an optional sign that fits in ``bits`` bits signed, else None."""
    if not INTEGER.fullmatch(text):
        return None
    value = int(text)
    return value if -(1 << (bits - 1)) <= value < 1 << (bits - 1) else None


def on_common_line(origin: str, target: str) -> bool:
    """Two different squares on one row, column or diagonal (LOA-52)."""
    columns = ord(target[0]) - ord(origin[0])
    rows = int(target[1]) - int(origin[1])
    return (columns, rows) != (0, 0) and (columns == 0 or rows == 0 or abs(columns) == abs(rows))


def result_line(state: LoaState) -> str:
    """LOA-74."""
    outcome = state.outcome()
    if outcome is None or outcome.winner is None:
        return "* Tie game.\n"
    return f"* {SIDES[outcome.winner].capitalize()} wins.\n"


class LoaProgram:
    """One run of the text program: the main loop of LOA-41 and the commands of LOA-50 to LOA-62."""

    def __init__(
        self,
        settings: Settings,
        commands: IO[str],
        out: IO[str],
        err: IO[str],
        log: IO[str] | None = None,
    ) -> None:
        game = get_game("loa")
        if not isinstance(game, LinesOfAction):
            raise InternalError("the game registry has no Lines of Action")
        self.game = game
        self.settings = settings
        self.commands = commands
        self.out = out
        self.err = err
        self.log = log
        self.limit = DEFAULT_LIMIT
        self.state: LoaState = game.new(options=self._options())
        self.in_progress = True
        self.ai = [False, True]  # LOA-40: Black manual, White the AI
        self.seed: int | None = None
        self.bot: Bot | None = None
        self.handlers: dict[str, Callable[[list[str]], None]] = {
            "new": self.new,
            "seed": self.seed_command,
            "auto": self.auto,
            "manual": self.manual,
            "set": self.set_square,
            "limit": self.set_limit,
            "dump": self.dump,
            "quit": self.quit,
            "help": self.help,
            "?": self.help,
        }

    # --- the main loop (LOA-41) ---------------------------------------------------------------

    def run(self) -> int:
        """Runs the dialogue to the end; returns the exit status."""
        try:
            if not self.settings.display:
                self.write(BANNER)
            while True:
                line = self.next_line()
                if line is None:
                    return EXIT_OK
                self.process(line)
        except _Exit as stop:
            return stop.status

    def next_line(self) -> str | None:
        """Steps 1 to 4: announce a result, apply passes, then one line (None at end of input)."""
        while self.in_progress:
            if self.state.is_over():
                self.write(result_line(self.state))
                self.in_progress = False
            elif self.state.legal_actions() == [PASS]:
                side = SIDES[self.state.to_move()]
                self.state.apply(PASS)
                self.write(f"{side.capitalize()} passes (no legal move).\n")
            elif self.ai[self.state.to_move()]:
                return self.ai_move()
            else:
                return self.read(f"{SIDES[self.state.to_move()][0]}> ")
        return self.read("-> ")

    def read(self, prompt: str) -> str | None:
        self.write(prompt)
        line = self.commands.readline()
        return line if line else None

    def ai_move(self) -> str:
        """LOA-43, LOA-73, LOA-80: the AI's move, printed as ``* MOVE`` and returned as a line."""
        bot = self.the_bot()
        state = self.state
        seat = state.to_move()
        started = time.monotonic()
        action = bot.choose(seen_by(state, seat, bot.rng), self.settings.seconds)
        if action == PASS or action not in state.legal_actions():
            raise InternalError(f"the AI chose an illegal action ({action!r}) for {SIDES[seat]}")
        text = state.action_to_text(action)
        self.debug(1, f"AI plays {text} for {SIDES[seat]} ({time.monotonic() - started:.2f} s)")
        self.write(f"* {text}\n")
        return text

    def the_bot(self) -> Bot:
        if self.bot is None:
            from parlour.bots import make_bot  # the search code loads only when an AI plays

            seed = self.seed if self.seed is not None else secrets.randbits(63)
            self.bot = make_bot("loa", "strong", seed)
        return self.bot

    # --- commands (LOA-50 to LOA-62) --------------------------------------------------------

    def process(self, raw: str) -> None:
        """LOA-50: one line as a command; errors are reported here (LOA-31, LOA-76)."""
        line = raw.strip()
        if not line:
            return
        if self.log is not None:
            self.log.write(line + "\n")
            self.log.flush()
        self.debug(2, f"command: {line}")
        if line.startswith("#"):
            return
        words = line.split()
        handler = self.handlers.get(words[0].lower())
        try:
            if handler is None:
                self.move(line)
            else:
                handler(words[1:4])
        except CommandError as error:
            self.err.write(f"Error: {error.message}\n")
            self.err.flush()
            if self.settings.strict and error.strict_exit:
                raise _Exit(EXIT_STRICT) from None

    def move(self, line: str) -> None:
        """LOA-52."""
        match = MOVE_LINE.fullmatch(line)
        if match is None or not on_common_line(match[1], match[2]):
            raise CommandError(f"unknown command: {line}")
        if not self.in_progress:
            raise CommandError("no game in progress")
        try:
            action = self.state.parse_action(f"{match[1]}-{match[2]}")
        except (NotationError, IllegalActionError):
            raise CommandError(f"illegal move: {line}") from None
        self.state.apply(action)

    def new(self, args: list[str]) -> None:
        """LOA-53."""
        self.limit = DEFAULT_LIMIT
        self.state = self.game.new(options=self._options())
        self.in_progress = True

    def seed_command(self, args: list[str]) -> None:
        """LOA-54."""
        text = args[0] if args else ""
        seed = integer_in_bits(text, 64)
        if seed is None:
            raise CommandError(f"Invalid number: {text}")
        self.seed = seed
        if self.bot is not None:
            self.bot.reseed(seed)

    def auto(self, args: list[str]) -> None:
        """LOA-55."""
        self.ai[self.player(args)] = True

    def manual(self, args: list[str]) -> None:
        """LOA-56."""
        self.ai[self.player(args)] = False

    @staticmethod
    def player(args: list[str]) -> int:
        name = args[0].lower() if args else ""
        if name not in SIDES:
            raise CommandError(f"unknown player: {name}")
        return SIDES.index(name)

    def set_square(self, args: list[str]) -> None:
        """LOA-57, its checks in the order the spec gives."""
        square, piece, next_side = [*args, "", "", ""][:3]
        piece, next_side = piece.lower(), next_side.lower()
        invalid = f"invalid arguments to set: set {square} {piece} {next_side}"
        if (piece or "-") not in (*SIDES, "-"):
            raise CommandError(invalid)
        if next_side and next_side not in (*SIDES, "-"):
            raise CommandError(invalid)
        if next_side in ("", "-"):
            raise CommandError("invalid next player: -")
        if not SQUARE.fullmatch(square):
            raise CommandError(invalid)
        position = self.state.position_json()
        rows: list[str] = list(position["board"])
        row, column = 8 - int(square[1]), "abcdefgh".index(square[0])
        rows[row] = rows[row][:column] + (piece or "-")[0] + rows[row][column + 1 :]
        self.rebuild({"board": rows, "to_move": next_side, "plies": position["plies"]})

    def set_limit(self, args: list[str]) -> None:
        """LOA-58: both errors are reported without ending the program under --strict."""
        moves = integer_in_bits(args[0] if args else "", 32)
        if moves is None:
            raise CommandError("badly formed numeral", strict_exit=False)
        if 2 * moves <= self.state.plies:
            raise CommandError("move limit too small", strict_exit=False)
        self.limit = 2 * moves
        self.rebuild(self.state.position_json())

    def dump(self, args: list[str]) -> None:
        """LOA-59, LOA-72."""
        self.write(self.state.dump())

    def quit(self, args: list[str]) -> None:
        """LOA-60."""
        raise _Exit(EXIT_OK)

    def help(self, args: list[str]) -> None:
        """LOA-61, LOA-77: on standard error."""
        self.err.write(HELP_TEXT)
        self.err.flush()

    # --- helpers ------------------------------------------------------------------------------

    def _options(self) -> dict[str, int]:
        return {"move_limit": self.limit}

    def rebuild(self, position: dict[str, object]) -> None:
        """A fresh engine state for an edited position or limit (the text program never undoes)."""
        self.state = self.game.new(options=self._options(), start=position)

    def write(self, text: str) -> None:
        # Flushed at once: the harness waits for each prompt and AI move as it comes (LOA-71).
        self.out.write(text)
        self.out.flush()

    def debug(self, level: int, message: str) -> None:
        """LOA-33: debug messages go to standard error only."""
        if level <= self.settings.debug:
            self.err.write(f"[debug {level}] {message}\n")
            self.err.flush()


def _reason(error: OSError) -> str:
    """The file and the system's reason, as the CS61B program (Java) worded it."""
    if error.filename is not None and error.strerror:
        return f"{error.filename} ({error.strerror})"
    return str(error)


def _silence(stream: IO[str]) -> None:
    """Points a broken standard output at /dev/null so that Python's final flush stays quiet."""
    with suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)


def run(argv: list[str], stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """The program with its three standard streams given."""
    try:
        settings = parse_arguments(argv)
    except UsageError:
        stderr.write(USAGE)
        stderr.flush()
        return EXIT_START
    with ExitStack() as files:
        try:
            commands = stdin
            if settings.input not in (None, "-"):
                commands = files.enter_context(open(settings.input, encoding="utf-8", errors="replace"))
            out = stdout
            if settings.output not in (None, "-"):
                out = files.enter_context(open(settings.output, "w", encoding="utf-8"))
        except OSError as error:
            stderr.write(f"Could not open file: {_reason(error)}\n")
            stderr.flush()
            return EXIT_START
        log = None
        if settings.log is not None:
            try:
                log = files.enter_context(open(settings.log, "w", encoding="utf-8", errors="replace"))
            except OSError:
                stderr.write("Error: Could not open log file\n")
                stderr.flush()
                return EXIT_START
        if settings.display:
            stderr.write(DISPLAY_NOTICE)
            stderr.flush()
        try:
            return LoaProgram(settings, commands, out, stderr, log).run()
        except InternalError as error:
            stderr.write(f"parlour loa: internal error: {error}\n")
            return EXIT_INTERNAL
        except (KeyboardInterrupt, BrokenPipeError):
            raise
        except Exception as error:  # never a traceback (LOA-37), unless debugging asks for one
            if settings.debug:
                traceback.print_exc(file=stderr)
            stderr.write(f"parlour loa: internal error: {type(error).__name__}: {error}\n")
            return EXIT_INTERNAL


def main(argv: list[str]) -> int:
    """``parlour loa [--strict] [--log=FILE] [--debug=N] [--time=SECS] [--display] [INPUT [OUTPUT]]``."""
    stdin, stdout, stderr = sys.stdin, sys.stdout, sys.stderr
    reconfigure = getattr(stdin, "reconfigure", None)
    if reconfigure is not None:
        with suppress(OSError, ValueError):
            reconfigure(errors="replace")  # bytes that are not UTF-8 must not crash the dialogue
    try:
        return run(argv, stdin, stdout, stderr)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence(stdout)
        return EXIT_START
