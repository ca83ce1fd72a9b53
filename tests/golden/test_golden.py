"""Golden playthroughs: for every game and player count, one fixed seeded game whose every view, per
seat and for a spectator, is checked in as JSON. Any change in what a seat sees shows as a diff in
review (issue 12, Guardrails).

Each game plays random legal actions drawn from ``random.Random(SEED)``, chance from the match
seed, for at most ``ACTIONS`` actions. Each file holds the views before the first action and after
every action, one view a line so a review diff points at the view that changed.

After an intended change of what views hold, regenerate the files and read their diff::

    PARLOUR_UPDATE_GOLDEN=1 .venv/bin/pytest tests/golden
"""

from __future__ import annotations

import difflib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from parlour.engine import CHANCE, Game, State
from parlour.games import GAMES

HERE = Path(__file__).parent
SEED = 12
ACTIONS = 40
UPDATE = os.environ.get("PARLOUR_UPDATE_GOLDEN") == "1"


def cases() -> list[Any]:
    return [
        pytest.param(game, players, id=f"{name}-{players}p")
        for name, game in sorted(GAMES.items())
        for players in range(game.info.min_players, game.info.max_players + 1)
    ]


def golden_path(game: Game[State], players: int) -> Path:
    return HERE / f"{game.info.name}-{players}p.json"


def views(state: State) -> dict[str, Any]:
    """Every seat's view and the spectator's, as they would go out (JSON, so tuples are lists)."""
    seats: list[int | None] = [*range(state.players), None]
    return {
        "spectator" if seat is None else str(seat): json.loads(json.dumps(state.view(seat))) for seat in seats
    }


def playthrough(game: Game[State], players: int) -> dict[str, Any]:
    """The fixed game: each step the action taken (``None`` before the first) and the views after it."""
    state = game.new(players=players, seed=SEED)
    rng = random.Random(SEED)
    steps: list[dict[str, Any]] = [{"ply": 0, "action": None, "views": views(state)}]
    while not state.is_over() and len(state.history) < ACTIONS:
        action = state.sample_chance() if state.to_move() == CHANCE else rng.choice(state.legal_actions())
        text = state.action_to_text(action)
        state.play(action)
        steps.append({"ply": len(state.history), "action": text, "views": views(state)})
    return {"game": game.info.name, "players": players, "seed": SEED, "steps": steps}


def dump(data: dict[str, Any]) -> str:
    """JSON with one view a line: small files whose diffs name the step and seat that changed."""

    def line(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)

    steps = []
    for step in data["steps"]:
        seats = ",\n".join(f"    {line(seat)}: {line(view)}" for seat, view in step["views"].items())
        head = f'"ply": {step["ply"]}, "action": {line(step["action"])}'
        steps.append(f'  {{{head}, "views": {{\n{seats}\n  }}}}')
    head = ", ".join(f"{line(key)}: {line(data[key])}" for key in ("game", "players", "seed"))
    return f"{{{head}, \"steps\": [\n" + ",\n".join(steps) + "\n]}\n"


def first_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str:
    """Where the playthrough first differs from the file, with a diff of that view."""
    pairs = zip(expected["steps"], actual["steps"], strict=False)
    for want, got in pairs:
        where = f"after ply {got['ply']} ({got['action'] or 'the start'})"
        if want["action"] != got["action"]:
            return f"{where}: the action was {want['action']!r}, now {got['action']!r}"
        for seat in sorted(set(want["views"]) | set(got["views"])):
            old, new = want["views"].get(seat), got["views"].get(seat)
            if old != new:
                diff = difflib.unified_diff(
                    json.dumps(old, indent=1, sort_keys=True).splitlines(),
                    json.dumps(new, indent=1, sort_keys=True).splitlines(),
                    "golden", "now", lineterm="", n=2,
                )
                return f"{where}, the view of seat {seat}:\n" + "\n".join(diff)
    return f"the game has {len(actual['steps'])} steps, the file {len(expected['steps'])}"


@pytest.mark.parametrize(("game", "players"), cases())
def test_every_view_matches_the_golden_playthrough(game: Game[State], players: int) -> None:
    path = golden_path(game, players)
    actual = playthrough(game, players)
    if UPDATE:
        path.write_text(dump(actual), encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path.name}: run PARLOUR_UPDATE_GOLDEN=1 pytest tests/golden"
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert expected == actual, (
        f"{path.name} differs {first_difference(expected, actual)}\n"
        "If the change is intended: PARLOUR_UPDATE_GOLDEN=1 pytest tests/golden, and review the diff."
    )


def test_the_file_format_reads_back() -> None:
    """The one-view-a-line writer gives JSON that reads back to the same data."""
    data = playthrough(GAMES["loa"], 2)
    assert json.loads(dump(data)) == data
    assert len(data["steps"]) == ACTIONS + 1  # 40 plies of LOA never end a game (LOA-13)


def test_a_changed_view_is_named_with_its_diff() -> None:
    """A reviewer reading a failure learns the step, the seat and the changed field."""
    data = playthrough(GAMES["loa"], 2)
    changed = json.loads(json.dumps(data))
    changed["steps"][3]["views"]["1"]["content"]["last_move"] = "a1-a2"
    message = first_difference(changed, data)
    assert message.startswith("after ply 3")
    assert "seat 1" in message
    assert '-  "last_move": "a1-a2"' in message
