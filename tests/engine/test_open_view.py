"""``State.open_view()`` for every game (issue 15: a finished match's replay shows "its whole record
... public (all hands shown)"): the envelope of every view, JSON, never the seed or the record, and
for a game that hides nothing exactly a spectator's view."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from parlour.engine import CHANCE, Game, State
from parlour.games import GAMES

ENVELOPE = {"game", "seat", "seats", "options", "to_move", "outcome", "out", "content"}
FORBIDDEN_KEYS = {"record", "seed", "actions", "history"}
PLIES = 300
"""A random game is followed this far (or to its end), its open view checked at every ply."""


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(keys_in(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_in(item) for item in value))
    return set()


def check_open_view(state: State) -> None:
    view = json.loads(json.dumps(state.open_view()))  # JSON
    spectator = json.loads(json.dumps(state.view(None)))
    assert set(view) == ENVELOPE, f"open_view() has the keys {sorted(view)}"
    assert {key: value for key, value in view.items() if key != "content"} == \
        {key: value for key, value in spectator.items() if key != "content"}, "another envelope"
    assert not keys_in(view) & FORBIDDEN_KEYS, f"open_view() holds {keys_in(view) & FORBIDDEN_KEYS}"
    if state.game.info.hidden_information:
        shown = view["content"]
        assert {key: shown[key] for key in spectator["content"]} == spectator["content"], \
            "the open view must show what a spectator sees, and add to it"
    else:  # nothing hidden: the spectator's view is already the whole table
        assert view == spectator


@pytest.mark.parametrize(
    ("game", "players"),
    [pytest.param(game, players, id=f"{name}-{players}p")
     for name, game in sorted(GAMES.items())
     for players in range(game.info.min_players, game.info.max_players + 1)],
)
def test_open_view_of_every_game(game: Game[State], players: int) -> None:
    rng = random.Random(players)
    state = game.new(players=players, seed=players)
    while True:
        check_open_view(state)
        if state.is_over() or len(state.history) >= PLIES:
            break
        state.apply(state.sample_chance() if state.to_move() == CHANCE else rng.choice(state.legal_actions()))
