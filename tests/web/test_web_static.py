"""The browser client's files read as text (issue 12, "match.js knows no game"): the pages shared by
every game name none, and what a game looks like lives behind the board interface in js/boards/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlour.games import GAMES

WEB = Path(__file__).resolve().parents[2] / "parlour" / "web"
SHARED = ["js/match.js", "js/page.js", "js/net.js", "js/lobby.js", "js/svg.js",
          "js/boards/generic.js", "js/boards/picker.js", "match.html", "index.html"]
"""The files every game goes through: none of them may name a game."""


def code_of(path: str) -> str:
    """The file without its comments (a comment may name a game as an example; code may not)."""
    text = (WEB / path).read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/|<!--.*?-->", "", text, flags=re.DOTALL)
    return re.sub(r"(?<![:\\])//[^\n]*", "", text)


@pytest.mark.parametrize("path", SHARED)
def test_a_shared_file_names_no_game(path: str) -> None:
    text = code_of(path)
    for name, game in GAMES.items():
        for word in (name, game.info.title):
            assert not re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE), f"{path} names {word}"


def test_no_page_reads_a_games_notation() -> None:
    """Boards build moves from the legal actions' parts: the notation parser is gone, and no module
    imports it."""
    assert not (WEB / "js" / "notation.js").exists()
    for module in WEB.rglob("*.js"):
        assert "notation.js" not in module.read_text(encoding="utf-8"), module


def test_the_board_interface_is_documented_where_the_boards_are_listed() -> None:
    index = (WEB / "js" / "boards" / "index.js").read_text(encoding="utf-8")
    for method in ("draw(play)", "swatch(seat", "hint(play)", "remember(memory", "legal "):
        assert method in index, method
    listed = re.search(r"const BOARDS = \{([^}]*)\}", index)
    assert listed is not None
    assert set(listed[1].replace(" ", "").split(",")) <= set(GAMES)  # a board only for a registered game
