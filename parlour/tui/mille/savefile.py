"""Save files of the classic program (MIL-70 to MIL-74): versioned JSON, written atomically.

A save file holds everything — the match seed, the record with every card dealt and drawn, the
pile's order and Comp's hand of cards — because resuming must continue card for card (MIL-71).
It is a local file for the person who saved it; nothing here ever sends one anywhere.

Loading checks the file in the order of MIL-72 and reports the first failure as a ``LoadError``
whose ``reason`` is the text that follows ``FILE: ``. It never writes anything.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, TypeGuard

from parlour.engine import FormatError, JSONDict
from parlour.games.mille import MilleState
from parlour.tui.files import write_atomically
from parlour.tui.mille.match import (
    DEFAULT_SECONDS,
    SEED_LIMIT,
    Match,
    Remembering,
    Window,
    available_bots,
    default_bot,
    mille,
)

FORMAT: Final = "parlour-mille-save"
VERSION: Final = 1
WINDOWS: Final = ("small", "full")
_POSITION_PREFIX: Final = "Mille Bornes position: "


class LoadError(Exception):
    """A save file that cannot be resumed; ``reason`` is MIL-72's message."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Corrupt(Exception):
    """A field at fault: becomes ``corrupt save file (DETAIL)``."""


@dataclass(frozen=True)
class Loaded:
    match: Match
    notice: str
    """MIL-95: ``FILE [TIME]``, TIME the file's modification time in the ``ctime`` layout."""


# --- writing -------------------------------------------------------------------------------------


def save_json(match: Match, now: datetime | None = None) -> JSONDict:
    """The save file's object (MIL-70)."""
    state = match.state
    snapshot = state.position_json()
    comp: JSONDict = {"name": "Comp", "controller": "bot", "bot": match.bot_kind, "bot_seed": match.bot_seed}
    memory = match.memory()
    if memory is not None:
        comp["memory"] = memory
    saved_at = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    data: JSONDict = {
        "format": FORMAT,
        "version": VERSION,
        "saved_at": saved_at,
        "seed": state.seed,
        "record": state.record_lines(),
        "match": snapshot["match"],
        "hand": snapshot["hand"],
        "players": [{"name": "You", "controller": "human"}, comp],
        "ui": {"window": match.window, "from_file": match.loaded_from is not None},
    }
    if state.start is not None:
        # A match that began from a set position (tests build such positions) replays from it.
        data["start"] = state.start
    return data


def write_save(path: Path, match: Match) -> None:
    """Writes the match to ``path`` atomically (MIL-73): a temporary file in the same directory,
    synced, then renamed over the target. On failure the temporary file is removed, ``path`` is
    left as it was, and the ``OSError`` is raised."""
    write_atomically(path, json.dumps(save_json(match), indent=1, ensure_ascii=False) + "\n")


# --- reading -------------------------------------------------------------------------------------


def read_save(path: Path, bot_kind: str | None = None, seconds: float = DEFAULT_SECONDS) -> Loaded:
    """The match saved in ``path`` (MIL-72, MIL-95). Comp is ``bot_kind`` if given, else the kind
    saved in the file if the bots still offer it, else the default."""
    try:
        raw = path.read_bytes()
        modified = path.stat().st_mtime
    except OSError as error:
        raise LoadError(error.strerror or str(error)) from None
    if not raw:
        raise LoadError("empty file")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LoadError("truncated or corrupt save file") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LoadError("not a Mille Bornes save file")
    version = data.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise LoadError(f"unsupported save version {json.dumps(version)}")
    try:
        match = _match(data, path, bot_kind, seconds)
    except _Corrupt as fault:
        raise LoadError(f"corrupt save file ({fault})") from None
    return Loaded(match, f"{path} [{time.ctime(modified)}]")


def _match(data: JSONDict, path: Path, bot_kind: str | None, seconds: float) -> Match:
    _expect(isinstance(data.get("saved_at"), str), "saved_at")
    seed = data.get("seed")
    if not _whole(seed, SEED_LIMIT):
        raise _Corrupt("seed")
    record = _record(data.get("record"))
    for block in ("match", "hand"):
        _expect(isinstance(data.get(block), dict), block)
    start = data.get("start")
    _expect(start is None or isinstance(start, dict), "start")
    saved_kind, bot_seed, memory = _players(data.get("players"))
    window = _ui(data.get("ui"))
    snapshot = {"match": data["match"], "hand": data["hand"]}
    try:
        mille().new(seed=seed, start=snapshot)
    except FormatError as error:
        raise _Corrupt(str(error).removeprefix(_POSITION_PREFIX)) from None
    state = _replay(seed, start, record)
    fault = _first_difference(snapshot, json.loads(json.dumps(state.position_json())), "")
    if fault is not None:
        raise _Corrupt(f"{fault}: does not match the record")
    kinds = available_bots()
    kind = bot_kind or (saved_kind if saved_kind in kinds else default_bot())
    match = Match(state, kind, bot_seed, seconds, window, loaded_from=path)
    if kind == saved_kind and isinstance(match.bot, Remembering):
        try:
            match.bot.load_memory(memory)
        except (ValueError, TypeError, KeyError) as error:
            raise _Corrupt(f"players[1].memory: {error}") from None
    return match


def _replay(seed: int, start: JSONDict | None, record: list[str]) -> MilleState:
    """The state the record reaches from the seed, every entry checked by the rules."""
    try:
        state = mille().new(seed=seed, start=start)
    except FormatError as error:
        raise _Corrupt(f"start: {str(error).removeprefix(_POSITION_PREFIX)}") from None
    for index, line in enumerate(record):
        try:
            state.play(state.parse_action(line))
        except Exception as error:  # the rules' errors, or anything a nonsense entry provokes
            raise _Corrupt(f"record[{index}] {line!r}: {error}") from None
    return state


def _record(record: Any) -> list[str]:
    _expect(isinstance(record, list), "record")
    for index, line in enumerate(record):
        _expect(isinstance(line, str), f"record[{index}]")
    return list(record)


def _players(players: Any) -> tuple[str, int, Any]:
    """Checks the players block; returns Comp's bot kind, bot seed and memory."""
    _expect(isinstance(players, list) and len(players) == 2, "players")
    for seat, entry in enumerate(players):
        _expect(isinstance(entry, dict), f"players[{seat}]")
        _expect(isinstance(entry.get("name"), str), f"players[{seat}].name")
    you, comp = players
    _expect(you.get("controller") == "human", "players[0].controller")
    _expect(comp.get("controller") == "bot", "players[1].controller")
    _expect(isinstance(comp.get("bot"), str), "players[1].bot")
    _expect(_whole(comp.get("bot_seed"), SEED_LIMIT), "players[1].bot_seed")
    memory = comp.get("memory")
    _expect(memory is None or isinstance(memory, dict), "players[1].memory")
    return comp["bot"], comp["bot_seed"], memory


def _ui(ui: Any) -> Window:
    _expect(isinstance(ui, dict), "ui")
    window = ui.get("window")
    _expect(window in WINDOWS, "ui.window")
    _expect(isinstance(ui.get("from_file", False), bool), "ui.from_file")
    return "full" if window == "full" else "small"


def _expect(condition: bool, where: str) -> None:
    if not condition:
        raise _Corrupt(where)


def _whole(value: Any, limit: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < limit


def _first_difference(saved: Any, replayed: Any, where: str) -> str | None:
    """The path of the first place where the saved snapshot differs from the replayed one."""
    if isinstance(saved, dict) and isinstance(replayed, dict):
        for key in [*saved, *(k for k in replayed if k not in saved)]:
            at = f"{where}.{key}" if where else str(key)
            if key not in saved or key not in replayed:
                return at
            fault = _first_difference(saved[key], replayed[key], at)
            if fault is not None:
                return fault
        return None
    if isinstance(saved, list) and isinstance(replayed, list):
        if len(saved) != len(replayed):
            return where
        for index, (a, b) in enumerate(zip(saved, replayed, strict=True)):
            fault = _first_difference(a, b, f"{where}[{index}]")
            if fault is not None:
                return fault
        return None
    numbers = (int, float)
    if isinstance(saved, numbers) and isinstance(replayed, numbers) \
            and not isinstance(saved, bool) and not isinstance(replayed, bool):
        return None if saved == replayed else where
    return None if type(saved) is type(replayed) and saved == replayed else where
