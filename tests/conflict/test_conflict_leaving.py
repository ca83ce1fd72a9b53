"""Leaving the table in Conflict, worked examples (CON-71, CON-58, CON-55, CON-57; §14's unused seats).

A retiring player's pieces leave the game, every seat's it controls, on the board, in its rows
and in reserve. Its bases and mines stay on the board with their owner links, as a player out
for lack of pieces leaves them (CON-53): nobody holds a piece of them, so they are hostile to
everyone like an unused seat's (CON-17, CON-24), and a piece that lands on one of the bases takes
it over as usual (CON-45), with the seats the base's seat controls. The default board, seats 1–4.
"""

from __future__ import annotations

import pytest
from conflict_helpers import CONFLICT, do, hostile, piece_list, position

from parlour.engine import (
    CHANCE,
    GONE,
    OUT_OF_TIME,
    RESIGNED,
    FormatError,
    IllegalActionError,
    Outcome,
    retirement,
)
from parlour.games.conflict import CHANCE_PHASE, OVER_PHASE, ConflictState

RED, ORANGE, GREEN, YELLOW = 0, 1, 2, 3

RED_HOLDS_ORANGE = """\
pieces 1C d4 1S k5 2C q4 2S n7 3S e7 4C p17
available 1 CA
reserve 1 SS
available 2 G
reserve 2 A
owner 2 1
turn 1
dice 3-3
rolls 9
"""
"""Red took Orange's base (CON-45) and moves its pieces: an orange ship rests on Orange's own mine
n7, now Red's. Red is on roll with a double, its 3s unused."""


def test_a_player_on_roll_resigns_with_the_seat_it_took_over() -> None:
    # CON-71 with 4 players: Red's pieces and Orange's (which Red controls) leave; Red's roll ends
    # without the double's extra roll (CON-50) and the next player in turn order rolls (CON-26).
    state = position(RED_HOLDS_ORANGE)
    before = state.position_json()
    action = retirement(RED, RESIGNED)
    assert not state.is_legal(action)
    with pytest.raises(IllegalActionError, match="Red resigned: leaving the table is not a move"):
        state.play(action)
    state.retire(RED, RESIGNED)
    assert piece_list(state) == ["3S e7", "4C p17"]
    assert (state.alive[RED], state.alive[ORANGE]) == (0, 0)
    data = state.position_json()
    assert (data["available"]["1"], data["reserve"]["1"], data["available"]["2"], data["reserve"]["2"]) == (
        "", "", "", "")
    assert data["available"]["3"] == "CCCGASSU"  # Green's and Yellow's rows are untouched
    assert state.owner == [-1, RED, -1, -1]  # the owner link stays: Red's base still holds Orange
    assert state.out == ["resigned", "taken over", None, None]
    assert state.seats_out() == ["resigned", "Red took its home base", None, None]
    assert state.players_in() == [GREEN, YELLOW]
    assert state.phase == CHANCE_PHASE
    assert state.seat == GREEN
    assert state.to_move() == CHANCE
    assert state.rolls == 9
    assert state.outcome() is None
    for mine in ("c3", "g7", "r3", "n7"):  # hostile to all, like an unused seat's (CON-17)
        assert hostile(state, GREEN, mine)
        assert hostile(state, YELLOW, mine)
    assert state.action_to_text(state.history[-1]) == "Red resigned"
    assert state.view(None)["content"]["events"] == [
        "Red is out (resigned)", "Red's roll ends automatically (unused: 3 and 3)"]
    assert state.view(GREEN)["out"] == ["resigned", "Red took its home base", None, None]
    restarted = CONFLICT.new(4, start=data)
    assert restarted.position_json() == data
    state.undo()
    assert state.position_json() == before


def test_a_base_left_behind_is_taken_over_as_usual() -> None:
    # CON-71, CON-45: Green's ship lands on Red's base after Red resigned and takes Red over, and
    # Orange with it (Red's dominion); no piece comes with them. Red stays out for its own reason.
    state = position(RED_HOLDS_ORANGE)
    state.retire(RED, RESIGNED)
    do(state, "roll 1-2")
    assert do(state, "e7 2: e6 e5") == "e7 2: e6 e5"
    assert state.owner == [GREEN, RED, -1, -1]
    assert state.controller == [GREEN, GREEN, GREEN, YELLOW]
    for mine in ("c3", "g7", "r3", "n7"):
        assert not hostile(state, GREEN, mine)
        assert hostile(state, YELLOW, mine)
    assert state.seats_out() == ["resigned", "Red took its home base", None, None]
    assert state.players_in() == [GREEN, YELLOW]
    assert state.alive[:2] == [0, 0]


def test_the_last_two_players_one_runs_out_of_time() -> None:
    # CON-71 and CON-55: with 3 players, Green already out, Orange's time runs out during Red's
    # roll: Red wins at once, for that reason, dice unused.
    state = position("pieces 1S k5 2C q4\navailable 3 -\nreserve 3 -\nout 3 no pieces\nturn 1\ndice 2-5",
                     players=3)
    state.retire(ORANGE, OUT_OF_TIME)
    assert state.outcome() == Outcome(RED, "out-of-time", (1.0, 0.0, 0.0))
    assert state.phase == OVER_PHASE
    assert state.legal_actions() == []
    assert piece_list(state) == ["1S k5"]
    assert state.seats_out() == [None, "ran out of time", "it has no pieces left"]
    assert state.view(None)["outcome"]["words"] == "the other side ran out of time"
    assert state.render().endswith("Game over: Red wins (the other side ran out of time)")
    with pytest.raises(IllegalActionError, match="over"):
        state.retire(RED, RESIGNED)


def test_two_players_the_other_wins() -> None:
    # CON-71 with 2 players: Red resigns on its own roll; Orange wins.
    state = CONFLICT.new(2)
    do(state, "roll 1-2")
    do(state, "enter ship 1: e6")
    state.retire(RED, RESIGNED)
    assert state.outcome() == Outcome(ORANGE, "resigned", (0.0, 1.0))
    assert state.view(RED)["outcome"]["words"] == "the other side resigned"


def test_a_player_to_roll_is_gone() -> None:
    # CON-71: Red, whose dice are not yet rolled, is gone too long; Orange rolls instead. All 13
    # of Red's pieces, available and in reserve, leave the game.
    state = CONFLICT.new(4)
    state.retire(RED, GONE)
    assert state.alive == [0, 13, 13, 13]
    assert state.seats_out() == ["was gone too long", None, None, None]
    assert state.to_move() == CHANCE
    assert state.seat == ORANGE
    assert state.rolls == 0
    assert state.position_json()["out"] == {"1": "gone"}


def test_another_player_resigns_during_a_roll() -> None:
    # CON-71: Green leaves during Red's roll of 7: Red's roll goes on with its dice and its open
    # activation; afterwards the turn passes over Green (CON-26).
    state = position("pieces 1S k5 3S m5\nturn 1\ndice 2-5", players=3)
    state.retire(GREEN, RESIGNED)
    assert state.to_move() == RED
    assert state.dice == (2, 5)
    assert state.unused == (2, 5)
    assert state.activation
    assert piece_list(state) == ["1S k5"]
    assert do(state, "k5 2: l5 m5") == "k5 2: l4 m5"  # no longer a capture
    do(state, "end")
    do(state, "roll 1-2")
    do(state, "end")
    assert state.seat == RED


def test_leaving_on_the_last_roll_ends_it_at_the_roll_limit() -> None:
    # CON-71 and CON-57: the retiring player's roll ends; it was the roll numbered roll_limit,
    # so the game is a draw among the players still in.
    state = position("pieces 1S k5\nturn 1\ndice 1-2\nrolls 5", players=3, roll_limit=5)
    state.retire(RED, RESIGNED)
    assert state.outcome() == Outcome(None, "roll-limit", (0.0, 1.0, 1.0))


def table_with_orange_taken() -> ConflictState:
    state = position(RED_HOLDS_ORANGE)
    do(state, "end")
    return state


def test_an_agreed_draw_is_among_the_players_still_in() -> None:
    # CON-59: a draw among the players in the game; Orange, taken over, is not one of them.
    state = table_with_orange_taken()
    state.agree_draw()
    assert state.outcome() == Outcome(None, "agreed", (1.0, 0.0, 1.0, 1.0))
    assert state.render().endswith("Game over: a draw between Red, Green and Yellow (agreed at the table)")
    assert state.seats_out() == [None, "Red took its home base", None, None]


def test_an_abandoned_match_has_no_winner() -> None:
    # CON-58: abandoned, no winner; the scores still say who was in the game.
    state = table_with_orange_taken()
    state.abandon()
    assert state.outcome() == Outcome(None, "abandoned", (1.0, 0.0, 1.0, 1.0))
    assert state.render().endswith(
        "Game over: nobody wins, with Red, Green and Yellow still in (the match was abandoned)")


def test_a_position_where_a_player_left() -> None:
    # The position form says why a player is out; one that left has no pieces left (CON-71).
    state = position("out 1 resigned\navailable 1 -\nreserve 1 -\npieces 2C q4\nturn 2")
    assert state.seats_out() == ["resigned", None, None, None]
    assert state.seat == ORANGE
    with pytest.raises(FormatError, match="left the table"):
        position("out 1 resigned\npieces 2C q4\nturn 2")
