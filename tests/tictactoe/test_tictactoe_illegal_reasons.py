"""Issue 18: an illegal tic-tac-toe move says why (TTT-3 to TTT-5), typed or played as a number."""

from __future__ import annotations

import pytest

from parlour.engine import IllegalActionError, State
from parlour.games import get_game

GAME = get_game("tictactoe")


def played(*texts: str) -> State:
    state = GAME.new()
    for text in texts:
        state.play_text(text)
    return state


def refusal(state: State, text: str) -> IllegalActionError:
    before = state.position_json()
    with pytest.raises(IllegalActionError) as error:
        state.parse_action(text)
    assert state.position_json() == before
    return error.value


def test_a_taken_square_names_its_mark() -> None:
    """TTT-3: a mark goes on an empty square."""
    state = played("b2", "a1")
    error = refusal(state, "B2")
    assert str(error) == "b2: already holds an X, and a mark goes only on an empty square (TTT-3)"
    assert error.action == "b2"
    assert error.reason == "already holds an X, and a mark goes only on an empty square (TTT-3)"
    with pytest.raises(IllegalActionError, match=r"^a1: already holds an O, and a mark goes only"):
        state.play(0)


def test_nothing_goes_on_a_finished_board_and_the_reason_says_how_it_ended() -> None:
    """TTT-4: three in a row ends the game."""
    state = played("a1", "a2", "b1", "b2", "c1")
    assert str(refusal(state, "c3")) == "the game is over (three in a row)"
    with pytest.raises(IllegalActionError, match=r"^the game is over \(three in a row\)$"):
        state.play(8)


def test_a_number_that_is_no_square_is_named_as_such() -> None:
    for action in (9, 10**6):
        with pytest.raises(IllegalActionError, match=rf"^action number {action}: it is no action of Tic-tac"):
            GAME.new().play(action)


def test_the_engine_default_points_at_the_legal_moves() -> None:
    """A game that gives no reasons of its own still says more than "illegal" (``State.illegal_reason``):
    here asked of tic-tac-toe's state as if it had none."""
    state = played("b2", "a1")
    assert State.illegal_reason(state, 4) == (
        "the rules do not allow it here; the legal actions are b1, c1, a2, c2, a3, b3, … (7 in all)"
    )
    assert State.illegal_reason(state, 42) == "it is no action of Tic-tac-toe"
