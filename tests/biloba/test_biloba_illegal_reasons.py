"""Issue 18: an illegal Biloba action says why, from the rules (specs/biloba.md): not your pawn
(BIL-7), steps and jumps (BIL-15, BIL-16), never backwards (BIL-19), the centre (BIL-16 to
BIL-18), replacements (BIL-28, BIL-30), passing (BIL-50) — typed or played as a number, and
nothing changes."""

from __future__ import annotations

import pytest

from parlour.engine import IllegalActionError
from parlour.games import get_game
from parlour.games.biloba import Biloba, BilobaState
from parlour.games.biloba.actions import move_action, replacement_action
from parlour.games.biloba.board import CENTRE, NON_PLAYABLE, tile_of
from parlour.games.biloba.notation import parse_tile

BILOBA: Biloba = get_game("biloba")  # type: ignore[assignment]


def position(pawns: str, to_move: str = "orange") -> BilobaState:
    """A two-player position from ``"O: c3 e3  B: d3"`` (a colour letter, then its tiles), at the
    start of ``to_move``'s turn."""
    cells: dict[int, str] = {}
    letter = ""
    for word in pawns.split():
        if word.endswith(":"):
            letter = word[:-1]
        else:
            cells[parse_tile(word)] = letter
    rows = ["".join("#" if tile_of(x, y) in NON_PLAYABLE else "*" if tile_of(x, y) == CENTRE
                    else cells.get(tile_of(x, y), ".") for x in range(9)) for y in range(9)]
    return BILOBA.from_rows(rows, to_move)


def refused(state: BilobaState, text: str) -> str:
    before = state.position_json()
    with pytest.raises(IllegalActionError) as error:
        state.parse_action(text)
    assert state.position_json() == before
    return str(error.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("e5-e6", "e5-e6: no pawn of yours (Orange) on e5"),
        ("e8-e7", "e8-e7: the pawn on e8 is Blue's, not yours (Orange)"),
        ("a1-a2", "a1-a2: a1 is a cut corner, not a playable tile (BIL-2)"),
        ("d2-d3", "d2-d3: d3 holds Orange's pawn: a pawn ends its move on an empty tile (BIL-15, BIL-16)"),
        ("c3-c6", "c3-c6: a pawn steps to a neighbouring tile or jumps over one pawn next to it, in a "
                  "straight line (BIL-15, BIL-16)"),
        ("e4-e5", "e4-e5: a pawn that steps on to e5 must go on at once to another neighbour of e5, written "
                  "e4-e5-TILE (BIL-18)"),
        ("c3>c4", "c3>c4: no replacement is pending: Orange must move (BIL-28)"),
        ("pass", "pass: there is no pass to choose: a player with no legal move passes automatically "
                 "(BIL-50)"),
    ],
)
def test_the_set_up_refuses_with_the_rule(text: str, message: str) -> None:
    assert refused(BILOBA.new(), text) == message


def test_a_jump_needs_a_pawn_to_jump_and_never_goes_backwards() -> None:
    """BIL-16: over one adjacent pawn; BIL-19: an orange pawn never jumps to a lower row."""
    state = position("O: d5 d4 f3  B: c9 d9 e9")
    assert refused(state, "f3-f5") == "f3-f5: a jump goes over a pawn, and f4 is empty (BIL-16)"
    assert refused(state, "d5-d3") == (
        "d5-d3: Orange may not jump backwards, away from the other side (BIL-19)"
    )
    with pytest.raises(IllegalActionError, match=r"^d5-d3: Orange may not jump backwards"):
        state.play(move_action(parse_tile("d5"), parse_tile("d3")))


def test_the_centre_rules_are_named() -> None:
    """BIL-16: no jump lands on e5; BIL-17: only from a neighbour, while another is empty; BIL-18:
    never back where the pawn came from."""
    state = position("O: e3 e4 d4 c1  B: c9 d9 e9")
    assert refused(state, "e3-e5") == "e3-e5: a jump may not land on e5 (BIL-16)"
    assert refused(state, "d4-e5-d4") == (
        "d4-e5-d4: from e5 the pawn may not go back to d4, where it came from (BIL-18)"
    )
    assert refused(state, "d4-e5-e4") == (
        "d4-e5-e4: e4 holds Orange's pawn: a pawn ends its move on an empty tile (BIL-15, BIL-16)"
    )
    full = position("O: d4 e4 f4 d5 f5 d6 e6 f6  B: c9 d9 e9")
    # BIL-17 before BIL-18: a step on to e5 while its other neighbours are all taken is refused
    # for that, not for the continuation it lacks.
    assert refused(full, "d4-e5") == (
        "d4-e5: e5 may be entered only while one of its other neighbours is empty (BIL-17)"
    )
    with pytest.raises(IllegalActionError) as error:
        full.play(move_action(parse_tile("d4"), parse_tile("e5"), parse_tile("f6")))
    assert str(error.value) == (
        "d4-e5-f6: f6 holds Orange's pawn: a pawn ends its move on an empty tile (BIL-15, BIL-16)"
    )


def test_replacements_name_the_pending_pawns_and_their_tiles() -> None:
    """BIL-28: only a pending pawn moves, on to one of its own empty vacated tiles, and nothing else
    until the replacements are made."""
    state = position("O: c3 e3 g3 c5 a5  B: d3 f3 c4 c7 e8 g8")  # d3, f3 and c4 are taken at once
    assert refused(state, "g3>d3") == (
        "g3>d3: d3 is not one of the vacated tiles the pawn on g3 may fill: f3 (BIL-28)"
    )
    assert refused(state, "a5>a4") == (
        "a5>a4: the pawn on a5 flanked no captured pawn whose tile is still empty: the pending pawns are "
        "c3, c5, e3, g3 (BIL-28)"
    )
    assert refused(state, "c3-c2").startswith("c3-c2: Orange must first replace captured pawns (BIL-28): ")
    with pytest.raises(IllegalActionError, match=r"^g3>d3: d3 is not one of the vacated tiles"):
        state.play(replacement_action(parse_tile("g3"), parse_tile("d3")))
