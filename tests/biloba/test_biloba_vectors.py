"""Every vector of specs/biloba_vectors.jsonl (section 13), every field.

A vector's ``board`` is the position at the start of ``to_move``'s turn. The engine runs the
automatic part of a turn (and of the turns after it) inside ``apply``; the board at the end of a
turn is the present board with the pawns that later turns removed put back, read from the log.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parlour.games import get_game
from parlour.games.biloba import OVER, REPLACE, Biloba, BilobaState
from parlour.games.biloba.board import COLOUR_NAMES, EMPTY
from parlour.games.biloba.notation import NAMES
from parlour.games.biloba.perft import perft
from parlour.games.biloba.position import board_rows

VECTOR_FILE = Path(__file__).parent / "biloba_vectors.jsonl"
VECTORS = [json.loads(line) for line in VECTOR_FILE.read_text().splitlines()]
BILOBA: Biloba = get_game("biloba")  # type: ignore[assignment]

def start(vector: dict[str, Any]) -> BilobaState:
    return BILOBA.new(vector["players"], start={"board": vector["board"], "to_move": vector["to_move"]})


def texts(state: BilobaState) -> list[str]:
    return [state.action_to_text(action) for action in state.legal_actions()]


def board_after_turn(state: BilobaState, turn: int) -> list[str]:
    """The board when ``turn`` ended: later turns only removed pawns before the next decision."""
    board = list(state.board)
    for event in state.log:
        if event.turn > turn:
            for tile, colour in zip(event.tiles, event.colours, strict=True):
                board[tile] = colour
    return board_rows(board)


def next_seat(state: BilobaState, turn: int) -> str:
    return COLOUR_NAMES[state.turn_seats[turn]]


def game_over(state: BilobaState) -> dict[str, str] | None:
    outcome = state.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return {"result": "draw"}
    return {"result": "win", "winner": COLOUR_NAMES[outcome.winner]}


def play_waves(state: BilobaState, turn: int, waves: list[dict[str, Any]]) -> None:
    """BIL-25..BIL-30: each wave's captures, its replacement options and choices, left_empty."""
    for index, wave in enumerate(waves):
        scans = [e for e in state.log if e.kind == "capture" and e.turn == turn]
        assert len(scans) == index + 1, f"wave {index + 1} was not scanned"
        assert [NAMES[t] for t in scans[index].tiles] == wave["captured"]
        filled = set()
        for step in wave["replacements"]:
            assert state.phase == REPLACE
            assert texts(state) == step["options"]
            state.play_text(step["chosen"])
            filled.add(step["chosen"].split(">")[1])
        assert [t for t in wave["captured"] if t not in filled] == wave["left_empty"]
    scans = [e for e in state.log if e.kind == "capture" and e.turn == turn]
    assert len(scans) == len(waves), "more waves than the vector has"


def check_end_of_turn(state: BilobaState, turn: int, expected: dict[str, Any], over: Any) -> None:
    """The board, the result and the next player when ``turn`` ended (later turns may have run)."""
    assert state.turn > turn or state.phase == OVER, "the turn is over"
    assert board_after_turn(state, turn) == expected["board_after"]
    if state.turn == turn:
        assert game_over(state) == over
        assert state.phase == OVER
        assert state.legal_actions() == []
    else:
        assert over is None
        assert next_seat(state, turn) == expected["next_to_move"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector(vector: dict[str, Any]) -> None:
    state = start(vector)
    seat = COLOUR_NAMES.index(vector["to_move"])
    letters = "".join(vector["board"])
    assert [letters.count(letter) for letter in "OBRG"[: vector["players"]]] == vector["pawn_counts"]
    ts = vector["turn_start"]
    play_waves(state, 1, ts["forced"])  # BIL-26
    eliminated = any(e.kind == "eliminated" and e.turn == 1 for e in state.log)
    assert eliminated == ts["eliminated"]  # BIL-32, BIL-33
    assert state.turn_seats[0] == seat
    if ts["skip_move"]:
        check_end_of_turn(state, 1, ts, ts["game_over"])
        assert vector["legal_moves"] == []
        assert vector["results"] == []
    elif vector.get("no_legal_move_pass"):
        assert any(e.kind == "pass" and e.turn == 1 for e in state.log)  # BIL-50
        assert board_after_turn(state, 1) == ts["board_after"]
        assert next_seat(state, 1) == vector["next_to_move"]
    else:
        assert state.turn == 1
        assert state.to_move() == seat
        assert board_rows(state.board) == ts["board_after"]
        assert texts(state) == vector["legal_moves"]  # BIL-20, BIL-21
        for result in vector["results"]:
            child = state.copy()
            child.play_text(result["move"])
            play_waves(child, 1, result["waves"])
            check_end_of_turn(child, 1, result, result["game_over"])
    for depth, counts in vector.get("perft", {}).items():  # section 13.4
        assert perft(start(vector), int(depth)) == counts["full"]
        assert perft(start(vector), int(depth), full=False) == counts["moves_only"]


def test_every_vector_is_read() -> None:
    assert len(VECTORS) == 45
    assert [v["id"] for v in VECTORS] == [f"bil-p{n:03d}" for n in range(1, 46)]


def test_left_empty_tiles_are_empty_at_the_end() -> None:
    """BIL-28/29: a tile the last wave left empty is still empty when the turn ends."""
    for vector in VECTORS:
        for result in vector["results"]:
            if result["waves"]:
                state = start(vector)
                state.play_text(result["move"])
                play_waves(state, 1, result["waves"])
                board = state.board
                for name in result["waves"][-1]["left_empty"]:
                    tile = NAMES.index(name)
                    assert board[tile] == EMPTY
