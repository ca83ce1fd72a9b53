"""Issue 18: an illegal Conflict decision says why, from the rules (specs/conflict.md), naming the
decision — typed (``parse_action``) or played as a number (``play``: the server's gate, which
once said only "illegal action: …"), and nothing changes."""

from __future__ import annotations

import pytest
from conflict_helpers import position, refused, square

from parlour.engine import IllegalActionError
from parlour.games.conflict import ConflictState
from parlour.games.conflict.actions import activate_action, enter_action, move_action, roll_action
from parlour.games.conflict.pieces import AIRPLANE, CANNON, SHIP

# Red's ship on k5 (water), Yellow's cannon on its base p16; Red has rolled 3-4.
ROLLED = "pieces 1S k5 4C p16\ndice 3-4"


def played(state: ConflictState, action: int) -> str:
    before = state.position_json()
    with pytest.raises(IllegalActionError) as error:
        state.play(action)
    assert state.position_json() == before
    return str(error.value)


def move(state: ConflictState, start: str, die: int, final: str) -> int:
    return move_action(state.board.size, square(state, start), die, square(state, final))


def test_a_piece_that_is_not_yours_or_not_there() -> None:
    """CON-25: the player on roll moves the pieces it controls."""
    state = position(ROLLED)
    assert played(state, move(state, "p16", 3, "m15")) == (
        "p16 3: m15: the cannon on p16 is not yours to move: it is Yellow's (CON-25)"
    )
    assert played(state, move(state, "l4", 3, "o4")) == "l4 3: o4: no piece stands on l4"
    assert "not yours to move" in refused(state, "p16 3: o15 n15 m15")


def test_the_dice_and_the_walk() -> None:
    """CON-28: an unused die; CON-32, CON-33: a walk of exactly the die, on terrain the piece may
    enter (a ship stays on water, CON-8)."""
    state = position(ROLLED)
    assert played(state, move(state, "k5", 5, "p5")) == (
        "k5 5: l4 m5 n5 o5 p5: no unused 5: the unused dice are 3 and 4 (CON-28)"
    )
    assert played(state, move(state, "k5", 3, "k10")) == (
        "k5 3: k10: no walk of exactly 3 squares takes a ship from k5 to k10 (CON-32, CON-33)"
    )
    assert refused(state, "k5 3: l5 m5 m4") == "m4 is land: a ship may not enter it (CON-8, CON-33 item 1)"
    assert refused(state, "k5 3: l5 m5 n5 o5") == (
        "a path of 4 squares for a 3: a move takes exactly 3 steps (CON-32)"
    )


def test_entering_and_activating() -> None:
    """CON-25, CON-36: only available pieces of seats you control enter; CON-47: an activation needs
    dice that sum to 7."""
    state = position(ROLLED)
    assert played(state, enter_action(state.board.size, 1, SHIP, 3, square(state, "m5"))).endswith(
        "you do not control seat 2 (Orange) (CON-25)")
    assert played(state, enter_action(state.board.size, 0, CANNON, 3, square(state, "h5"))) == (
        "enter cannon 3: h5: no walk of exactly 3 squares takes a cannon from e5 to h5 (CON-32, CON-33)"
    )
    doubles = position("dice 3-3")
    assert played(doubles, activate_action(0, AIRPLANE)) == (
        "activate airplane: no activation: the dice 3-3 do not sum to 7 (CON-47)"
    )


def test_the_phase_of_the_roll() -> None:
    """CON-26 to CON-28: dice first, then decisions; nothing once the game is over."""
    state = position(ROLLED)
    assert played(state, roll_action(1, 2)) == (
        "roll 1-2: the dice have been rolled: it is a decision of the player on roll"
    )
    over = position("pieces 1C d4\navailable 2 -\nreserve 2 -", players=2)
    assert over.is_over()
    assert played(over, roll_action(1, 2)).startswith("the game is over (")


def test_a_number_that_is_no_decision() -> None:
    state = position(ROLLED)
    assert played(state, 10**9) == "action number 1000000000: it is no action of Conflict"
