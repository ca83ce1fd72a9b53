"""The contract of a refusal (issue 18: "an illegal action says why, from the engine"), for every
registered game: ``State.play`` refuses any action the rules forbid with an ``IllegalActionError``
whose ``reason`` is words and whose text names the action, and changes nothing; the reason is
worked out only on the refusal path — never by ``is_legal``, the legal list, ``legal_json``,
``apply`` or ``undo``, the searches' and the server's hot path. A refusal pickles whole."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from parlour.engine import ABANDON, CHANCE, Action, Game, IllegalActionError, State
from parlour.engine.game import draw_chance
from parlour.games import GAMES

PLIES = 60
EVERY = 7
"""Refusals are tried at every this many plies of a seeded random game."""


def cases() -> list[Any]:
    return [pytest.param(game, id=name) for name, game in sorted(GAMES.items())]


def illegal_here(state: State, seen: list[Action], rng: random.Random) -> list[Action]:
    """A few actions the rules forbid here: once legal earlier in the game, and numbers of no action."""
    earlier = [action for action in set(seen) if not state.is_legal(action)]
    picked = rng.sample(sorted(earlier), min(4, len(earlier)))
    return [*picked, -987_654, 10**12]


def check_refusal(state: State, action: Action) -> None:
    before = (state.history.copy(), state.position_key(), state.to_move(), state.legal_actions())
    with pytest.raises(IllegalActionError) as refused:
        state.play(action)
    error = refused.value
    assert error.reason.strip(), action
    assert not error.reason.lower().startswith("illegal"), error.reason  # words, not just "illegal"
    if state.is_over():
        assert error.reason.startswith("the game is over"), error.reason
        assert str(error) == error.reason
    else:
        assert error.action, action
        assert str(error) == f"{error.action}: {error.reason}"
    assert (state.history, state.position_key(), state.to_move(), state.legal_actions()) == before
    again = pickle.loads(pickle.dumps(error))  # whole across processes (a bot's worker)
    assert (type(again), str(again), again.reason, again.action) == (type(error), str(error), error.reason,
                                                                      error.action)
    assert vars(again) == vars(error)  # a game's own parts too (Mille's BSD message)


def playout(
    game: Game[State], seed: int, monkeypatch: pytest.MonkeyPatch
) -> list[tuple[State, list[Action]]]:
    """A seeded random game with ``illegal_reason`` forbidden: copies of every EVERY-th position and
    the actions legal so far."""
    state = game.new(seed=seed)

    def forbidden(self: State, action: Action) -> str:
        raise AssertionError("illegal_reason was asked outside a refusal")

    rng = random.Random(seed)
    kept: list[tuple[State, list[Action]]] = []
    seen: list[Action] = []
    with monkeypatch.context() as patch:
        patch.setattr(type(state), "illegal_reason", forbidden)
        for ply in range(PLIES):
            if state.is_over():
                break
            legal = state.legal_actions()
            seen.extend(legal)
            state.legal_json()
            assert all(state.is_legal(action) for action in legal)
            if ply % EVERY == 0:
                kept.append((state.copy(), seen.copy()))
            state.play(draw_chance(state, rng) if state.to_move() == CHANCE else rng.choice(legal))
        state.undo()  # unmake too asks nothing of the refusal path
        kept.append((state.copy(), seen.copy()))
    return kept


@pytest.mark.parametrize("game", cases())
def test_every_refusal_says_why_and_changes_nothing(
    game: Game[State], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(18)
    for state, seen in playout(game, 18, monkeypatch):
        for action in illegal_here(state, seen, rng):
            check_refusal(state, action)


@pytest.mark.parametrize("game", cases())
def test_a_finished_game_says_how_it_ended(game: Game[State]) -> None:
    """Once the game is over nothing is legal, and the refusal says how it ended."""
    state = game.new()
    state.abandon()
    with pytest.raises(IllegalActionError) as refused:
        state.play(0)
    words = game.info.reason_words(state.outcome().reason)  # type: ignore[union-attr]
    assert str(refused.value) == f"the game is over ({words})"


@pytest.mark.parametrize("game", cases())
def test_leaving_is_not_a_move(game: Game[State]) -> None:
    """A leaving action goes through ``State.leave``; ``play`` refuses it in words."""
    state = game.new()
    with pytest.raises(IllegalActionError, match=r"leaving the table is not a move$"):
        state.play(ABANDON)
