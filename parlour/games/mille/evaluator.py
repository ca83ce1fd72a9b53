"""What the searches know of Mille Bornes: a hand's end is worth the chance it gives of winning
the game, and a hand is played out by the classic bot's policy on both sides.

The playouts run in determinisations made by ``MilleState.redeal`` (the cards hidden from the
searching seat dealt again), with the unseen safeties then placed by what the deal and the
events tell of them (``place_safeties``: a player cures at once and takes every coup fourré,
so a safety it let pass was not in its hand then). With ``reads`` (on by default: ``READS``)
they are drawn by ``reading.Reading`` instead: redeals each weighed by how likely it makes the
other seat's every decision this hand under the classic policy, drawn in proportion (issue 19);
where the hand's events cannot be replayed, the uniform redeal as above. The pile's order is
itself a fair sample and a draw simply takes the top card. A playout stops at the end of the
hand: its scores are known then, and the next deal is luck the decision cannot change.

The search's default choice is the classic bot's, made with the classic memory of the hand
(MIL-104) that this evaluator keeps for its seat; the search leaves it only for a clearly better
action. Discarding a card that could be usefully played is never tried, and the timing of a
safety that cures nothing is left to the classic bot (``MilleEvaluator.candidates``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Final

from parlour.engine import MAX_EVAL, Action, Evaluator, OptionError, Playouts, State
from parlour.games.mille import (
    CARD,
    DISCARD,
    DRAW,
    DRAWING,
    EXTEND_YES,
    OVER,
    PLAY,
    MilleState,
    split_hint,
)
from parlour.games.mille.cards import (
    BATTLE_HAZARDS,
    EMPTY,
    END_OF_LIMIT,
    EXTRA_TANK,
    GO,
    HAZARD_OF,
    KINDS,
    RIGHT_OF_WAY,
    SAFETIES,
    SAFETY,
    SPEED_LIMIT,
    STOP,
)
from parlour.games.mille.classic import Memory, classic_decision
from parlour.games.mille.position import GAME_TARGET, HAND_SIZE, Event
from parlour.games.mille.reading import Reading, replay_past

HAND_POINTS: Final = 1150.0
"""About what a seat scores in a hand between two classic bots (they need 4.4 hands a game)."""

HAND_SPREAD: Final = 1300.0
"""The standard deviation of the difference of the two seats' scores in such a hand."""


READS: Final = True
"""Whether the strong bot reads the other hand from the hand's play (``reading``, issue 19). On:
against ``classic`` at 0.1 s a move it met issue 19's targets reading (0.638 of 478 games,
+141.6 points a hand over 2,002 hands; ``results/mille-strong-reads-classic.jsonl``), as it did
with the uniform deal and ``place_safeties`` (0.637 of 472, +141.7 a hand); neither measure, nor
the paired decisions of ``reading``, tells the two apart."""

READING_SAMPLES_PER_SECOND: Final = 530
"""``MilleEvaluator.samples_per_second`` when it reads the hand: the reading's cost taken off."""


def win_chance(totals: tuple[int, int] | list[int], seat: int) -> float:
    """The chance that ``seat`` wins a game standing at ``totals`` between hands: certain when
    the game is over, else a normal guess from the lead and the hands left to play."""
    mine, theirs = totals[seat], totals[1 - seat]
    if max(mine, theirs) >= GAME_TARGET:
        return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    hands = max(1.0, (GAME_TARGET - max(mine, theirs)) / HAND_POINTS)
    return 0.5 * (1.0 + math.erf((mine - theirs) / (HAND_SPREAD * math.sqrt(2.0 * hands))))


def received_since_lacking(events: list[Event], seat: int) -> dict[int, int]:
    """For each safety that ``seat`` has shown it lacked this hand, how many cards it has received
    since it last showed so. A player with a safety cures at once and always takes its coup
    fourré (MIL-36, MIL-39; the classic bot does, and anyone else should): so ``seat`` lacked the
    safety of a hazard it let its coup window close on, and of a hazard it played or discarded
    another card under. Read from the public events alone (MIL-57 item 7)."""
    reading = _Lacking()
    for event in events:
        if event.kind == "draw" and event.seat == seat:
            reading.drew(event.number)
        elif event.kind == "play" and event.seat != seat:
            reading.attacked(event.card)
        elif event.kind in ("play", "discard") and event.seat == seat:
            reading.moved(event.kind, event.card)
    return reading.since


class _Lacking:
    """``received_since_lacking`` as it reads the events: the seat's battle top and speed limit,
    the hazard its coup window is open on, and the counts so far."""

    __slots__ = ("battle", "limited", "since", "window")

    def __init__(self) -> None:
        self.since: dict[int, int] = {}
        self.battle, self.limited, self.window = EMPTY, False, EMPTY

    def drew(self, number: int) -> None:
        """The seat drew ``number`` cards."""
        since = self.since
        if self.window != EMPTY:  # the coup window closed on a draw (MIL-39)
            since[SAFETY[self.window]] = 0
            self.window = EMPTY
        for safety in since:
            since[safety] += number

    def attacked(self, card: int) -> None:
        """The other seat played ``card``: a hazard on the seat opens its coup window."""
        if card in BATTLE_HAZARDS:
            self.battle = self.window = card
        elif card == SPEED_LIMIT:
            self.limited, self.window = True, SPEED_LIMIT

    def moved(self, kind: str, card: int) -> None:
        """The seat played or discarded ``card`` (``kind`` says which), closing its coup window."""
        self.window = EMPTY
        if card in SAFETIES:
            self._safety(card)
            return
        # A card other than a safety under a hazard it could have cured: it had no cure.
        for hazard in (self.battle, SPEED_LIMIT if self.limited else EMPTY):
            if hazard in SAFETY:
                self.since[SAFETY[hazard]] = 0
        if kind == "play":
            if card in HAZARD_OF or card == GO:
                self.battle = card
            elif card == END_OF_LIMIT:
                self.limited = False

    def _safety(self, card: int) -> None:
        """A safety the seat played: it lifts its hazard (Right of Way: a Stop and the limit)."""
        if card == RIGHT_OF_WAY:
            self.limited = False
            if self.battle == STOP:
                self.battle = GO
        elif self.battle == HAZARD_OF.get(card):
            self.battle = GO


def place_safeties(world: MilleState, seat: int, rng: random.Random) -> None:
    """Moves the safeties nobody has seen between ``seat``'s hand and the pile of ``world`` (a
    search's own sample) so that each is in the hand with the chance the deal gives it.

    A safety is never discarded and shows when played, so an unseen one is in the hand exactly
    when ``seat`` has received it this hand: it was one of the cards dealt or drawn to ``seat``
    rather than one of those still in the pile — far likelier than the hand's share of the
    unseen cards once a hand is under way — and, when ``seat`` has shown it lacked the safety
    (``received_since_lacking``), one of the cards drawn since. The other cards stay as dealt."""
    received = HAND_SIZE + sum(e.number for e in world.events if e.kind == "draw" and e.seat == seat)
    lacking = received_since_lacking(world.events, seat)
    pile, slots = world.pile, world.slots[seat]
    if not pile:
        return
    for safety in SAFETIES:
        cards = lacking.get(safety, received)
        share = cards / (cards + len(pile))
        if safety in slots:
            if rng.random() >= share:
                places = [j for j, kind in enumerate(pile) if kind < EXTRA_TANK]
                if places:
                    j, i = rng.choice(places), slots.index(safety)
                    slots[i], pile[j] = pile[j], safety
        elif safety in pile and rng.random() < share:
            places = [i for i, kind in enumerate(slots) if EMPTY < kind < EXTRA_TANK]
            if places:
                i, j = rng.choice(places), pile.index(safety)
                pile[j], slots[i] = slots[i], safety
    counts = [0] * KINDS
    for kind in pile:
        counts[kind] += 1
    world.pile_count = counts


def _mille(state: State) -> MilleState:
    if not isinstance(state, MilleState):
        raise OptionError(f"this evaluator is for Mille Bornes, not {state.game.info.name}")
    return state


class MilleEvaluator(Evaluator, Playouts):
    """The chance of winning the game for greedy looks and determinised playouts."""

    samples_per_second = 600
    """Calibrated on the development machine (2 cores, CPython 3.11): a playout to the end of
    the hand takes about 1.1 ms on average over a game, so a budget's playouts take about 70%
    of it on an idle machine."""

    def __init__(self, reads: bool = READS) -> None:
        self.memories: list[Memory | None] = [None, None]
        self.memory: Memory | None = None
        """The searching seat's classic memory of the hand (MIL-104), for its default choice."""
        self.reads = reads
        """Whether the worlds are weighed by the other seat's play this hand (``reading``)."""
        if reads:
            # Reading took 12.6% of a search's time (cProfile over 89 searches of 60 playouts in
            # classic games): the rate is lowered by as much to keep a decision within its budget.
            self.samples_per_second = READING_SAMPLES_PER_SECOND
        self.reading: Reading | None = None
        self.read_root: State | None = None

    def evaluate(self, state: State, seat: int) -> int:
        chance = win_chance(_mille(state).game_total, seat)
        return round((2 * chance - 1) * (MAX_EVAL - 1))

    # --- playouts ---

    def determinise(self, root: State, seat: int, rng: random.Random) -> State:
        """A world drawn in proportion to how well it explains the other seat's every decision
        this hand (``reading.Reading``); where the hand's events cannot be replayed (a position
        set up by hand), a uniform redeal with the safeties placed as the events tell."""
        mille = _mille(root)
        if self.reads:
            if root is not self.read_root:  # a new search: read its root's past once
                self.read_root = root
                past = replay_past(mille, seat)
                self.reading = None if past is None else Reading(mille, seat, past)
            if self.reading is not None:
                return self.reading.world(rng)
        world = mille.redeal(seat, rng)
        place_safeties(world, 1 - seat, rng)
        return world

    def reset(self) -> None:
        self.memories = [None, None]

    def policy(self, state: State, rng: random.Random) -> Action:
        mille = _mille(state)
        seat = mille.mover
        memory = self.memories[seat]
        if memory is None or memory.hand_serial != mille.hand_serial:
            memory = self.memories[seat] = Memory(mille.hand_serial)
        return classic_decision(mille, memory, rng, determinised=True)

    def default(self, state: State, rng: random.Random) -> Action:
        """What the classic bot would do, with the memory it would have of this hand."""
        mille = _mille(state)
        memory = self.memory
        if memory is None or memory.hand_serial != mille.hand_serial:
            memory = self.memory = Memory(mille.hand_serial)
            memory.catch_up(mille, mille.mover)
        return split_hint(classic_decision(mille, memory, rng, determinised=True))[0]

    def candidates(self, state: State, actions: list[Action], default: Action | None) -> list[Action]:
        """Never discarding a card that could be usefully played (MIL-51): playing it or
        discarding another card is at least as good in practice. And the classic bot decides
        when to play a safety that cures nothing: the playouts, dealing the other hand at random,
        miss how often the classic opponent holds the hazards it waits for, so they undervalue
        the coup fourré (measured against the true hands: playing safeties sooner than the
        classic bot lost about 0.01 of a game each time)."""
        if default is not None and (default < DRAW or PLAY + EXTRA_TANK <= default < DISCARD):
            return [default]  # a coup fourré, a cure or a safety the classic bot releases
        mille = _mille(state)
        me = mille.mover
        return [a for a in actions
                if not (DISCARD <= a < EXTEND_YES and mille.useful(me, a - DISCARD))
                and not PLAY + EXTRA_TANK <= a < DISCARD]

    def chance(self, state: State, rng: random.Random) -> Action:
        return state.sample_chance()  # the determinisation shuffled the pile

    def playout(self, state: State, root: State, rng: random.Random) -> list[float]:
        """``Playouts.playout`` for Mille Bornes, written out: it runs in the inner loop."""
        mille = _mille(state)
        serial = _mille(root).hand_serial
        memories = [Memory(serial), Memory(serial)]
        self.memories = [None, None]
        while True:
            step = mille.step
            if step == OVER or mille.stale or mille.hand_serial != serial:
                return self.values(mille)
            if step <= DRAWING:
                mille.apply(CARD + mille.pile[-1])  # the top card: the pile was shuffled
            else:
                mille.apply(classic_decision(mille, memories[mille.mover], rng, determinised=True))

    def horizon(self, state: State, root: State) -> bool:
        mille = _mille(state)
        return mille.stale or mille.hand_serial != _mille(root).hand_serial

    def values(self, state: State) -> list[float]:
        totals = _mille(state).game_total
        first = win_chance(totals, 0)
        return [first, 1.0 - first]

    def hand_points(self, state: State) -> tuple[int, ...] | None:
        """Each seat's points of the hand just ended (MIL-53: its hand totals), while ``state``
        stands between that hand and the next deal or at the end of the game it ended; else
        ``None``. For ``parlour arena``'s points a hand. A game left mid-hand (MIL-109) ends no hand."""
        mille = _mille(state)
        ended = mille.stale or (mille.step == OVER and any(e.kind == "hand_end" for e in mille.events))
        if not ended or mille.last_hand is None:
            return None
        return mille.last_hand.hand_totals


EVALUATOR: Final[Callable[[], Evaluator]] = MilleEvaluator
"""A new evaluator for each bot (``parlour.bots`` finds it here): Mille Bornes's greedy and strong bots."""
