"""Mille Bornes: the rules of ``specs/mille.md`` (MIL-…) with make/unmake.

Actions are the small ints of ``actions``, written and read as text by ``notation``, whose
reader knows syntax only: whose turn it is and MIL-65's legality are checked here. Hinted actions
(``play go @5``) are never listed as legal (the list shows one decision per card kind, MIL-63) but
are legal: a hint chooses which copy leaves the hand, never the rules. Hand ordering (MIL-17) and
a new game (MIL-56) are not actions (see ``actions``): a program keeps ordering as a way of
showing a hand, and starts the next game of a match with ``Mille.next_game``.
"""

from __future__ import annotations

import random
from typing import Any, Final, NoReturn

from parlour.engine import (
    CHANCE,
    NOBODY,
    Action,
    FormatError,
    Game,
    GameInfo,
    IllegalActionError,
    JSONDict,
    MatchRecord,
    NotationError,
    Outcome,
    State,
    is_leaving,
    leaving_of,
    two_player_outcome,
)
from parlour.games.mille import refusals
from parlour.games.mille.actions import (
    CARD,
    COUP,
    DISCARD,
    DRAW,
    EXTEND_NO,
    EXTEND_YES,
    HINT,
    PLAY,
    RETIRED,
    action_kind,
    hinted,
    split_hint,
)
from parlour.games.mille.cards import (
    BATTLE_HAZARDS,
    COPIES,
    D50,
    D200,
    DECK_SIZE,
    EMPTY,
    END_OF_LIMIT,
    EXTRA_TANK,
    GO,
    HAZARD_OF,
    KINDS,
    NAMES,
    REPAIR_KINDS,
    RIGHT_OF_WAY,
    SAFETY,
    SAFETY_BIT,
    SLOT_NAMES,
    SPEED_LIMIT,
    STOP,
    VALUES,
    shuffled_deck,
)
from parlour.games.mille.notation import action_parts, action_text, read_action
from parlour.games.mille.position import (
    DEAL,
    DRAW_STEP,
    DRAWING,
    EXTENDED_GOAL,
    EXTENSION,
    GAME_TARGET,
    GOAL,
    HAND_SIZE,
    OVER,
    PLAY_STEP,
    REACHED,
    Event,
    HandScore,
    Position,
    read_position,
    starter_of,
    write_position,
)
from parlour.games.mille.render import table
from parlour.games.mille.views import hidden_texts, open_content, sample_position, seat_view

PLAY_OUT: Final = "play-out"
_REPAIR_OR_EMPTY: Final = (EMPTY, *REPAIR_KINDS)
_GO_BASES: Final = (EMPTY, STOP, *REPAIR_KINDS)
"""MIL-28: the battle tops a Go may be played on."""
_FULL_DECK_ODDS: Final = [(CARD + k, COPIES[k] / DECK_SIZE) for k in range(KINDS)]


class NotToActError(IllegalActionError):
    """MIL-65's second error: a decision by a seat that is not the one to act."""


# --- the state --------------------------------------------------------------------------------------


def take_from_hand(slots: list[int], kind: int, slot: int | None = None) -> None:
    """Removes a card from a hand's slots (from ``slot``, else the lowest slot holding the kind),
    then tidies the hand as the rules keep it: the cards close up towards the higher slots."""
    slots[slots.index(kind) if slot is None else slot] = EMPTY
    for i in range(1, 7):
        if slots[i] == EMPTY:
            for below in range(i):
                if slots[below] != EMPTY:
                    slots[i], slots[below] = slots[below], EMPTY
                    break


class MilleState(State):
    """A Mille Bornes match position with its history (make/unmake, no copies).

    For bots and front ends (read-only; kinds are ints of ``cards``, ``EMPTY`` = -1):

    * ``slots[seat]``: the seven slots P, 1…6 of a hand of cards (hidden: read only your own);
    * ``battle[seat]``, ``speed[seat]``: the pile tops; ``battle_pile``, ``speed_pile``: the cards
      placed, oldest first; ``safeties[seat]``: ``(kind, coup)`` in playing order;
    * ``miles[seat][k]``: distance cards of kind k played; ``mileage[seat]``; ``window[seat]``: the
      hazard of an open coup window or ``EMPTY``; ``hand_total``, ``game_total``, ``games_won``;
    * ``pile`` (hidden, top last) and ``pile_count``; ``discards``; ``goal``, ``extended``;
    * ``step`` (``DEAL``, ``DRAWING``, ``DRAW_STEP``, ``PLAY_STEP``, ``EXTENSION``, ``OVER``),
      ``mover``, ``drawn``; ``stale``: a finished hand's tables, kept until the next deal begins;
      ``events`` (public, this hand); ``last_hand``: the last ``HandScore``; ``received[seat]``:
      the cards of a seat's last deal or draw (hidden);
    * queries: ``rolling``, ``limited``, ``cures``, ``is_coup``, ``play_error``, ``useful``,
      ``hand_of``, ``cards_held``, ``receiving``; ``redeal`` for determinised search.
    """

    __slots__ = (
        "_legal",
        "_outcome",
        "_undo",
        "battle",
        "battle_pile",
        "coups",
        "deal_index",
        "discards",
        "draw_size",
        "drawn",
        "events",
        "extended",
        "game_no",
        "game_total",
        "games_won",
        "goal",
        "hand_no",
        "hand_serial",
        "hand_total",
        "last_hand",
        "mileage",
        "miles",
        "mover",
        "pending",
        "pile",
        "pile_count",
        "received",
        "safeties",
        "safety_bits",
        "slots",
        "speed",
        "speed_pile",
        "stale",
        "step",
        "window",
    )

    def __init__(self, game: Game[State], options: dict[str, Any], seed: int, start: JSONDict | None,
                 position: Position) -> None:
        super().__init__(game, 2, options, seed, start)
        self._undo: list[tuple[Any, ...]] = []
        self._legal: list[Action] | None = None
        self._load(position)

    def _load(self, p: Position) -> None:
        self.game_no, self.hand_no, self.hand_serial = p.game_no, p.hand_no, p.hand_serial
        self.games_won, self.game_total = list(p.games_won), list(p.game_total)
        self._outcome, self.last_hand = p.outcome, p.last_hand
        self.step, self.mover, self.drawn = p.step, p.mover, p.drawn
        self.draw_size, self.pending = p.draw_size, p.pending
        self.deal_index, self.stale = p.deal_index, p.stale
        self.goal, self.extended = p.goal, p.extended
        self.pile = list(p.pile)
        self.pile_count = [0] * KINDS
        for kind in self.pile:
            self.pile_count[kind] += 1
        self.discards, self.events = list(p.discards), list(p.events)
        self.slots = [list(s) for s in p.slots]
        self.received = [list(r) for r in p.received]
        self.battle, self.speed = list(p.battle), list(p.speed)
        self.battle_pile, self.speed_pile = [list(b) for b in p.battle_pile], [list(s) for s in p.speed_pile]
        self.safeties = [list(s) for s in p.safeties]
        self.safety_bits = [sum(SAFETY_BIT[k] for k, _ in played) for played in self.safeties]
        self.coups = [sum(1 for _, coup in played if coup) for played in self.safeties]
        self.miles = [list(m) for m in p.miles]
        self.mileage = [sum(VALUES[k] * n for k, n in enumerate(m)) for m in self.miles]
        self.hand_total, self.window = list(p.hand_total), list(p.window)

    # --- derived conditions (MIL-18, MIL-36, MIL-39, MIL-51) ------------------------------------

    def rolling(self, seat: int) -> bool:
        """MIL-18: Go on top, or Right of Way played and the top empty or a repair."""
        top = self.battle[seat]
        return top == GO or (self.safety_bits[seat] & 8 != 0 and top in _REPAIR_OR_EMPTY)

    def limited(self, seat: int) -> bool:
        return self.speed[seat] == SPEED_LIMIT

    def has_played(self, seat: int, safety: int) -> bool:
        return self.safety_bits[seat] & SAFETY_BIT[safety] != 0

    def hand_of(self, seat: int) -> list[int]:
        """The kinds ``seat`` holds, in slot order (P first). Hidden from the other seat."""
        return [kind for kind in self.slots[seat] if kind != EMPTY]

    def cards_held(self, seat: int) -> int:
        return 7 - self.slots[seat].count(EMPTY)

    def cures(self, seat: int, safety: int) -> bool:
        """MIL-36: the safety's hazard is on ``seat``."""
        if safety == RIGHT_OF_WAY:
            return self.battle[seat] == STOP or self.speed[seat] == SPEED_LIMIT
        return self.battle[seat] == HAZARD_OF[safety]

    def is_coup(self, seat: int, safety: int) -> bool:
        """MIL-39: the safety answers the hazard of the open window, still on top."""
        hazard = self.window[seat]
        if hazard == EMPTY or SAFETY[hazard] != safety:
            return False
        if hazard == SPEED_LIMIT:
            return self.speed[seat] == SPEED_LIMIT
        return self.battle[seat] == hazard

    def play_error(self, seat: int, kind: int) -> str | None:
        """The message of the first failing check of §6 for playing a non-safety, else ``None``."""
        if kind <= D200:
            if kind == D200 and self.miles[seat][D200] >= 2:
                return "only two 200's per hand"
            if kind > D50 and self.speed[seat] == SPEED_LIMIT:
                return "limit of 50"
            if self.mileage[seat] + VALUES[kind] > self.goal:
                return f"puts you over {self.goal}"
            if not self.rolling(seat):
                return "cannot move now"
            return None
        if kind in BATTLE_HAZARDS:
            if not self.rolling(1 - seat):
                return "opponent cannot go"
            if self.has_played(1 - seat, SAFETY[kind]):
                return "opponent is protected"
            return None
        if kind == SPEED_LIMIT:
            if self.speed[1 - seat] == SPEED_LIMIT:
                return "opponent has limit"
            if self.has_played(1 - seat, RIGHT_OF_WAY):
                return "opponent is protected"
            return None
        if kind == GO:
            top = self.battle[seat]
            return None if top in _GO_BASES else f'cannot play "Go" on a "{NAMES[top]}"'
        if kind == END_OF_LIMIT:
            return None if self.speed[seat] == SPEED_LIMIT else "not limited"
        if self.battle[seat] != HAZARD_OF[kind]:
            return f'can\'t play "{NAMES[kind]}"'
        return None

    def useful(self, seat: int, kind: int) -> bool:
        """MIL-51: a safety, or a legal play that is not one of the two useless plays."""
        if kind >= EXTRA_TANK:
            return True
        if kind == SPEED_LIMIT:
            other = 1 - seat
            return (self.speed[other] != SPEED_LIMIT and not self.has_played(other, RIGHT_OF_WAY)
                    and self.mileage[other] + 50 < self.goal)
        if kind == GO:
            return not self.rolling(seat) and self.battle[seat] in _GO_BASES
        return self.play_error(seat, kind) is None

    def _nothing_useful(self) -> bool:
        for seat in (0, 1):
            for kind in set(self.slots[seat]):
                if kind != EMPTY and self.useful(seat, kind):
                    return False
        return True

    def receiving(self) -> tuple[int, int]:
        """While a card is dealt or drawn: the seat that receives it and the slot it goes to."""
        if self.step == DEAL:
            seat = 0 if self.deal_index < HAND_SIZE else 1
            preferred = self.deal_index % HAND_SIZE + 1
            if self.stale:
                return seat, preferred
        elif self.step == DRAWING:
            seat = self.mover
            preferred = 0 if self.pending == self.draw_size else 1
        else:
            raise IllegalActionError("no card is being dealt or drawn")
        slots = self.slots[seat]
        if slots[preferred] == EMPTY:
            return seat, preferred
        # Only in a position set up by hand whose cards do not fill the highest slots (MIL-16).
        return seat, slots.index(EMPTY)

    # --- the contract ---------------------------------------------------------------------------

    def to_move(self) -> int:
        step = self.step
        if step <= DRAWING:
            return CHANCE
        return NOBODY if step == OVER else self.mover

    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._decisions()
        return list(legal)

    def _decisions(self) -> list[Action]:
        step = self.step
        if step <= DRAWING:
            return [action for action, _ in self.chance_outcomes()]
        if step == OVER:
            return []
        if step == EXTENSION:
            return [EXTEND_YES, EXTEND_NO]
        seat = self.mover
        kinds = sorted(set(self.slots[seat]))
        actions = []
        if step == DRAW_STEP:
            for kind in kinds:
                if kind >= EXTRA_TANK and self.cures(seat, kind):
                    actions.append(COUP + kind if self.is_coup(seat, kind) else PLAY + kind)
            actions.append(DRAW)
            actions.sort()
            return actions
        discards = []
        for kind in kinds:
            if kind == EMPTY:
                continue
            if kind >= EXTRA_TANK:
                actions.append(COUP + kind if self.is_coup(seat, kind) else PLAY + kind)
                continue
            if self.play_error(seat, kind) is None:
                actions.append(PLAY + kind)
            discards.append(DISCARD + kind)
        actions.sort()
        actions.extend(discards)
        return actions

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """MIL-62: each kind left in the pile, with its share of the pile, in canonical order."""
        if self.step > DRAWING:
            raise IllegalActionError("no chance decision is pending")
        if self.stale:
            return list(_FULL_DECK_ODDS)
        size = len(self.pile)
        return [(CARD + kind, count / size) for kind, count in enumerate(self.pile_count) if count]

    def sample_chance(self) -> Action:
        """MIL-62: the top card of the pile, shuffled from the match seed for each hand (MIL-11)."""
        if self.step > DRAWING:
            raise IllegalActionError("no chance decision is pending")
        if self.stale:
            return CARD + shuffled_deck(self.seed, self.hand_serial + 1)[0]
        return CARD + self.pile[-1]

    def is_legal(self, action: Action) -> bool:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._decisions()
        return action in legal

    def play(self, action: Action) -> None:
        """Applies a legal action; an illegal one is refused with MIL-65's message where the
        notation gives one (``no card there``, ``must pick first``…). A decision with a slot hint
        goes through ``play_hinted``."""
        if not self.is_legal(action):
            self._refuse(action)
        self.apply(action)

    def play_hinted(self, action: Action) -> None:
        """Applies a legal decision with or without a slot hint (MIL-64): the hint names the slot
        the card leaves from, which must hold it. A hinted decision is the same decision as the
        listed one (so ``is_legal`` and ``parse_action`` know only the listed ones); the hint
        changes the slot layout only — how the classic program keeps the BSD layout (MIL-88)."""
        base, slot = split_hint(action)
        if not self.is_legal(base):
            self._refuse(base)
        if slot is not None and not self._hint_fits(base, slot):
            if not 0 <= slot < 7:
                raise IllegalActionError(f"there is no slot {slot}", action_text(base))
            raise refusals.not_held(action_kind(base), SLOT_NAMES[slot]).naming(action_text(base))
        self.apply(action)

    def play_text(self, text: str) -> Action:
        """Parses and plays a decision or chance outcome, its slot hint kept (``play_hinted``)."""
        action = self._parse(text)
        self.play_hinted(action)
        return action

    def _hint_fits(self, base: Action, slot: int) -> bool:
        hintable = COUP <= base < DRAW or PLAY <= base < EXTEND_YES
        return hintable and 0 <= slot < 7 and self.slots[self.mover][slot] == action_kind(base)

    def _refuse(self, action: Action) -> NoReturn:
        """Raises why ``action`` is not legal here (``illegal_reason``), with MIL-65's BSD message
        beside it where the check has one (``refusals.Refusal``)."""
        if _known(action) and split_hint(action)[1] is not None:
            raise IllegalActionError("a slot hint is played with play_hinted", action_text(action))
        if _known(action) and not self.is_over():
            text = action_text(action)
            try:
                self._parse(text)
            except refusals.Refusal:  # the reader's reason, naming the decision
                raise
            except IllegalActionError as refused:  # a reason that names no decision: name it
                raise type(refused)(refused.reason, text) from None
        raise self.refusal(action)

    def illegal_reason(self, action: Action) -> str:
        """MIL-65's checks in words (``refusals``): the reader's reason for the action's text."""
        if not _known(action) or self.is_over() or is_leaving(action):
            return super().illegal_reason(action)
        try:
            self._parse(action_text(action))
        except IllegalActionError as refused:
            return refused.reason
        return super().illegal_reason(action)

    # --- make and unmake --------------------------------------------------------------------------

    def _save(self) -> tuple[Any, ...]:
        return (
            self.step, self.mover, self.drawn, self.draw_size, self.pending, self.deal_index,
            self.stale, self.goal, self.extended, self.game_no, self.hand_no, self.hand_serial,
            self._outcome, self.last_hand, *self.games_won, *self.game_total, *self.hand_total,
            *self.battle, *self.speed, *self.safety_bits, *self.coups, *self.mileage,
            *self.window, len(self.events), len(self.discards), len(self.battle_pile[0]),
            len(self.battle_pile[1]), len(self.speed_pile[0]), len(self.speed_pile[1]),
            len(self.safeties[0]), len(self.safeties[1]),
        )

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (
            self.step, self.mover, self.drawn, self.draw_size, self.pending, self.deal_index,
            self.stale, self.goal, self.extended, self.game_no, self.hand_no, self.hand_serial,
            self._outcome, self.last_hand, w0, w1, g0, g1, h0, h1, b0, b1, s0, s1, f0, f1,
            c0, c1, m0, m1, x0, x1, events, discards, bp0, bp1, sp0, sp1, sf0, sf1,
        ) = saved
        self.games_won[:] = w0, w1
        self.game_total[:] = g0, g1
        self.hand_total[:] = h0, h1
        self.battle[:] = b0, b1
        self.speed[:] = s0, s1
        self.safety_bits[:] = f0, f1
        self.coups[:] = c0, c1
        self.mileage[:] = m0, m1
        self.window[:] = x0, x1
        del self.events[events:], self.discards[discards:]
        del self.battle_pile[0][bp0:], self.battle_pile[1][bp1:]
        del self.speed_pile[0][sp0:], self.speed_pile[1][sp1:]
        del self.safeties[0][sf0:], self.safeties[1][sf1:]

    def apply(self, action: Action) -> None:
        if action < 0:  # leaving the table (MIL-109), never a decision of the game
            self._leave(action)
            return
        base, slot = split_hint(action)
        saved = self._save()
        extra: Any = None
        seat = self.receiving()[0] if base >= CARD else self.mover
        hand = (seat, tuple(self.slots[seat]), tuple(self.received[seat]))
        self.history.append(action)
        self._legal = None
        if base >= CARD:
            extra = self._card(base - CARD)
        elif base == DRAW:
            self._draw()
        elif base >= EXTEND_YES:
            self._extend(base == EXTEND_YES)
        elif base >= DISCARD:
            self._discard(base - DISCARD, slot)
        elif base >= PLAY:
            self._play(base - PLAY, slot)
        else:
            self._play(base - COUP, slot)
        self._undo.append((saved, hand, extra))

    def undo(self) -> None:
        if not self.history:
            raise IllegalActionError("nothing to undo")
        action = self.history.pop()
        saved, (seat, slots, received), extra = self._undo.pop()
        if extra is not None:
            if len(extra) == 3:  # the first card of a hand: bring the last hand back
                self._thaw(extra[2])
            else:
                index, kind = extra
                self.pile.insert(index, kind)
                self.pile_count[kind] += 1
        self._restore(saved)
        # A leaving action (-55 to -16) lands on 201 to 240 here: never a distance card.
        base = action % HINT
        if PLAY <= base <= PLAY + D200:
            self.miles[self.mover][base - PLAY] -= 1
        self.slots[seat][:] = slots
        self.received[seat][:] = received
        self._legal = None

    def copy_into(self, clone: MilleState) -> None:
        clone._undo = self._undo.copy()  # its entries are never mutated
        clone._legal = self._legal
        clone._outcome, clone.last_hand = self._outcome, self.last_hand
        clone.game_no, clone.hand_no, clone.hand_serial = self.game_no, self.hand_no, self.hand_serial
        clone.games_won, clone.game_total = self.games_won.copy(), self.game_total.copy()
        clone.step, clone.mover, clone.drawn = self.step, self.mover, self.drawn
        clone.draw_size, clone.pending = self.draw_size, self.pending
        clone.deal_index, clone.stale = self.deal_index, self.stale
        clone.goal, clone.extended = self.goal, self.extended
        clone.pile, clone.pile_count = self.pile.copy(), self.pile_count.copy()
        clone.discards, clone.events = self.discards.copy(), self.events.copy()
        clone.slots = [self.slots[0].copy(), self.slots[1].copy()]
        clone.received = [self.received[0].copy(), self.received[1].copy()]
        clone.battle, clone.speed = self.battle.copy(), self.speed.copy()
        clone.battle_pile = [self.battle_pile[0].copy(), self.battle_pile[1].copy()]
        clone.speed_pile = [self.speed_pile[0].copy(), self.speed_pile[1].copy()]
        clone.safeties = [self.safeties[0].copy(), self.safeties[1].copy()]
        clone.safety_bits, clone.coups = self.safety_bits.copy(), self.coups.copy()
        clone.miles = [self.miles[0].copy(), self.miles[1].copy()]
        clone.mileage, clone.hand_total = self.mileage.copy(), self.hand_total.copy()
        clone.window = self.window.copy()

    def redeal(self, viewer: int | None, rng: random.Random) -> MilleState:
        """A copy in which the cards hidden from ``viewer`` — the other seat's hand of cards (both
        hands for a spectator) and the pile — are dealt again at random into the same slots and
        pile places (MIL-58). From a state sampled from ``viewer``'s view this is another sample,
        about ten times faster than ``Mille.sample_state``. The copy has no history (an undo could
        bring back the hidden cards); its ``start`` is its own position."""
        clone = self.copy()
        hidden_seats = [seat for seat in (0, 1) if seat != viewer]
        cards = [kind for seat in hidden_seats for kind in clone.slots[seat] if kind != EMPTY]
        cards.extend(clone.pile)
        rng.shuffle(cards)
        at = 0
        for seat in hidden_seats:
            slots = clone.slots[seat]
            for slot in range(7):
                if slots[slot] != EMPTY:
                    slots[slot] = cards[at]
                    at += 1
            clone.received[seat] = []
        clone.pile[:] = cards[at:]
        clone.pile_count = [0] * KINDS
        for kind in clone.pile:
            clone.pile_count[kind] += 1
        clone.seed = rng.getrandbits(52)
        clone.history = []
        clone._undo = []
        clone._legal = None
        clone.start = write_position(clone)
        return clone

    def position_key(self) -> int:
        """Covers the rules' state: hands of cards as multisets, pile contents, tables, scores, turn."""
        return hash((
            self.step, self.mover, self.drawn, self.pending, self.deal_index, self.stale, self.goal,
            tuple(sorted(self.slots[0])), tuple(sorted(self.slots[1])), tuple(self.pile_count),
            tuple(self.battle), tuple(self.speed), tuple(self.safety_bits), tuple(self.coups),
            tuple(self.miles[0]), tuple(self.miles[1]), tuple(self.window), tuple(self.hand_total),
            tuple(self.game_total), tuple(self.games_won), self.hand_serial, self._outcome,
        ))

    # --- the hand of cards (MIL-16) ---------------------------------------------------------------

    def _take(self, seat: int, kind: int, slot: int | None) -> None:
        take_from_hand(self.slots[seat], kind, slot)

    # --- the flow (MIL-61) ----------------------------------------------------------------------------

    def _card(self, kind: int) -> tuple[Any, ...]:
        """A chance outcome: the topmost card of ``kind`` leaves the pile for the receiving slot."""
        frozen = None
        if self.stale:
            frozen = self._freeze()
            self._new_hand()
        pile = self.pile
        index = len(pile) - 1
        while pile[index] != kind:
            index -= 1
        del pile[index]
        self.pile_count[kind] -= 1
        seat, slot = self.receiving()
        self.slots[seat][slot] = kind
        if self.step == DEAL:
            if self.deal_index % HAND_SIZE == 0:
                self.received[seat] = []
            self.received[seat].append(kind)
            self.deal_index += 1
            if self.deal_index == 2 * HAND_SIZE:
                self._start_turn(starter_of(self.hand_serial))
        else:
            self.received[seat].append(kind)
            self.pending -= 1
            if not self.pending:
                self.step = PLAY_STEP
                if not pile and self._nothing_useful():  # MIL-51 after the draw that empties the pile
                    self._end_hand(PLAY_OUT)
        return (index, kind) if frozen is None else (index, kind, frozen)

    def _draw(self) -> None:
        """MIL-21: one card, or two when the mover holds five or fewer and the pile has two."""
        seat = self.mover
        self.window[seat] = EMPTY
        size = 2 if self.cards_held(seat) <= 5 and len(self.pile) >= 2 else 1
        self.drawn = True
        self.draw_size = self.pending = size
        self.received[seat] = []
        self.events.append(Event("draw", seat, number=size))
        self.step = DRAWING

    def _play(self, kind: int, slot: int | None) -> None:
        seat = self.mover
        other = 1 - seat
        self._take(seat, kind, slot)
        if kind >= EXTRA_TANK:
            self._safety(seat, kind)
            return
        self.window[seat] = EMPTY
        points = 0
        if kind <= D200:
            points = VALUES[kind]
            self.miles[seat][kind] += 1
            self.mileage[seat] += points
            self._score(seat, points)
        elif kind in BATTLE_HAZARDS:
            self.battle[other] = kind
            self.battle_pile[other].append(kind)
            self.window[other] = kind
        elif kind == SPEED_LIMIT:
            self.speed[other] = kind
            self.speed_pile[other].append(kind)
            self.window[other] = kind
        elif kind == END_OF_LIMIT:
            self.speed[seat] = kind
            self.speed_pile[seat].append(kind)
        else:  # Go or a repair
            self.battle[seat] = kind
            self.battle_pile[seat].append(kind)
        self.events.append(Event("play", seat, kind, points))
        if self.mileage[seat] == self.goal and kind <= D200:
            if self.extended:
                self._end_hand("1000")  # MIL-46
            else:
                self.step = EXTENSION  # MIL-45
            return
        self._end_turn()

    def _safety(self, seat: int, kind: int) -> None:
        """MIL-34 to MIL-40."""
        coup = self.is_coup(seat, kind)
        if kind == RIGHT_OF_WAY:
            limited = self.speed[seat] == SPEED_LIMIT
            if limited:
                self.speed[seat] = EMPTY
            top = self.battle[seat]
            if top == STOP:
                self.battle[seat] = EMPTY
            elif limited and top in _REPAIR_OR_EMPTY:
                self.battle[seat] = GO
        elif self.battle[seat] == HAZARD_OF[kind]:
            self.battle[seat] = GO
        self.safeties[seat].append((kind, coup))
        self.safety_bits[seat] |= SAFETY_BIT[kind]
        points = 100 + (300 if len(self.safeties[seat]) == 4 else 0)
        if coup:
            points += 300
            self.coups[seat] += 1
            self.window[seat] = EMPTY
        self._score(seat, points)
        self.events.append(Event("play", seat, kind, points, coup))
        if not self.pile and self._nothing_useful():
            self._end_hand(PLAY_OUT)
            return
        # MIL-24: the extra turn, starting with a draw step again.
        self.drawn = False
        self.draw_size = 0
        if self.cards_held(seat):
            self.step = DRAW_STEP if self.pile else PLAY_STEP
        else:
            self._pass_turn()

    def _discard(self, kind: int, slot: int | None) -> None:
        seat = self.mover
        self._take(seat, kind, slot)
        self.window[seat] = EMPTY
        self.discards.append(kind)
        self.events.append(Event("discard", seat, kind))
        self._end_turn()

    def _extend(self, yes: bool) -> None:
        self.events.append(Event("extend", self.mover, flag=yes))
        if not yes:
            self._end_hand("declined")
            return
        self.goal = EXTENDED_GOAL
        self.extended = True
        self._end_turn()

    def _leave(self, action: Action) -> None:
        """MIL-109: a seat retires and the other wins the game at once, or the table agrees a draw
        or the match is abandoned (nobody wins). The game totals stand as they are, with no
        end-of-hand scoring: they are the outcome's scores. The hand stops where it is, cards
        still hidden; only the game's end is added to its public events."""
        leaving = leaving_of(action)
        assert leaving is not None
        saved = self._save()
        self.history.append(action)
        self._legal = None
        first, second = self.game_total
        self._outcome = two_player_outcome(leaving, (float(first), float(second)))
        winner = self._outcome.winner
        if winner is not None:
            self.games_won[winner] += 1
        # What a position read back says of the end (``position``'s reader builds the same).
        score = HandScore("play-out", ((0,) * 9, (0,) * 9), (0, 0), (first, second))
        self.events.append(Event("game_end", -1 if winner is None else winner, score=score))
        # As at the end of a game by play (``_end_hand``): no draw under way, no hands between.
        self.step = OVER
        self.stale = self.drawn = False
        self.draw_size = self.pending = 0
        # No hand of cards changed: undo puts seat 0's back as it is.
        self._undo.append((saved, (0, tuple(self.slots[0]), tuple(self.received[0])), None))

    def _new_game(self) -> None:
        """MIL-56: totals back to 0; games won, hand serials and the starter alternation go on
        (for ``Mille.next_game``, on a copy: a new game is not an action)."""
        self.game_no += 1
        self.hand_no = 0
        self.game_total[:] = 0, 0
        self._outcome = None
        self.step = DEAL
        self.deal_index = 0
        self.stale = True

    def _score(self, seat: int, points: int) -> None:
        self.hand_total[seat] += points
        self.game_total[seat] += points

    def _end_turn(self) -> None:
        if not self.pile and self._nothing_useful():
            self._end_hand(PLAY_OUT)
        else:
            self._pass_turn()

    def _pass_turn(self) -> None:
        self.window[self.mover] = EMPTY
        self._start_turn(1 - self.mover)

    def _start_turn(self, seat: int) -> None:
        if not self.cards_held(seat):  # MIL-19: skipped, the turn passes straight back
            self.window[seat] = EMPTY
            seat = 1 - seat
        self.mover = seat
        self.drawn = False
        self.draw_size = self.pending = 0
        self.step = DRAW_STEP if self.pile else PLAY_STEP

    def _end_hand(self, how: str) -> None:
        """MIL-50 to MIL-55: the end-of-hand bonuses, then the next deal or the end of the game."""
        self.window[:] = EMPTY, EMPTY
        self.drawn = False
        self.draw_size = self.pending = 0
        lines = []
        for seat in (0, 1):
            played = len(self.safeties[seat])
            line = [self.mileage[seat], 100 * played, 300 if played == 4 else 0, 300 * self.coups[seat],
                    0, 0, 0, 0, 0]
            if how != PLAY_OUT and self.mileage[seat] == self.goal:
                line[4] = 400
                line[5] = 300 if self.miles[seat][D200] == 0 else 0
                line[6] = 0 if self.pile else 300
                line[7] = 200 if self.goal == EXTENDED_GOAL else 0
                line[8] = 500 if self.mileage[1 - seat] == 0 else 0
                self._score(seat, sum(line[4:]))
            lines.append(tuple(line))
        score = HandScore(how, (lines[0], lines[1]), (self.hand_total[0], self.hand_total[1]),
                          (self.game_total[0], self.game_total[1]))
        self.last_hand = score
        self.events.append(Event("hand_end", score=score))
        first, second = self.game_total
        if max(first, second) < GAME_TARGET:
            self.step = DEAL
            self.deal_index = 0
            self.stale = True
            return
        winner = None if first == second else (0 if first > second else 1)
        if winner is not None:
            self.games_won[winner] += 1
        self._outcome = Outcome(winner, REACHED, (float(first), float(second)))  # MIL-55
        self.events.append(Event("game_end", -1 if winner is None else winner, score=score))
        self.step = OVER

    def _new_hand(self) -> None:
        """MIL-11, MIL-14: a fresh hand, its pile shuffled from the seed and the hand serial."""
        self.hand_serial += 1
        self.hand_no += 1
        self.stale = False
        self.goal, self.extended = GOAL, False
        self.pile = list(reversed(shuffled_deck(self.seed, self.hand_serial)))
        self.pile_count = list(COPIES)
        self.discards = []
        self.events = [Event("deal", starter_of(self.hand_serial), number=self.hand_serial)]
        self.slots = [[EMPTY] * 7, [EMPTY] * 7]
        self.received = [[], []]
        self.battle, self.speed = [EMPTY, EMPTY], [EMPTY, EMPTY]
        self.battle_pile, self.speed_pile = [[], []], [[], []]
        self.safeties = [[], []]
        self.safety_bits, self.coups = [0, 0], [0, 0]
        self.miles = [[0] * 5, [0] * 5]
        self.mileage, self.hand_total, self.window = [0, 0], [0, 0], [EMPTY, EMPTY]

    def _freeze(self) -> tuple[Any, ...]:
        """The last hand's tables, kept in the undo entry of the next hand's first card."""
        return (
            tuple(self.pile), tuple(self.discards), tuple(self.events),
            tuple(map(tuple, self.slots)), tuple(map(tuple, self.received)),
            tuple(map(tuple, self.battle_pile)), tuple(map(tuple, self.speed_pile)),
            tuple(map(tuple, self.safeties)), tuple(map(tuple, self.miles)),
        )

    def _thaw(self, frozen: tuple[Any, ...]) -> None:
        pile, discards, events, slots, received, battle_pile, speed_pile, safeties, miles = frozen
        self.pile, self.discards, self.events = list(pile), list(discards), list(events)
        self.pile_count = [0] * KINDS
        for kind in pile:
            self.pile_count[kind] += 1
        self.slots, self.received = [list(s) for s in slots], [list(r) for r in received]
        self.battle_pile, self.speed_pile = [list(b) for b in battle_pile], [list(s) for s in speed_pile]
        self.safeties, self.miles = [list(s) for s in safeties], [list(m) for m in miles]

    # --- notation -------------------------------------------------------------------------------------

    def action_to_text(self, action: Action) -> str:
        if is_leaving(action):
            return self.leaving_text(action)
        try:
            return action_text(action)
        except IndexError:  # a number past every action (a hint beyond the slots): no action
            raise NotationError(f"not a Mille Bornes action: {action!r}") from None

    def record_lines(self) -> list[str]:
        """MIL-66: the history as record entries — ``0: draw``, ``card 75``, ``1: play stop`` —
        which ``parse_action`` (hence ``play_text``) reads back. Hidden information: the chance
        entries name every card drawn."""
        lines = []
        for action, (saved, _, _) in zip(self.history, self._undo, strict=True):
            if action < 0:  # leaving the table (MIL-109): words, which no BSD record holds
                lines.append(self.leaving_text(action))
                continue
            text = action_text(action)
            if action % HINT >= CARD:
                lines.append(text)
            else:
                lines.append(f"{saved[1]}: {text}")  # the mover before the decision
        return lines

    def action_text_for(self, action: Action, seat: int | None) -> str:
        """The action as ``seat`` may read it: a card dealt or drawn to another seat is ``card ?``."""
        if CARD <= action < CARD + KINDS and (self.step > DRAWING or self.receiving()[0] != seat):
            return "card ?"
        return self.action_to_text(action)  # a leaving action is public

    def parse_action(self, text: str) -> Action:
        """MIL-64: ``draw``, ``play K``, ``discard K``, ``coup K`` (each with an optional ``@SLOT``),
        ``extend yes|no``, ``card K``; an optional ``N:`` seat prefix as in a record line (MIL-66).
        ``NotationError`` for text that is none of these (``order on|off`` and ``new_game`` included:
        they are no actions), ``NotToActError`` for another seat's decision, ``IllegalActionError``
        with the BSD program's message otherwise (MIL-65). Whatever it returns is legal: a slot
        hint is checked (``no card there``) and left out, as the same decision (MIL-64); the
        classic program keeps it through ``play_text``."""
        return split_hint(self._parse(text))[0]

    def _parse(self, text: str) -> Action:
        """``parse_action`` with the slot hint kept in the action: ``notation.read_action`` reads
        the text, the rules say whose turn it is and whether it is legal (MIL-65)."""
        written = read_action(text)
        if written.action >= CARD:
            return self._chance_card(written.kind)
        mover = self.to_move()
        if mover == NOBODY:
            raise IllegalActionError(self.over_reason())
        if mover == CHANCE:
            raise NotToActError("a card must be dealt or drawn first")
        if written.seat is not None and written.seat != mover:
            raise NotToActError(f"seat {written.seat} is not to act: it is seat {mover}'s decision")
        try:
            decision = self._legal_decision(written.action, written.kind, written.slot)
        except refusals.Refusal as refused:
            raise refused.naming(action_text(written.action)) from None
        return hinted(decision, written.slot)

    def _chance_card(self, kind: int) -> Action:
        """A chance outcome (MIL-62) read as ``card K``: legal while a card is dealt or drawn and
        the pile holds one of that kind."""
        if self.step > DRAWING:
            raise IllegalActionError("no card is being dealt or drawn")
        if not self.stale and not self.pile_count[kind]:
            raise IllegalActionError(f"no {NAMES[kind]} is left in the pile")
        return CARD + kind

    def _legal_decision(self, action: Action, kind: int, slot: int | None) -> Action:
        """The decision ``action`` stands for here, or the MIL-65 message of why it is illegal."""
        if (action >= EXTEND_YES) != (self.step == EXTENSION):
            raise refusals.not_now(self.step == EXTENSION)
        if action >= EXTEND_YES:
            return action
        if action == DRAW:
            return self._legal_draw()
        seat = self.mover
        holds = (self.slots[seat][slot] == kind) if slot is not None else kind in self.slots[seat]
        if self.step == DRAW_STEP:
            return self._legal_before_drawing(action, kind, seat, holds)
        if not holds:
            raise refusals.not_held(kind, None if slot is None else SLOT_NAMES[slot])
        return self._legal_card(action, kind, seat)

    def _legal_draw(self) -> Action:
        """MIL-65: a draw, once a turn while the pile has cards."""
        if self.drawn:
            raise refusals.drawn_already()
        if not self.pile:
            raise refusals.pile_empty()
        return DRAW

    def _legal_before_drawing(self, action: Action, kind: int, seat: int, holds: bool) -> Action:
        """MIL-35, MIL-88: before drawing only a curing safety may leave the hand."""
        if action >= DISCARD or kind < EXTRA_TANK or not holds:
            raise refusals.draw_first(seat, kind, action >= DISCARD, holds)
        if action < DRAW:
            return self._legal_coup(action, kind, seat)
        if not self.cures(seat, kind):
            raise refusals.draw_first(seat, kind, False, holds)
        return self._safety_play(action, kind, seat)

    def _legal_card(self, action: Action, kind: int, seat: int) -> Action:
        """MIL-65 after the draw: a play, discard or coup of a card ``seat`` holds."""
        safety = kind >= EXTRA_TANK
        if action >= DISCARD:
            if safety:
                raise refusals.safety_discard(kind)
            return action
        if action < DRAW:
            return self._legal_coup(action, kind, seat)
        if safety:
            return self._safety_play(action, kind, seat)
        error = self.play_error(seat, kind)
        if error is not None:
            raise refusals.play_refusal(self, seat, kind, error)
        return action

    def _legal_coup(self, action: Action, kind: int, seat: int) -> Action:
        """A coup fourré claimed by name (MIL-39)."""
        if not self.is_coup(seat, kind):
            raise refusals.no_coup(kind)
        return action

    def _safety_play(self, action: Action, kind: int, seat: int) -> Action:
        """A safety played: it is the coup fourré when one is open for it (MIL-39)."""
        return COUP + kind if self.is_coup(seat, kind) else action

    # --- what leaves the engine -------------------------------------------------------------------

    def view_content(self, seat: int | None) -> JSONDict:
        """MIL-57: the public part, and for a seat its own hand of cards; never a record."""
        return seat_view(self, seat)

    def open_view(self) -> JSONDict:
        """A spectator's view with every hand of cards shown (``views.open_content``), for the
        replay of a finished match."""
        return {**self.view(None), "content": open_content(self)}

    def action_parts(self, action: Action) -> JSONDict:
        """The parts of a legal action (``notation.action_parts``: ``kind``, ``card``, ``yes``, a
        hinted ``slot``), and what the position adds:

        * a play, discard or coup of the seat to move: the ``slot`` its card leaves from — the
          hint, else the lowest slot holding that kind (MIL-63) — so a front end can point at
          the card in that seat's hand (only that seat is sent its legal actions);
        * a chance outcome: the receiving ``seat`` and ``slot`` (public, MIL-60) beside its card,
          which is hidden from the other seat: such parts are never a seat's to read (a chance
          outcome is no seat's legal action; see ``notation.action_parts``)."""
        parts: JSONDict = action_parts(action)
        base, slot = split_hint(action)
        if base >= CARD:
            if self.step <= DRAWING:
                seat, slot = self.receiving()
                parts.update(seat=seat, slot=SLOT_NAMES[slot])
        elif slot is None and "card" in parts and self.step in (DRAW_STEP, PLAY_STEP):
            hand = self.slots[self.mover]
            kind = action_kind(base)
            if kind in hand:
                parts["slot"] = SLOT_NAMES[hand.index(kind)]
        return parts

    def hidden_from(self, seat: int | None) -> list[str]:
        return hidden_texts(self, seat)

    def position_json(self) -> JSONDict:
        return write_position(self)

    def render(self, seat: int | None = None) -> str:
        return table(self, seat)


def _known(action: Action) -> bool:
    try:
        action_text(action)
    except (NotationError, IndexError):  # IndexError: a number past every action
        return False
    return True


class Mille(Game[MilleState]):
    """Mille Bornes for two, as Ken Arnold's BSD ``mille`` plays it, bugs fixed (``specs/mille.md``)."""

    info = GameInfo(
        name="mille",
        title="Mille Bornes",
        min_players=2,
        max_players=2,
        default_players=2,
        chance=True,
        hidden_information=True,
        options=(),
        seat_names=("Player 1", "Player 2"),  # MIL-57 speaks of seat 0 and seat 1
        # A take-back would show a person the pile: draw, see the card, undo, decide again.
        can_undo=False,
        # Every hand ends (MIL-50, MIL-51) and a game to 5000 takes a few hands: ~2,000 actions
        # between random bots, up to ~6,000. The bound only stops a runaway.
        max_actions=200_000,
        # MIL-55: the only end of play; completes "Player 1 wins: …" and, for equal totals,
        # "Draw: …". Leaving the table (MIL-109) ends a game with the engine's reasons.
        end_reasons={REACHED: "a game total reached 5000 (the higher total wins)"},
    )

    def create(
        self, players: int, options: dict[str, Any], seed: int, start: JSONDict | None
    ) -> MilleState:
        if start is None:
            position = Position(pile=list(reversed(shuffled_deck(seed, 1))))
            position.events.append(Event("deal", 0, number=1))
        else:
            position = read_position(start, seed)
        return MilleState(self, options, seed, start, position)

    def sample_state(self, view: JSONDict, rng: random.Random) -> MilleState:
        """A full state consistent with ``view`` (MIL-58): the unseen cards dealt at random to the
        hidden hands and the pile. Its seed is drawn from ``rng``; it has no history."""
        content, seat = view.get("content"), view.get("seat")
        if not isinstance(content, dict) or not (seat is None or isinstance(seat, int)):
            raise FormatError("not a Mille Bornes view: it needs its seat and its content")
        start = sample_position(content, seat, rng)
        return self.new(options=view.get("options"), seed=rng.getrandbits(52), start=start)

    def next_game(self, over: MilleState) -> MilleState:
        """MIL-56: the next game of the match a finished game belongs to — both game totals 0,
        the games won kept, the hand serials and the starter alternation going on — about to deal
        its first hand. A new state (its ``start`` is that position, its seed the match's): a new
        game is no seat's decision, so it is not an action of the finished one."""
        if over.step != OVER:
            raise IllegalActionError("a new game starts only when the game is over")
        following = over.copy()
        following._new_game()
        return self.new(options=over.options, seed=over.seed, start=write_position(following))

    def state_from_json(self, data: Any) -> MilleState:
        """``State.to_json()`` read back, slot hints kept (``play_hinted``); a record from an
        earlier version that holds a hand ordering or a new game (no actions now) is refused in
        words."""
        record = MatchRecord.from_json(data)
        if any(RETIRED <= action < HINT for action in record.actions):
            raise FormatError("this Mille Bornes record comes from an earlier parlour: it holds hand "
                              "ordering or new game entries, which are no longer game actions")
        return record.replay(self, MilleState.play_hinted)


