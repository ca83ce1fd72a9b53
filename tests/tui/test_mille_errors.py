"""Every error the classic program shows (MIL-65, MIL-26 to MIL-31, MIL-87 to MIL-89): typed
through the keys, written on the message line (row 15 from column 45) with the bell, and
changing nothing.

Two messages of MIL-65 cannot be reached through the keys and are tested in tests/mille:
``no coup fourre`` (``U`` on a safety is a coup fourré exactly when it can be one, MIL-88) and
``not now`` (the extension is a question, not a command, MIL-94).
"""

from __future__ import annotations

from typing import Any

import pytest
from mille_pilot import app_for, message, position, press, prompt

pytestmark = pytest.mark.asyncio(loop_scope="session")

HAND = ["25", "50", "75", "100", "go", "stop", "extra-tank"]
"""Your seven cards: P 25, 1 50, 2 75, 3 100, 4 Go, 5 Stop, 6 Extra Tank."""
COMP = {"cards": ["25", "50", "75", "100", "go", "repairs"]}
ROLLING: dict[str, Any] = {"battle": "go", "battle_pile": ["go"]}


def you(cards: list[str] = HAND, **table: Any) -> dict[str, Any]:
    return {"cards": cards, **table}


CASES: list[tuple[str, dict[str, Any], list[str], str]] = [
    # (rule, position, keys, message)
    ("MIL-35", {"seats": [you(HAND[1:]), COMP]}, ["u", "1", "enter"], "must pick first"),
    ("MIL-23", {"seats": [you(HAND[1:]), COMP]}, ["d", "2", "space"], "must pick first"),
    ("MIL-88", {"seats": [you(HAND[1:]), COMP]}, ["u", "p", "enter"], "must pick first"),
    ("MIL-88", {"seats": [you(HAND[2:]), COMP], "pile": 0}, ["u", "1", "enter"], "no card there"),
    ("MIL-21", {"seats": [you(), COMP], "drawn": True}, ["p"], "already picked"),
    ("MIL-21", {"seats": [you(), COMP], "pile": 0}, ["P"], "no more cards"),
    ("MIL-23", {"seats": [you(), COMP], "drawn": True}, ["d", "6", "enter"], "discard a safety?"),
    ("MIL-26.1", {"seats": [you(["200", *HAND[1:]], miles={"200": 2}, **ROLLING), COMP], "drawn": True},
     ["u", "p", "enter"], "only two 200's per hand"),
    ("MIL-26.2", {"seats": [you(speed="speed-limit", **ROLLING), COMP], "drawn": True},
     ["u", "2", "enter"], "limit of 50"),
    ("MIL-26.3", {"seats": [you(miles={"100": 4, "200": 1, "50": 1}, **ROLLING), COMP], "drawn": True},
     ["u", "2", "enter"], "puts you over 700"),
    ("MIL-26.3", {"seats": [you(["200", *HAND[1:]], miles={"100": 8, "50": 1}, **ROLLING), COMP],
                  "drawn": True, "goal": 1000}, ["u", "0", "enter"], "puts you over 1000"),
    ("MIL-26.4", {"seats": [you(), COMP], "drawn": True}, ["u", "p", "enter"], "cannot move now"),
    ("MIL-27", {"seats": [you(["gasoline", *HAND[1:]], battle="flat-tire"), COMP], "drawn": True},
     ["u", "p", "enter"], 'can\'t play "Gasoline"'),
    ("MIL-28", {"seats": [you(battle="out-of-gas"), COMP], "drawn": True},
     ["u", "4", "enter"], 'cannot play "Go" on a "Out of Gas"'),
    ("MIL-29", {"seats": [you(["end-of-limit", *HAND[1:]]), COMP], "drawn": True},
     ["u", "p", "enter"], "not limited"),
    ("MIL-30.1", {"seats": [you(), COMP], "drawn": True}, ["u", "5", "enter"], "opponent cannot go"),
    ("MIL-30.2", {"seats": [you(), {**COMP, "safeties": ["right-of-way"]}], "drawn": True},
     ["u", "5", "enter"], "opponent is protected"),
    ("MIL-31.1", {"seats": [you(["speed-limit", *HAND[1:]]), {**COMP, "speed": "speed-limit"}],
                  "drawn": True}, ["u", "p", "enter"], "opponent has limit"),
    ("MIL-87", {"seats": [you(), COMP]}, ["e"], "E: command not implemented"),
    ("MIL-87", {"seats": [you(), COMP]}, ["x"], "unknown command: x"),
    ("MIL-87", {"seats": [you(), COMP]}, ["0"], "unknown command: 0"),
    ("MIL-87", {"seats": [you(), COMP]}, ["ctrl+t"], "unknown command: ^T"),
    ("MIL-87", {"seats": [you(), COMP]}, ["tab"], "unknown command: ^I"),
    ("MIL-87", {"seats": [you(), COMP]}, ["escape"], "unknown command: ^["),
]


@pytest.mark.parametrize(("rule", "hand", "keys", "expected"), CASES,
                         ids=[f"{rule}:{expected}" for rule, _, _, expected in CASES])
async def test_error_message(rule: str, hand: dict[str, Any], keys: list[str], expected: str) -> None:
    rest = dict(hand)
    state = position(*rest.pop("seats"), **rest)
    before = state.position_json()
    app = app_for(state)
    async with app.run_test() as pilot:
        await press(pilot, *keys)
        assert message(pilot) == expected
        assert app.bells == 1
        assert state.position_json() == before
        assert prompt(pilot) == ">>:Move:"  # the command is gone; the prompt comes back empty


async def test_a_message_stays_until_replaced_and_is_cut_at_column_79() -> None:
    """MIL-89, D-15."""
    app = app_for(position(you(), COMP))
    async with app.run_test() as pilot:
        await press(pilot, "x", "w", "r")
        assert message(pilot) == "unknown command: x"
        await press(pilot, "e")
        assert message(pilot) == "E: command not implemented"
        app.error("m" * 60)
        app.redraw()
        assert message(pilot) == "m" * 35
        assert app.bells == 3
