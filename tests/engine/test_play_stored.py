"""Stored actions are replayed without listing the legal ones again (``play_stored``: replays "cost
far more CPU than needed" when every stored action was checked once more), and reach exactly the
state the checked path reaches: the same history, whose move it is, outcome, every seat's view
and the open one, at every ply, in every game, leaving actions and Mille's slot hints included."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from parlour.engine import CHANCE, RESIGNED, Action, State, retirement
from parlour.engine.game import draw_chance
from parlour.games import get_game
from parlour.games.mille import MilleState
from parlour.games.mille.actions import hinted, split_hint

PLIES = 400
"""Plies of each game played (a game over sooner is played to its end)."""


def seen(state: State) -> dict[str, Any]:
    """Everything anyone could see of ``state``, and what the server stores of it."""
    return {"history": list(state.history), "to_move": state.to_move_json(),
            "outcome": state.outcome_json(), "out": state.seats_out(), "open": state.open_view(),
            "views": [state.view(seat) for seat in [*range(state.players), None]]}


def recorded(game: str, players: int, seed: int, leave_at: int | None) -> list[Action]:
    """A random match's actions (chance drawn by its odds), seat 0 resigning at ply ``leave_at``."""
    rng = random.Random(seed)
    state = get_game(game).new(players, {}, seed)
    while not state.is_over() and len(state.history) < PLIES:
        if len(state.history) == leave_at:
            state.leave(retirement(0, RESIGNED))
        elif state.to_move() == CHANCE:
            state.apply(draw_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return list(state.history)


def same_at_every_ply(game: str, players: int, actions: list[Action],
                      checked: Callable[[State, Action], None]) -> None:
    fast, slow = get_game(game).new(players, {}, 7), get_game(game).new(players, {}, 7)
    for ply, action in enumerate(actions, start=1):
        fast.play_stored(action)
        checked(slow, action)
        assert seen(fast) == seen(slow), f"{game}: the states part at ply {ply}"


@pytest.mark.parametrize(("game", "players", "leave_at"), [
    ("tictactoe", 2, None), ("loa", 2, None), ("biloba", 2, 12), ("mille", 2, None),
    ("conflict", 2, None), ("conflict", 3, 40), ("biloba", 4, 20),
])
def test_stored_actions_replay_to_the_same_state_as_checked_ones(
    game: str, players: int, leave_at: int | None
) -> None:
    actions = recorded(game, players, 7, leave_at)
    assert len(actions) > 8
    same_at_every_ply(game, players, actions, State.play_recorded)


def test_mille_s_slot_hints_replay_as_play_hinted_places_them() -> None:
    """A record's hinted plays (``play go @5``): applied as ``MilleState.play_hinted`` checks and
    applies them, the cards leaving from the slots named."""
    rng = random.Random(3)
    state = get_game("mille").new(2, {}, 7)
    assert isinstance(state, MilleState)
    hints = 0
    while not state.is_over() and len(state.history) < PLIES:
        if state.to_move() == CHANCE:
            state.apply(draw_chance(state, rng))
            continue
        action = rng.choice(state.legal_actions())
        slots = [slot for slot in range(7) if state._hint_fits(action, slot)]
        if slots:
            action, hints = hinted(action, rng.choice(slots)), hints + 1
        state.play_hinted(action)
    assert hints > 20
    assert sum(split_hint(action)[1] is not None for action in state.history) == hints

    def checked(slow: State, action: Action) -> None:
        if action < 0:
            slow.play_recorded(action)
        else:
            assert isinstance(slow, MilleState)
            slow.play_hinted(action)

    same_at_every_ply("mille", 2, list(state.history), checked)
