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

from collections import defaultdict
from typing import Final

from parlour.bots.search import (
    EXACT,
    INFINITY,
    LOWER,
    MAX_PLY,
    MIN_NODES,
    PLY_KEYS,
    SAFETY_FACTOR,
    UPPER,
    WIN,
    DeepeningBot,
    OutOfTime,
    SearchResult,
)
from parlour.engine import Action, Evaluator, OptionError, State

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


class AlphaBetaBot(DeepeningBot):
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
        super().__init__(evaluator, seed, nodes_per_second, safety_factor, max_depth, noise_bits)
        self.reductions = reductions
        self._history: defaultdict[Action, int] = defaultdict(int)

    def check(self, state: State) -> None:
        info = state.game.info
        if info.chance or info.hidden_information or state.players != 2:
            raise OptionError(f"alpha-beta plays two-player games without chance, not {info.name}")

    # --- the search ----------------------------------------------------------------------------

    def _begin(self, state: State, nodes: int, started: float, seconds: float | None) -> None:
        super()._begin(state, nodes, started, seconds)
        self._history = defaultdict(int)

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
            except OutOfTime:
                if index > 0:
                    raise OutOfTime(best, best_score) from None
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
        self._count_node()
        seat = state.to_move()
        if depth <= 0 or ply >= MAX_PLY:
            return self._leaf(state, seat)
        key = state.position_key() ^ PLY_KEYS[ply]
        stored, hint = self._probe(key, depth, alpha, beta)
        if stored is not None:
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
        self._store(key, depth, horizons, bound, best, best_move)
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
        return self._first(actions, ply, hint)

    def _reward(self, state: State, action: Action, ply: int, depth: int) -> None:
        """A move that refuted the opponent: try it early elsewhere."""
        self._history[action] += depth * depth
        killers = self._killers[ply]
        if killers[0] != action and not self.evaluator.is_tactical(state, action):
            killers[1], killers[0] = killers[0], action


__all__ = ["MIN_NODES", "NODES_PER_SECOND", "SAFETY_FACTOR", "WIN", "AlphaBetaBot", "SearchResult"]
