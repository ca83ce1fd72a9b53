"""Max-n through the engine contract, on the toy game of ``test_paranoid``."""

from __future__ import annotations

import pytest
from test_paranoid import Lead, TokenRow, paranoid_value, random_starts, utility_of

from parlour.bots.maxn import MaxNBot
from parlour.engine import NullEvaluator


@pytest.mark.parametrize("seed", range(4))
def test_two_players_solve_to_the_minimax_value(seed: int) -> None:
    # With two players and a zero-sum result, max-n is minimax.
    for tokens in ([3, 1, 0, 2, 5, 0, 4], [1, 0, 0, 3, 2, 2, 6, 1], [5, 1, 1, 5, 0, 2]):
        state = TokenRow().new(2, start={"tokens": tokens[seed:] + tokens[:seed]})
        result = MaxNBot(NullEvaluator(), seed=seed).search(state, 1_000_000)
        assert result.solved
        assert utility_of(result.score) == paranoid_value(state, state.to_move())


def test_answers_legally_and_leaves_the_state() -> None:
    for state in random_starts(12, 3):
        before = (list(state.history), list(state.totals), state.seat)
        for nodes in (1, 30, 500, 100_000):
            result = MaxNBot(Lead(), seed=nodes).search(state, nodes)
            assert result.action in state.legal_actions()
            assert (list(state.history), list(state.totals), state.seat) == before


def test_same_seed_same_choice() -> None:
    state = TokenRow().new(4, start={"tokens": [1, 2, 3, 0, 4, 1, 0, 2, 6, 1, 3, 2]})
    first = MaxNBot(Lead(), seed=3, safety_factor=1e6).search(state, 2_000)
    second = MaxNBot(Lead(), seed=3, safety_factor=1e6).search(state, 2_000)
    assert (first.action, first.score, first.nodes) == (second.action, second.score, second.nodes)
