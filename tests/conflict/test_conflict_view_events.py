"""The Conflict view carries the last action's events as data and the map it is played on, the same
for every seat and the spectator (CON-66, CON-67 item 2), as plain JSON; it never holds the seed,
the record or anything else that grows with the match."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conflict_helpers import CONFLICT, CORRIDOR, do, position

from parlour.engine import CHANCE
from parlour.games.conflict import ConflictState
from parlour.games.conflict.maps import load_map


def views(state: ConflictState) -> list[dict[str, Any]]:
    """Every seat's view and the spectator's, checked to be JSON and alike but for the seat they
    are for (CON-66), threat warnings (issue 16) included while the game goes on; their contents."""
    seats = [*range(state.players), None]
    seen = [state.view(seat) for seat in seats]
    for seat, view in zip(seats, seen, strict=True):
        assert json.loads(json.dumps(view)) == view
        assert view["seat"] == seat
        assert view | {"seat": None} == seen[-1]
        assert ("threats" in view["content"]) == (not state.is_over())
    return [view["content"] for view in seen]


def event_data(state: ConflictState) -> list[dict[str, Any]]:
    content = views(state)[-1]
    assert len(content["event_data"]) == len(content["events"])
    data: list[dict[str, Any]] = content["event_data"]
    return data


def test_a_capture_and_a_takeover_are_events_of_every_view() -> None:
    # CON-40, CON-45
    state = position("pieces 2C p5 1S k5 1S l8 3S j13\navailable 3 -\nreserve 3 -\nturn 1", players=3)
    do(state, "roll 5-2")
    assert event_data(state) == [{"kind": "roll", "seat": 1, "dice": [2, 5]}]
    do(state, "k5 5: l5 m5 n5 o5 p5")
    assert event_data(state) == [
        {"kind": "move", "seat": 1, "piece": "1S", "from": "k5", "to": "p5", "die": 5},
        {"kind": "capture", "seat": 1, "piece": "2C", "square": "p5"},
        {"kind": "takeover", "seat": 1, "taken": 2, "owner": 1, "base": "p5"},
        {"kind": "out", "seat": 2, "reason": "taken over"},
    ]


def test_a_mine_explosion_is_an_event_of_every_view() -> None:
    # CON-42: the airplane and the gun resting on orange's mine r3 are both destroyed; the roll
    # goes on (the cannon can use the 1).
    state = position("pieces 2G r3 1A o3 1C a1\navailable 1 -\nreserve 1 -\ndice 3-1", players=2)
    do(state, "o3 3: p2 q2 r3")
    assert event_data(state) == [
        {"kind": "move", "seat": 1, "piece": "1A", "from": "o3", "to": "r3", "die": 3},
        {"kind": "mine", "seat": 1, "piece": "1A", "square": "r3", "mine": 2},
        {"kind": "mine", "seat": 1, "piece": "2G", "square": "r3", "mine": 2},
    ]
    assert state.view(None)["content"]["position"]["pieces"] == ["1C a1"]


def test_an_entry_and_the_end_of_a_roll_as_data() -> None:
    state = CONFLICT.new(2, seed=1)
    do(state, "roll 1-2")
    do(state, "enter ship 1: f5")
    assert event_data(state) == [
        {"kind": "move", "seat": 1, "piece": "1S", "from": None, "to": "f5", "die": 1},
    ]
    do(state, "end")
    assert event_data(state) == [{"kind": "end", "seat": 1, "automatic": False, "unused": [2]}]


def test_the_view_carries_the_map() -> None:
    # CON-10, CON-15: the map a front end draws is the one the engine plays on, named or given.
    standard = views(CONFLICT.new(2))[0]["board"]
    parlour = load_map("parlour-20")
    assert standard["name"] == "parlour-20"
    assert (standard["cols"], standard["rows"]) == (20, 20)
    glyphs = "".join(".~#+"[terrain] for terrain in parlour.terrain)
    assert "".join(standard["terrain"]) == glyphs
    assert standard["bases"] == {"1": "e5", "2": "p5", "3": "e16", "4": "p16"}
    assert standard["mines"]["c3"] == 1
    assert standard["mines"]["n14"] == 4
    assert len(standard["mines"]) == 8
    assert standard["warnings"] == []
    custom = views(CONFLICT.new(2, {"board": CORRIDOR}))[0]["board"]
    warnings = load_map(CORRIDOR).warnings  # CON-13: the corridor's land routes cross mines
    assert warnings
    assert all("CON-13 item 1" in warning for warning in warnings)
    assert custom == {
        "name": "corridor", "cols": 7, "rows": 5,
        "terrain": [".......", ".+~~~+.", ".~####.", ".~#####", ".+~~~+."],
        "bases": {"1": "b2", "2": "f2", "3": "b5", "4": "f5"},
        "mines": {"a1": 1, "a3": 1, "g1": 2, "g3": 2, "a4": 3, "a5": 3, "g5": 4, "e5": 4},
        "warnings": list(warnings),
    }


# --- what a view never holds -------------------------------------------------------------------------

SECRET_SEED = 7_316_905_284_117
"""The seed of the match under test: it must appear in no view."""


def keys_of(data: Any) -> set[str]:
    """Every key of every object in a JSON value."""
    if isinstance(data, dict):
        return set(data).union(*(keys_of(value) for value in data.values()))
    if isinstance(data, list):
        return set().union(*(keys_of(value) for value in data))
    return set()


def test_no_view_tells_the_seed_or_the_record() -> None:
    # CON-61: the dice come from the engine's seeded source, and only the server rolls. Two
    # matches with different seeds but the same actions must look the same to every seat and
    # to a spectator: otherwise a view would tell something the next roll follows from.
    state = CONFLICT.new(2, seed=SECRET_SEED)
    twin = CONFLICT.new(2, seed=11)
    rng = random.Random(1)
    different_rolls = 0
    while not state.is_over() and len(state.history) < 400:
        if state.to_move() == CHANCE:
            action = state.sample_chance()
            different_rolls += action != twin.sample_chance()
        else:
            action = rng.choice(state.legal_actions())
        state.play(action)
        twin.play(action)
        for seat in (0, 1, None):
            view = state.view(seat)
            assert view == twin.view(seat)
            assert str(SECRET_SEED) not in json.dumps(view)
            assert not keys_of(view) & {"seed", "record", "history", "actions", "log"}
    assert different_rolls > 50  # the two seeds do roll differently
    assert len(state.history) == 400


@pytest.mark.parametrize(("players", "seed", "choices"), [(3, 8, 8), (2, SECRET_SEED, 4)])
def test_a_view_is_the_position_and_the_last_action_only(players: int, seed: int, choices: int) -> None:
    # Nothing in a view grows with the actions played: a state started from the view's
    # position alone (no history, another seed) shows the same view but for the last action's
    # events. The first game is cut at 400 actions, the second ends (CON-55) at 120.
    state = CONFLICT.new(players, seed=seed)
    rng = random.Random(choices)
    while not state.is_over() and len(state.history) < 400:
        action = state.sample_chance() if state.to_move() == CHANCE else rng.choice(state.legal_actions())
        state.play(action)
        view = state.view(None)
        fresh = CONFLICT.sample_state(view, random.Random(len(state.history))).view(None)
        assert fresh["content"]["events"] == []
        assert fresh["content"]["event_data"] == []
        quiet: dict[str, Any] = {"events": [], "event_data": []}
        assert fresh == view | {"content": view["content"] | quiet}
        assert 0 < len(view["content"]["events"]) <= 12
    assert len(state.history) == 400 or view["outcome"] is not None
