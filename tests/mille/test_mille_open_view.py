"""The open view of Mille Bornes (issue 15): "once a match is over its whole record is public (all
hands shown), as at a real table". ``open_view()`` is a spectator's view plus every seat's hand of
cards (``hands``) and the cards each just received (``received``), written as each seat's own view
writes them; the seats' and spectators' views stay as they were (MIL-57, MIL-59)."""

from __future__ import annotations

import json
import random
from typing import Any

from mille_tables import MILLE, resolve, step, table

from parlour.engine import RESIGNED
from parlour.games.mille import MilleState

ENVELOPE = {"game", "seat", "seats", "options", "to_move", "outcome", "out", "content"}
SIX = ["25", "50", "75", "gasoline", "spare-tire", "repairs"]
SECRET_KEYS = {"pile", "seed", "record", "actions", "history", "private"}
"""What an open view still never holds: the pile's order (the record shows each card as it was
drawn), the seed, the record itself, and no seat's private part (no legal actions)."""


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(keys_in(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_in(item) for item in value))
    return set()


def check_open(state: MilleState) -> dict[str, Any]:
    """The open view: JSON, the spectator's envelope and content, and each seat's own hand."""
    view: dict[str, Any] = json.loads(json.dumps(state.open_view()))
    spectator = state.view(None)
    assert set(view) == ENVELOPE
    assert {key: value for key, value in view.items() if key != "content"} == \
        {key: value for key, value in spectator.items() if key != "content"}
    content = view["content"]
    assert {key: value for key, value in content.items() if key not in ("hands", "received")} == \
        spectator["content"]
    for seat in (0, 1):
        own = state.view(seat)["content"]["private"]
        assert content["hands"][seat] == own["slots"], f"seat {seat}'s hand differs from its own view"
        assert content["received"][seat] == own["received"]
    assert not keys_in(view) & SECRET_KEYS, f"the open view holds {keys_in(view) & SECRET_KEYS}"
    return view


def check_spectator_sees_no_hand(state: MilleState) -> None:
    """The change leaks nothing: a spectator's view holds no hand and none of the hidden texts."""
    view = state.view(None)
    assert not {"hands", "received", "private"} & set(view["content"])
    text = json.dumps(view)
    for secret in state.hidden_from(None):
        assert secret not in text, f"view(None) reveals {secret!r}"


def test_the_open_view_of_a_dealt_hand_holds_both_hands_as_each_seat_sees_its_own() -> None:
    state = resolve(MILLE.new(seed=15))  # six cards dealt to each seat; seat 0 to draw
    view = check_open(state)
    hands = view["content"]["hands"]
    assert [sum(card is not None for card in hand) for hand in hands] == [6, 6]
    assert [hand[0] for hand in hands] == [None, None]  # the drawn card's slot is empty before a draw
    assert [len(cards) for cards in view["content"]["received"]] == [6, 6]  # the deal just made
    check_spectator_sees_no_hand(state)


def test_a_written_position_shows_exactly_its_cards() -> None:
    state = table({"cards": ["go", "stop", *SIX[:5]], "battle": "go"}, {"cards": SIX, "battle": "stop"},
                  drawn=True)
    hands = check_open(state)["content"]["hands"]
    assert hands == [["go", "stop", *SIX[:5]], [None, *SIX]]
    check_spectator_sees_no_hand(state)


def test_a_finished_game_shows_every_hand_left_at_the_end() -> None:
    rng = random.Random(15)
    state = MILLE.new(seed=15)
    while not state.is_over():
        step(state, rng)
    view = check_open(state)
    assert view["outcome"] is not None
    assert view["to_move"] is None
    check_spectator_sees_no_hand(state)


def test_a_resigned_game_shows_the_hands_as_they_were_left() -> None:
    # MIL-109: the hand stops where it is, its cards hidden from the seats' views; the open view
    # (a replay of the finished match) shows them.
    state = table({"cards": ["go", "stop", *SIX[:5]], "battle": "go"}, {"cards": SIX, "battle": "stop"},
                  drawn=True)
    state.retire(0, RESIGNED)
    assert check_open(state)["content"]["hands"] == [["go", "stop", *SIX[:5]], [None, *SIX]]
    check_spectator_sees_no_hand(state)


def test_every_ply_of_a_hand_keeps_the_open_view_and_the_spectator_apart() -> None:
    rng = random.Random(7)
    state = MILLE.new(seed=7)
    while state.hand_serial == 1 and not state.is_over():
        check_open(state)
        check_spectator_sees_no_hand(state)
        step(state, rng)
