"""``parlour mille [--bot KIND] [--seed N] [--time T] [FILE]`` (MIL-80)."""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from parlour.tui.mille.match import DEFAULT_SECONDS, SEED_LIMIT, Match, available_bots, default_bot
from parlour.tui.mille.savefile import LoadError, read_save

USAGE: Final = "usage: parlour mille [--bot KIND] [--seed N] [--time T] [file]"
HELP: Final = f"""\
{USAGE}

Mille Bornes as Ken Arnold's BSD program plays it: you against the computer ("Comp").

  file        resume a match saved with S
  --bot KIND  Comp's bot (default: the strongest offered; offered now: {{bots}})
  --seed N    the match seed, 0 <= N < 2^53 (default: a random one)
  --time T    seconds Comp may think per decision (default {DEFAULT_SECONDS:g})

Keys: P pick, U# use, D# discard (then RETURN or SPACE), O order hand, W toggle window,
S save, R or Ctrl-L reprint, Q quit."""


class UsageError(Exception):
    pass


@dataclass(frozen=True)
class Options:
    file: Path | None = None
    bot: str | None = None
    seed: int | None = None
    seconds: float = DEFAULT_SECONDS
    help: bool = False


def parse(argv: list[str]) -> Options:
    """The command line; ``UsageError`` for anything MIL-80 does not allow."""
    values: dict[str, str] = {}
    files: list[str] = []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            return Options(help=True)
        if arg == "--":
            files.extend(args)
            break
        name, equals, value = arg.partition("=")
        if name in ("--bot", "--seed", "--time"):
            if not equals:
                if not args:
                    raise UsageError(f"{name} needs a value")
                value = args.pop(0)
            if name in values:
                raise UsageError(f"{name} given twice")
            values[name] = value
        elif arg.startswith("-") and arg != "-":
            raise UsageError(f"unknown option {arg}")
        else:
            files.append(arg)
    if len(files) > 1:
        raise UsageError("one file at most")
    return Options(
        file=Path(files[0]) if files else None,
        bot=_bot(values.get("--bot")),
        seed=_seed(values.get("--seed")),
        seconds=_seconds(values.get("--time")),
    )


def _bot(text: str | None) -> str | None:
    if text is not None and text not in available_bots():
        raise UsageError(f"no bot {text!r} for mille (bots: {', '.join(available_bots())})")
    return text


def _seed(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        seed = int(text)
    except ValueError:
        raise UsageError(f"the seed must be a whole number, not {text!r}") from None
    if not 0 <= seed < SEED_LIMIT:
        raise UsageError("the seed must be at least 0 and below 2^53")
    return seed


def _seconds(text: str | None) -> float:
    if text is None:
        return DEFAULT_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        raise UsageError(f"the time must be a number of seconds, not {text!r}") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise UsageError("the time must be more than 0 seconds")
    return seconds


def main(argv: list[str] | None = None) -> int:
    try:
        options = parse(sys.argv[1:] if argv is None else argv)
    except UsageError as error:
        print(f"parlour mille: {error}\n{USAGE}", file=sys.stderr)
        return 1
    if options.help:
        print(HELP.format(bots=", ".join(available_bots())))
        return 0
    notice = ""
    if options.file is None:
        match = Match.new(options.seed, options.bot or default_bot(), options.seconds)
    else:
        try:
            loaded = read_save(options.file, options.bot, options.seconds)
        except LoadError as error:
            print(f"parlour mille: {options.file}: {error.reason}", file=sys.stderr)
            return 1
        match, notice = loaded.match, loaded.notice
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("parlour mille: the game needs a terminal", file=sys.stderr)
        return 1
    from parlour.tui.mille.app import MilleApp  # Textual only once there is a screen to take

    app = MilleApp(match, notice)
    app.run(mouse=False)
    return app.return_code or 0
