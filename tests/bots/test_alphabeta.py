"""The alpha-beta search: forced wins, mate distance, the move limit, and its node allowance."""

from __future__ import annotations

import pytest
from bot_positions import W11_PLIES, replay

from parlour.bots import make_bot
from parlour.bots.alphabeta import NODES_PER_SECOND, WIN, AlphaBetaBot
from parlour.engine import OptionError
from parlour.games import get_game
from parlour.games.loa.evaluator import LoaEvaluator


def strong(seed: int = 0) -> AlphaBetaBot:
    bot = make_bot("loa", "strong", seed=seed)
    assert isinstance(bot, AlphaBetaBot)
    bot.safety_factor = 1e6  # tests never depend on the clock
    return bot


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_w11_finds_the_only_winning_move(seed: int) -> None:
    # W-11, LOA-82: with 0.4 s White must play d3xf5 and then win on ply 60.
    state = replay(W11_PLIES)
    assert state.plies == 57
    action = strong(seed).choose(state, 0.4)
    assert state.action_to_text(action) == "d3-f5"


def test_w11_wins_after_every_black_reply() -> None:
    # W-11: after d3xf5, any Black reply lets White connect on ply 60 (LOA-13.2 before 13.4).
    state = replay(W11_PLIES)
    state.play_text("d3-f5")
    bot = strong()
    for reply in state.legal_actions():
        state.apply(reply)
        if not state.is_over():
            state.apply(bot.choose(state, 0.4))
        outcome = state.outcome()
        assert outcome is not None, state.action_to_text(reply)
        assert outcome.winner == 1, state.action_to_text(reply)
        while state.plies > 58:
            state.undo()


def test_w11_score_counts_the_distance_to_the_win() -> None:
    # Sooner wins score higher: White wins on its second move, three plies from the root.
    result = strong().search(replay(W11_PLIES), 20_000)
    assert result.solved
    assert result.score == WIN - 3


def test_a_position_at_the_move_limit_is_a_tie() -> None:
    # LOA-16: one ply before the limit and no connection in one, every move ends in a tie.
    start = replay(W11_PLIES)
    rows = [line.replace(" ", "") for line in start.dump().splitlines()[1:9]]
    state = get_game("loa").from_rows(rows, to_move="black", plies=59)  # type: ignore[attr-defined]
    result = strong().search(state, 20_000)
    assert result.solved
    assert result.score == 0


def test_the_node_allowance_is_the_budget() -> None:
    # LOA-81: one second of budget is NODES_PER_SECOND nodes, whatever the clock says.
    state = replay(W11_PLIES[: W11_PLIES.index("e3-a3")])
    bot = strong()
    bot.choose(state, 0.25)
    assert bot.last is not None
    assert bot.last.nodes <= int(0.25 * NODES_PER_SECOND)


def test_refuses_a_finished_game() -> None:
    over = replay(W11_PLIES)
    for text in ("d3-f5", "f4-d4", "g7-g5"):
        over.play_text(text)
    assert over.is_over()
    with pytest.raises(OptionError, match="game is over"):
        AlphaBetaBot(LoaEvaluator()).search(over, 200)
