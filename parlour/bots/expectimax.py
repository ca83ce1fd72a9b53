"""Searches for dice games whose turn is several decisions of one seat, through the engine contract.

``RollBot`` (the greedy bot of such games) searches the decisions of the current turn — every
decision the seat makes before the dice or another seat decide — and keeps the turn whose final
position the evaluator likes best. The first decision is tried in full; deeper decisions only
below the ``width`` best-looking ones, since the number of whole turns multiplies.

``ExpectimaxBot`` (the strong bot) takes the best turns that search found and looks one roll
further: a chance node over every outcome of ``state.chance_outcomes()``, weighted by its
probability, where the seat that then decides answers with its best *tactical* decision
(``Evaluator.is_tactical``: captures, takeovers) or none. For more than two players the answer
is paranoid: every other seat is assumed to play against the searching seat.

Determinism (LOA-81): a time budget becomes an allowance of evaluated positions
(``Evaluator.nodes_per_second_at(state)`` per second: a figure fixed in the code for the board
being played, as a position costs more on a bigger board); the clock is only a safety stop at
``SAFETY_FACTOR`` times the budget, looked at every ``CLOCK_EVERY`` nodes, and ties are broken by
``self.rng``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final

from parlour.bots.search import MIN_NODES, SAFETY_FACTOR, SearchResult
from parlour.engine import CHANCE, MAX_EVAL, Action, Bot, Evaluator, OptionError, State

NODES_PER_SECOND: Final = 10_000
"""Evaluated positions per second of budget, for evaluators that give no figure of their own."""

GREEDY_NODES: Final = 4_000
"""The greedy bot's fixed allowance per decision, whatever its budget: it is a baseline."""

WIDTH: Final = 6
"""Decisions below the first that are followed further within a turn."""

CANDIDATES: Final = 64
"""The most turns the strong bot looks past the dice for."""

SCAN_COST: Final = 64
"""An answer to the dice scores its position, lists the legal actions and looks at every one for
a tactical one: that counts as one node, and each ``SCAN_COST`` actions looked at as one more.

Measured (issue 16; CPU time of 123 decisions of strong at 1 s against greedy on classic, ocean
and rivers, least squares over the kinds of work): an evaluated child 37 µs, an answer's score
and listing 25 µs, each action looked at 0.55 µs, a tactical decision tried and scored 43 µs.
A chance outcome used to count 8 nodes and the actions looked at nothing: answers with 300 to
1,000 actions and many captures made a decision of 20,000 nodes take 2.6 s, another 0.5 s."""

CLOCK_EVERY: Final = 64
"""Counted nodes between two looks at the safety clock, however many a step adds."""

ANSWER_DEPTH: Final = 2
"""Tactical decisions in a row that the seat answering the dice may make: a roll has two dice."""

WIN_SCORE: Final = 2 * MAX_EVAL


@dataclass
class _Work:
    nodes: int
    allowance: int
    deadline: float
    next_check: int = CLOCK_EVERY
    late: bool = False

    def spent(self) -> bool:
        """Whether the allowance is used up or the safety clock has run out. The clock is looked
        at once ``CLOCK_EVERY`` nodes have been counted since the last look: steps of several
        nodes (an answer's look through its actions) would jump over a fixed multiple."""
        if self.late or self.nodes >= self.allowance:
            return True
        if self.nodes >= self.next_check:
            self.next_check = self.nodes + CLOCK_EVERY
            self.late = time.perf_counter() > self.deadline
        return self.late


class RollBot(Bot):
    """The best whole turn by the evaluator, its first decision played (see the module)."""

    name = "roll"
    stops_in_a_turn = False
    """Whether the turn search stops weighing a decision's results once the work is spent; the
    greedy bot weighs them all, as it always has (the balance figures are seeded games of it)."""

    def __init__(self, evaluator: Evaluator, seed: int = 0, width: int = WIDTH,
                 nodes: int | None = GREEDY_NODES, nodes_per_second: int | None = None) -> None:
        super().__init__(seed)
        self.evaluator = evaluator
        self.width = width
        self.fixed_nodes = nodes
        self.nodes_per_second = nodes_per_second
        """A figure that overrides the evaluator's (``None``: the evaluator's for the position)."""
        self.last: SearchResult | None = None

    def allowance(self, state: State, seconds: float) -> int:
        """The nodes a decision from ``state`` may count: fixed, or the budget at the evaluator's
        speed on this position's board, so that a budget takes about as long on every board."""
        if self.fixed_nodes is not None:
            return self.fixed_nodes
        rate = self.nodes_per_second or self.evaluator.nodes_per_second_at(state) or NODES_PER_SECOND
        return max(MIN_NODES, int(seconds * rate))

    def choose(self, state: State, seconds: float) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise OptionError("the game is over: there is nothing to choose")
        started = time.perf_counter()
        if len(actions) == 1:
            self.last = SearchResult(actions[0], 0, 0, 0, 0.0, False)
            return actions[0]
        work = _Work(0, self.allowance(state, seconds), started + SAFETY_FACTOR * max(seconds, 0.05))
        turns = self.turns(state, work)
        action, score = self.pick(state, turns, work)
        self.last = SearchResult(action, score, 1, work.nodes, time.perf_counter() - started, False)
        return action

    def pick(self, state: State, turns: list[tuple[float, Action]], work: _Work) -> tuple[Action, int]:
        """The decision to play among ``turns`` (best first) and its value."""
        return turns[0][1], int(turns[0][0])

    # --- the turn search ---------------------------------------------------------------------

    def score(self, state: State, seat: int) -> float:
        """The evaluation of ``state`` for ``seat``, a finished game beyond any evaluation."""
        outcome = state.outcome()
        if outcome is not None:
            return outcome.utility(seat) * WIN_SCORE
        return float(self.evaluator.evaluate(state, seat))

    def turns(self, state: State, work: _Work) -> list[tuple[float, Action]]:
        """The root's decisions, each with the value of the best turn it begins, best first
        (ties in an order drawn from the seed)."""
        seat = state.to_move()
        actions = state.legal_actions()
        self.rng.shuffle(actions)
        scored = self._children(state, seat, actions, work, whole=True)
        results = []
        for rank, (value, action) in enumerate(scored):
            if rank < self.width and not work.spent():
                state.apply(action)
                if state.to_move() == seat and not state.is_over():
                    value = self._turn(state, seat, work)
                state.undo()
            results.append((value, action))
        results.sort(key=lambda pair: -pair[0])
        return results

    def _children(
        self, state: State, seat: int, actions: list[Action], work: _Work, whole: bool = False
    ) -> list[tuple[float, Action]]:
        """Each action with the evaluation of its result, best first: every action if ``whole``
        (the root's), else at least one and, if ``stops_in_a_turn``, no more once the work is
        spent (a roll with a thousand moves below each of several decisions took a 1 s search
        to 45,000 nodes, 1.5 s)."""
        scored: list[tuple[float, Action]] = []
        stops = self.stops_in_a_turn and not whole
        for action in actions:
            if stops and scored and work.spent():
                break
            state.apply(action)
            work.nodes += 1
            scored.append((self.score(state, seat), action))
            state.undo()
        scored.sort(key=lambda pair: -pair[0])  # stable: the shuffled order breaks ties
        return scored

    def _turn(self, state: State, seat: int, work: _Work) -> float:
        """The best value of the rest of ``seat``'s turn from ``state`` (``seat`` to decide)."""
        scored = self._children(state, seat, state.legal_actions(), work)
        best = scored[0][0]
        for value, action in scored[:self.width]:
            if work.spent():
                break
            state.apply(action)
            if state.to_move() == seat and not state.is_over():
                value = self._turn(state, seat, work)
            state.undo()
            best = max(best, value)
        return best


class ExpectimaxBot(RollBot):
    """``RollBot``'s best turns, compared by their expected value over the next roll."""

    name = "expectimax"
    stops_in_a_turn = True

    def __init__(self, evaluator: Evaluator, seed: int = 0, width: int = WIDTH, candidates: int = CANDIDATES,
                 nodes_per_second: int | None = None) -> None:
        super().__init__(evaluator, seed, width, nodes=None, nodes_per_second=nodes_per_second)
        self.candidates = candidates

    def choose(self, state: State, seconds: float) -> Action:
        if not state.game.info.chance:
            raise OptionError(f"expectimax plays games with chance, not {state.game.info.name}")
        return super().choose(state, seconds)

    def pick(self, state: State, turns: list[tuple[float, Action]], work: _Work) -> tuple[Action, int]:
        """Half the allowance went to the turns; the rest looks past the dice, best turns first.
        A candidate whose look is cut short by the allowance keeps no look-ahead value."""
        seat = state.to_move()
        work.allowance += work.allowance  # the same again for the chance nodes
        best_action, best_value = turns[0][1], -3.0 * WIN_SCORE
        for _, action in turns[:self.candidates]:
            state.apply(action)
            value = self._after(state, seat, work)
            state.undo()
            if value is None:
                break
            if value > best_value:
                best_action, best_value = action, value
        if best_value < -2 * WIN_SCORE:
            return turns[0][1], int(turns[0][0])
        return best_action, int(best_value)

    def _after(self, state: State, seat: int, work: _Work) -> float | None:
        """The value of a position reached by ``seat``'s first decision: the best rest of its
        turn by the evaluator, then the expected answer over the dice (``None``: out of work)."""
        if state.is_over():
            return self.score(state, seat)
        if state.to_move() == seat:
            line = self._best_line(state, seat, work)
            for action in line:
                state.apply(action)
            value = self._expect(state, seat, work)
            for _ in line:
                state.undo()
            return value
        return self._expect(state, seat, work)

    def _best_line(self, state: State, seat: int, work: _Work) -> list[Action]:
        """The rest of ``seat``'s turn, greedily decision by decision."""
        line: list[Action] = []
        while state.to_move() == seat and not state.is_over():
            action = self._children(state, seat, state.legal_actions(), work)[0][1]
            state.apply(action)
            line.append(action)
        for _ in line:
            state.undo()
        return line

    def _expect(self, state: State, seat: int, work: _Work) -> float | None:
        if state.is_over() or state.to_move() != CHANCE:
            return self.score(state, seat)
        total = 0.0
        for outcome, probability in state.chance_outcomes():
            if work.spent():
                return None
            state.apply(outcome)
            total += probability * self._answer(state, seat, work)
            state.undo()
        return None if work.spent() else total  # an answer cut short by the allowance

    def _answer(self, state: State, seat: int, work: _Work, depth: int = ANSWER_DEPTH) -> float:
        """The seat deciding after the dice plays its best tactical decisions (up to ``depth``
        of them in its turn), or stops: the best for ``seat`` if it is ``seat``, the worst for
        ``seat`` otherwise (paranoid)."""
        work.nodes += 1
        value = self.score(state, seat)
        if state.is_over():
            return value
        mover = state.to_move()
        if mover < 0:
            return value
        actions = state.legal_actions()
        work.nodes += len(actions) // SCAN_COST
        for action in actions:
            if not self.evaluator.is_tactical(state, action):
                continue
            if work.spent():
                break
            state.apply(action)
            work.nodes += 1
            if depth > 1 and state.to_move() == mover:
                reply = self._answer(state, seat, work, depth - 1)
            else:
                reply = self.score(state, seat)
            state.undo()
            value = max(value, reply) if mover == seat else min(value, reply)
        return value
