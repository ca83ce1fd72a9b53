"""Tic-tac-toe from first principles (the rules TTT-1 to TTT-6 in ``parlour/games/tictactoe/rules.py``)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from parlour.engine import (
    ABANDONED,
    AGREED,
    GONE,
    NOBODY,
    OUT_OF_TIME,
    RESIGNED,
    FormatError,
    IllegalActionError,
    NotationError,
    Outcome,
    retirement,
)
from parlour.engine.perft import perft
from parlour.games import get_game
from parlour.games.tictactoe import TicTacToeState

GAME = get_game("tictactoe")


def position(rows: str, to_move: str) -> TicTacToeState:
    """A set-up position from its rows, row 3 first: ``"x-o/-x-/o--"``."""
    state = GAME.new(start={"board": rows.split("/"), "to_move": to_move})
    assert isinstance(state, TicTacToeState)
    return state


def played(*moves: str) -> TicTacToeState:
    state = GAME.new()
    assert isinstance(state, TicTacToeState)
    for move in moves:
        state.play_text(move)
    return state


# --- TTT-1: the board and its squares ------------------------------------------------------------


def test_squares_are_named_by_file_and_row_from_the_bottom_left() -> None:
    # TTT-1
    names = [GAME.new().action_to_text(square) for square in range(9)]
    assert names == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    state = played("a1", "c3")
    assert state.position_json()["board"] == ["--o", "---", "x--"]


def test_the_board_prints_row_three_on_top() -> None:
    # TTT-1
    assert played("b2", "a3", "c1").render() == "\n".join(
        [" 3  o - -", " 2  - x -", " 1  - - x", "    a b c", "O to move", "Last move: c1"]
    )


# --- TTT-2: who moves ----------------------------------------------------------------------------


def test_x_moves_first_and_the_players_alternate() -> None:
    # TTT-2
    state = GAME.new()
    assert state.seat_names() == ["X", "O"]
    movers = []
    for move in ("a1", "b1", "c1", "a2"):
        movers.append(state.to_move())
        state.play_text(move)
    assert movers == [0, 1, 0, 1]
    assert state.position_json()["board"] == ["---", "o--", "xox"]


# --- TTT-3: moves --------------------------------------------------------------------------------


def test_the_legal_moves_are_the_empty_squares() -> None:
    # TTT-3
    state = position("x-o/-x-/o--", "x")
    assert [state.action_to_text(a) for a in state.legal_actions()] == ["b1", "c1", "a2", "c2", "b3"]
    assert len(GAME.new().legal_actions()) == 9


def test_a_taken_square_is_refused_with_its_owner() -> None:
    # TTT-3
    state = played("b2", "a1")
    with pytest.raises(IllegalActionError, match="b2: already holds an X"):
        state.parse_action("b2")
    with pytest.raises(IllegalActionError, match="a1: already holds an O"):
        state.play_text("A1")
    assert not state.is_legal(4)


@pytest.mark.parametrize("text", ["", "d1", "a4", "b", "b22", "pass", "x b2", "22"])
def test_text_that_is_not_a_square_is_a_notation_error(text: str) -> None:
    # TTT-3: a move is a square, nothing else (no pass)
    with pytest.raises(NotationError):
        GAME.new().parse_action(text)


def test_a_move_is_read_in_any_case_and_with_spaces() -> None:
    # TTT-3
    assert GAME.new().parse_action("  C3 ") == 8


def test_is_legal_agrees_with_the_list_everywhere() -> None:
    # TTT-3, on every position reachable from the start and every number a caller might send
    seen: set[int] = set()

    def walk(state: TicTacToeState) -> None:
        if state.position_key() in seen:
            return
        seen.add(state.position_key())
        legal = set(state.legal_actions())
        assert {a for a in range(-2, 12) if state.is_legal(a)} == legal
        for action in legal:
            state.apply(action)
            walk(state)
            state.undo()

    walk(GAME.new())  # type: ignore[arg-type]
    assert len(seen) == 5478  # the reachable positions of tic-tac-toe, empty board included


# --- TTT-4 and TTT-5: the end --------------------------------------------------------------------

# For each of the eight lines: a position with X to complete it at the given square.
LINE_POSITIONS = [
    ("---/-oo/xx-", "c1", ["a1", "b1", "c1"]),
    ("-o-/xx-/o--", "c2", ["a2", "b2", "c2"]),
    ("xx-/---/oo-", "c3", ["a3", "b3", "c3"]),
    ("x--/xoo/---", "a1", ["a1", "a2", "a3"]),
    ("ox-/-x-/o--", "b1", ["b1", "b2", "b3"]),
    ("o-x/--x/-o-", "c1", ["c1", "c2", "c3"]),
    ("-o-/-x-/x-o", "c3", ["a1", "b2", "c3"]),
    ("---/-x-/oox", "a3", ["c1", "b2", "a3"]),
]


@pytest.mark.parametrize(("rows", "move", "line"), LINE_POSITIONS)
def test_three_in_a_line_wins_at_once(rows: str, move: str, line: list[str]) -> None:
    # TTT-4: every row, file and diagonal
    state = position(rows, "x")
    assert state.outcome() is None
    state.play_text(move)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 0
    assert outcome.reason == "three-in-a-row"
    assert state.to_move() == NOBODY
    assert state.legal_actions() == []
    assert sorted(state.view(None)["content"]["line"]) == sorted(line)
    assert state.view(1)["outcome"]["words"] == "three in a row"


def test_o_wins_with_a_line_too() -> None:
    # TTT-4
    state = played("a1", "b2", "c1", "b1", "a2", "b3")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 1
    assert state.view(0)["outcome"] == {
        "winner": 1, "reason": "three-in-a-row", "scores": [], "words": "three in a row"
    }


def test_a_full_board_without_a_line_is_a_draw() -> None:
    # TTT-5
    state = played("b2", "a1", "c3", "a3", "a2", "c2", "b3", "b1", "c1")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert outcome.reason == "full-board"
    assert state.view(None)["content"]["line"] is None
    assert GAME.info.reason_words(outcome.reason) == "the board is full"


def test_the_last_square_can_still_win() -> None:
    # TTT-4 before TTT-5: a line made on the ninth move wins, though the board is full
    state = position("oox/xxo/-xo", "x")
    state.play_text("a1")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 0


def test_every_game_of_tic_tac_toe_counted() -> None:
    # TTT-2 to TTT-5 together: the well-known totals of the whole game tree. The games from a
    # position depend on the position only, so each position is counted once.
    memo: dict[int, Counter[tuple[int | None, int]]] = {}

    def games(state: TicTacToeState) -> Counter[tuple[int | None, int]]:
        """(winner, number of moves) → how many games from ``state`` end so."""
        outcome = state.outcome()
        if outcome is not None:
            return Counter({(outcome.winner, len(state.history)): 1})
        key = state.position_key()
        if key not in memo:
            total: Counter[tuple[int | None, int]] = Counter()
            for action in state.legal_actions():
                state.apply(action)
                total += games(state)
                state.undo()
            memo[key] = total
        return memo[key]

    ends = games(GAME.new())  # type: ignore[arg-type]
    winners: Counter[int | None] = Counter()
    for (winner, _), count in ends.items():
        winners[winner] += count
    assert sum(ends.values()) == 255_168
    assert winners == {0: 131_184, 1: 77_904, None: 46_080}
    # The quickest win is X's at the fifth move: 8 lines, 3! orders of X's marks, O's two
    # marks on 2 of the 6 other squares in either order.
    assert min(moves for _, moves in ends) == 5
    assert ends[(0, 5)] == 8 * 6 * 15 * 2
    assert sum(count for (_, moves), count in ends.items() if moves == 9) == 81_792 + 46_080


def test_perft_counts() -> None:
    # TTT-3, TTT-4: sequences of moves (9 · 8 · 7 · … until the first wins at move 5)
    state = GAME.new()
    assert [perft(state, depth) for depth in range(1, 7)] == [9, 72, 504, 3_024, 15_120, 54_720]


# --- TTT-6: set-up positions ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "reason"),
    [
        ({"board": ["---", "---"], "to_move": "x"}, "3 rows"),
        ({"board": ["---", "-q-", "---"], "to_move": "x"}, "row 2"),
        ({"board": ["---", "----", "---"], "to_move": "x"}, "row 2"),
        ({"board": ["---", "-x-", "---"], "to_move": "x"}, "X cannot be to move"),
        ({"board": ["---", "-x-", "---"], "to_move": "y"}, "'to_move'"),
        ({"board": ["o--", "-x-", "---"], "to_move": "o"}, "O cannot be to move"),
        ({"board": ["xxx", "oo-", "o--"], "to_move": "x"}, "X has three in a row"),
        (["x--"], "JSON object"),
    ],
)
def test_impossible_positions_are_refused(start: object, reason: str) -> None:
    # TTT-6
    with pytest.raises(FormatError, match=reason):
        GAME.new(start=start)  # type: ignore[arg-type]


def test_a_position_already_won_is_over() -> None:
    # TTT-6 with TTT-4: O to move after X made a line
    state = position("xxx/oo-/---", "o")
    assert state.is_over()
    assert state.outcome() is not None


# --- TTT-7: leaving the table -------------------------------------------------------------------


def test_o_resigns_with_x_threatening_and_x_wins_at_once() -> None:
    # TTT-7: the marks stay as they are; no line is drawn for a win by resignation.
    state = played("a1", "b2", "a2")
    state.retire(1, RESIGNED)
    assert state.outcome() == Outcome(0, RESIGNED)
    assert state.to_move() == NOBODY
    assert state.legal_actions() == []
    assert state.position_json()["board"] == ["---", "xo-", "x--"]
    assert state.action_to_text(state.history[-1]) == "O resigned"
    view = state.view(None)
    assert view["outcome"] == {
        "winner": 0,
        "reason": "resigned",
        "scores": [],
        "words": "the other side resigned",
    }
    assert view["content"]["line"] is None
    assert view["content"]["last_move"] == "a2"
    assert state.render().splitlines()[-1] == "O resigned"
    with pytest.raises(IllegalActionError, match="over"):
        state.play_text("a3")


@pytest.mark.parametrize(("why", "words"), [(OUT_OF_TIME, "ran out of time"), (GONE, "was gone too long")])
def test_x_leaves_on_its_own_turn_and_o_wins(why: str, words: str) -> None:
    # TTT-7
    state = played("b2", "a1")
    state.retire(0, why)
    assert state.outcome() == Outcome(1, why)
    assert state.action_to_text(state.history[-1]) == f"X {words}"


def test_an_agreed_draw_and_an_abandoned_match_are_draws() -> None:
    # TTT-7
    for end, reason in ((TicTacToeState.agree_draw, AGREED), (TicTacToeState.abandon, ABANDONED)):
        state = played("b2")
        end(state)
        assert state.outcome() == Outcome(None, reason)
        assert state.to_move() == NOBODY


def test_leaving_is_undone_and_replayed() -> None:
    # TTT-7: a leaving action is in the record like a move.
    state = played("b2", "a1")
    before = (state.position_json(), state.position_key(), state.legal_actions(), state.outcome())
    state.retire(1, RESIGNED)
    assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    state.undo()
    assert (state.position_json(), state.position_key(), state.legal_actions(), state.outcome()) == before
    state.play_text("c3")
    assert state.to_move() == 1


def test_a_leaving_action_is_never_a_move() -> None:
    # TTT-7: nobody chooses to leave by a move; no negative number is legal.
    state = played("b2")
    for action in (-1, -16, -17, retirement(0, RESIGNED), retirement(1, GONE)):
        assert not state.is_legal(action)
        with pytest.raises(IllegalActionError):
            state.play(action)


# --- the contract, as tic-tac-toe meets it -------------------------------------------------------


def test_undo_restores_and_copies_are_independent() -> None:
    state = played("b2", "a1", "c3")
    before = (state.position_json(), state.position_key(), state.legal_actions())
    clone = state.copy()
    clone.play_text("a3")
    assert (state.position_json(), state.position_key(), state.legal_actions()) == before
    clone.undo()
    assert (clone.position_json(), clone.position_key(), clone.legal_actions()) == before
    with pytest.raises(IllegalActionError):
        GAME.new().undo()


def test_the_view_is_the_envelope_with_the_whole_position() -> None:
    state = GAME.new(seed=99)
    state.play_text("b2")
    view = state.view(1)
    assert view == {
        "game": "tictactoe",
        "seat": 1,
        "seats": ["X", "O"],
        "options": {},
        "to_move": 1,
        "outcome": None,
        "out": [None, None],
        "content": {
            "position": {"board": ["---", "-x-", "---"], "to_move": "o"},
            "last_move": "b2",
            "line": None,
        },
    }
    assert "99" not in json.dumps(view)  # a view never holds the seed


def test_a_state_sampled_from_a_view_is_the_same_position() -> None:
    state = played("a1", "b2", "c3", "c1")
    sampled = GAME.sample_state(state.view(0), random.Random(1))
    assert sampled.position_json() == state.position_json()
    assert sampled.legal_actions() == state.legal_actions()
    assert sampled.position_key() == state.position_key()


def test_action_parts_name_the_square() -> None:
    state = played("b2")
    assert state.action_parts(0) == {"kind": "place", "to": "a1"}


def test_a_state_has_no_dict() -> None:
    assert not hasattr(GAME.new(), "__dict__")


def test_the_example_is_not_offered_in_the_lobby() -> None:
    assert GAME.info.listed is False
    assert set(GAME.info.end_reasons) == {"three-in-a-row", "full-board"}
