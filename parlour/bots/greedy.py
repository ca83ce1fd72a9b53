"""One ply of look-ahead: an immediate win if there is one, else the best-evaluated position."""

from __future__ import annotations

from parlour.engine import MAX_EVAL, Action, Bot, Evaluator, State


class GreedyBot(Bot):
    """Tries every legal action once and keeps the best for itself; ties are broken by ``self.rng``.

    A finished game counts beyond any evaluation: a win above, a loss below, a draw as even.
    """

    name = "greedy"

    def __init__(self, evaluator: Evaluator, seed: int = 0) -> None:
        super().__init__(seed)
        self.evaluator = evaluator

    def choose(self, state: State, seconds: float) -> Action:
        seat = state.to_move()
        best: list[Action] = []
        best_score = -2 * MAX_EVAL
        for action in state.legal_actions():
            state.apply(action)
            outcome = state.outcome()
            if outcome is None:
                score = self.evaluator.evaluate(state, seat)
            else:
                score = int(outcome.utility(seat) * (MAX_EVAL + 1))
            state.undo()
            if score > MAX_EVAL:
                return action
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return self.rng.choice(best)
