"""The decision notation (MIL-64), the canonical listing (MIL-63), errors (MIL-65), records (MIL-66)."""

from __future__ import annotations

import random

import pytest
from mille_tables import MILLE, do, legal, refused, resolve, slots, step, table

from parlour.engine import IllegalActionError, MatchRecord, NotationError
from parlour.games.mille import (
    NEW_GAME,
    NotToActError,
    action_text,
    card_action,
    coup_action,
    discard_action,
    order_action,
    play_action,
)
from parlour.games.mille.cards import DRIVING_ACE, GO, KINDS, SAFETIES, TOKENS

SIX = ["25", "50", "75", "gasoline", "spare-tire", "repairs"]


def test_every_action_prints_and_reads_back() -> None:
    """MIL-64: output is exactly lower case, one space after the verb; it parses to the same action."""
    texts = {action_text(card_action(k)) for k in range(KINDS)}
    assert "card out-of-gas" in texts and len(texts) == KINDS
    for kind in range(KINDS):
        assert action_text(play_action(kind)) == f"play {TOKENS[kind]}"
        assert action_text(discard_action(kind, 0)) == f"discard {TOKENS[kind]} @P"
    for kind in SAFETIES:
        assert action_text(coup_action(kind, 4)) == f"coup {TOKENS[kind]} @4"
    assert action_text(order_action(1, True)) == "order on" and action_text(NEW_GAME) == "new_game"
    rng = random.Random(64)
    for seed in range(20):
        state = MILLE.new(seed=seed)
        while not state.is_over() and state.hand_serial == 1:
            for action in state.legal_actions():
                assert state.parse_action(state.action_to_text(action)) == action
            if state.to_move() >= 0:
                seat = state.to_move()
                for action in state.legal_actions():  # each with every hint that names its card
                    base = action_text(action)
                    for slot, kind in enumerate(state.slots[seat]):
                        if " " in base and base.split()[1] == (TOKENS[kind] if kind >= 0 else None):
                            hinted = state.parse_action(f"{base} @{'P123456'[slot]}")
                            assert state.action_to_text(hinted) == f"{base} @{'P123456'[slot]}"
            step(state, rng)


@pytest.mark.parametrize(("text", "meaning"), [
    ("Play Out of Gas", "play out-of-gas"),  # W-31
    ("play out_of_gas", "play out-of-gas"),
    ("  PLAY   out - of - gas ", "play out-of-gas"),
    ("discard Spare Tire @p", "discard spare-tire @P"),
    ("0: play stop", "play stop"),
    ("0:draw", "draw"),
])
def test_input_is_forgiving(text: str, meaning: str) -> None:
    """MIL-64: case, surrounding spaces and separators inside card names do not matter."""
    state = table({"slots": ["spare-tire", "out-of-gas", "stop", *SIX[:4]], "battle": "go"},
                  {"cards": SIX, "battle": "go"}, drawn=meaning != "draw")
    assert state.action_to_text(state.parse_action(text)) == meaning


def test_extension_answers() -> None:
    """MIL-64: y and n stand for yes and no."""
    state = table({"cards": ["100", *SIX[:5]], "battle": "go", "miles": {"100": 6}}, {"cards": SIX},
                  drawn=True)
    do(state, "play 100")
    assert state.action_to_text(state.parse_action("Extend Y")) == "extend yes"
    assert state.action_to_text(state.parse_action("extend n")) == "extend no"


@pytest.mark.parametrize("text", [
    "", "fly", "play", "play 3", "play 250", "discard goo", "coup go", "extend maybe", "draw now",
    "play go @7", "play go @", "2: draw", "x: draw", "card", "new_game now", "order sideways",
    "0: card go", "0: new_game",
])
def test_nonsense_is_unparsable(text: str) -> None:
    """MIL-65: unparsable text is a NotationError, whatever the position (W-31: ``play 3``)."""
    state = table({"cards": ["go", *SIX]}, {"cards": SIX}, drawn=True)
    with pytest.raises(NotationError):
        state.parse_action(text)


def test_a_decision_for_the_seat_not_to_act() -> None:
    """MIL-65: the second kind of error."""
    state = table({"cards": SIX}, {"cards": SIX})
    with pytest.raises(NotToActError, match="seat 1 is not to act"):
        state.parse_action("1: draw")
    do(state, "0: draw")
    with pytest.raises(NotToActError):
        state.parse_action("play go")


def test_errors_of_each_step() -> None:
    """MIL-65's table."""
    state = table({"cards": ["go", "extra-tank", *SIX[:4]]}, {"cards": SIX})
    assert refused(state, "discard 25") == "must pick first"
    assert refused(state, "play 200") == "must pick first"  # not held, before drawing (MIL-88)
    assert refused(state, "play extra-tank") == "must pick first"
    assert refused(state, "coup extra-tank") == "no coup fourre"
    assert refused(state, "extend yes") == "not now"
    do(state, "draw")
    with pytest.raises(NotToActError):
        state.parse_action("draw")
    resolve(state)
    assert refused(state, "draw") == "already picked"
    assert refused(state, "play 200") == "no card there"
    assert refused(state, "discard extra-tank") == "discard a safety?"
    assert refused(state, "coup extra-tank") == "no coup fourre"
    state = table({"cards": ["go"]}, {"cards": SIX}, pile=0)
    assert refused(state, "draw") == "no more cards"


def test_play_of_a_coup_is_the_coup() -> None:
    """MIL-63: when a safety play would be a coup fourré only ``coup K`` is listed; ``play K`` is it."""
    state = table({"cards": ["driving-ace", *SIX[:5]], "battle": "accident", "coup_window": "accident"},
                  {"cards": SIX})
    assert legal(state) == ["coup driving-ace", "draw"]
    assert state.parse_action("play driving-ace") == coup_action(DRIVING_ACE)
    assert state.parse_action("play driving-ace @1") == coup_action(DRIVING_ACE, 1)


def test_the_canonical_order_of_decisions() -> None:
    """MIL-63: coups, draw, plays, discards, extension; one decision per kind."""
    state = table({"cards": ["right-of-way", "go", "go", "stop", "25", "extra-tank"], "battle": "stop",
                   "coup_window": "stop"}, {"cards": SIX, "battle": "go"}, drawn=True)
    assert legal(state) == ["coup right-of-way", "play stop", "play go", "play extra-tank",
                            "discard 25", "discard stop", "discard go"]


def test_the_lowest_slot_leaves_unless_a_hint_says_otherwise() -> None:
    """MIL-63, MIL-64: identical cards are interchangeable; the hint only changes the layout."""
    cards = ["stop", "go", "25", "50", "go", "75", "100"]
    state = table({"slots": cards}, {"cards": SIX}, drawn=True)
    do(state, "discard go")
    assert slots(state) == [None, "stop", "25", "50", "go", "75", "100"]
    state = table({"slots": cards}, {"cards": SIX}, drawn=True)
    with pytest.raises(IllegalActionError, match="no card there"):
        state.play(discard_action(GO, 2))
    state.play(discard_action(GO, 4))
    assert slots(state) == [None, "go", "25", "50", "stop", "75", "100"]


def test_a_record_replays_from_its_text() -> None:
    """MIL-66: seat-prefixed decisions, chance outcomes, ordering entries and new_game."""
    rng = random.Random(66)
    state = MILLE.new(seed=66)
    while not state.is_over():
        step(state, rng)
        if len(state.history) == 40:
            state.play_text("1: order on")
    state.play_text("new_game")
    lines = state.record_lines()
    assert lines[:13] == [state.action_to_text(a) for a in state.history[:12]] + ["0: draw"]
    assert "1: order on" in lines and lines[-1] == "new_game"
    assert all(line.startswith(("0: ", "1: ", "card ", "new_game")) for line in lines)
    again = MILLE.new(seed=66)
    for line in lines:
        again.play_text(line)
    assert again.position_json() == state.position_json() and again.history == state.history
    assert MatchRecord.from_json(state.to_json()).replay(MILLE).record_lines() == lines
