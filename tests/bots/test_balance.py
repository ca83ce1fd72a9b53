"""The balance bench (issue 16): the first mover's score, its wins within its first two rolls and
the games' lengths in rolls are worked out right from the games played."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from parlour.bots import balance
from parlour.bots.arena import Series, play_game
from parlour.bots.balance import BalanceGame, RollCount, figures, median, play_balance_game, quartiles
from parlour.engine import CHANCE
from parlour.games.conflict.maps import BASE, LAND, MAP_BOARDS, WATER, load_map, route_length


def game(index: int, winner: int | None, rolls: int, first_rolls: int) -> BalanceGame:
    reason = "last-player-in" if winner is not None else "roll-limit"  # Conflict's reasons
    return BalanceGame(index, 0, winner, reason, rolls, first_rolls)


def test_figures_count_the_first_movers_wins_draws_and_early_wins() -> None:
    results = [
        game(0, 0, 2, 1),  # won on its first roll: early
        game(1, 0, 3, 2),  # won on its second roll: early (issue 16: "within its first two rolls")
        game(2, 0, 5, 3),  # won on its third: not early
        game(3, 1, 2, 1),  # the other seat won: not the first mover's early win
        game(4, None, 40, 20),  # a draw: half a point
    ]
    found = figures(results)
    assert (found.games, found.wins, found.draws, found.early) == (5, 3, 1, 2)
    assert found.score == pytest.approx(3.5 / 5)
    low, high = found.score_interval
    assert low < found.score < high
    assert found.median_rolls == 3
    assert found.quartiles == (2, 22.5)  # medians of (2, 2) and (5, 40)
    assert found.longest == 40
    assert found.endings == {"last-player-in": 4, "roll-limit": 1}


def test_median_and_quartiles_of_even_and_odd_counts() -> None:
    assert median([4, 1, 3, 2]) == 2.5
    assert median([7]) == 7
    assert quartiles([1, 2, 3, 4, 5, 6, 7, 8]) == (2.5, 6.5)
    assert quartiles([1, 2, 3, 4, 5]) == (1.5, 4.5)


def test_a_chance_action_counts_for_the_seat_that_decides_after_it() -> None:
    rolls = RollCount(chance=True)
    for decider in (CHANCE, 0, 0, CHANCE, 1, CHANCE, CHANCE, 1, CHANCE, 0, CHANCE):
        rolls.count(decider)
    assert rolls.per_seat == {0: 2, 1: 3}
    assert rolls.total == 6  # the last roll, decided by nobody yet, still counts in the game's length


def test_without_chance_a_roll_is_a_turn() -> None:
    rolls = RollCount(chance=False)
    for decider in (0, 1, 1, 0, 1):
        rolls.count(decider)
    assert rolls.per_seat == {0: 2, 1: 2}


def test_a_played_game_is_the_arenas_game_with_its_rolls_counted() -> None:
    series = Series("conflict", ("greedy", "greedy"), 3, 1.0, 5, 1, 2)
    for index in range(3):
        result = play_balance_game(series, index)
        arena = play_game(series, index)  # the same seeds: the same game
        assert result.first == 0  # seat 1 rolls first (CON-26)
        assert result.winner == arena.winner
        assert 1 <= result.first_rolls <= result.rolls
        # Every action of the game that no bot decided is a roll of the dice.
        assert result.rolls == arena.plies - arena.moves[0] - arena.moves[1]


def test_the_report_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert balance.main(["conflict", "--balance", "--map", "classic", "-n", "4", "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    assert "board classic:" in out
    assert "games: 4" in out
    assert "first mover won within its first 2 rolls:" in out
    assert "rolls per game: median" in out
    assert "95% Wilson interval" in out
    assert err.count("done)") == 4  # one progress line a game, on stderr


def test_bad_bots_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert balance.main(["conflict", "--balance", "--bots", "greedy"]) == 2
    assert "two kinds" in capsys.readouterr().err


def test_a_board_that_is_neither_shipped_nor_a_file_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert balance.main(["conflict", "--balance", "--map", "atlantis", "-n", "1"]) == 2
    assert "'atlantis' is neither a shipped map" in capsys.readouterr().err


def test_a_game_without_boards_has_no_map_to_choose(capsys: pytest.CaptureFixture[str]) -> None:
    assert balance.main(["loa", "--balance", "--map", "classic", "-n", "1"]) == 2
    assert "loa has no boards" in capsys.readouterr().err


def test_compare_prints_both_boards_and_the_ratio_of_their_medians(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The same board twice: the same seeded games, so exactly as long (issue 16: "three times as long").
    argv = ["conflict", "--balance", "--map", "classic", "--compare", "parlour-20", "-n", "2"]
    assert balance.main(argv) == 0
    out = capsys.readouterr().out
    assert "board classic:" in out
    assert "board parlour-20:" in out
    assert "median game on classic: 1.00 times as many rolls as on parlour-20" in out


def test_an_interrupted_run_reports_the_games_it_finished(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def two_then_interrupted(series: Series, play: object) -> Iterator[BalanceGame]:
        yield game(0, 0, 10, 5)
        yield game(1, 1, 20, 10)
        raise KeyboardInterrupt

    monkeypatch.setattr(balance, "run_games", two_then_interrupted)
    assert balance.main(["conflict", "--balance", "--map", "classic", "-n", "50"]) == 0
    out, err = capsys.readouterr()
    assert "interrupted after 2 of 50 games" in err
    assert "board classic (interrupted: the first 2 of 50 games to finish):" in out
    assert "score 0.500" in out
    assert "rolls per game: median 15" in out


@pytest.mark.parametrize("name", [name for name in MAP_BOARDS.shipped() if name != "classic"])
def test_no_piece_reaches_another_base_within_two_rolls_on_the_new_maps(name: str) -> None:
    # Issue 16: the first mover must not win "within its first two rolls". A piece covers at most
    # 6 squares a roll (CON-32), so two rolls reach 12: every base is further than that from every
    # other, even for an airplane (land, water and bases, CON-8) and past no hostile mine (CON-42).
    board = load_map(name)
    flying = (LAND, WATER, BASE)
    for seat, start in enumerate(board.bases):
        avoid = {square for other, pair in enumerate(board.mines) if other != seat for square in pair}
        for goal in board.bases:
            if goal != start:
                steps = route_length(board.cols, board.rows, board.terrain, flying, start, goal, avoid)
                assert steps is not None
                assert steps > 2 * 6, (name, board.square_name(start), board.square_name(goal), steps)
