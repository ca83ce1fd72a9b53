"""The ladder's ratings (issue 19): "rated with a well-kept rating library … with 95 % intervals;
anchored so that ``random`` is 0". Synthetic games of a known order."""

from __future__ import annotations

import math

import pytest

from parlour.bots.ratings import ELO, Outcome, RatingError, rate, unlinked


def expected(a: float, b: float, players: int = 2) -> float:
    """A's expected score alone against ``players - 1`` copies of B (Elo-scale ratings)."""
    strength_a, strength_b = math.exp(a / ELO), math.exp(b / ELO)
    return strength_a / (strength_a + (players - 1) * strength_b)


TRUE = {"random": 0.0, "greedy": 150.0, "strong@0.05": 300.0, "strong@0.2": 450.0}


def games(per_pairing: int, players: int = 2) -> list[Outcome]:
    """Every pairing's games with A's points exactly as the true ratings expect."""
    names = list(TRUE)
    return [
        Outcome(a, b, players, expected(TRUE[a], TRUE[b], players) * per_pairing, per_pairing)
        for a in names for b in names if a != b and (players > 2 or names.index(a) < names.index(b))
    ]


def test_a_known_order_comes_out_in_that_order_with_random_at_zero() -> None:
    ratings = rate(games(400), "random")
    assert [rating.name for rating in ratings] == ["strong@0.2", "strong@0.05", "greedy", "random"]
    by_name = {rating.name: rating for rating in ratings}
    assert (by_name["random"].points, by_name["random"].low, by_name["random"].high) == (0.0, 0.0, 0.0)
    for name, points in TRUE.items():
        rating = by_name[name]
        assert rating.low <= points <= rating.high  # the prior's few draws pull it in a little
        assert rating.points == pytest.approx(points, abs=15)
        assert rating.games == 3 * 400


def test_the_intervals_shrink_with_more_games() -> None:
    few = {rating.name: rating for rating in rate(games(25), "random")}
    many = {rating.name: rating for rating in rate(games(400), "random")}
    for name in ("greedy", "strong@0.05", "strong@0.2"):
        assert many[name].high - many[name].low < (few[name].high - few[name].low) / 2


def test_more_than_two_players_one_against_copies_of_another() -> None:
    # 1 against 3: equals score 1/4, so a rating from these tables must allow for the seats.
    ratings = {rating.name: rating for rating in rate(games(600, players=4), "random")}
    for name, points in TRUE.items():
        assert ratings[name].points == pytest.approx(points, abs=25)
    assert ratings["random"].points == 0.0


def test_a_clean_sweep_still_has_a_finite_rating() -> None:
    # strong won all 20 games: maximum likelihood alone would put it at infinity.
    ratings = {rating.name: rating for rating in rate([Outcome("strong@1", "random", 2, 20.0, 20)], "random")}
    strong = ratings["strong@1"]
    assert 300 < strong.points < 1000
    assert strong.low > 0  # and surely above random


def test_draws_count_half() -> None:
    even = {rating.name: rating for rating in rate([Outcome("greedy", "random", 2, 10.0, 20)], "random")}
    assert even["greedy"].points == pytest.approx(0.0, abs=1e-6)
    assert even["greedy"].low < 0 < even["greedy"].high


def test_entrants_not_linked_to_random_are_named_not_rated() -> None:
    outcomes = [Outcome("greedy", "random", 2, 6.0, 10), Outcome("strong@1", "classic", 2, 7.0, 10)]
    assert [rating.name for rating in rate(outcomes, "random")] == ["greedy", "random"]
    assert unlinked(outcomes, "random") == ["classic", "strong@1"]
    with pytest.raises(RatingError, match="random has played no game yet"):
        rate([Outcome("greedy", "strong@1", 2, 6.0, 10)], "random")
