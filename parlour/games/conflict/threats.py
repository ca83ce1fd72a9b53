"""Threat warnings (issue 16): the bases and pieces of each player that hostile pieces can reach on
their player's next roll, with the exact chance that the roll lets them.

A hostile piece threatens a square on a die value d when its player, to roll with the board as it
stands and a roll showing d, would be offered a move of it (an entry from its base included) whose
walked path ends there: the engine's own move generation answers that (``moves_with``), so
capture rules such as CON-38 (no airplane takes an AA gun or a submarine) hold without being
written again here. Chance: the sum over the 21 rolls (CON-61) of the rolls showing one such d.

Per player in the game, six move generations (one per die value); the list is the same for every
seat and spectator (nothing is hidden, CON-66) and kept on the state until its position changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from parlour.engine import JSONDict
from parlour.games.conflict.actions import ROLL, ROLL_ODDS, decode
from parlour.games.conflict.pieces import AIRPLANE, EMPTY, LONG_NAMES, SEAT_COLOURS, TYPE_NAMES, TYPES

if TYPE_CHECKING:
    from parlour.games.conflict.rules import ConflictState

DIE_VALUES: Final = range(1, 7)

ROLL_DICE: Final = tuple(
    (divmod(action - ROLL, 6)[0] + 1, divmod(action - ROLL, 6)[1] + 1, odds) for action, odds in ROLL_ODDS
)
"""The 21 rolls as (a, b, probability): 1/36 a double, 2/36 otherwise (CON-61)."""


class Reach(NamedTuple):
    """A hostile piece's way onto one square: the player whose roll it is (seat 0…3), the piece's
    code, its square (-1: entering from its seat's base), and the die values that take it there
    (a bitmask, bit d for the value d)."""

    player: int
    code: int
    start: int
    dice: int


def _chance(dice: int) -> float:
    return sum(odds for a, b, odds in ROLL_DICE if (dice >> a | dice >> b) & 1)


CHANCES: Final = tuple(_chance(dice) for dice in range(1 << 7))
"""Per mask of die values (bit d for the value d), the chance that a roll shows one of them."""


def chance(dice: int) -> float:
    """The probability that a roll shows one of the die values in the mask ``dice`` (bit d)."""
    return CHANCES[dice]


def die_values(dice: int) -> list[int]:
    """The die values of a mask (bit d for the value d), lowest first."""
    return [die for die in DIE_VALUES if dice >> die & 1]


def reaches(state: ConflictState) -> dict[int, list[Reach]]:
    """Every base or piece some hostile piece can end a move on, on its player's next roll:
    square → reaches. The players in the game, each with six move generations, and nothing else;
    the generations look only at bases and pieces (a flying airplane reaches a hundred squares)."""
    size, squares = state.board.size, state.squares
    targets = sum(1 << square for square in state.board.bases)
    for mask in state.seat_masks:
        targets |= mask
    found: dict[tuple[int, int], Reach] = {}
    for player in state.players_in():
        for die in DIE_VALUES:
            for action in state.moves_with(player, die, targets):
                decision = decode(action, size)
                assert decision is not None, "a move is a decision"
                if decision.kind == "move":
                    source = start = decision.square
                    code = squares[start]
                else:
                    source, code, start = size + decision.code, decision.code, -1
                key = (decision.final, source)
                known = found.get(key)
                found[key] = Reach(player, code, start, (known.dice if known else 0) | 1 << die)
    table: dict[int, list[Reach]] = {}
    for (final, _), reach in sorted(found.items()):
        table.setdefault(final, []).append(reach)
    return table


def threats(state: ConflictState, table: dict[int, list[Reach]]) -> list[JSONDict]:
    """The threats to every player in the game, most dangerous first: bases before pieces, then by
    chance. Each is ``against`` the seat (1-4) whose base or piece it is, and its text speaks to
    the player controlling that seat: Conflict hides nothing, so every seat and spectator gets the
    same list (a page shows its player the entries against seats it controls)."""
    controller, board, squares = state.controller, state.board, state.squares
    players = set(state.players_in())
    found = []
    for square, reach_list in table.items():
        code, base = squares[square], board.base_seat[square]
        against = base if base >= 0 else code // TYPES
        if code == EMPTY and base < 0:
            continue
        player = controller[against]
        if player not in players:  # an unused seat's base, or one a player out for lack of pieces holds
            continue
        for reach in reach_list:
            if reach.player != player:
                found.append(_threat(state, player, square, base if base >= 0 else None, reach))
    found.sort(key=lambda t: (t["target"] != "base", -t["chance"], t["order"]))
    for threat in found:
        del threat["order"]
    return found


def _threat(state: ConflictState, player: int, square: int, base: int | None, reach: Reach) -> JSONDict:
    board = state.board
    code = state.squares[square]
    against = base if base is not None else code // TYPES
    return {
        "square": board.names[square],
        "target": "base" if base is not None else "piece",
        "against": against + 1,
        "piece": TYPE_NAMES[code % TYPES] if code != EMPTY else None,
        "by": reach.code // TYPES + 1,
        "attacker": TYPE_NAMES[reach.code % TYPES],
        "from": board.names[reach.start] if reach.start >= 0 else None,
        "dice": die_values(reach.dice),
        "chance": round(chance(reach.dice), 4),
        "text": _text(state, player, square, base, reach),
        "order": (player, square, reach.code, reach.start),
    }


# --- the words ----------------------------------------------------------------------------------------


def _colour(seat: int) -> str:
    return SEAT_COLOURS[seat].capitalize()


def dice_words(values: list[int]) -> str:
    """``a 6``, ``a 2 or a 5``, ``a 1, a 3 or a 5``; a run up to 6 is ``a 4 or more``, all six
    ``any die``: short words for the common case, a piece that reaches a square on any die of
    at least its distance."""
    if values == list(DIE_VALUES):
        return "any die"
    if len(values) >= 3 and values == list(range(values[0], 7)):
        return f"a {values[0]} or more"
    words = [f"a {value}" for value in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _attacker_words(state: ConflictState, reach: Reach) -> str:
    """``Orange's cannon on k6``, ``Orange's airplane entering at p5``; a piece of a colour its
    player took over names both: ``Red's orange ship on m6``."""
    colour = reach.code // TYPES
    kind = LONG_NAMES[reach.code % TYPES]
    piece = kind if colour == reach.player else f"{SEAT_COLOURS[colour]} {kind}"
    names, bases = state.board.names, state.board.bases
    where = f"on {names[reach.start]}" if reach.start >= 0 else f"entering at {names[bases[colour]]}"
    return f"{_colour(reach.player)}'s {piece} {where}"


def _own_piece_words(seat: int, code: int) -> str:
    """``your ship``; ``your orange ship`` for a piece of a colour the viewer took over."""
    kind = LONG_NAMES[code % TYPES]
    return f"your {kind}" if code // TYPES == seat else f"your {SEAT_COLOURS[code // TYPES]} {kind}"


def _on_hostile_mine(state: ConflictState, square: int, reach: Reach) -> bool:
    """Whether the attacker's walk would end on a mine hostile to it (CON-42, CON-43): it is
    destroyed there, and the piece resting on the mine with it."""
    mine_seat = state.board.mine_seat[square]
    if mine_seat < 0 or state.controller[mine_seat] == reach.player:
        return False
    return bool(state.options["airplanes_on_mines"]) or reach.code % TYPES != AIRPLANE


def _text(state: ConflictState, seat: int, square: int, base: int | None, reach: Reach) -> str:
    """One plain sentence to the player of ``seat``: what of its is in danger, from which piece, on
    which dice, how likely."""
    names = state.board.names
    attacker = _attacker_words(state, reach)
    dice = f"with {dice_words(die_values(reach.dice))}"
    odds = f"({round(chance(reach.dice) * 100)} %)"
    how = f"{dice} {odds}"
    code = state.squares[square]
    if base is not None:
        held = "Your base" if base == seat else f"{_colour(base)}'s base on {names[square]}, now yours,"
        if code == EMPTY:
            return f"{held} is open: {attacker} reaches it {how}"
        return f"{held} is not safe: {attacker} can take {_own_piece_words(seat, code)} on it {how}"
    piece = _own_piece_words(seat, code)
    if _on_hostile_mine(state, square, reach):
        where = f"the mine under {piece} on {names[square]}"
        return f"{attacker} can run onto {where} {dice}, destroying both {odds}"
    return f"{attacker} can take {piece} on {names[square]} {how}"
