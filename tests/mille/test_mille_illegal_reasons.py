"""Issue 18: an illegal Mille Bornes decision says why in words, from the rules (specs/mille.md:
MIL-20 to MIL-45), naming the decision; the BSD program's message for the same check (MIL-65)
travels with it as ``Refusal.bsd`` for ``parlour mille``. Typed or played as a number alike, and
nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from mille_tables import table

from parlour.engine import IllegalActionError
from parlour.games.mille import MilleState, Refusal, play_action
from parlour.games.mille.cards import D75

SIX = ["25", "50", "75", "gasoline", "spare-tire", "repairs"]


def refusal(state: MilleState, text: str) -> Refusal:
    """The refusal of the typed ``text``; nothing changes."""
    before = state.position_json()
    with pytest.raises(Refusal) as typed:
        state.play_text(text)
    assert state.position_json() == before
    return typed.value


def you(cards: list[str], **table_part: Any) -> dict[str, Any]:
    return {"cards": cards, **table_part}


def words(state: MilleState, text: str) -> tuple[str, str]:
    refused = refusal(state, text)
    return str(refused), refused.bsd


def test_before_drawing_only_a_cure_may_be_played() -> None:
    """MIL-20, MIL-23, MIL-35, MIL-36: the draw step."""
    state = table(you(["75", "extra-tank", *SIX[:5]]), {"cards": SIX})
    assert words(state, "play 75") == (
        "play 75: draw a card first: before drawing only a safety that cures your hazard may be played "
        "(MIL-20, MIL-35)", "must pick first")
    assert words(state, "discard 75") == (
        "discard 75: draw a card first: a card is discarded only after drawing (MIL-23)", "must pick first")
    assert words(state, "play extra-tank") == (
        "play extra-tank: draw a card first: before drawing a safety is played only as a cure, and the "
        "Extra Tank cures nothing on you now (MIL-35, MIL-36)", "must pick first")
    assert words(state, "coup extra-tank") == (
        "coup extra-tank: the Extra Tank is no coup fourré now: that needs the hazard it answers just played "
        "on you, still on top, before you draw (MIL-39)", "no coup fourre")


def test_a_card_not_in_the_hand() -> None:
    """MIL-65: no card there, with or without a slot hint."""
    state = table(you(SIX), {"cards": SIX}, drawn=True)
    assert words(state, "play 200") == ("play 200: there is no 200 in your hand", "no card there")
    assert words(state, "discard 25 @3") == (
        "discard 25: slot 3 of your hand does not hold a 25", "no card there")


def test_the_issue_s_examples_stopped_limited_and_over_the_goal() -> None:
    """MIL-18, MIL-26, MIL-32: a stopped car needs its repair and a Go; a Speed Limit caps at 50;
    no trip past its goal; two 200s a hand."""
    state = table(you(["25", *SIX[1:]], battle="flat-tire"), {"cards": SIX}, drawn=True)
    assert words(state, "play 25") == (
        "play 25: distance is played only while rolling, and you are stopped by Flat Tire: you need Spare "
        "Tire, then a Go (MIL-18, MIL-26)", "cannot move now")
    state = table(you(["75", "50", "25", *SIX[3:]], battle="go", speed="speed-limit"), {"cards": SIX},
                  drawn=True)
    assert words(state, "play 75") == (
        "play 75: a Speed Limit caps you at 50: under it you play only 25s and 50s, not 75s (MIL-26, "
        "MIL-32)", "limit of 50")
    state = table(you(["75", "100", "50", *SIX[3:]], battle="go", miles={"100": 6, "50": 1}),
                  {"cards": SIX}, drawn=True)
    assert words(state, "play 100") == (
        "play 100: 100 would take you to 750 miles, over this hand's goal of 700 (MIL-26)",
        "puts you over 700")
    state = table(you(["200", *SIX], battle="go", miles={"200": 2}), {"cards": SIX}, drawn=True)
    assert words(state, "play 200") == (
        "play 200: you have played two 200s this hand, the most a hand allows (MIL-26)",
        "only two 200's per hand")


def test_remedies_and_hazards_say_what_the_piles_show() -> None:
    """MIL-27 to MIL-31."""
    state = table(you(["gasoline", "go", "end-of-limit", "stop", *SIX[:3]], battle="go"),
                  {"cards": SIX, "safeties": ["right-of-way"]}, drawn=True)
    assert words(state, "play gasoline") == (
        "play gasoline: Gasoline repairs Out of Gas, and your battle pile shows Go (MIL-27)",
        "can't play \"Gasoline\"")
    assert words(state, "play go") == (
        "play go: you are rolling already: a Go goes on an empty battle pile, a Stop or a repair (MIL-28)",
        "cannot play \"Go\" on a \"Go\"")
    assert words(state, "play end-of-limit") == (
        "play end-of-limit: End of Limit lifts a Speed Limit, and you are not under one (MIL-29)",
        "not limited")
    assert words(state, "play stop") == (
        "play stop: your opponent has played the Right of Way, which keeps the Stop off (MIL-30, MIL-31)",
        "opponent is protected")
    stopped = table(you(["stop", *SIX]), {"cards": SIX, "battle": "accident"}, drawn=True)
    assert words(stopped, "play stop") == (
        "play stop: a Stop stops a rolling car, and your opponent is not rolling (MIL-30)",
        "opponent cannot go")


def test_safeties_are_never_discarded_and_draws_come_once() -> None:
    """MIL-21, MIL-23, MIL-45."""
    state = table(you(["driving-ace", *SIX]), {"cards": SIX}, drawn=True)
    assert words(state, "discard driving-ace") == (
        "discard driving-ace: a safety is never discarded: play the Driving Ace instead (MIL-23, MIL-34)",
        "discard a safety?")
    assert words(state, "draw") == (
        "draw: you have drawn this turn already: play or discard a card (MIL-21)", "already picked")
    assert words(state, "extend yes") == (
        "extend yes: there is no extension to decide now (MIL-45)", "not now")


def test_play_refuses_a_number_in_the_same_words() -> None:
    """``State.play`` (the server's gate) names the same reason as the typed decision."""
    state = table(you(["75", "50", "25", *SIX[3:]], battle="go", speed="speed-limit"), {"cards": SIX},
                  drawn=True)
    with pytest.raises(IllegalActionError) as played:
        state.play(play_action(D75))
    assert str(played.value) == str(refusal(state, "play 75"))
    assert played.value.reason.startswith("a Speed Limit caps you at 50")
