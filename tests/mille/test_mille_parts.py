"""An action's parts as data (``State.action_parts``, MIL-63, MIL-64): what a front end builds a
decision from without reading the notation, and that they tell no seat a card it may not see."""

from __future__ import annotations

import json
import random

from mille_tables import MILLE, do, step, table

from parlour.engine import CHANCE
from parlour.games.mille import MilleState, coup_action, discard_action, play_action
from parlour.games.mille.cards import DRIVING_ACE, GO, SLOT_NAMES


def check_decision_parts(state: MilleState) -> None:
    """MIL-63, MIL-64: the verb, the card, and the slot the card leaves from (the lowest holding
    that kind); ``extend`` says yes or no; nothing else."""
    hand = state.slots[state.to_move()]
    for action in state.legal_actions():
        words = state.action_to_text(action).split()
        parts = state.action_parts(action)
        assert parts["kind"] == words[0]
        if words[0] in ("play", "discard", "coup"):
            assert parts["card"] == words[1]
            assert parts["slot"] == SLOT_NAMES[hand.index(action % 32)]
            assert set(parts) == {"kind", "card", "slot"}
        elif words[0] == "extend":
            assert parts == {"kind": "extend", "yes": words[1] == "yes"}
        else:
            assert parts == {"kind": "draw"}


def check_chance_parts(state: MilleState) -> None:
    """A card dealt or drawn: the card, who receives it and where (MIL-60, MIL-62). Its parts are
    no seat's to read (the server sends parts only of the mover's legal actions): another seat
    reads the action as ``card ?`` (``action_text_for``)."""
    seat, slot = state.receiving()
    for action in state.legal_actions():
        card = state.action_to_text(action).split()[1]
        expected = {"kind": "card", "card": card, "seat": seat, "slot": SLOT_NAMES[slot]}
        assert state.action_parts(action) == expected
        assert state.action_text_for(action, 1 - seat) == state.action_text_for(action, None) == "card ?"


def test_parts_over_random_games() -> None:
    """Every legal action's parts, at every ply of a few random hands; what the mover is sent
    (the parts of its legal actions) holds no text hidden from it (MIL-57)."""
    rng = random.Random(64)
    for seed in range(8):
        state = MILLE.new(seed=seed)
        while not state.is_over() and state.hand_serial <= 2:
            mover = state.to_move()
            if mover == CHANCE:
                check_chance_parts(state)
            else:
                check_decision_parts(state)
                sent = json.dumps([state.action_parts(action) for action in state.legal_actions()])
                assert not any(secret in sent for secret in state.hidden_from(mover))
            step(state, rng)


def test_a_hint_is_the_slot_and_a_coup_names_its_safety() -> None:
    """MIL-64: ``play go @5`` leaves from slot 5; a coup fourré's card is the safety (MIL-39)."""
    state = table({"slots": [None, "go", "25", "50", "go", "75", "100"]}, {"cards": ["stop"]},
                  drawn=True)
    assert state.action_parts(play_action(GO)) == {"kind": "play", "card": "go", "slot": "1"}
    assert state.action_parts(play_action(GO, 4)) == {"kind": "play", "card": "go", "slot": "4"}
    assert state.action_parts(discard_action(GO, 4))["slot"] == "4"
    # W-20: S1 has just played Accident on S0, who holds Driving Ace in slot 1.
    state = table({"cards": ["driving-ace", "25", "50", "75", "gasoline", "spare-tire"], "battle": "go"},
                  {"cards": ["accident", "25"]}, to_act=1, drawn=True, pile=60)
    do(state, "1: play accident")
    assert state.to_move() == 0
    assert coup_action(DRIVING_ACE) in state.legal_actions()
    coup = {"kind": "coup", "card": "driving-ace", "slot": "1"}
    assert state.action_parts(coup_action(DRIVING_ACE)) == coup
