"""``parlour arena`` reports Mille Bornes's points a hand (issue 19: "at least +60 points a hand
over classic across 2,000 hands … reported with 95 % intervals"); other games' reports are as before."""

from __future__ import annotations

import random

import pytest

from parlour.bots import arena, make_bot, seen_by
from parlour.engine import CHANCE
from parlour.games import get_game
from parlour.games.mille.evaluator import MilleEvaluator


def test_points_a_hand_line() -> None:
    """The mean of A's margins over the hands of every game, with a normal interval."""
    results = [arena.GameResult(0, 0, 0, "reached-5000", 10, (0.0, 0.0), (0, 0), hands=(100.0, -50.0)),
               arena.GameResult(1, 1, 0, "reached-5000", 10, (0.0, 0.0), (0, 0), hands=(250.0, 100.0))]
    line = arena.points_a_hand(results, ("strong", "classic"))
    # Mean 100, sample deviation 122.47, half width 1.96 * 122.47 / 2 = 120.0.
    assert line == "points a hand, strong less classic: +100.0 (95% interval -20.0 to +220.0) over 4 hands"
    assert arena.points_a_hand([arena.GameResult(0, 0, 0, "x", 1, (0.0, 0.0), (0, 0))], ("a", "b")) is None


def test_margin_is_a_less_the_others() -> None:
    assert arena.margin((1200, 700), 0) == 500
    assert arena.margin((1200, 700), 1) == -500


def test_mille_margins_add_up_to_the_final_totals() -> None:
    """Every hand of a game is counted once (MIL-53's hand totals, MIL-55's game to 5000): the
    margins the arena keeps add up to the difference of the game's final totals."""
    series = arena.Series("mille", ("classic", "greedy"), 2, 0.01, 5, 1, 2, duplicate=True)
    for index in range(2):
        result = arena.play_game(series, index)
        state = get_game("mille").new(2, {}, seed=series.game_seed(index))
        bots = {seat: make_bot("mille", series.bots[0 if seat == result.a_seat else 1],
                               seed=series.game_seed(index) * 8 + seat) for seat in (0, 1)}
        views = random.Random(f"arena/{series.game_seed(index)}")
        while not state.is_over():
            seat = state.to_move()
            if seat == CHANCE:
                state.apply(state.sample_chance())
            else:
                state.apply(bots[seat].choose(seen_by(state, seat, views), 0.01))
        outcome = state.outcome()
        assert outcome is not None
        assert len(result.hands) >= 2  # several hands to 5000
        totals = outcome.scores
        assert sum(result.hands) == totals[result.a_seat] - totals[1 - result.a_seat]


def test_mille_report_has_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = arena.main(["mille", "classic", "greedy", "-n", "2", "--time", "0.01", "--jobs", "1",
                         "--duplicate", "--seed", "3"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert "points a hand, classic less greedy: +" in out


def test_other_games_report_no_hands(capsys: pytest.CaptureFixture[str]) -> None:
    status = arena.main(["tictactoe", "random", "random", "-n", "1", "--time", "0.01", "--jobs", "1"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert "points a hand" not in out
    assert arena.hand_scorer("tictactoe") is None
    assert isinstance(MilleEvaluator(), arena.HandPoints)
