"""Saved games of ``parlour play``: the engine's match record plus the table around it.

A save file is the engine's record (``State.to_json()``: game, players, options, seed, start and
every action) with one more key, ``table``: who sits in each seat (``human`` or a bot kind), how
long the bots think, and the clocks when the session keeps them::

    {"format": "parlour-record", "version": 1, "game": "loa", ..., "actions": [...],
     "table": {"version": 1, "seats": ["random", "human"], "seconds": 0.1, "clocks": null}}

Anything that reads records reads a save (the record's reader ignores keys it does not know), and
a save written before the table was kept (the record alone) still loads: ``SavedGame.table`` is
then ``None`` and the caller fills in today's defaults.

The functions here print nothing and ask nothing: the line interface (``parlour.tui.play``) and
the Textual board both call them, and report their ``LoadError`` and ``OSError`` in their own way.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from parlour.engine import FormatError, Game, JSONDict, MatchRecord, ParlourError, State
from parlour.engine.files import write_atomically
from parlour.games import get_game
from parlour.tui.files import data_directory

HUMAN: Final = "human"
"""A seat played at this keyboard; any other seat's player is a bot kind (``strong``, ``random``)."""

TABLE_KEY: Final = "table"
TABLE_VERSION: Final = 1

AUTOSAVE_SUFFIX: Final = ".autosave.json"


class LoadError(Exception):
    """A saved game that cannot be resumed; ``reason`` says why in words."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot load {path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class Table:
    """Who plays the match and how: everything a save keeps beside the engine's record."""

    seats: tuple[str, ...]
    """``HUMAN`` or a bot kind, per seat."""
    seconds: float
    """How long a bot may think per move."""
    clocks: tuple[float, ...] | None = None
    """Seconds left on each seat's clock, when the session keeps clocks; ``None``: no clocks."""

    def to_json(self) -> JSONDict:
        return {
            "version": TABLE_VERSION,
            "seats": list(self.seats),
            "seconds": self.seconds,
            "clocks": None if self.clocks is None else list(self.clocks),
        }

    @classmethod
    def from_json(cls, data: Any, players: int) -> Table:
        """The table of a save of a ``players``-seat match; ``FormatError`` naming the field at fault."""
        if not isinstance(data, dict):
            raise FormatError("the saved table must be a JSON object")
        if data.get("version") != TABLE_VERSION:
            raise FormatError(f"saved table version {data.get('version')!r} is not supported "
                              f"(this parlour reads version {TABLE_VERSION})")
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != players or not all(
            isinstance(who, str) and who for who in seats
        ):
            raise FormatError(f"the saved table's seats must be {players} names (human or a bot kind)")
        seconds: Any = data.get("seconds")
        if not _positive(seconds):
            raise FormatError(f"the saved table's thinking time must be a positive number, not {seconds!r}")
        clocks = data.get("clocks")
        if clocks is not None and (
            not isinstance(clocks, list) or len(clocks) != players
            or not all(_number(left) and left >= 0 for left in clocks)
        ):
            raise FormatError(f"the saved table's clocks must be {players} numbers of seconds left, or null")
        return cls(tuple(seats), float(seconds), None if clocks is None else tuple(float(c) for c in clocks))


@dataclass
class SavedGame:
    """A save read back: the game's state (history included, so undo works) and its table."""

    state: State
    table: Table | None
    """``None``: a save of the record alone (written before tables were kept)."""


def save_text(state: State, table: Table) -> str:
    """The save file's text: the record of ``state`` with ``table`` beside it."""
    data = state.to_json()
    data[TABLE_KEY] = table.to_json()
    return json.dumps(data) + "\n"


def write_save(path: str | Path, state: State, table: Table) -> None:
    """Writes the save to ``path`` atomically (a failed write leaves any old file as it was), private
    to its owner; raises ``OSError`` with the system's reason."""
    write_atomically(Path(path).expanduser(), save_text(state, table))


def read_save(path: str | Path, game: Game[State] | None = None) -> SavedGame:
    """The game saved in ``path`` (which must be of ``game`` when one is given), every action checked
    by the rules; ``LoadError`` saying why it cannot be resumed."""
    shown = str(path)
    try:
        data = read_json(Path(path).expanduser())
        record = MatchRecord.from_json(data)
        if game is None:
            game = get_game(record.game)
        state = game.state_from_json(data)
        table = Table.from_json(data[TABLE_KEY], state.players) if TABLE_KEY in data else None
    except ParlourError as error:
        raise LoadError(shown, str(error)) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as error:
        # The engine checks records; this is the net under a damaged record it did not foresee.
        raise LoadError(shown, f"not a saved parlour game ({type(error).__name__}: {error})") from None
    return SavedGame(state, table)


def read_json(path: Path) -> Any:
    """The file's JSON; ``FormatError`` saying why there is none (missing, empty, damaged, or a save
    of another program)."""
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
        raise FormatError(foreign(raw) or "not a saved game (not UTF-8 text)") from None
    except json.JSONDecodeError as error:
        raise FormatError(foreign(raw) or (
            f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
            "the file is truncated or damaged, or not a saved game"
        )) from None
    except (ValueError, RecursionError) as error:
        raise FormatError(f"not valid JSON ({error})") from None


def foreign(raw: bytes) -> str | None:
    """What another program's save file is, in words, when it is one parlour knows of: the save of
    the BSD program ``parlour mille`` copies (``parlour.tui.mille.savefile``)."""
    from parlour.tui.mille.savefile import BSD_SAVE, is_bsd_save  # only for a file that is no JSON

    return BSD_SAVE if is_bsd_save(raw) else None


# --- the game in progress, kept in the user's data directory ---------------------------------------


def autosave_path(game_name: str) -> Path:
    """Where the game of ``game_name`` in progress is kept between moves: one per game, in the user's
    data directory (``$XDG_DATA_HOME/parlour``, else ``~/.local/share/parlour``)."""
    return data_directory() / f"{game_name}{AUTOSAVE_SUFFIX}"


def write_autosave(state: State, table: Table) -> Path:
    """Keeps the game in progress (after every move); ``OSError`` if it cannot be written."""
    path = autosave_path(state.game.info.name)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_save(path, state, table)
    return path


def remove_autosave(game_name: str) -> None:
    """The game has ended or been let go of: nothing to resume any more."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(autosave_path(game_name))


def autosaves(names: Sequence[str] | None = None) -> list[Path]:
    """The kept games in progress (of the games in ``names`` when given), the latest first."""
    directory = data_directory()
    try:
        found = [path for path in directory.glob(f"*{AUTOSAVE_SUFFIX}") if path.is_file()]
    except OSError:
        return []
    if names is not None:
        found = [path for path in found if kept_game(path) in names]
    return sorted(found, key=_modified, reverse=True)


def kept_game(path: Path) -> str:
    """The name of the game a kept game in progress is of (from its file's name)."""
    return path.name.removesuffix(AUTOSAVE_SUFFIX)


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _positive(value: Any) -> bool:
    return _number(value) and value > 0


class GameInProgress:
    """One session's hold on its game: the moves not yet safe in a file, and the copy kept in the
    user's data directory for ``--resume``. The line interface (``parlour.tui.play.Session``) and the
    Textual board (``parlour.tui.board.table.Table``) both keep their game through this, so that
    they cannot come to keep it differently.

    Another game of the same name may be kept there already (left unfinished yesterday). This
    session replaces it only with a game that is its own, once a move or a take-back has been made
    here (a deal by chance at the start is no move: it follows from the seed), and removes the
    kept game only if it wrote it or resumed from it."""

    def __init__(self, state: State, keep: bool, resumed: bool) -> None:
        """``keep``: keep the game in progress after every move (a person plays at a terminal);
        ``resumed``: the game is the kept one (``--resume``), in no file of the player's."""
        self.state = state
        self.keeping = keep
        self.ours = resumed
        """The kept game is this session's: it wrote it, or resumed from it."""
        self.changed = False
        """A move or a take-back was made in this session: the game is no longer the one found."""
        self.saved_history = [] if resumed else list(state.history)
        """The moves safe in a file (as of the last save, or the file loaded): leaving loses none."""

    def decided(self) -> None:
        """A person or a bot moved, or moves were taken back (not chance): the game is this session's."""
        self.changed = True

    def keep(self, table: Table) -> str | None:
        """After every change: the game kept for ``--resume`` once it is this session's, forgotten
        once over. The system's reason when it cannot be kept (then keeping stops: said once)."""
        if not self.keeping:
            return None
        if self.state.is_over():
            self.forget()
            return None
        if not (self.ours or self.changed):
            return None
        try:
            write_autosave(self.state, table)
        except OSError as error:
            self.keeping = False
            return error.strerror or str(error)
        self.ours = True
        return None

    def forget(self) -> None:
        """The game ended or was let go of: nothing left to resume, if what is kept is this game."""
        if self.keeping and self.ours:
            with contextlib.suppress(OSError):
                remove_autosave(self.state.game.info.name)

    def is_kept(self) -> bool:
        """The game is kept for ``--resume`` now (leaving at once loses nothing of it)."""
        return self.keeping and self.ours and autosave_path(self.state.game.info.name).exists()

    def saved(self) -> None:
        """The game was written to a file of the player's."""
        self.saved_history = list(self.state.history)

    def unsaved(self) -> int:
        """How many moves leaving now would lose: made since the last save, or taken back since.
        None once the game is over (there is nothing left to play)."""
        if self.state.is_over():
            return 0
        history, saved = self.state.history, self.saved_history
        common = 0
        while common < min(len(history), len(saved)) and history[common] == saved[common]:
            common += 1
        return len(history) - common + (len(saved) - common)

    def replaced(self) -> str | None:
        """Words for the start of a game that will replace another kept game of its name with its
        first move; ``None`` when nothing kept would be replaced."""
        info = self.state.game.info
        if not self.keeping or self.ours or self.state.is_over() or not autosave_path(info.name).exists():
            return None
        return (f"(A {info.title} game left unfinished is kept for parlour play --resume; "
                "this game's first move replaces it.)")
