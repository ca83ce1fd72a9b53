"""Conflict's notation (CON-64) and text rendering (CON-67, CON-69)."""

from __future__ import annotations

import json

import pytest
from conflict_helpers import CONFLICT, CORRIDOR, canonical, do, position, refused, texts

from parlour.engine import IllegalActionError, NotationError
from parlour.games.conflict import (
    END,
    AmbiguousError,
    activate_action,
    enter_action,
    move_action,
    roll_action,
)
from parlour.games.conflict.notation import describe

# --- CON-64: printing and reading --------------------------------------------------------------------


def test_the_forms() -> None:
    state = position("pieces 1S k5\ndice 3-4")
    size = state.board.size
    k5, n5, e6 = (state.board.square_of(name) for name in ("k5", "n5", "e6"))
    assert k5 is not None
    assert n5 is not None
    assert e6 is not None
    assert state.action_to_text(END) == "end"
    assert state.action_to_text(activate_action(0, 2)) == "activate airplane"
    assert state.action_to_text(move_action(size, k5, 3, n5)) == "k5 3: l4 m5 n5"  # m4 is land
    assert state.action_to_text(enter_action(size, 0, 3, 4, e6)) == "enter ship 4: f5 g5 f6 e6"
    assert state.action_to_text(roll_action(5, 2)) == "roll 2-5"


def test_input_is_case_insensitive_and_takes_letters() -> None:
    state = position("pieces 1S k5\ndice 3-4")
    assert canonical(state, "K5 3: L5 M5 N5") == "k5 3: l4 m5 n5"
    assert canonical(state, "Enter S 4: F5 G6 F6 E6") == "enter ship 4: f5 g5 f6 e6"
    assert canonical(state, "ACTIVATE a") == "activate airplane"
    # an unneeded @1 is accepted
    assert canonical(state, "  enter   ship@1  4 :  f5 g6 f6 e6 ") == "enter ship 4: f5 g5 f6 e6"
    assert canonical(state, "End") == "end"


@pytest.mark.parametrize(
    "text",
    ["", "move k5", "k5: l4", "k5 3 l4 m4 n5", "k5 7: l4", "k5 0: l4", "k5 3:", "z9 3: l4", "k5 3: l4 m4 z5",
     "k5 3: l4 m4 n21", "activate tank", "enter tank 3: f5", "enter ship@9 1: e6", "roll 0-3", "roll 7-1",
     "rol 1-2"],
)
def test_text_that_is_no_decision_is_a_notation_error(text: str) -> None:
    state = position("pieces 1S k5\ndice 3-4")
    with pytest.raises(NotationError) as error:
        state.parse_action(text)
    assert not isinstance(error.value, AmbiguousError)


def test_ambiguous_input_is_its_own_error() -> None:
    state = position("owner 2 1\npieces 1S k5\ndice 3-4")
    for text in ("activate ship", "enter ship 3: f5 g5 h5", "enter cannon 3: e4 f3 g2"):
        with pytest.raises(AmbiguousError):
            state.parse_action(text)
    assert canonical(state, "enter ship@2 3: o6 n6 m6") == "enter ship@2 3: o5 n5 m6"
    assert canonical(state, "activate ship@2") == "activate ship@2"
    assert canonical(state, "enter submarine@1 3: f5 g5 h5") == "enter submarine@1 3: f5 g5 h5"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("l4 3: m4 n4 o4", "no piece stands on l4"),
        ("p16 3: o15 n15 m15", "not yours to move"),
        ("k5 5: l5 m5 n5 o5 p5", "no unused 5"),
        ("k5 3: l5 m5", "must have 3 squares"),
        ("k5 3: l5 m5 n5 o5", "a path of 4 squares for a 3"),
        ("k5 3: l5 n5 o5", "not next to"),
        ("k5 3: l5 l4 k5", "returns to its start"),
        ("k5 4: l5 l4 l5 m5", "visits l5 twice"),
        ("k5 3: l5 m5 m4", "m4 is land"),
        ("enter cannon 3: f5 g4 h4", "f5 is water"),
        ("enter aagun 3: e4 f3 g3", "g3 is impassable"),
        ("enter ship@2 3: o6 n6 m6", "do not control seat 2"),
        ("activate ship@2", "do not control seat 2"),
        ("roll 1-2", "the dice have been rolled"),
    ],
)
def test_illegal_decisions_say_why(text: str, words: str) -> None:
    state = position("pieces 1S k5 4C p16\ndice 3-4")
    assert words in refused(state, text)


def test_phase_errors() -> None:
    state = CONFLICT.new(2)
    assert "rolled first" in refused(state, "end")
    assert "rolled first" in refused(state, "enter ship 1: e6")
    assert "rolled first" in refused(state, "activate ship")
    over = position("pieces 1C d4\navailable 2 -\nreserve 2 -", players=2)
    assert over.is_over()
    assert "game is over" in refused(over, "roll 1-2")
    assert "no activation" in refused(position("dice 3-3"), "activate ship")


def test_a_walk_through_a_mine_may_be_written_short_but_not_half_way() -> None:
    # CON-64 input: the full d squares, or the walked path alone.
    state = position("pieces 1S l8\ndice 5-1")
    full = state.parse_action("l8 5: m8 n7 o6 p6 p7")
    assert state.parse_action("l8 5: m8 n7") == full
    assert state.action_to_text(full) == "l8 5: m7 n7"
    assert "must have 5 squares" in refused(state, "l8 5: m8 n7 o6")
    crowded = position("pieces 1S l8 1S o6 1S p6 1S p7\ndice 5-1")
    assert crowded.parse_action("l8 5: m8 n7 o6 p6 p7") == full  # over its own pieces: no matter
    twice = position("pieces 1A f13\ndice 6-1")  # through green's g14, then on to green's c18
    assert "write the path up to it" in refused(twice, "f13 6: g14 f15 e16 d17 c18")


def test_a_short_walk_must_complete_to_the_die() -> None:
    # CON-34: the squares after the mine must exist. On the corridor map with c5 made land, b4,
    # a mine of the unused seat 3 moved there, leads only to b5, a dead end.
    text = (CORRIDOR.replace("name corridor", "name dead-end")
            .replace(".+~~~+.\nend", ".+#~~+.\nend").replace("mine 3 a5", "mine 3 b4"))
    assert ".+#~~+." in text
    assert "mine 3 b4" in text
    state = position("pieces 1S c2\ndice 3-6", players=2, board=text)
    assert canonical(state, "c2 3: b3 b4") == "c2 3: b3 b4"
    assert canonical(state, "c2 3: b3 b4 b5") == "c2 3: b3 b4"
    assert "cannot be completed to 6 steps" in refused(state, "c2 6: b3 b4")
    assert not any(text.startswith("c2 6: b3") for text in texts(state))


def test_describe_never_fails() -> None:
    state = CONFLICT.new(2)
    assert describe(state, -5) == "action -5"
    with pytest.raises(NotationError):
        state.action_to_text(10**9)
    with pytest.raises(IllegalActionError, match="action number -12345: it is no action of Conflict"):
        state.play(-12345)


def test_moves_print_the_same_in_every_seat() -> None:
    state = position("pieces 1S k5\ndice 3-4")
    action = state.parse_action("k5 3: l5 m5 n5")
    assert {state.action_text_for(action, seat) for seat in (0, 1, None)} == {"k5 3: l4 m5 n5"}


# --- CON-67, CON-69: the text board ----------------------------------------------------------------------


def test_the_board_text() -> None:
    state = position("owner 2 1\npieces 1S p5 2S n7 1C c3 3A i9\ndice 3-4")
    text = state.render(0)
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghijklmnopqrst")
    assert lines[3].split()[:4] == ["3", ".", ".", "C1"]  # a cannon on its own land mine: the piece shows
    assert " S1" in lines[5]  # on its base, p5
    assert " +1" in lines[5]
    assert " S2" in lines[7]  # on a water mine, n7
    assert " o1" in lines[7]
    assert "A3" in lines[9]
    assert "#" in lines[10]
    assert "seat 2 orange 2→1: out: taken over, controlled by seat 1" in text  # CON-67 item 6
    assert "Red (you) available: C1 C1 C2 C2 C2 G1 G2 A1 A2 S1 S1 S2 S2 U1 U2" in text  # item 3
    assert "Red (you) reserve:   seat 1: C1 A1 S1 S1; seat 2: C2 A2 S2 S2" in text  # item 4
    assert "Roll 1: dice 3-4, unused 3 4, activation open" in text  # item 1
    assert lines[-1] == "Red (you) on roll: your turn (a move, 'activate TYPE' or 'end')"  # item 2
    spectator = state.render(None)
    assert "You are watching." in spectator
    assert "your turn" not in spectator
    assert "Green on roll" not in state.render(2)
    assert "Red on roll" in state.render(2)


def test_events_are_told() -> None:
    # CON-67 item 2: rolls, moves, captures, mines (naming the seat), takeovers (the new link),
    # players going out and why, the result.
    state = position("pieces 2C p5 1S k5 1S l8 3S j13\navailable 3 -\nreserve 3 -\nturn 1", players=3)
    do(state, "roll 5-2")
    assert state.render(0).splitlines()[-2] == "Last: Red rolls 2-5"
    do(state, "k5 5: l5 m5 n5 o5 p5")
    last = state.render(0).splitlines()[-2]
    assert last == ("Last: Red moves its ship from k5 to p5 with the 5; The orange cannon on p5 is captured; "
                    "Red takes over Orange (seat 2): its owner is now Red (seat 1, 2→1); "
                    "Orange is out (taken over)")
    do(state, "end")
    assert "roll ends (unused: 2)" in state.render(0)
    view = state.view(1)
    assert json.loads(json.dumps(view)) == view
    assert view["content"]["controllers"] == [1, 1, 3, 4]  # CON-66: controllers, seats 1-4


def test_messages_read_as_english() -> None:
    # Issue 16: "The log says 'enters a orange airplane'"; log messages read as English ("an
    # orange airplane"). Red controls Orange's seat (CON-23) and brings in an orange airplane.
    state = position("pieces 1S k5 3C a20\nowner 2 1\navailable 1 -\nreserve 1 -\navailable 2 -\n"
                     "reserve 2 A\navailable 3 -\nreserve 3 -\nturn 1", players=3)
    do(state, "roll 3-4")
    do(state, "activate airplane")
    assert state.view(None)["content"]["events"] == ["Red activates an orange airplane"]
    do(state, "enter airplane 3: q4 r4 s4")
    assert state.view(None)["content"]["events"] == [
        "Red enters an orange airplane at p5 and moves it to s4 with the 3"]
    do(state, "k5 4: l5 m5 n5 o5")
    assert state.view(None)["content"]["events"] == [
        "Red moves its ship from k5 to o5 with the 4", "Red's roll ends automatically"]


def test_refusals_read_as_english() -> None:
    # Issue 16: messages read as English ("an airplane", "an anti-aircraft gun").
    state = position("pieces 1A h2 1G d4\navailable 1 -\nreserve 1 -\nturn 1\ndice 1-2", players=2)
    assert refused(state, "h2 1: g3").startswith("g3 is impassable: an airplane may not enter it")
    assert refused(state, "d4 2: e4 f5").startswith("f5 is water: an anti-aircraft gun may not enter it")


def test_mine_and_result_messages() -> None:
    state = position("pieces 2G r3 1A o3\navailable 1 -\nreserve 1 -\navailable 2 -\nreserve 2 -\ndice 3-1",
                     players=2)
    do(state, "o3 3: p2 q2 r3")
    text = state.render(None)
    assert "The red airplane is destroyed by Orange's mine on r3" in text
    assert "The orange anti-aircraft gun is destroyed by Orange's mine on r3" in text
    assert "Red is out (no pieces)" in text
    assert "Orange is out (no pieces)" in text
    assert text.splitlines()[-1] == (
        "Game over: a draw between Red and Orange (the last players were knocked out together)"  # CON-56
    )
