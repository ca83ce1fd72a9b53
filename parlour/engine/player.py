"""What a computer player is: it sees its seat's view of a state and returns an action.

The interface every bot implements, the search bots of ``parlour.bots`` and a game's own
``classic`` player alike (a game package may import only the engine).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from parlour.engine.game import Action, State


class Bot(ABC):
    """A computer player. ``choose`` gets a state built from the seat's view (``seen_by``) and a
    time budget in seconds, and must return one of ``state.legal_actions()``.

    Bots are deterministic for a given seed: all randomness comes from ``self.rng``, and time
    budgets are turned into fixed amounts of work (LOA-81), with the clock only as a safety stop.
    """

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)

    @abstractmethod
    def choose(self, state: State, seconds: float) -> Action:
        """The action to play for ``state.to_move()`` within about ``seconds``."""


def seen_by(state: State, seat: int, rng: random.Random) -> State:
    """The state a bot in ``seat`` may search: built from what ``view(seat)`` shows only.

    Perfect-information views show the whole position; hidden-information games sample the
    unseen part (a determinisation). Either way the seed is new: the match's stays secret.
    """
    if not state.game.info.hidden_information:
        # What sample_state would make of the view, without building the view a person is sent
        # (Conflict's threat warnings cost more than a move). Never a copy: it keeps the seed,
        # from which every future roll follows.
        return state.game.new(state.players, state.options, rng.getrandbits(52), state.position_json())
    return state.game.sample_state(state.view(seat), rng)
