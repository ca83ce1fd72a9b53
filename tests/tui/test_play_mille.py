"""Mille Bornes typed into ``parlour play mille`` (issue 18): "``play mille`` numbers the hand
(``1 Spare Tire 2 Out of Gas …``) but ``discard 1`` says "not a card: '1'"; card names need hyphens
although they are shown with spaces; every turn needs a typed ``draw``."

Must hold: "hand numbers and names with spaces are accepted, drawing happens by itself where the
rules leave no choice". The numbers are MIL-64's slots (P, 1 to 6), as the hand shows them.
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.engine import IllegalActionError, NotationError
from parlour.games import get_game
from parlour.tui import play
from parlour.tui.typed import typing_for

MILLE = get_game("mille")
ARGS = ["mille", "--seat", "1=bot:random", "--seed", "4", "--time", "0.01"]
HAND = ["25", "spare-tire", "go", "25", "stop", "extra-tank"]
"""Seat 0's hand in slots 1 to 6 (slot P empty): ``1 25  2 Spare Tire  3 Go  4 25  5 Stop  6 Extra Tank``."""



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


# --- the line interface's reading (parlour.tui.typed), the engine's notation untouched -------------


def written(text: str, state: Any, seat: int = 0) -> str:
    """What ``parlour play`` hands the engine for ``text`` typed by ``seat``."""
    reading = typing_for(MILLE)
    assert reading is not None
    return reading.written(text, state.view(seat))


@pytest.mark.parametrize(
    ("text", "notation", "meaning"),
    [
        ("discard 1", "discard 25 @1", "discard 25"),
        ("play 3", "play go @3", "play go"),
        ("DISCARD 2", "discard spare-tire @2", "discard spare-tire"),
        ("play 6", "play extra-tank @6", "play extra-tank"),
        ("discard spare tire", "discard spare tire", "discard spare-tire"),
        ("Discard Spare Tire", "Discard Spare Tire", "discard spare-tire"),
        ("play   Extra  Tank", "play   Extra  Tank", "play extra-tank"),
        ("discard STOP", "discard STOP", "discard stop"),
        ("discard 25", "discard 25", "discard 25"),  # a distance card is a card, not a place in the hand
    ],
)
def test_a_card_is_named_by_its_number_or_its_name(text: str, notation: str, meaning: str) -> None:
    """The hand's number becomes MIL-64's own notation, the card with its slot hint; names with
    spaces are MIL-64's already and pass as typed."""
    state = position()
    assert written(text, state) == notation
    assert state.action_to_text(state.parse_action(notation)) == meaning


def test_the_engine_still_reads_no_numbers() -> None:
    # W-31: "play 3 → unparsable (MIL-64)": the numbers are the screen's, read before the engine.
    state = position()
    with pytest.raises(NotationError):
        state.parse_action("discard 1")


def test_the_number_names_that_very_card() -> None:
    # MIL-64: without a hint the lowest slot holding the kind leaves; "discard 4" is slot 4's 25,
    # and the hint keeps it so when the line interface plays the text as written. MIL-16.3: the
    # card drawn (slot P) then moves into the hole the discard left.
    seats = [{"slots": ["stop", *HAND]}, {"cards": ["50"] * 6}]
    state = MILLE.new(start={"hand": {"seats": seats, "drawn": True}}, seed=1)
    assert written("discard 4", state) == "discard 25 @4"
    state.play_text(written("discard 4", state))
    assert state.view(0)["content"]["private"]["slots"] == [None, "25", "spare-tire", "go", "stop", "stop",
                                                            "extra-tank"]


def test_a_number_without_a_card_is_refused_in_words() -> None:
    state = position()
    with pytest.raises(IllegalActionError, match="there is no card in slot P of your hand"):
        written("discard p", state)
    with pytest.raises(NotationError, match="your hand has no card 7: its cards are numbered P and 1 to 6"):
        written("discard 7", state)
    assert written("coup 6", state) == "coup extra-tank @6"  # a safety: the rules say when (MIL-33)
    with pytest.raises(NotationError, match="coup names a safety, not go"):
        state.parse_action(written("coup 3", state))


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


# --- the line interface's own words, and a seat of a server's match ----------------------------------


def session_with(state: Any, lines: list[str]) -> tuple[play.Session, list[str]]:
    """A ``parlour play`` session of ``state`` (seat 0 a person typing ``lines``, seat 1
    ``bot:random``) run to its end; what it said, line by line."""
    said: list[str] = []
    typed = iter(lines)
    settings = play.Settings(MILLE, state, [play.HUMAN, "random"], seed=1, seconds=0.01, text=True)
    session = play.Session(settings, ask=lambda prompt: next(typed), say=said.append, complain=said.append)
    assert session.run() == 0
    return session, said


def test_an_empty_slot_or_a_number_the_hand_never_shows_is_said_and_the_card_chosen_leaves() -> None:
    # MIL-16: slot P holds a Stop (the card drawn), slots 1 and 4 a 25 each.
    seats = [{"slots": ["stop", *HAND]}, {"cards": ["50"] * 6}]
    state = MILLE.new(start={"hand": {"seats": seats, "drawn": True}}, seed=1)
    session, said = session_with(state, ["discard 0", "discard 4", "quit", "n"])
    assert ("Cannot read that as a move: your hand has no card 0: its cards are numbered P and 1 to 6, "
            "as 'Your cards' shows them. Type 'help' to see how moves are written.") in said
    assert "Player 1 plays discard 25" in said
    slots = session.state.view(0)["content"]["private"]["slots"]
    assert slots[1:5] == ["25", "spare-tire", "go", "stop"]  # slot 4's 25 left; P's Stop took its place


def test_an_empty_slot_is_refused_in_words() -> None:
    session, said = session_with(position(), ["discard P", "quit", "n"])  # slot P is empty here
    assert ("That move is not allowed: there is no card in slot P of your hand ('Your cards' shows the "
            "slots that hold one). Type 'moves' for the legal moves.") in said
    assert not session.state.history  # nothing played


def test_help_says_a_card_may_be_named_by_its_number() -> None:
    _, said = session_with(position(), ["help", "quit"])
    assert "A card may be named by its number in 'Your cards': discard 1, play 3, coup P" in "\n".join(said)


def test_a_seat_of_a_server_match_sends_the_card_the_number_names() -> None:
    """``parlour play mille --join URL``: the seat reads what it types the same way, against the
    hand the server's view gives it, and sends the spec's notation."""
    from parlour.tui.remote import RemoteSession

    session = RemoteSession.__new__(RemoteSession)  # the reading alone: no server, no link
    session.game, session.info, session.seat = MILLE, MILLE.info, 0
    session.state = MILLE.sample_state(position().view(0), random.Random(0))
    session.snapshot = {"version": 7}
    said: list[str] = []
    sent: list[dict[str, Any]] = []
    session.say = said.append
    session.request = lambda message, what: sent.append(message)  # type: ignore[method-assign]
    session.read_move("discard 2")
    session.read_move("discard 7")
    assert sent == [{"type": "action", "text": "discard spare-tire", "version": 7}]
    assert said == ["Cannot read that as a move: your hand has no card 7: its cards are numbered P and 1 "
                    "to 6, as 'Your cards' shows them. Type 'help' to see how moves are written."]


def test_at_a_real_terminal_discard_1_plays_and_the_game_is_kept(data_home: Path) -> None:
    """``parlour play mille`` as a person starts it (a pseudo-terminal; Mille Bornes has no board, so
    the line interface): the hand's number is read, and the game in progress is kept for --resume
    while the person plays, let go of when they leave without saving."""
    from board_pilot import RealTerminal

    terminal = RealTerminal(ARGS, data_home.parent)
    terminal.read_until("Your cards: P 25  1 25  2 Go")  # seed 4's first hand, its draw made
    terminal.read_until("Player 1 to move> ")
    terminal.type("discard 1\r")
    terminal.read_until("Last: Player 1 (you) discards 25")  # the next turn is drawn: all kept
    kept = data_home / "mille.autosave.json"
    record: Any = MILLE.state_from_json(json.loads(kept.read_text()))
    assert "0: discard 25 @1" in record.record_lines()  # the very card chosen (MIL-64's hint)
    terminal.type("quit\r")
    terminal.read_until("y(es), n(o) or c(ancel): ")
    terminal.type("n\r")
    terminal.read_until("Game left unfinished, not saved.")
    assert terminal.status() == 0
    assert not kept.exists()
