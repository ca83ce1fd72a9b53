"""The rules behind ``?`` on the board (issue 18): read from the rules pages the browser shows,
one text for both, with small text diagrams the pages keep for the terminal."""

from __future__ import annotations

import re

import pytest

from parlour.tui.board.rules import rules_page, rules_text

BOARD_GAMES = {"loa": "Lines of Action", "biloba": "Biloba", "conflict": "Conflict"}


@pytest.mark.parametrize("name", sorted(BOARD_GAMES))
def test_every_board_diagram_of_a_rules_page_has_a_text_diagram(name: str) -> None:
    page = rules_page(name)
    assert page is not None
    figure = r'<figure class="diagram" data-diagram="([^"]+)">(<template class="text-diagram">)?'
    figures = re.findall(figure, page)
    drawn_by_the_server = {"cf-board"}  # the default map, which the page asks the server for
    assert figures
    assert [figure for figure, diagram in figures if not diagram and figure not in drawn_by_the_server] == []


def test_the_rules_text_keeps_the_page_words_and_draws_the_diagrams() -> None:
    text = rules_text("biloba", "Biloba").plain
    # The page's own words (BIL-15), its rule ids, and each diagram above its caption.
    assert "A step moves a pawn to any free neighbouring tile, in any of the eight directions" in text
    assert "(BIL-15)" in text
    steps = text.index("Diagram: c4's steps: every free neighbour.")
    board = text.rindex("4  ·  • [O] •  ·", 0, steps)
    assert text[board:steps].count("\n") == 7  # rows 4 to 9, then the gap before the caption
    assert "<" not in text
    assert "&gt;" not in text
    assert "c6>d6 or e6>d6" in text


def test_a_game_without_a_rules_page_says_so() -> None:
    assert rules_text("tictactoe", "Tic-tac-toe").plain == "Tic-tac-toe has no rules page yet."
