"""``parlour maps``: a game's library of boards (Conflict's maps) from the terminal: the shipped
ones and those saved on a server (its SQLite file, read only), and the game's own check of a map
file, the same the server and the editor use.
"""

from __future__ import annotations

import argparse
import datetime
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from parlour.engine import BoardProblem, Boards, FormatError
from parlour.games import GAMES, get_game
from parlour.server.serve import default_db
from parlour.server.storage import BOARD_COLUMNS, BoardRow

DESCRIPTION = """\
The maps of a game whose board is a file people draw and share (Conflict's maps): the ones
shipped with parlour and the ones saved on a server (from its SQLite file, read only).

  list         every map: the shipped ones first, then the saved ones newest first
  show NAME    print a map's text (save it to a file: parlour maps show NAME > NAME.cmap)
  check FILE   check a map file ('-': standard input) as the server does: every problem, with
               the squares it concerns; exits 1 when the map has errors
"""


def games_with_boards() -> list[str]:
    return [name for name, game in GAMES.items() if game.boards is not None]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlour maps", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    choices = games_with_boards()
    common = argparse.ArgumentParser(add_help=False)
    only = choices[0] if len(choices) == 1 else None
    common.add_argument("--game", choices=choices, default=only,
                        help=f"the game (default: {only})" if only else "the game")
    common.add_argument("--db", type=Path, metavar="PATH",
                        help=f"the server's SQLite file (default {default_db()})")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    commands.add_parser("list", parents=[common], help="list the shipped and saved maps")
    show = commands.add_parser("show", parents=[common], help="print a map's text")
    show.add_argument("name", metavar="NAME")
    check = commands.add_parser("check", parents=[common], help="check a map file")
    check.add_argument("file", metavar="FILE", help="the map file ('-': standard input)")
    return parser


def main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(list(argv))
    if args.game is None:
        parser.error(f"say which game: --game {{{','.join(games_with_boards())}}}")
    boards = get_game(args.game).boards
    assert boards is not None  # the choices are the games with boards
    db: Path = args.db if args.db is not None else default_db()
    try:
        if args.command == "list":
            return list_maps(args.game, boards, db, sys.stdout)
        if args.command == "show":
            return show_map(args.game, boards, db, args.name, sys.stdout)
        return check_file(boards, args.file, sys.stdout)
    except UnicodeDecodeError as error:  # a map is UTF-8 text (CON-10)
        byte = error.object[error.start]
        print(f"parlour maps: {getattr(args, 'file', db)} is not a map: not UTF-8 text "
              f"(byte {byte:#04x} at offset {error.start})", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"parlour maps: cannot read {error.filename or db}: {error.strerror or error}", file=sys.stderr)
        return 1
    except sqlite3.Error as error:
        print(f"parlour maps: cannot read the saved maps in {db}: {error}", file=sys.stderr)
        return 1


# --- the saved maps ---------------------------------------------------------------------------------


def saved_boards(db: Path, game: str, name: str | None = None) -> list[BoardRow]:
    """The saved boards of ``game`` in the server's file, newest first, without their text (``""``);
    the one called ``name``, with its text, when given. None when there is no file or it is older
    than the library."""
    if not db.is_file():
        return []
    # Read only: a mistyped path must not become a new empty database, nor a server's file change.
    connection = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        connection.execute("PRAGMA busy_timeout=5000")
        if connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'boards'"
                              ).fetchone() is None:
            return []
        where, arguments = ("game = ?", (game,)) if name is None else ("game = ? AND name = ?", (game, name))
        # A list shows names and sizes: only the map asked for by name is read with its text.
        columns = BOARD_COLUMNS if name is not None else BOARD_COLUMNS.replace("text", "'' AS text")
        return [BoardRow(*row) for row in connection.execute(
            f"SELECT {columns} FROM boards WHERE {where} ORDER BY created DESC, name DESC", arguments)]
    finally:
        connection.close()


# --- the commands -----------------------------------------------------------------------------------


def list_maps(game: str, boards: Boards, db: Path, out: TextIO) -> int:
    rows: list[tuple[str, str, str, str]] = []
    for name, text in boards.shipped().items():
        drawing = boards.drawing(text)
        kind = "shipped, recommended" if name == boards.recommended else "shipped"
        rows.append((name, f"{drawing['cols']}x{drawing['rows']}", kind, ""))
    saved = saved_boards(db, game)
    for board in saved:
        when = datetime.datetime.fromtimestamp(board.created, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        rows.append((board.name, f"{board.cols}x{board.rows}", "saved " + when, board.author or ""))
    widths = [max(len(row[column]) for row in rows) for column in range(3)]
    for row in rows:
        out.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip()
                  + (f"  by {row[3]}" if row[3] else "") + "\n")
    where = f"{len(saved)} saved in {db}" if db.is_file() else f"none saved: there is no database {db}"
    out.write(f"{count(len(rows), boards.noun)} ({where})\n")
    return 0


def show_map(game: str, boards: Boards, db: Path, name: str, out: TextIO) -> int:
    shipped = boards.shipped_name(name)
    text = None if shipped is None else boards.shipped()[shipped]
    if text is None:
        found = saved_boards(db, game, name)
        if not found:
            names = ", ".join(boards.shipped())
            print(f"parlour maps: no {boards.noun} called {name!r} (shipped: {names}; 'parlour maps list' "
                  f"lists the saved ones in {db})", file=sys.stderr)
            return 1
        text = found[0].text
    out.write(text if text.endswith("\n") else text + "\n")
    for problem in boards.check(text):  # a saved map's warnings, on stderr: stdout stays the file
        print(f"{problem.severity}: {problem_line(problem)}", file=sys.stderr)
    return 0


def check_file(boards: Boards, file: str, out: TextIO) -> int:
    text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    problems = boards.check(text)
    errors = [problem for problem in problems if problem.is_error]
    warnings = [problem for problem in problems if not problem.is_error]
    for title, listed in (("error", errors), ("warning", warnings)):
        for problem in listed:
            out.write(f"{file}: {title}: {problem_line(problem)}\n")
    if errors:
        out.write(f"{file}: {count(len(errors), 'error')}, {count(len(warnings), 'warning')}: "
                  f"the {boards.noun} cannot be used\n")
        return 1
    name = boards.name_of(text)
    try:
        drawing = boards.drawing(text)
    except FormatError as error:  # the check passed what the reader refuses: say so, never pass it
        out.write(f"{file}: error: {error}\n")
        return 1
    out.write(f"{file}: ok: {boards.noun} {name!r}, {drawing['cols']}x{drawing['rows']}, "
              f"{count(len(warnings), 'warning')}\n")
    return 0


def problem_line(problem: BoardProblem) -> str:
    """A problem in one line: where (line, squares), what, and the rule."""
    where = []
    if problem.line is not None:
        where.append(f"line {problem.line}")
    if problem.squares:
        where.append("squares " + " ".join(problem.squares) if len(problem.squares) > 1
                     else f"square {problem.squares[0]}")
    place = f"{', '.join(where)}: " if where else ""
    return f"{place}{problem.message} ({problem.rule})"


def count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
