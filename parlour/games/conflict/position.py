"""Conflict positions as data: the set-up (CON-18), the JSON form (``position_json`` and
``Game.new(start=…)``) and a text form for tests and people.

JSON (every key optional but ``pieces``; seats are numbered 1–4, as in the spec)::

    {"seats": [1, 2], "pieces": ["1S k5", "2U m6"],
     "available": {"1": "CCCGASSSU", "2": ""}, "reserve": {"1": "CSSA", "2": "-"},
     "owners": {"2": 1}, "out": {"2": "taken over"},
     "phase": "decision", "seat": 1, "dice": [2, 5], "unused": [5], "moved": ["k5"],
     "activation": false, "rolls": 12}

A seat's row that is not given holds its starting row less the pieces of that type on the board
(taken from the available row first). The text form has one line per key::

    pieces 1S k5 2U m6
    available 1 CCCGASSSU
    reserve 1 -
    owner 2 1
    turn 1
    dice 2-5
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from parlour.engine import WHYS, FormatError, JSONDict
from parlour.games.conflict.board import Board
from parlour.games.conflict.pieces import (
    CLASS_OF,
    CODES,
    EMPTY,
    TYPE_LETTERS,
    TYPES,
    force,
    piece_text,
)

CHANCE_PHASE, DECISION_PHASE, OVER_PHASE = 0, 1, 2
PHASE_NAMES: Final = ("chance", "decision", "over")
TAKEN_OVER: Final = "taken over"
NO_PIECES: Final = "no pieces"
RETIRED: Final = WHYS
"""A player who left the table (CON-71) is out for its reason: resigned, out of time, gone."""
OUT_REASONS: Final = (TAKEN_OVER, NO_PIECES, *RETIRED)
NO_OWNER: Final = -1
PIECE_TEXTS: Final = tuple(piece_text(code) for code in range(CODES))
NO_SEAT: Final = -1
"""``Position.seat`` when a position does not say who rolls: the first seat in the game does."""


@dataclass
class Position:
    """A position before any rule has run. Seats are 0…3; ``out`` holds a reason or ``None``."""

    squares: list[int]
    available: list[int]
    reserve: list[int]
    owner: list[int]
    out: list[str | None]
    phase: int
    seat: int
    dice: tuple[int, int] | None = None
    unused: tuple[int, ...] = ()
    moved: tuple[int, ...] = ()
    activation: bool = False
    rolls: int = 0
    result: JSONDict | None = None


def initial_position(board: Board, occupied: tuple[int, ...], submarines: bool) -> Position:
    """CON-18: every piece of every occupied seat off the board; the lowest seat rolls first."""
    available_row, reserve_row = force(submarines)
    available, reserve = [0] * CODES, [0] * CODES
    for seat in occupied:
        for kind in range(TYPES):
            available[seat * TYPES + kind] = available_row[kind]
            reserve[seat * TYPES + kind] = reserve_row[kind]
    return Position([EMPTY] * board.size, available, reserve, [NO_OWNER] * 4, [None] * 4, CHANCE_PHASE,
                    occupied[0])


# --- reading ---------------------------------------------------------------------------------------


def _seat(value: Any, what: str) -> int:
    """A seat number 1–4 (an int or its text) as 0…3."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 4:
        raise FormatError(f"{what}: {value!r} is not a seat 1-4")
    return value - 1


def _square(board: Board, value: Any, what: str) -> int:
    square = board.square_of(value) if isinstance(value, str) else None
    if square is None:
        raise FormatError(f"{what}: {value!r} is not a square of the {board.cols}x{board.rows} board")
    return square


def _letters(value: Any, what: str) -> list[int]:
    """A row as letters (``CCS``; ``-`` or empty for none) → counts per type."""
    if not isinstance(value, str):
        raise FormatError(f"{what} must be a string of piece letters, not {value!r}")
    counts = [0] * TYPES
    for letter in value.replace("-", "").replace(" ", "").upper():
        if letter not in TYPE_LETTERS:
            raise FormatError(f"{what}: {letter!r} is not a piece letter (C G A S U)")
        counts[TYPE_LETTERS.index(letter)] += 1
    return counts


def _rows(data: Any, key: str) -> dict[int, list[int]]:
    given = data.get(key, {})
    if not isinstance(given, dict):
        raise FormatError(f"{key!r} must map seats to rows of piece letters")
    return {_seat(seat, key): _letters(row, f"{key} of seat {seat}") for seat, row in given.items()}


def read_position(data: Any, board: Board, occupied: tuple[int, ...], submarines: bool) -> Position:
    """Checks and reads a position in ``position_json`` form; ``FormatError`` says what is wrong."""
    if not isinstance(data, dict):
        raise FormatError("a Conflict position must be a JSON object")
    if "seats" in data:
        seats = data["seats"]
        if not isinstance(seats, list) or [_seat(s, "seats") for s in seats] != list(occupied):
            wanted = [seat + 1 for seat in occupied]
            raise FormatError(f"the position is for seats {seats!r}, the game for seats {wanted}")
    squares = _read_pieces(data.get("pieces", []), board, occupied)
    available, reserve = _read_rows(data, squares, occupied, submarines)
    owner = _read_owners(data.get("owners", {}))
    position = Position(squares, available, reserve, owner, [None] * 4, CHANCE_PHASE, NO_SEAT)
    _read_out(data.get("out", {}), position, occupied)
    _read_turn(data, position, board, occupied)
    return position


def _read_pieces(pieces: Any, board: Board, occupied: tuple[int, ...]) -> list[int]:
    if isinstance(pieces, str):
        words = pieces.split()
        pieces = [" ".join(words[i:i + 2]) for i in range(0, len(words), 2)]
    if not isinstance(pieces, list):
        raise FormatError("'pieces' must be a list like [\"1S k5\", \"2U m6\"]")
    squares = [EMPTY] * board.size
    for entry in pieces:
        words = entry.split() if isinstance(entry, str) else []
        if len(words) != 2 or len(words[0]) != 2 or words[0][1].upper() not in TYPE_LETTERS:
            raise FormatError(f"pieces: {entry!r} is not a piece like '1S k5'")
        seat = _seat(words[0][0], f"piece {entry!r}")
        if seat not in occupied:
            raise FormatError(f"piece {entry!r}: seat {seat + 1} is unused and has no pieces (CON-17)")
        kind = TYPE_LETTERS.index(words[0][1].upper())
        square = _square(board, words[1], f"piece {entry!r}")
        if squares[square] != EMPTY:
            raise FormatError(f"piece {entry!r}: {words[1]} already holds a piece (CON-21)")
        if not board.enterable[CLASS_OF[kind]] >> square & 1:
            raise FormatError(f"piece {entry!r}: that piece cannot stand on {words[1]}'s terrain (CON-8)")
        squares[square] = seat * TYPES + kind
    return squares


def _read_rows(
    data: JSONDict, squares: list[int], occupied: tuple[int, ...], submarines: bool
) -> tuple[list[int], list[int]]:
    available_row, reserve_row = force(submarines)
    on_board = [0] * CODES
    for code in squares:
        if code != EMPTY:
            on_board[code] += 1
    given_available, given_reserve = _rows(data, "available"), _rows(data, "reserve")
    for seat in {*given_available, *given_reserve}:
        if seat not in occupied:
            raise FormatError(f"seat {seat + 1} is unused and has no rows (CON-17)")
    available, reserve = [0] * CODES, [0] * CODES
    for seat in occupied:
        for kind in range(TYPES):
            code = seat * TYPES + kind
            placed = on_board[code]
            available[code] = max(available_row[kind] - placed, 0)
            reserve[code] = reserve_row[kind] - max(placed - available_row[kind], 0)
            if seat in given_available:
                available[code] = given_available[seat][kind]
            if seat in given_reserve:
                reserve[code] = given_reserve[seat][kind]
            total = available_row[kind] + reserve_row[kind]
            if placed + available[code] + reserve[code] > total or reserve[code] < 0:
                raise FormatError(f"seat {seat + 1} has more than {total} {TYPE_LETTERS[kind]} pieces "
                                  "on the board and in its rows (CON-18, CON-46)")
    return available, reserve


def _read_owners(owners: Any) -> list[int]:
    if not isinstance(owners, dict):
        raise FormatError("'owners' must map seats to their owner seats")
    owner = [NO_OWNER] * 4
    for seat, above in owners.items():
        owner[_seat(seat, "owners")] = _seat(above, f"owner of seat {seat}")
    for seat in range(4):  # CON-46 item 3: a forest
        seen, at = {seat}, owner[seat]
        while at != NO_OWNER:
            if at in seen:
                raise FormatError(f"the owner links of seat {seat + 1} form a cycle (CON-46)")
            seen.add(at)
            at = owner[at]
    return owner


def _read_out(out: Any, position: Position, occupied: tuple[int, ...]) -> None:
    if not isinstance(out, dict):
        raise FormatError(f"'out' must map seats to reasons ({', '.join(map(repr, OUT_REASONS))})")
    for seat_text, reason in out.items():
        seat = _seat(seat_text, "out")
        if seat not in occupied or reason not in OUT_REASONS:
            raise FormatError(f"out: seat {seat + 1} ({reason!r}) is not an occupied seat with a reason of "
                              f"{' or '.join(OUT_REASONS)}")
        position.out[seat] = reason


def _read_turn(data: JSONDict, position: Position, board: Board, occupied: tuple[int, ...]) -> None:
    phase = data.get("phase", "decision" if data.get("dice") else "chance")
    if phase not in PHASE_NAMES:
        raise FormatError(f"'phase' must be one of {', '.join(PHASE_NAMES)}, not {phase!r}")
    position.phase = PHASE_NAMES.index(phase)
    rolls = data.get("rolls", 1 if phase == "decision" else 0)
    if isinstance(rolls, bool) or not isinstance(rolls, int) or rolls < 0:
        raise FormatError(f"'rolls' must be a whole number, not {rolls!r}")
    position.rolls = rolls
    if "seat" in data:
        position.seat = _seat(data["seat"], "seat")
        if position.seat not in occupied:
            raise FormatError(f"seat {position.seat + 1} is not occupied and never rolls (CON-17)")
    if phase == "over":
        result = data.get("result")
        if not isinstance(result, dict):
            raise FormatError("a finished position needs its 'result'")
        position.result = result
        return
    if phase == "chance":
        return
    dice = data.get("dice")
    if not (isinstance(dice, list) and len(dice) == 2 and all(_is_die(d) for d in dice)):
        raise FormatError(f"'dice' must be two values 1-6, not {dice!r}")
    position.dice = (dice[0], dice[1])
    unused = data.get("unused", dice)
    if not isinstance(unused, list) or not all(_is_die(d) for d in unused) or not _within(unused, dice):
        raise FormatError(f"'unused' must be some of the dice {dice}, not {unused!r}")
    position.unused = tuple(sorted(unused))
    moved = data.get("moved", [])
    if not isinstance(moved, list) or len(moved) > 2 - len(unused):
        raise FormatError("'moved' lists the squares of the pieces moved with the used dice")
    position.moved = tuple(sorted(_square(board, name, "moved") for name in moved))
    activation = data.get("activation", sum(dice) == 7)
    if not isinstance(activation, bool) or (activation and sum(dice) != 7):
        raise FormatError("'activation' is true only on a roll of 7 whose activation is still open (CON-47)")
    position.activation = activation


def _is_die(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6


def _within(part: list[int], whole: list[int]) -> bool:
    rest = list(whole)
    for value in part:
        if value not in rest:
            return False
        rest.remove(value)
    return True


# --- writing ---------------------------------------------------------------------------------------


def row_letters(counts: list[int], seat: int) -> str:
    at = seat * TYPES
    return (
        "C" * counts[at] + "G" * counts[at + 1] + "A" * counts[at + 2] + "S" * counts[at + 3]
        + "U" * counts[at + 4]
    )


def write_position(
    board: Board,
    occupied: tuple[int, ...],
    position: Position,
    pieces: dict[int, int],
    outcome: JSONDict | None,
) -> JSONDict:
    """The JSON form that ``read_position`` reads back; ``pieces`` maps the squares of
    ``position.squares`` that hold a piece to it."""
    names = board.names
    data: JSONDict = {
        "seats": [seat + 1 for seat in occupied],
        "pieces": [f"{PIECE_TEXTS[pieces[square]]} {names[square]}" for square in sorted(pieces)],
        "available": {str(seat + 1): row_letters(position.available, seat) for seat in occupied},
        "reserve": {str(seat + 1): row_letters(position.reserve, seat) for seat in occupied},
        "owners": {str(seat + 1): above + 1 for seat, above in enumerate(position.owner) if above >= 0},
        "out": {str(seat + 1): reason for seat, reason in enumerate(position.out) if reason is not None},
        "phase": PHASE_NAMES[position.phase],
        "seat": position.seat + 1,
        "rolls": position.rolls,
    }
    if position.phase == DECISION_PHASE:
        assert position.dice is not None
        data["dice"] = list(position.dice)
        data["unused"] = list(position.unused)
        data["moved"] = [names[square] for square in position.moved]
        data["activation"] = position.activation
    if position.phase == OVER_PHASE:
        data["result"] = outcome
    return data


# --- the text form ---------------------------------------------------------------------------------


def position_from_text(text: str) -> JSONDict:
    """The JSON form of a position written as text (module docstring); ``FormatError`` if bad."""
    data: JSONDict = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        key, rest = words[0].lower(), words[1:]
        try:
            _text_line(data, key, rest)
        except (ValueError, IndexError):
            raise FormatError(f"position line {number}: cannot read {raw.strip()!r}") from None
    return data


def _text_line(data: JSONDict, key: str, rest: list[str]) -> None:
    if key == "pieces":
        data.setdefault("pieces", []).extend(" ".join(rest[i:i + 2]) for i in range(0, len(rest), 2))
    elif key in ("available", "reserve"):
        data.setdefault(key, {})[rest[0]] = "".join(rest[1:])
    elif key == "owner":
        data.setdefault("owners", {})[rest[0]] = int(rest[1])
    elif key == "out":
        data.setdefault("out", {})[rest[0]] = " ".join(rest[1:])
    elif key == "seats":
        data["seats"] = [int(word) for word in " ".join(rest).replace(",", " ").split()]
    elif key == "turn":
        data["seat"] = int(rest[0])
    elif key == "dice":
        low, high = rest[0].split("-")
        data["dice"] = [int(low), int(high)]
        data["phase"] = "decision"
    elif key == "unused":
        data["unused"] = [int(word) for word in rest]
    elif key == "moved":
        data["moved"] = list(rest)
    elif key == "activation":
        data["activation"] = {"open": True, "used": False, "none": False}[rest[0]]
    elif key == "rolls":
        data["rolls"] = int(rest[0])
    else:
        raise ValueError(key)


def position_to_text(data: JSONDict) -> str:
    """A ``position_json`` (not finished) as the text ``position_from_text`` reads."""
    lines = [f"seats {' '.join(str(seat) for seat in data['seats'])}"]
    lines.append(" ".join(["pieces", *data["pieces"]]))
    for key in ("available", "reserve"):
        lines += [f"{key} {seat} {row or '-'}" for seat, row in data[key].items()]
    lines += [f"owner {seat} {above}" for seat, above in data["owners"].items()]
    lines += [f"out {seat} {reason}" for seat, reason in data["out"].items()]
    lines.append(f"turn {data['seat']}")
    if data["phase"] == "decision":
        lines.append(f"dice {data['dice'][0]}-{data['dice'][1]}")
        lines.append(" ".join(["unused", *(str(d) for d in data["unused"])]))
        if data["moved"]:
            lines.append(" ".join(["moved", *data["moved"]]))
        if sum(data["dice"]) == 7:
            lines.append(f"activation {'open' if data['activation'] else 'used'}")
    lines.append(f"rolls {data['rolls']}")
    return "\n".join(lines) + "\n"

