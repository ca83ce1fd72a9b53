"""The bot registry and every kind of bot: legal choices, determinism, state left untouched."""

from __future__ import annotations

import random

import pytest
from bot_positions import W8_PLIES, W10_PLIES, W10_WINS, W12_PLIES, random_positions, replay

from parlour.bots import DEFAULT_BOT, bot_kinds, make_bot, seen_by
from parlour.bots.alphabeta import AlphaBetaBot
from parlour.engine import OptionError, State
from parlour.games import get_game

KINDS = ["random", "greedy", "strong"]
TINY = 0.05  # seconds: the smallest budget a bot must cope with


def snapshot(state: State) -> tuple[object, ...]:
    return (state.to_json(), state.position_json(), state.position_key(), state.outcome())


def without_clock(bot: object) -> None:
    """Takes the wall-clock safety stop out of reach, so that results never depend on timing."""
    if isinstance(bot, AlphaBetaBot):
        bot.safety_factor = 1e6


def test_registry_lists_every_kind() -> None:
    assert bot_kinds("loa") == KINDS
    assert DEFAULT_BOT == "strong"
    assert DEFAULT_BOT in bot_kinds("loa")


def test_unknown_kind_names_the_known_ones() -> None:
    with pytest.raises(OptionError, match="random, greedy, strong"):
        make_bot("loa", "grandmaster")


def test_unknown_game() -> None:
    with pytest.raises(OptionError, match="unknown game"):
        make_bot("chess", "strong")


@pytest.mark.parametrize("kind", KINDS)
def test_legal_choices_over_random_positions(kind: str) -> None:
    # LOA-80: whatever the position and however small the budget, a legal move.
    for index, state in enumerate(random_positions(12, seed=7)):
        bot = make_bot("loa", kind, seed=index)
        seat = state.to_move()
        before = snapshot(state)
        seen = seen_by(state, seat, random.Random(index))
        action = bot.choose(seen, TINY)
        assert action in state.legal_actions(), state.render()
        assert snapshot(state) == before
        assert seen.position_key() == state.position_key()


@pytest.mark.parametrize("kind", KINDS)
def test_same_seed_same_choice(kind: str) -> None:
    # LOA-81: the seed and the budget decide the move, not the machine.
    for index, state in enumerate(random_positions(4, seed=11)):
        choices = []
        for _ in range(2):
            bot = make_bot("loa", kind, seed=100 + index)
            without_clock(bot)
            choices.append(bot.choose(state.copy(), 0.2))
        assert choices[0] == choices[1]


def test_strong_bot_leaves_its_state_as_it_was_when_stopped_mid_search() -> None:
    bot = make_bot("loa", "strong")
    assert isinstance(bot, AlphaBetaBot)
    for state in random_positions(5, seed=3):
        before = snapshot(state)
        for nodes in (1, 10, 333):
            result = bot.search(state, nodes)
            assert result.action in state.legal_actions()
            assert snapshot(state) == before


@pytest.mark.parametrize("kind", ["greedy", "strong"])
def test_takes_an_immediate_win(kind: str) -> None:
    # W-10: four White moves connect White (LOA-13.2); W-12: only b7xf7 does.
    w10, w12 = replay(W10_PLIES), replay(W12_PLIES)
    for seed in range(3):
        bot = make_bot("loa", kind, seed=seed)
        without_clock(bot)
        assert w10.action_to_text(bot.choose(w10, TINY)) in W10_WINS
        assert w12.action_to_text(bot.choose(w12, TINY)) == "b7-f7"


@pytest.mark.parametrize("kind", ["greedy", "strong"])
def test_avoids_a_capture_that_hands_the_opponent_the_win(kind: str) -> None:
    # W-8: f3xd5 and h3xf5 leave White a single piece, and a single piece is contiguous.
    state = replay(W8_PLIES)
    for seed in range(3):
        bot = make_bot("loa", kind, seed=seed)
        without_clock(bot)
        assert state.action_to_text(bot.choose(state, TINY)) not in {"f3-d5", "h3-f5"}


@pytest.mark.parametrize("name", ["loa", "biloba", "conflict", "tictactoe"])
def test_a_bot_sees_the_position_as_its_view_shows_it_but_never_the_seed(name: str) -> None:
    """What a bot searches equals what the seat's view would give (``sample_state``), without
    building the view; and it never holds the match's seed, from which Conflict's rolls follow."""
    game = get_game(name)
    rng = random.Random(5)
    state = game.new(None, seed=123456789)
    for _ in range(40):
        if state.is_over():
            break
        seat = state.to_move()
        if seat >= 0:
            seen = seen_by(state, seat, random.Random(1))
            through_view = game.sample_state(state.view(seat), random.Random(1))
            assert seen.position_json() == through_view.position_json()
            assert seen.legal_actions() == through_view.legal_actions()
            assert seen.seed == through_view.seed != state.seed
        state.play(rng.choice(state.legal_actions()))
