"""perft: the number of distinct action sequences of a given length, the move generator's exact count.

Generic over the engine contract: it walks the tree with ``apply``/``undo`` (make/unmake, no
copies) and counts the last ply in bulk (the length of the action list). A finished game is not
extended. A chance decision counts each of its outcomes as a branch, like any other decision.
"""

from __future__ import annotations

from parlour.engine.game import CHANCE, Action, State


def branches(state: State) -> list[Action]:
    """The actions that continue ``state``: its legal actions, or the outcomes of a chance node."""
    if state.to_move() == CHANCE:
        return [action for action, _ in state.chance_outcomes()]
    return state.legal_actions()


def perft(state: State, depth: int) -> int:
    """The number of action sequences of length ``depth`` from ``state`` (left unchanged)."""
    if depth < 0:
        raise ValueError(f"perft depth must be at least 0, not {depth}")
    if depth == 0:
        return 1
    actions = branches(state)
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        state.apply(action)
        try:
            total += perft(state, depth - 1)
        finally:
            state.undo()
    return total


def divide(state: State, depth: int) -> list[tuple[Action, int]]:
    """perft split by first action (``depth`` ≥ 1), to find where two move generators differ."""
    if depth < 1:
        raise ValueError(f"divide needs a depth of at least 1, not {depth}")
    counts: list[tuple[Action, int]] = []
    for action in branches(state):
        state.apply(action)
        try:
            counts.append((action, perft(state, depth - 1)))
        finally:
            state.undo()
    return counts
