"""Paths against brute force: every simple path of exactly d steps is enumerated the slow way,
from the spec's words, and compared with the engine's decisions (CON-32 to CON-38, CON-42,
CON-63), canonical paths (CON-64) and parsing of any legal path (CON-64 input)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from conflict_helpers import CONFLICT, all_paths, allowed, walked

from parlour.engine import CHANCE
from parlour.games.conflict import ConflictState, decode
from parlour.games.conflict.pieces import TYPE_NAMES, TYPES


def sample_states(
    players: int, seeds: range, every: int, options: dict[str, object]
) -> Iterator[ConflictState]:
    """Decision positions of random games, a copy every ``every`` plies."""
    for seed in seeds:
        state = CONFLICT.new(players, options, seed=seed)
        rng = random.Random(seed)
        while not state.is_over() and len(state.history) < 700:
            if state.to_move() == CHANCE:
                state.play(state.sample_chance())
                continue
            if len(state.history) % every == 0:
                yield state.copy()
            state.play(rng.choice(state.legal_actions()))


def brute_decisions(
    state: ConflictState, source: int, start: int, code: int, die: int
) -> dict[int, list[list[int]]]:
    """Final square → the walked paths of every legal path of that piece and die."""
    found: dict[int, list[list[int]]] = {}
    for path in all_paths(state, start, code % TYPES, die):
        walk = walked(state, code, path)
        if allowed(state, code, walk):
            found.setdefault(walk[-1], []).append(walk)
    return found


@pytest.mark.parametrize(
    ("players", "options", "max_die"),
    [(2, {}, 4), (4, {}, 4), (3, {"airplanes_on_mines": False}, 4), (2, {}, 6)],
    ids=["2p", "4p", "3p-1940-airplanes", "2p-long-dice"],
)
def test_decisions_and_canonical_paths_match_brute_force(
    players: int, options: dict[str, object], max_die: int
) -> None:
    rng = random.Random(players * 10 + max_die)
    checked = 0
    budget = 150 if max_die <= 4 else 40
    for state in sample_states(players, range(3), 11, options):
        size = state.board.size
        by_move: dict[tuple[int, int], set[int]] = {}
        for action in state.legal_actions():
            decision = decode(action, size)
            assert decision is not None
            if decision.kind in ("move", "enter"):
                source = decision.square if decision.kind == "move" else size + decision.code
                by_move.setdefault((source, decision.die), set()).add(decision.final)
        movers = state.movers()
        for source, start, code in rng.sample(movers, min(2, len(movers))):
            for die in sorted(set(state.unused)):
                if die > max_die:
                    continue
                brute = brute_decisions(state, source, start, code, die)
                assert set(brute) == by_move.get((source, die), set()), (state.position_json(), source, die)
                for final, walks in brute.items():
                    best = min(walks, key=lambda walk: (len(walk), walk))
                    action = state.board.size  # placeholder, replaced below
                    action = next(a for a in state.legal_actions()
                                  if (d := decode(a, size)) is not None and d.final == final and d.die == die
                                  and (d.square if d.kind == "move" else size + d.code) == source)
                    assert state.path_of(action) == best
                checked += 1
        if checked >= budget:
            break
    assert checked >= budget // 2


def test_any_legal_path_parses_to_its_decision() -> None:
    # CON-64 input: the full path, or the walked path alone, names the decision.
    checked = 0
    for state in sample_states(4, range(2), 23, {}):
        size = state.board.size
        movers = state.movers()
        source, start, code = movers[len(movers) // 2]
        die = min(state.unused)
        head = (state.board.names[source] if source < size
                else f"enter {TYPE_NAMES[code % TYPES]}@{code // TYPES + 1}")
        for path in all_paths(state, start, code % TYPES, die):
            walk = walked(state, code, path)
            words = " ".join(state.board.names[s] for s in path)
            if not allowed(state, code, walk):
                continue
            action = state.parse_action(f"{head} {die}: {words}")
            decision = decode(action, size)
            assert decision is not None
            assert decision.final == walk[-1]
            if len(walk) < len(path):
                short = " ".join(state.board.names[s] for s in walk)
                assert state.parse_action(f"{head} {die}: {short}") == action
            checked += 1
        if checked > 3000:
            break
    assert checked > 500
