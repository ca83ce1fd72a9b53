"""Max-n search for games of two or more players, through the engine contract.

Every seat maximises its own component of a vector of evaluations (Luckhardt and Irani's
max-n); no seat assumes a coalition against it. Without a bound on the sum of the components
max-n prunes nothing, so it reaches less deep than paranoid search in the same node allowance;
``parlour arena`` measures which serves a game better. Iterative deepening, the depth in turns,
the table, the node allowance and the clock are as in ``ParanoidBot``, whose frame it reuses.
"""

from __future__ import annotations

import time

from parlour.bots.paranoid import ParanoidBot
from parlour.bots.search import (
    CLOCK_EVERY,
    GOLDEN,
    MASK64,
    MAX_PLY,
    PLY_KEYS,
    SOLVED,
    TABLE_LIMIT,
    WIN,
    OutOfTime,
)
from parlour.engine import Action, State

Vector = tuple[int, ...]


class MaxNBot(ParanoidBot):
    """Max-n with iterative deepening over a node allowance (see the module)."""

    name = "maxn"

    _vectors: dict[int, tuple[int, Vector, Action | None]]

    def _begin(self, state: State, nodes: int, started: float, seconds: float | None) -> None:
        super()._begin(state, nodes, started, seconds)
        self._vectors = {}

    def _root(self, actions: list[Action], depth: int, previous: Action) -> tuple[Action, int]:
        state = self._state
        assert state is not None
        actions.remove(previous)
        actions.insert(0, previous)
        seat = self._root_seat
        best, best_score = previous, -WIN - 1
        for index, action in enumerate(actions):
            try:
                value = self._child_vector(state, action, seat, depth, 0)[seat]
            except OutOfTime:
                if index > 0:
                    raise OutOfTime(best, best_score) from None
                raise
            if value > best_score:
                best, best_score = action, value
        return best, best_score

    def _child_vector(self, state: State, action: Action, seat: int, depth: int, ply: int) -> Vector:
        state.apply(action)
        outcome = state.outcome()
        if outcome is not None:
            self._nodes += 1
            scale = WIN - ply - 1
            vector = tuple(int(outcome.utility(other) * scale) for other in range(state.players))
        elif state.to_move() == seat:
            vector = self._vector(depth, ply + 1, True)
        else:
            vector = self._vector(depth - 1, ply + 1, False)
        state.undo()
        return vector

    def _vector(self, depth: int, ply: int, mid_turn: bool) -> Vector:
        """Every seat's value of the current state (never a finished game)."""
        state = self._state
        assert state is not None
        self._nodes = nodes = self._nodes + 1
        if nodes >= self._allowance:
            raise OutOfTime
        if nodes % CLOCK_EVERY == 0 and time.perf_counter() > self._deadline:
            raise OutOfTime
        if (depth <= 0 and not mid_turn) or ply >= MAX_PLY:
            self._horizons += 1
            jitter = ((state.position_key() ^ self._salt) * GOLDEN & MASK64) >> self.noise_shift
            return tuple(value + jitter for value in self.evaluator.evaluate_all(state))
        key = state.position_key() ^ PLY_KEYS[ply]
        entry = self._vectors.get(key)
        hint: Action | None = None
        if entry is not None:
            stored_depth, stored, hint = entry
            if stored_depth >= depth:
                if stored_depth < SOLVED:
                    self._horizons += 1
                return stored
        seat = state.to_move()
        horizons = self._horizons
        best: Vector | None = None
        best_action: Action | None = None
        for action in self._ordered(state, seat, hint, ply, depth):
            vector = self._child_vector(state, action, seat, depth, ply)
            if best is None or vector[seat] > best[seat]:
                best, best_action = vector, action
        assert best is not None
        if best_action is not None:
            self._reward(state, seat, best_action, ply, depth)
        if len(self._vectors) >= TABLE_LIMIT:
            self._vectors.clear()
        self._vectors[key] = (SOLVED if self._horizons == horizons else depth, best, best_action)
        return best
