"""``parlour arena``: a smoke run of two tiny games, its report and its argument errors."""

from __future__ import annotations

import pytest

from parlour.bots import arena
from parlour.engine import Action, Bot, IllegalActionError, State


def test_two_tiny_games(capsys: pytest.CaptureFixture[str]) -> None:
    status = arena.main(["loa", "random", "bot:greedy", "-n", "2", "--time", "0.05", "--jobs", "2"])
    out, err = capsys.readouterr()
    assert status == 0
    assert "loa: random vs greedy, 2 games" in out
    wins, draws, losses = (int(word) for word in out.split("random: ")[1].split()[0:6:2])
    assert wins + draws + losses == 2
    assert "95% Wilson interval" in out
    assert "average plies per game" in out
    assert "seconds per move: random" in out
    assert err.count("done): random") == 2  # one line per finished game


def test_options_and_in_process_games(capsys: pytest.CaptureFixture[str]) -> None:
    status = arena.main(["loa", "greedy", "greedy", "-n", "1", "--time", "0.05", "--jobs", "1",
                         "--option", "move_limit=6"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert "greedy (A): 0 wins, 1 draws, 0 losses" in out  # nobody connects in 6 plies
    assert "plies per game: median 6, 90% 6, 99% 6, longest 6" in out
    assert "how the games ended: 1: the move limit was reached" in out


def test_lengths_and_endings() -> None:
    """The spread of lengths and the count of each ending, which choose limits such as Biloba's
    quiet limit (issue 14): here 100 games of 1 to 100 plies, 90 won and 10 stopped."""
    results = [
        arena.GameResult(index, 0, None if index < 10 else 0,
                         arena.ARENA_LIMIT if index < 10 else "connected", index + 1, (0.0, 0.0), (0, 0))
        for index in range(100)
    ]
    assert arena.lengths(results) == "median 51, 90% 91, 99% 100, longest 100"
    assert arena.lengths([]) == "none"
    assert arena.endings("loa", results) == (
        "90: all its pieces joined in one group; "
        "10: stopped at the arena's limit of 2,000 actions (arena-limit)"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["loa", "strong", "grandmaster", "-n", "2"],
        ["chess", "strong", "greedy", "-n", "2"],
        ["loa", "strong", "greedy"],
        ["loa", "strong", "greedy", "-n", "0"],
        ["loa", "strong", "greedy", "-n", "2", "--time", "-1"],
        ["loa", "strong", "greedy", "-n", "2", "--players", "3"],
        ["loa", "strong", "greedy", "-n", "2", "--option", "move_limit=soon"],
        ["loa", "strong", "greedy", "-n", "2", "--option", "castling=yes"],
    ],
)
def test_bad_arguments_exit_with_status_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(argv) == 2
    assert capsys.readouterr().err.strip()


def test_wilson_interval() -> None:
    low, high = arena.wilson(0.5, 40)
    assert 0.34 < low < 0.36
    assert 0.64 < high < 0.66
    assert arena.wilson(1.0, 40)[1] == 1.0


def test_duplicate_deals_play_the_same_cards_with_the_seats_swapped() -> None:
    # Two classic players on the same deal of Mille Bornes, seats swapped: the same seat wins
    # both games, so bot A wins exactly one of them; without --duplicate the deals differ.
    series = arena.read_series(["mille", "classic", "classic", "-n", "2", "--duplicate", "--jobs", "1"])
    assert series.duplicate
    assert series.game_seed(0) == series.game_seed(1) != series.game_seed(2)
    first, second = arena.play_game(series, 0), arena.play_game(series, 1)
    assert (first.a_seat, second.a_seat) == (0, 1)
    assert first.winner == second.winner is not None
    assert first.plies == second.plies
    assert first.a_points + second.a_points == 1.0
    plain = arena.read_series(["mille", "classic", "classic", "-n", "2", "--jobs", "1"])
    assert plain.game_seed(0) != plain.game_seed(1)


class Pass(Bot):
    """Answers an action no LOA position allows (LOA has no pass while a move exists)."""

    def choose(self, state: State, seconds: float) -> Action:
        return -12_345


def test_an_illegal_answer_is_reported_as_a_bug_and_never_applied(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(arena, "make_bot", lambda game, kind, seed=0: Pass(seed))
    series = arena.read_series(["loa", "random", "random", "-n", "1", "--jobs", "1"])
    with pytest.raises(IllegalActionError, match=r"^bug: bot 'random' answered the illegal action -12345"):
        arena.play_game(series, 0)
    assert arena.main(["loa", "random", "greedy", "-n", "1", "--jobs", "1"]) == 1
    assert "parlour arena: bug: bot 'random' answered the illegal action" in capsys.readouterr().err


def test_each_game_line_gives_the_end_in_the_game_s_words() -> None:
    series = arena.read_series(["loa", "greedy", "greedy", "-n", "1", "--jobs", "1",
                                "--option", "move_limit=6"])
    line = arena.describe(series, arena.play_game(series, 0), ["Black", "White"])
    assert line.endswith("in 6 plies: the move limit was reached")  # LOA's declared words
