"""Each game's library of boards (Conflict's maps): the boards it ships and those people drew and
saved, checked by the game's own rules (``Game.boards``); the answers of the boards API.

The server names no game here: a game has a library when it declares ``boards``. A saved board is
stored once, under a name of its own that no shipped board (nor an alias the game's option
accepts) has, and never changes; a match created with its name plays its text, so the match does
not depend on the library afterwards.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from parlour.engine import BoardProblem, Boards, FormatError, Game, State
from parlour.games import GAMES, get_game
from parlour.server.limits import UNKNOWN_ADDRESS, Limits
from parlour.server.messages import (
    ProtocolError,
    check_text,
    decode_cursor,
    encode_cursor,
    json_kind,
    read_name,
    store_unreachable,
)
from parlour.server.storage import BoardRow, Store, StoreError

log = logging.getLogger("parlour.server")

NAME_RULE: Final = "name"
"""The rule of the problem a save reports when the name asked for is not the one the text gives."""


def boards_of(game_name: str) -> tuple[Game[State], Boards]:
    """The game ``game_name`` and its boards; ``404 no_game`` or ``404 no_boards``."""
    if game_name not in GAMES:
        raise ProtocolError("no_game", f"there is no game {game_name[:40]!r}", 404)
    game = get_game(game_name)
    if game.boards is None:
        raise ProtocolError("no_boards", f"{game.info.title} has one board: there are no boards to draw or "
                                         "save", 404)
    return game, game.boards


def boards_json(game: Game[State], max_characters: int) -> dict[str, Any] | None:
    """What ``GET /api/games`` says of a game's boards (``None``: it has no library): the option
    that takes a board, what a board is called, its file extension, the shipped board to offer
    first, the sizes a drawn one may have, the longest name it may give itself, and the most
    characters of its text the server takes (``Limits.board_characters``: an editor says so
    before sending one)."""
    boards = game.boards
    if boards is None:
        return None
    return {"option": boards.option, "noun": boards.noun, "extension": boards.extension,
            "recommended": boards.recommended, "min_cols": boards.min_cols, "max_cols": boards.max_cols,
            "min_rows": boards.min_rows, "max_rows": boards.max_rows, "max_name": boards.max_name,
            "max_characters": max_characters}


@functools.cache
def shipped_entries(game_name: str) -> tuple[dict[str, Any], ...]:
    """The list entries of a game's shipped boards (worked out once: they never change)."""
    _, boards = boards_of(game_name)
    entries = []
    for name, text in boards.shipped().items():
        drawing = boards.drawing(text)
        entries.append({"name": name, "cols": drawing["cols"], "rows": drawing["rows"], "shipped": True,
                        "recommended": name == boards.recommended, "author": None, "created": None})
    return tuple(entries)


def saved_entry(board: BoardRow) -> dict[str, Any]:
    return {"name": board.name, "cols": board.cols, "rows": board.rows, "shipped": False,
            "recommended": False, "author": board.author, "created": board.created}


def problems_json(problems: Sequence[BoardProblem]) -> list[dict[str, Any]]:
    return [problem.json() for problem in problems]


class BoardRefused(ProtocolError):
    """``400 bad_board``: a board with errors; the answer carries them in ``problems`` beside
    ``error``, as a check's answer does, so that an editor paints them on their squares."""

    def __init__(self, problems: Sequence[BoardProblem], noun: str) -> None:
        first = problems[0].message if problems else "it cannot be read"
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__("bad_board", f"the {noun} cannot be used: {first}{more}",
                         extra={"problems": problems_json(problems)})


def read_board_text(value: Any, longest: int, field: str = "text") -> str:
    """A board's text from a request (``field``: where the request gives it): a string of at most
    ``longest`` characters (``413 too_large`` past it: ``Limits.board_characters``, for checks,
    saves and matches alike), of text fit to store (``bad_text`` for a lone surrogate or a control
    character other than line breaks and tabs)."""
    if not isinstance(value, str):
        raise ProtocolError("bad_request", f'"{field}" must be the board\'s text (a string), not '
                                           f"{json_kind(value)}")
    if len(value) > longest:
        raise ProtocolError("too_large", f"{field}: the board's text is longer than {longest} characters",
                            413)
    return check_text(value, field, longest, lines=True)


def read_board_name(value: Any, boards: Boards) -> str:
    """A board's name from a request: one line of text, 1 to ``boards.max_name`` characters (the
    game's limit of the name a board's text gives itself, which a save must repeat)."""
    if not isinstance(value, str) or not value.strip():
        raise ProtocolError("bad_request", f'"name" must be the board\'s name: a string of 1 to '
                                           f"{boards.max_name} characters")
    return check_text(value, "name", boards.max_name)


def board_given_as_text(game: Game[State], options: Mapping[str, Any]) -> bool:
    """Whether ``options`` give the game's board as a text (not by a name)."""
    value = options.get(game.boards.option) if game.boards is not None else None
    return isinstance(value, str) and game.boards is not None and game.boards.is_text(value)


@dataclass(frozen=True)
class Checked:
    """A board's text as the game's check found it: every problem, the name it gives itself and,
    without errors, its drawing (``None`` with errors)."""

    problems: tuple[BoardProblem, ...]
    name: str | None
    drawing: dict[str, Any] | None

    @property
    def errors(self) -> list[BoardProblem]:
        return [problem for problem in self.problems if problem.is_error]

    @property
    def warnings(self) -> list[BoardProblem]:
        return [problem for problem in self.problems if not problem.is_error]


@functools.lru_cache(maxsize=64)
def check_cached(game_name: str, text: str) -> Checked:
    """The game's check of a board's text, worked out once for the latest texts asked about (a
    shipped or saved board never changes; an editor asks again about a text it undid to). The
    drawing is shared: callers only send it."""
    boards = get_game(game_name).boards
    assert boards is not None
    problems = tuple(boards.check(text))
    drawing = None
    if not any(problem.is_error for problem in problems):
        try:
            drawing = boards.drawing(text)
        except FormatError as error:  # the check and the reader disagree: refuse it rather than fail
            log.error("%s: a %s the check passes does not draw: %s", game_name, boards.noun, error)
            problems += (BoardProblem("error", "check", str(error)),)
    return Checked(problems, boards.name_of(text), drawing)


@functools.lru_cache(maxsize=256)
def _own_name(game_name: str, text: str) -> str | None:
    boards = get_game(game_name).boards
    return None if boards is None else boards.name_of(text)


def shown_options(game_name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """A match's options as people read them: a board given by its text is shown by its name (a
    saved board's, or the name a drawn one gives itself); everything else as it is."""
    shown = dict(options)
    boards = get_game(game_name).boards if game_name in GAMES else None
    if boards is None:
        return shown
    value = shown.get(boards.option)
    if isinstance(value, str) and boards.is_text(value):
        name = _own_name(game_name, value)
        if name is not None:
            shown[boards.option] = name
    return shown


class Library:
    """The boards of every game that has them: shipped ones from the game, saved ones in the store."""

    def __init__(self, store: Store, limits: Limits, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.limits = limits
        self.now = now
        self.checking = asyncio.Semaphore(1)
        """Checks worked out at once: one, in a worker thread. A check costs milliseconds (1-2
        for a shipped Conflict map, about 10 for the largest, 26x99, measured for issue 16): kept
        off the event loop, it gives the interpreter back every switch interval (5 ms) instead of
        holding every other client until it ends, which a burst of checks from many addresses
        would add up; several at once would only share one interpreter lock."""

    async def check_in_worker(self, game_name: str, text: str) -> Checked:
        """``check_cached`` in a worker thread, one at a time."""
        async with self.checking:
            return await asyncio.to_thread(check_cached, game_name, text)

    # --- reading -----------------------------------------------------------------------------------

    async def page(self, game_name: str, query: Mapping[str, str]) -> dict[str, Any]:
        """``GET /api/games/{game}/boards``: the shipped boards (on the first page), then saved
        ones newest first, ``page_size`` of them at most, and the cursor of the next page."""
        boards_of(game_name)
        size = int(self.limits.page_size)
        cursor = query.get("cursor")
        after = None if not cursor else decode_cursor(cursor)
        shipped = () if after is not None else await asyncio.to_thread(shipped_entries, game_name)  # once
        listed = [dict(entry) for entry in shipped]
        saved = await self._read(lambda: self.store.list_boards(game_name, after, size + 1))
        listed += [saved_entry(board) for board in saved[:size]]
        last = saved[size - 1] if len(saved) > size else None
        return {"boards": listed, "next": None if last is None else encode_cursor(last.created, last.name)}

    async def show(self, game_name: str, name: str) -> dict[str, Any]:
        """``GET /api/games/{game}/boards/{name}``: a shipped or saved board, its text, its drawing
        and its warnings."""
        _, boards = boards_of(game_name)
        shipped = boards.shipped_name(name)  # an old name (stored matches show it): its board now
        answer: dict[str, Any]
        if shipped is not None:
            name, text = shipped, boards.shipped()[shipped]
            answer = {"name": name, "text": text, "shipped": True, "author": None, "created": None}
        else:
            board = await self.saved(game_name, name)
            if board is None:
                raise ProtocolError("no_board", f"{boards.noun} {name[:boards.max_name]!r}: there is no "
                                                f"{boards.noun} of that name", 404)
            text = board.text
            answer = {"name": name, "text": text, "shipped": False, "author": board.author,
                      "created": board.created}
        found = await self.check_in_worker(game_name, text)
        if found.drawing is None:  # the game's rules changed since it was saved: say what is wrong now
            raise BoardRefused(found.errors, boards.noun)
        answer["board"] = found.drawing
        answer["problems"] = problems_json(found.warnings)
        return answer

    async def saved(self, game_name: str, name: str) -> BoardRow | None:
        """A saved board of a game (``None``: none of that name)."""
        _, boards = boards_of(game_name)
        if not 0 < len(name) <= boards.max_name:  # no saved name is longer: not worth asking the store
            return None
        return await self._read(lambda: self.store.load_board(game_name, name))

    async def resolve(self, game: Game[State], options: dict[str, Any]) -> dict[str, Any]:
        """A match's options with a saved board's name replaced by its text, which is what the
        game's option takes (and what the match keeps: it never depends on the library again)."""
        boards = game.boards
        value = options.get(boards.option) if boards is not None else None
        if (boards is None or not isinstance(value, str) or boards.is_text(value)
                or boards.shipped_name(value) is not None):
            return options
        board = await self.saved(game.info.name, value)
        return options if board is None else {**options, boards.option: board.text}

    # --- checking and saving -------------------------------------------------------------------------

    async def check(self, game_name: str, body: Any) -> dict[str, Any]:
        """``POST /api/games/{game}/boards/check``: every problem of a board, and its drawing when
        it has no errors (a question: a board with errors is an answer, not a refusal)."""
        boards_of(game_name)
        text = read_board_text(fields(body).get("text"), int(self.limits.board_characters))
        found = await self.check_in_worker(game_name, text)
        return {"ok": found.drawing is not None, "problems": problems_json(found.problems),
                "board": found.drawing}

    async def save(self, game_name: str, body: Any, address: str = UNKNOWN_ADDRESS) -> dict[str, Any]:
        """``POST /api/games/{game}/boards``: stores a board under its name if it passes the game's
        check and gives itself that name; nothing is stored otherwise."""
        _, boards = boards_of(game_name)
        given = fields(body)
        name = read_board_name(given.get("name"), boards)
        text = read_board_text(given.get("text"), int(self.limits.board_characters))
        author = read_name(given.get("author"))
        if boards.shipped_name(name) is not None:
            raise taken(boards, name, "is one of the game's own")
        found = await self.check_in_worker(game_name, text)
        if found.drawing is None:
            raise BoardRefused(found.errors, boards.noun)
        own = found.name
        if own != name:
            says = "gives no name it can be saved under" if own is None else f"calls itself {own!r}"
            raise BoardRefused([BoardProblem(
                "error", NAME_RULE, f"the {boards.noun} is to be saved as {name!r} but its text {says}: "
                                    f"give it the same name in both places")], boards.noun)
        row = BoardRow(game=game_name, name=name, text=text, cols=int(found.drawing["cols"]),
                       rows=int(found.drawing["rows"]), author=author, created=self.now(), address=address)
        try:
            saved = await self.store.add_board(row, int(self.limits.boards_total))
        except StoreError as error:
            log.error("saving a %s of %s: %s", boards.noun, game_name, error)
            raise store_unreachable(f"the {boards.noun} could not be stored") from None
        if saved == "exists":
            raise taken(boards, name, "is taken by a saved one")
        if saved == "full":
            raise ProtocolError("library_full", f"the server's library holds {self.limits.boards_total:g} "
                                                f"{boards.noun}s, the most it takes", 503)
        return {"name": name}

    async def _read(self, work: Callable[[], Awaitable[T]]) -> T:
        try:
            return await work()
        except StoreError as error:
            log.error("reading the library of boards: %s", error)
            raise store_unreachable("the library could not be read") from None


T = TypeVar("T")


def taken(boards: Boards, name: str, why: str) -> ProtocolError:
    return ProtocolError("board_exists", f"the name {name!r} {why}: {boards.noun}s never change, save yours "
                                         "under a name of its own", 409)


def fields(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ProtocolError("bad_request", f"the body must be a JSON object, not {json_kind(body)}")
    return body
