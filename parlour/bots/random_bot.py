"""The baseline: a uniformly random legal action."""

from __future__ import annotations

from parlour.engine import Action, Bot, State


class RandomBot(Bot):
    """Plays a legal action chosen by ``self.rng``; ignores the budget."""

    name = "random"

    def choose(self, state: State, seconds: float) -> Action:
        return self.rng.choice(state.legal_actions())
