"""Leaving the table in Biloba (BIL-39, with BIL-34, BIL-36/37 and BIL-51): worked examples.

A seat may retire at any moment, whoever is to move. With two seats in play the other wins at
once, for the reason given. With three or four, the seat's pawns leave the board at once (not a
capture: no replacements), the seat is out, and the game goes on among the others; a turn the
seat was in the middle of is dropped and passes to the next seat in play.
"""

from __future__ import annotations

import random

import pytest
from test_biloba_rules import BILOBA, events, position, result, rows, texts

from parlour.bots import bot_kinds, make_bot, seen_by
from parlour.engine import GONE, OUT_OF_TIME, RESIGNED, IllegalActionError, retirement
from parlour.games.biloba import MOVE, OVER, REPLACE
from parlour.games.biloba.position import board_rows

ORANGE, BLUE, RED, GREEN = range(4)


def test_with_two_players_the_other_seat_wins_at_once() -> None:
    """BIL-39: blue resigns while orange is to move; the board stays as it was."""
    state = BILOBA.new()
    start = state.rows()
    state.retire(BLUE, RESIGNED)
    assert result(state) == ("orange", "resigned")
    assert state.phase == OVER
    assert state.legal_actions() == []
    assert state.rows() == start
    assert list(state.counts) == [16, 16]
    assert state.seats_out() == [None, None]  # the game is over: the outcome says it
    assert state.action_to_text(state.history[-1]) == "Blue resigned"
    assert state.turn_records() == ["B: resigned"]
    assert state.view(None)["outcome"]["words"]
    state.undo()
    assert state.to_move() == ORANGE
    assert len(state.legal_actions()) == 68


def test_a_seat_can_run_out_of_time_in_the_middle_of_its_replacements() -> None:
    """BIL-39: orange's forced captures await their replacements (BIL-28) when its clock runs
    out: blue wins, and nothing is replaced."""
    state = position("O: c3 e3 g3 c5  B: d3 f3 c4 c7 e8 g8")
    assert texts(state)[:2] == ["c3>c4", "c3>d3"]
    state.retire(ORANGE, OUT_OF_TIME)
    assert result(state) == ("blue", "out-of-time")
    assert state.pending == {}
    assert board_rows(state.board) == rows("O: c3 e3 g3 c5  B: c7 e8 g8")


def test_in_a_three_player_game_the_pawns_leave_and_the_game_goes_on() -> None:
    """BIL-39: blue resigns on orange's turn. Its three pawns leave at once (no capture, no
    replacement), orange goes on with its turn, and blue's turns are skipped from then on."""
    state = position("O: d3 c1 d1  B: d4 h5 h6  R: d8 e8 f8", players=3)
    assert "d3-d5" in texts(state)  # a jump over blue's d4
    state.retire(BLUE, RESIGNED)
    assert board_rows(state.board) == rows("O: d3 c1 d1  R: d8 e8 f8")
    assert list(state.counts) == [3, 0, 3]
    assert events(state, "retired") == [(1, "blue", ["d4", "h5", "h6"])]
    assert events(state, "capture") == []
    assert state.seats_out() == [None, "resigned", None]
    assert state.seats_in_play() == [ORANGE, RED]
    assert all(view["out"] == [None, "resigned", None] for view in map(state.view, (0, 1, 2, None)))
    assert state.to_move() == ORANGE
    assert state.phase == MOVE
    assert "d3-d5" not in texts(state)
    assert "d3-d4" in texts(state)  # the jump's tile is free now: a step
    state.play_text("d3-d4")
    assert state.to_move() == RED
    assert state.turn_records() == ["B: resigned", "O: d3-d4"]
    assert "Last: Orange d3-d4" in state.render()


def test_a_seat_retiring_on_its_turn_drops_the_half_made_turn() -> None:
    """BIL-39: orange's forced captures took c4, d3 and f3; before it replaces them, orange is
    gone too long. Its pawns leave, the captured pawns stay captured, and blue's turn begins."""
    state = position("O: c3 e3 g3 c5 d1  B: d3 f3 c4 h4 h5 h6  R: d8 e8 f8", players=3)
    assert events(state, "capture") == [(1, "orange", ["c4", "d3", "f3"])]
    state.retire(ORANGE, GONE)
    assert board_rows(state.board) == rows("B: h4 h5 h6  R: d8 e8 f8")
    assert state.seats_out() == ["was gone too long", None, None]
    assert state.to_move() == BLUE
    assert state.phase == MOVE
    assert state.pending == {}
    assert state.turn == 2
    assert state.turn_records() == ["O: was gone too long"]
    assert state.render().splitlines()[-2:] == [
        "Last: Orange was gone too long; Orange's pawns leave the board",
        "Blue to move (turn 2)",
    ]


def test_in_a_four_player_game_the_turn_passes_to_the_next_seat_in_play() -> None:
    """BIL-39, BIL-12: red retires on its own turn; green, next in play, moves; then orange."""
    state = BILOBA.new(players=4)
    for move in ("e3-e4", "g5-f5"):
        state.play_text(move)
    assert state.to_move() == RED
    state.retire(RED, RESIGNED)
    assert state.to_move() == GREEN
    assert list(state.counts) == [8, 8, 0, 8]
    state.play_text(state.action_to_text(state.legal_actions()[0]))
    assert state.to_move() == ORANGE
    assert state.seats_out() == [None, None, "resigned", None]


def test_when_one_player_is_left_bil_36_and_37_decide() -> None:
    """BIL-39 in a 3-player game with two seats in play: when red resigns, one player is left and
    BIL-36/37 decide, as for any game end. Orange with a single pawn only draws as the last
    player (BIL-37's quirk); with two pawns it wins as the last player."""
    state = position("O: d4  R: e4 c9 d9", to_move="red", players=3)
    assert state.seats_out() == [None, "it had no pawns from the start", None]
    state.retire(RED, RESIGNED)
    assert result(state) == (None, "lone-pawn")
    state = position("O: d4 d5  R: e4 c9 d9", to_move="red", players=3)
    state.retire(RED, RESIGNED)
    assert result(state) == ("orange", "last-player")


def test_seats_knocked_out_by_play_say_why() -> None:
    """BIL-34: a seat with no pawns is out. Orange's forced captures take blue's last two pawns;
    blue cannot retire then, it is already out."""
    state = position("O: c3 e3 g3 a5 a6  B: d3 f3  R: c7 d7 e7", players=3)
    assert state.seats_out() == [None, "Orange took its last pawns", None]
    with pytest.raises(IllegalActionError, match="Blue is already out: Orange took its last pawns"):
        state.retire(BLUE, RESIGNED)
    state = position("O: c3 e3 a5  B: d3 g8 h8 i7  R: c7 d7 e7", players=3)
    state.play_text("c3>d3")
    assert state.seats_out() == [None, None, None]
    state = position("O: c3 f2 a5  B: d3 g8 h8  R: c7 d7 e7", players=3)
    state.play_text("f2-e3")  # takes d3: blue is down to two pawns, tested at its own turn
    state.play_text("c3>d3")
    assert events(state, "eliminated") == [(2, "blue", ["g8", "h8"])]  # BIL-32
    assert state.seats_out() == [None, "down to two pawns with no capture in sight", None]
    assert state.to_move() == RED


def test_pawns_leaving_reset_the_quiet_count() -> None:
    """BIL-51: the count resets whenever a pawn leaves the board, a retirement's pawns too."""
    state = BILOBA.new(players=3, options={"quiet_limit": 3})
    state.play_text("e3-e4")
    state.play_text("g5-f5")
    assert state.quiet == 2
    state.retire(RED, RESIGNED)
    assert state.quiet == 0
    assert state.to_move() == ORANGE
    state.play_text("e4-e5-d5")
    state.play_text("f5-e5-f6")
    assert state.quiet == 2
    assert state.outcome() is None  # without the reset the limit would have drawn two turns ago


def test_the_table_agrees_a_draw_or_abandons_the_match() -> None:
    """A draw every seat still in play agreed, or an abandoned match: nobody wins."""
    state = BILOBA.new(players=4)
    state.play_text("e3-e4")
    state.agree_draw()
    assert result(state) == (None, "agreed")
    assert state.action_to_text(state.history[-1]) == "draw agreed"
    assert state.turn_records() == ["O: e3-e4", "draw agreed"]
    state.undo()
    state.abandon()
    assert result(state) == (None, "abandoned")
    assert state.turn_records() == ["O: e3-e4", "abandoned"]
    assert state.seats_out() == [None, None, None, None]


def test_a_retirement_is_recorded_and_replayed() -> None:
    """A leaving action is an action of the record: it replays to the same state, and undo
    puts every pawn back with its identity (BIL-11)."""
    state = BILOBA.new(players=3)
    state.play_text("e3-e4")
    state.retire(BLUE, GONE)
    assert state.history[-1] == retirement(BLUE, GONE)
    again = BILOBA.state_from_json(state.to_json())
    assert again.seats_out() == state.seats_out() == [None, "was gone too long", None]
    assert again.rows() == state.rows()
    assert again.position_key() == state.position_key()
    before = BILOBA.new(players=3)
    before.play_text("e3-e4")
    state.undo()
    assert state.pawns == before.pawns
    assert state.position_key() == before.position_key()
    assert state.seats_out() == [None, None, None]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("kind", bot_kinds("biloba"))
def test_bots_play_on_after_a_seat_retired(kind: str, players: int) -> None:
    """Every Biloba bot is asked to decide after a retirement, its own seat's turn passed on
    mid-replacement included, and answers legally without changing the position it was given."""
    rng = random.Random(players)
    asked = 0
    for index in range(4):
        state = BILOBA.new(players, {"quiet_limit": 200})
        while not state.is_over() and (len(state.history) < 30 or (index % 2 and state.phase != REPLACE)):
            state.apply(rng.choice(state.legal_actions()))
        leaving = state.to_move() if index < 2 else rng.choice(state.seats_in_play())
        state.retire(leaving, RESIGNED)
        if state.is_over():
            continue
        before = (state.to_json(), state.position_key(), state.seats_out())
        action = make_bot("biloba", kind, seed=index).choose(seen_by(state, state.to_move(), rng), 0.05)
        assert action in state.legal_actions()
        assert (state.to_json(), state.position_key(), state.seats_out()) == before
        asked += 1
    assert asked >= 3
