"""What the generic searches share: their result, the stop signal, win scores, table keys, and
the iterative-deepening driver of the alpha-beta searches (``DeepeningBot``).

Every search turns its time budget into a node allowance fixed in the code, so that the same
position, seed and budget give the same action on any machine (LOA-81); the clock is only a
safety stop at ``SAFETY_FACTOR`` times the budget.
"""

from __future__ import annotations

import random
import time
from abc import abstractmethod
from dataclasses import dataclass
from typing import Final

from parlour.engine import Action, Bot, Evaluator, OptionError, State

SAFETY_FACTOR: Final = 4.0
"""The clock stops a search that has taken this many times its budget (an overloaded machine)."""

MIN_NODES: Final = 64
"""Even a tiny budget gets this much search: enough to see a win in one."""

WIN: Final = 1_000_000
"""A win at ``ply`` plies from the root scores ``WIN - ply``: sooner wins score higher."""

MAX_PLY: Final = 128
INFINITY: Final = WIN + 1
SOLVED: Final = 1 << 20
"""The depth stored for a result that no horizon limited: valid for any search depth."""
CLOCK_EVERY: Final = 256
TABLE_LIMIT: Final = 2_000_000
MASK64: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15

EXACT, LOWER, UPPER = 0, 1, 2

TableEntry = tuple[int, int, int, Action | None]
"""A transposition table entry: depth, bound, value, best action."""

_ply_keys = random.Random(0xAB)
PLY_KEYS: Final = [_ply_keys.getrandbits(64) for _ in range(MAX_PLY + 2)]
"""Mixed into the table's key: the same position at another distance from the root may be nearer
the move limit and has win scores counted from another ply."""


class OutOfTime(Exception):
    """The node allowance (or the safety clock) ran out in the middle of an iteration."""


@dataclass(frozen=True)
class SearchResult:
    """What a search found and what it cost."""

    action: Action
    score: int
    depth: int
    nodes: int
    seconds: float
    solved: bool

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class DeepeningBot(Bot):
    """What the alpha-beta searches share: iterative deepening over a node allowance, the node
    count and safety clock, jittered leaf evaluations, the transposition table and the order of
    first moves (the table's move, then killer moves). A search supplies ``check`` (which games
    it plays) and ``_root`` (one iteration at the root), and may extend ``_begin``."""

    name = "deepening"

    def __init__(self, evaluator: Evaluator, seed: int, nodes_per_second: int, safety_factor: float,
                 max_depth: int, noise_bits: int) -> None:
        super().__init__(seed)
        self.evaluator = evaluator
        self.nodes_per_second = nodes_per_second
        self.safety_factor = safety_factor
        self.max_depth = min(max_depth, MAX_PLY)
        self.noise_shift = 64 - noise_bits
        """Leaf evaluations get a jitter of 0 to 2**noise_bits - 1 units drawn from the seed and
        the position, so that different seeds play different games."""
        self.last: SearchResult | None = None
        self._state: State | None = None
        self._salt = 0
        self._table: dict[int, TableEntry] = {}
        self._killers: list[list[Action | None]] = []
        self._nodes = 0
        self._allowance = 0
        self._deadline = 0.0
        self._horizons = 0

    @abstractmethod
    def check(self, state: State) -> None:
        """Raises ``OptionError`` for a game this search cannot play."""

    @abstractmethod
    def _root(self, actions: list[Action], depth: int, previous: Action) -> tuple[Action, int]:
        """One iteration at the root (``previous``: the last iteration's best, searched first);
        raises ``OutOfTime(best, score)`` when it stops after a fully searched better action."""

    def choose(self, state: State, seconds: float) -> Action:
        nodes = max(MIN_NODES, int(seconds * self.nodes_per_second))
        return self.search(state, nodes, self.safety_factor * seconds).action

    def search(self, state: State, nodes: int, seconds: float | None = None) -> SearchResult:
        """Searches ``state`` with at most ``nodes`` nodes (and ``seconds`` of clock, if given).

        ``state`` is searched in place and left exactly as it was.
        """
        self.check(state)
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

    def _begin(self, state: State, nodes: int, started: float, seconds: float | None) -> None:
        self._state = state
        self._table = {}
        self._killers = [[None, None] for _ in range(MAX_PLY + 2)]
        self._nodes = 0
        self._allowance = nodes
        self._deadline = started + seconds if seconds is not None else float("inf")
        self._horizons = 0

    def _count_node(self) -> None:
        """One more node: ``OutOfTime`` when the allowance (or the safety clock) is spent."""
        self._nodes = nodes = self._nodes + 1
        if nodes >= self._allowance:
            raise OutOfTime
        if nodes % CLOCK_EVERY == 0 and time.perf_counter() > self._deadline:
            raise OutOfTime

    def _leaf(self, state: State, seat: int) -> int:
        """The evaluation at the horizon for ``seat``, with the seed's jitter."""
        self._horizons += 1
        jitter = ((state.position_key() ^ self._salt) * GOLDEN & MASK64) >> self.noise_shift
        return self.evaluator.evaluate(state, seat) + jitter

    def _probe(self, key: int, depth: int, alpha: int, beta: int) -> tuple[int | None, Action | None]:
        """The table's value if it settles the node at ``depth`` within (alpha, beta), and its move."""
        entry = self._table.get(key)
        if entry is None:
            return None, None
        stored_depth, bound, stored, hint = entry
        if stored_depth >= depth and (
            bound == EXACT or (bound == LOWER and stored >= beta) or (bound == UPPER and stored <= alpha)
        ):
            if stored_depth < SOLVED:
                self._horizons += 1
            return stored, hint
        return None, hint

    def _store(self, key: int, depth: int, horizons: int, bound: int, value: int,
               action: Action | None) -> None:
        """Keeps a node's result; ``horizons``: the horizon count when the node began (none since
        means the result holds at any depth)."""
        stored_depth = SOLVED if self._horizons == horizons else depth
        if len(self._table) >= TABLE_LIMIT:  # a very long search: start afresh rather than swap
            self._table.clear()
        self._table[key] = (stored_depth, bound, value, action)

    def _first(self, actions: list[Action], ply: int, hint: Action | None) -> list[Action]:
        """``actions`` with the killer moves of ``ply`` and then the table's move put first."""
        for first in (*self._killers[ply][::-1], hint):
            if first is not None and first in actions:
                actions.remove(first)
                actions.insert(0, first)
        return actions
