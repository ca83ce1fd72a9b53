"""Biloba rules, from specs/biloba.md (rule ids cited), positions built from text."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from parlour.engine import FormatError, IllegalActionError, NotationError, OptionError
from parlour.games import get_game
from parlour.games.biloba import MOVE, OVER, REPLACE, Biloba, BilobaState, decode_action
from parlour.games.biloba.actions import move_action, replacement_action
from parlour.games.biloba.board import CENTRE, CENTRE_NEIGHBOURS, NON_PLAYABLE, PLAYABLE, tile_of
from parlour.games.biloba.notation import NAMES, parse_tile
from parlour.games.biloba.perft import perft
from parlour.games.biloba.position import board_rows

BILOBA: Biloba = get_game("biloba")  # type: ignore[assignment]
CORNERS = {"a1", "b1", "a2", "h1", "i1", "i2", "a8", "a9", "b9", "i8", "h9", "i9"}
COLOURS = ("orange", "blue", "red", "green")


def rows(pawns: str) -> list[str]:
    """BIL-6 rows from ``"O: c3 e3  B: d3"``: a colour letter, then its tiles."""
    cells: dict[str, str] = {}
    letter = ""
    for word in pawns.split():
        if word.endswith(":"):
            letter = word[:-1]
        else:
            cells[word] = letter
    return [
        "".join("#" if (name := "abcdefghi"[x] + str(y + 1)) in CORNERS
                else cells.get(name, "*" if name == "e5" else ".") for x in range(9))
        for y in range(9)
    ]


def position(pawns: str, to_move: str = "orange", players: int = 2, **options: Any) -> BilobaState:
    return BILOBA.from_rows(rows(pawns), to_move, players, options)


def texts(state: BilobaState) -> list[str]:
    return [state.action_to_text(action) for action in state.legal_actions()]


def events(state: BilobaState, kind: str) -> list[tuple[int, str, list[str]]]:
    """(turn, colour, tiles) of the log's events of ``kind``."""
    return [(e.turn, COLOURS[e.seat], [NAMES[t] for t in e.tiles]) for e in state.log if e.kind == kind]


def result(state: BilobaState) -> tuple[str | None, str]:
    outcome = state.outcome()
    assert outcome is not None, "the game is over"
    return (None if outcome.winner is None else COLOURS[outcome.winner]), outcome.reason


# --- board, set-ups, identities -------------------------------------------------------------------


def test_board_and_notation() -> None:
    """BIL-1..BIL-6: 69 playable tiles, the twelve corners, e5 = (4,4), names sort like (x, y)."""
    assert len(PLAYABLE) == 69
    assert {NAMES[t] for t in NON_PLAYABLE} == CORNERS
    assert NAMES[CENTRE] == "e5"
    assert tile_of(4, 4) == CENTRE
    assert [NAMES[tile_of(x, y)] for x, y in ((4, 0), (1, 3), (8, 6))] == ["e1", "b4", "i7"]
    assert sorted(NAMES) == list(NAMES)  # sorting names = sorting tiles = sorting (x, y)
    assert [NAMES[t] for t in CENTRE_NEIGHBOURS] == ["d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"]
    for bad in ("j1", "a0", "a10", "A1", "e", ""):
        with pytest.raises(NotationError):
            parse_tile(bad)


def test_board_strings_read_star_and_dot_alike() -> None:
    """BIL-6: ``*`` and ``.`` are the same empty tile."""
    starred = rows("O: c3 d3 e3  B: c7 d7 e7")
    plain = [row.replace("*", ".") for row in starred]
    assert plain != starred
    assert BILOBA.from_rows(plain).position_json() == BILOBA.from_rows(starred).position_json()
    assert BILOBA.from_rows(plain).position_json()["board"][4] == "....*...."


@pytest.mark.parametrize(
    ("players", "diagram"),
    [
        (2, ["##..O..##", "#..OOO..#", "..OOOOO..", ".OOOOOOO.", "....*....",
             ".BBBBBBB.", "..BBBBB..", "#..BBB..#", "##..B..##"]),
        (3, ["##OO.OO##", "#..OOO..#", "....O...B", ".......BB", "....*.BB.",
             ".......BB", "....R...B", "#..RRR..#", "##RR.RR##"]),
        (4, ["##OO.OO##", "#..OOO..#", "G...O...B", "GG.....BB", ".GG.*.BB.",
             "GG.....BB", "G...R...B", "#..RRR..#", "##RR.RR##"]),
    ],
)
def test_set_ups(players: int, diagram: list[str]) -> None:
    """BIL-7..BIL-10: the set-up diagrams, 16 or 8 pawns each, orange first (BIL-12)."""
    state = BILOBA.new(players)
    assert state.position_json()["board"] == diagram
    assert list(state.counts) == [16 if players == 2 else 8] * players
    assert state.to_move() == 0
    assert state.phase == MOVE
    names = [BILOBA.info.seat_name(seat) for seat in range(players)]
    assert names == ["Orange", "Blue", "Red", "Green"][:players]


def test_pawn_identities_follow_the_pawns() -> None:
    """BIL-11: identities by start tile in column-major order, kept through moves and replacements."""
    state = BILOBA.new(2)
    identities = state.position_json()["pawns"]
    assert identities["orange"][:5] == ["b4", "c3", "c4", "d2", "d3"]
    assert identities["blue"][:3] == ["b6", "c6", "c7"]
    assert state.identity(parse_tile("c3")) == 1
    state.play_text("c3-c5")  # a jump: the pawn keeps identity 1
    assert state.position_json()["pawns"]["orange"][:3] == ["b4", "c5", "c4"]
    assert state.identity(parse_tile("c5")) == 1
    assert state.identity(parse_tile("c3")) == -1
    # A position read back keeps them (and so does the record).
    again = BILOBA.new(start=state.position_json())
    assert again.position_json() == state.position_json()


def test_pending_pawns_are_listed_in_identity_order() -> None:
    """BIL-11, BIL-28: p043's pending pawns by identity order: by start tile, or as given."""
    board = rows("O: c3 e3 g3 c5  B: d3 f3 c4 c7 e8 g8")
    state = BILOBA.from_rows(board)
    assert state.phase == REPLACE
    assert [NAMES[t] for t in state.pending_pawns()] == ["c3", "c5", "e3", "g3"]
    identities = {"orange": ["g3", "e3", "c5", "c3", *[None] * 12],
                  "blue": ["c4", "c7", "d3", "e8", "f3", "g8", *[None] * 10]}
    state = BILOBA.new(start={"board": board, "to_move": "orange", "pawns": identities})
    assert [NAMES[t] for t in state.pending_pawns()] == ["g3", "e3", "c5", "c3"]
    assert list(state.position_json()["pending"]) == ["g3", "e3", "c5", "c3"]


# --- turns ----------------------------------------------------------------------------------------


def test_turn_order_skips_players_without_pawns() -> None:
    """BIL-12: orange, blue, (red,) green; red has no pawns and is skipped, its turn not counted."""
    state = position("O: c2 d2 e2  B: h4 h5 h6  G: b4 b5 b6", players=4)
    for move, next_seat in (("c2-c3", 1), ("h4-g4", 3), ("b4-c4", 0)):
        state.play_text(move)
        assert state.to_move() == next_seat
    assert state.turn_seats == [0, 1, 3, 0]
    assert state.turn == 4


def test_steps_go_every_way() -> None:
    """BIL-15: a step goes to any empty neighbour, backwards too."""
    state = position("O: c5 f1 g1  B: c9 d9 e9")
    assert [t for t in texts(state) if t.startswith("c5-") and len(t) == 5] == [
        "c5-b4", "c5-b5", "c5-b6", "c5-c4", "c5-c6", "c5-d4", "c5-d5", "c5-d6",
    ]


def test_jumps() -> None:
    """BIL-16: over a pawn of any colour, own included; one jump only; no capture by jumping."""
    state = position("O: c3 c4 f3  B: f4 f6 h8")
    legal = texts(state)
    assert "c3-c5" in legal  # over its own pawn
    assert "f3-f5" in legal  # over an enemy pawn
    assert "f3-f7" not in legal  # no chained jumps (over f4, then f6)
    state.play_text("f3-f5")
    assert state.board[parse_tile("f4")] == 1  # the jumped pawn is still there
    assert state.to_move() == 1  # one jump, and the turn is over


def test_jumps_never_land_on_the_centre() -> None:
    """BIL-16.2: e3 over e4 would land on e5."""
    state = position("O: e3 e4 c1  B: c9 d9 e9")
    assert "e3-e5" not in texts(state)
    with pytest.raises(IllegalActionError, match="may not land on e5"):
        state.parse_action("e3-e5")


@pytest.mark.parametrize(
    ("players", "letter", "allowed"),
    [
        (2, "O", ["b7", "d9", "f7", "f9"]),  # down and sideways
        (2, "B", ["b5", "b7", "d5", "f5", "f7"]),  # up and sideways
        (4, "O", ["b7", "d9", "f7", "f9"]),
        (4, "B", ["b5", "b7", "d5", "d9"]),  # left and sideways (x never grows)
        (4, "R", ["b5", "b7", "d5", "f5", "f7"]),  # up and sideways
        (4, "G", ["d5", "d9", "f5", "f7", "f9"]),  # right and sideways
    ],
)
def test_jumps_are_never_backwards(players: int, letter: str, allowed: list[str]) -> None:
    """BIL-19: the forward rule per colour; d7 is ringed by its own pawns, b9 is not playable."""
    ring = "d7 c6 d6 e6 c7 e7 c8 d8 e8"
    other = "B" if letter == "O" else "O"
    state = position(f"{letter}: {ring}  {other}: g1 g2 h2", COLOURS["OBRG".index(letter)], players)
    jumps = [t[3:] for t in texts(state) if t.startswith("d7-")]
    assert jumps == allowed
    for target in ("b5", "d5", "f5", "b7", "f7", "d9", "f9"):
        if target not in allowed:
            with pytest.raises(IllegalActionError, match="backwards"):
                state.parse_action(f"d7-{target}")


def test_centre_entry_needs_an_empty_neighbour() -> None:
    """BIL-17, BIL-18: with seven neighbours of e5 full, every route ends on the eighth (f6)."""
    state = position("O: d4 e4 f4 d5 f5 d6 e6  B: c9 d9 e9")
    routes = [t for t in texts(state) if "-e5-" in t]
    assert routes == [f"{start}-e5-f6" for start in ("d4", "d5", "d6", "e4", "e6", "f4", "f5")]
    state = position("O: d4 e4 f4 d5 f5 d6 e6 f6  B: c9 d9 e9")  # the mover's own tile is not free
    assert [t for t in texts(state) if "e5" in t] == []


def test_centre_routes() -> None:
    """BIL-18, BIL-54: one compound move per final tile, never back to the origin, never a jump
    from e5; the pawn never stays on e5."""
    state = position("O: d4 c1 d1  B: g6 c9 d9")
    routes = [t for t in texts(state) if t.startswith("d4-e5-")]
    assert routes == ["d4-e5-d5", "d4-e5-d6", "d4-e5-e4", "d4-e5-e6", "d4-e5-f4", "d4-e5-f5", "d4-e5-f6"]
    with pytest.raises(IllegalActionError, match="BIL-18"):
        state.parse_action("d4-e5-d4")
    with pytest.raises(IllegalActionError, match="BIL-18"):
        state.parse_action("d4-e5-g7")  # no jump from the centre
    with pytest.raises(IllegalActionError, match="must go on"):
        state.parse_action("d4-e5")
    with pytest.raises(IllegalActionError, match="next to e5"):
        state.parse_action("c1-e5-f5")
    action = state.parse_action("d4-e5-f5")
    assert decode_action(action) == (parse_tile("d4"), CENTRE, parse_tile("f5"))
    state.apply(action)
    assert state.board[CENTRE] < 0
    assert state.board[parse_tile("f5")] == 0
    assert state.to_move() == 1


# --- captures -------------------------------------------------------------------------------------


def test_moving_between_two_enemies_is_safe_and_costs_them_their_move() -> None:
    """BIL-22, BIL-23, BIL-26: blue steps between c3 and e3 unharmed; orange captures it at its
    turn start, replaces, and does not move."""
    state = position("O: c3 e3 c1  B: d4 f8 g8 h8", to_move="blue")
    state.play_text("d4-d3")
    assert events(state, "capture") == [(2, "orange", ["d3"])]  # at orange's turn start, not before
    assert state.to_move() == 0
    assert state.phase == REPLACE
    assert state.forced
    assert texts(state) == ["c3>d3", "e3>d3"]
    state.play_text("e3>d3")
    assert state.to_move() == 1
    assert state.turn == 3
    assert board_rows(state.board) == rows("O: c3 d3 c1  B: f8 g8 h8")


def test_a_third_players_sandwich_waits_for_the_flanking_player() -> None:
    """BIL-23: in a 3-player game blue steps between two orange pawns; red's turn passes it by;
    orange captures at its own turn start."""
    state = position("O: d3 f3 d1  B: e4 h5 h6  R: d8 e8 f8", to_move="blue", players=3)
    state.play_text("e4-e3")
    assert state.to_move() == 2
    assert state.phase == MOVE
    state.play_text("d8-d7")
    assert state.to_move() == 0
    assert state.phase == REPLACE
    assert events(state, "capture") == [(3, "orange", ["e3"])]
    assert texts(state) == ["d3>e3", "f3>e3"]


def test_a_scan_takes_every_sandwich_at_once() -> None:
    """BIL-22, BIL-25: d4 flanked on two lines is captured once, g7 with it; every flanker of
    d4 is pending for it; filling d4 removes it from every list (BIL-28)."""
    state = position("O: c4 e4 d3 d5 f7 h7  B: d4 g7 a4 a5 a6")
    assert events(state, "capture") == [(1, "orange", ["d4", "g7"])]
    assert texts(state) == ["c4>d4", "d3>d4", "d5>d4", "e4>d4", "f7>g7", "h7>g7"]
    state.play_text("d3>d4")
    assert texts(state) == ["f7>g7", "h7>g7"]
    state.play_text("h7>g7")
    assert state.to_move() == 1  # a forced-capture turn: no move


def test_only_the_capturing_colour_flanks() -> None:
    """BIL-22: a pawn between an orange and a red pawn is nobody's capture; red pawns are
    orange's victims as well as blue ones in a 3-player game."""
    state = position("O: c3 c1 d1  B: d3 h5 h6  R: e3 d8 e8", players=3)
    assert state.phase == MOVE
    assert events(state, "capture") == []
    state = position("O: c3 e3 d1  B: h4 h5 h6  R: d3 d8 e8", players=3)
    assert events(state, "capture") == [(1, "orange", ["d3"])]


def test_replacement_order_decides_which_tile_stays_empty() -> None:
    """BIL-28 (p043): c3>c4 then e3>f3 leaves d3 empty; c3>c4, e3>d3, g3>f3 fills all three; a
    single option is still a decision (BIL-53)."""
    board = "O: c3 e3 g3 c5  B: d3 f3 c4 c7 e8 g8"
    state = position(board)
    state.play_text("c3>c4")
    state.play_text("e3>f3")
    assert state.to_move() == 1
    assert board_rows(state.board) == rows("O: c4 f3 g3 c5  B: c7 e8 g8")
    state = position(board)
    state.play_text("c3>c4")
    state.play_text("e3>d3")
    assert state.to_move() == 0
    assert texts(state) == ["g3>f3"]
    state.play_text("g3>f3")
    assert board_rows(state.board) == rows("O: c4 d3 f3 c5  B: c7 e8 g8")


def test_replacements_can_chain() -> None:
    """BIL-29: a replacement closes a new sandwich: a second wave with its own replacement."""
    state = position("O: c3 e3 f5 c1  B: d3 e4 h8 g8 i7")
    # Wave 1 takes d3; either replacement puts an orange pawn on d3, and d3-e4-f5 is a sandwich.
    assert events(state, "capture") == [(1, "orange", ["d3"])]
    state.play_text("c3>d3")
    assert events(state, "capture") == [(1, "orange", ["d3"]), (1, "orange", ["e4"])]
    assert texts(state) == ["d3>e4", "f5>e4"]
    state.play_text("f5>e4")
    assert state.to_move() == 1


def test_replacement_errors() -> None:
    """BIL-30: only pairs (pending pawn, its empty vacated tile) are legal."""
    state = position("O: c3 e3 g3 c5  B: d3 f3 c4 c7 e8 g8")
    refusals = (("g3>d3", "vacated"), ("e1>d3", r"no pawn of yours \(Orange\) on e1"), ("c3-c2", "replace"))
    for text, reason in refusals:
        with pytest.raises(IllegalActionError, match=reason):
            state.parse_action(text)
    assert state.parse_action(" C3>C4 ") == replacement_action(parse_tile("c3"), parse_tile("c4"))
    with pytest.raises(IllegalActionError, match="no replacement"):
        BILOBA.new().parse_action("d4>d5")


# --- elimination, end, result ---------------------------------------------------------------------


def test_elimination_waits_for_the_players_own_turn() -> None:
    """BIL-32: blue drops to two pawns on orange's turn and is only tested at its own turn start."""
    state = position("O: c3 f2 a5  B: d3 g8 h8")
    state.play_text("f2-e3")
    assert state.phase == REPLACE
    assert list(state.counts) == [3, 2]
    assert events(state, "eliminated") == []
    state.play_text("c3>d3")
    assert events(state, "eliminated") == [(2, "blue", ["g8", "h8"])]
    assert result(state) == ("orange", "last-player")


def test_three_pawns_are_never_tested() -> None:
    """BIL-32: the test is for 1 or 2 pawns only."""
    state = position("O: a3 a4 a5  B: g8 h8 i7", to_move="blue")
    assert events(state, "eliminated") == []
    assert state.to_move() == 1
    state = position("O: a3 a4 a5  B: g8 h8", to_move="blue")
    assert events(state, "eliminated") == [(1, "blue", ["g8", "h8"])]


@pytest.mark.parametrize(
    ("pawns", "survives"),
    [
        ("O: c3 f4  B: d3 g8 h8", True),  # T = e3 beyond d3, and f4 stands next to e3
        ("O: c3 f6  B: d3 g8 h8", False),  # nothing next to e3
        ("O: d4  B: e4 c9 d9", True),  # p039's clause: T = f4 and d4 are both next to e5
        ("O: d4  B: e4 f4 c9", False),  # T = f4 holds a pawn
        ("O: b3 c2  B: b2 g8 h8", True),  # p040: T = b1, not playable, next to c2
        ("O: c1 c9  B: d1 g8 h8", False),  # T = e1: nothing next to it
    ],
)
def test_can_capture_soon(pawns: str, survives: bool) -> None:
    """BIL-33, exactly: a C pawn next to an enemy, an empty (or non-playable, never the centre) T
    beyond, and a C pawn next to T, or T and a C pawn both next to e5. Reachability is ignored."""
    state = position(pawns)
    eliminated = events(state, "eliminated")
    assert (eliminated == []) is survives
    if survives:
        assert state.can_capture_soon(0)
        assert state.to_move() == 0
    else:
        assert eliminated == [(1, "orange", pawns.split("  ")[0].split()[1:])]


def test_a_forced_capture_that_ends_the_game_still_runs_the_elimination_test() -> None:
    """BIL-13 quirk, BIL-37: orange (2 pawns) takes blue's last pawn, then fails its own test:
    no pawns are left, and parlour scores that as a draw."""
    state = position("O: c3 e3  B: d3")
    assert events(state, "capture") == [(1, "orange", ["d3"])]
    assert events(state, "eliminated") == [(1, "orange", ["c3", "e3"])]
    assert list(state.counts) == [0, 0]
    assert result(state) == (None, "no-pawns")


def test_two_against_two() -> None:
    """BIL-36: 2 v 2 ends a 2-player game as a draw, never a 3- or 4-player one."""
    assert result(position("O: c3 g3  B: c7 g7")) == (None, "two-against-two")
    for players in (3, 4):  # p045's position: both survive their tests and play on
        state = position("O: d4 g3  B: e4 h8", players=players)
        assert state.phase == MOVE
        assert state.outcome() is None


def test_last_player() -> None:
    """BIL-36, BIL-37: the last player with 2 or more pawns wins; with one it is a draw."""
    assert result(position("O: c3 g3 g4", players=3)) == ("orange", "last-player")
    assert result(position("R: c3", players=4)) == (None, "lone-pawn")
    assert result(position("")) == (None, "no-pawns")


def test_a_player_without_a_move_passes() -> None:
    """BIL-50: blue's pawns on row 9 are walled in by orange: blue passes with no decision."""
    state = position("O: a7 b7 c7 d7 e7 f7 g7 h7 i7 b8 c8 d8 e8 f8 g8 h8  B: c9 d9 e9 f9 g9", to_move="blue")
    assert events(state, "pass") == [(1, "blue", [])]
    assert state.to_move() == 0
    assert state.turn == 2
    assert state.quiet == 1
    assert state.turn_records() == ["B: pass"]
    with pytest.raises(IllegalActionError, match="automatic"):
        state.parse_action("pass")


def test_a_whole_round_of_passes_is_a_draw() -> None:
    """BIL-50: nobody can move (68 pawns: no game reaches this, a constructed position can)."""
    board = ["##OOOOO##", "#OOOOOOO#", "BBBBBBBBB", "BBBBBBBBB", "OOOO*OOOO",
             "OOOOOOOOO", "BBBBBBBBB", "#BBBBBBB#", "##OOOOO##"]
    state = BILOBA.from_rows(board)
    assert events(state, "pass") == [(1, "orange", []), (2, "blue", [])]
    assert result(state) == (None, "deadlock")
    assert state.legal_actions() == []


def test_quiet_limit() -> None:
    """BIL-51: a draw when the counter reaches the limit at the end of a turn; a pawn leaving
    (a capture or an elimination) resets it; off by default."""
    state = BILOBA.new(options={"quiet_limit": 3})
    for move in ("h4-i5", "h6-i6", "b4-a5"):
        assert state.outcome() is None
        state.play_text(move)
    assert result(state) == (None, "quiet-limit")
    state.undo()
    assert state.outcome() is None
    assert state.quiet == 2
    state = position("O: c3 f2 a5 a6  B: d3 g8 h8 i7", quiet_limit=2)
    state.play_text("f2-e3")  # a capture: the counter will be 0 when the turn ends
    state.play_text("c3>d3")
    assert state.quiet == 0
    state.play_text("g8-g7")
    assert state.quiet == 1
    assert state.outcome() is None
    state.play_text("a5-a4")
    assert result(state) == (None, "quiet-limit")
    state = BILOBA.new()
    assert state.options["quiet_limit"] is None


def test_options() -> None:
    """BIL-51, BIL-52: quiet_limit is a whole number or null; the ruleset is 'original'."""
    option = {o.name: o for o in BILOBA.info.options}
    assert BILOBA.info.resolve_options(None) == {"quiet_limit": None, "ruleset": "original"}
    assert option["quiet_limit"].parse("200") == 200
    assert option["quiet_limit"].parse("off") is None
    for bad in ("0", "-3", "soon"):
        with pytest.raises(OptionError):
            option["quiet_limit"].parse(bad)
    for options in ({"quiet_limit": 0}, {"quiet_limit": "200"}, {"quiet_limit": True},
                    {"ruleset": "fixed"}, {"speed": 3}):
        with pytest.raises(OptionError):
            BILOBA.new(options=options)
    for players in (1, 5):
        with pytest.raises(OptionError):
            BILOBA.new(players)


# --- notation, records, positions -----------------------------------------------------------------


def test_notation() -> None:
    """BIL-21, BIL-30: moves, jumps, centre routes and replacements both ways; malformed text
    and illegal actions are told apart."""
    state = BILOBA.new()
    assert state.parse_action("d4-d5") == move_action(parse_tile("d4"), parse_tile("d5"))
    assert state.parse_action(" C3-C5 ") == move_action(parse_tile("c3"), parse_tile("c5"))
    assert state.action_to_text(state.parse_action("d4-e5-f5")) == "d4-e5-f5"
    for text in ("", "d4", "d4-", "d4--d5", "d4-d10", "j1-a1", "d4-d5-d6", "d4xd5", "c3>", "hello"):
        with pytest.raises(NotationError):
            state.parse_action(text)
    for text in ("d4-d6", "a1-b2", "e4-e6", "d5-d6", "h4-h2", "d4-e5", "d4-g7", "e1-e3"):
        with pytest.raises(IllegalActionError):
            state.parse_action(text)
    # Action numbers sort as their texts do (the canonical order is sorted strings).
    legal = state.legal_actions()
    assert legal == sorted(legal)
    assert texts(state) == sorted(texts(state))


def test_turn_records() -> None:
    """BIL-55: the side, then its decisions and automatic events in order (p045's first turn)."""
    board = ["##.....##", "#.......#", "......O..", "...OB....", "....*....",
             ".........", ".........", "#......B#", "##.....##"]
    state = BILOBA.from_rows(board, players=4)
    state.play_text("g3-f4")
    state.play_text("d4>e4")
    assert state.turn_records() == ["O: g3-f4 d4>e4", "B: eliminated"]
    assert result(state) == ("orange", "last-player")
    state = position("O: c3 e3 g3 c5  B: d3 f3 c4 c7 e8 g8")
    state.play_text("c3>c4")
    state.play_text("e3>f3")
    state.play_text("c7-c6")
    assert state.turn_records() == ["O: c3>c4 e3>f3", "B: c7-c6"]


def test_render() -> None:
    """The text board for ``parlour play``: rows 1-9, columns a-i, counts, the turn, a hint."""
    state = position("O: c3 e3 g3 c5  B: d3 f3 c4 c7 e8 g8")
    text = state.render(0)
    lines = text.splitlines()
    assert lines[0] == "    a b c d e f g h i"
    assert lines[1] == " 1  # # . . . . . # #"
    assert lines[3] == " 3  . . O . O . O . ."
    assert "Pawns: Orange 4, Blue 3" in text
    assert "Orange to replace" in text
    assert "c3>c4" in text
    assert "Last: Orange captures c4 d3 f3" in text
    state.play_text("c3>c4")
    assert "Last: Orange c3>c4" in state.render()
    assert "Orange to move (turn 1)" in BILOBA.new().render()


def test_bad_positions_are_refused() -> None:
    """BIL-6: a position must be 9 rows of 9 cells with the right letters."""
    good = rows("O: c3 d3 e3  B: c7 d7 e7")
    for start in (
        {"board": good[:8]},
        {"board": [good[0].replace("#", "O", 1), *good[1:]]},  # a pawn on a corner
        {"board": [*good[:4], "....O....", *good[5:]]},  # a pawn on e5
        {"board": rows("O: c3  G: c7")},  # green in a 2-player game
        {"board": good, "to_move": "red"},
        {"board": good, "players": 3},
        {"board": good, "quiet": -1},
        {"board": good, "pawns": {"orange": ["c3"], "blue": []}},
        {"board": good, "pending": {"d7": ["d8"]}},
        {"board": good, "pending": ["c3"]},
    ):
        with pytest.raises(FormatError):
            BILOBA.new(2, start=start)


def random_states(players: int, seed: int, games: int, every: int = 1) -> list[BilobaState]:
    """Copies of the states of random games (quiet limit 150), one in ``every`` plies, and the end."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = BILOBA.new(players, {"quiet_limit": 150}, seed=rng.randrange(1 << 30))
        while not state.is_over():
            if len(state.history) % every == 0:
                found.append(state.copy())
            state.apply(rng.choice(state.legal_actions()))
        found.append(state)
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_read_back(players: int) -> None:
    """``position_json`` is what ``new(start=...)`` reads: in any phase, the same position,
    decisions, result and key."""
    phases = set()
    for state in random_states(players, seed=players, games=4, every=5):
        data = json.loads(json.dumps(state.position_json()))
        again = BILOBA.new(players, state.options, start=data)
        assert again.position_json() == state.position_json()
        assert again.legal_actions() == state.legal_actions()
        assert again.to_move() == state.to_move()
        assert again.outcome() == state.outcome()
        assert again.position_key() == state.position_key()
        phases.add(state.phase)
    assert phases == {MOVE, REPLACE, OVER}


def naive_captures(board: list[int], colour: int) -> set[int]:
    """BIL-22 by coordinates: enemy pawns with ``colour`` on both sides along an axis."""
    found = set()
    for x in range(9):
        for y in range(9):
            enemy = board[tile_of(x, y)]
            if enemy < 0 or enemy == colour:
                continue
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                a, b = (x - dx, y - dy), (x + dx, y + dy)
                if all(0 <= c < 9 for c in (*a, *b)) and board[tile_of(*a)] == colour == board[tile_of(*b)]:
                    found.add(tile_of(x, y))
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_the_scan_after_a_move_finds_every_sandwich(players: int) -> None:
    """BIL-25, BIL-27: the engine looks only around the moved pawn; a full scan agrees."""
    captures = 0
    for state in random_states(players, seed=10 + players, games=2, every=7):
        if state.phase != MOVE:
            continue
        assert naive_captures(state.board, state.seat) == set()
        for action in state.legal_actions():
            tiles = decode_action(action)
            board = list(state.board)
            board[tiles[0]], board[tiles[-1]] = -1, state.seat
            expected = naive_captures(board, state.seat)
            turn = state.turn
            state.apply(action)
            ply = len(state.history)
            scans = [e for e in state.log if e.kind == "capture" and e.ply == ply and e.turn == turn]
            assert {t for e in scans[:1] for t in e.tiles} == expected
            captures += bool(expected)
            state.undo()
    assert captures > 20


def test_undo_restores_captures_identities_and_the_key() -> None:
    """Make/unmake across a move, its capture waves and the next player's automatic turn."""
    state = position("O: c3 e3 f5 c1  B: d3 e4 h8 g8 i7")
    before = (state.position_json(), state.position_key(), state.legal_actions(), list(state.log))
    state.play_text("c3>d3")
    state.play_text("f5>e4")
    state.undo()
    state.undo()
    assert (state.position_json(), state.position_key(), state.legal_actions(), list(state.log)) == before
    with pytest.raises(IllegalActionError):
        state.undo()


# --- counts of the spec's text ----------------------------------------------------------------------


def test_start_move_counts() -> None:
    """Section 13.3: 68 moves at the 2-player start (44 steps, 6 centre routes, 18 jumps); 35 with
    3 or 4 players (24 steps, 11 jumps, no route), the same 35 for both."""

    def kinds(state: BilobaState) -> tuple[int, int, int]:
        moves = [decode_action(a) for a in state.legal_actions()]
        routes = sum(len(m) == 3 for m in moves)
        jumps = sum(len(m) == 2 and 2 in (abs(m[0] // 9 - m[1] // 9), abs(m[0] % 9 - m[1] % 9))
                    for m in moves)
        return len(moves) - routes - jumps, routes, jumps

    assert kinds(BILOBA.new(2)) == (44, 6, 18)
    assert kinds(BILOBA.new(3)) == (24, 0, 11)
    assert texts(BILOBA.new(3)) == texts(BILOBA.new(4))


@pytest.mark.parametrize(
    ("players", "depth", "full", "moves_only"),
    [
        (2, 1, 68, 68), (2, 2, 4_506, 4_480), (2, 3, 311_364, 308_360),
        (3, 1, 35, 35), (3, 2, 1_222, 1_222), (4, 1, 35, 35), (4, 2, 1_222, 1_222),
    ],
)
def test_perft_from_the_start(players: int, depth: int, full: int, moves_only: int) -> None:
    """Section 13.4, the table of the 2-player start and the 3- and 4-player counts."""
    assert perft(BILOBA.new(players), depth) == full
    assert perft(BILOBA.new(players), depth, full=False) == moves_only


def test_perft_counts_turns_not_actions() -> None:
    """Section 13.4: a forced-capture turn counts once, its replacement options branch in
    ``full`` (p029: 2 options, then red's 23 moves)."""
    board = ["##.....##", "#G.R.G..#", "GGG......", "....BB...", "....*....",
             "...B.R...", ".G.BGR...", "#.G..B..#", "##.....##"]
    state = BILOBA.from_rows(board, "blue", 4)
    assert [perft(state, d) for d in (0, 1, 2)] == [1, 2, 46]
    assert [perft(state, d, full=False) for d in (0, 1, 2)] == [1, 1, 23]


def plain_perft(state: BilobaState, stop: int, full: bool) -> int:
    """Section 13.4's definition with nothing counted in bulk."""
    if state.phase == OVER or state.turn >= stop:
        return 1
    actions = state.legal_actions()
    if state.phase == REPLACE and not full:
        actions = actions[:1]
    total = 0
    for action in actions:
        state.apply(action)
        total += plain_perft(state, stop, full)
        state.undo()
    return total


@pytest.mark.parametrize("players", [2, 3, 4])
def test_perft_in_bulk_agrees_with_the_definition(players: int) -> None:
    """The last turn is counted without playing the moves that capture nothing."""
    states = random_states(players, seed=20 + players, games=1, every=41)
    assert len(states) > 3
    for state in states:
        for full in (True, False):
            assert perft(state, 2, full) == plain_perft(state, state.turn + 2, full)


def test_views_are_json_and_complete() -> None:
    """Nothing is hidden: every view holds the position and the events since the last decision,
    from which a bot rebuilds the position (a view holds no record)."""
    state = position("O: c3 e3 c1  B: d4 f8 g8 h8", to_move="blue")
    state.play_text("d4-d3")
    view = json.loads(json.dumps(state.view(1)))
    content = view["content"]
    assert view["to_move"] == 0
    assert content["position"]["pending"] == {"c3": ["d3"], "e3": ["d3"]}
    assert content["events"] == [{"kind": "capture", "seat": 0, "turn": 2, "tiles": ["d3"]}]
    assert content["last_move"] == "d4-d3"
    assert content["pawn_counts"] == [3, 3]
    rebuilt = BILOBA.sample_state(view, random.Random(0))
    assert rebuilt.position_json() == state.position_json()
    assert view == json.loads(json.dumps(state.view(None))) | {"seat": 1}


def test_the_player_count_can_come_from_the_position() -> None:
    """``position_json`` names its player count; ``new`` reads it when none is given."""
    state = BILOBA.new(4)
    again = BILOBA.new(start=state.position_json())
    assert again.players == 4
    assert again.position_json() == state.position_json()


def test_action_parts() -> None:
    """A step (BIL-15), a jump over c4 (BIL-16), a centre route through e5 (BIL-18) and a
    replacement (BIL-28, BIL-30) as data: the tiles the pawn stands on, in order."""
    state = BILOBA.new()
    parts = {text: state.action_parts(state.parse_action(text)) for text in ("d4-d5", "c3-c5", "d4-e5-f5")}
    assert parts["d4-d5"] == {"kind": "step", "from": "d4", "to": "d5"}
    assert parts["c3-c5"] == {"kind": "jump", "from": "c3", "to": "c5", "over": "c4"}
    assert parts["d4-e5-f5"] == {"kind": "route", "from": "d4", "to": "f5", "path": ["d4", "e5", "f5"]}
    state = position("O: c3 e3 g3 c5  B: d3 f3 c4 c7 e8 g8")
    assert state.action_parts(state.parse_action("c3>c4")) == {"kind": "replace", "from": "c3", "to": "c4"}


@pytest.mark.parametrize(
    ("pawns", "players"),
    [
        ("", 2),  # the set-up
        ("O: d4 c1 d1  B: g6 c9 d9", 2),  # centre routes (BIL-17, BIL-18)
        ("O: c3 e3 g3 c5  B: d3 f3 c4 c7 e8 g8", 2),  # replacements pending (BIL-28)
        ("", 4),  # jumps "never backwards" along both axes (BIL-19)
    ],
)
def test_is_legal_agrees_with_the_legal_actions(pawns: str, players: int) -> None:
    """is_legal answers from the action's pawn and tiles alone, exactly as the full list does."""
    state = position(pawns) if pawns else BILOBA.new(players)
    replacements_end = replacement_action(80, 80) + 2
    assert {a for a in range(-2, replacements_end) if state.is_legal(a)} == set(state.legal_actions())
