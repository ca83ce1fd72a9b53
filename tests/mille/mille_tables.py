"""Mille Bornes test helpers: positions from their JSON text form, decisions as text."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour.engine import CHANCE, IllegalActionError
from parlour.games import get_game
from parlour.games.mille import Mille, MilleState, Refusal

MILLE: Mille = get_game("mille")  # type: ignore[assignment]


def table(*seats: dict[str, Any], match: dict[str, Any] | None = None, **hand: Any) -> MilleState:
    """A position: ``seats`` as in the position JSON (``cards`` fill the highest slots), the
    other keyword arguments are keys of its ``hand`` block; missing keys give a fresh hand."""
    start: dict[str, Any] = {"hand": {"seats": list(seats) or [{}, {}], **hand}}
    if match is not None:
        start["match"] = match
    return MILLE.new(start=start, seed=1)


def legal(state: MilleState) -> list[str]:
    return [state.action_to_text(action) for action in state.legal_actions()]


def refused(state: MilleState, text: str) -> str:
    """The BSD program's message of an illegal decision (MIL-65), which the refusal carries beside
    parlour's words (``tests/mille/test_illegal_reasons.py`` checks those); the state must not
    change."""
    before = state.position_json()
    with pytest.raises(IllegalActionError) as caught:
        state.play_text(text)
    assert state.position_json() == before
    return caught.value.bsd if isinstance(caught.value, Refusal) else str(caught.value)


def do(state: MilleState, *texts: str) -> MilleState:
    for text in texts:
        state.play_text(text)
    return state


def resolve(state: MilleState) -> MilleState:
    """Deals or draws (the top of the pile) until a seat must decide."""
    while state.to_move() == CHANCE:
        state.apply(state.sample_chance())
    return state


def slots(state: MilleState, seat: int = 0) -> list[str | None]:
    return state.view(seat)["content"]["private"]["slots"]


def public(state: MilleState, seat: int) -> dict[str, Any]:
    return state.view(None)["content"]["hand"]["seats"][seat]


def step(state: MilleState, rng: random.Random) -> None:
    """One random ply: a seat's random legal decision, or the pile's top card."""
    state.apply(state.sample_chance() if state.to_move() == CHANCE else rng.choice(state.legal_actions()))
