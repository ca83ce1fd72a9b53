"""The Lines of Action evaluator: symmetric, bounded, and its quad arithmetic."""

from __future__ import annotations

from bot_positions import loa, random_positions

from parlour.engine import MAX_EVAL
from parlour.games import get_game
from parlour.games.loa import LoaState
from parlour.games.loa.evaluator import LoaEvaluator, euler_number, quad_counts


def pieces(*rows: str) -> int:
    """The black pieces of a position given by rows (row 8 first)."""
    state = get_game("loa").from_rows([*rows, *["--------"] * (8 - len(rows))])  # type: ignore[attr-defined]
    assert isinstance(state, LoaState)
    return state.pieces[0]


def test_euler_number_counts_groups_and_holes() -> None:
    assert euler_number(pieces("b-------")) == 1
    assert euler_number(pieces("b-b-----")) == 2
    assert euler_number(pieces("b-------", "-b------")) == 1  # diagonal neighbours touch (LOA-14)
    assert euler_number(pieces("bbb-----", "b-b-----", "bbb-----")) == 0  # one group, one hole
    assert euler_number(pieces("bb------", "bb------", "-------b")) == 2


def test_quad_counts_of_a_solid_square() -> None:
    one, three, four, diagonal = quad_counts(pieces("bb------", "bb------"))
    assert (one, three, four, diagonal) == (4, 0, 1, 0)


def test_evaluation_is_zero_sum_and_bounded() -> None:
    evaluator = LoaEvaluator()
    for state in [loa(), *random_positions(20, seed=5)]:
        mine = evaluator.evaluate(state, 0)
        assert mine == -evaluator.evaluate(state, 1)
        assert -MAX_EVAL < mine < MAX_EVAL


def test_concentrated_pieces_score_better() -> None:
    evaluator = LoaEvaluator()
    together = pieces("--------", "--bbb---", "--bbb---", "--b-----")
    apart = pieces("b------b", "--------", "--bb----", "--------", "---b----", "b------b")
    assert evaluator.side_score(together) > evaluator.side_score(apart)
