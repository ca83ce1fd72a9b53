"""Paranoid alpha-beta for games of two or more players, through the engine contract.

The seat to move at the root maximises its own evaluation and assumes that every other seat
plays to minimise it, as one coalition (Sturtevant and Korf's "paranoid" search). That makes
the tree an ordinary min-max tree, so alpha-beta, principal-variation probes, iterative
deepening and a transposition table all apply unchanged, whatever the number of players.

Depth counts *turns*, not actions: when the same seat decides again (a turn of several
decisions, such as Biloba's replacements) the depth is not spent, and the horizon never cuts a
turn in half. Seats that the rules skip are simply never to move. The search walks one state
with ``apply``/``undo``; it never copies.

Determinism (LOA-81): the time budget becomes a node allowance (``nodes_per_second`` per second
of budget, fixed in the code), the clock being only a safety stop, and every random choice comes
from ``self.rng``.
"""

from __future__ import annotations

import time
from typing import Final

from parlour.bots.base import Bot
from parlour.bots.evaluators import Evaluator
from parlour.bots.search import (
    CLOCK_EVERY,
    EXACT,
    GOLDEN,
    INFINITY,
    LOWER,
    MASK64,
    MAX_PLY,
    MIN_NODES,
    PLY_KEYS,
    SAFETY_FACTOR,
    SOLVED,
    TABLE_LIMIT,
    UPPER,
    WIN,
    OutOfTime,
    SearchResult,
)
from parlour.engine import Action, OptionError, State

NODES_PER_SECOND: Final = 4_000
"""Nodes of search per second of budget, for games whose evaluator gives no figure of its own
(``Evaluator.nodes_per_second``)."""

NOISE_BITS: Final = 3
"""Leaf evaluations get a jitter of 0 to 2**NOISE_BITS - 1 units drawn from the seed and the
position, so that different seeds play different games."""

TACTICAL_BONUS: Final = 1 << 40

Entry = tuple[int, int, int, Action | None]
"""A table entry: depth, bound, value for the root seat, best action."""


class ParanoidBot(Bot):
    """Paranoid alpha-beta with iterative deepening over a node allowance (see the module)."""

    name = "paranoid"

    def __init__(
        self,
        evaluator: Evaluator,
        seed: int = 0,
        nodes_per_second: int | None = None,
        safety_factor: float = SAFETY_FACTOR,
        max_depth: int = MAX_PLY,
        noise_bits: int = NOISE_BITS,
    ) -> None:
        super().__init__(seed)
        self.evaluator = evaluator
        self.nodes_per_second = nodes_per_second or evaluator.nodes_per_second or NODES_PER_SECOND
        self.safety_factor = safety_factor
        self.max_depth = min(max_depth, MAX_PLY)
        self.noise_shift = 64 - noise_bits
        self.last: SearchResult | None = None
        self._state: State | None = None
        self._root_seat = 0
        self._salt = 0
        self._table: dict[int, Entry] = {}
        self._history: list[dict[Action, int]] = []
        self._killers: list[list[Action | None]] = []
        self._nodes = 0
        self._allowance = 0
        self._deadline = 0.0
        self._horizons = 0

    # --- the Bot interface ---------------------------------------------------------------------

    def choose(self, state: State, seconds: float) -> Action:
        nodes = max(MIN_NODES, int(seconds * self.nodes_per_second))
        return self.search(state, nodes, self.safety_factor * seconds).action

    def search(self, state: State, nodes: int, seconds: float | None = None) -> SearchResult:
        """Searches ``state`` with at most ``nodes`` nodes (and ``seconds`` of clock, if given).

        ``state`` is searched in place and left exactly as it was.
        """
        info = state.game.info
        if info.chance or info.hidden_information:
            raise OptionError(f"paranoid search plays games without chance or hidden information, "
                              f"not {info.name}")
        actions = state.legal_actions()
        if not actions:
            raise OptionError("the game is over: there is nothing to choose")
        started = time.perf_counter()
        # The seed decides between actions the search cannot tell apart (their order at the root).
        self.rng.shuffle(actions)
        self._salt = self.rng.getrandbits(64)
        if len(actions) == 1:
            self.last = SearchResult(actions[0], 0, 0, 0, 0.0, False)
            return self.last
        self._begin(state, nodes, started, seconds)
        best, score, depth, solved = actions[0], 0, 0, False
        root_length = len(state.history)
        try:
            for target in range(1, self.max_depth + 1):
                horizons = self._horizons
                try:
                    best, score = self._root(actions, target, best)
                except OutOfTime as stop:
                    if stop.args:  # a better action than the last iteration's, fully searched
                        best, score = stop.args
                    break
                depth = target
                solved = self._horizons == horizons or abs(score) >= WIN - MAX_PLY
                if solved:
                    break
        finally:  # a stop (or any error) leaves the search somewhere down the tree
            while len(state.history) > root_length:
                state.undo()
        self._state = None
        self.last = SearchResult(best, score, depth, self._nodes, time.perf_counter() - started, solved)
        return self.last

    # --- the search ----------------------------------------------------------------------------

    def _begin(self, state: State, nodes: int, started: float, seconds: float | None) -> None:
        self._state = state
        self._root_seat = state.to_move()
        self._table = {}
        self._history = [{} for _ in range(state.players)]
        self._killers = [[None, None] for _ in range(MAX_PLY + 2)]
        self._nodes = 0
        self._allowance = nodes
        self._deadline = started + seconds if seconds is not None else float("inf")
        self._horizons = 0

    def _root(self, actions: list[Action], depth: int, previous: Action) -> tuple[Action, int]:
        """One iteration at the root; the previous iteration's best action is searched first."""
        state = self._state
        assert state is not None
        actions.remove(previous)
        actions.insert(0, previous)
        seat = self._root_seat
        alpha = -INFINITY
        best, best_score = previous, -INFINITY
        for index, action in enumerate(actions):
            try:
                if index == 0:
                    value = self._child(state, action, seat, depth, alpha, INFINITY, 0)
                else:
                    value = self._child(state, action, seat, depth, alpha, alpha + 1, 0)
                    if value > alpha:
                        value = self._child(state, action, seat, depth, alpha, INFINITY, 0)
            except OutOfTime:
                if index > 0:
                    raise OutOfTime(best, best_score) from None
                raise
            if value > best_score:
                best, best_score = action, value
                alpha = max(alpha, value)
        self._table[state.position_key() ^ PLY_KEYS[0]] = (depth, EXACT, best_score, best)
        return best, best_score

    def _child(self, state: State, action: Action, seat: int, depth: int, alpha: int, beta: int,
               ply: int) -> int:
        """The root seat's value of ``seat`` playing ``action``; the depth is spent only when the
        turn passes to another seat."""
        state.apply(action)
        outcome = state.outcome()
        if outcome is not None:
            self._nodes += 1
            value = int(outcome.utility(self._root_seat) * (WIN - ply - 1))
        elif state.to_move() == seat:
            value = self._value(depth, alpha, beta, ply + 1, True)
        else:
            value = self._value(depth - 1, alpha, beta, ply + 1, False)
        state.undo()
        return value

    def _value(self, depth: int, alpha: int, beta: int, ply: int, mid_turn: bool) -> int:
        """The root seat's value of the current state (never a finished game)."""
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
            return self.evaluator.evaluate(state, self._root_seat) + jitter
        key = state.position_key() ^ PLY_KEYS[ply]
        entry = self._table.get(key)
        hint: Action | None = None
        if entry is not None:
            stored_depth, bound, stored, hint = entry
            if stored_depth >= depth and (
                bound == EXACT
                or (bound == LOWER and stored >= beta)
                or (bound == UPPER and stored <= alpha)
            ):
                if stored_depth < SOLVED:
                    self._horizons += 1
                return stored
        seat = state.to_move()
        horizons = self._horizons
        original_alpha, original_beta = alpha, beta
        maximising = seat == self._root_seat
        best = -INFINITY if maximising else INFINITY
        best_action: Action | None = None
        for index, action in enumerate(self._ordered(state, seat, hint, ply, depth)):
            if index == 0:
                value = self._child(state, action, seat, depth, alpha, beta, ply)
            elif maximising:  # a null-window probe first: is it better than the best so far?
                value = self._child(state, action, seat, depth, alpha, alpha + 1, ply)
                if alpha < value < beta:
                    value = self._child(state, action, seat, depth, alpha, beta, ply)
            else:  # the coalition's probe: is it worse for the root than the best so far?
                value = self._child(state, action, seat, depth, beta - 1, beta, ply)
                if alpha < value < beta:
                    value = self._child(state, action, seat, depth, alpha, beta, ply)
            if maximising:
                if value > best:
                    best, best_action = value, action
                    alpha = max(alpha, value)
            elif value < best:
                best, best_action = value, action
                beta = min(beta, value)
            if alpha >= beta:
                self._reward(state, seat, action, ply, depth)
                break
        bound = UPPER if best <= original_alpha else LOWER if best >= original_beta else EXACT
        stored_depth = SOLVED if self._horizons == horizons else depth
        if len(self._table) >= TABLE_LIMIT:  # a very long search: start afresh rather than swap
            self._table.clear()
        self._table[key] = (stored_depth, bound, best, best_action)
        return best

    def _ordered(self, state: State, seat: int, hint: Action | None, ply: int,
                 depth: int) -> list[Action]:
        """The table's action, then killers, then tactical actions and the rest by history."""
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions
        history = self._history[seat]
        if depth >= 2:
            tactical = self.evaluator.is_tactical
            actions.sort(key=lambda a: history.get(a, 0) + (TACTICAL_BONUS if tactical(state, a) else 0),
                         reverse=True)
        else:
            actions.sort(key=lambda a: history.get(a, 0), reverse=True)
        for first in (*self._killers[ply][::-1], hint):
            if first is not None and first in actions:
                actions.remove(first)
                actions.insert(0, first)
        return actions

    def _reward(self, state: State, seat: int, action: Action, ply: int, depth: int) -> None:
        """An action that caused a cut-off: try it early elsewhere."""
        history = self._history[seat]
        history[action] = history.get(action, 0) + depth * depth + 1
        killers = self._killers[ply]
        if killers[0] != action and not self.evaluator.is_tactical(state, action):
            killers[1], killers[0] = killers[0], action
