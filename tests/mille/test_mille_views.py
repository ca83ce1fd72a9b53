"""Hidden information (MIL-57 to MIL-59): what each view shows, what it never shows, and states
sampled from a view (for determinised search)."""

from __future__ import annotations

import json
import random
from typing import Any

from mille_tables import MILLE, do, resolve, step, table

from parlour.engine import FormatError
from parlour.games.mille import MilleState
from parlour.games.mille.cards import COPIES, EMPTY, KINDS, TOKENS
from parlour.games.mille.views import private_part, unseen_cards

HANDS = 2000
"""Random hands played by the leak test (each from a fresh match seed)."""
CHECKS_PER_HAND = 3


def viewers() -> list[int | None]:
    return [0, 1, None]


def public(view: dict[str, Any]) -> dict[str, Any]:
    """The envelope without its seat, and the content without the seat's private part."""
    shared = {key: value for key, value in view.items() if key not in ("seat", "content")}
    return {**shared, "content": {key: value for key, value in view["content"].items() if key != "private"}}


def check_view(state: MilleState, seat: int | None) -> dict[str, Any]:
    """MIL-57/59 on one view: JSON, no hidden text, exactly the viewer's own cards."""
    view = state.view(seat)
    text = json.dumps(view)
    for secret in state.hidden_from(seat):
        assert secret not in text, f"view({seat}) reveals {secret!r}"
    assert view["seat"] == seat
    if seat is None:
        assert "private" not in view["content"]
    else:
        private = view["content"]["private"]
        assert private["seat"] == seat
        assert private["slots"] == [None if k == EMPTY else TOKENS[k] for k in state.slots[seat]]
    return view


def check_resampled(state: MilleState, seat: int | None, rng: random.Random) -> None:
    """A view depends on nothing hidden: re-dealing the unseen cards (MIL-58) changes no byte of it."""
    view = state.view(seat)
    sampled = MILLE.sample_state(json.loads(json.dumps(view)), rng)
    assert sampled.view(seat) == view
    if seat is not None and state.to_move() == seat:
        assert sampled.legal_actions() == state.legal_actions()


def test_no_view_ever_shows_a_card_it_may_not() -> None:
    """MIL-57, MIL-59: thousands of random hands; at random plies (about CHECKS_PER_HAND a hand)
    and at each hand's end every view is checked, and once a hand re-dealing the unseen cards
    must not change a view."""
    rng = random.Random(57)
    chance = CHECKS_PER_HAND / 280  # a random hand lasts about 280 plies
    for seed in range(HANDS):
        state = MILLE.new(seed=seed)
        resampled = False
        while state.hand_serial == 1 and not state.is_over():
            if rng.random() < chance:
                views = [check_view(state, seat) for seat in viewers()]
                assert public(views[0]) == public(views[1]) == public(views[2])  # MIL-57
                if not resampled:
                    check_resampled(state, rng.choice(viewers()), rng)
                    resampled = True
            step(state, rng)
        for seat in viewers():
            check_view(state, seat)


def test_hidden_from_catches_a_leaking_view() -> None:
    """The texts of ``hidden_from`` are what a leak would write: the other seat's part, the pile."""
    state = resolve(MILLE.new(seed=9))
    leaky = state.view(0)
    leaky["content"]["private"] = private_part(state, 1)
    assert any(secret in json.dumps(leaky) for secret in state.hidden_from(0))
    leaky = state.view(None)
    leaky["content"]["hand"]["pile"] = [TOKENS[k] for k in reversed(state.pile)]
    assert any(secret in json.dumps(leaky) for secret in state.hidden_from(None))
    leaky = state.view(1)
    leaky["content"]["hand"]["seats"][0]["slots"] = private_part(state, 0)["slots"]
    assert any(secret in json.dumps(leaky) for secret in state.hidden_from(1))


def test_views_hold_what_mil57_lists() -> None:
    """MIL-57: the match, the flow, the pile size, piles, events; own cards, received, decisions."""
    state = resolve(MILLE.new(seed=3))
    do(state, "draw")
    drawn = state.sample_chance()
    resolve(state)
    view = state.view(0)
    content = view["content"]
    assert content["match"] == {"game_no": 1, "hand_no": 1, "hand_serial": 1, "games_won": [0, 0],
                             "totals": [0, 0], "result": None, "last_hand": None}
    hand = content["hand"]
    assert (hand["phase"], hand["step"], hand["to_act"], hand["pile_size"]) == ("decision", "play", 0, 88)
    assert hand["events"] == [{"event": "deal", "hand_serial": 1, "starter": 0},
                              {"event": "draw", "seat": 0, "cards": 1}]
    assert hand["seats"][0]["cards"] == 7
    assert hand["seats"][0]["drawn"]
    assert not hand["seats"][1]["drawn"]
    assert content["private"]["received"] == [state.action_to_text(drawn).split()[1]]
    assert content["private"]["legal"] == [state.action_to_text(a) for a in state.legal_actions()]
    other = state.view(1)["content"]["private"]
    assert other["legal"] == []
    assert len(other["received"]) == 6
    assert "seed" not in json.dumps(view)
    assert "record" not in json.dumps(view)


def test_a_sampled_state_is_consistent_with_the_view() -> None:
    """MIL-58: own cards and everything public kept; the unseen cards shared by the pile and the
    opponent's hand, differently for different samples."""
    state = resolve(MILLE.new(seed=11))
    rng = random.Random(0)
    for _ in range(30):
        step(state, rng)
    view = state.view(1)
    unseen = sorted(unseen_cards(view["content"]))
    assert unseen == sorted(state.pile + [k for k in state.slots[0] if k != EMPTY])
    hidden_hands = set()
    for _ in range(20):
        sampled = MILLE.sample_state(view, rng)
        assert sampled.slots[1] == state.slots[1]
        assert sampled.view(1) == view
        assert sorted(sampled.pile + [k for k in sampled.slots[0] if k != EMPTY]) == unseen
        assert sampled.history == []
        assert sampled.seed != state.seed
        hidden_hands.add(tuple(sorted(sampled.slots[0])))
        sampled.play(sampled.legal_actions()[0])  # a sampled state plays on
    assert len(hidden_hands) > 1
    spectator = MILLE.sample_state(state.view(None), rng)
    assert spectator.view(None) == state.view(None)


def test_redeal_is_a_cheap_new_sample() -> None:
    """``redeal`` shuffles only what the viewer cannot see; the view and the decisions stay."""
    rng = random.Random(21)
    state = resolve(MILLE.new(seed=21))
    for _ in range(60):
        step(state, rng)
    for viewer in viewers():
        view = state.view(viewer)
        sampled = MILLE.sample_state(view, rng)
        hands = set()
        for _ in range(10):
            again = sampled.redeal(viewer, rng)
            assert again.view(viewer) == view
            assert again.history == []
            assert MILLE.new(seed=again.seed, start=again.start).position_json() == again.position_json()
            hands.add((tuple(again.slots[0]), tuple(again.slots[1])))
        assert len(hands) > 1
    assert state.redeal(0, rng).slots[0] == state.slots[0]


def test_a_sampled_state_counts_every_card() -> None:
    """MIL-1: a sampled state holds the 101 cards."""
    state = resolve(MILLE.new(seed=5))
    sampled = MILLE.sample_state(state.view(0), random.Random(1))
    counts = [0] * KINDS
    for seat in (0, 1):
        for kind in sampled.hand_of(seat):
            counts[kind] += 1
    for kind in sampled.pile:
        counts[kind] += 1
    assert counts == list(COPIES)


def test_a_view_that_cannot_be_is_refused() -> None:
    state = resolve(MILLE.new(seed=5))
    view = state.view(0)
    view["content"]["hand"]["discards"] = ["right-of-way", "right-of-way"]
    try:
        MILLE.sample_state(view, random.Random(0))
    except FormatError:
        pass
    else:
        raise AssertionError("a view with two Rights of Way must be refused")
    try:
        MILLE.sample_state({"game": "mille"}, random.Random(0))
    except FormatError:
        pass
    else:
        raise AssertionError("a view without its hand must be refused")


def test_another_seats_draw_is_not_printed() -> None:
    """A card dealt or drawn is only shown to the seat that receives it (MIL-57, MIL-67)."""
    state = MILLE.new(seed=2)
    action = state.sample_chance()
    assert state.action_text_for(action, 0) == state.action_to_text(action)
    assert state.action_text_for(action, 1) == "card ?"
    assert state.action_text_for(action, None) == "card ?"


def test_render_shows_only_the_viewers_cards() -> None:
    state = table({"cards": ["go", "25"]}, {"cards": ["extra-tank", "stop"]}, pile=5)
    assert "Go" in state.render(0)
    assert "Extra Tank" not in state.render(0)
    assert "Extra Tank" in state.render(1)
    assert "Your cards" not in state.render(None)


def test_a_view_is_the_envelope_and_depends_on_neither_seed_nor_record() -> None:
    """MIL-10, MIL-57: the one envelope, Mille's content under ``content``; the same position
    under another seed and without its history gives every seat the very same view."""
    rng = random.Random(10)
    state = resolve(MILLE.new(seed=10))
    for _ in range(80):
        step(state, rng)
    position = state.position_json()
    elsewhere = MILLE.new(seed=987_654_321, start=position)
    assert elsewhere.history == []
    assert elsewhere.seed != state.seed
    for seat in viewers():
        view = state.view(seat)
        assert set(view) == {"game", "seat", "seats", "options", "to_move", "outcome", "out", "content"}
        assert set(view["content"]) == {"match", "hand"} | ({"private"} if seat is not None else set())
        assert view == elsewhere.view(seat)
