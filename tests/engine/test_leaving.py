"""Leaving the table, for every registered game and player count (BIL-39, CON-71, LOA-98, MIL-109).

From positions of seeded random games: each seat still in play retires; the table agrees a draw;
the match is abandoned. With two players the other wins at once, for the reason given; with more
the seat is out and the game goes on among the others, or ends by the game's own rules when one
is left (Biloba's BIL-37: a last player with a single pawn draws; Conflict's CON-55: it wins). Each
leaving action is recorded like any action: undo restores everything observable, the record
replays to the same state, JSON round-trips, copies are independent, and texts and views say it
in words. A finished game, a seat already out and a seat that does not exist are refused.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from parlour.engine import (
    ABANDONED,
    AGREED,
    CHANCE,
    NOBODY,
    WHYS,
    Game,
    IllegalActionError,
    MatchRecord,
    State,
    is_leaving,
    retirement,
)
from parlour.games import GAMES

PLAYOUTS = 2
MAX_PLIES = 300
STOPS = 4
"""Positions per playout where the table is left."""


def cases() -> list[Any]:
    return [
        pytest.param(game, players, id=f"{name}-{players}p")
        for name, game in sorted(GAMES.items())
        for players in range(game.info.min_players, game.info.max_players + 1)
    ]


def snapshot(state: State) -> tuple[Any, ...]:
    seats: list[int | None] = [*range(state.players), None]
    return (
        state.history.copy(),
        json.dumps(state.position_json(), sort_keys=True),
        state.position_key(),
        state.to_move(),
        state.legal_actions(),
        state.outcome(),
        state.seats_out(),
        [json.dumps(state.view(seat), sort_keys=True) for seat in seats],
    )


def positions(game: Game[State], players: int, seed: int) -> list[State]:
    """Copies of a seeded random game at ``STOPS`` plies spread over it, the set-up first."""
    state = game.new(players=players, seed=seed)
    rng = random.Random(seed)
    line = []
    while not state.is_over() and len(state.history) < MAX_PLIES:
        line.append(state.copy())
        if state.to_move() == CHANCE:
            state.apply(state.sample_chance())
        else:
            state.apply(rng.choice(state.legal_actions()))
    step = max(1, len(line) // STOPS)
    return line[::step][:STOPS]


def check_recorded(state: State, before: tuple[Any, ...], action: int) -> None:
    """The leaving action is the last of the record; replay, JSON, copy and undo agree."""
    assert state.history[-1] == action
    assert is_leaving(action)
    replayed = MatchRecord.from_json(json.loads(json.dumps(state.to_json()))).replay(state.game)
    assert snapshot(replayed) == snapshot(state), "the record replays to the same state"
    assert state.game.state_from_json(state.to_json()) == state
    text = state.action_to_text(action)
    assert text
    assert text == state.leaving_text(action)
    for seat in [*range(state.players), None]:
        assert state.action_text_for(action, seat) == text, "leaving is public"
    copy = state.copy()
    state.undo()
    assert snapshot(state) == before, f"undo of {text!r} restores everything"
    assert copy.history[-1] == action, "a copy is independent"


def check_outcome_words(state: State) -> None:
    outcome = state.outcome()
    assert outcome is not None
    assert state.game.info.reason_words(outcome.reason)
    assert state.view(None)["outcome"]["words"]


@pytest.mark.parametrize(("game", "players"), cases())
def test_a_seat_retires(game: Game[State], players: int) -> None:
    for seed in range(PLAYOUTS):
        for position in positions(game, players, seed):
            for seat in position.seats_in_play():
                for why in WHYS:
                    state = position.copy()
                    before = snapshot(state)
                    others = [other for other in state.seats_in_play() if other != seat]
                    state.retire(seat, why)
                    out = state.seats_out()
                    if players == 2:
                        outcome = state.outcome()
                        assert state.to_move() == NOBODY, "with two players, retiring ends the game"
                        assert outcome is not None
                        assert outcome.winner == others[0]
                        assert outcome.reason == why
                        check_outcome_words(state)
                    else:
                        assert out[seat], "a seat that retired is out, with words saying why"
                        assert seat not in state.seats_in_play()
                        assert state.to_move() != seat, "a seat that is out never decides"
                        if len(others) == 1:  # one left: the game's own end rules decide
                            assert state.is_over(), "with one player left in play, the game is over"
                        if not state.is_over():
                            assert state.seats_in_play(), "the others play on"
                            assert state.legal_actions()
                        else:
                            check_outcome_words(state)
                    views = [state.view(viewer) for viewer in [*range(state.players), None]]
                    assert all(view["out"] == out for view in views)
                    check_recorded(state, before, retirement(seat, why))


@pytest.mark.parametrize(("game", "players"), cases())
def test_the_table_agrees_a_draw_or_abandons(game: Game[State], players: int) -> None:
    for position in positions(game, players, 7):
        if position.is_over():
            continue
        for end, reason in ((State.agree_draw, AGREED), (State.abandon, ABANDONED)):
            state = position.copy()
            before = snapshot(state)
            end(state)
            outcome = state.outcome()
            assert state.to_move() == NOBODY
            assert outcome is not None
            assert outcome.winner is None
            assert outcome.reason == reason
            check_outcome_words(state)
            check_recorded(state, before, state.history[-1])


@pytest.mark.parametrize(("game", "players"), cases())
def test_leaving_when_it_cannot_be(game: Game[State], players: int) -> None:
    state = game.new(players=players, seed=3)
    with pytest.raises(IllegalActionError, match="no seat"):
        state.retire(players, WHYS[0])
    rng = random.Random(3)
    while not state.is_over() and len(state.history) < 4 * MAX_PLIES:
        if state.to_move() == CHANCE:
            state.apply(state.sample_chance())
        else:
            state.apply(rng.choice(state.legal_actions()))
    if not state.is_over():
        state.abandon()
    before = snapshot(state)
    for leave in (lambda: state.retire(0, WHYS[0]), state.agree_draw, state.abandon):
        with pytest.raises(IllegalActionError, match="over"):
            leave()
    assert snapshot(state) == before, "a refused leaving changes nothing"
    if players > 2:
        state = game.new(players=players, seed=3)
        state.retire(1, WHYS[0])
        with pytest.raises(IllegalActionError, match="already out"):
            state.retire(1, WHYS[1])


def test_leaving_actions_are_never_legal_moves() -> None:
    for game in GAMES.values():
        state = game.new(seed=1)
        for seat in range(state.players):
            for why in WHYS:
                action = retirement(seat, why)
                assert action not in state.legal_actions()
                assert not state.is_legal(action), f"{game.info.name}: a leaving action is not a move"
