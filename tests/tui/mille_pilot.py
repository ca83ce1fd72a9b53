"""Helpers for the classic Mille Bornes program's tests: positions from JSON text, a scripted
Comp, and Pilot driving that waits for Comp's moves (never for a clock)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot

from parlour.bots import Bot
from parlour.engine import Action, State
from parlour.games.mille import MilleState
from parlour.games.mille.cards import EXTRA_TANK, SLOT_NAMES, parse_card
from parlour.tui.mille.app import MilleApp
from parlour.tui.mille.match import Match, available_bots, bot_seed_for, mille
from parlour.tui.mille.screen import MESSAGE_COLUMN, MESSAGE_ROW, PROMPT_COLUMN, PROMPT_ROW

FAST = 0.01
"""Comp's thinking time per decision."""


def kinds(*wanted: str) -> list[Any]:
    """``wanted`` bot kinds as test parameters, skipped where the bots do not offer them yet."""
    offered = available_bots()
    return [pytest.param(kind, marks=pytest.mark.skipif(kind not in offered, reason=f"no {kind} bot"))
            for kind in wanted]


def position(*seats: dict[str, Any], match: dict[str, Any] | None = None, seed: int = 1,
             **hand: Any) -> MilleState:
    """A position: ``seats`` as in the engine's position JSON (``cards`` fill the highest slots),
    the other keywords are keys of its ``hand`` block; what is missing is a fresh hand."""
    start: dict[str, Any] = {"hand": {"seats": list(seats) or [{}, {}], **hand}}
    if match is not None:
        start["match"] = match
    return mille().new(start=start, seed=seed)


class Scripted(Bot):
    """Comp playing given decisions in order (then the first legal one); it keeps the states it
    was shown, to check they were built from its view."""

    name = "scripted"

    def __init__(self, *decisions: str) -> None:
        super().__init__(0)
        self.decisions = list(decisions)
        self.shown: list[State] = []

    def choose(self, state: State, seconds: float) -> Action:
        self.shown.append(state)
        if self.decisions:
            return state.parse_action(self.decisions.pop(0))
        return state.legal_actions()[0]


def app_for(state: MilleState | None = None, *, seed: int = 7, bot: Bot | None = None,
            kind: str = "random", notice: str = "") -> MilleApp:
    """The program on ``state`` (a new match from ``seed`` if none), Comp the bot of ``kind`` or
    ``bot`` itself."""
    if state is None:
        match = Match.new(seed, kind, FAST)
    else:
        match = Match(state, kind, bot_seed_for(state.seed), FAST)
    if bot is not None:
        match.bot = bot
    return MilleApp(match, notice)


def app_of(match: Match, notice: str = "") -> MilleApp:
    return MilleApp(match, notice)


async def settle(pilot: Pilot[int]) -> None:
    """Waits until Comp has moved and every key typed meanwhile has been read."""
    app = mille_app(pilot)
    for _ in range(100_000):
        if not (app.busy or app.pending):
            return
        await app.workers.wait_for_complete()
        await asyncio.sleep(0)
    raise AssertionError("Comp never finished")


async def press(pilot: Pilot[int], *keys: str) -> None:
    """Types ``keys`` (Textual's key names) through the terminal driver, as ``Pilot.press``
    does, but waits for the program to have read them rather than for the process to idle."""
    app = mille_app(pilot)
    driver = app._driver
    assert driver is not None
    target = app.keys_read + len(keys)
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        driver.send_message(event)
    for _ in range(100_000):
        if app.keys_read >= target or app.finished:
            break
        await asyncio.sleep(0)
    else:
        raise AssertionError("the keys were not read")
    await settle(pilot)
    await pilot.pause()


def lines(pilot: Pilot[int]) -> list[str]:
    app = pilot.app
    assert isinstance(app, MilleApp)
    return app.lines()


def message(pilot: Pilot[int]) -> str:
    return lines(pilot)[MESSAGE_ROW][MESSAGE_COLUMN:]


def prompt(pilot: Pilot[int]) -> str:
    return lines(pilot)[PROMPT_ROW][PROMPT_COLUMN:40].rstrip()


def mille_app(pilot: Pilot[int]) -> MilleApp:
    app = pilot.app
    assert isinstance(app, MilleApp)
    return app


# Your preferences for this test's player: finish the trip, then attack, then repair.
PREFERENCE = ("200", "100", "75", "50", "25", "stop", "accident", "flat-tire", "out-of-gas",
              "speed-limit", "go", "gasoline", "spare-tire", "repairs", "end-of-limit")


def keys_for_a_decision(state: MilleState) -> list[str]:
    """The keys a person would type for a sensible decision, from seat 0's view only."""
    view = state.view(0)
    legal = view["content"]["private"]["legal"]
    slots = view["content"]["private"]["slots"]
    if "draw" in legal:
        return ["p"]
    safeties = [text for text in legal if text.startswith("coup ")
                or (text.startswith("play ") and parse_card(text[5:]) >= EXTRA_TANK)]
    plays = [text[5:] for text in legal if text.startswith("play ")]
    for card in [text.split()[1] for text in safeties] + [c for c in PREFERENCE if c in plays]:
        return ["u", SLOT_NAMES[slots.index(card)], "enter"]
    discards = [text[8:] for text in legal if text.startswith("discard ")]
    slot = slots.index(discards[0])
    return ["D", SLOT_NAMES[slot].lower(), "space"]  # the other spellings of the keys


async def play_until_asked(pilot: Pilot[int], limit: int = 400) -> str:
    """Answers `>>:Move:` with sensible keys until another question comes; returns it."""
    app = mille_app(pilot)
    for _ in range(limit):
        asked = prompt(pilot)
        if not asked.startswith(">>:Move:"):
            return asked
        before = len(app.state.history)
        bells = app.bells
        await press(pilot, *keys_for_a_decision(app.state))
        assert app.bells == bells, message(pilot)
        assert len(app.state.history) > before
    raise AssertionError("the hand did not end")
