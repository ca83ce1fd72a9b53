"""perft (``parlour.engine.perft``) on a tiny game whose tree is known, checked against a plain
enumeration by copies. The Lines of Action counts (LOA-25) are pinned in tests/loa."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.engine import (
    CHANCE,
    NOBODY,
    Action,
    Game,
    GameInfo,
    IllegalActionError,
    JSONDict,
    NotationError,
    Option,
    Outcome,
    State,
)
from parlour.engine.perft import divide, perft
from parlour.games import get_game


class TakeAway(Game["TakeAwayState"]):
    """Two players take 1 or 2 tokens from a pile; whoever takes the last wins. With ``coin`` a
    chance decision after every move may add a token (so perft meets chance nodes too)."""

    info = GameInfo(
        name="takeaway", title="Take-away", min_players=2, max_players=2, default_players=2,
        chance=True, hidden_information=False,
        options=(Option("pile", 3, "tokens at the start", minimum=0), Option("coin", False, "coin tosses")),
    )

    def create(
        self, players: int, options: dict[str, Any], seed: int, start: JSONDict | None
    ) -> TakeAwayState:
        return TakeAwayState(self, options, seed)


class TakeAwayState(State):
    __slots__ = ("_undo", "pile", "tossing", "turn")

    def __init__(self, game: Game[State], options: dict[str, Any], seed: int) -> None:
        super().__init__(game, 2, options, seed, None)
        self.pile: int = options["pile"]
        self.turn = 0
        self.tossing = False
        self._undo: list[tuple[int, int, bool]] = []

    def to_move(self) -> int:
        if self.pile == 0:
            return NOBODY
        return CHANCE if self.tossing else self.turn

    def legal_actions(self) -> list[Action]:
        if self.to_move() == NOBODY:
            return []
        return [0, 1] if self.tossing else [take for take in (1, 2) if take <= self.pile]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if not self.tossing or self.pile == 0:
            raise IllegalActionError("no chance decision is pending")
        return [(0, 0.5), (1, 0.5)]

    def apply(self, action: Action) -> None:
        self._undo.append((self.pile, self.turn, self.tossing))
        self.history.append(action)
        if self.tossing:
            self.pile += action
            self.tossing = False
        else:
            self.pile -= action
            self.turn = 1 - self.turn
            self.tossing = self.options["coin"] and self.pile > 0

    def undo(self) -> None:
        self.history.pop()
        self.pile, self.turn, self.tossing = self._undo.pop()

    def copy_into(self, clone: TakeAwayState) -> None:
        clone._undo = self._undo.copy()
        clone.pile, clone.turn, clone.tossing = self.pile, self.turn, self.tossing

    def outcome(self) -> Outcome | None:
        return Outcome(1 - self.turn, "last-token") if self.pile == 0 else None

    def view_content(self, seat: int | None) -> JSONDict:
        return {"position": self.position_json()}

    def action_parts(self, action: Action) -> JSONDict:
        return {"kind": "take", "tokens": action}

    def action_to_text(self, action: Action) -> str:
        return str(action)

    def parse_action(self, text: str) -> Action:
        if not text.strip().isdigit():
            raise NotationError(text)
        action = int(text)
        if action not in self.legal_actions():
            raise IllegalActionError(text)
        return action

    def render(self, seat: int | None = None) -> str:
        return f"pile {self.pile}"

    def position_key(self) -> int:
        return hash((self.pile, self.turn, self.tossing))

    def position_json(self) -> JSONDict:
        return {"pile": self.pile, "turn": self.turn, "tossing": self.tossing}


def enumerate_sequences(state: State, depth: int) -> int:
    """The definition of perft, the slow way: copies, no bulk counting."""
    if depth == 0:
        return 1
    if state.to_move() == CHANCE:
        actions = [action for action, _ in state.chance_outcomes()]
    else:
        actions = state.legal_actions()
    total = 0
    for action in actions:
        child = state.copy()
        child.apply(action)
        total += enumerate_sequences(child, depth - 1)
    return total


def test_counts_of_a_small_pile() -> None:
    # From 3: depth 1 takes 1 or 2; depth 3 only 1-1-1; the pile is empty after 3 plies.
    state = TakeAway().new(options={"pile": 3})
    assert [perft(state, depth) for depth in range(6)] == [1, 2, 3, 1, 0, 0]


@pytest.mark.parametrize("coin", [False, True], ids=["no-chance", "chance"])
def test_agrees_with_enumeration(coin: bool) -> None:
    state = TakeAway().new(options={"pile": 6, "coin": coin})
    for depth in range(9):
        assert perft(state, depth) == enumerate_sequences(state, depth)


def test_chance_outcomes_are_branches() -> None:
    state = TakeAway().new(options={"pile": 4, "coin": True})
    state.apply(1)
    assert state.to_move() == CHANCE
    assert perft(state, 1) == 2


def test_finished_game_is_not_extended() -> None:
    state = TakeAway().new(options={"pile": 0})
    assert state.is_over()
    assert [perft(state, depth) for depth in range(3)] == [1, 0, 0]


def test_leaves_the_state_unchanged() -> None:
    state = TakeAway().new(options={"pile": 7, "coin": True})
    state.apply(2)
    before = (state.to_json(), state.position_json())
    perft(state, 6)
    divide(state, 4)
    assert (state.to_json(), state.position_json()) == before


def test_divide_splits_perft_by_first_action() -> None:
    state = TakeAway().new(options={"pile": 5})
    assert divide(state, 3) == [(1, perft_after(state, 1, 2)), (2, perft_after(state, 2, 2))]
    assert sum(count for _, count in divide(state, 4)) == perft(state, 4)


def perft_after(state: State, action: Action, depth: int) -> int:
    child = state.copy()
    child.apply(action)
    return perft(child, depth)


def test_bad_depths_are_refused() -> None:
    state = TakeAway().new()
    with pytest.raises(ValueError, match="at least 0"):
        perft(state, -1)
    with pytest.raises(ValueError, match="at least 1"):
        divide(state, 0)


def test_lines_of_action_through_the_generic_walk() -> None:
    # LOA-25, the shallow rows: the generic walk and the rules agree.
    state = get_game("loa").new()
    assert perft(state, 2) == 1_244
    assert sum(count for _, count in divide(state, 2)) == 1_244
    assert len(divide(state, 1)) == 36
