"""A Conflict position as text (CON-67, CON-69): the board, the dice, the rows, whose turn it is.

Every cell is three characters: a space between cells, a glyph and the number of the seat it
belongs to, so every row is as wide as the header and every glyph stands under its column's letter.
Terrain is ``.`` land, ``~`` water, ``#`` impassable; ``+2`` is seat 2's base, ``*1`` a land mine
and ``o1`` a water mine of seat 1; ``S1`` a seat-1 ship. A piece resting on a base or a mine shows
as the piece alone: a mark before it took the space between cells and read as the row shifted by
one column (issue 18); the seat lines name every base and mine. Colour is never needed (CON-69).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from parlour.engine import ABANDONED, JSONDict
from parlour.engine.leaving import RETIRED_WORDS
from parlour.games.conflict.maps import BASE, LAND, WATER
from parlour.games.conflict.pieces import (
    EMPTY,
    LONG_NAMES,
    SEAT_COLOURS,
    TYPE_LETTERS,
    TYPES,
    piece_text,
    with_article,
)
from parlour.games.conflict.position import CHANCE_PHASE, DECISION_PHASE, NO_OWNER, NO_PIECES, TAKEN_OVER

if TYPE_CHECKING:
    from parlour.games.conflict.rules import ConflictState, Event

_TERRAIN = {LAND: ".", WATER: "~", BASE: "+"}

SEAT_NAMES: Final = tuple(colour.capitalize() for colour in SEAT_COLOURS)
"""A seat's name, its colour: ``Red``, ``Orange``, ``Green``, ``Yellow`` (CON-17). The one source for
the texts, the threat warnings and the names the game gives its players."""


def _piece_name(code: int) -> str:
    """``orange cannon``: the piece's colour and type."""
    return f"{SEAT_COLOURS[code // TYPES]} {LONG_NAMES[code % TYPES]}"


def mover_piece(seat: int, code: int) -> str:
    """A piece as the player of ``seat`` calls it: its own (``ship``) or, for a piece of a colour it
    took over, with that colour (``orange ship``). The events say what it moves, the threat warnings
    which piece threatens it and which of its pieces is in danger."""
    kind = LONG_NAMES[code % TYPES]
    return kind if code // TYPES == seat else _piece_name(code)


def _names(seats: list[int]) -> str:
    """``Red``, ``Red and Green``, ``Red, Green and Yellow``."""
    names = [SEAT_NAMES[seat] for seat in seats]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _seat_name(seat: int) -> str:
    return f"{SEAT_NAMES[seat]} (seat {seat + 1})"


def _player_name(state: ConflictState, seat: int, viewer: int | None) -> str:
    you = " (you)" if viewer is not None and state.player_of[seat] == viewer else ""
    return f"{SEAT_NAMES[seat]}{you}"


def out_words(state: ConflictState, seat: int) -> str | None:
    """Why the player of ``seat`` is out, in words completing "Green is out: …"; ``None`` if in.

    A taken-over seat names the colour of the piece that took it (CON-45 item 2: its owner)."""
    reason = state.out[seat]
    if reason is None:
        return None
    if reason == TAKEN_OVER:
        return f"{SEAT_NAMES[state.owner[seat]]} took its home base"
    if reason == NO_PIECES:
        return "it has no pieces left"
    return RETIRED_WORDS[reason]


def _out_reason(state: ConflictState, seat: int) -> str:
    """The short reason of the seat lines and events: ``taken over``, ``no pieces``, ``resigned``,
    ``ran out of time``, ``was gone too long``."""
    reason = state.out[seat] or "out"
    return RETIRED_WORDS.get(reason, reason)


def _cell(state: ConflictState, square: int) -> str:
    board = state.board
    code = state.squares[square]
    base, mine = board.base_seat[square], board.mine_seat[square]
    terrain = board.terrain[square]
    if code != EMPTY:
        return f" {TYPE_LETTERS[code % TYPES]}{code // TYPES + 1}"
    if base >= 0:
        return f" +{base + 1}"
    if mine >= 0:
        return f" {'*' if terrain == LAND else 'o'}{mine + 1}"
    return f" {_TERRAIN.get(terrain, '#')} "


def board_lines(state: ConflictState) -> list[str]:
    """The header and one line per row, all of one width (a row is not cut after its last glyph)."""
    board = state.board
    lines = ["    " + "".join(f" {chr(ord('a') + col)} " for col in range(board.cols))]
    for row in range(board.rows):
        cells = "".join(_cell(state, row * board.cols + col) for col in range(board.cols))
        lines.append(f"{row + 1:>3} {cells}")
    return lines


def _row(state: ConflictState, counts: list[int], seats: list[int]) -> str:
    """Pieces of the given seats in type order (cannon, AA gun, airplane, ship, submarine)."""
    words = [
        f"{TYPE_LETTERS[kind]}{seat + 1}"
        for kind in range(TYPES)
        for seat in seats
        for _ in range(counts[seat * TYPES + kind])
    ]
    return " ".join(words) or "-"


def seat_lines(state: ConflictState, viewer: int | None) -> list[str]:
    """CON-67 items 3, 4 and 6: per seat its controller, and per player its rows."""
    lines = []
    for seat in range(4):
        controller = state.controller[seat]
        link = f" {seat + 1}→{state.owner[seat] + 1}" if state.owner[seat] != NO_OWNER else ""
        if seat not in state.occupied:
            status = "unused"
        elif state.out[seat] is not None:
            status = f"out: {_out_reason(state, seat)}"
        else:
            status = "in"
        control = f", controlled by seat {controller + 1}" if controller != seat else ""
        you = " (you)" if viewer is not None and state.player_of[seat] == viewer else ""
        names = state.board.names
        mines = " ".join(names[square] for square in state.board.mines[seat])
        lines.append(f"seat {seat + 1} {SEAT_COLOURS[seat]}{you}{link}: {status}{control}; base "
                     f"{names[state.board.bases[seat]]}, "
                     f"mines {mines}")
    for seat in state.players_in():
        seats = [s for s in range(4) if state.controller[s] == seat]
        name = _player_name(state, seat, viewer)
        lines.append(f"  {name} available: {_row(state, state.available, seats)}")
        groups = [f"seat {s + 1}: {_row(state, state.reserve, [s])}" for s in seats
                  if any(state.reserve[s * TYPES:(s + 1) * TYPES])]
        lines.append(f"  {_player_name(state, seat, viewer)} reserve:   {'; '.join(groups) or '-'}")
    return lines


def dice_line(state: ConflictState) -> str:
    """CON-67 item 1."""
    if state.phase != DECISION_PHASE or state.dice is None:
        last = next((e for e in reversed(state.log) if e.kind == "roll"), None)
        return f"Roll {state.rolls}: last dice {last.detail[0]}-{last.detail[1]}" if last else "No roll yet"
    a, b = state.dice
    unused = " ".join(str(d) for d in state.unused) or "none"
    line = f"Roll {state.rolls}: dice {a}-{b}, unused {unused}"
    if a + b == 7:
        line += ", activation " + ("open" if state.activation else "used")
    if a == b:
        line += " (a double: the same player rolls again)"
    return line


def turn_line(state: ConflictState, viewer: int | None) -> str:
    outcome = state.outcome()
    if outcome is not None:
        words = state.game.info.reason_words(outcome.reason)  # CON-59: the game's own words
        if outcome.winner is not None:
            winner = state.occupied[outcome.winner]
            return f"Game over: {SEAT_NAMES[winner]} wins ({words})"
        drawn = _names([state.occupied[p] for p, score in enumerate(outcome.scores) if score])
        if outcome.reason == ABANDONED:  # CON-58: no winner and no draw
            return f"Game over: nobody wins, with {drawn} still in ({words})"
        return f"Game over: a draw between {drawn} ({words})"
    name = _player_name(state, state.seat, viewer)
    yours = viewer is not None and state.player_of[state.seat] == viewer
    if state.phase == CHANCE_PHASE:
        return f"{name} to roll" + (": your turn" if yours else "")
    return f"{name} on roll" + (": your turn" if yours else "") + " (a move, 'activate TYPE' or 'end')"


def event_text(state: ConflictState, event: Event) -> str:
    """CON-67 item 2: one event as a message, a sentence of its own (a log shows one a line)."""
    text = _event_words(state, event)
    return text[0].upper() + text[1:]


def _event_words(state: ConflictState, event: Event) -> str:
    names = state.board.names
    who = SEAT_NAMES[event.seat]
    detail = event.detail
    if event.kind == "roll":
        return f"{who} rolls {detail[0]}-{detail[1]}"
    if event.kind == "move":
        code, start, final, die = detail
        piece = mover_piece(event.seat, code)
        if start < 0:  # an entry walks from its seat's base (CON-32)
            base = names[state.board.bases[code // TYPES]]
            entered = with_article(piece)
            return f"{who} enters {entered} at {base} and moves it to {names[final]} with the {die}"
        its = "its" if code // TYPES == event.seat else "the"
        return f"{who} moves {its} {piece} from {names[start]} to {names[final]} with the {die}"
    if event.kind == "activate":
        return f"{who} activates {with_article(mover_piece(event.seat, detail[0]))}"
    if event.kind == "capture":
        return f"the {_piece_name(detail[0])} on {names[detail[1]]} is captured"
    if event.kind == "mine":
        code, square, mine_seat = detail
        mine = f"{SEAT_NAMES[mine_seat]}'s mine on {names[square]}"
        return f"the {_piece_name(code)} is destroyed by {mine}"
    if event.kind == "takeover":
        taken, owner = detail  # CON-45: the taken seat's owner is the capturing piece's seat
        link = f"{taken + 1}→{owner + 1}"
        new_owner = f"{SEAT_NAMES[owner]} (seat {owner + 1}, {link})"
        return f"{who} takes over {_seat_name(taken)}: its owner is now {new_owner}"
    if event.kind == "out":
        return f"{who} is out ({_out_reason(state, event.seat)})"
    if event.kind == "end":
        forfeited = detail[1:]
        text = f"{who}'s roll ends" + (" automatically" if detail[0] else "")
        if forfeited:
            text += f" (unused: {' and '.join(str(d) for d in forfeited)})"
        return text
    outcome = state.outcome()
    if outcome is None:
        return "the game is over"
    return turn_line(state, None).removeprefix("Game over: ")


def event_texts(state: ConflictState, events: list[Event]) -> list[str]:
    return [event_text(state, event) for event in events]


def event_json(state: ConflictState, event: Event) -> JSONDict:
    """One event as data for front ends: ``kind``, ``seat`` (1–4, the seat on roll unless said
    otherwise) and the event's own fields; pieces as ``"2C"``, squares by name (CON-4)."""
    names = state.board.names
    data: JSONDict = {"kind": event.kind, "seat": event.seat + 1}
    detail = event.detail
    if event.kind == "roll":
        data["dice"] = list(detail)
    elif event.kind == "move":
        code, start, final, die = detail
        data |= {"piece": piece_text(code), "from": names[start] if start >= 0 else None,
                 "to": names[final], "die": die}
    elif event.kind == "activate":
        data["piece"] = piece_text(detail[0])
    elif event.kind == "capture":
        data |= {"piece": piece_text(detail[0]), "square": names[detail[1]]}
    elif event.kind == "mine":
        data |= {"piece": piece_text(detail[0]), "square": names[detail[1]], "mine": detail[2] + 1}
    elif event.kind == "takeover":
        taken, owner = detail
        data |= {"taken": taken + 1, "owner": owner + 1, "base": names[state.board.bases[taken]]}
    elif event.kind == "out":
        data["reason"] = state.out[event.seat] or "out"
    elif event.kind == "end":
        data |= {"automatic": bool(detail[0]), "unused": list(detail[1:])}
    return data


def board_text(state: ConflictState, viewer: int | None) -> str:
    lines = board_lines(state)
    lines += seat_lines(state, viewer)
    lines.append(dice_line(state))
    recent = state.recent_events()
    if recent:
        lines.append("Last: " + "; ".join(event_texts(state, recent)))
    if viewer is None:
        lines.append("You are watching.")
    lines.append(turn_line(state, viewer))
    return "\n".join(lines)
