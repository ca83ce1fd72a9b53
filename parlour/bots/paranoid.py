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

from typing import Final

from parlour.bots.search import (
    EXACT,
    INFINITY,
    LOWER,
    MAX_PLY,
    PLY_KEYS,
    SAFETY_FACTOR,
    UPPER,
    WIN,
    DeepeningBot,
    OutOfTime,
)
from parlour.engine import Action, Evaluator, OptionError, State

NODES_PER_SECOND: Final = 4_000
"""Nodes of search per second of budget, for games whose evaluator gives no figure of its own
(``Evaluator.nodes_per_second``)."""

NOISE_BITS: Final = 3
"""Leaf evaluations get a jitter of 0 to 2**NOISE_BITS - 1 units drawn from the seed and the
position, so that different seeds play different games."""

TACTICAL_BONUS: Final = 1 << 40


class ParanoidBot(DeepeningBot):
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
        super().__init__(evaluator, seed, nodes_per_second or evaluator.nodes_per_second or NODES_PER_SECOND,
                         safety_factor, max_depth, noise_bits)
        self._root_seat = 0
        self._history: list[dict[Action, int]] = []

    def check(self, state: State) -> None:
        info = state.game.info
        if info.chance or info.hidden_information:
            raise OptionError(f"paranoid search plays games without chance or hidden information, "
                              f"not {info.name}")

    # --- the search ----------------------------------------------------------------------------

    def _begin(self, state: State, nodes: int, started: float, seconds: float | None) -> None:
        super()._begin(state, nodes, started, seconds)
        self._root_seat = state.to_move()
        self._history = [{} for _ in range(state.players)]

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
        self._count_node()
        if (depth <= 0 and not mid_turn) or ply >= MAX_PLY:
            return self._leaf(state, self._root_seat)
        key = state.position_key() ^ PLY_KEYS[ply]
        stored, hint = self._probe(key, depth, alpha, beta)
        if stored is not None:
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
        self._store(key, depth, horizons, bound, best, best_action)
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
        return self._first(actions, ply, hint)

    def _reward(self, state: State, seat: int, action: Action, ply: int, depth: int) -> None:
        """An action that caused a cut-off: try it early elsewhere."""
        history = self._history[seat]
        history[action] = history.get(action, 0) + depth * depth + 1
        killers = self._killers[ply]
        if killers[0] != action and not self.evaluator.is_tactical(state, action):
            killers[1], killers[0] = killers[0], action
