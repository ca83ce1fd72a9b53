"""The Boards contract (issue 16): a game whose board is a file people draw and share lists its
shipped boards, checks a board's text reporting every problem, names it and draws it as its views
do. Checked here for every registered game that has boards, without naming one."""

from __future__ import annotations

import re
from typing import Any

import pytest

from parlour.engine import BoardProblem, Boards, FormatError, Game, OptionError, State
from parlour.engine.boards import capped
from parlour.games import GAMES

WITH_BOARDS = [pytest.param(game, id=name) for name, game in sorted(GAMES.items()) if game.boards is not None]


def boards_of(game: Game[State]) -> Boards:
    assert game.boards is not None
    return game.boards


def test_some_game_has_boards_and_the_others_none() -> None:
    # Conflict's maps (CON-72) at least; a game without a board file says None.
    assert WITH_BOARDS
    assert any(game.boards is None for game in GAMES.values())
    assert all(game.boards is None or isinstance(game.boards, Boards) for game in GAMES.values())


def test_a_problem_as_data() -> None:
    problem = BoardProblem("error", "CON-12 item 6", "mine e5 is not on a '.' or '~' square", ("e5",), 22)
    assert problem.json() == {"severity": "error", "rule": "CON-12 item 6", "squares": ["e5"], "line": 22,
                              "message": "mine e5 is not on a '.' or '~' square"}
    assert problem.is_error
    whole = BoardProblem("warning", "CON-13 item 2", "a base is out of its corner")
    assert whole.json()["squares"] == []
    assert whole.json()["line"] is None
    assert not whole.is_error


@pytest.mark.parametrize("game", WITH_BOARDS)
def test_the_description_is_complete(game: Game[State]) -> None:
    boards = boards_of(game)
    assert boards.option in {option.name for option in game.info.options}
    assert boards.noun
    assert boards.extension.startswith(".")
    assert 1 <= boards.min_cols <= boards.max_cols
    assert 1 <= boards.min_rows <= boards.max_rows
    assert boards.recommended in boards.shipped()


@pytest.mark.parametrize("game", WITH_BOARDS)
def test_every_shipped_board_is_clean_named_and_drawn_as_a_view_draws_it(game: Game[State]) -> None:
    # "Engine tests: every shipped map passes the map check."
    boards = boards_of(game)
    shipped = boards.shipped()
    assert shipped
    for name, text in shipped.items():
        assert boards.check(text) == [], name
        assert boards.name_of(text) == name
        drawn = game.new(options={boards.option: name}).view(None)["content"]["board"]
        assert boards.drawing(text) == drawn, name
        by_text = game.new(options={boards.option: text}).view(None)["content"]["board"]
        assert by_text == drawn, name


@pytest.mark.parametrize("game", WITH_BOARDS)
def test_aliases_are_taken_but_not_listed(game: Game[State]) -> None:
    boards = boards_of(game)
    for alias, name in boards.aliases().items():
        assert alias not in boards.shipped()
        assert name in boards.shipped()
        game.new(options={boards.option: alias})  # taken: no OptionError
        assert boards.shipped_name(alias) == name
    for name in boards.shipped():
        assert boards.shipped_name(name) == name
    assert boards.shipped_name("no-such-board") is None


@pytest.mark.parametrize("game", WITH_BOARDS)
@pytest.mark.parametrize("text", ["", "\n", "nonsense\n", "\x00", "a" * 300, "9" * 5000, "9" * 5000 + "x9\n",
                                  "9\n" * 3000, "a" * 300 + "\n" + "9 " * 3000])
def test_a_text_that_is_no_board_has_errors_and_is_refused(game: Game[State], text: str) -> None:
    boards = boards_of(game)
    problems = boards.check(text)
    assert problems
    assert any(problem.is_error for problem in problems)
    assert all(problem.severity in ("error", "warning") and problem.rule and problem.message
               for problem in problems)
    assert boards.errors(text) == [problem for problem in problems if problem.is_error]
    with pytest.raises(FormatError):
        boards.drawing(text)
    with pytest.raises((FormatError, OptionError)):
        game.new(options={boards.option: text})


@pytest.mark.parametrize("game", WITH_BOARDS)
def test_problems_say_where_they_are_as_data(game: Game[State]) -> None:
    # A shipped board with its last line dropped and a line of rubbish added: still problems
    # with lines the text has, and squares named in the game's notation (what the editor paints).
    boards = boards_of(game)
    text = next(iter(boards.shipped().values()))
    lines = text.rstrip("\n").split("\n")
    broken = "\n".join([*lines[:-1], "rubbish here"]) + "\n"
    problems = boards.check(broken)
    assert any(problem.is_error for problem in problems)
    for problem in problems:
        data: dict[str, Any] = problem.json()
        assert set(data) == {"severity", "rule", "message", "squares", "line"}
        assert data["line"] is None or 1 <= data["line"] <= len(lines)
        assert all(isinstance(square, str) and square for square in data["squares"])


@pytest.mark.parametrize("game", WITH_BOARDS)
def test_the_options_help_names_the_shipped_boards(game: Game[State]) -> None:
    # The lobby shows the board option's help: it names the boards a player can pick by name
    # (issue 16: classic and the new maps), not an alias nor a board that is no longer shipped.
    boards = boards_of(game)
    option = next(option for option in game.info.options if option.name == boards.option)
    for name in boards.shipped():
        assert name in option.help, (name, option.help)
    for alias in boards.aliases():
        assert alias not in option.help, (alias, option.help)


@pytest.mark.parametrize("game", WITH_BOARDS)
def test_a_shipped_board_with_huge_numbers_is_refused_not_crashed(game: Game[State]) -> None:
    # Python turns at most 4,300 digits into an int (ValueError past it): a board whose numbers
    # (its size, its squares) run to thousands of digits is a board with problems, as any other.
    boards = boards_of(game)
    for text in boards.shipped().values():
        huge = re.sub(r"[0-9]+", "9" * 5000, text)
        assert boards.errors(huge)
        assert all(len(problem.message) < 500 for problem in boards.check(huge))
        with pytest.raises(FormatError):
            boards.drawing(huge)
        with pytest.raises((FormatError, OptionError)):
            game.new(options={boards.option: huge})


@pytest.mark.parametrize("game", WITH_BOARDS)
def test_a_long_text_has_a_short_list_of_problems(game: Game[State]) -> None:
    # A check's answer is a few times the text at most: a text of a problem a line (every line
    # of a shipped board repeated) lists 100 problems and one counting the rest.
    boards = boards_of(game)
    text = next(iter(boards.shipped().values()))
    long_text = text + text.split("\n", 1)[1] * 40
    problems = boards.check(long_text)
    assert boards.errors(long_text)
    assert len(problems) <= 101


def test_capped_counts_the_rest_in_one_problem() -> None:
    warnings = [BoardProblem("warning", "R-1", f"w{n}") for n in range(5)]
    assert capped(warnings, 5) == warnings
    assert capped(warnings, 3) == [*warnings[:3], BoardProblem("warning", "R-1", "…and 2 more problems")]
    mixed = [*warnings, BoardProblem("error", "R-2", "e")]
    assert capped(mixed, 2)[-1] == BoardProblem("error", "R-1", "…and 4 more problems")


@pytest.mark.parametrize("game", WITH_BOARDS)
def test_a_name_is_never_longer_than_max_name(game: Game[State]) -> None:
    # The name a board gives itself shows in every lobby summary: the game bounds it.
    boards = boards_of(game)
    assert 1 <= boards.max_name <= 100
    for name, text in boards.shipped().items():
        assert len(name) <= boards.max_name
        assert boards.is_text(text)
        assert not boards.is_text(name)
        longer = re.sub(rf"\b{re.escape(name)}\b", name + "x" * boards.max_name, text)
        assert boards.name_of(longer) is None
        assert boards.errors(longer)
