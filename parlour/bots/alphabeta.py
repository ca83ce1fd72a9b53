"""Alpha-beta search for any two-player game of perfect information, through the engine contract.

Negamax with principal-variation search, iterative deepening, late move reductions, a
transposition table keyed by the position's Zobrist key, and move ordering by the table's move,
killer moves, captures and the history heuristic. The search walks one state with
``apply``/``undo``; it never copies. Finished games score ``WIN`` less the distance from the
root, so the search converts a win instead of dawdling and delays a loss; a draw (the move limit)
scores 0.

Determinism (LOA-81): the time budget becomes a node allowance (``NODES_PER_SECOND`` per second,
fixed in the code), so the same position, seed and budget give the same move on any machine.
The clock is only a safety stop at ``safety_factor`` times the budget.
"""

from __future__ import annotations

import time
from collections import defaultdict
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
    SearchResult,
)
from parlour.bots.search import OutOfTime as _OutOfTime
from parlour.engine import Action, OptionError, State

NODES_PER_SECOND: Final = 16_000
"""Nodes of search per second of budget. Calibrated so that on the development machine (2 cores,
AMD EPYC, CPython 3.11) the allowance for the LOA evaluator is used in well under the budget."""

REDUCE_FROM_DEPTH: Final = 3
REDUCE_AFTER: Final = 4
"""Late move reductions: at this depth or more, quiet moves from this index on are probed a ply
shallower first."""
NOISE_BITS: Final = 3
"""Leaf evaluations get a jitter of 0 to 2**NOISE_BITS - 1 units drawn from the seed and the
position: too little to matter to the LOA evaluator (a piece one step nearer its group is worth
tens of units), enough that different seeds play different games."""
TACTICAL_BONUS: Final = 1 << 40


class AlphaBetaBot(Bot):
    """Negamax alpha-beta with iterative deepening over a node allowance (see the module)."""

    name = "alphabeta"

    def __init__(
        self,
        evaluator: Evaluator,
        seed: int = 0,
        nodes_per_second: int = NODES_PER_SECOND,
        safety_factor: float = SAFETY_FACTOR,
        max_depth: int = MAX_PLY,
        noise_bits: int = NOISE_BITS,
        reductions: bool = True,
    ) -> None:
        super().__init__(seed)
        self.evaluator = evaluator
        self.nodes_per_second = nodes_per_second
        self.safety_factor = safety_factor
        self.max_depth = min(max_depth, MAX_PLY)
        self.noise_shift = 64 - noise_bits
        self.reductions = reductions
        self._salt = 0
        self.last: SearchResult | None = None
        self._state: State | None = None
        self._table: dict[int, tuple[int, int, int, Action | None]] = {}
        self._history: defaultdict[Action, int] = defaultdict(int)
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
        if info.chance or info.hidden_information or state.players != 2:
            raise OptionError(f"alpha-beta plays two-player games without chance, not {info.name}")
        actions = state.legal_actions()
        if not actions:
            raise OptionError("the game is over: there is nothing to choose")
        started = time.perf_counter()
        # The seed decides between moves the search cannot tell apart (their order at the root).
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
                except _OutOfTime as stop:
                    if stop.args:  # a better move than the last iteration's, fully searched
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
        self._table = {}
        self._history = defaultdict(int)
        self._killers = [[None, None] for _ in range(MAX_PLY + 2)]
        self._nodes = 0
        self._allowance = nodes
        self._deadline = started + seconds if seconds is not None else float("inf")
        self._horizons = 0

    def _root(self, actions: list[Action], depth: int, previous: Action) -> tuple[Action, int]:
        """One iteration at the root; the previous iteration's best move is searched first."""
        state = self._state
        assert state is not None
        actions.remove(previous)
        actions.insert(0, previous)
        seat = state.to_move()
        alpha, beta = -INFINITY, INFINITY
        best, best_score = previous, -INFINITY
        for index, action in enumerate(actions):
            try:
                value = self._child(state, action, seat, depth, alpha, beta, 0, index == 0)
            except _OutOfTime:
                if index > 0:
                    raise _OutOfTime(best, best_score) from None
                raise
            if value > best_score:
                best, best_score = action, value
                alpha = max(alpha, value)
        self._table[state.position_key() ^ PLY_KEYS[0]] = (depth, EXACT, best_score, best)
        return best, best_score

    def _child(
        self, state: State, action: Action, seat: int, depth: int, alpha: int, beta: int, ply: int,
        first: bool, reduction: int = 0,
    ) -> int:
        """The value for ``seat`` of playing ``action``: a null-window probe unless ``first``,
        ``reduction`` plies shallower at first for a late, quiet move."""
        state.apply(action)
        outcome = state.outcome()
        if outcome is not None:
            self._nodes += 1
            value = int(outcome.utility(seat) * (WIN - ply - 1))
        elif state.to_move() == seat:  # the same seat decides again (a turn of several actions)
            value = self._negamax(depth - 1, alpha, beta, ply + 1)
        elif first:
            value = -self._negamax(depth - 1, -beta, -alpha, ply + 1)
        else:
            value = -self._negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1)
            if value > alpha and reduction:  # the reduced probe was wrong: look at full depth
                value = -self._negamax(depth - 1, -alpha - 1, -alpha, ply + 1)
            if alpha < value < beta:
                value = -self._negamax(depth - 1, -beta, -alpha, ply + 1)
        state.undo()
        return value

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value of the current state for the seat to move (never a finished game)."""
        state = self._state
        assert state is not None
        self._nodes = nodes = self._nodes + 1
        if nodes >= self._allowance:
            raise _OutOfTime
        if nodes % CLOCK_EVERY == 0 and time.perf_counter() > self._deadline:
            raise _OutOfTime
        seat = state.to_move()
        if depth <= 0 or ply >= MAX_PLY:
            self._horizons += 1
            jitter = ((state.position_key() ^ self._salt) * GOLDEN & MASK64) >> self.noise_shift
            return self.evaluator.evaluate(state, seat) + jitter
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
        horizons = self._horizons
        original_alpha = alpha
        best, best_move = -INFINITY, None
        reduce = self.reductions and depth >= REDUCE_FROM_DEPTH
        tactical = self.evaluator.is_tactical
        for index, action in enumerate(self._ordered(state, hint, ply, depth)):
            # Late move reductions: moves ordered late rarely matter; probe them shallower.
            reduction = 1 if reduce and index >= REDUCE_AFTER and not tactical(state, action) else 0
            value = self._child(state, action, seat, depth, alpha, beta, ply, index == 0, reduction)
            if value > best:
                best, best_move = value, action
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._reward(state, action, ply, depth)
                        break
        bound = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        stored_depth = SOLVED if self._horizons == horizons else depth
        if len(self._table) >= TABLE_LIMIT:  # a very long search: start afresh rather than swap
            self._table.clear()
        self._table[key] = (stored_depth, bound, best, best_move)
        return best

    def _ordered(self, state: State, hint: Action | None, ply: int, depth: int) -> list[Action]:
        """The table's move, then killers, then captures and the rest by history."""
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions
        history = self._history
        if depth >= 2:
            tactical = self.evaluator.is_tactical
            actions.sort(key=lambda a: history[a] + (TACTICAL_BONUS if tactical(state, a) else 0),
                         reverse=True)
        else:
            actions.sort(key=history.__getitem__, reverse=True)
        for first in (*self._killers[ply][::-1], hint):
            if first is not None and first in actions:
                actions.remove(first)
                actions.insert(0, first)
        return actions

    def _reward(self, state: State, action: Action, ply: int, depth: int) -> None:
        """A move that refuted the opponent: try it early elsewhere."""
        self._history[action] += depth * depth
        killers = self._killers[ply]
        if killers[0] != action and not self.evaluator.is_tactical(state, action):
            killers[1], killers[0] = killers[0], action


__all__ = ["MIN_NODES", "NODES_PER_SECOND", "SAFETY_FACTOR", "WIN", "AlphaBetaBot", "SearchResult"]
