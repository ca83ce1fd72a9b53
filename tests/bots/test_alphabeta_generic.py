"""Alpha-beta through the engine contract alone: it solves a tiny game it knows nothing about."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from parlour.bots.alphabeta import WIN, AlphaBetaBot
from parlour.engine import (
    NOBODY,
    Action,
    Game,
    GameInfo,
    JSONDict,
    NullEvaluator,
    OptionError,
    Outcome,
    State,
)
from parlour.games import get_game


class Nim(Game["NimState"]):
    """One pile; take 1, 2 or 3 stones; whoever takes the last stone wins."""

    info = GameInfo("nim", "Nim", 2, 2, 2, chance=False, hidden_information=False,
                    end_reasons={"last-stone": "the last stone taken"})

    def create(self, players: int, options: dict[str, Any], seed: int, start: JSONDict | None) -> NimState:
        return NimState(self, (start or {}).get("stones", 10))


class NimState(State):
    __slots__ = ("stones",)

    def __init__(self, game: Game[Any], stones: int) -> None:
        super().__init__(game, 2, {}, 0, None)
        self.stones = stones

    def to_move(self) -> int:
        return NOBODY if self.stones == 0 else len(self.history) % 2

    def legal_actions(self) -> list[Action]:
        return [take for take in (1, 2, 3) if take <= self.stones]

    def apply(self, action: Action) -> None:
        self.stones -= action
        self.history.append(action)

    def undo(self) -> None:
        self.stones += self.history.pop()

    def copy_into(self, clone: Any) -> None:
        clone.stones = self.stones

    def outcome(self) -> Outcome | None:
        return Outcome((len(self.history) - 1) % 2, "last-stone") if self.stones == 0 else None

    def view_content(self, seat: int | None) -> JSONDict:
        return {"position": self.position_json()}

    def action_parts(self, action: Action) -> JSONDict:
        return {"kind": "take", "piece": action}

    def action_to_text(self, action: Action) -> str:
        return f"take {action}"

    def parse_action(self, text: str) -> Action:
        return int(text.split()[-1])

    def render(self, seat: int | None = None) -> str:
        return f"{self.stones} stones"

    def position_key(self) -> int:
        return self.stones * 2 + len(self.history) % 2

    def position_json(self) -> JSONDict:
        return {"stones": self.stones}


@pytest.mark.parametrize("stones", [5, 6, 7, 9, 10, 11, 13, 21])
def test_solves_nim(stones: int) -> None:
    # A pile that is a multiple of four is lost for the side to move; leave one.
    state = Nim().new(start={"stones": stones})
    result = AlphaBetaBot(NullEvaluator()).search(state, 100_000)
    assert result.solved
    assert (stones - result.action) % 4 == 0
    assert result.score > WIN - 64
    assert state.stones == stones
    assert not state.history


def test_a_lost_pile_scores_as_a_loss() -> None:
    result = AlphaBetaBot(NullEvaluator()).search(Nim().new(start={"stones": 8}), 100_000)
    assert result.solved
    assert result.score < -(WIN - 64)


def test_refuses_games_with_chance() -> None:
    # Alpha-beta is for two players without chance or hidden information.
    state = get_game("loa").new()

    class Dicey(Nim):
        info = dataclasses.replace(state.game.info, chance=True)

    state.game = Dicey()
    with pytest.raises(OptionError, match="two-player games without chance"):
        AlphaBetaBot(NullEvaluator()).search(state, 100)
