"""Ratings of the ladder's entrants from their games: Bradley–Terry, on the Elo scale, with 95 % intervals.

The model (Bradley–Terry, and for a table of more than two Luce's choice axiom, which it is for
two): entrant *i* has a strength ``r_i = exp(θ_i)``; a game of *A* against ``P - 1`` copies of *B*
is won by A with probability ``r_A / (r_A + (P - 1) r_B)``, so that the logit of A's score is
``θ_A - θ_B - log(P - 1)``. A draw counts as half a win, as the arena scores it. That is a binomial
generalised linear model with the logit link: one column per entrant but the anchor, +1 for A,
-1 for B, and ``-log(P - 1)`` as an offset. ``statsmodels`` fits it by maximum likelihood and gives
the standard errors from the information matrix, hence the Wald 95 % intervals; each is the
interval of the entrant's difference from the anchor (``random``), whose rating is 0 by
definition. Ratings are printed on the Elo scale: ``400 / ln 10`` points per unit of θ, so that
200 points more is a score of about 0.76 between two players.

Why a batch fit rather than Elo updates, TrueSkill or Weng–Lin (``openskill``): a bot's strength
does not change between games, so the order in which games finish (which depends on the worker
processes) should not move the ratings; a maximum-likelihood fit of all the games uses each once,
whatever the order, and its intervals are the model's own. ``choix`` fits the same model but gives
no intervals; ``statsmodels`` gives both, and is kept up to date.

A strong bot that wins every game against ``random`` would have an infinite rating (the
likelihood grows without bound). As BayesElo does, every pair of entrants that met is given
``PRIOR_DRAWS`` virtual draws between them: a weak prior that the two are equal, which keeps every
rating finite and barely moves a rating measured over many games.
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

ELO: Final = 400 / math.log(10)
"""Elo points per unit of the Bradley–Terry log-strength."""

PRIOR_DRAWS: Final = 2.0
"""Virtual draws between every two entrants that met (BayesElo's default prior)."""

Z_95: Final = 1.959964


@dataclass(frozen=True)
class Outcome:
    """One game, or several alike, from A's side: A alone against ``players - 1`` copies of B."""

    a: str
    b: str
    players: int
    points: float
    """A's points: 1 a win, 1/2 a draw, 0 a loss (summed over ``games``)."""
    games: int = 1


@dataclass(frozen=True)
class Rating:
    name: str
    points: float
    """Elo-scale points above the anchor (the anchor's own is 0)."""
    low: float
    high: float
    games: int


class RatingError(ValueError):
    """The games cannot be rated as asked (no anchor among them, a table of fewer than two)."""


def rate(outcomes: Iterable[Outcome], anchor: str, prior_draws: float = PRIOR_DRAWS) -> list[Rating]:
    """The rating of every entrant linked to ``anchor`` through the games, best first. Entrants
    whose games never reach the anchor's (nobody they met met it, and so on) cannot be placed
    against it and are left out; ``unlinked`` names them."""
    cells = _cells(outcomes)
    linked = _linked(cells, anchor)
    others = sorted(linked - {anchor})
    games: dict[str, int] = defaultdict(int)
    for (a, b, _), (_, count) in cells.items():
        games[a] += count
        games[b] += count
    ratings = [Rating(anchor, 0.0, 0.0, 0.0, games[anchor])]
    if others:
        column = {name: index for index, name in enumerate(others)}
        estimates, errors = _fit(cells, column, prior_draws)
        for name in others:
            theta, error = estimates[column[name]], errors[column[name]]
            ratings.append(Rating(name, ELO * theta, ELO * (theta - Z_95 * error),
                                  ELO * (theta + Z_95 * error), games[name]))
    return sorted(ratings, key=lambda rating: (-rating.points, rating.name))


def unlinked(outcomes: Iterable[Outcome], anchor: str) -> list[str]:
    """The entrants with games that do not link them to ``anchor`` (so that ``rate`` leaves them out)."""
    cells = _cells(outcomes)
    names = {name for a, b, _ in cells for name in (a, b)}
    return sorted(names - _linked(cells, anchor))


Cells = dict[tuple[str, str, int], tuple[float, int]]
"""(A, B, players) → (A's points, games): the games summed by pairing and table size."""


def _cells(outcomes: Iterable[Outcome]) -> Cells:
    cells: dict[tuple[str, str, int], tuple[float, int]] = {}
    for outcome in outcomes:
        if outcome.players < 2:
            raise RatingError(f"a game of {outcome.players} player(s) rates nobody")
        if outcome.a == outcome.b:
            continue  # an entrant against itself says nothing about its rating
        key = (outcome.a, outcome.b, outcome.players)
        points, games = cells.get(key, (0.0, 0))
        cells[key] = (points + outcome.points, games + outcome.games)
    return cells


def _linked(cells: Cells, anchor: str) -> set[str]:
    """The entrants joined to ``anchor`` by a chain of pairings that played."""
    met: dict[str, set[str]] = defaultdict(set)
    for a, b, _ in cells:
        met[a].add(b)
        met[b].add(a)
    if anchor not in met:
        raise RatingError(f"{anchor} has played no game yet, so no rating can be anchored on it")
    seen, waiting = {anchor}, [anchor]
    while waiting:
        for other in met[waiting.pop()] - seen:
            seen.add(other)
            waiting.append(other)
    return seen


def _fit(cells: Cells, column: dict[str, int], prior_draws: float) -> tuple[list[float], list[float]]:
    """The log-strengths of ``column``'s entrants over the anchor's (the anchor has no column),
    with their standard errors."""
    import numpy as np  # imported here: they take seconds to load, and only the ladder's table needs them
    from statsmodels.genmod.families import Binomial  # type: ignore[import-untyped]
    from statsmodels.genmod.generalized_linear_model import GLM  # type: ignore[import-untyped]
    from statsmodels.tools.sm_exceptions import PerfectSeparationWarning  # type: ignore[import-untyped]

    rows: list[list[float]] = []
    scores: list[float] = []
    weights: list[float] = []
    offsets: list[float] = []

    def add(a: str, b: str, score: float, weight: float, offset: float) -> None:
        row = [0.0] * len(column)
        if a in column:
            row[column[a]] += 1.0
        if b in column:
            row[column[b]] -= 1.0
        rows.append(row)
        scores.append(score)
        weights.append(weight)
        offsets.append(offset)

    pairs: set[frozenset[str]] = set()
    for (a, b, players), (points, games) in cells.items():
        if a not in column and b not in column:
            continue  # the anchor's games against entrants not linked to it, or nothing to fit
        add(a, b, points / games, float(games), -math.log(players - 1))
        pairs.add(frozenset((a, b)))
    for pair in sorted(pairs, key=sorted):
        a, b = sorted(pair)
        add(a, b, 0.5, prior_draws, 0.0)  # the prior's virtual draws, at a table of two
    model: Any = GLM(np.array(scores), np.array(rows), family=Binomial(), offset=np.array(offsets),
                     var_weights=np.array(weights))
    # A score of 1/2 (draws) is no whole number of wins: the binomial fit takes it as it is, which
    # is what counting a draw as half a win means. The prior's draws keep every estimate finite,
    # so "perfect separation" cannot happen; statsmodels says it also when the fit matches every
    # score exactly (one pairing alone, say), which is no fault.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PerfectSeparationWarning)
        fitted: Any = model.fit()
    return [float(value) for value in fitted.params], [float(value) for value in fitted.bse]
