"""Mille Bornes typed into ``parlour play mille`` (issue 18): "``play mille`` numbers the hand
(``1 Spare Tire 2 Out of Gas …``) but ``discard 1`` says "not a card: '1'"; card names need hyphens
although they are shown with spaces; every turn needs a typed ``draw``."

Must hold: "hand numbers and names with spaces are accepted, drawing happens by itself where the
rules leave no choice". The numbers are MIL-64's slots (P, 1 to 6), as the hand shows them.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.engine import IllegalActionError, NotationError
from parlour.games import get_game
from parlour.tui import play

MILLE = get_game("mille")
ARGS = ["mille", "--seat", "1=bot:random", "--seed", "4", "--time", "0.01"]
HAND = ["25", "spare-tire", "go", "25", "stop", "extra-tank"]
"""Seat 0's hand in slots 1 to 6 (slot P empty): ``1 25  2 Spare Tire  3 Go  4 25  5 Stop  6 Extra Tank``."""


@pytest.fixture(autouse=True)
def data_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "parlour"


def run(lines: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    status = play.main(ARGS)
    assert status == 0
    return capsys.readouterr().out


def position(**hand: Any) -> Any:
    """Seat 0 to play or discard, holding ``HAND`` (its draw made)."""
    seats = [{"cards": HAND}, {"cards": ["50"] * 6}]
    return MILLE.new(start={"hand": {"seats": seats, "drawn": True, **hand}}, seed=1)


def shown_hands(out: str) -> list[dict[str, str]]:
    """Each ``Your cards:`` line of the output: slot name → the card's name as shown."""
    hands = []
    for line in re.findall(r"^Your cards: (.*)$", out, re.MULTILINE):
        hands.append(dict(re.findall(r"([P1-6]) (.+?)(?=\s{2}[P1-6] |$)", line)))
    return hands


def token(name: str) -> str:
    return "-".join(name.lower().split())


# --- the reader ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "meaning"),
    [
        ("discard 1", "discard 25"),
        ("play 3", "play go"),
        ("DISCARD 2", "discard spare-tire"),
        ("play 6", "play extra-tank"),
        ("discard spare tire", "discard spare-tire"),
        ("Discard Spare Tire", "discard spare-tire"),
        ("play   Extra  Tank", "play extra-tank"),
        ("discard STOP", "discard stop"),
        ("0: discard 5", "discard stop"),
    ],
)
def test_a_card_is_named_by_its_number_or_its_name_with_spaces(text: str, meaning: str) -> None:
    state = position()
    assert state.action_to_text(state.parse_action(text)) == meaning


def test_the_number_names_that_very_card() -> None:
    # MIL-64: without a slot the lowest slot holding the kind leaves; "discard 4" is slot 4's 25,
    # kept as its slot hint where a program keeps hints (play_text), the same decision elsewhere.
    state = position()
    assert state.action_to_text(state.parse_action("discard 4")) == "discard 25"
    assert state.action_to_text(state.play_text("discard 4")) == "discard 25 @4"


def test_a_number_without_a_card_or_the_wrong_card_is_refused_in_words() -> None:
    state = position()
    with pytest.raises(IllegalActionError, match="there is no card in slot P of your hand"):
        state.parse_action("discard p")
    with pytest.raises(IllegalActionError, match="claimed with a safety, and slot 3 holds Go"):
        state.parse_action("coup 3")
    refusal = r"not a card: '7' \(name a card as your hand shows it: .*Spare Tire.*; or by its number there"
    with pytest.raises(NotationError, match=refusal):
        state.parse_action("discard 7")


# --- parlour play mille ----------------------------------------------------------------------------


def test_discard_by_the_number_the_hand_shows(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["discard 1", "quit", "n"], monkeypatch, capsys)
    shown = shown_hands(out)[0]
    assert f"Player 1 plays discard {token(shown['1'])}\n" in out
    assert "not a card" not in out


def test_play_by_a_name_with_spaces_as_the_hand_shows_it(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    first = run(["quit", "n"], monkeypatch, capsys)
    name = next(name for name in shown_hands(first)[0].values() if " " in name)  # e.g. End of Limit
    out = run([f"discard {name.upper()}", "quit", "n"], monkeypatch, capsys)
    assert f"Player 1 plays discard {token(name)}\n" in out


def test_the_draw_happens_by_itself_and_says_what_was_drawn(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["discard 1", "discard 2", "discard 3", "quit", "n"], monkeypatch, capsys)
    assert "draw" not in "".join(re.findall(r"to move> (.*)", out))  # never typed, never asked for
    draws = re.findall(r"Player 1 plays draw \(the only legal move\)\nYou get: card (\S+)\n", out)
    assert len(draws) == 4  # the first turn's and one after each discard
    hands = shown_hands(out)
    assert len(hands) == 4
    for drawn, hand in zip(draws, hands, strict=True):
        assert token(hand["P"]) == drawn  # the card drawn shows in slot P
    assert "Player 2 plays draw\n" in out
    assert out.count("You get:") == 4  # the bot's draws are not said
