"""Conflict's actions as data (``action_parts``, CON-63, CON-64) and the legality gate
(``is_legal``). A front end highlights moves and builds a decision (a piece, then a destination
and die) from the parts alone, so the parts must name each legal action once, and say the same
thing as the notation."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from conflict_helpers import CONFLICT, CORRIDOR, do, position

from parlour.engine import CHANCE, IllegalActionError
from parlour.games.conflict import ConflictState
from parlour.games.conflict.actions import MOVE, roll_action
from parlour.games.conflict.maps import neighbours
from parlour.games.conflict.notation import canonical_path
from parlour.games.conflict.pieces import TYPE_LETTERS, TYPE_NAMES, TYPES


def parts_of(state: ConflictState, text: str) -> dict[str, Any]:
    return state.action_parts(state.parse_action(text))


def test_the_parts_of_each_kind_of_decision() -> None:
    state = CONFLICT.new(2, seed=1)
    assert state.action_parts(roll_action(5, 2)) == {"kind": "roll", "dice": [2, 5]}  # CON-61: a <= b
    do(state, "roll 3-4")
    assert parts_of(state, "end") == {"kind": "end"}
    assert parts_of(state, "activate airplane") == {"kind": "activate", "piece": "1A", "seat": 1}  # CON-47
    # CON-64: an entry starts on its seat's base; the path is the squares walked after it.
    assert parts_of(state, "enter ship 3: f5 g5 h5") == {
        "kind": "enter", "piece": "1S", "seat": 1, "die": 3, "from": "e5", "to": "h5",
        "path": ["f5", "g5", "h5"],
    }


def test_a_walk_stopped_by_a_hostile_mine_ends_its_path_there() -> None:
    # CON-34, CON-42: with a 4 the walk ends on orange's mine n7, after two squares.
    state = position("pieces 1S l8\ndice 4-1")
    assert parts_of(state, "l8 4: m7 n7") == {
        "kind": "move", "piece": "1S", "seat": 1, "die": 4, "from": "l8", "to": "n7", "path": ["m7", "n7"],
    }


def test_the_seat_of_a_piece_in_a_controlled_row() -> None:
    # CON-64: "ship@2" when red controls ships of two seats; the parts always name the seat.
    state = position("owner 2 1\npieces 1C a1\ndice 1-2")
    ships = [parts for parts in map(state.action_parts, state.legal_actions())
             if parts["kind"] == "enter" and parts["piece"][1] == "S"]
    found = {(parts["piece"], parts["seat"], parts["from"]) for parts in ships}
    assert found == {("1S", 1, "e5"), ("2S", 2, "p5")}


def test_parts_of_an_action_that_is_not_legal_are_refused() -> None:
    state = CONFLICT.new(2)
    for action in (-1, 0, 1, MOVE, MOVE + 12_345, 2**70):
        with pytest.raises(IllegalActionError):
            state.action_parts(action)


def decision_states(players: int, options: dict[str, Any], seed: int) -> Iterator[ConflictState]:
    """Every decision position of a random game, up to 400 actions."""
    state = CONFLICT.new(players, options, seed=seed)
    rng = random.Random(seed)
    while not state.is_over() and len(state.history) < 400:
        if state.to_move() == CHANCE:
            state.play(state.sample_chance())
            continue
        yield state
        state.play(rng.choice(state.legal_actions()))


def written(parts: dict[str, Any]) -> str:
    """The decision in CON-64's notation, built from its parts alone (``@seat`` always given)."""
    if parts["kind"] in ("end", "roll"):
        return "end" if parts["kind"] == "end" else "roll {}-{}".format(*parts["dice"])
    piece = f"{TYPE_NAMES[TYPE_LETTERS.index(parts['piece'][1])]}@{parts['seat']}"
    if parts["kind"] == "activate":
        return f"activate {piece}"
    head = parts["from"] if parts["kind"] == "move" else f"enter {piece}"
    return f"{head} {parts['die']}: {' '.join(parts['path'])}"


def check_parts(state: ConflictState, action: int, parts: dict[str, Any], pieces: set[str]) -> None:
    """The parts agree with the position (``pieces`` as ``position_json`` lists them) and the
    notation (CON-63, CON-64)."""
    assert state.parse_action(written(parts)) == action
    if parts["kind"] not in ("move", "enter"):
        return
    board = state.board
    assert str(parts["seat"]) == parts["piece"][0]
    if parts["kind"] == "move":
        assert parts["piece"] + " " + parts["from"] in pieces
        assert state.action_to_text(action) == written(parts)  # the canonical path (CON-64)
    else:
        assert parts["from"] == board.names[board.bases[parts["seat"] - 1]]
    squares = [board.names.index(name) for name in [parts["from"], *parts["path"]]]
    assert all(b in neighbours(board.cols, board.rows, a) for a, b in itertools.pairwise(squares))
    assert parts["path"][-1] == parts["to"]
    assert len(parts["path"]) <= parts["die"]
    if len(parts["path"]) < parts["die"]:  # CON-34: only a hostile mine ends a walk early
        final = squares[-1]
        assert board.mine_seat[final] >= 0
        assert state.controller[board.mine_seat[final]] != state.seat


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [(2, {}, 4), (4, {"board": CORRIDOR}, 5), (4, {"airplanes_on_mines": False}, 7)],
)
def test_parts_name_every_legal_action_once(players: int, options: dict[str, Any], seed: int) -> None:
    # CON-63: a decision is (piece, die, final square); a front end picks the piece (its square,
    # or its row's piece for an entry), then the die and destination, so those pick one action.
    seen = 0
    for index, state in enumerate(decision_states(players, options, seed)):
        if index % 15:
            continue  # a sample: a position has hundreds of legal moves
        picks = set()
        pieces = set(state.position_json()["pieces"])
        for action in state.legal_actions():
            parts = state.action_parts(action)
            check_parts(state, action, parts, pieces)
            pick = tuple(parts.get(key) for key in ("kind", "piece", "from", "die", "to"))
            assert pick not in picks
            picks.add(pick)
            seen += 1
    assert seen > 200


def legal_by_asking(state: ConflictState, integers: range) -> list[int]:
    return [action for action in integers if state.is_legal(action)]


def every_action(state: ConflictState) -> range:
    """Every integer up to past the largest action on the board (``actions``), and a few negative."""
    size = state.board.size
    return range(-50, MOVE + (size + 4 * TYPES + 1) * 6 * size + 50)


def test_is_legal_is_membership_for_any_integer() -> None:
    # CON-63: the legal decisions as a set; every other integer is refused, whatever its size.
    checked = 0
    for index, state in enumerate(decision_states(4, {"board": CORRIDOR}, 5)):
        if index % 7 == 0:
            assert legal_by_asking(state, every_action(state)) == sorted(state.legal_actions())
            assert not any(state.is_legal(big) for big in (2**63, -(2**63), 2**200))
            checked += 1
    assert checked > 10
    chance = CONFLICT.new(2)
    assert legal_by_asking(chance, range(-50, 5_000)) == sorted(a for a, _ in chance.chance_outcomes())


def test_is_legal_follows_make_and_unmake() -> None:
    state = position("pieces 1S l8\ndice 4-1")
    before = sorted(state.legal_actions())
    action = state.parse_action("l8 1: m8")
    state.play(action)
    assert not state.is_legal(action)
    assert sorted(state.legal_actions()) != before
    state.undo()
    assert state.is_legal(action)
    assert legal_by_asking(state, every_action(state)) == before


def test_play_refuses_what_is_not_legal_with_words() -> None:
    state = position("pieces 2G r3 1A o3\navailable 1 -\nreserve 1 -\navailable 2 -\nreserve 2 -\ndice 3-1",
                     players=2)
    for action in (-7, 2**70):
        with pytest.raises(IllegalActionError, match=r"^action number (-7|\d+): it is no action of Conflict"):
            state.play(action)
    with pytest.raises(IllegalActionError, match=r"^roll 1-2: the dice have been rolled"):
        state.play(roll_action(1, 2))
    do(state, "o3 3: p2 q2 r3")  # CON-56: both sides lose their last piece
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.play(roll_action(1, 2))


def test_the_paths_kept_for_a_position_follow_make_and_unmake() -> None:
    # CON-64: the canonical path a position keeps for each action is the one it has now, after
    # any sequence of moves taken back and played.
    rng = random.Random(9)
    for index, state in enumerate(decision_states(3, {}, 9)):
        if index % 8:
            continue
        legal = state.legal_actions()
        assert [state.path_of(a) for a in legal] == [canonical_path(state, a) for a in legal]
        trial = rng.choice(legal)
        state.play(trial)
        if state.to_move() != CHANCE and not state.is_over():
            after = state.legal_actions()
            assert [state.path_of(a) for a in after] == [canonical_path(state, a) for a in after]
        state.undo()
        copy = state.copy()
        assert [copy.path_of(a) for a in legal] == [canonical_path(state, a) for a in legal]
