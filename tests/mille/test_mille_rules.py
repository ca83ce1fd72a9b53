"""Mille Bornes rules beyond the worked examples: deal, slots and ordering, chance, windows,
scoring over whole games, undo, positions. Rule ids cited."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from mille_tables import MILLE, do, legal, public, refused, resolve, slots, step, table

from parlour.engine import CHANCE, NOBODY, FormatError, IllegalActionError
from parlour.games.mille import CARD, DRAW_STEP, MilleState
from parlour.games.mille.cards import (
    COPIES,
    DECK_SIZE,
    EMPTY,
    EXTRA_TANK,
    GO,
    KINDS,
    STOP,
    TOKENS,
    shuffled_deck,
)

SIX = ["25", "50", "75", "gasoline", "spare-tire", "repairs"]


def random_game(seed: int, rng: random.Random) -> MilleState:
    state = MILLE.new(seed=seed)
    while not state.is_over():
        step(state, rng)
    return state


def test_the_deck() -> None:
    """MIL-1: 101 cards of 19 kinds; 46 distance, 13 hazards, 38 remedies, 4 safeties."""
    assert sum(COPIES) == DECK_SIZE == 101
    assert len(COPIES) == KINDS == 19
    assert (sum(COPIES[:5]), sum(COPIES[5:10]), sum(COPIES[10:15]), sum(COPIES[15:])) == (46, 13, 38, 4)


def test_the_shuffle_is_a_permutation_fixed_by_seed_and_hand() -> None:
    """MIL-11."""
    assert sorted(shuffled_deck(7, 1)) == sorted(shuffled_deck(7, 2))
    assert shuffled_deck(7, 1) != shuffled_deck(7, 2) != shuffled_deck(8, 2)


def test_the_deal() -> None:
    """MIL-12: six cards to seat 0 into slots 1…6, then six to seat 1; each is a chance event; each
    seat's view tells it the cards it was dealt (MIL-57)."""
    state = MILLE.new(seed=12)
    deck = shuffled_deck(12, 1)
    for index in range(12):
        assert state.to_move() == CHANCE
        assert state.receiving() == (index // 6, index % 6 + 1)
        state.apply(state.sample_chance())
    assert state.received == [list(deck[:6]), list(deck[6:12])]
    assert state.to_move() == 0
    assert len(state.pile) == 89


def test_the_rules_never_sort_a_hand() -> None:
    """MIL-16 steps 1–3 only: hand ordering (step 4, MIL-17) is how a program shows a hand, not a
    game action, so the rules' slots are dealt, drawn into and tidied, never sorted."""
    state = resolve(MILLE.new(seed=17))
    deck = shuffled_deck(17, 1)
    assert state.slots[0] == [EMPTY, *deck[:6]]
    assert state.slots[1] == [EMPTY, *deck[6:12]]
    do(state, "draw")
    resolve(state)
    drawn, held = state.slots[0][0], state.slots[0][1:]
    leaving = held[2]
    do(state, f"discard {TOKENS[leaving]} @3" if leaving < EXTRA_TANK else "draw")
    if leaving < EXTRA_TANK:  # the drawn card moves into the hole (MIL-16.3)
        assert state.slots[0] == [EMPTY, *held[:2], drawn, *held[3:]]
    assert "order" not in state.view(0)["content"]["private"]
    assert all("order" not in seat for seat in state.position_json()["hand"]["seats"])


def test_a_double_draw_fills_p_and_slot_1() -> None:
    """MIL-16.2, MIL-21."""
    state = table({"cards": SIX[:4], "battle": "go"}, {"cards": SIX}, pile=["go", "stop", "25"])
    do(state, "draw")
    assert state.receiving() == (0, 0)
    do(state, "card stop")
    assert state.receiving() == (0, 1)
    do(state, "card 25")
    assert slots(state)[:3] == ["stop", "25", None]
    assert state.pile == [GO]


def test_explicit_outcomes_keep_the_pile_order() -> None:
    """MIL-62: ``card K`` takes the topmost K, the others keep their order; odds are the shares."""
    state = table({"cards": SIX}, {"cards": SIX}, pile=["go", "stop", "25", "stop", "go"])
    do(state, "draw")
    assert state.chance_outcomes() == [(CARD, 0.2), (CARD + STOP, 0.4), (CARD + GO, 0.4)]
    assert state.sample_chance() == CARD + GO
    do(state, "card stop")
    assert [state.action_to_text(CARD + k) for k in reversed(state.pile)] == [
        "card go", "card 25", "card stop", "card go"]
    with pytest.raises(IllegalActionError):
        state.parse_action("card right-of-way")


def test_the_coup_window_closes_when_the_turn_passes() -> None:
    """MIL-39: open for the attacked seat's next turn only; a later hazard replaces it."""
    state = table({"cards": ["driving-ace", *SIX[:5]], "battle": "go"},
                  {"cards": ["accident", "speed-limit", *SIX[:4]], "battle": "go"}, to_act=1, drawn=True)
    do(state, "1: play accident")
    assert public(state, 0)["coup_window"] == "accident"
    do(state, "0: play driving-ace")  # a coup: the window closes
    assert public(state, 0)["coup_window"] is None
    assert state.coups[0] == 1
    state = table({"cards": ["extra-tank", *SIX[:5]], "battle": "go"},
                  {"cards": ["accident", "speed-limit", *SIX[:4]], "battle": "go"}, to_act=1, drawn=True)
    do(state, "1: play speed-limit")
    assert public(state, 0)["coup_window"] == "speed-limit"
    resolve(do(state, "0: draw"))
    assert public(state, 0)["coup_window"] is None  # drawing closes it
    do(state, "0: discard 25")
    resolve(do(state, "1: draw"))
    do(state, "1: play accident")
    assert public(state, 0)["coup_window"] == "accident"


def test_right_of_way_table() -> None:
    """MIL-38: every row of the table."""
    rows: list[tuple[str | None, bool, str | None, bool]] = [
        ("stop", False, None, True), ("stop", True, None, True),
        (None, False, None, True), (None, True, "go", True),
        ("gasoline", False, "gasoline", True), ("repairs", True, "go", True),
        ("go", False, "go", True), ("go", True, "go", True),
        ("flat-tire", False, "flat-tire", False), ("accident", True, "accident", False),
    ]
    for before, limited, after, rolling in rows:
        seat: dict[str, Any] = {"cards": ["right-of-way", *SIX], "battle": before}
        if limited:
            seat["speed"] = "speed-limit"
        state = table(seat, {"cards": SIX}, drawn=True)
        do(state, "play right-of-way")
        assert (public(state, 0)["battle"], public(state, 0)["speed"], state.rolling(0)) == (
            after, None, rolling), (before, limited)


def test_an_extra_turn_with_no_card_left_passes() -> None:
    """MIL-19, MIL-24: a safety played as the last card, pile empty: the turn goes to the other seat."""
    state = table({"cards": ["extra-tank"], "battle": "go"}, {"cards": ["25"], "battle": "go"}, pile=0)
    do(state, "0: play extra-tank")
    assert state.to_move() == 1
    assert public(state, 0)["cards"] == 0


def test_scores_add_up_over_whole_games() -> None:
    """MIL-53, MIL-54, MIL-55: the lines make the hand total; hands make the game total; the game
    ends after the first hand reaching 5000, won by the higher total."""
    rng = random.Random(53)
    for seed in range(6):
        state = MILLE.new(seed=seed)
        totals = [0, 0]
        last = None
        while not state.is_over():
            step(state, rng)
            if state.last_hand is not last and state.last_hand is not None:
                score = last = state.last_hand
                for seat in (0, 1):
                    assert sum(score.lines[seat]) == score.hand_totals[seat]
                    totals[seat] += score.hand_totals[seat]
                assert list(score.game_totals) == totals
                assert sum(1 for line in score.lines if line[4]) <= 1
                if max(totals) < 5000:
                    assert state.to_move() == CHANCE
                    assert state.stale
        outcome = state.outcome()
        assert outcome is not None
        assert max(totals) >= 5000
        assert outcome.scores == tuple(map(float, totals))
        assert outcome.winner == (None if totals[0] == totals[1] else totals.index(max(totals)))
        assert state.legal_actions() == []
        assert state.to_move() == NOBODY
        assert outcome.reason == "reached-5000"
        assert state.view(None)["outcome"]["words"] == MILLE.info.reason_words("reached-5000")


def test_a_finished_game_written_by_an_older_parlour_reads_with_todays_reason() -> None:
    """MIL-55: earlier versions wrote the reason ``5000``; it reads as ``reached-5000``, and a
    reason Mille does not declare is refused."""
    state = random_game(4, random.Random(4))
    position = state.position_json()
    position["match"]["result"]["reason"] = "5000"
    assert MILLE.new(seed=4, start=position).outcome() == state.outcome()
    position["match"]["result"]["reason"] = "move-limit"
    with pytest.raises(FormatError, match=r"match\.result"):
        MILLE.new(seed=4, start=position)


def test_new_game() -> None:
    """MIL-56, MIL-60: only once a game is over; it keeps the games won and the hand serials. A
    new game is no seat's decision: ``Mille.next_game`` starts it as a new state of the match."""
    with pytest.raises(IllegalActionError):
        MILLE.next_game(MILLE.new(seed=1))
    over = random_game(1, random.Random(1))
    serial, won = over.hand_serial, list(over.games_won)
    state = MILLE.next_game(over)
    assert over.is_over()
    assert state.history == []
    assert state.seed == over.seed
    assert state.game_total == [0, 0]
    assert state.games_won == won
    assert state.outcome() is None
    assert state.start is not None
    assert MILLE.new(seed=1, start=state.start).position_json() == state.position_json()
    resolve(state)
    assert state.hand_serial == serial + 1
    assert state.game_no == 2
    assert state.hand_no == 1
    assert state.to_move() == (0 if state.hand_serial % 2 else 1)
    assert tuple(state.slots[0][1:]) == shuffled_deck(1, serial + 1)[:6]  # MIL-11: the match's deck goes on


def test_undo_walks_a_whole_match_back() -> None:
    """Make/unmake across hands, back from a finished game, restores every state exactly."""
    rng = random.Random(8)
    state = random_game(8, rng)
    seen = []
    replay = MILLE.new(seed=8)
    for action in state.history[:1500]:
        seen.append((json.dumps(replay.position_json()), json.dumps(replay.view(0)), replay.position_key()))
        replay.apply(action)
    while len(state.history) > 1500:
        state.undo()
    for before in reversed(seen):
        state.undo()
        assert (json.dumps(state.position_json()), json.dumps(state.view(0)), state.position_key()) == before
    with pytest.raises(IllegalActionError):
        state.undo()


def test_copies_share_nothing_even_through_undo() -> None:
    """A copy can undo into an earlier hand without touching the original."""
    rng = random.Random(4)
    state = MILLE.new(seed=4)
    while state.hand_serial < 2 or state.to_move() == CHANCE:
        step(state, rng)
    before = json.dumps(state.position_json())
    clone = state.copy()
    for _ in range(40):
        clone.undo()
    while clone.to_move() != NOBODY and len(clone.history) < len(state.history) + 200:
        step(clone, rng)
    assert json.dumps(state.position_json()) == before


def test_positions_round_trip() -> None:
    """``Mille.new(start=position_json())`` gives the same position, views and legal actions."""
    rng = random.Random(70)
    state = MILLE.new(seed=70)
    for _ in range(400):
        start = json.loads(json.dumps(state.position_json()))
        again = MILLE.new(seed=70, start=start)
        assert again.position_json() == state.position_json()
        assert again.view(0) == state.view(0)
        assert again.legal_actions() == state.legal_actions()
        step(state, rng)


@pytest.mark.parametrize(("start", "fault"), [
    ([], "must be a JSON object"),
    ({"hand": {"goal": 800}}, "hand.goal"),
    ({"hand": {"seats": [{"cards": ["go"] * 8}, {}]}}, "seven cards"),
    ({"hand": {"seats": [{"cards": ["right-of-way"]}, {"safeties": ["right-of-way"]}]}}, "more than 1"),
    ({"hand": {"seats": [{"miles": {"200": 3}}, {}]}}, "two 200s"),
    ({"hand": {"seats": [{"miles": {"100": 8}}, {}]}}, "past the goal"),
    ({"hand": {"seats": [{"battle": "25"}, {}]}}, "hand.seats[0].battle"),
    ({"hand": {"step": "draw", "pile": 0}}, "hand.step"),
    ({"hand": {"phase": "game_over"}}, "match.result"),
    ({"hand": {"pile": ["right-of-way", "right-of-way"]}}, "hand.pile"),
    ({"hand": {"between_hands": True, "phase": "chance", "dealt": 3}}, "hand.between_hands"),
    ({"hand": {"seats": [{"cards": ["go"]}, {}], "events": [{"event": "fly"}]}}, "unknown event"),
])
def test_bad_positions_are_refused_with_the_field(start: Any, fault: str) -> None:
    with pytest.raises(FormatError, match=fault.replace("[", r"\[").replace("]", r"\]")):
        MILLE.new(start=start)


def test_the_draw_step_lists_only_draw_and_cures() -> None:
    """MIL-20.1, MIL-35, MIL-36."""
    state = table({"cards": ["extra-tank", "right-of-way", "go", *SIX[:3]], "battle": "stop"},
                  {"cards": SIX})
    assert state.step == DRAW_STEP
    assert legal(state) == ["draw", "play right-of-way"]
    assert refused(state, "play go") == "must pick first"
