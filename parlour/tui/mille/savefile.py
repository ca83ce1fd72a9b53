"""Save files of the classic program (MIL-70 to MIL-74): versioned JSON, written atomically.

A save file holds everything — the match seed, the record with every card dealt and drawn, the
pile's order and Comp's hand of cards — because resuming must continue card for card (MIL-71).
It is a local file for the person who saved it; nothing here ever sends one anywhere.

Loading checks the file in the order of MIL-72 and reports the first failure as a ``LoadError``
whose ``reason`` is the text that follows ``FILE: ``. It never writes anything.

Version 2 keeps hand ordering where it now lives, among the program's settings (``ui.order``), not
in the record or the seats' blocks: it is no game action (MIL-17). Files of version 1 still load
(``_from_version_1``).

A save of the BSD program itself is its memory dumped as it lay (D-5: no version, no checks,
machine-dependent), which parlour cannot read; ``is_bsd_save`` recognises one by its shape, so that
it is named for what it is (``BSD_SAVE``) rather than called corrupt.
"""

from __future__ import annotations

import copy
import json
import re
import struct
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, TypeGuard

from parlour.engine import FormatError, JSONDict
from parlour.engine.files import write_atomically
from parlour.games.mille import MilleState
from parlour.games.mille.position import REACHED
from parlour.tui.mille.match import (
    DEFAULT_SECONDS,
    NEW_GAME,
    SEED_LIMIT,
    Match,
    Remembering,
    Window,
    available_bots,
    default_bot,
    mille,
)

FORMAT: Final = "parlour-mille-save"
VERSION: Final = 2
READS: Final = (1, VERSION)
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
        "record": match.record(),
        "match": snapshot["match"],
        "hand": snapshot["hand"],
        "players": [{"name": "You", "controller": "human"}, comp],
        "ui": {"window": match.window, "order": match.ordering, "from_file": match.loaded_from is not None},
    }
    if match.origin is not None:
        # A match that began from a set position (tests build such positions) replays from it.
        data["start"] = match.origin
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
        raise LoadError(BSD_SAVE if is_bsd_save(raw) else "truncated or corrupt save file") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LoadError("not a Mille Bornes save file")
    version = data.get("version")
    if isinstance(version, bool) or version not in READS:
        raise LoadError(f"unsupported save version {json.dumps(version)}")
    try:
        match = _match(data, version, path, bot_kind, seconds)
    except _Corrupt as fault:
        raise LoadError(f"corrupt save file ({fault})") from None
    return Loaded(match, f"{path} [{time.ctime(modified)}]")


def _match(data: JSONDict, version: int, path: Path, bot_kind: str | None, seconds: float) -> Match:
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
    window, ordering = _ui(data.get("ui"))
    snapshot = {"match": data["match"], "hand": data["hand"]}
    try:
        mille().new(seed=seed, start=snapshot)
    except FormatError as error:
        raise _Corrupt(str(error).removeprefix(_POSITION_PREFIX)) from None
    reordered: set[int] = set()
    if version == 1:
        record, ordering, reordered = _from_version_1(record)
    state, earlier = _replay(seed, start, record)
    replayed = json.loads(json.dumps(state.position_json()))
    if version == 1:
        snapshot = _snapshot_from_version_1(snapshot, replayed, reordered)
    fault = _first_difference(snapshot, replayed, "")
    if fault is not None:
        raise _Corrupt(f"{fault}: does not match the record")
    kinds = available_bots()
    kind = bot_kind or (saved_kind if saved_kind in kinds else default_bot())
    match = Match(state, kind, bot_seed, seconds, window, loaded_from=path, ordering=ordering,
                  earlier=earlier, origin=start)
    if kind == saved_kind and isinstance(match.bot, Remembering):
        try:
            match.bot.load_memory(memory)
        except (ValueError, TypeError, KeyError) as error:
            raise _Corrupt(f"players[1].memory: {error}") from None
    return match


def _replay(seed: int, start: JSONDict | None, record: list[str]) -> tuple[MilleState, list[str]]:
    """The state the record reaches from the seed, every entry checked by the rules, and the
    record of the games before that state's (MIL-56: ``new_game`` starts the next one)."""
    try:
        state = mille().new(seed=seed, start=start)
    except FormatError as error:
        raise _Corrupt(f"start: {str(error).removeprefix(_POSITION_PREFIX)}") from None
    earlier: list[str] = []
    for index, line in enumerate(record):
        try:
            if line.strip().lower() == NEW_GAME:
                following = mille().next_game(state)
                earlier.extend([*state.record_lines(), NEW_GAME])
                state = following
            else:
                state.play_text(line)  # slot hints kept (MIL-64)
        except Exception as error:  # the rules' errors, or anything a nonsense entry provokes
            raise _Corrupt(f"record[{index}] {line!r}: {error}") from None
    return state, earlier


_ORDER_ENTRY: Final = re.compile(r"\s*([01])\s*:\s*order\s+(on|off)\s*", re.IGNORECASE)
_SEAT_PREFIX: Final = re.compile(r"\s*([01])\s*:")
_SLOT_HINT: Final = re.compile(r"\s*@\s*\S+\s*$")


def _from_version_1(record: list[str]) -> tuple[list[str], bool, set[int]]:
    """A version 1 record in today's terms: its ordering entries (``0: order on``) taken out, and
    the seats that ordered their hands. Those entries sorted the rules' slots, and a later slot
    hint of that seat named a sorted slot, so such hints are dropped too (a hint never changes
    the rules, MIL-64). Returns the record, whether seat 0 ends with ordering on, and the seats."""
    lines: list[str] = []
    ordering = [False, False]
    ordered: set[int] = set()
    for line in record:
        entry = _ORDER_ENTRY.fullmatch(line)
        if entry is not None:
            seat = int(entry[1])
            ordering[seat] = entry[2].lower() == "on"
            if ordering[seat]:
                ordered.add(seat)
            continue
        prefix = _SEAT_PREFIX.match(line)
        if prefix is not None and int(prefix[1]) in ordered:
            line = _SLOT_HINT.sub("", line)
        lines.append(line)
    return lines, ordering[0], ordered


def _snapshot_from_version_1(snapshot: JSONDict, replayed: JSONDict, reordered: set[int]) -> JSONDict:
    """A version 1 snapshot in today's terms: no ``order`` in a seat's block; a seat that ordered
    its hand holds the same cards in the slots the rules keep now; the end reason's code word."""
    snapshot = copy.deepcopy(snapshot)
    seats = snapshot["hand"].get("seats")
    for seat, entry in enumerate(seats if isinstance(seats, list) else []):
        if not isinstance(entry, dict):
            continue
        entry.pop("order", None)
        slots, now = entry.get("slots"), replayed["hand"]["seats"][seat]["slots"]
        if seat in reordered and isinstance(slots, list) and _same_cards(slots, now):
            entry["slots"] = now
    result = snapshot["match"].get("result")
    if isinstance(result, dict) and result.get("reason") == "5000":
        result["reason"] = REACHED
    return snapshot


def _same_cards(slots: list[Any], others: list[Any]) -> bool:
    def cards(of: list[Any]) -> list[str]:
        return sorted(card for card in of if isinstance(card, str))
    return cards(slots) == cards(others) and len(slots) == len(others)


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


def _ui(ui: Any) -> tuple[Window, bool]:
    """The score window and whether your hand is shown sorted (MIL-85)."""
    _expect(isinstance(ui, dict), "ui")
    window = ui.get("window")
    _expect(window in WINDOWS, "ui.window")
    _expect(isinstance(ui.get("from_file", False), bool), "ui.from_file")
    ordering = ui.get("order", False)
    _expect(isinstance(ordering, bool), "ui.order")
    return ("full" if window == "full" else "small"), ordering


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


# --- the BSD program's own save files ------------------------------------------------------------

BSD_SAVE: Final = "a BSD mille save, which parlour cannot read"
"""What a BSD save is called where a parlour save was expected (issue 18)."""

_BSD_CARDS: Final = range(-1, 19)
"""A card in the BSD program's memory: -1 for none, else 0 (25) to 18 (Right of Way), MIL-1's order."""
_BSD_SAFETIES: Final = 4
_BSD_MILES: Final = 5
_BSD_HAND: Final = 7
_BSD_KINDS: Final = 20
_BSD_DECK: Final = 101
_BSD_PLAYER_INTS: Final = 12
"""mileage, hand_tot, safescore, coupscore, total and games, with the screen's shadow copies."""


def is_bsd_save(raw: bytes) -> bool:
    """Whether ``raw`` is a save of the BSD program: its globals written one after another (Debug,
    Finished, Order, End, On_exit, Handstart, Numgos, Numseen, Play, Window, Deck, Discard, the two
    players, the top card's place), as a machine with one-byte or four-byte ``bool`` and either
    byte order lays them out, every value in its range."""
    return any(_bsd_fits(raw, order, width) for order in "<>" for width in (1, 4))


def _bsd_layout(order: str, width: int) -> tuple[str, str]:
    """``struct`` formats of the globals before the players, and of one player (``PLAY``, padded
    as a C compiler pads it: shorts on two bytes, ints on four)."""
    flag = "B" if width == 1 else "I"
    head = f"{order}3{flag}i{flag}ii{_BSD_KINDS}iii{_BSD_DECK}hh"
    flags = (_BSD_SAFETIES + 3) * width
    shorts = 2 * _BSD_SAFETIES + 2 * _BSD_MILES + 2 * _BSD_HAND + 4
    before_ints = flags + flags % 2 + 2 * shorts
    player = (f"{order}{_BSD_SAFETIES + 3}{flag}{flags % 2}x{shorts}h{before_ints % 4}x"
              f"{_BSD_PLAYER_INTS}i")
    return head, player


def _bsd_fits(raw: bytes, order: str, width: int) -> bool:
    head, player = _bsd_layout(order, width)
    size = struct.calcsize(head) + 2 * struct.calcsize(player) + 4
    if len(raw) != size:
        return False
    values = struct.unpack_from(head, raw)
    debug, finished, in_order, end, on_exit, handstart, numgos = values[:7]
    seen = values[7:7 + _BSD_KINDS]
    play, window = values[7 + _BSD_KINDS:9 + _BSD_KINDS]
    deck_and_discard = values[9 + _BSD_KINDS:]
    top = struct.unpack_from(f"{order}i", raw, size - 4)[0]
    players = [struct.unpack_from(player, raw, struct.calcsize(head) + seat * struct.calcsize(player))
               for seat in (0, 1)]
    return (
        {debug, finished, in_order, on_exit, handstart, play} <= {0, 1}
        and end in (700, 1000) and 0 <= numgos <= 2 * _BSD_DECK and 0 <= window <= 3
        and all(0 <= count <= _BSD_DECK for count in seen)
        and all(card in _BSD_CARDS for card in deck_and_discard)
        and 0 <= top <= _BSD_DECK
        and all(_bsd_player(values) for values in players)
    )


def _bsd_player(values: tuple[int, ...]) -> bool:
    flags = values[:_BSD_SAFETIES + 3]
    shorts = values[_BSD_SAFETIES + 3:-_BSD_PLAYER_INTS]
    hand = shorts[2 * _BSD_SAFETIES + 2 * _BSD_MILES:2 * _BSD_SAFETIES + 2 * _BSD_MILES + _BSD_HAND]
    battle_and_speed = shorts[-4::2]
    mileage = values[-_BSD_PLAYER_INTS]
    return (
        set(flags) <= {0, 1}
        and all(card in _BSD_CARDS for card in (*hand, *battle_and_speed))
        and 0 <= mileage <= 1000 and mileage % 25 == 0
    )
