"""Leaving the table in Mille Bornes (MIL-109): worked examples, positions from their JSON text form.

A seat that resigns, runs out of time or is gone too long loses the game at once; the game totals
stand as they are (no end-of-hand scoring) and are the outcome's scores. An agreed draw and an
abandoned match end the game with nobody winning. The hand stops where it is, its cards still
hidden (MIL-57).
"""

from __future__ import annotations

import json
import random

import pytest
from mille_tables import MILLE, do, resolve, step, table

from parlour.engine import (
    ABANDONED,
    AGREED,
    CHANCE,
    GONE,
    NOBODY,
    OUT_OF_TIME,
    RESIGNED,
    IllegalActionError,
    Outcome,
    retirement,
)
from parlour.games.mille import MilleState
from parlour.games.mille.cards import EMPTY, EXTRA_TANK, SLOT_NAMES, TOKENS

SIX = ["25", "50", "75", "gasoline", "spare-tire", "repairs"]
MATCH = {"game_no": 2, "hand_no": 3, "hand_serial": 7, "games_won": [1, 0], "totals": [3150, 2380]}
"""A match in its second game: seat 0 leads by 770 and has won a game."""


def mid_hand() -> MilleState:
    """Hand 3 of game 2, seat 0 to play after its draw: 100 miles and a safety on the table."""
    return table(
        {"cards": ["go", "stop", *SIX[:5]], "battle": "go", "miles": {"100": 1}, "safeties": ["driving-ace"]},
        {"cards": SIX, "battle": "stop"},
        match=MATCH,
        drawn=True,
    )


def check_hidden(state: MilleState) -> None:
    """MIL-57: no view shows another seat's cards or the pile, the game being over or not."""
    for seat in (0, 1, None):
        text = json.dumps(state.view(seat))
        for secret in state.hidden_from(seat):
            assert secret not in text, f"view({seat}) reveals {secret!r}"


def test_seat_0_resigns_while_ahead_and_seat_1_wins_with_the_totals_as_they_stand() -> None:
    # MIL-109: 3150 (this hand's 200 in it) against 2380: the lower total wins, the totals stand.
    state = mid_hand()
    assert state.hand_total == [200, 0]  # 100 miles and a safety played this hand (MIL-52)
    state.retire(0, RESIGNED)
    assert state.outcome() == Outcome(1, RESIGNED, (3150.0, 2380.0))
    assert state.to_move() == NOBODY
    assert state.legal_actions() == []
    assert state.games_won == [1, 1]
    view = state.view(1)
    assert view["outcome"] == {
        "winner": 1,
        "reason": "resigned",
        "scores": [3150.0, 2380.0],
        "words": "the other side resigned",
    }
    match = view["content"]["match"]
    assert match["totals"] == [3150, 2380]
    assert match["result"] == {"winner": 1, "reason": "resigned", "scores": [3150.0, 2380.0]}
    assert view["content"]["hand"]["phase"] == "game_over"
    assert view["content"]["hand"]["events"][-1] == {"event": "game_end", "winner": 1, "totals": [3150, 2380]}
    assert view["content"]["private"]["legal"] == []
    assert state.action_to_text(state.history[-1]) == "Player 1 resigned"
    assert state.render(None).splitlines()[-1] == "Game over: Player 1 resigned; Player 2 wins."
    assert "Hand over" not in state.render(None)  # no score window: the hand was not scored
    check_hidden(state)
    with pytest.raises(IllegalActionError, match="over"):
        state.play_text("play go")


@pytest.mark.parametrize(("why", "words"), [(OUT_OF_TIME, "ran out of time"), (GONE, "was gone too long")])
def test_seat_1_leaves_while_seat_0_draws_and_seat_0_wins(why: str, words: str) -> None:
    # MIL-109 at a chance step (MIL-60): the card being drawn is never drawn.
    state = table({"cards": ["go", *SIX[:5]]}, {"cards": SIX}, match=MATCH)
    do(state, "0: draw")
    assert state.to_move() == CHANCE
    pile = len(state.pile)
    state.retire(1, why)
    assert state.outcome() == Outcome(0, why, (3150.0, 2380.0))
    assert state.games_won == [2, 0]
    assert len(state.pile) == pile
    assert state.action_text_for(state.history[-1], 0) == f"Player 2 {words}"
    check_hidden(state)


def test_an_agreed_draw_and_an_abandoned_match_leave_the_games_won_as_they_are() -> None:
    # MIL-109: nobody wins; the totals are still the scores.
    ends = ((MilleState.agree_draw, AGREED, "draw agreed"), (MilleState.abandon, ABANDONED, "abandoned"))
    for end, reason, words in ends:
        state = mid_hand()
        end(state)
        assert state.outcome() == Outcome(None, reason, (3150.0, 2380.0))
        assert state.games_won == [1, 0]
        assert state.view(None)["content"]["hand"]["events"][-1]["winner"] is None
        assert state.render(0).splitlines()[-1] == f"Game over: {words}; a tie."


def test_undoing_a_retirement_mid_draw_gives_back_the_very_same_hand() -> None:
    # MIL-109 with make/unmake: the draw goes on with the same cards.
    state = table({"cards": ["go", *SIX[:5]]}, {"cards": SIX}, match=MATCH)
    do(state, "0: draw")
    untouched = state.copy()
    before = [json.dumps(state.view(seat), sort_keys=True) for seat in (0, 1, None)]
    state.retire(0, GONE)
    state.undo()
    assert [json.dumps(state.view(seat), sort_keys=True) for seat in (0, 1, None)] == before
    assert state.position_key() == untouched.position_key()
    resolve(state)
    resolve(untouched)
    assert state.position_json() == untouched.position_json()
    assert state.legal_actions() == untouched.legal_actions()


def test_leaving_between_two_hands_ends_the_game_without_the_next_deal() -> None:
    # MIL-109 between hands (MIL-50): the last hand's score stays, the next hand is never dealt.
    state = table({}, {}, match=MATCH, phase="chance", chance="deal", between_hands=True)
    state.retire(1, RESIGNED)
    assert state.outcome() == Outcome(0, RESIGNED, (3150.0, 2380.0))
    hand = state.view(None)["content"]["hand"]
    assert hand["between_hands"] is False
    assert hand["phase"] == "game_over"
    again = MILLE.new(start=state.position_json(), seed=99)
    assert again.outcome() == state.outcome()
    assert again.view(0) == state.view(0)


def test_a_finished_position_and_a_view_read_back() -> None:
    # MIL-70's position form holds the result with its reason; a view samples a state (MIL-58).
    state = mid_hand()
    state.retire(0, OUT_OF_TIME)
    again = MILLE.new(start=json.loads(json.dumps(state.position_json())), seed=5)
    assert again.outcome() == Outcome(1, OUT_OF_TIME, (3150.0, 2380.0))
    for seat in (0, 1, None):
        assert again.view(seat) == state.view(seat)
        sampled = MILLE.sample_state(json.loads(json.dumps(state.view(seat))), random.Random(3))
        assert sampled.view(seat) == state.view(seat)


def test_a_record_with_hints_and_a_retirement_replays() -> None:
    # MIL-109, MIL-64: the record keeps the slot hints (Mille's own play) and the retirement.
    state = resolve(MILLE.new(seed=21))
    do(state, "0: draw")
    resolve(state)
    slot = next(i for i, kind in enumerate(state.slots[0]) if EMPTY != kind < EXTRA_TANK)
    hinted = state.play_text(f"discard {TOKENS[state.slots[0][slot]]} @{SLOT_NAMES[slot]}")
    assert hinted >= 256  # the slot hint is kept in the action (MIL-64)
    rng = random.Random(21)
    for _ in range(30):
        step(state, rng)
    seat = state.to_move() if state.to_move() >= 0 else 0
    state.retire(seat, RESIGNED)
    replayed = MILLE.state_from_json(json.loads(json.dumps(state.to_json())))
    assert replayed == state
    assert replayed.history[-1] == retirement(seat, RESIGNED)
    assert state.record_lines()[-1] == f"Player {seat + 1} resigned"


def test_the_next_game_of_the_match_follows_a_retirement() -> None:
    # MIL-56 after MIL-109: totals back to 0, the games won kept, the next hand dealt.
    state = mid_hand()
    state.retire(1, RESIGNED)
    following = MILLE.next_game(state)
    assert following.game_total == [0, 0]
    assert following.games_won == [2, 0]
    assert following.game_no == 3
    assert following.to_move() == CHANCE
    resolve(following)
    assert following.hand_serial == 8
    assert following.to_move() == 1  # MIL-13: seat 1 starts the even hands


def test_leaving_is_never_a_decision() -> None:
    # MIL-109, MIL-63: no leaving action is listed or accepted as a decision.
    state = mid_hand()
    for action in (-1, -16, -17, retirement(0, RESIGNED), retirement(1, GONE)):
        assert not state.is_legal(action)
        with pytest.raises(IllegalActionError):
            state.play(action)
        with pytest.raises(IllegalActionError):
            state.play_hinted(action)
    assert all(action >= 0 for action in state.legal_actions())
