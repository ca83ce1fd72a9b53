"""A Mille Bornes position as data: what the state holds, read from and written to JSON (both
ways here; the seat views in ``views`` are built from its public blocks).

The JSON form (``MilleState.position_json``, what ``Mille.new(start=…)`` accepts) follows the
``match`` and ``hand`` blocks of the save file (MIL-70), with a few keys added so that every
state — a deal or a draw half done, the public event log — can be written and read back. The
reader fills sensible defaults for missing keys, so tests can set up a position in a few lines.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from parlour.engine import ABANDONED, AGREED, WHYS, FormatError, JSONDict, NotationError, Outcome
from parlour.games.mille.cards import (
    COPIES,
    D200,
    EMPTY,
    END_OF_LIMIT,
    KINDS,
    REPAIR_KINDS,
    SAFETIES,
    SPEED_LIMIT,
    TOKENS,
    VALUES,
    parse_card,
)

if TYPE_CHECKING:
    from parlour.games.mille.rules import MilleState

# The engine's steps (MIL-60): two chance steps, three decision steps, and the end of a game.
DEAL, DRAWING, DRAW_STEP, PLAY_STEP, EXTENSION, OVER = range(6)
STEP_NAMES: Final = ("deal", "draw", "draw", "play", "extension", None)

GOAL: Final = 700
EXTENDED_GOAL: Final = 1000
GAME_TARGET: Final = 5000
REACHED: Final = "reached-5000"
"""The one way a game ends (MIL-55): the ``Outcome.reason`` code, declared in ``GameInfo.end_reasons``."""
ENDS: Final = (REACHED, *WHYS, AGREED, ABANDONED)
"""Every ``Outcome.reason`` of a game: 5000 reached, or the table left (MIL-109)."""
_OLD_REASONS: Final = {"5000": REACHED}
"""Reason codes written by earlier versions of parlour, read as today's."""
HAND_SIZE: Final = 6

LINE_NAMES: Final = ("milestones", "safeties", "all_four", "coups", "trip", "safe_trip",
                     "delayed_action", "extension", "shut_out")
"""The lines of the score window (MIL-53), in order."""

HOW_ENDED: Final = ("declined", "1000", "play-out")
"""How a hand ends (MIL-67): the trip and ``extend no``, 1000 miles, or play-out (MIL-51)."""


class HandScore(NamedTuple):
    """The end-of-hand scoring (MIL-53, MIL-54, MIL-67)."""

    how: str
    lines: tuple[tuple[int, ...], tuple[int, ...]]
    """Per seat, the points of each line of ``LINE_NAMES`` scored in this hand."""
    hand_totals: tuple[int, int]
    game_totals: tuple[int, int]


class Event(NamedTuple):
    """A public event of the hand (MIL-57 item 7, MIL-67).

    ``kind`` is ``deal`` (``seat`` the starter, ``number`` the hand serial), ``draw`` (``number``
    cards, never which), ``play`` (``card``, ``flag`` for a coup fourré, ``number`` the points
    scored at once), ``discard`` (``card``), ``extend`` (``flag``: yes), ``hand_end`` (``score``)
    or ``game_end`` (``seat`` the winner, -1 for a tie; ``score`` the last hand's).
    """

    kind: str
    seat: int = -1
    card: int = EMPTY
    number: int = 0
    flag: bool = False
    score: HandScore | None = None


@dataclass
class Position:
    """Everything a state holds apart from its history. Piles and lists go oldest first, except
    ``pile``, which is stored with its top card last (so a draw is ``pop()``)."""

    game_no: int = 1
    hand_no: int = 1
    hand_serial: int = 1
    games_won: list[int] = field(default_factory=lambda: [0, 0])
    game_total: list[int] = field(default_factory=lambda: [0, 0])
    outcome: Outcome | None = None
    last_hand: HandScore | None = None
    step: int = DEAL
    mover: int = 0
    drawn: bool = False
    draw_size: int = 0
    pending: int = 0
    deal_index: int = 0
    stale: bool = False
    goal: int = GOAL
    extended: bool = False
    pile: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    slots: list[list[int]] = field(default_factory=lambda: [[EMPTY] * 7, [EMPTY] * 7])
    received: list[list[int]] = field(default_factory=lambda: [[], []])
    battle: list[int] = field(default_factory=lambda: [EMPTY, EMPTY])
    speed: list[int] = field(default_factory=lambda: [EMPTY, EMPTY])
    battle_pile: list[list[int]] = field(default_factory=lambda: [[], []])
    speed_pile: list[list[int]] = field(default_factory=lambda: [[], []])
    safeties: list[list[tuple[int, bool]]] = field(default_factory=lambda: [[], []])
    miles: list[list[int]] = field(default_factory=lambda: [[0] * 5, [0] * 5])
    hand_total: list[int] = field(default_factory=lambda: [0, 0])
    window: list[int] = field(default_factory=lambda: [EMPTY, EMPTY])


def starter_of(hand_serial: int) -> int:
    """MIL-13: seat 0 starts the odd hands, seat 1 the even ones."""
    return 0 if hand_serial % 2 else 1


# --- writing --------------------------------------------------------------------------------------


def token(kind: int) -> str | None:
    return None if kind == EMPTY else TOKENS[kind]


def score_json(score: HandScore) -> dict[str, Any]:
    seats = []
    for seat in (0, 1):
        entry: dict[str, Any] = dict(zip(LINE_NAMES, score.lines[seat], strict=True))
        entry["hand_total"] = score.hand_totals[seat]
        entry["game_total"] = score.game_totals[seat]
        seats.append(entry)
    return {"how": score.how, "seats": seats}


def event_json(event: Event) -> dict[str, Any]:
    kind = event.kind
    if kind == "deal":
        return {"event": kind, "hand_serial": event.number, "starter": event.seat}
    if kind == "draw":
        return {"event": kind, "seat": event.seat, "cards": event.number}
    if kind == "play":
        return {"event": kind, "seat": event.seat, "card": TOKENS[event.card], "coup": event.flag,
                "points": event.number}
    if kind == "discard":
        return {"event": kind, "seat": event.seat, "card": TOKENS[event.card]}
    if kind == "extend":
        return {"event": kind, "seat": event.seat, "extend": event.flag}
    assert event.score is not None
    if kind == "hand_end":
        return {"event": kind, **score_json(event.score)}
    return {"event": kind, "winner": None if event.seat < 0 else event.seat,
            "totals": list(event.score.game_totals)}


# --- reading --------------------------------------------------------------------------------------


class _Reader:
    """Reads a position, naming the first field at fault in a ``FormatError``."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    @staticmethod
    def fail(where: str, what: str) -> FormatError:
        return FormatError(f"Mille Bornes position: {where}: {what}")

    def obj(self, data: Any, where: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(where, "must be a JSON object")
        return data

    def int_(self, data: Any, where: str, low: int, high: int) -> int:
        if isinstance(data, bool) or not isinstance(data, int) or not low <= data <= high:
            raise self.fail(where, f"must be a whole number from {low} to {high}, not {data!r}")
        return data

    def bool_(self, data: Any, where: str) -> bool:
        if not isinstance(data, bool):
            raise self.fail(where, f"must be true or false, not {data!r}")
        return data

    def card(self, data: Any, where: str, allowed: tuple[int, ...] | range = range(KINDS)) -> int:
        if not isinstance(data, str):
            raise self.fail(where, f"must be a card token, not {data!r}")
        try:
            kind = parse_card(data)
        except NotationError:
            raise self.fail(where, f"not a card: {data!r}") from None
        if kind not in allowed:
            raise self.fail(where, f"{data!r} cannot be there")
        return kind

    def card_or_empty(self, data: Any, where: str, allowed: tuple[int, ...]) -> int:
        return EMPTY if data is None else self.card(data, where, allowed)

    def cards(self, data: Any, where: str, allowed: tuple[int, ...] | range = range(KINDS)) -> list[int]:
        if not isinstance(data, list):
            raise self.fail(where, "must be a list of card tokens")
        return [self.card(item, f"{where}[{index}]", allowed) for index, item in enumerate(data)]

    def pair(self, data: Any, where: str, low: int, high: int) -> list[int]:
        if not isinstance(data, list) or len(data) != 2:
            raise self.fail(where, "must be a list of two numbers")
        return [self.int_(item, f"{where}[{index}]", low, high) for index, item in enumerate(data)]

    # --- the blocks ---

    def match(self, data: dict[str, Any], position: Position) -> None:
        big = 1 << 40
        position.game_no = self.int_(data.get("game_no", 1), "match.game_no", 1, big)
        position.hand_no = self.int_(data.get("hand_no", 1), "match.hand_no", 0, big)
        position.hand_serial = self.int_(data.get("hand_serial", 1), "match.hand_serial", 1, big)
        position.games_won = self.pair(data.get("games_won", [0, 0]), "match.games_won", 0, big)
        position.game_total = self.pair(data.get("totals", [0, 0]), "match.totals", 0, big)
        result = data.get("result")
        if result is not None:
            try:
                outcome = Outcome.from_json(result)
            except FormatError as error:
                raise self.fail("match.result", str(error)) from None
            reason = _OLD_REASONS.get(outcome.reason, outcome.reason)
            if reason not in ENDS:
                ends = ", ".join(repr(end) for end in ENDS)
                raise self.fail("match.result", f"a game ends with one of {ends}, not {outcome.reason!r}")
            position.outcome = Outcome(outcome.winner, reason, outcome.scores)
        if data.get("last_hand") is not None:
            position.last_hand = self.score(data["last_hand"], "match.last_hand")

    def score(self, data: Any, where: str) -> HandScore:
        data = self.obj(data, where)
        how = data.get("how")
        if how not in HOW_ENDED:
            raise self.fail(f"{where}.how", f"must be one of {', '.join(HOW_ENDED)}, not {how!r}")
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != 2:
            raise self.fail(f"{where}.seats", "must be a list of two seats")
        lines, hands, games = [], [], []
        for seat, entry in enumerate(seats):
            entry = self.obj(entry, f"{where}.seats[{seat}]")
            try:
                lines.append(tuple(self.int_(entry[name], f"{where}.seats[{seat}].{name}", 0, 1 << 40)
                                   for name in LINE_NAMES))
                hands.append(self.int_(entry["hand_total"], f"{where}.seats[{seat}].hand_total", 0, 1 << 40))
                games.append(self.int_(entry["game_total"], f"{where}.seats[{seat}].game_total", 0, 1 << 40))
            except KeyError as missing:
                raise self.fail(f"{where}.seats[{seat}]", f"has no {missing.args[0]!r}") from None
        return HandScore(how, (lines[0], lines[1]), (hands[0], hands[1]), (games[0], games[1]))

    def event(self, data: Any, where: str) -> Event:
        data = self.obj(data, where)
        kind = data.get("event")

        def seat(key: str = "seat") -> int:
            return self.int_(data.get(key), f"{where}.{key}", 0, 1)

        if kind == "deal":
            serial = self.int_(data.get("hand_serial"), f"{where}.hand_serial", 1, 1 << 40)
            return Event(kind, seat("starter"), number=serial)
        if kind == "draw":
            return Event(kind, seat(), number=self.int_(data.get("cards"), f"{where}.cards", 1, 2))
        if kind == "play":
            return Event(kind, seat(), self.card(data.get("card"), f"{where}.card"),
                         self.int_(data.get("points"), f"{where}.points", 0, 1000),
                         self.bool_(data.get("coup"), f"{where}.coup"))
        if kind == "discard":
            return Event(kind, seat(), self.card(data.get("card"), f"{where}.card"))
        if kind == "extend":
            return Event(kind, seat(), flag=self.bool_(data.get("extend"), f"{where}.extend"))
        if kind == "hand_end":
            return Event(kind, score=self.score(data, where))
        if kind == "game_end":
            winner = data.get("winner")
            totals = self.pair(data.get("totals"), f"{where}.totals", 0, 1 << 40)
            score = HandScore("play-out", ((0,) * 9, (0,) * 9), (0, 0), (totals[0], totals[1]))
            return Event(kind, -1 if winner is None else seat("winner"), score=score)
        raise self.fail(f"{where}.event", f"unknown event {kind!r}")

    def seat(self, data: dict[str, Any], seat: int, position: Position, used: list[int]) -> None:
        where = f"hand.seats[{seat}]"

        def take(kinds: list[int], what: str) -> list[int]:
            for kind in kinds:
                used[kind] += 1
                if used[kind] > COPIES[kind]:
                    raise self.fail(f"{where}.{what}", f"more than {COPIES[kind]} {TOKENS[kind]} in the deck")
            return kinds

        if "slots" in data:
            slots = data["slots"]
            if not isinstance(slots, list) or len(slots) != 7:
                raise self.fail(f"{where}.slots", "must be a list of 7 cards or nulls (slot P first)")
            position.slots[seat] = [self.card_or_empty(c, f"{where}.slots[{i}]", tuple(range(KINDS)))
                                    for i, c in enumerate(slots)]
        elif "cards" in data:  # a shorthand for tests: the cards fill the highest slots in order
            cards = self.cards(data["cards"], f"{where}.cards")
            if len(cards) > 7:
                raise self.fail(f"{where}.cards", "a seat never holds more than seven cards")
            position.slots[seat] = [EMPTY] * (7 - len(cards)) + cards
        take([k for k in position.slots[seat] if k != EMPTY], "slots")
        # Earlier versions kept each seat's hand ordering here; it is a program's setting now
        # (MIL-17) and the slots are read as they are.
        self.bool_(data.get("order", False), f"{where}.order")
        received = self.cards(data.get("received", []), f"{where}.received")
        position.received[seat] = received
        battle_kinds = (5, 6, 7, 8, *REPAIR_KINDS, 13)
        position.battle[seat] = self.card_or_empty(data.get("battle"), f"{where}.battle", battle_kinds)
        position.speed[seat] = self.card_or_empty(data.get("speed"), f"{where}.speed",
                                                  (SPEED_LIMIT, END_OF_LIMIT))
        default_battle = [] if position.battle[seat] == EMPTY else [TOKENS[position.battle[seat]]]
        default_speed = [] if position.speed[seat] == EMPTY else [TOKENS[position.speed[seat]]]
        position.battle_pile[seat] = take(self.cards(data.get("battle_pile", default_battle),
                                                     f"{where}.battle_pile", battle_kinds), "battle_pile")
        position.speed_pile[seat] = take(self.cards(data.get("speed_pile", default_speed),
                                                    f"{where}.speed_pile", (SPEED_LIMIT, END_OF_LIMIT)),
                                         "speed_pile")
        safeties = data.get("safeties", [])
        if not isinstance(safeties, list):
            raise self.fail(f"{where}.safeties", "must be a list")
        played: list[tuple[int, bool]] = []
        for index, entry in enumerate(safeties):
            at = f"{where}.safeties[{index}]"
            if isinstance(entry, str):  # shorthand: a token, not a coup
                entry = {"card": entry, "coup": False}
            entry = self.obj(entry, at)
            kind = self.card(entry.get("card"), f"{at}.card", SAFETIES)
            if any(kind == k for k, _ in played):
                raise self.fail(at, f"{TOKENS[kind]} is played twice")
            played.append((kind, self.bool_(entry.get("coup", False), f"{at}.coup")))
        position.safeties[seat] = played
        take([k for k, _ in played], "safeties")
        miles = self.obj(data.get("miles", {}), f"{where}.miles")
        counts = [0] * 5
        for key, count in miles.items():
            kind = self.card(key, f"{where}.miles", range(5))
            counts[kind] = self.int_(count, f"{where}.miles.{key}", 0, COPIES[kind])
        if counts[D200] > 2:
            raise self.fail(f"{where}.miles", "at most two 200s are played in a hand")
        position.miles[seat] = counts
        take([k for k in range(5) for _ in range(counts[k])], "miles")
        mileage = sum(VALUES[k] * n for k, n in enumerate(counts))
        points = mileage + 100 * len(played) + (300 if len(played) == 4 else 0)
        points += 300 * sum(1 for _, coup in played if coup)
        position.hand_total[seat] = self.int_(data.get("hand_total", points), f"{where}.hand_total",
                                              0, 1 << 40)
        position.window[seat] = self.card_or_empty(data.get("coup_window"), f"{where}.coup_window",
                                                   (5, 6, 7, 8, SPEED_LIMIT))

    def hand(self, data: dict[str, Any], position: Position) -> None:
        used = [0] * KINDS
        seats = data.get("seats", [{}, {}])
        if not isinstance(seats, list) or len(seats) != 2:
            raise self.fail("hand.seats", "must be a list of two seats")
        for seat in (0, 1):
            self.seat(self.obj(seats[seat], f"hand.seats[{seat}]"), seat, position, used)
        position.goal = data.get("goal", GOAL)
        if position.goal not in (GOAL, EXTENDED_GOAL):
            raise self.fail("hand.goal", f"must be 700 or 1000, not {position.goal!r}")
        position.extended = self.bool_(data.get("extended", position.goal == EXTENDED_GOAL), "hand.extended")
        if position.extended != (position.goal == EXTENDED_GOAL):
            raise self.fail("hand.extended", "the goal is 1000 exactly when the hand has been extended")
        for seat in (0, 1):
            mileage = sum(VALUES[k] * n for k, n in enumerate(position.miles[seat]))
            if mileage > position.goal:
                raise self.fail(f"hand.seats[{seat}].miles", f"{mileage} miles is past the goal")
        discards = self.cards(data.get("discards", []), "hand.discards")
        for kind in discards:
            used[kind] += 1
            if used[kind] > COPIES[kind]:
                raise self.fail("hand.discards", f"more than {COPIES[kind]} {TOKENS[kind]} in the deck")
        rest = [kind for kind in range(KINDS) for _ in range(COPIES[kind] - used[kind])]
        pile = data.get("pile")
        if isinstance(pile, list):
            top_first = self.cards(pile, "hand.pile")
            for kind in top_first:
                if kind not in rest:
                    raise self.fail("hand.pile", f"more than {COPIES[kind]} {TOKENS[kind]} in the deck")
                rest.remove(kind)
        else:
            random.Random(f"mille-position/{self.seed}").shuffle(rest)
            size = len(rest) if pile is None else self.int_(pile, "hand.pile", 0, len(rest))
            top_first, rest = rest[:size], rest[size:]
        # The cards neither in play nor in the pile were discarded before the position.
        discards = sorted(rest) + discards
        position.pile = top_first[::-1]
        position.discards = discards
        position.stale = self.bool_(data.get("between_hands", False), "hand.between_hands")

    def flow(self, data: dict[str, Any], position: Position) -> None:
        """The phase and step (MIL-60), checked against the hands of cards and the pile."""
        phase = data.get("phase", "game_over" if position.outcome else "decision")
        to_act = data.get("to_act", starter_of(position.hand_serial))
        draw = self.obj(data.get("draw") or {}, "hand.draw")
        position.drawn = self.bool_(data.get("drawn", False), "hand.drawn")
        if phase == "game_over":
            if position.outcome is None:
                raise self.fail("hand.phase", "a finished game needs match.result")
            position.step = OVER
            return
        if position.outcome is not None:
            raise self.fail("match.result", "only a finished game has a result")
        position.mover = self.int_(to_act, "hand.to_act", 0, 1)
        if phase == "chance":
            self.chance(data, draw, position)
            return
        if phase != "decision":
            raise self.fail("hand.phase", f"must be chance, decision or game_over, not {phase!r}")
        self.decision(data, draw, position)

    def chance(self, data: dict[str, Any], draw: dict[str, Any], position: Position) -> None:
        """A chance phase: a card of the deal or of a draw is next (MIL-60)."""
        chance = data.get("chance", "deal")
        if chance == "deal":
            position.step = DEAL
            position.deal_index = self.int_(data.get("dealt", 0), "hand.dealt", 0, 11)
            position.mover = 0 if position.deal_index < HAND_SIZE else 1
        elif chance == "draw":
            position.step = DRAWING
            position.drawn = True
            position.draw_size = self.int_(draw.get("size", 1), "hand.draw.size", 1, 2)
            position.pending = self.int_(draw.get("left", 1), "hand.draw.left", 1, position.draw_size)
            if position.pending > len(position.pile):
                raise self.fail("hand.draw.left", "the pile has not that many cards")
        else:
            raise self.fail("hand.chance", f"must be 'deal' or 'draw', not {chance!r}")

    def decision(self, data: dict[str, Any], draw: dict[str, Any], position: Position) -> None:
        """A decision phase: the step of the seat to act, which must hold a card to act on."""
        if position.stale:
            raise self.fail("hand.between_hands", "only the deal of the next hand comes between hands")
        # Unsaid, the step follows from the pile and whether the seat has drawn.
        self.step(data.get("step", "play" if position.drawn or not position.pile else "draw"), position)
        holding = 7 - position.slots[position.mover].count(EMPTY)
        if position.step != EXTENSION and holding == 0:
            raise self.fail("hand.to_act", "a seat with no card in hand cannot act")
        if position.drawn:
            position.draw_size = self.int_(draw.get("size", 1), "hand.draw.size", 1, 2)

    def step(self, step: Any, position: Position) -> None:
        """The decision step by name, checked against the pile, the draw and the mileage."""
        if step == "draw":
            position.step = DRAW_STEP
            if not position.pile or position.drawn:
                raise self.fail("hand.step", "a draw step needs cards in the pile and a seat yet to draw")
        elif step == "play":
            position.step = PLAY_STEP
            if position.pile and not position.drawn:
                raise self.fail("hand.step", "a seat plays only after drawing while the pile has cards")
        elif step == "extension":
            position.step = EXTENSION
            mileage = sum(VALUES[k] * n for k, n in enumerate(position.miles[position.mover]))
            if mileage != GOAL or position.extended:
                raise self.fail("hand.step", "the extension step comes only at exactly 700 miles")
        else:
            raise self.fail("hand.step", f"must be draw, play or extension, not {step!r}")

    def events(self, data: dict[str, Any], position: Position) -> None:
        events = data.get("events")
        if events is None:
            position.events = [] if position.stale else [
                Event("deal", starter_of(position.hand_serial), number=position.hand_serial)
            ]
            return
        if not isinstance(events, list):
            raise self.fail("hand.events", "must be a list")
        position.events = [self.event(e, f"hand.events[{i}]") for i, e in enumerate(events)]


# --- the JSON form, written ----------------------------------------------------------------------


def flow_json(state: MilleState) -> JSONDict:
    """Phase, step and whose turn it is (MIL-60): public."""
    step = state.step
    chance = step <= DRAWING
    if step == OVER:
        to_act: int | None = None
    elif chance:
        to_act = state.receiving()[0]
    else:
        to_act = state.mover
    return {
        "phase": "chance" if chance else "game_over" if step == OVER else "decision",
        "step": None if chance else STEP_NAMES[step],
        "chance": STEP_NAMES[step] if chance else None,
        "to_act": to_act,
        "drawn": state.drawn,
        "dealt": state.deal_index if step == DEAL else None,
        "draw": {"size": state.draw_size, "left": state.pending} if state.drawn else None,
        "between_hands": state.stale,
        "starter": starter_of(state.hand_serial),
        "goal": state.goal,
        "extended": state.extended,
    }


def match_json(state: MilleState) -> JSONDict:
    """The match block (MIL-70): games, hands and totals so far: public."""
    outcome = state.outcome()
    return {
        "game_no": state.game_no,
        "hand_no": state.hand_no,
        "hand_serial": state.hand_serial,
        "games_won": list(state.games_won),
        "totals": list(state.game_total),
        "result": outcome.to_json() if outcome else None,
        "last_hand": score_json(state.last_hand) if state.last_hand else None,
    }


def table_json(state: MilleState, seat: int) -> JSONDict:
    """A seat's cards on the table (MIL-15, MIL-57 item 6)."""
    return {
        "battle": token(state.battle[seat]),
        "speed": token(state.speed[seat]),
        "battle_pile": [TOKENS[k] for k in state.battle_pile[seat]],
        "speed_pile": [TOKENS[k] for k in state.speed_pile[seat]],
        "safeties": [{"card": TOKENS[k], "coup": coup} for k, coup in state.safeties[seat]],
        "miles": {TOKENS[k]: n for k, n in enumerate(state.miles[seat])},
        "hand_total": state.hand_total[seat],
        "coup_window": token(state.window[seat]),
    }


def write_position(state: MilleState) -> JSONDict:
    """Everything but the history, as ``Mille.new(start=…)`` reads it (the MIL-70 blocks)."""
    hand = flow_json(state)
    seats = []
    for s in (0, 1):
        entry = {"slots": [token(k) for k in state.slots[s]],
                 "received": [TOKENS[k] for k in state.received[s]]}
        entry.update(table_json(state, s))
        seats.append(entry)
    hand.update(
        pile=[TOKENS[k] for k in reversed(state.pile)],
        discards=[TOKENS[k] for k in state.discards],
        seats=seats,
        events=[event_json(e) for e in state.events],
    )
    return {"match": match_json(state), "hand": hand}



# --- the JSON form, read ------------------------------------------------------------------------


def read_position(start: Any, seed: int) -> Position:
    """Checks and reads a position in ``MilleState.position_json`` form (missing keys: a fresh hand)."""
    reader = _Reader(seed)
    data = reader.obj(start, "position")
    position = Position()
    reader.match(reader.obj(data.get("match", {}), "match"), position)
    hand = reader.obj(data.get("hand", {}), "hand")
    reader.hand(hand, position)
    reader.flow(hand, position)
    reader.events(hand, position)
    if position.stale and (position.step != DEAL or position.deal_index):
        raise reader.fail("hand.between_hands", "between hands the next deal must be about to begin")
    dealt = sum(7 - position.slots[s].count(EMPTY) for s in (0, 1))
    if position.step == DEAL and not position.stale and dealt != position.deal_index:
        raise reader.fail("hand.dealt", f"{position.deal_index} cards dealt, but the seats hold {dealt}")
    return position
