"""Lines of Action rules, from specs/loa.md (rule ids cited), positions built from text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parlour.engine import FormatError, IllegalActionError, NotationError, OptionError
from parlour.games import get_game
from parlour.games.loa import PASS, LinesOfAction, LoaState

WORKED = json.loads((Path(__file__).parent / "worked_positions.json").read_text())
LOA: LinesOfAction = get_game("loa")  # type: ignore[assignment]


def rows_of(dump: list[str]) -> list[str]:
    """The eight board rows of a dump as strings like ``-bbbbbb-``."""
    return [line.replace(" ", "") for line in dump[1:9]]


def position(worked: dict[str, Any], **options: Any) -> LoaState:
    """A worked position: replayed from its plies, or set up from its dump."""
    if worked["plies"] is None:
        to_move = worked["dump"][9].split(": ")[1]
        return LOA.from_rows(rows_of(worked["dump"]), to_move, options=options)
    state = LOA.new(options=options)
    for ply in worked["plies"]:
        state.play_text(ply)
    return state


def listed(state: LoaState) -> list[str]:
    """Legal moves in the spec's listing style: ``x`` marks a capture (LOA-4)."""
    texts = []
    for action in state.legal_actions():
        text = state.action_to_text(action)
        texts.append(text.replace("-", "x") if state.is_capture(action) else text)
    return texts


@pytest.mark.parametrize("worked", WORKED, ids=[w["id"] for w in WORKED])
def test_worked_positions(worked: dict[str, Any]) -> None:
    """LOA-3 to LOA-9: the dump and the complete legal-move list, in canonical order."""
    state = position(worked)
    assert all(row.endswith(" ") for row in state.dump().splitlines()[1:9])  # LOA-72
    assert [line.rstrip() for line in state.dump().splitlines()] == worked["dump"]
    # is_legal answers from the move's own line (or, for the pass, LOA-11) as the full list does
    assert {action for action in range(-1, PASS + 2) if state.is_legal(action)} == set(state.legal_actions())
    if worked["id"] == "W-14":
        # LOA-11: Black has no move, so its only action is the pass; then White has these.
        assert state.legal_actions() == [PASS]
        state.play_text("pass")
        assert state.plies == 1
    assert listed(state) == worked["moves"]


def test_initial_position_and_the_b1_piece() -> None:
    """LOA-2, LOA-7 (W-1): three moves for the b1 piece, Black first, seats 0 and 1."""
    state = LOA.new()
    assert state.to_move() == 0
    b1_moves = [t for t in listed(state) if t.startswith("b1")]
    assert b1_moves == ["b1-h1", "b1-b3", "b1-d3"]


@pytest.mark.parametrize(("depth", "count", "captures"), [(1, 36, 4), (2, 1_244, 156), (3, 44_952, 5_980)])
def test_perft_with_captures(depth: int, count: int, captures: int) -> None:
    """LOA-25: perft counts and the captures on the last ply."""

    def walk(state: LoaState, depth: int) -> tuple[int, int]:
        if depth == 1:
            actions = state.legal_actions()
            return len(actions), sum(state.is_capture(a) for a in actions)
        total = caught = 0
        for action in state.legal_actions():
            state.apply(action)
            if not state.is_over():
                n, c = walk(state, depth - 1)
                total, caught = total + n, caught + c
            state.undo()
        return total, caught

    assert walk(LOA.new(), depth) == (count, captures)


def test_perft_depth_4() -> None:
    """LOA-25: perft(4) = 1,563,208 through the generic engine perft."""
    from parlour.engine.perft import perft

    assert perft(LOA.new(), 4) == 1_563_208


def test_capture_of_all_but_one_piece_wins_for_the_victim() -> None:
    """LOA-13.2, LOA-14 (W-8): h3xf5 leaves White one piece: White wins though Black moved."""
    state = position(next(w for w in WORKED if w["id"] == "W-8"))
    state.play_text("h3-f5")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 1
    assert outcome.reason == "connected"
    assert state.legal_actions() == []


def test_capture_that_joins_the_opponent_wins_for_the_opponent() -> None:
    """LOA-13.2 (W-9): White's a5xd8 makes Black contiguous: Black wins."""
    state = position(next(w for w in WORKED if w["id"] == "W-9"))
    state.play_text("a5xd8")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 0


def test_connecting_move_wins_for_the_mover() -> None:
    """LOA-13.2 (W-10): b6-c7 connects White."""
    state = position(next(w for w in WORKED if w["id"] == "W-10"))
    state.play_text("b6-c7")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 1
    assert outcome.reason == "connected"


@pytest.mark.parametrize(
    ("rule", "winner", "reason"), [("mover", 1, "connected"), ("draw", None, "simultaneous")]
)
def test_simultaneous_connection(rule: str, winner: int | None, reason: str) -> None:
    """LOA-13.1, LOA-20 (W-15): g6xd6 connects both sides."""
    state = position(next(w for w in WORKED if w["id"] == "W-15"), simultaneous_connection=rule)
    state.play_text("g6-d6")
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (winner, reason)


def test_move_limit_ends_in_a_tie_after_60_plies() -> None:
    """LOA-13.4, LOA-16 (W-13 / someMoves2-1): 60 plies with no connection is a tie."""
    moves = (Path(__file__).parent / "conformance" / "someMoves2-1.in").read_text().split()
    plies = [m for m in moves if len(m) == 5 and m[2] == "-"]
    assert len(plies) == 60
    state = LOA.new()
    for ply in plies[:-1]:
        state.play_text(ply)
        assert not state.is_over()
    state.play_text(plies[-1])
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert outcome.reason == "move-limit"


def test_connection_on_the_last_ply_wins() -> None:
    """LOA-13: 1 and 2 come before 4 — W-10's connecting move as the 52nd and last ply."""
    state = position(next(w for w in WORKED if w["id"] == "W-10"), move_limit=52)
    assert state.outcome() is None  # 51 plies made
    state.play_text("b6-c7")
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (1, "connected")


def test_no_move_limit() -> None:
    """LOA-20: move_limit 0 means no limit."""
    state = LOA.from_rows(rows_of(WORKED[0]["dump"]), "black", plies=500, options={"move_limit": 0})
    assert not state.is_over()


def test_a_set_up_position_that_is_over_is_finished() -> None:
    """LOA-22, LOA-12: both sides contiguous with Black to move: the mover (White) wins."""
    rows = ["bb------", "--------", "--------", "--------", "--------", "--------", "--------", "-----ww-"]
    state = LOA.from_rows(rows, "black")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 1
    assert state.legal_actions() == []


def test_blocked_on_both_sides_is_a_tie() -> None:
    """LOA-13.5: neither side can move."""
    # A full board: every line holds as many pieces as it has squares, so every move leaves it.
    rows = ["w" * 8, "w" * 8, "b" * 8, "b" * 8, "w" * 8, "w" * 8, "b" * 8, "b" * 8]
    state = LOA.from_rows(rows, "black")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "blocked"
    assert outcome.winner is None


def test_repetition_option() -> None:
    """LOA-21: with draw3 a third occurrence is a tie; by default it is not."""
    shuffle = ["b1-b3", "a2-c2", "b3-b1", "c2-a2"]
    for rule, over in (("none", False), ("draw3", True)):
        state = LOA.new(options={"repetition": rule})
        for ply in shuffle * 2:
            state.play_text(ply)
        outcome = state.outcome()
        assert (outcome is not None) is over
        if over:
            assert outcome is not None
            assert outcome.reason == "repetition"
            state.undo()
            assert state.outcome() is None


def test_notation_errors_are_distinct() -> None:
    """LOA-4, LOA-5: malformed text vs an illegal move vs a capture mark on a non-capture."""
    state = LOA.new()
    for text in ("", "b1", "b1-d9", "i1-a1", "b1--d3", "hello"):
        with pytest.raises(NotationError):
            state.parse_action(text)
    for text in ("b1-b2", "a2-a4", "b1-c3", "pass"):
        with pytest.raises(IllegalActionError):
            state.parse_action(text)
    with pytest.raises(IllegalActionError, match="not a capture"):
        state.parse_action("b1xd3")
    assert state.parse_action("c1xa3") == state.parse_action("c1-a3")
    assert state.parse_action(" B1-D3 ") == state.parse_action("b1-d3")


def test_options_are_checked() -> None:
    """LOA-20: unknown options and bad values are refused with the reason."""
    with pytest.raises(OptionError, match="no option"):
        LOA.new(options={"speed": 3})
    with pytest.raises(OptionError, match="one of"):
        LOA.new(options={"repetition": "draw2"})
    with pytest.raises(OptionError, match="at least 0"):
        LOA.new(options={"move_limit": -1})
    with pytest.raises(OptionError, match="players"):
        LOA.new(players=3)


def test_bad_set_up_positions_are_refused() -> None:
    """LOA-22: a position must be 8 rows of b, w and -."""
    empty = ["--------"] * 8
    for start in ({"board": empty[:7]}, {"board": ["-x------"] * 8}, {"board": empty, "to_move": "red"}):
        with pytest.raises(FormatError):
            LOA.new(start=start)


def test_undo_restores_captures_and_the_key() -> None:
    """Make/unmake: a capture and its undo leave the exact position and Zobrist key."""
    state = LOA.new()
    key, json_before = state.position_key(), state.position_json()
    state.play_text("c1-a3")
    assert state.position_json()["board"][5] == "b------w"
    state.undo()
    assert (state.position_key(), state.position_json()) == (key, json_before)


def test_view_marks_the_last_capture() -> None:
    """LOA-4: a display may write a capture as c1xa3; the view does so for the last move."""
    state = LOA.new()
    state.play_text("c1-a3")
    capture = {"text": "c1xa3", "from": "c1", "to": "a3", "capture": True}
    assert state.view(None)["content"]["last_move"] == capture
    state.play_text("a2-c2")
    move = {"text": "a2-c2", "from": "a2", "to": "c2", "capture": False}
    assert state.view(0)["content"]["last_move"] == move


def test_action_parts_name_the_squares_and_a_capture() -> None:
    """LOA-4: a move's parts are its two squares; a capture says so."""
    state = LOA.new()
    assert state.action_parts(state.parse_action("b1-b3")) == {"kind": "move", "from": "b1", "to": "b3"}
    assert state.action_parts(state.parse_action("c1-a3")) == {"kind": "capture", "from": "c1", "to": "a3"}
    assert state.action_parts(PASS) == {"kind": "pass"}


@pytest.mark.parametrize("plies", [[], ["c1-a3"], ["b1-b3", "a2-c2", "g1-g3"]])
def test_is_legal_agrees_with_the_legal_moves(plies: list[str]) -> None:
    """LOA-6 to LOA-9: is_legal answers from the move's own line, exactly as the full list does."""
    state = LOA.new()
    for ply in plies:
        state.play_text(ply)
    legal = set(state.legal_actions())
    assert {action for action in range(-2, PASS + 2) if state.is_legal(action)} == legal
