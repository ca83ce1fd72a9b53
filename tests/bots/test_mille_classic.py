"""The classic Mille Bornes bot follows the BSD computer player's policy (specs/mille.md §15,
MIL-100 to MIL-108) on positions built by hand, and W-39, the extension it declines."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour.bots import make_bot
from parlour.engine import CHANCE
from parlour.games import get_game
from parlour.games.mille import MilleState
from parlour.games.mille.cards import GO
from parlour.games.mille.classic import ClassicMilleBot, Memory

MILLE = get_game("mille")


def table(*seats: dict[str, Any], **hand: Any) -> MilleState:
    """A position from its JSON form: ``cards`` fill a seat's highest slots, P first."""
    state = MILLE.new(start={"hand": {"seats": list(seats), **hand}}, seed=1)
    assert isinstance(state, MilleState)
    return state


def decide(state: MilleState, seed: int = 0) -> str:
    """The classic bot's decision, with its slot (MIL-106 step 9)."""
    return state.action_to_text(ClassicMilleBot(seed).decide(state))


OTHER = {"cards": ["25", "50", "go", "gasoline", "spare-tire", "repairs"]}
"""A hand for the other seat that plays no part."""


def w39(opponent_safeties: list[str]) -> MilleState:
    state = table(
        {"cards": OTHER["cards"], "miles": {"100": 3}, "battle": "stop", "safeties": opponent_safeties},
        {"cards": ["100", "100", "75", "25", "extra-tank", "go", "stop"], "battle": "go",
         "miles": {"100": 6}, "safeties": ["driving-ace"]},
        to_act=1, drawn=True, pile=30,
    )
    state.play_text("1: play 100")
    return state


def test_w39_the_computer_declines_the_extension() -> None:
    # W-39, MIL-103: two safeties (rule 1 passes), op at 300 and stopped (rule 2 passes), op has
    # played a safety (rule 3 does not decide), m = 100 + 100 + 75 + 25 = 300 and
    # 300 + 3 x 30 = 390 <= 1000: extend no.
    state = w39(["puncture-proof"])
    assert state.mileage[1] == 700
    assert state.to_move() == 1
    assert state.legal_actions() == [state.parse_action("extend yes"), state.parse_action("extend no")]
    assert decide(state) == "extend no"


def test_w39_without_an_opponent_safety_rule_3_extends() -> None:
    assert decide(w39([])) == "extend yes"  # W-39, MIL-103 rule 3


def test_extension_rule_1_needs_two_safeties() -> None:
    state = table(
        {"cards": OTHER["cards"], "miles": {"100": 3}, "battle": "stop"},
        {"cards": ["100", "100", "75", "25", "go", "stop"], "battle": "go", "miles": {"100": 6},
         "safeties": ["driving-ace"]},
        to_act=1, drawn=True, pile=30,
    )
    state.play_text("1: play 100")
    assert decide(state) == "extend no"  # MIL-103 rule 1


def test_a_coup_fourre_is_taken_before_drawing() -> None:
    # MIL-106 step 1 (W-20): the first curing safety in slot order, as a coup fourré.
    state = table({"cards": ["driving-ace", "25", "50", "75", "100", "go"], "battle": "go",
                   "miles": {"100": 3}},
                  {"cards": ["accident", *OTHER["cards"]], "battle": "go"}, to_act=1, drawn=True)
    state.play_text("1: play accident")
    assert state.to_move() == 0
    assert decide(state) == "coup driving-ace @1"
    assert ClassicMilleBot().choose(state, 1.0) == state.parse_action("coup driving-ace")


def test_draws_when_nothing_cures() -> None:
    state = table({"cards": ["extra-tank", "25", "50", "75", "100", "go"], "battle": "stop"}, OTHER)
    assert decide(state) == "draw"  # MIL-106 step 2


def test_the_card_that_finishes_is_played() -> None:
    # MIL-107 goal test: the 100 that lands on 700 is worth 40, more than any other useful card.
    state = table({"cards": ["100", "75", "gasoline", "spare-tire", "repairs", "go", "200"],
                   "battle": "go", "miles": {"100": 6}}, OTHER, drawn=True)
    assert decide(state) == "play 100 @P"


def test_the_first_awkward_small_card_turns_the_pass_to_discarding() -> None:
    # MIL-107 as corrected: BSD's play count is a C bool. At 600 the 25 in slot 1 would leave an
    # awkward remainder (100 // 25 = 4 > the one 25 held): the pass starts again in discard mode,
    # although the 100 in slot P would finish the trip. Discard values: the surplus remedies go.
    state = table({"cards": ["100", "25", "50", "gasoline", "spare-tire", "repairs", "go"],
                   "battle": "go", "miles": {"100": 6}}, OTHER, drawn=True)
    assert decide(state) == "discard repairs @5"


def test_the_bsd_computer_discards_end_of_limit_rather_than_attack() -> None:
    # Issue 19's example, replayed from the real program: the computer rolls at 600 holding Speed
    # Limit, Go, 25, Gasoline, End of Limit, Repairs, End of Limit; its opponent is at 450, not
    # limited, with Puncture Proof. The awkward 25 turns the pass to discarding (MIL-107), so the
    # computer discards an End of Limit where the old reading played the Speed Limit.
    hand = ["speed-limit", "go", "25", "gasoline", "end-of-limit", "repairs", "end-of-limit"]
    state = table({"cards": hand, "battle": "go", "miles": {"100": 6}},
                  {"cards": OTHER["cards"], "battle": "go", "miles": {"100": 4, "50": 1},
                   "safeties": ["puncture-proof"]}, drawn=True)
    assert decide(state).startswith("discard end-of-limit")


def test_discard_mode_throws_away_a_surplus_remedy_first() -> None:
    # MIL-106 step 7: stopped with nothing useful, so discard mode. MIL-107: 25 is the insurance
    # small card (20, no miles yet), 100s 13, the first Gasoline (12 + 2 seen - 0) // 2² = 3, the
    # second 14 // 1² = 14, Spare Tire 13, 200 26: the first Gasoline goes.
    state = table({"cards": ["25", "100", "100", "gasoline", "gasoline", "spare-tire", "200"],
                   "battle": "stop"}, OTHER, drawn=True)
    assert decide(state) == "discard gasoline @3"


def test_a_safety_whose_hazards_are_all_seen_is_released() -> None:
    # MIL-106 step 5 item 2: both Out of Gas are in the discard pile, no coup is possible.
    cards = ["extra-tank", "100", "75", "go", "25", "50", "stop"]
    state = table({"cards": cards, "battle": "go"}, OTHER, drawn=True)
    assert decide(state) != "play extra-tank @P"
    state = table({"cards": cards, "battle": "go"}, OTHER, drawn=True, discards=["out-of-gas", "out-of-gas"])
    assert decide(state) == "play extra-tank @P"


def test_a_safety_is_released_when_the_opponent_can_finish_with_one_card() -> None:
    # MIL-102 onecard: op rolls at 675 and not every 25 has been seen; MIL-106 step 5 item 1.
    cards = ["100", "puncture-proof", "75", "go", "25", "50", "stop"]
    state = table({"cards": cards, "battle": "go"}, {**OTHER, "battle": "go", "miles": {"100": 6, "75": 1}},
                  drawn=True)
    assert decide(state) == "play puncture-proof @1"
    state = table({"cards": cards, "battle": "go"}, {**OTHER, "battle": "go", "miles": {"100": 4}},
                  drawn=True)
    assert decide(state) != "play puncture-proof @1"  # at 400 no single card finishes


def test_memory_notes_hazards_and_safeties_once() -> None:
    # MIL-104: Stop and Flat Tire add 1 each; Puncture Proof adds copies(flat tire) - seen = 2 - 1.
    state = table({"cards": ["stop", "flat-tire", "puncture-proof", "25", "50", "75"], "battle": "go"}, OTHER)
    bot = ClassicMilleBot(5)
    assert state.action_to_text(bot.decide(state)) == "draw"
    memory = bot.memory
    assert memory is not None
    assert (memory.numgos, memory.decisions) == (3, 1)
    assert Memory.from_json(memory.to_json()) == memory
    state.apply(state.parse_action("draw"))
    while state.to_move() == CHANCE:
        state.apply(state.sample_chance())
    bot.decide(state)
    assert memory.decisions == 2
    assert memory.numgos >= 3


def test_need_goes_up_once_per_decision_while_stopped() -> None:
    # MIL-106 step 6, D-12.
    state = table({"cards": ["25", "100", "100", "gasoline", "gasoline", "spare-tire", "200"],
                   "battle": "stop"}, OTHER, drawn=True)
    bot = ClassicMilleBot()
    bot.decide(state)
    assert bot.memory is not None
    assert bot.memory.need[GO] == 11


@pytest.mark.parametrize("seed", range(3))
def test_the_die_follows_the_bot_seed(seed: int) -> None:
    # MIL-105: the same seed, hand and decision count give the same rolls, hence the same play.
    rng = random.Random(seed)
    state = MILLE.new(seed=seed)
    assert isinstance(state, MilleState)
    while state.to_move() == CHANCE or len(state.legal_actions()) == 1 or len(state.pile) > 25:
        assert not state.is_over()
        if state.to_move() == CHANCE:
            state.apply(state.sample_chance())
        else:
            state.apply(rng.choice(state.legal_actions()))
    first, second = make_bot("mille", "classic", seed=9), make_bot("mille", "classic", seed=9)
    assert first.choose(state, 1.0) == second.choose(state.copy(), 1.0)


def test_memory_travels_in_a_save_file() -> None:
    # MIL-70: the memory block, back in a new bot, gives the same next decision.
    state = table({"cards": ["stop", "flat-tire", "puncture-proof", "25", "50", "75"], "battle": "go"}, OTHER)
    bot = ClassicMilleBot(5)
    assert bot.memory_json() is None
    bot.decide(state)
    saved = bot.memory_json()
    assert saved == {"hand_serial": 1, "decisions": 1, "numgos": 3,
                     "need": {"gasoline": 2, "spare-tire": 2, "repairs": 2, "go": 10, "end-of-limit": 3},
                     "noted": ["25", "50", "75", "flat-tire", "stop", "puncture-proof"]}
    state.apply(state.parse_action("draw"))
    while state.to_move() == CHANCE:
        state.apply(state.sample_chance())
    resumed = ClassicMilleBot(5)
    resumed.load_memory(saved)
    resumed.reseed(1234)  # a host may reseed the bot's rng: the die keeps the bot's seed
    assert resumed.decide(state.copy()) == bot.decide(state.copy())
    assert resumed.memory_json() == bot.memory_json()


@pytest.mark.parametrize("broken", [
    [], {"hand_serial": 1}, {"hand_serial": 0, "decisions": 0, "numgos": 0, "need": {}, "noted": []},
    {"hand_serial": 1, "decisions": 0, "numgos": 0, "need": {"go": 1}, "noted": []},
    {"hand_serial": 1, "decisions": 0, "numgos": 0,
     "need": {"gasoline": 2, "spare-tire": 2, "repairs": 2, "go": 10, "end-of-limit": 3}, "noted": ["nine"]},
])
def test_a_broken_memory_is_refused(broken: Any) -> None:
    with pytest.raises(ValueError, match="memory"):
        ClassicMilleBot().load_memory(broken)


def test_a_bot_that_joins_a_hand_counts_its_decisions_from_the_events() -> None:
    # MIL-104, MIL-105: a host that builds a new bot for each decision (the server) still rolls
    # the die of the right decision number: one public event per decision of the seat.
    state = MILLE.new(seed=8)
    assert isinstance(state, MilleState)
    bots = [ClassicMilleBot(1), ClassicMilleBot(2)]
    while state.hand_serial == 1 and len(state.history) < 120:
        if state.to_move() == CHANCE:
            state.apply(state.sample_chance())
        else:
            state.apply(bots[state.to_move()].choose(state, 1.0))
    while state.to_move() == CHANCE:
        state.apply(state.sample_chance())
    seat = state.to_move()
    assert seat >= 0
    assert state.hand_serial == 1
    kept, fresh = bots[seat], ClassicMilleBot(seat + 1)
    assert kept.memory is not None
    decisions = kept.memory.decisions
    fresh.decide(state.copy())
    assert fresh.memory is not None
    assert fresh.memory.decisions == decisions + 1
