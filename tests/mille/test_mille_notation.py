"""The decision notation (MIL-64), the canonical listing (MIL-63), errors (MIL-65), records (MIL-66)."""

from __future__ import annotations

import random

import pytest
from mille_tables import MILLE, do, legal, refused, resolve, slots, step, table

from parlour.engine import CHANCE, FormatError, IllegalActionError, MatchRecord, NotationError, ParlourError
from parlour.games.mille import (
    MilleState,
    NotToActError,
    Refusal,
    action_text,
    card_action,
    coup_action,
    discard_action,
    play_action,
    split_hint,
)
from parlour.games.mille.actions import CARD, COUP, DISCARD, DRAW, EXTEND_NO, PLAY
from parlour.games.mille.cards import DRIVING_ACE, EMPTY, GO, KINDS, SAFETIES, STOP, TOKENS
from parlour.games.mille.notation import Written, read_action

SIX = ["25", "50", "75", "gasoline", "spare-tire", "repairs"]


def test_every_action_prints_and_reads_back() -> None:
    """MIL-64: output is exactly lower case, one space after the verb; it parses to the same action."""
    texts = {action_text(card_action(k)) for k in range(KINDS)}
    assert "card out-of-gas" in texts
    assert len(texts) == KINDS
    for kind in range(KINDS):
        assert action_text(play_action(kind)) == f"play {TOKENS[kind]}"
        assert action_text(discard_action(kind, 0)) == f"discard {TOKENS[kind]} @P"
    for kind in SAFETIES:
        assert action_text(coup_action(kind, 4)) == f"coup {TOKENS[kind]} @4"
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
                            text = f"{base} @{'P123456'[slot]}"
                            assert state.parse_action(text) == action  # the same decision
                            copy = state.copy()
                            assert copy.action_to_text(copy.play_text(text)) == text
                            assert split_hint(copy.history[-1])[0] == action
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
    assert state.action_to_text(state.copy().play_text(text)) == meaning  # the hint kept


def test_extension_answers() -> None:
    """MIL-64: y and n stand for yes and no."""
    state = table({"cards": ["100", *SIX[:5]], "battle": "go", "miles": {"100": 6}}, {"cards": SIX},
                  drawn=True)
    do(state, "play 100")
    assert state.action_to_text(state.parse_action("Extend Y")) == "extend yes"
    assert state.action_to_text(state.parse_action("extend n")) == "extend no"


@pytest.mark.parametrize("text", [
    "", "fly", "play", "play 3", "discard 1", "play p", "play 250", "discard goo", "coup go", "extend maybe",
    "draw now", "play go @7", "play go @", "2: draw", "x: draw", "card", "new_game now", "order sideways",
    "0: card go", "0: new_game", "order on", "0: order on", "1: order off", "new_game",
])
def test_nonsense_is_unparsable(text: str) -> None:
    """MIL-65: unparsable text is a NotationError, whatever the position (W-31: ``play 3``)."""
    state = table({"cards": ["go", *SIX]}, {"cards": SIX}, drawn=True)
    with pytest.raises(NotationError):
        state.parse_action(text)


def test_a_number_is_no_card_and_the_refusal_shows_the_cards_as_a_hand_does() -> None:
    """MIL-64: a number that is not a distance value is not a card (W-31: ``play 3``), even where a
    text hand numbers its cards (reading those numbers is the line interface's part); the refusal
    names the cards in the words the hand shows them (``Spare Tire``), so a person can retype."""
    state = table({"cards": ["go", *SIX]}, {"cards": SIX}, drawn=True)
    with pytest.raises(NotationError, match=r"not a card: '3' \(name a card as your hand shows it: 25, .*"
                                            r"Spare Tire, .*Right of Way\)$"):
        state.parse_action("play 3")


@pytest.mark.parametrize(("text", "written"), [
    ("draw", Written(None, DRAW, EMPTY, None)),
    ("1: extend n", Written(1, EXTEND_NO, EMPTY, None)),
    ("0:play Stop @3", Written(0, PLAY + STOP, STOP, 3)),
    ("discard go @p", Written(None, DISCARD + GO, GO, 0)),
    ("coup driving_ace", Written(None, COUP + DRIVING_ACE, DRIVING_ACE, None)),
    ("card GO", Written(None, CARD + GO, GO, None)),
])
def test_the_reader_knows_syntax_only(text: str, written: Written) -> None:
    """MIL-64, MIL-66: ``read_action`` says what the text says, asking no position (a play of a
    safety stays a play, the seat prefix is kept for the rules to check)."""
    assert read_action(text) == written


@pytest.mark.parametrize("text", ["", "fly", "play 250", "coup go", "extend maybe", "2: draw", "0: card go",
                                  "order on", "new_game", "play go @7"])
def test_the_reader_refuses_nonsense_as_the_state_does(text: str) -> None:
    """MIL-65: the reader's NotationError is the one ``parse_action`` raises, word for word."""
    state = table({"cards": ["go", *SIX]}, {"cards": SIX}, drawn=True)
    with pytest.raises(NotationError) as by_state:
        state.parse_action(text)
    with pytest.raises(NotationError) as by_reader:
        read_action(text)
    assert str(by_reader.value) == str(by_state.value)


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
    assert state.parse_action("play driving-ace @1") == coup_action(DRIVING_ACE)
    assert state.copy().play_text("play driving-ace @1") == coup_action(DRIVING_ACE, 1)


def test_the_canonical_order_of_decisions() -> None:
    """MIL-63: coups, draw, plays, discards, extension; one decision per kind."""
    state = table({"cards": ["right-of-way", "go", "go", "stop", "25", "extra-tank"], "battle": "stop",
                   "coup_window": "stop"}, {"cards": SIX, "battle": "go"}, drawn=True)
    assert legal(state) == ["coup right-of-way", "play stop", "play go", "play extra-tank",
                            "discard 25", "discard stop", "discard go"]


def test_the_lowest_slot_leaves_unless_a_hint_says_otherwise() -> None:
    """MIL-63, MIL-64: identical cards are interchangeable; the hint only changes the layout. A
    hinted decision is the listed one (``is_legal`` and ``parse_action`` know only that one) and
    is played with ``play_hinted``."""
    cards = ["stop", "go", "25", "50", "go", "75", "100"]
    state = table({"slots": cards}, {"cards": SIX}, drawn=True)
    do(state, "discard go")
    assert slots(state) == [None, "stop", "25", "50", "go", "75", "100"]
    state = table({"slots": cards}, {"cards": SIX}, drawn=True)
    with pytest.raises(Refusal, match="slot 2 of your hand does not hold a Go") as refused:
        state.play_hinted(discard_action(GO, 2))
    assert refused.value.bsd == "no card there"
    with pytest.raises(IllegalActionError, match="play_hinted"):
        state.play(discard_action(GO, 4))
    assert not state.is_legal(discard_action(GO, 4))
    assert state.is_legal(discard_action(GO))
    state.play_hinted(discard_action(GO, 4))
    assert slots(state) == [None, "go", "25", "50", "stop", "75", "100"]


def test_a_record_replays_from_its_text() -> None:
    """MIL-66: seat-prefixed decisions and chance outcomes (ordering and a new game are no
    actions of a game: MIL-17, MIL-56)."""
    rng = random.Random(66)
    state = MILLE.new(seed=66)
    while not state.is_over():
        step(state, rng)
    lines = state.record_lines()
    assert lines[:13] == [state.action_to_text(a) for a in state.history[:12]] + ["0: draw"]
    assert all(line.startswith(("0: ", "1: ", "card ")) for line in lines)
    again = MILLE.new(seed=66)
    for line in lines:
        again.play_text(line)
    assert again.position_json() == state.position_json()
    assert again.history == state.history
    assert MatchRecord.from_json(state.to_json()).replay(MILLE).record_lines() == lines


def texts_a_seat_may_send(state: MilleState) -> list[str]:
    """Every legal text with and without each seat's prefix and with every slot hint, what earlier
    versions read (ordering, new game), and mutations of them."""
    texts = []
    for action in state.legal_actions():
        base = action_text(action)
        texts += [base, f"0: {base}", f"1: {base}", base.upper(), f"{base} now"]
        if base.split()[0] in ("play", "discard", "coup"):
            texts += [f"{base} @{slot}" for slot in "P123456"]
            texts += [f"{verb} {base.split()[1]}" for verb in ("play", "discard", "coup")]
    texts += ["draw", "0: draw", "1: draw", "extend yes", "1: extend no", "card go", "1: card go"]
    texts += ["order on", "order off", "0: order on", "1: order on", "1: order off", "new_game"]
    return texts


def test_whatever_parses_is_legal_for_the_mover() -> None:
    """The legality gate (MIL-63 to MIL-65): over random games, every text any seat may send is
    either refused or read as a legal action; another seat's decision is refused as such
    (MIL-65), and ``order``/``new_game`` (MIL-17, MIL-56) are no actions at all."""
    rng = random.Random(63)
    refusals: dict[type, int] = {}
    for seed in range(6):
        state = MILLE.new(seed=seed)
        while not state.is_over() and state.hand_serial <= 2:
            if rng.random() < 0.3:
                for text in texts_a_seat_may_send(state):
                    try:
                        action = state.parse_action(text)
                    except ParlourError as error:
                        refusals[type(error)] = refusals.get(type(error), 0) + 1
                        continue
                    assert state.is_legal(action), (text, state.action_to_text(action))
                mover = state.to_move()
                if mover >= 0:
                    with pytest.raises(NotToActError, match=f"seat {1 - mover} is not to act"):
                        state.parse_action(f"{1 - mover}: {action_text(state.legal_actions()[0])}")
            step(state, rng)
    assert refusals[NotToActError]
    assert refusals[NotationError]
    assert refusals[IllegalActionError]
    with pytest.raises(NotationError, match="setting of the program"):
        state.parse_action("1: order on")
    with pytest.raises(NotationError, match="starts the next game"):
        state.parse_action("new_game")


def test_a_chance_outcome_is_legal_only_while_a_card_is_dealt_or_drawn() -> None:
    """MIL-62: ``card K`` names a card of the pile, only when chance is to move."""
    state = MILLE.new(seed=3)
    assert state.to_move() == CHANCE
    assert state.is_legal(state.parse_action("card go"))
    resolve(state)
    with pytest.raises(IllegalActionError, match="no card is being dealt"):
        state.parse_action("card go")


def test_a_record_of_an_earlier_version_with_ordering_is_refused_in_words() -> None:
    """Earlier versions recorded ``order on`` (code 193) and ``new_game`` (200) as actions."""
    state = resolve(MILLE.new(seed=5))
    record = state.to_json()
    record["actions"] = [*record["actions"], 193]
    with pytest.raises(FormatError, match="no longer game actions"):
        MILLE.state_from_json(record)
    assert MILLE.state_from_json(state.to_json()).position_json() == state.position_json()
