"""The worked examples of specs/conflict.md §15 (X-n), rule ids cited. The default board, four
players in seats 1–4 unless said otherwise; positions from text."""

from __future__ import annotations

from collections import Counter

import pytest
from conflict_helpers import CONFLICT, canonical, do, hostile, piece_list, position, refused, square, texts

from parlour.engine import CHANCE, IllegalActionError
from parlour.games.conflict import (
    CHANCE_PHASE,
    DECISION_PHASE,
    END,
    NO_OWNER,
    OVER_PHASE,
    AmbiguousError,
    ConflictState,
)

RED, ORANGE, GREEN, YELLOW = 0, 1, 2, 3


def rolled(dice: str) -> ConflictState:
    """The start of a four-player game, player 1 having rolled ``dice``."""
    state = CONFLICT.new(4)
    do(state, f"roll {dice}")
    return state


def entry_counts(state: ConflictState) -> dict[tuple[str, int], int]:
    """X-1's table: walked-path final squares per (entered type, die)."""
    counts: Counter[tuple[str, int]] = Counter()
    for text in texts(state):
        if text.startswith("enter "):
            words = text.split()
            counts[(words[1], int(words[2].rstrip(":")))] += 1
    return dict(counts)


def test_x1_opening_count() -> None:
    # CON-18, CON-36, CON-37, CON-63.
    state = rolled("1-2")
    legal = texts(state)
    assert len(legal) == 91
    assert legal.count("end") == 1
    assert not any(text.startswith("activate") for text in legal)
    assert entry_counts(state) == {
        ("cannon", 1): 5, ("cannon", 2): 14, ("aagun", 1): 5, ("aagun", 2): 14,
        ("airplane", 1): 8, ("airplane", 2): 22, ("ship", 1): 3, ("ship", 2): 8,
        ("submarine", 1): 3, ("submarine", 2): 8,
    }
    assert canonical(state, "enter cannon 2: e4 d4") == "enter cannon 2: e4 d4"
    assert canonical(state, "enter cannon 2: d5 d4") == "enter cannon 2: e4 d4"
    assert canonical(state, "enter ship 1: e6") == "enter ship 1: e6"
    assert "e6 is water" in refused(state, "enter cannon 1: e6")


def test_x2_entry_through_wrong_terrain() -> None:
    # CON-33 item 1, every square of the path.
    state = position("turn 1\ndice 3-4")
    assert "f5 is water" in refused(state, "enter cannon 3: f5 g4 h4")


def test_x3_no_revisiting() -> None:
    # CON-33 item 2.
    state = position("pieces 1A h8\ndice 3-4")
    assert "returns to its start" in refused(state, "h8 3: h9 g9 h8")
    assert "visits i8 twice" in refused(state, "h8 4: i8 i7 h7 i8")
    state = position("pieces 1A h8\ndice 2-4")
    assert canonical(state, "h8 2: i8 h7") == "h8 2: g7 h7"  # g7 is red's own mine


def test_x4_pieces_do_not_block() -> None:
    # CON-33 item 3, CON-41.
    state = position("pieces 1S f5 1U g5 2S h5\ndice 1-3")
    assert do(state, "f5 3: g5 h5 i5") == "f5 3: g5 h5 i5"
    assert piece_list(state) == ["1U g5", "2S h5", "1S i5"]


def test_x5_own_piece_at_the_end() -> None:
    # CON-33 item 4.
    state = position("pieces 1S f5 1U g5 2S h5\ndice 1-3")
    assert "your own submarine" in refused(state, "f5 1: g5")


def test_x6_airplane_against_submarine() -> None:
    # CON-38.
    state = position("pieces 1A k6 2U m6\ndice 2-3")
    assert "never captures a submarine" in refused(state, "k6 2: l6 m6")
    state = position("pieces 1S k6 2U m6\ndice 2-3")
    assert do(state, "k6 2: l6 m6") == "k6 2: l5 m6"
    assert piece_list(state) == ["1S m6"]
    assert state.alive[ORANGE] == 12


def test_x7_capture_needs_enterable_terrain() -> None:
    # CON-38 item 1.
    state = position("pieces 1C h4 2S i4\ndice 1-3")
    assert "i4 is water" in refused(state, "h4 1: i4")


def test_x8_ship_captures_on_a_base_then_takeover() -> None:
    # CON-39, CON-45.
    state = position("pieces 2C p5 1S k5\nturn 1")
    do(state, "roll 2-5")
    assert canonical(state, "k5 5: l5 m5 n5 o5 p5") == "k5 5: l4 m5 n5 o5 p5"
    do(state, "k5 5: l5 m5 n5 o5 p5")
    assert state.owner[ORANGE] == RED
    assert state.out[ORANGE] == "taken over"
    assert state.players_in() == [RED, GREEN, YELLOW]
    # all 13 orange pieces less the captured one, on the board, available and in reserve
    assert state.alive[ORANGE] == 12
    assert state.controller[ORANGE] == RED
    assert not hostile(state, RED, "r3")
    assert not hostile(state, RED, "n7")
    # the unused 2 enters an orange submarine from orange's base, though red's ship stands on it
    assert canonical(state, "enter submarine@2 2: o6 n6") == "enter submarine@2 2: o5 n6"
    with pytest.raises(AmbiguousError, match="submarine@1 or submarine@2"):
        state.parse_action("enter submarine 2: o6 n6")


def test_x9_airplane_cannot_take_a_guarded_base() -> None:
    # CON-45 item 1.
    for guard, legal in (("G", False), ("U", False), ("A", True)):
        state = position(f"pieces 2{guard} p5 1A k5\ndice 5-1")
        if legal:
            do(state, "k5 5: l5 m5 n5 o5 p5")
            assert state.owner[ORANGE] == RED
        else:
            assert "airplane never captures" in refused(state, "k5 5: l5 m5 n5 o5 p5")


def test_x10_mine_pass_through() -> None:
    # CON-34, CON-42.
    state = position("pieces 1S l8 2U n7\ndice 4-1")
    action = state.parse_action("l8 4: m8 n7 o6 p6")
    assert state.action_to_text(action) == "l8 4: m7 n7"
    assert state.parse_action("l8 4: m7 n7") == action
    other = state.parse_action("l8 4: m7 n6 o5 p6")
    assert other != action
    assert state.action_to_text(other) == "l8 4: m7 n6 o5 p6"
    state.play(action)
    assert piece_list(state) == []
    assert [e.kind for e in state.recent_events()][:3] == ["move", "mine", "mine"]
    assert (state.alive[RED], state.alive[ORANGE]) == (12, 12)


def test_x11_own_mine_is_safe() -> None:
    # CON-44.
    state = position("pieces 1S f6\ndice 3-2")
    assert canonical(state, "f6 3: g7 h8 i8") == "f6 3: g6 h7 i8"
    do(state, "f6 2: f7 g7")
    assert piece_list(state) == ["1S g7"]


def test_x12_mine_destruction_is_not_capture() -> None:
    # CON-43.
    state = position("pieces 2G r3 1A o3\ndice 3-1")
    do(state, "o3 3: p2 q2 r3")
    assert piece_list(state) == []


def test_x13_passing_a_hostile_base() -> None:
    # CON-35.
    state = position("pieces 2G p5 1S m6\ndice 4-1")
    assert do(state, "m6 4: n5 o5 p5 p6") == "m6 4: m5 n5 o5 p6"
    assert piece_list(state) == ["2G p5", "1S p6"]
    assert state.owner[ORANGE] == NO_OWNER
    assert state.players_in() == [0, 1, 2, 3]


def test_x14_steps_a_and_b() -> None:
    # X-14 a and b: the owner is the colour of the capturing piece (CON-45 item 2).
    state = position("pieces 2C p5 1S k5\nturn 1")
    do(state, "roll 2-5")
    do(state, "k5 5: l5 m5 n5 o5 p5")
    assert (state.owner, state.controller) == ([NO_OWNER, RED, NO_OWNER, NO_OWNER], [RED, RED, GREEN, YELLOW])
    assert state.players_in() == [RED, GREEN, YELLOW]
    state = position("owner 2 1\npieces 2S j16\ndice 5-1")
    assert do(state, "j16 5: i16 h16 g16 f16 e16") == "j16 5: i15 h14 g15 f15 e16"
    assert state.owner == [NO_OWNER, RED, ORANGE, NO_OWNER]
    assert state.controller == [RED, RED, RED, YELLOW]
    assert state.players_in() == [RED, YELLOW]


AFTER_B = "owner 2 1\nowner 3 2\npieces 4C d15 4C q5 4C d6\nturn 4\ndice 1-2\n"
"""X-14 after step b, yellow on roll with cannons next to green's, orange's and red's bases."""


def test_x14_case_c1_green_only() -> None:
    state = position(AFTER_B)
    do(state, "d15 1: e16")
    assert state.owner == [NO_OWNER, RED, YELLOW, NO_OWNER]
    assert state.controller == [RED, RED, YELLOW, YELLOW]
    assert state.players_in() == [RED, YELLOW]


def test_x14_case_c2_orange_brings_green() -> None:
    state = position(AFTER_B)
    do(state, "q5 1: p5")
    assert state.owner == [NO_OWNER, YELLOW, ORANGE, NO_OWNER]
    assert state.controller == [RED, YELLOW, YELLOW, YELLOW]
    assert state.players_in() == [RED, YELLOW]
    # red wins back orange and green with one move ending on p5 (here a red airplane next to it)
    state = position(AFTER_B.replace("turn 4\ndice 1-2", "owner 2 4\npieces 1A o4\nturn 1\ndice 1-3")
                     .replace("owner 2 1\n", ""))
    assert state.controller == [RED, YELLOW, YELLOW, YELLOW]
    do(state, "o4 1: p5")
    assert state.controller == [RED, RED, RED, YELLOW]


def test_x14_case_c3_yellow_wins() -> None:
    state = position(AFTER_B)
    do(state, "d6 1: e5")
    assert state.owner == [YELLOW, RED, ORANGE, NO_OWNER]
    assert state.controller == [YELLOW] * 4
    assert state.players_in() == [YELLOW]
    outcome = state.outcome()
    assert state.phase == OVER_PHASE
    assert state.to_move() < 0
    assert state.legal_actions() == []
    assert outcome is not None
    assert outcome.winner == YELLOW
    assert outcome.reason == "last-player-in"
    assert outcome.scores == (0.0, 0.0, 0.0, 1.0)


def test_x15_mines_changing_hands() -> None:
    # CON-45 item 4.
    state = position("owner 2 1\npieces 1C r3 2S n7 4C q5\nturn 4\ndice 1-2")
    do(state, "q5 1: p5")
    assert piece_list(state) == ["4C p5", "2S n7"]
    assert state.controller[ORANGE] == YELLOW
    kinds = [e.kind for e in state.recent_events()]
    assert kinds[:3] == ["move", "takeover", "mine"]


def test_x16_piece_left_on_a_base_that_changes_hands() -> None:
    # CON-45, pieces left on bases.
    state = position("owner 2 1\nowner 3 2\npieces 1C e16 4C q5 4C d15\nturn 4\ndice 1-2")
    do(state, "q5 1: p5")  # case c2: green passes to yellow with orange
    assert piece_list(state)[0] == "4C p5"
    assert "1C e16" in piece_list(state)
    assert state.controller[GREEN] == YELLOW
    do(state, "d15 2: d16 e16")  # an ordinary capture on a friendly base: no takeover
    assert "1C e16" not in piece_list(state)
    assert state.owner[GREEN] == ORANGE
    # red retakes green only by ending on e16; its own cannon there forbids it meanwhile
    state = position("owner 2 4\nowner 3 2\npieces 1C e16 1C d15\nturn 1\ndice 1-2")
    assert "your own cannon" in refused(state, "d15 1: e16")


def test_x17_a_seven_with_reserve_entry() -> None:
    # CON-47, CON-48.
    state = rolled("3-4")
    legal = texts(state)
    assert len(legal) == 358
    assert [t for t in legal if t.startswith("activate")] == ["activate cannon", "activate airplane",
                                                              "activate ship"]
    assert Counter(t.split()[0] for t in legal) == {"enter": 354, "activate": 3, "end": 1}
    do(state, "activate airplane")
    assert state.available[2] == 2
    assert state.reserve[:5] == [1, 0, 0, 2, 0]
    assert "activation has been made" in refused(state, "activate ship")
    assert do(state, "enter airplane 4: f4 g4 h4 i4") == "enter airplane 4: f4 g4 h3 i4"
    # the airplane just entered is on i4 and has moved (the other available airplane could still
    # be entered: available pieces are interchangeable, CON-20)
    assert "moved this roll" in refused(state, "i4 3: j4 k4 l4")
    do(state, "enter cannon 3: e4 f3 g2")
    assert state.to_move() == CHANCE
    assert state.seat == ORANGE
    for dice, activation in (("3-3", False), ("1-6", True), ("2-5", True)):
        do(state, f"roll {dice}")
        assert state.activation == activation
        state.undo()


def test_x17_after_x8_a_seven_offers_the_taken_seat_reserve() -> None:
    state = position("owner 2 1\npieces 1S p5\ndice 3-4")
    activations = [t for t in texts(state) if t.startswith("activate")]
    assert activations == ["activate cannon@1", "activate airplane@1", "activate ship@1", "activate cannon@2",
                           "activate airplane@2", "activate ship@2"]
    with pytest.raises(AmbiguousError):
        state.parse_action("activate ship")


def test_x18_doubles() -> None:
    # CON-29, CON-50.
    state = position("pieces 1S g5 1C d4\nturn 1")
    do(state, "roll 2-2")
    do(state, "g5 2: h6 i7")
    assert "moved this roll" in refused(state, "i7 2: j8 k8")
    do(state, "d4 2: e3 f2")
    assert state.to_move() == CHANCE
    assert state.seat == RED
    do(state, "roll 1-6")
    do(state, "i7 1: j7")


def test_x19_optional_dice() -> None:
    # CON-30, option optional_dice.
    state = position("pieces 1S j6\ndice 5-6")
    assert state.is_legal(END)
    do(state, "j6 6: k6 l6 m6 n6 o6 o7")
    assert state.legal_actions()[0] == END
    assert state.unused == (5,)
    do(state, "end")
    assert state.to_move() == CHANCE
    assert state.seat == ORANGE
    strict = position("pieces 1S j6\ndice 5-6", optional_dice=False)
    assert not strict.is_legal(END)
    assert "optional_dice = false" in refused(strict, "end")


def test_x20_only_one_piece_can_move() -> None:
    # CON-31, the automatic end.
    state = position("pieces 1S j6\navailable 1 -\nreserve 1 -\ndice 2-4")
    do(state, "j6 4: k6 l6 m6 n6")
    assert state.to_move() == CHANCE
    assert state.seat == ORANGE
    assert state.recent_events()[-1].detail == (1, 2)  # automatic, the 2 discarded
    state = position("pieces 1S j6\navailable 1 -\nreserve 1 -\ndice 3-3")
    do(state, "j6 3: k6 l6 m6")
    assert state.to_move() == CHANCE
    assert state.seat == RED


def test_x21_unused_seats() -> None:
    # CON-17, CON-24, CON-54 in a 2-player game.
    state = position("pieces 1S h13\ndice 2-1", players=2)
    action = state.parse_action("h13 2: g14 f15")
    assert state.action_to_text(action) == "h13 2: g14"
    state.play(action)
    assert piece_list(state) == []
    state = position("pieces 1C b16\ndice 3-1", players=2)
    assert do(state, "b16 3: c17 d16 e16") == "b16 3: c15 d15 e16"
    assert state.owner[GREEN] == RED
    assert state.controller[GREEN] == RED
    assert state.alive[GREEN] == 0
    assert not hostile(state, RED, "g14")
    assert not hostile(state, RED, "c18")
    assert state.players_in() == [RED, ORANGE]


def test_x22_out_for_lack_of_pieces() -> None:
    # CON-52, CON-53.
    state = position("pieces 3S j13 1S l13\navailable 3 -\nreserve 3 -\ndice 2-1", players=3)
    do(state, "l13 2: k13 j13")
    assert state.out[GREEN] == "no pieces"
    assert state.players_in() == [RED, ORANGE]
    do(state, "end")
    assert state.seat == ORANGE
    do(state, "roll 1-2")
    do(state, "end")
    assert state.seat == RED  # turn order is now 1, 2
    state = position("out 3 no pieces\navailable 3 -\nreserve 3 -\npieces 2C d15\nturn 2\ndice 1-2",
                     players=3)
    assert hostile(state, ORANGE, "g14")
    assert hostile(state, RED, "c18")
    do(state, "d15 1: e16")
    assert state.owner[GREEN] == ORANGE
    assert state.out[GREEN] == "no pieces"


def test_x23_mutual_elimination() -> None:
    # CON-56.
    state = position("pieces 2G r3 1A o3\navailable 1 -\nreserve 1 -\navailable 2 -\nreserve 2 -\ndice 3-1",
                     players=2)
    do(state, "o3 3: p2 q2 r3")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert outcome.reason == "mutual-elimination"
    assert outcome.scores == (1.0, 1.0)
    assert state.out[:2] == ["no pieces", "no pieces"]


def test_x24_capture_on_a_base_by_a_cannon() -> None:
    # CON-39.
    state = position("pieces 2S p5 1C o4\ndice 1-2")
    do(state, "o4 1: p5")
    assert piece_list(state) == ["1C p5"]
    assert state.owner[ORANGE] == RED


def test_x25_mover_goes_out() -> None:
    # CON-53.
    state = position("pieces 1S l8\navailable 1 -\nreserve 1 -\nturn 1")
    do(state, "roll 4-4")
    do(state, "l8 4: m8 n7")
    assert state.out[RED] == "no pieces"
    assert state.to_move() == CHANCE
    assert state.seat == ORANGE
    state = position("pieces 1S l8\navailable 1 -\nreserve 1 -\nturn 1", players=2)
    do(state, "roll 4-4")
    do(state, "l8 4: m8 n7")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == ORANGE


def test_x26_canonical_input() -> None:
    # CON-64.
    state = position("pieces 1S k5\ndice 5-1")
    assert state.parse_action("k5 5: l5 m5 n5 o5 p5") == state.parse_action("k5 5: l4 m5 n5 o5 p5")
    assert "must have 5 squares" in refused(state, "k5 5: p5")


def test_x27_roll_limit() -> None:
    # CON-57, CON-51.
    state = CONFLICT.new(2, {"roll_limit": 3})
    for dice in ("4-4", "2-5", "1-3"):
        assert state.phase == CHANCE_PHASE
        do(state, f"roll {dice}")
        assert state.phase == DECISION_PHASE
        do(state, "end")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert outcome.reason == "roll-limit"
    assert outcome.scores == (1.0, 1.0)
    assert state.rolls == 3


def test_play_refuses_what_parsing_refuses() -> None:
    # State.play checks legality too, and names the decision in its message.
    state = position("pieces 1S f5 1U g5\ndice 1-3")
    legal = state.parse_action("f5 3: f6 g7 h8")
    own_submarine = legal - square(state, "h8") + square(state, "g5")  # same piece and die, ending on g5
    with pytest.raises(IllegalActionError, match=r"^f5 3: .* g5: the walk ends on g5, where your own sub"):
        state.play(own_submarine)
