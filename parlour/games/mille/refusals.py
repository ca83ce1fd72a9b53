"""Why a Mille Bornes decision is refused: in words a player reads (issue 18), beside the BSD
program's message for the same check (MIL-65), which ``parlour mille`` shows as the original did.

The rules find the first failing check and its BSD message (``MilleState.play_error`` for §6);
this module only words it. It runs on the refusal path alone, never while listing decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import IllegalActionError
from parlour.games.mille.cards import (
    BATTLE_HAZARDS,
    D200,
    EMPTY,
    END_OF_LIMIT,
    GO,
    HAZARD_OF,
    NAMES,
    REMEDY,
    REPAIR_KINDS,
    RIGHT_OF_WAY,
    SAFETY,
    SPEED_LIMIT,
    STOP,
    VALUES,
)

if TYPE_CHECKING:
    from parlour.games.mille.rules import MilleState


class Refusal(IllegalActionError):
    """An illegal decision (MIL-65): ``reason`` in parlour's words, ``bsd`` the BSD program's
    message for the same check (``no card there``, ``limit of 50``)."""

    def __init__(self, reason: str, bsd: str, action: str | None = None) -> None:
        super().__init__(reason, action)
        self.bsd = bsd

    def __reduce__(self) -> tuple[type[Refusal], tuple[str, str, str | None]]:  # type: ignore[override]
        return Refusal, (self.reason, self.bsd, self.action)

    def naming(self, action: str) -> Refusal:
        """The same refusal, naming the decision it refuses (``play 75: …``)."""
        return Refusal(self.reason, self.bsd, action)


def not_held(kind: int, slot: str | None = None) -> Refusal:
    """MIL-65 ``no card there``: the card is not in the hand (or not in the slot the hint names)."""
    if slot is not None:
        return Refusal(f"slot {slot} of your hand does not hold a {NAMES[kind]}", "no card there")
    return Refusal(f"there is no {NAMES[kind]} in your hand", "no card there")


def draw_first(seat: int, kind: int, discard: bool, held: bool) -> Refusal:
    """MIL-65 ``must pick first``: before drawing only a curing safety may leave the hand."""
    if discard:
        why = "a card is discarded only after drawing (MIL-23)"
    elif not held:
        why = f"there is no {NAMES[kind]} in your hand either (MIL-20)"
    elif kind in SAFETY.values():
        why = (f"before drawing a safety is played only as a cure, and the {NAMES[kind]} cures nothing "
               f"on you now (MIL-35, MIL-36)")
    else:
        why = "before drawing only a safety that cures your hazard may be played (MIL-20, MIL-35)"
    return Refusal(f"draw a card first: {why}", "must pick first")


def play_refusal(state: MilleState, seat: int, kind: int, bsd: str) -> Refusal:
    """§6 (MIL-26 to MIL-31) in words, for the check ``MilleState.play_error`` found failing."""
    return Refusal(_play_words(state, seat, kind, bsd), bsd)


def _play_words(state: MilleState, seat: int, kind: int, bsd: str) -> str:
    name = NAMES[kind]
    if kind <= D200:
        return _distance_words(state, seat, kind, bsd)
    if kind in BATTLE_HAZARDS or kind == SPEED_LIMIT:
        if bsd == "opponent is protected":
            safety = NAMES[SAFETY[kind]]
            return f"your opponent has played the {safety}, which keeps the {name} off (MIL-30, MIL-31)"
        if bsd == "opponent has limit":
            return "your opponent is under a Speed Limit already (MIL-31)"
        return f"a {name} stops a rolling car, and your opponent is not rolling (MIL-30)"
    top = state.battle[seat]
    if kind == GO and top == GO:
        return "you are rolling already: a Go goes on an empty battle pile, a Stop or a repair (MIL-28)"
    if kind == GO:
        fix = f": repair it with {NAMES[REMEDY[top]]} first" if top in BATTLE_HAZARDS else ""
        return (f"a Go goes on an empty battle pile, a Stop or a repair, and yours shows {NAMES[top]}{fix} "
                "(MIL-28)")
    if kind == END_OF_LIMIT:
        return "End of Limit lifts a Speed Limit, and you are not under one (MIL-29)"
    if kind in REPAIR_KINDS:
        shows = "nothing" if top == EMPTY else f"{NAMES[top]}"
        return f"{name} repairs {NAMES[HAZARD_OF[kind]]}, and your battle pile shows {shows} (MIL-27)"
    return f"you cannot play the {name} now (MIL-33)"


def _distance_words(state: MilleState, seat: int, kind: int, bsd: str) -> str:
    miles = VALUES[kind]
    if bsd.startswith("only two"):
        return "you have played two 200s this hand, the most a hand allows (MIL-26)"
    if bsd == "limit of 50":
        return (f"a Speed Limit caps you at 50: under it you play only 25s and 50s, not {miles}s "
                "(MIL-26, MIL-32)")
    if bsd.startswith("puts you over"):
        total = state.mileage[seat] + miles
        return f"{miles} would take you to {total} miles, over this hand's goal of {state.goal} (MIL-26)"
    return f"distance is played only while rolling, and {_not_rolling(state, seat)} (MIL-18, MIL-26)"


def _not_rolling(state: MilleState, seat: int) -> str:
    """Why ``seat`` is not rolling (MIL-18), and what it needs."""
    top = state.battle[seat]
    if top == EMPTY:
        return "you have not started yet: you need a Go to roll"
    if top in REPAIR_KINDS:
        return f"your {NAMES[HAZARD_OF[top]]} is repaired, but you need a Go to roll again"
    if top == STOP:
        return "you are stopped: you need a Go to roll"
    if top in BATTLE_HAZARDS:
        then = "" if state.has_played(seat, RIGHT_OF_WAY) else ", then a Go"
        return f"you are stopped by {NAMES[top]}: you need {NAMES[REMEDY[top]]}{then}"
    return "you are not rolling"


def safety_discard(kind: int) -> Refusal:
    """MIL-65 ``discard a safety?``."""
    return Refusal(f"a safety is never discarded: play the {NAMES[kind]} instead (MIL-23, MIL-34)",
                   "discard a safety?")


def no_coup(kind: int) -> Refusal:
    """MIL-65 ``no coup fourre``."""
    return Refusal(f"the {NAMES[kind]} is no coup fourré now: that needs the hazard it answers just played "
                   "on you, still on top, before you draw (MIL-39)", "no coup fourre")


def drawn_already() -> Refusal:
    return Refusal("you have drawn this turn already: play or discard a card (MIL-21)", "already picked")


def pile_empty() -> Refusal:
    return Refusal("the pile is empty: play or discard a card (MIL-21, MIL-25)", "no more cards")


def not_now(extending: bool) -> Refusal:
    """MIL-65 ``not now``: an extension answer outside the extension step, or anything else in it."""
    if extending:
        return Refusal("first say whether to extend the trip to 1000 miles: extend yes or extend no "
                       "(MIL-45)", "not now")
    return Refusal("there is no extension to decide now (MIL-45)", "not now")
