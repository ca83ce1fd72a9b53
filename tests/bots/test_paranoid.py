"""Paranoid search through the engine contract alone, on a tiny game for two to four players.

The toy game has what Biloba's search must cope with: a seat that decides several times in a row
(a bonus token) and seats that the rules skip. Its values are checked against a brute-force
paranoid minimax written here.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from parlour.bots.paranoid import ParanoidBot
from parlour.bots.search import MAX_PLY, WIN
from parlour.engine import (
    NOBODY,
    Action,
    Evaluator,
    Game,
    GameInfo,
    JSONDict,
    NullEvaluator,
    OptionError,
    Outcome,
    State,
)
from parlour.games import get_game

LEFT, RIGHT = 0, 1


class TokenRow(Game["TokenState"]):
    """A row of tokens; in turn each seat takes the token at either end and scores its value.

    Taking a token worth 0 (a bonus) lets the same seat take again. Seats listed in ``out`` are
    skipped. When the row is empty the highest total wins; a shared top total is a draw.
    """

    info = GameInfo("tokens", "Token row", 2, 4, 3, chance=False, hidden_information=False,
                    end_reasons={"row-empty": "the row is empty"})

    def create(self, players: int, options: dict[str, Any], seed: int, start: JSONDict | None) -> TokenState:
        start = start or {}
        return TokenState(self, players, list(start.get("tokens", [3, 1, 0, 2, 5, 0, 4])),
                          set(start.get("out", [])))


class TokenState(State):
    __slots__ = ("_undo", "high", "low", "out", "seat", "tokens", "totals")

    def __init__(self, game: Game[Any], players: int, tokens: list[int], out: set[int]) -> None:
        super().__init__(game, players, {}, 0, None)
        self.tokens, self.out = tokens, out
        self.low, self.high = 0, len(tokens)
        self.totals = [0] * players
        self.seat = self._next(-1)
        self._undo: list[int] = []

    def _next(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if candidate not in self.out:
                return candidate
        raise AssertionError("every seat is out")

    def to_move(self) -> int:
        return NOBODY if self.low == self.high else self.seat

    def legal_actions(self) -> list[Action]:
        if self.low == self.high:
            return []
        return [LEFT] if self.high - self.low == 1 else [LEFT, RIGHT]

    def apply(self, action: Action) -> None:
        if action == LEFT:
            value = self.tokens[self.low]
            self.low += 1
        else:
            self.high -= 1
            value = self.tokens[self.high]
        self.totals[self.seat] += value
        self._undo.append(self.seat)
        if value != 0:
            self.seat = self._next(self.seat)
        self.history.append(action)

    def undo(self) -> None:
        action = self.history.pop()
        self.seat = self._undo.pop()
        if action == LEFT:
            self.low -= 1
            value = self.tokens[self.low]
        else:
            value = self.tokens[self.high]
            self.high += 1
        self.totals[self.seat] -= value

    def copy_into(self, clone: Any) -> None:
        clone.tokens, clone.out, clone.low, clone.high = self.tokens, self.out, self.low, self.high
        clone.totals, clone.seat, clone._undo = list(self.totals), self.seat, list(self._undo)

    def outcome(self) -> Outcome | None:
        if self.low != self.high:
            return None
        top = max(self.totals)
        leaders = [seat for seat, total in enumerate(self.totals) if total == top]
        return Outcome(leaders[0] if len(leaders) == 1 else None, "row-empty")

    def view_content(self, seat: int | None) -> JSONDict:
        return {"position": self.position_json()}

    def action_parts(self, action: Action) -> JSONDict:
        return {"kind": ("left", "right")[action]}

    def action_to_text(self, action: Action) -> str:
        return ("left", "right")[action]

    def parse_action(self, text: str) -> Action:
        return ("left", "right").index(text)

    def render(self, seat: int | None = None) -> str:
        return f"{self.tokens[self.low:self.high]} {self.totals}"

    def position_key(self) -> int:
        return hash((self.low, self.high, tuple(self.totals), self.to_move())) & ((1 << 64) - 1)

    def position_json(self) -> JSONDict:
        return {"tokens": self.tokens[self.low:self.high], "totals": self.totals}


class Lead(Evaluator):
    """The seat's total less the best of the others' totals."""

    def evaluate(self, state: State, seat: int) -> int:
        assert isinstance(state, TokenState)
        others = [total for other, total in enumerate(state.totals) if other != seat]
        return state.totals[seat] - max(others)


def paranoid_value(state: State, root: int) -> float:
    """The root's utility when it maximises and every other seat minimises it: brute force."""
    outcome = state.outcome()
    if outcome is not None:
        return outcome.utility(root)
    values = []
    for action in state.legal_actions():
        state.apply(action)
        values.append(paranoid_value(state, root))
        state.undo()
    return max(values) if state.to_move() == root else min(values)


def limited_value(state: State, root: int, evaluator: Evaluator, depth: int, mid_turn: bool) -> int:
    """Brute-force paranoid to ``depth`` turns (a turn being all of one seat's decisions)."""
    outcome = state.outcome()
    if outcome is not None:
        return int(outcome.utility(root) * WIN)
    if depth <= 0 and not mid_turn:
        return evaluator.evaluate(state, root)
    seat = state.to_move()
    values = []
    for action in state.legal_actions():
        state.apply(action)
        again = state.to_move() == seat
        values.append(limited_value(state, root, evaluator, depth if again else depth - 1, again))
        state.undo()
    return max(values) if seat == root else min(values)


def utility_of(score: int) -> float:
    if score >= WIN - MAX_PLY:
        return 1.0
    if score <= -(WIN - MAX_PLY):
        return -1.0
    assert score == 0
    return 0.0


def random_starts(count: int, seed: int) -> list[TokenState]:
    rng = random.Random(seed)
    starts = []
    for _ in range(count):
        players = rng.choice([2, 3, 3, 4, 4])
        out = set(rng.sample(range(players), rng.choice([0, 0, 1]))) if players > 2 else set()
        tokens = [rng.choice([0, 0, 1, 2, 3, 4, 5, 6]) for _ in range(rng.randint(4, 10))]
        starts.append(TokenRow().new(players, start={"tokens": tokens, "out": sorted(out)}))
    return starts


@pytest.mark.parametrize("seed", range(6))
def test_solves_the_toy_game_exactly(seed: int) -> None:
    for state in random_starts(8, seed):
        root = state.to_move()
        expected = paranoid_value(state, root)
        before = (list(state.history), list(state.totals), state.seat)
        result = ParanoidBot(NullEvaluator(), seed=seed).search(state, 1_000_000)
        assert (list(state.history), list(state.totals), state.seat) == before
        assert result.action in state.legal_actions()
        if len(state.legal_actions()) == 1:
            continue
        assert result.solved
        assert utility_of(result.score) == expected, state.render()
        state.apply(result.action)  # the action chosen keeps that value
        assert paranoid_value(state, root) == expected
        state.undo()


@pytest.mark.parametrize("depth", [1, 2, 3, 5])
def test_depth_counts_turns_and_matches_brute_force(depth: int) -> None:
    evaluator = Lead()
    for state in random_starts(10, 100 + depth):
        if len(state.legal_actions()) == 1:
            continue
        root = state.to_move()
        bot = ParanoidBot(evaluator, seed=1, max_depth=depth, noise_bits=0)
        result = bot.search(state, 1_000_000)
        expected = limited_value(state, root, evaluator, depth, False)
        score = result.score
        if abs(score) >= WIN - MAX_PLY:  # a forced result: the brute force counts no plies
            score = WIN if score > 0 else -WIN
        assert score == expected, state.render()


def test_a_bonus_turn_is_searched_to_its_end() -> None:
    # Seat 0 takes the bonus 0 and decides again: a one-turn search still sees the 9 it then
    # takes, and the 9 the next seat would take otherwise.
    state = TokenRow().new(3, start={"tokens": [0, 9, 1, 1, 1, 8]})
    result = ParanoidBot(Lead(), max_depth=1, noise_bits=0).search(state, 10_000)
    assert state.action_to_text(result.action) == "left"
    state.apply(result.action)
    assert state.to_move() == 0
    assert state.action_to_text(ParanoidBot(Lead(), max_depth=1).search(state, 10_000).action) == "left"


def test_skipped_seats_never_move() -> None:
    # Seat 1 is out: after seat 0 comes seat 2, and seat 1's total stays 0.
    state = TokenRow().new(3, start={"tokens": [2, 2, 2, 2, 2, 2], "out": [1]})
    bot = ParanoidBot(Lead())
    while not state.is_over():
        assert state.to_move() != 1
        state.apply(bot.search(state, 2_000).action)
    assert state.totals[1] == 0


def test_stopped_searches_leave_the_state_and_answer_legally() -> None:
    for state in random_starts(10, 7):
        before = (list(state.history), list(state.totals), state.seat)
        for nodes in (1, 5, 40, 300):
            result = ParanoidBot(Lead(), seed=nodes).search(state, nodes)
            assert result.action in state.legal_actions()
            assert (list(state.history), list(state.totals), state.seat) == before


def test_same_seed_same_search() -> None:
    state = TokenRow().new(4, start={"tokens": [1, 2, 3, 0, 4, 1, 0, 2, 6, 1, 3, 2]})
    choices = set()
    for seed in range(8):
        first = ParanoidBot(Lead(), seed=seed, safety_factor=1e6).search(state, 3_000)
        second = ParanoidBot(Lead(), seed=seed, safety_factor=1e6).search(state, 3_000)
        assert first == dataclasses.replace(second, seconds=first.seconds)
        choices.add(first.action)
    assert choices <= set(state.legal_actions())


def test_choose_turns_the_budget_into_nodes() -> None:
    state = TokenRow().new(4, start={"tokens": [1, 2, 3, 0, 4, 1, 0, 2, 6, 1, 3, 2, 5, 1]})
    bot = ParanoidBot(Lead(), nodes_per_second=1_000, safety_factor=1e6)
    bot.choose(state, 0.5)
    assert bot.last is not None
    assert bot.last.nodes <= 500


def test_refuses_games_with_chance() -> None:
    state = get_game("loa").new()

    class Dicey(TokenRow):
        info = dataclasses.replace(state.game.info, chance=True)

    state.game = Dicey()
    with pytest.raises(OptionError, match="without chance"):
        ParanoidBot(NullEvaluator()).search(state, 100)
