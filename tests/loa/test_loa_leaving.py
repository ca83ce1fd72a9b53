"""Leaving the table in Lines of Action (LOA-98): worked examples, positions built from text.

A side that resigns, runs out of time or is gone too long loses at once; an agreed draw and an
abandoned match are ties. The pieces stay where they are, and the leaving action is recorded,
undone and replayed like a move.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.engine import (
    ABANDONED,
    AGREED,
    GONE,
    NOBODY,
    OUT_OF_TIME,
    RESIGNED,
    IllegalActionError,
    Outcome,
    retirement,
)
from parlour.games import get_game
from parlour.games.loa import PASS, LinesOfAction, LoaState
from parlour.games.loa.rules import BLACK, WHITE

WORKED = json.loads((Path(__file__).parent / "worked_positions.json").read_text())
LOA: LinesOfAction = get_game("loa")  # type: ignore[assignment]

W10 = next(w for w in WORKED if w["id"] == "W-10")


def w10() -> LoaState:
    """W-10 replayed: White to move, one move (b6-c7) from joining its pieces (LOA-13.2)."""
    state = LOA.new()
    for ply in W10["plies"]:
        state.play_text(ply)
    return state


def test_black_resigns_when_white_could_join_and_white_wins_at_once() -> None:
    # LOA-98: the other side wins for the reason given; the board and the ply count stay.
    state = w10()
    board, plies = state.position_json()["board"], state.plies
    assert state.to_move() == WHITE
    state.retire(BLACK, RESIGNED)
    assert state.outcome() == Outcome(WHITE, RESIGNED)
    assert state.to_move() == NOBODY
    assert state.legal_actions() == []
    assert state.position_json()["board"] == board
    assert state.plies == plies
    assert state.action_to_text(state.history[-1]) == "Black resigned"
    assert state.view(BLACK)["outcome"] == {
        "winner": WHITE,
        "reason": RESIGNED,
        "scores": [],
        "words": "the other side resigned",
    }
    with pytest.raises(IllegalActionError, match="over"):
        state.play_text("b6-c7")


@pytest.mark.parametrize(("why", "words"), [(OUT_OF_TIME, "ran out of time"), (GONE, "was gone too long")])
def test_white_leaves_on_its_own_turn_and_black_wins(why: str, words: str) -> None:
    # LOA-98: whose turn it is does not matter, nor who is ahead.
    state = w10()
    state.retire(WHITE, why)
    assert state.outcome() == Outcome(BLACK, why)
    assert state.action_to_text(state.history[-1]) == f"White {words}"


def test_an_agreed_draw_and_an_abandoned_match_are_ties() -> None:
    # LOA-98 with LOA-15: nobody wins.
    for end, reason in ((LoaState.agree_draw, AGREED), (LoaState.abandon, ABANDONED)):
        state = LOA.new()
        state.play_text("b1-b3")
        end(state)
        assert state.outcome() == Outcome(None, reason)
        assert state.to_move() == NOBODY


def test_a_retirement_on_the_last_ply_before_the_move_limit_still_wins() -> None:
    # LOA-98 before LOA-16: at ply 59 of 60 the game is still on, so Black's retirement decides.
    state = LOA.new(options={"move_limit": 60})
    shuffle = ["b1-b3", "a2-c2", "b3-b1", "c2-a2"]
    for ply in (shuffle * 15)[:59]:
        state.play_text(ply)
    assert state.outcome() is None
    state.retire(BLACK, OUT_OF_TIME)
    assert state.outcome() == Outcome(WHITE, OUT_OF_TIME)


def test_undoing_a_retirement_restores_play_and_the_repetition_count() -> None:
    # LOA-98 with LOA-21: the retirement is taken back and the third occurrence still counts.
    state = LOA.new(options={"repetition": "draw3"})
    shuffle = ["b1-b3", "a2-c2", "b3-b1", "c2-a2"]
    for ply in (shuffle * 2)[:-1]:
        state.play_text(ply)
    before = (state.position_json(), state.position_key(), state.legal_actions(), state.outcome())
    state.retire(WHITE, GONE)
    state.undo()
    assert (state.position_json(), state.position_key(), state.legal_actions(), state.outcome()) == before
    state.play_text("c2-a2")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "repetition"


def test_a_record_with_a_retirement_replays() -> None:
    # LOA-98: the retirement is an action of the record like a move.
    state = w10()
    state.retire(WHITE, RESIGNED)
    replayed = LOA.state_from_json(json.loads(json.dumps(state.to_json())))
    assert replayed == state
    assert replayed.outcome() == Outcome(BLACK, RESIGNED)


def test_the_view_and_the_board_still_show_the_last_move() -> None:
    # LOA-4, LOA-98: the capture stays marked; the terminal board says who left.
    state = LOA.new()
    state.play_text("c1-a3")
    state.retire(WHITE, RESIGNED)
    capture = {"text": "c1xa3", "from": "c1", "to": "a3", "capture": True}
    assert state.view(None)["content"]["last_move"] == capture
    assert state.render().splitlines()[-2:] == ["Last move: c1-a3", "White resigned"]


def test_leaving_is_never_a_move() -> None:
    # LOA-98: nobody plays it as a move; only State.leave applies it.
    state = w10()
    for action in (-1, PASS + 1, retirement(BLACK, RESIGNED), retirement(WHITE, GONE)):
        assert not state.is_legal(action)
        with pytest.raises(IllegalActionError):
            state.play(action)
    assert all(action >= 0 for action in state.legal_actions())
