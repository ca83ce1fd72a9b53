"""The BSD ``mille`` computer player (``specs/mille.md`` §15, MIL-100 to MIL-108) as the ``classic`` bot.

A greedy one-decision evaluator with card counting: it cures at once (so every coup fourré is
taken), hoards its other safeties for coups, values each card of its hand by the rules of
MIL-107 and plays the most valuable useful card or discards the least valuable one. The BSD
program's counting bugs are fixed as D-11 to D-13 say.

It reads only what its seat's view holds: its own slots and the public table. Its memory of
the hand (MIL-104) lives in the bot, so one bot should play a whole hand; a bot that joins a
hand half-way rebuilds what the public events tell (``Memory.catch_up``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from parlour.engine import Action, Bot, OptionError, ParlourError, State
from parlour.games.mille import DRAW, DRAW_STEP, EXTEND_NO, EXTEND_YES, EXTENSION, PLAY_STEP, MilleState
from parlour.games.mille.actions import coup_action, discard_action, play_action, split_hint
from parlour.games.mille.cards import (
    ACCIDENT,
    BATTLE_HAZARDS,
    COPIES,
    D25,
    D50,
    D200,
    EMPTY,
    END_OF_LIMIT,
    EXTRA_TANK,
    FLAT_TIRE,
    GASOLINE,
    GO,
    HAZARD_OF,
    KINDS,
    OUT_OF_GAS,
    REMEDY,
    REPAIR_KINDS,
    REPAIRS,
    RIGHT_OF_WAY,
    SAFETIES,
    SAFETY,
    SPARE_TIRE,
    SPEED_LIMIT,
    STOP,
    TOKENS,
    VALUES,
    parse_card,
)

NEED_AT_START: Final = {GASOLINE: 2, SPARE_TIRE: 2, REPAIRS: 2, GO: 10, END_OF_LIMIT: 3}
"""MIL-104: how many of each remedy a hand is first thought to call for."""

KEEP: Final = 101
"""MIL-107: the value of a card that discard mode must not throw away."""

FIRST_FINISH: Final = 40
"""MIL-107's goal test: the first card found that lands exactly on the goal."""

_HAZARDS_WITH_SAFETY: Final = (OUT_OF_GAS, FLAT_TIRE, ACCIDENT)


def _div(a: int, b: int) -> int:
    """MIL-101: integer division rounding toward zero."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def _family_safety(top: int) -> int:
    """MIL-102: the safety of a battle top's family (Right of Way for Stop and Go)."""
    if top in HAZARD_OF:
        return SAFETY[HAZARD_OF[top]]
    if top in _HAZARDS_WITH_SAFETY:
        return SAFETY[top]
    return RIGHT_OF_WAY


@dataclass
class Memory:
    """MIL-104: what the bot remembers of the hand it is playing."""

    hand_serial: int
    decisions: int = 0
    numgos: int = 0
    need: dict[int, int] = field(default_factory=lambda: dict(NEED_AT_START))
    noted: list[int] = field(default_factory=lambda: [0] * KINDS)
    """How many cards of each kind are already noted (a multiset)."""

    def to_json(self) -> dict[str, Any]:
        """The ``memory`` block of a save file (MIL-70)."""
        return {
            "hand_serial": self.hand_serial,
            "decisions": self.decisions,
            "numgos": self.numgos,
            "need": {TOKENS[kind]: count for kind, count in self.need.items()},
            "noted": [TOKENS[kind] for kind in range(KINDS) for _ in range(self.noted[kind])],
        }

    @classmethod
    def from_json(cls, data: Any) -> Memory:
        """Reads ``to_json``'s form; ``ValueError`` naming what is wrong."""
        try:
            if set(data) != {"hand_serial", "decisions", "numgos", "need", "noted"}:
                raise ValueError(f"memory has the keys {sorted(data)}")
            numbers = [data[key] for key in ("hand_serial", "decisions", "numgos")]
            if any(isinstance(n, bool) or not isinstance(n, int) for n in numbers):
                raise ValueError("memory: hand_serial, decisions and numgos are whole numbers")
            if numbers[0] < 1 or numbers[1] < 0:
                raise ValueError("memory: hand_serial from 1, decisions from 0")
            need = {parse_card(token): count for token, count in data["need"].items()}
            if set(need) != set(NEED_AT_START) or any(
                    isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in need.values()):
                raise ValueError("memory: need counts each remedy with a whole number")
            noted = [0] * KINDS
            for token in data["noted"]:
                noted[parse_card(token)] += 1
            if any(count > COPIES[kind] for kind, count in enumerate(noted)) or sum(noted) > 7:
                raise ValueError("memory: more cards noted than a hand holds")
        except (AttributeError, KeyError, TypeError, ParlourError) as error:
            raise ValueError(f"not a classic bot memory: {error}") from None
        return cls(numbers[0], numbers[1], numbers[2], need, noted)

    def catch_up(self, state: MilleState, me: int) -> None:
        """For a bot that starts in the middle of a hand: the decisions it would have taken so
        far (one public event each) and the cards it must have noted (those it played or
        discarded). The ``need`` raises and safeties' estimates of the past are not rebuilt."""
        table = _Table(state, me)
        for event in state.events:
            if event.seat != me or event.kind not in ("draw", "play", "discard", "extend"):
                continue
            self.decisions += 1
            if event.kind in ("play", "discard"):
                self.note(event.card, table)

    def note(self, kind: int, table: _Table) -> None:
        self.noted[kind] += 1
        if kind in BATTLE_HAZARDS:
            self.numgos += 1
        elif kind in HAZARD_OF and kind >= EXTRA_TANK:
            hazard = HAZARD_OF[kind]
            self.numgos += COPIES[hazard] - table.seen[hazard]


class _Table:
    """What the bot knows at one decision (MIL-101): its hand and the public table.

    ``determinised`` says that the state is a full sample the caller owns (a search's): the cards
    seen are then counted as the deck minus the pile and the other hand, the same numbers as
    the public count, found faster."""

    def __init__(self, state: MilleState, me: int, determinised: bool = False) -> None:
        self.state = state
        self.me, self.op = me, 1 - me
        self.slots = state.slots[me]
        held = [0] * KINDS
        for kind in self.slots:
            if kind != EMPTY:
                held[kind] += 1
        self.held = held
        self.determinised = determinised
        self.deck = len(state.pile)
        self.goal = state.goal
        self.miles = state.mileage
        self.rem = self.goal - self.miles[me]
        self.rolling = state.rolling(me)
        self.limited = state.limited(me)
        self.op_rolling = state.rolling(self.op)
        self.op_limited = state.limited(self.op)

    @cached_property
    def seen(self) -> list[int]:
        """MIL-101 ``seen``: my hand and every card face up on the table."""
        state = self.state
        if self.determinised:
            seen = [copies - left for copies, left in zip(COPIES, state.pile_count, strict=True)]
            for kind in state.slots[self.op]:
                if kind != EMPTY:
                    seen[kind] -= 1
            return seen
        seen = self.held.copy()
        for kind in state.discards:
            seen[kind] += 1
        for seat in (0, 1):
            for kind in state.battle_pile[seat]:
                seen[kind] += 1
            for kind in state.speed_pile[seat]:
                seen[kind] += 1
            for kind, _ in state.safeties[seat]:
                seen[kind] += 1
            for kind, count in enumerate(state.miles[seat]):
                seen[kind] += count
        return seen

    @cached_property
    def onecard(self) -> bool:
        return self._onecard()

    def mine(self, safety: int) -> bool:
        return self.state.has_played(self.me, safety)

    def theirs(self, safety: int) -> bool:
        return self.state.has_played(self.op, safety)

    def have(self, safety: int) -> bool:
        return self.held[safety] > 0 or self.mine(safety)

    def useful(self, kind: int) -> bool:
        return self.state.useful(self.me, kind)

    def _onecard(self) -> bool:
        """MIL-102 (D-11: Right of Way where the BSD program looked at the 100s)."""
        seen, op = self.seen, self.op
        top = self.state.battle[op]
        right_of_way = seen[RIGHT_OF_WAY] > 0
        can_go = (self.op_rolling
                  or ((top in (EMPTY, *REPAIR_KINDS, STOP) or self.op_limited) and right_of_way)
                  or (top != EMPTY and seen[_family_safety(top)] > 0))
        if not can_go:
            return False
        r = self.goal - self.miles[op]
        if r == 200:
            if self.state.miles[op][D200] >= 2:
                return False
            return not right_of_way if self.op_limited else seen[D200] < COPIES[D200]
        if r in (100, 75):
            if self.op_limited:
                return not right_of_way
            kind = VALUES.index(r)
            return seen[kind] < COPIES[kind]
        if r in (50, 25):
            kind = VALUES.index(r)
            return seen[kind] < COPIES[kind]
        return False

    def extend(self, miles_in_hand: int) -> bool:
        """MIL-103: whether to extend; ``miles_in_hand`` counts the card that reaches 700."""
        safeties = sum(self.held[k] for k in SAFETIES) + len(self.state.safeties[self.me])
        if safeties < 2:
            return False
        op_miles = self.miles[self.op]
        if op_miles == 0 or self.onecard or (self.op_rolling and op_miles >= 500):
            return False
        if not self.state.safeties[self.op]:
            return True
        return miles_in_hand + 3 * self.deck > 1000

    def hand_miles(self) -> int:
        return sum(VALUES[kind] * self.held[kind] for kind in range(D200 + 1))


class _Pass:
    """One valuing pass over the slots (MIL-107), with its running quantities."""

    def __init__(self, table: _Table, memory: Memory, play_mode: bool, can_attack: bool) -> None:
        self.t, self.memory = table, memory
        self.play_mode = play_mode
        self.can_attack = can_attack
        t = table
        self.cnt = t.held.copy()
        self.low_found = (play_mode or t.held[END_OF_LIMIT] > 0 or t.seen[SPEED_LIMIT] == COPIES[SPEED_LIMIT]
                          or t.have(RIGHT_OF_WAY))
        self.end_found = False
        self.twos = t.state.miles[t.me][D200]
        self.attacks = 0
        self.restart = False

    def values(self) -> list[int | None]:
        """Each slot's value (``None`` for an empty slot); ``restart`` is set when the pass must
        start again in discard mode."""
        t = self.t
        values: list[int | None] = []
        for kind in t.slots:
            if kind == EMPTY:
                values.append(None)
                continue
            if kind >= EXTRA_TANK:
                values.append(0 if self.play_mode else KEEP)
                continue
            if t.useful(kind) != self.play_mode:
                values.append(0 if self.play_mode else KEEP)
                continue
            value = self.value(kind)
            if self.restart:
                return values
            values.append(value)
        return values

    def value(self, kind: int) -> int:
        """MIL-107: the value of one card of a kind the pass looks at (the running counts move)."""
        if kind <= D50:
            return self._small(kind)
        if kind <= D200:
            return self._large(kind)
        if kind in REPAIR_KINDS:
            return self._repair(kind)
        if kind == END_OF_LIMIT:
            return self._end_of_limit()
        if kind == GO:
            return self._go()
        if kind == SPEED_LIMIT:
            return self._speed_limit()
        if kind == STOP:
            return self._stop()
        safety = SAFETY[kind]  # Out of Gas, Flat Tire, Accident
        return self._attack(3 if self.t.have(safety) else 4, safety, REMEDY[kind])

    def _small(self, kind: int) -> int:
        t = self.t
        d = VALUES[kind]
        if (self.play_mode and t.deck > 0 and t.rem <= 100 and t.rem // d > t.held[kind]
                and (kind == D25 or t.rem % 50 == 0)):
            # Avoid leaving an awkward remainder. BSD counts its playable cards in a C bool, a
            # flag that any count sets to 1: the first awkward card turns the pass to discarding,
            # however many other cards could be played (MIL-107, measured against the real program).
            self.restart = True
            return 0
        value = d // 8 + (1 if t.limited else -1)
        if not self.low_found and (kind == D50 or t.held[D50] == 0):
            value = 10 if t.miles[t.me] > 0 else 20  # insurance against a Speed Limit
            self.low_found = True
        return self._goal_test(kind, value)

    def _large(self, kind: int) -> int:
        """The 75, 100 and 200: a third 200 is worth nothing, as a hand allows only two."""
        if kind == D200:
            self.twos += 1
            if self.twos > 2:
                return 0
        return self._goal_test(kind, VALUES[kind] // 8 + (-1 if self.t.limited else 1))

    def _goal_test(self, kind: int, value: int) -> int:
        t = self.t
        reach = t.miles[t.me] + VALUES[kind]
        if reach > t.goal:
            return kind if t.goal == 700 else 0
        if reach == t.goal:
            value = kind if self.end_found else FIRST_FINISH
            self.end_found = True
        return value

    def _repair(self, kind: int) -> int:
        t = self.t
        hazard = HAZARD_OF[kind]
        safety = SAFETY[hazard]
        if t.have(safety):
            return -1 if t.mine(safety) else 1
        if t.state.battle[t.me] != hazard and (t.seen[hazard] == COPIES[hazard]
                                               or t.seen[hazard] + self.cnt[kind] > COPIES[hazard]):
            self.cnt[kind] -= 1
            return 0
        value = 12 + t.seen[kind] - t.seen[hazard]
        if not self.play_mode:
            value = _div(value, self.cnt[kind] ** 2)
        self.cnt[kind] -= 1
        return value

    def _end_of_limit(self) -> int:
        t = self.t
        if t.have(RIGHT_OF_WAY):
            return -1 if t.mine(RIGHT_OF_WAY) else 1
        if t.limited and t.rem <= 50:
            return 1
        if t.limited or t.seen[SPEED_LIMIT] < COPIES[SPEED_LIMIT]:
            value = 18 + t.seen[END_OF_LIMIT] - t.seen[SPEED_LIMIT]
            if not self.play_mode:
                value = _div(value, self.cnt[END_OF_LIMIT] ** 2)
            self.cnt[END_OF_LIMIT] -= 1
            return value
        self.cnt[END_OF_LIMIT] -= 1
        return 0

    def _go(self) -> int:
        t, memory = self.t, self.memory
        if t.have(RIGHT_OF_WAY):
            return -1 if t.mine(RIGHT_OF_WAY) else 2
        need = memory.need[GO]
        if t.rolling and memory.numgos + self.cnt[GO] == need:
            self.cnt[GO] -= 1
            return 0
        value = _div(3 * need + t.seen[GO] - memory.numgos, self.cnt[GO] ** 2)
        self.cnt[GO] -= 1
        return value

    def _speed_limit(self) -> int:
        t = self.t
        if t.miles[t.op] + 50 >= t.goal:  # they can finish under a limit anyway
            return 1 if t.goal == 700 and not self.play_mode else 0
        if self.can_attack or (self.play_mode and not t.op_rolling):
            return 1
        return self._attack(2 if t.have(RIGHT_OF_WAY) else 3, RIGHT_OF_WAY, END_OF_LIMIT)

    def _stop(self) -> int:
        t = self.t
        if t.theirs(RIGHT_OF_WAY):
            return -1
        value = (3 if t.have(RIGHT_OF_WAY) else 4) * (4 + t.seen[GO])
        if t.miles[t.me] == 0 or self.end_found or t.onecard:
            value += 5
        if not self.play_mode:
            self.attacks += 1
            value = _div(value, self.attacks)
        if t.miles[t.op] == 0:
            value += 5
        if not t.op_rolling:
            value -= 5
        if self.play_mode and t.have(RIGHT_OF_WAY):
            value += 5
        return value

    def _attack(self, base: int, safety: int, remedy: int) -> int:
        t = self.t
        if t.theirs(safety):
            return -1
        value = base * (self.memory.need[remedy] + t.seen[remedy] + 2)
        if t.miles[t.me] == 0 or self.end_found or t.onecard:
            value += 5
        if t.miles[t.op] == 0 or t.onecard:
            value += 5
        if t.op_limited:
            value -= 3
        if self.play_mode and t.have(safety):
            value += 3
        if not self.play_mode:
            self.attacks += 1
            value = _div(value, self.attacks)
        return value


class ClassicMilleBot(Bot):
    """MIL-106: one decision of the BSD computer player, from the seat's view and its memory.

    ``choose`` returns the decision as the rules list it; ``decide`` also names the slot the card
    leaves from (``play go @5``, MIL-106 step 9), for a program that reproduces the BSD layout.
    The die (MIL-105) follows the seed the bot was made with; ``reseed`` changes only ``rng``,
    which the bot does not use.
    """

    name = "classic"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.bot_seed = seed
        self.memory: Memory | None = None

    def memory_json(self) -> Any:
        """The memory for a save file (MIL-70), ``None`` before the first decision."""
        return None if self.memory is None else self.memory.to_json()

    def load_memory(self, data: Any) -> None:
        """Restores ``memory_json``'s data; ``ValueError`` if it is not well formed."""
        self.memory = None if data is None else Memory.from_json(data)

    def choose(self, state: State, seconds: float) -> Action:
        return split_hint(self.decide(state))[0]

    def decide(self, state: State) -> Action:
        """The decision with its slot hint (MIL-64)."""
        if not isinstance(state, MilleState):
            raise OptionError(f"the classic Mille Bornes bot plays Mille Bornes, not {state.game.info.name}")
        me = state.to_move()
        if me < 0:
            raise OptionError("no seat is to decide")
        memory = self.memory
        if memory is None or memory.hand_serial != state.hand_serial:
            memory = self.memory = Memory(state.hand_serial)
            memory.catch_up(state, me)
        die = random.Random(f"mille-classic/{self.bot_seed}/{state.hand_serial}/{memory.decisions}")
        return classic_decision(state, memory, die)


def classic_decision(state: MilleState, memory: Memory, die: random.Random,
                     determinised: bool = False) -> Action:
    """MIL-106 for the seat to move, with its slot hint: notes the new cards, decides, and
    updates ``memory``. ``die`` gives the ten-sided die's rolls (MIL-105). ``determinised``: the
    state is a search's own sample (see ``_Table``)."""
    me = state.mover
    table = _Table(state, me, determinised)
    noted = memory.noted
    for kind in range(KINDS):  # MIL-104: note the cards not yet noted
        for _ in range(table.held[kind] - noted[kind]):
            memory.note(kind, table)
    action = _decide(state, table, memory, die)
    noted = table.held.copy()
    _, slot = split_hint(action)
    if slot is not None:
        noted[table.slots[slot]] -= 1
    memory.noted = noted
    memory.decisions += 1
    return action


def _decide(state: MilleState, t: _Table, memory: Memory, die: random.Random) -> Action:
    """MIL-106 steps 1 to 9 (MIL-103 at the extension step)."""
    if state.step == EXTENSION:
        played = state.events[-1].card  # the distance card that reached 700
        return EXTEND_YES if t.extend(t.hand_miles() + VALUES[played]) else EXTEND_NO
    cure = _cure(state, t)  # step 1
    if cure is not None:
        return cure
    if state.step == DRAW_STEP:
        return DRAW  # step 2
    assert state.step == PLAY_STEP
    # Step 3: classify.
    useful = [kind != EMPTY and kind < EXTRA_TANK and t.useful(kind) for kind in t.slots]
    n_play = sum(useful)
    can_attack = _can_attack(t, useful)
    can_finish = any(ok and kind <= D200 and VALUES[kind] == t.rem
                     for kind, ok in zip(t.slots, useful, strict=True))
    # Step 4: finish and stop here?
    stop_here = can_finish and (t.goal == 1000 or not t.extend(t.hand_miles()))
    released = _released(state, t, n_play, stop_here, can_attack, die)  # step 5
    if released is not None:
        return released
    # Step 6: need.
    top = state.battle[t.me]
    if top in BATTLE_HAZARDS:
        memory.need[REMEDY[top]] += 1
    return _choose(state, t, memory, useful, n_play, can_attack)  # steps 7 and 8


def _cure(state: MilleState, t: _Table) -> Action | None:
    """MIL-106 step 1: the first safety in the slots whose hazard is on the bot (MIL-36)."""
    for slot, kind in enumerate(t.slots):
        if kind >= EXTRA_TANK and state.cures(t.me, kind):
            return _safety(state, kind, slot)
    return None


def _can_attack(t: _Table, useful: list[bool]) -> bool:
    """MIL-106 step 3: a useful hazard in the hand; a Speed Limit counts only when every 25
    and 50 is seen, since none is then left for the other player to roll on under it."""
    return any(
        ok and (kind in BATTLE_HAZARDS
                or (kind == SPEED_LIMIT and t.seen[D25] == COPIES[D25] and t.seen[D50] == COPIES[D50]))
        for kind, ok in zip(t.slots, useful, strict=True)
    )


def _released(state: MilleState, t: _Table, n_play: int, stop_here: bool, can_attack: bool,
              die: random.Random) -> Action | None:
    """MIL-106 step 5: the first safety in the slots that ``_release`` lets go, if any."""
    for slot, kind in enumerate(t.slots):
        if kind < EXTRA_TANK:
            continue
        if _release(t, kind, n_play, stop_here, can_attack, die):
            return _safety(state, kind, slot)
    return None


def _choose(state: MilleState, t: _Table, memory: Memory, useful: list[bool], n_play: int,
            can_attack: bool) -> Action:
    """MIL-106 steps 7 and 8: value the hand in play mode when a card is useful, again in
    discard mode when play mode gives up, and play the best card or discard the least."""
    valuing = _Pass(t, memory, n_play > 0, can_attack)
    values = valuing.values()
    if valuing.restart:
        valuing = _Pass(t, memory, False, can_attack)
        values = valuing.values()
    if valuing.play_mode:
        return _play_best(t, values, useful)
    return _discard_least(state, t, values)


def _play_best(t: _Table, values: list[int | None], useful: list[bool]) -> Action:
    """The useful card of the highest value; on a tie the last slot, as the BSD program does."""
    best, best_value = -1, 0
    for slot, value in enumerate(values):
        if useful[slot] and value is not None and (best < 0 or value >= best_value):
            best, best_value = slot, value
    return play_action(t.slots[best], best)


def _discard_least(state: MilleState, t: _Table, values: list[int | None]) -> Action:
    """The card of the lowest value, on a tie the last slot; a safety is played, never discarded."""
    low, low_value = -1, 0
    for slot, value in enumerate(values):
        if value is not None and (low < 0 or value <= low_value):
            low, low_value = slot, value
    kind = t.slots[low]
    if kind >= EXTRA_TANK:
        return _safety(state, kind, low)
    return discard_action(kind, low)


def _release(t: _Table, safety: int, n_play: int, stop_here: bool, can_attack: bool,
             die: random.Random) -> bool:
    """MIL-106 step 5: whether to play ``safety`` now rather than keep it for a coup fourré."""
    if t.onecard or (stop_here and n_play > 0 and not can_attack):
        return True
    hazard = STOP if safety == RIGHT_OF_WAY else HAZARD_OF[safety]
    if t.seen[hazard] == COPIES[hazard] and (
            safety != RIGHT_OF_WAY or t.seen[SPEED_LIMIT] == COPIES[SPEED_LIMIT]):
        return True
    if n_play == 0 and (t.op_rolling or not t.rolling):
        roll = 1 + int(die.random() * 10)
        left = t.deck - roll
        if (t.miles[0] == 0) != (t.miles[1] == 0):
            left -= 7
        return left < 25
    return False


def _safety(state: MilleState, kind: int, slot: int) -> Action:
    me = state.to_move()
    return coup_action(kind, slot) if state.is_coup(me, kind) else play_action(kind, slot)


CLASSIC: Final[Callable[[int], Bot]] = ClassicMilleBot
"""A new classic player from a seed (``parlour.bots`` finds it here): Mille Bornes's ``classic`` bot."""
