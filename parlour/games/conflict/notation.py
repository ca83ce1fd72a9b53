"""Conflict's notation (CON-64): decisions as text and back, with the canonical path.

Printing names each move by its canonical path; reading accepts any legal path (the full d-step
path or the walked path alone) and maps it to its decision. Three kinds of error: text that is
not a decision (``NotationError``), a decision whose piece is ambiguous (``AmbiguousError``, a
``NotationError``), and a decision the rules forbid here (``IllegalActionError``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from parlour.engine import Action, IllegalActionError, NotationError, is_leaving
from parlour.games.conflict.actions import END, decode, enter_action, move_action, roll_action
from parlour.games.conflict.maps import BLOCKED, LAND, WATER
from parlour.games.conflict.pieces import (
    AAGUN,
    AIRPLANE,
    CLASS_OF,
    EMPTY,
    LONG_NAMES,
    SEAT_COLOURS,
    SUBMARINE,
    TYPE_NAMES,
    TYPES,
    parse_type,
    with_article,
)
from parlour.games.conflict.position import CHANCE_PHASE, OVER_PHASE

if TYPE_CHECKING:
    from parlour.games.conflict.rules import ConflictState


class AmbiguousError(NotationError):
    """CON-64: an ``enter`` or ``activate`` without the ``@seat`` that the position needs."""


_ROLL: Final = re.compile(r"roll ([0-9]+) ?- ?([0-9]+)")
_ACTIVATE: Final = re.compile(r"activate ([a-z]+) ?(?:@ ?([0-9]+))?")
_ENTER: Final = re.compile(r"enter ([a-z]+) ?(?:@ ?([0-9]+))? ([0-9]+) ?: ?(.*)")
_MOVE: Final = re.compile(r"([a-z][0-9]+) ([0-9]+) ?: ?(.*)")
_TERRAIN_WORDS: Final = {LAND: "land", WATER: "water", BLOCKED: "impassable"}


# --- printing -------------------------------------------------------------------------------------------


def _stops(state: ConflictState, code: int) -> int:
    """The mines that stop a walk of this piece: hostile ones, none for an airplane when
    ``airplanes_on_mines`` is false."""
    if code % TYPES == AIRPLANE and not state.options["airplanes_on_mines"]:
        return 0
    return state.hostile_mines(code // TYPES)


def _row_seats(state: ConflictState, counts: list[int], kind: int) -> list[int]:
    """The seats the player on roll controls with a piece of ``kind`` in the given rows."""
    mover = state.seat
    return [seat for seat in range(4) if state.controller[seat] == mover and counts[seat * TYPES + kind]]


def _piece_word(state: ConflictState, counts: list[int], code: int) -> str:
    """``ship`` or ``ship@2``: the seat only when the mover has such pieces of several seats."""
    kind = code % TYPES
    if len(_row_seats(state, counts, kind)) > 1:
        return f"{TYPE_NAMES[kind]}@{code // TYPES + 1}"
    return TYPE_NAMES[kind]


def canonical_path(state: ConflictState, action: Action) -> list[int] | None:
    """The canonical path of a move or entry (CON-64), ``None`` if it has none here."""
    decision = decode(action, state.board.size)
    if decision is None or decision.kind not in ("move", "enter"):
        return None
    if decision.kind == "move":
        code, start = state.squares[decision.square], decision.square
        if code == EMPTY:
            return None
    else:
        code = decision.code
        start = state.board.bases[code // TYPES]
    cls = CLASS_OF[code % TYPES]
    return state.board.canonical_path(cls, start, decision.die, decision.final, _stops(state, code))


def action_text(state: ConflictState, action: Action) -> str:
    """The action in CON-64's canonical notation (``NotationError`` for an int that is no action)."""
    board = state.board
    decision = decode(action, board.size)
    if decision is None:
        raise NotationError(f"{action} is not a Conflict action")
    if decision.kind == "end":
        return "end"
    if decision.kind == "roll":
        return f"roll {decision.dice[0]}-{decision.dice[1]}"
    if decision.kind == "activate":
        return f"activate {_piece_word(state, state.reserve, decision.code)}"
    if decision.kind == "move":
        head = board.names[decision.square]
    else:
        head = f"enter {_piece_word(state, state.available, decision.code)}"
    path = state.path_of(action) or [decision.final]
    return f"{head} {decision.die}: {' '.join(board.names[square] for square in path)}"


def describe(state: ConflictState, action: Action) -> str:
    """The action's text if it has one here, else its number: for messages, never raises."""
    if is_leaving(action):
        return state.leaving_text(action)
    try:
        return action_text(state, action)
    except NotationError:
        return f"action {action}"


# --- reading --------------------------------------------------------------------------------------------


def parse(state: ConflictState, text: str) -> Action:
    """The decision (or roll) ``text`` names; see ``ConflictState.parse_action``. A refusal names
    the decision as it was written (its reason need not repeat it)."""
    cleaned = " ".join(text.strip().lower().split())
    try:
        return _read(state, cleaned, text)
    except IllegalActionError as refused:
        if refused.action is not None or state.phase == OVER_PHASE:
            raise
        raise IllegalActionError(refused.reason, cleaned) from None


def _read(state: ConflictState, cleaned: str, text: str) -> Action:
    roll = _ROLL.fullmatch(cleaned)
    if roll is not None:
        a, b = int(roll[1]), int(roll[2])
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise NotationError(f"dice show 1 to 6: {text.strip()!r}")
        _check_phase(state, rolling=True)
        return roll_action(a, b)
    if cleaned == "end":
        _check_phase(state, rolling=False)
        if not state.is_legal(END):
            raise IllegalActionError("end is not allowed while a move whose walk does not end on a hostile "
                                     "mine remains (optional_dice = false, CON-30)")
        return END
    activate, enter, move = _ACTIVATE.fullmatch(cleaned), _ENTER.fullmatch(cleaned), _MOVE.fullmatch(cleaned)
    if activate is not None:
        return _activation(state, activate[1], activate[2])
    if enter is not None:
        kind = parse_type(enter[1])
        die, path = _die(enter[3]), _path(state, enter[4])
        _check_phase(state, rolling=False)
        seat = _seat(state, kind, enter[2], state.available, "available")
        code = seat * TYPES + kind
        action = enter_action(state.board.size, seat, kind, die, _walk(state, code, -1, die, path))
        return _legal(state, action, code, path)
    if move is not None:
        square = _square(state, move[1])
        die, path = _die(move[2]), _path(state, move[3])
        _check_phase(state, rolling=False)
        code = _own_piece(state, square)
        action = move_action(state.board.size, square, die, _walk(state, code, square, die, path))
        return _legal(state, action, code, path)
    raise NotationError(
        f"not a Conflict decision: {text.strip()!r} (write SQUARE D: PATH like 'd3 5: e4 f5 g5 h6 i6', "
        "'enter TYPE D: PATH', 'activate TYPE', 'end', or 'roll A-B')"
    )


def _check_phase(state: ConflictState, rolling: bool) -> None:
    if state.phase == OVER_PHASE:
        raise IllegalActionError(state.over_reason())
    if rolling and state.phase != CHANCE_PHASE:
        raise IllegalActionError("the dice have been rolled: it is a decision of the player on roll")
    if not rolling and state.phase == CHANCE_PHASE:
        raise IllegalActionError("the dice must be rolled first")


def _die(text: str) -> int:
    die = int(text)
    if not 1 <= die <= 6:
        raise NotationError(f"a die shows 1 to 6, not {die}")
    return die


def _square(state: ConflictState, text: str) -> int:
    square = state.board.square_of(text)
    if square is None:
        board = state.board
        last = board.names[-1]
        raise NotationError(f"not a square of this board: {text!r} (a1 to {last})")
    return square


def _path(state: ConflictState, text: str) -> list[int]:
    words = text.split()
    if not words:
        raise NotationError("a move needs its path: the squares after the start, e.g. 'e4 d4'")
    return [_square(state, word) for word in words]


def _seat(state: ConflictState, kind: int, seat_text: str | None, counts: list[int], row: str) -> int:
    """The seat of an ``enter`` or ``activate`` (CON-64's ``@seat`` rule)."""
    word = TYPE_NAMES[kind]
    if seat_text is not None:
        seat = int(seat_text) - 1
        if not 0 <= seat < 4:
            raise NotationError(f"there is no seat {seat_text}: seats are 1 to 4")
        if state.controller[seat] != state.seat:
            raise IllegalActionError(f"{word}@{seat_text}: you do not control seat {seat_text} "
                                     f"({_colour(seat)}) (CON-25)")
        if not counts[seat * TYPES + kind]:
            rule = "CON-36" if row == "available" else "CON-47"
            raise IllegalActionError(f"seat {seat_text} ({_colour(seat)}) has no {row} {word} ({rule})")
        return seat
    seats = _row_seats(state, counts, kind)
    if not seats:
        raise IllegalActionError(f"you have no {row} {word} ({'CON-36' if row == 'available' else 'CON-47'})")
    if len(seats) > 1:
        choices = " or ".join(f"{word}@{seat + 1}" for seat in seats)
        raise AmbiguousError(f"ambiguous: you have {row} {word}s of seats "
                             f"{' and '.join(str(seat + 1) for seat in seats)}; write {choices} (CON-64)")
    return seats[0]


def _activation(state: ConflictState, type_text: str, seat_text: str | None) -> Action:
    kind = parse_type(type_text)
    _check_phase(state, rolling=False)
    if not state.activation:
        assert state.dice is not None
        if sum(state.dice) != 7:
            a, b = state.dice
            raise IllegalActionError(f"no activation: the dice {a}-{b} do not sum to 7 (CON-47)")
        raise IllegalActionError("this roll's activation has been made: one per roll (CON-47)")
    seat = _seat(state, kind, seat_text, state.reserve, "reserve")
    return 1 + seat * TYPES + kind


def _own_piece(state: ConflictState, square: int) -> int:
    name = state.board.names[square]
    code = state.squares[square]
    if code == EMPTY:
        raise IllegalActionError(f"no piece stands on {name}")
    seat = code // TYPES
    if state.controller[seat] != state.seat:
        owner, controller = _colour(seat), _colour(state.controller[seat])
        control = "" if controller == owner else f", controlled by {controller}"
        raise IllegalActionError(f"the {LONG_NAMES[code % TYPES]} on {name} is not yours to move: it is "
                                 f"{owner}'s{control} (CON-25)")
    if square in state.moved:
        raise IllegalActionError(f"the piece on {name} has moved this roll: no piece moves twice in a roll "
                                 "(CON-29)")
    return code


def _colour(seat: int) -> str:
    """A seat (0-3) by its colour, as players are named (CON-17)."""
    return SEAT_COLOURS[seat].capitalize()


def _check_unused(state: ConflictState, die: int) -> None:
    if die not in state.unused:
        if not state.unused:
            raise IllegalActionError(f"no unused {die}: both dice are used (CON-28)")
        unused = " and ".join(str(d) for d in sorted(set(state.unused)))
        raise IllegalActionError(f"no unused {die}: the unused dice are {unused} (CON-28)")


def number_reason(state: ConflictState, action: Action) -> str | None:
    """Why a move, entry or activation given as a number is refused, where its text would not
    tell (``None``: ask the reader, ``parse``): an entry or activation of a seat's piece names the
    seat only when the mover has such pieces of several (CON-64), so its seat is checked here
    (CON-25, CON-36, CON-47); a walk no path makes has no text to read (CON-32, CON-33). The
    checks a typed decision meets before its path come first, in the reader's order."""
    board = state.board
    decision = decode(action, board.size)
    if decision is not None and decision.kind == "activate":  # its text too names a seat only at need
        try:
            _activation(state, TYPE_NAMES[decision.code % TYPES], str(decision.code // TYPES + 1))
        except IllegalActionError as refused:
            return refused.reason
        return None
    if decision is None or decision.kind not in ("move", "enter"):
        return None
    walkable = canonical_path(state, action) is not None
    if walkable and decision.kind == "move":
        return None
    try:
        _check_phase(state, rolling=False)
        if decision.kind == "move":
            code, start = _own_piece(state, decision.square), decision.square
        else:
            code, start = decision.code, board.bases[decision.code // TYPES]
            _seat(state, code % TYPES, str(code // TYPES + 1), state.available, "available")
        _check_unused(state, decision.die)
    except IllegalActionError as refused:
        return refused.reason
    if walkable:
        return None
    piece = with_article(LONG_NAMES[code % TYPES])
    return (f"no walk of exactly {decision.die} squares takes {piece} from {board.names[start]} to "
            f"{board.names[decision.final]} (CON-32, CON-33)")


def _walk(state: ConflictState, code: int, square: int, die: int, path: list[int]) -> int:
    """Checks a written path (CON-32 to CON-34, CON-64) and returns the end of its walk."""
    board = state.board
    names, cols = board.names, board.cols
    _check_unused(state, die)
    kind = code % TYPES
    cls = CLASS_OF[kind]
    start = square if square >= 0 else board.bases[code // TYPES]
    stops = _stops(state, code)
    if len(path) > die:
        raise IllegalActionError(f"a path of {len(path)} squares for a {die}: a move takes exactly {die} "
                                 "steps (CON-32)")
    if len(path) < die and not stops >> path[-1] & 1:
        raise IllegalActionError(f"a path must have {die} squares unless its walk stops at a hostile mine "
                                 "(CON-64)")
    previous, seen = start, 1 << start
    for at in path:
        name = names[at]
        if at == previous or abs(at // cols - previous // cols) > 1 or abs(at % cols - previous % cols) > 1:
            raise IllegalActionError(f"{name} is not next to {names[previous]} (CON-6, CON-32)")
        if not board.enterable[cls] >> at & 1:
            terrain, piece = _TERRAIN_WORDS[board.terrain[at]], with_article(LONG_NAMES[kind])
            raise IllegalActionError(f"{name} is {terrain}: {piece} may not enter it (CON-8, "
                                     "CON-33 item 1)")
        if at == start:
            raise IllegalActionError(f"the path returns to its start {name} (CON-33 item 2)")
        if seen >> at & 1:
            raise IllegalActionError(f"the path visits {name} twice (CON-33 item 2)")
        seen |= 1 << at
        previous = at
    stop = next((index for index, at in enumerate(path) if stops >> at & 1), None)
    if len(path) < die and stop != len(path) - 1:
        assert stop is not None
        raise IllegalActionError(f"the walk stops at the hostile mine on {names[path[stop]]}: write the path "
                                 f"up to it, or all {die} squares (CON-34, CON-64)")
    if stop is None:
        return path[-1]
    if len(path) < die and not board.extends(cls, path[-1], die - len(path), seen):
        raise IllegalActionError(f"the path cannot be completed to {die} steps without revisiting a square "
                                 "(CON-34)")
    return path[stop]


def _legal(state: ConflictState, action: Action, code: int, path: list[int]) -> Action:
    """The action if it is legal; else the reason why not (CON-33 items 4 and 5, CON-38)."""
    if state.is_legal(action):
        return action
    decision = decode(action, state.board.size)
    assert decision is not None
    final = decision.final
    name = state.board.names[final]
    kind = code % TYPES
    target = state.squares[final]
    if kind == AIRPLANE and not state.options["airplanes_on_mines"] and state.board.mine_seat[final] >= 0:
        raise IllegalActionError(f"an airplane may not end on a mine ({name}) when airplanes_on_mines is "
                                 "false")
    if target != EMPTY and state.controller[target // TYPES] == state.seat:
        raise IllegalActionError(f"the walk ends on {name}, where your own {LONG_NAMES[target % TYPES]} "
                                 "stands (CON-33 item 4)")
    if kind == AIRPLANE and target != EMPTY and target % TYPES in (AAGUN, SUBMARINE):
        victim = "an anti-aircraft gun" if target % TYPES == AAGUN else "a submarine"
        raise IllegalActionError(f"an airplane never captures {victim} ({name}; CON-38, CON-45 item 1)")
    raise IllegalActionError(f"the rules do not allow that walk here; the legal decisions are "
                             f"{state.legal_sample()}")
