"""Threat warnings (issue 16): "before a roll ends, the squares and home bases that enemy pieces can
reach on their next roll are shown, with the chance". They are for the player on roll, the one who
must decide before its roll ends: its bases and pieces that hostile pieces can reach on their
player's next roll, one entry a square and hostile player, with the exact chance that the roll lets
any of that player's pieces end there.

A hostile piece threatens a square on a die value d when its player, to roll with the board as it
stands and a roll showing d, would be offered a move of it (an entry from its base included) whose
walked path ends there: the engine's own move generation answers that (``moves_with``), so
capture rules such as CON-38 (no airplane takes an AA gun or a submarine) hold without being
written again here. Chance: the sum over the 21 rolls (CON-61) of the rolls showing one such d.

Per hostile player, one move generation for all six die values, looking only at the squares of the
player on roll; the list is the same for every seat and spectator (nothing is hidden, CON-66) and
kept on the state until its position changes. Only the player on roll's threats travel: every
update carries the list, and the others' would be stale by the time they decide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from parlour.engine import JSONDict
from parlour.games.conflict.actions import ROLL, ROLL_ODDS, decode
from parlour.games.conflict.pieces import AIRPLANE, EMPTY, TYPE_NAMES, TYPES
from parlour.games.conflict.render import SEAT_NAMES, mover_piece

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
    as a bitmask (bit d for the value d; the view's ``dice`` lists them, ``die_values``)."""

    player: int
    code: int
    start: int
    dice_mask: int


def _chance(dice_mask: int) -> float:
    return sum(odds for a, b, odds in ROLL_DICE if (dice_mask >> a | dice_mask >> b) & 1)


CHANCES: Final = tuple(_chance(dice_mask) for dice_mask in range(1 << 7))
"""Per mask of die values (bit d for the value d), the chance that a roll shows one of them."""


def chance(dice_mask: int) -> float:
    """The probability that a roll shows one of the die values in ``dice_mask`` (bit d)."""
    return CHANCES[dice_mask]


def die_values(dice_mask: int) -> list[int]:
    """The die values of a mask (bit d for the value d), lowest first."""
    return [die for die in DIE_VALUES if dice_mask >> die & 1]


def _guarded(state: ConflictState) -> int:
    """The squares the player on roll must guard, as a mask: the bases of the seats it controls
    (CON-23) and the pieces of those seats' colours."""
    roller, controller, board = state.seat, state.controller, state.board
    mask = 0
    for seat, square in enumerate(board.bases):
        if controller[seat] == roller:
            mask |= 1 << square | state.seat_masks[seat]
    return mask


def reaches(state: ConflictState) -> dict[int, list[Reach]]:
    """Every base or piece of the player on roll that some hostile piece can end a move on, on its
    player's next roll: square → reaches. Each other player in the game, with one move
    generation for all six die values; the generations look only at the guarded squares (a flying
    airplane reaches a hundred squares)."""
    size, squares = state.board.size, state.squares
    targets = _guarded(state)
    found: dict[tuple[int, int], Reach] = {}
    for player in state.players_in():
        if player == state.seat:
            continue
        for action in state.moves_with(player, tuple(DIE_VALUES), targets):
            decision = decode(action, size)
            assert decision is not None, "a move is a decision"
            if decision.kind == "move":
                source = start = decision.square
                code = squares[start]
            else:
                source, code, start = size + decision.code, decision.code, -1
            key = (decision.final, source)
            known = found.get(key)
            found[key] = Reach(player, code, start, (known.dice_mask if known else 0) | 1 << decision.die)
    table: dict[int, list[Reach]] = {}
    for (final, _), reach in sorted(found.items()):
        table.setdefault(final, []).append(reach)
    return table


def threats(state: ConflictState, table: dict[int, list[Reach]]) -> list[JSONDict]:
    """The threats to the player on roll, most dangerous first: bases before pieces, then by
    chance. One entry a (square, hostile player): ``chance`` that the player's roll lets any of
    its pieces end there; ``attacker``, ``from`` and ``dice`` name its most dangerous piece and
    ``others`` counts the rest. Each is ``against`` the seat (1-4) whose base or piece it is, and
    its text speaks to the player on roll: Conflict hides nothing, so every seat and spectator
    gets the same list."""
    roller, controller, board, squares = state.seat, state.controller, state.board, state.squares
    found = []
    for square, reach_list in table.items():
        code, base = squares[square], board.base_seat[square]
        against = base if base >= 0 else code // TYPES
        if (code == EMPTY and base < 0) or controller[against] != roller:
            continue
        by_player: dict[int, list[Reach]] = {}
        for reach in reach_list:
            by_player.setdefault(reach.player, []).append(reach)
        for player, group in by_player.items():
            found.append(_threat(state, square, base if base >= 0 else None, group, (square, player)))
    found.sort(key=lambda t: (t["target"] != "base", -t["chance"], t["order"]))
    for threat in found:
        del threat["order"]
    return found


def _threat(
    state: ConflictState, square: int, base: int | None, group: list[Reach], order: tuple[int, int]
) -> JSONDict:
    """One hostile player's threat to ``square``: its most dangerous piece (the likeliest, then the
    first in square order), the chance of any of them."""
    board = state.board
    code = state.squares[square]
    against = base if base is not None else code // TYPES
    best = min(group, key=lambda reach: -chance(reach.dice_mask))
    any_mask = 0  # the die values that let any of the player's pieces end there
    for reach in group:
        any_mask |= reach.dice_mask
    return {
        "square": board.names[square],
        "target": "base" if base is not None else "piece",
        "against": against + 1,
        "piece": TYPE_NAMES[code % TYPES] if code != EMPTY else None,
        "by": best.code // TYPES + 1,
        "attacker": TYPE_NAMES[best.code % TYPES],
        "from": board.names[best.start] if best.start >= 0 else None,
        "dice": die_values(best.dice_mask),
        "others": len(group) - 1,
        "chance": round(chance(any_mask), 4),
        "text": _text(state, square, base, best, len(group) - 1, chance(any_mask)),
        "order": order,
    }


# --- the words ----------------------------------------------------------------------------------------


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
    names, base = state.board.names, state.board.bases[reach.code // TYPES]  # an entry walks from it
    where = f"on {names[reach.start]}" if reach.start >= 0 else f"entering at {names[base]}"
    return f"{SEAT_NAMES[reach.player]}'s {mover_piece(reach.player, reach.code)} {where}"


def _on_hostile_mine(state: ConflictState, square: int, reach: Reach) -> bool:
    """Whether the attacker's walk would end on a mine hostile to it (CON-42, CON-43): it is
    destroyed there, and the piece resting on the mine with it."""
    mine_seat = state.board.mine_seat[square]
    if mine_seat < 0 or state.controller[mine_seat] == reach.player:
        return False
    return bool(state.options["airplanes_on_mines"]) or reach.code % TYPES != AIRPLANE


def _odds_words(others: int, chance: float) -> str:
    """`` (31 %)``; with more pieces that can reach the square, ``; 2 more pieces can too (80 % in
    all)``, the chance being that of any of them."""
    percent = round(chance * 100)
    if not others:
        return f" ({percent} %)"
    return f"; {others} more {'piece' if others == 1 else 'pieces'} can too ({percent} % in all)"


def _text(
    state: ConflictState, square: int, base: int | None, best: Reach, others: int, chance: float
) -> str:
    """One plain sentence to the player on roll: what of its is in danger, from which piece (the
    most dangerous), on which dice, how many ``others`` can, and the ``chance`` of any of them."""
    seat, names = state.seat, state.board.names
    attacker = _attacker_words(state, best)
    dice = f"with {dice_words(die_values(best.dice_mask))}"
    odds = _odds_words(others, chance)
    how = f"{dice}{odds}"
    code = state.squares[square]
    if base is not None:
        held = "Your base" if base == seat else f"{SEAT_NAMES[base]}'s base on {names[square]}, now yours,"
        if code == EMPTY:
            return f"{held} is open: {attacker} reaches it {how}"
        return f"{held} is not safe: {attacker} can take your {mover_piece(seat, code)} on it {how}"
    piece = f"your {mover_piece(seat, code)}"
    if _on_hostile_mine(state, square, best):
        where = f"the mine under {piece} on {names[square]}"
        return f"{attacker} can run onto {where} {dice}, destroying both{odds}"
    return f"{attacker} can take {piece} on {names[square]} {how}"
