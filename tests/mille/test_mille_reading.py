"""Reading the other hand from the whole hand's play (issue 19, "Mille Bornes strong": "weight
sampled deals by how likely the other seat's every earlier play was under a model of it (the
classic policy is one model), then search")."""

from __future__ import annotations

import random
from typing import cast

import pytest

from parlour.bots import make_bot, seen_by
from parlour.bots.determinised import DeterminisedBot
from parlour.engine import CHANCE
from parlour.games import get_game
from parlour.games.mille import CARD, Mille, MilleState
from parlour.games.mille.cards import BATTLE_HAZARDS, EMPTY, SAFETY
from parlour.games.mille.evaluator import READING_SAMPLES_PER_SECOND, READS, MilleEvaluator
from parlour.games.mille.position import DRAWING
from parlour.games.mille.reading import (
    EPSILON,
    Decided,
    Reading,
    draw_order,
    order_likelihood,
    replay_past,
)

MILLE = cast(Mille, get_game("mille"))


class Table:
    """A hand between two classic players, with what a test may not read from a view: the cards
    seat 1 received, batch by batch (its deal, then each draw), and the hazards played on it."""

    def __init__(self, seed: int) -> None:
        self.state = MILLE.new(seed=seed)
        self.bots = [make_bot("mille", "classic", seed=seed), make_bot("mille", "classic", seed=seed + 1)]
        self.views = random.Random(seed)
        self.batches: list[list[int]] = []

    def step(self) -> None:
        state = self.state
        seat = state.to_move()
        if seat != CHANCE:
            state.apply(self.bots[seat].choose(seen_by(state, seat, self.views), 0.01))
            return
        receiver, _ = state.receiving()
        first_of_draw = state.step == DRAWING and state.pending == state.draw_size
        if receiver == 1 and (not self.batches or first_of_draw):
            self.batches.append([])  # the deal, or the first card of a draw (MIL-21)
        action = state.sample_chance()
        state.apply(action)
        if receiver == 1:
            self.batches[-1].append(action - CARD)

    def play_until(self, decisions: int) -> bool:
        """Plays the first hand until seat 0 is to decide and seat 1 has made ``decisions``;
        ``False`` if the hand ends first."""
        while True:
            self.step()
            state = self.state
            if state.stale or state.is_over():
                return False
            made = sum(1 for e in state.events
                       if e.seat == 1 and e.kind in ("draw", "play", "discard", "extend"))
            if state.to_move() == 0 and made >= decisions:
                return True


def test_the_true_deal_explains_every_decision() -> None:
    """With the cards seat 1 truly received, in their true order, the classic model takes every
    decision it took (MIL-106): the reading's replay of the hand is exact, the weight (1 - ε)^n."""
    for seed in (1, 2, 3):
        table = Table(seed)
        assert table.play_until(30)
        root = MILLE.sample_state(table.state.view(0), random.Random(seed))
        past = replay_past(root, 0)
        assert past is not None
        assert past.decisions >= 30
        assert sum(len(batch) for batch in table.batches) == 6 + sum(
            e.number for e in root.events if e.kind == "draw" and e.seat == 1)
        assert order_likelihood(past, table.batches) == pytest.approx((1 - EPSILON) ** past.decisions)


def test_a_safety_held_under_its_hazard_makes_the_deal_unlikely() -> None:
    """A player holding the safety of a hazard played on it cures at once (MIL-36, MIL-39, and
    the classic policy's step 1): a deal in which seat 1 held it from the start, yet let the
    hazard stand, is weighed at ε / (1 - ε) of the true one or less."""
    tried = 0
    for seed in range(1, 40):
        table = Table(seed)
        if not table.play_until(16):
            continue
        root = MILLE.sample_state(table.state.view(0), random.Random(seed))
        past = replay_past(root, 0)
        assert past is not None
        hazards = [e.card for e in root.events
                   if e.seat == 0 and e.kind == "play" and e.card in BATTLE_HAZARDS]
        unseen = [SAFETY[h] for h in hazards if SAFETY[h] in table.state.pile]  # truly in the pile
        gone = {e.card for e in root.events if e.seat == 1 and e.kind in ("play", "discard")}
        kept = [k for k in table.state.slots[1] if k in table.batches[0] and k not in gone]
        if not unseen or not kept:
            continue
        tried += 1
        safety, dropped = unseen[0], kept[0]
        batches = [list(batch) for batch in table.batches]
        batches[0][batches[0].index(dropped)] = safety
        true = order_likelihood(past, table.batches)
        assert order_likelihood(past, batches) <= true * EPSILON / (1 - EPSILON)
        if tried == 3:
            return
    raise AssertionError(f"only {tried} hands had a hazard whose safety was unseen")


def test_draw_orders_fit_the_hand() -> None:
    """Every order drawn gives the other seat 6 cards dealt and then what each draw said, and
    the cards received are its hand now with every card it played or discarded."""
    table = Table(5)
    assert table.play_until(20)
    root = MILLE.sample_state(table.state.view(0), random.Random(4))
    past = replay_past(root, 0)
    assert past is not None
    hand = [k for k in table.state.slots[1] if k != EMPTY]
    gone = [e.card for e in root.events if e.seat == 1 and e.kind in ("play", "discard")]
    sizes = [6] + [e.number for e in root.events if e.kind == "draw" and e.seat == 1]
    rng = random.Random(5)
    for lean in (1.0, 30.0):
        for _ in range(20):
            drawn = draw_order(past, hand, rng, lean)
            assert drawn is not None
            batches, correction = drawn
            assert [len(batch) for batch in batches] == sizes
            assert sorted(k for batch in batches for k in batch) == sorted(hand + gone)
            assert correction > 0
    assert draw_order(past, hand[:-1], rng) is None  # a card short: no order fits


def test_worlds_keep_the_view_and_favour_deals_that_explain_the_play() -> None:
    """The reading's worlds look to the searching seat as the root does (MIL-58); over a hand the
    deals it draws hold more of seat 1's true cards than uniform deals do."""
    shared, uniform, worlds = 0, 0, 0
    for seed in range(6, 14):
        table = Table(seed)
        assert table.play_until(24)
        root = MILLE.sample_state(table.state.view(0), random.Random(seed))
        past = replay_past(root, 0)
        assert past is not None
        reading = Reading(root, 0, past)
        rng = random.Random(seed)
        truth = [k for k in table.state.slots[1] if k != EMPTY]
        for _ in range(30):
            world = reading.world(rng)
            assert world.view(0) == root.view(0)
            assert world.pile_count == [world.pile.count(k) for k in range(19)]
            shared += _common(truth, world.slots[1])
            uniform += _common(truth, root.redeal(0, rng).slots[1])
            worlds += 1
        assert all(isinstance(step.table, MilleState) for step in past.steps if isinstance(step, Decided))
    assert shared > uniform, (shared / worlds, uniform / worlds)


def _common(truth: list[int], slots: list[int]) -> int:
    left = list(truth)
    count = 0
    for kind in slots:
        if kind in left:
            left.remove(kind)
            count += 1
    return count


def test_the_reading_search_sees_only_the_view_and_repeats_for_a_seed() -> None:
    """The strong bot reads from ``state.view(seat)`` alone: a true state with the other hand and
    the pile dealt again gives the same search; the same seed gives the same search again."""
    table = Table(10)
    assert table.play_until(20)
    while len(table.state.legal_actions()) < 3:  # a decision the search has to weigh
        assert table.play_until(0)
    state = table.state
    other = state.redeal(0, random.Random(1))
    assert other.view(0) == state.view(0)
    reports = []
    for true_state in (state, other, state):
        evaluator = MilleEvaluator(reads=True)
        bot = DeterminisedBot(evaluator, seed=3)
        report = bot.search(true_state, 40)
        reports.append((report.action, report.value, report.samples, report.determinisations))
        assert evaluator.reading is not None  # the worlds came from the reading's pool
        assert len(evaluator.reading.pool) >= report.determinisations
    assert reports[0] == reports[1] == reports[2]
    assert reports[0][3] > 0


def test_the_strong_bot_reads_and_the_reading_costs_its_share_of_the_budget() -> None:
    """Issue 19: the strong bot reads the other hand (``READS``, measured to meet the targets);
    a reading evaluator takes its cost off the playouts' rate, the uniform deal keeps it all."""
    assert MilleEvaluator().reads is READS
    assert READS is True
    assert MilleEvaluator(reads=False).samples_per_second == 600
    assert MilleEvaluator().samples_per_second == READING_SAMPLES_PER_SECOND < 600
