"""Issue 18: "an illegal action says why, from the engine … in words": each refused Lines of Action
move names the rule it breaks (specs/loa.md, LOA-4 to LOA-11), whether it is typed
(``parse_action``) or played as a number (``play``, the server's gate), and changes nothing."""

from __future__ import annotations

import pytest

from parlour.engine import IllegalActionError
from parlour.games import get_game
from parlour.games.loa import LinesOfAction, LoaState
from parlour.games.loa.notation import parse_square

LOA: LinesOfAction = get_game("loa")  # type: ignore[assignment]

# Black a1 b1 d1 c5 h8, White a8 c3 e3 h1: nobody joined, Black to move. Row 1 holds a1 b1 d1 h1
# (4 pieces); the diagonal a1-h8 holds a1, c3 and h8 (3).
SET_UP = ["w------b", "--------", "--------", "--b-----", "--------", "--w-w---", "--------", "bb-b---w"]


def refused(state: LoaState, text: str) -> str:
    """The message the typed ``text`` is refused with; nothing changes."""
    before = state.position_json()
    with pytest.raises(IllegalActionError) as typed:
        state.parse_action(text)
    assert state.position_json() == before
    return str(typed.value)


def played(state: LoaState, text: str) -> str:
    """The message ``State.play`` refuses the move ``text`` (as a number) with."""
    origin, target = text.split("-")
    with pytest.raises(IllegalActionError) as error:
        state.play(parse_square(origin) * 64 + parse_square(target))
    return str(error.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # LOA-6: only the mover's own pieces move.
        ("e4-e6", "e4-e6: no piece of yours on e4 (LOA-6)"),
        ("a2-c2", "a2-c2: the piece on a2 is White's, not yours (LOA-6)"),
        # LOA-6: in a straight line, and somewhere.
        ("b1-c3", "b1-c3: c3 is not in a straight line from b1: a piece moves along its row, its column or "
                  "a diagonal (LOA-6)"),
        ("b1-b1", "b1-b1: a move takes the piece somewhere: b1 to b1 stays put (LOA-6)"),
        # LOA-7, the example: column b holds b1 and b8.
        ("b1-b4", "b1-b4: a piece on b1 moves exactly 2 squares along that line: the number of pieces on "
                  "the whole line (LOA-7)"),
        # LOA-11: a pass only without a move.
        ("pass", "pass: a side passes only when it has no move (LOA-11), and b1-h1 is one"),
        # LOA-4: an x marks a capture only.
        ("b1xb3", "b1xb3: not a capture, b3 is empty: write b1-b3 (LOA-4)"),
    ],
)
def test_the_initial_position_refuses_with_the_rule(text: str, message: str) -> None:
    assert refused(LOA.new(), text) == message


def test_the_distance_counts_every_piece_on_the_line() -> None:
    """LOA-7: row 1 holds four pieces, White's h1 among them; both directions use the same count."""
    state = LOA.from_rows(SET_UP)
    assert refused(state, "a1-c1") == (
        "a1-c1: a piece on a1 moves exactly 4 squares along that line: the number of pieces on the whole "
        "line (LOA-7)"
    )
    assert refused(state, "d1-b1") == (
        "d1-b1: a piece on d1 moves exactly 4 squares along that line: the number of pieces on the whole "
        "line (LOA-7)"
    )
    assert played(state, "a1-c1") == refused(state, "a1-c1")


def test_landing_on_your_own_piece_is_refused() -> None:
    """LOA-8: row 1 holds a1 b1 d1, all Black, so a1 moves three squares: on to its own d1."""
    rows = ["-------w", "--------", "-------w", "--------", "--------", "--------", "--------", "bb-b----"]
    state = LOA.from_rows(rows)
    assert refused(state, "a1-d1") == "a1-d1: d1 holds a piece of your own (LOA-8)"
    assert played(state, "a1-d1") == "a1-d1: d1 holds a piece of your own (LOA-8)"


def test_jumping_an_enemy_piece_is_refused() -> None:
    """LOA-9: the diagonal a1-h8 holds a1, c3 (White) and h8: a1 moves three squares, over c3."""
    state = LOA.from_rows(SET_UP)
    message = "a1-d4: it would jump over White's piece on c3: a piece jumps only its own side's pieces " \
        "(LOA-9)"
    assert refused(state, "a1-d4") == message
    assert played(state, "a1-d4") == message


def test_nothing_moves_once_the_game_is_over() -> None:
    """LOA-13.4, LOA-16: a move limit of one ply; the reason names how the game ended."""
    state = LOA.new(options={"move_limit": 1})
    state.play_text("b1-b3")
    assert refused(state, "a2-c2") == "the game is over (the move limit was reached)"
    assert played(state, "a2-c2") == "the game is over (the move limit was reached)"


def test_a_number_that_is_no_move_is_named_as_such() -> None:
    with pytest.raises(IllegalActionError) as error:
        LOA.new().play(10**6)
    assert str(error.value) == "action number 1000000: it is no action of Lines of Action"


def test_the_reason_is_carried_apart_from_the_move() -> None:
    """The error carries the why (``reason``) and the move (``action``) for a front end to show."""
    with pytest.raises(IllegalActionError) as error:
        LOA.new().parse_action("e4-e6")
    assert (error.value.action, error.value.reason) == ("e4-e6", "no piece of yours on e4 (LOA-6)")
