"""Conflict's text board (CON-67, CON-69): issue 18's "Conflict's text board shifts a row by one
column when a piece stands on a base". Every row is as wide as the header, and every glyph stands
under its column's letter, whatever stands where."""

from __future__ import annotations

from conflict_helpers import position

from parlour.games.conflict.render import board_lines

ON_A_BASE_AND_MINES = "pieces 1S p5 2S n7 1C c3 3A i9 4C t1 2G e16\ndice 3-4"
"""On the default map: a ship of seat 1 on seat 2's base p5, a gun of seat 2 on seat 3's base e16,
pieces on a water mine (n7) and a land mine (c3), a cannon in the last column (t1)."""


def columns(header: str) -> dict[str, int]:
    """Where each column's letter stands in the header."""
    return {letter: at for at, letter in enumerate(header) if letter.isalpha()}


def test_every_row_is_as_wide_as_the_header() -> None:
    lines = board_lines(position(ON_A_BASE_AND_MINES))
    assert len(lines) == 21
    assert {len(line) for line in lines} == {len(lines[0])}


def test_a_piece_on_a_base_or_a_mine_stands_in_its_column() -> None:
    lines = board_lines(position(ON_A_BASE_AND_MINES))
    at = columns(lines[0])
    placed = [("p5", "S1"), ("e16", "G2"), ("n7", "S2"), ("c3", "C1"), ("t1", "C4"), ("i9", "A3")]
    for square, glyphs in placed:
        column, row = square[0], int(square[1:])
        assert lines[row][at[column]:at[column] + 2] == glyphs, (square, lines[row])
        assert lines[row][at[column] - 1] == " "  # nothing in the space before it


def test_bases_and_mines_under_no_piece_keep_their_marks() -> None:
    # CON-69: base +, land mine *, water mine o, with the seat number.
    lines = board_lines(position(ON_A_BASE_AND_MINES))
    at = columns(lines[0])
    assert lines[5][at["e"]:at["e"] + 2] == "+1"  # seat 1's base on the default map, no piece on it
    assert lines[7][at["g"]:at["g"] + 2] == "o1"
    assert lines[18][at["c"]:at["c"] + 2] == "*3"


def test_the_rows_line_up_as_the_game_goes_on() -> None:
    state = position("pieces 1S p5\ndice 3-4")
    before = board_lines(state)
    state.play(state.parse_action("p5 3: p6 p7 p8"))
    after = board_lines(state)
    assert {len(line) for line in before + after} == {len(before[0])}
    assert after[5] != before[5]
