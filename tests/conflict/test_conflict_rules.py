"""Conflict rules beyond the worked examples, rule ids cited; positions from text."""

from __future__ import annotations

import random

import pytest
from conflict_helpers import CONFLICT, CORRIDOR, do, piece_list, position, refused, texts

from parlour.engine import CHANCE, NOBODY, FormatError, OptionError
from parlour.games.conflict import CHANCE_PHASE, DECISION_PHASE, END, NO_OWNER, ConflictState
from parlour.games.conflict.actions import ROLLS, decode
from parlour.games.conflict.pieces import CODES, TYPES

RED, ORANGE, GREEN, YELLOW = 0, 1, 2, 3


# --- seats, turns and the roll -----------------------------------------------------------------------


def test_the_starting_force() -> None:
    # CON-18: 13 pieces per occupied seat, all off the board; unused seats have none (CON-17).
    state = CONFLICT.new(2)
    assert piece_list(state) == []
    data = state.position_json()
    assert data["available"] == {"1": "CCCGASSSU", "2": "CCCGASSSU"}
    assert data["reserve"] == {"1": "CASS", "2": "CASS"}
    assert state.alive == [13, 13, 0, 0]
    assert CONFLICT.new(3, {"submarines": False}).alive == [12, 12, 12, 0]


def test_the_first_roll_and_the_turn_order() -> None:
    # CON-26: the lowest occupied seat rolls first; then increasing seat order, wrapping.
    state = CONFLICT.new(3)
    assert state.to_move() == CHANCE
    assert state.seat == RED
    rollers = []
    for dice in ("1-2", "3-5", "2-6", "1-3"):
        rollers.append(state.seat)
        do(state, f"roll {dice}")
        assert state.to_move() == state.player_of[state.seat]
        do(state, "end")
    assert rollers == [RED, ORANGE, GREEN, RED]


def test_chosen_seats() -> None:
    # CON-17, option seats: a diagonal two-player game; players are numbered in seat order.
    state = CONFLICT.new(options={"seats": [4, 1]})
    assert state.players == 2
    assert state.occupied == (RED, YELLOW)
    assert state.player_of == [0, -1, -1, 1]
    assert state.alive == [13, 0, 0, 13]
    do(state, "roll 1-2")
    do(state, "end")
    assert state.seat == YELLOW
    assert state.to_move() == CHANCE
    do(state, "roll 1-2")
    assert state.to_move() == 1
    assert CONFLICT.new(options={"seats": "2,3"}).seat == ORANGE


def test_bad_seat_options_are_refused() -> None:
    for value in ([1], [1, 1], [0, 2], [1, 2, 3, 4, 4], "1-4", [True, 2]):
        with pytest.raises(OptionError):
            CONFLICT.new(options={"seats": value})
    with pytest.raises(OptionError):
        CONFLICT.new(3, {"seats": [1, 2]})
    assert CONFLICT.info.options[1].parse("{1, 4}") == [1, 4]


def test_the_chance_event() -> None:
    # CON-61: 21 outcomes, doubles 1/36, others 2/36.
    state = CONFLICT.new(2)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21
    assert [a for a, _ in outcomes] == list(ROLLS)
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    odds = {state.action_to_text(a): p for a, p in outcomes}
    assert odds["roll 3-3"] == pytest.approx(1 / 36)
    assert odds["roll 2-5"] == pytest.approx(2 / 36)
    assert state.parse_action("roll 5-2") == state.parse_action("roll 2-5")
    assert state.legal_actions() == list(ROLLS)


def test_a_double_gives_one_die_value() -> None:
    # CON-27, CON-63 item 2: the decisions of roll 2-2 are those of a single 2.
    double = CONFLICT.new(2)
    do(double, "roll 2-2")
    single = position("turn 1\ndice 2-1", players=2)
    twos = [t for t in texts(single) if " 2:" in t]
    assert [t for t in texts(double) if t != "end"] == twos


def test_doubles_have_no_limit() -> None:
    # CON-50
    state = CONFLICT.new(2)
    for dice in ("1-1", "2-2", "6-6", "3-3"):
        do(state, f"roll {dice}")
        do(state, "end")
        assert state.seat == RED
    do(state, "roll 1-2")
    do(state, "end")
    assert state.seat == ORANGE


def test_a_roll_with_nothing_to_do_ends_at_once() -> None:
    # CON-31 right after the chance event: only reserve pieces, and no 7.
    state = position("available 1 -\nturn 1", players=2)
    do(state, "roll 2-3")
    assert state.to_move() == CHANCE
    assert state.seat == ORANGE
    assert [e.kind for e in state.recent_events()] == ["roll", "end"]
    state.undo()
    do(state, "roll 3-4")  # a 7: the activation is a decision
    assert texts(state) == ["end", "activate cannon", "activate airplane", "activate ship"]
    do(state, "activate ship")
    assert state.to_move() == 0  # the ship may now be entered with either die
    do(state, "enter ship 3: f6 g6 h6")  # nothing is left for the 4: the roll ends by itself
    assert state.to_move() == CHANCE
    assert state.seat == ORANGE


def test_roll_limit_zero_means_no_limit() -> None:
    # CON-57
    state = CONFLICT.new(2, {"roll_limit": 0})
    for _ in range(30):
        do(state, "roll 1-2")
        do(state, "end")
    assert state.outcome() is None
    assert state.rolls == 30
    limited = CONFLICT.new(2, {"roll_limit": 1})
    do(limited, "roll 2-2")
    do(limited, "end")  # the double's extra roll would be the second roll
    assert limited.to_move() == NOBODY


def test_the_roll_limit_draws_among_the_players_in() -> None:
    # CON-57 with a player already out.
    state = position("out 3 no pieces\navailable 3 -\nreserve 3 -\nrolls 10\ndice 1-2", players=3,
                     roll_limit=10)
    do(state, "end")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert outcome.scores == (1.0, 1.0, 0.0)


# --- movement ------------------------------------------------------------------------------------------


def test_exact_length_not_distance() -> None:
    # CON-37: in a one-square dead end a near square may be out of reach.
    state = position("pieces 1S b3\ndice 2-3", players=2, board=CORRIDOR)
    # b3's water: b2 (a base), c2 d2 e2, b4, b5 (a base), c5 d5
    finals = {t.split(": ")[1].split()[-1] for t in texts(state) if t.startswith("b3 2:")}
    assert finals == {"b2", "c2", "d2", "b5", "c5"}  # b4 is next to b3 but cannot be reached in 2


def test_no_corner_cutting() -> None:
    # CON-6: a diagonal step between two impassable or unenterable squares is allowed.
    state = position("pieces 1C i12\ndice 1-2")
    assert "i12 1: h13" not in texts(state)  # h13 is water: terrain decides, not corners
    airplane = position("pieces 1A i9\ndice 1-2")
    assert "i9 1: j10" not in " ".join(texts(airplane))  # j10 is impassable
    assert "i12 1: j11" not in " ".join(texts(position("pieces 1A i12\ndice 1-2")))


def test_airplanes_on_mines_option() -> None:
    # CON-42 (default) and the 1940 rule (airplanes_on_mines = false).
    state = position("pieces 1A l7\ndice 2-1")
    do(state, "l7 2: m7 n7")
    assert piece_list(state) == []  # orange's mine n7 destroys the airplane
    old = position("pieces 1A l7 1A f8\ndice 3-2", airplanes_on_mines=False)
    assert "airplane may not end on a mine" in refused(old, "l7 2: m7 n7")
    assert "airplane may not end on a mine" in refused(old, "f8 2: f7 g7")  # its own mine too
    do(old, "l7 3: m7 n7 o7")  # passes over orange's mine unharmed
    assert piece_list(old) == ["1A o7", "1A f8"]


def test_friendly_mines_of_a_controlled_seat() -> None:
    # CON-44: after red takes orange, orange's mines are friendly to red.
    state = position("owner 2 1\npieces 1S l8\ndice 3-1")
    do(state, "l8 3: m7 n7 o7")
    assert piece_list(state) == ["1S o7"]


def test_passing_through_a_hostile_mine_stops_the_walk() -> None:
    # CON-34, CON-42: the walk stops at the first hostile mine.
    state = position("pieces 1S l8\ndice 4-1")
    finals = {t for t in texts(state) if t.startswith("l8 4:")}
    assert "l8 4: m7 n7" in finals
    do(state, "l8 4: m7 n7")
    assert piece_list(state) == []
    assert state.alive[RED] == 12


def test_ending_on_a_friendly_base_takes_nothing() -> None:
    # CON-45: the mover's own base and a controlled base.
    state = position("owner 2 1\npieces 1C d4 1C q4\ndice 1-2")
    do(state, "d4 1: e5")
    do(state, "q4 2: q5 p5")
    assert state.owner == [NO_OWNER, RED, NO_OWNER, NO_OWNER]
    assert [e.kind for e in state.log].count("takeover") == 0


def test_an_unused_seat_is_universally_hostile() -> None:
    # CON-17, CON-24: its mines destroy every player's pieces; its base can be taken.
    state = position("pieces 2C b17\nturn 2\ndice 1-2", players=2)
    do(state, "b17 1: c18")
    assert piece_list(state) == []


# --- invariants over random games ------------------------------------------------------------------------


def check_invariants(state: ConflictState) -> None:
    """CON-46, after every decision."""
    board = state.board
    assert state.pieces == {s: c for s, c in enumerate(state.squares) if c >= 0}  # item 1
    for square in board.mine_squares:  # item 2
        code = state.squares[square]
        if code >= 0:
            assert state.controller[code // TYPES] == state.controller[board.mine_seat[square]]
    for seat in range(4):  # item 3
        seen = {seat}
        at = state.owner[seat]
        while at != NO_OWNER:
            assert at not in seen
            seen.add(at)
            at = state.owner[at]
    for seat in range(4):  # item 4: never more than the force; 'alive' counts every location
        on_board = sum(1 for c in state.pieces.values() if c // TYPES == seat)
        row = slice(seat * TYPES, (seat + 1) * TYPES)
        rows = sum(state.available[row]) + sum(state.reserve[row])
        assert on_board + rows == state.alive[seat] <= (13 if seat in state.occupied else 0)
    for code in range(CODES):
        assert state.available[code] >= 0
        assert state.reserve[code] >= 0
    for seat in state.occupied:  # CON-52
        if state.out[seat] is None:
            assert state.owner[seat] == NO_OWNER
            assert any(state.alive[s] for s in range(4) if state.controller[s] == seat)
    if state.phase == DECISION_PHASE:
        assert state.out[state.seat] is None
        assert state.dice is not None
        assert len(state.moved) + len(state.unused) <= 2
        assert state.legal_actions() != [END]  # CON-31


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {}),
        (4, {}),
        (2, {"seats": [1, 4]}),
        (4, {"airplanes_on_mines": False, "optional_dice": False}),
        (3, {"submarines": False}),
    ],
)
def test_random_games_keep_the_invariants(players: int, options: dict[str, object]) -> None:
    for seed in range(2):
        state = CONFLICT.new(players, options, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            check_invariants(state)
            action = state.sample_chance() if state.to_move() == CHANCE else rng.choice(state.legal_actions())
            state.play(action)
        check_invariants(state)
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.reason in ("last-player-in", "mutual-elimination", "roll-limit")
        assert outcome.reason in CONFLICT.info.end_reasons


def test_moves_are_decisions_of_piece_die_and_final_square() -> None:
    # CON-63: no two legal actions share (source, die, final); every move's final square holds
    # no piece of the mover, and the walk's end is where the piece lands or dies.
    state = CONFLICT.new(4, seed=5)
    rng = random.Random(5)
    for _ in range(300):
        if state.is_over():
            break
        if state.to_move() == CHANCE:
            state.play(state.sample_chance())
            continue
        decisions = [decode(a, state.board.size) for a in state.legal_actions()]
        keys = [(d.kind, d.code, d.square, d.die, d.final) for d in decisions if d is not None]
        assert len(set(keys)) == len(keys)
        for decision in decisions:
            assert decision is not None
            if decision.kind in ("move", "enter"):
                target = state.squares[decision.final]
                assert target < 0 or state.controller[target // TYPES] != state.seat
        state.play(rng.choice(state.legal_actions()))


def test_phases() -> None:
    # CON-60
    state = CONFLICT.new(2)
    assert state.phase == CHANCE_PHASE
    do(state, "roll 1-2")
    assert state.phase == DECISION_PHASE


def test_bad_start_positions_are_refused() -> None:
    for text, words in (
        ("pieces 1S a1", "cannot stand"),
        ("pieces 1C a1 2C a1", "already holds"),
        ("pieces 3C a1", "unused"),
        ("pieces 2C c3", "hostile mine"),
        ("owner 1 2\nowner 2 1", "cycle"),
        ("available 1 CCCCC", "more than 4"),
        ("out 1 no pieces", "controls pieces"),
        ("out 2 taken over", "no owner"),
        ("dice 3-4\nunused 5", "unused"),
        ("dice 3-4\nactivation open\nunused 4\nmoved a1", "'moved'"),
        ("dice 1-2\nactivation open", "activation"),
        ("turn 3", "not occupied"),
    ):
        with pytest.raises(FormatError, match=words):
            position(text, players=2)


def test_positions_round_trip_through_json_and_text() -> None:
    from parlour.games.conflict.position import position_from_text, position_to_text

    state = position("owner 2 1\npieces 1S p5 2C d4 1C r3\nreserve 2 SA\ndice 3-4\nunused 4\nmoved p5\n"
                     "activation open\nrolls 7")
    data = state.position_json()
    again = CONFLICT.new(4, start=data)
    assert again.position_json() == data
    assert position_from_text(position_to_text(data)) == {k: v for k, v in data.items() if k != "phase"} | {
        "phase": "decision"}
    assert texts(again) == texts(state)
    finished = CONFLICT.new(2, start=position("pieces 1C d4\navailable 2 -\nreserve 2 -", players=2)
                            .position_json())
    assert finished.is_over()
    assert CONFLICT.new(2, start=finished.position_json()).outcome() == finished.outcome()
