"""The Mille Bornes deck (MIL-1, MIL-2): card kinds, their tokens and names, families, the shuffle.

A card kind is an int 0…18 in the canonical order of MIL-1, so sorting kinds sorts cards.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Final

from parlour.engine import NotationError

D25, D50, D75, D100, D200 = 0, 1, 2, 3, 4
OUT_OF_GAS, FLAT_TIRE, ACCIDENT, STOP, SPEED_LIMIT = 5, 6, 7, 8, 9
GASOLINE, SPARE_TIRE, REPAIRS, GO, END_OF_LIMIT = 10, 11, 12, 13, 14
EXTRA_TANK, PUNCTURE_PROOF, DRIVING_ACE, RIGHT_OF_WAY = 15, 16, 17, 18
KINDS: Final = 19
EMPTY: Final = -1
"""An empty slot, or an empty battle or speed pile."""

TOKENS: Final = (
    "25", "50", "75", "100", "200",
    "out-of-gas", "flat-tire", "accident", "stop", "speed-limit",
    "gasoline", "spare-tire", "repairs", "go", "end-of-limit",
    "extra-tank", "puncture-proof", "driving-ace", "right-of-way",
)
NAMES: Final = (
    "25", "50", "75", "100", "200",
    "Out of Gas", "Flat Tire", "Accident", "Stop", "Speed Limit",
    "Gasoline", "Spare Tire", "Repairs", "Go", "End of Limit",
    "Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way",
)
COPIES: Final = (10, 10, 10, 12, 4, 2, 2, 2, 4, 3, 6, 6, 6, 14, 6, 1, 1, 1, 1)
DECK_SIZE: Final = 101
VALUES: Final = (25, 50, 75, 100, 200)
BATTLE_HAZARDS: Final = (OUT_OF_GAS, FLAT_TIRE, ACCIDENT, STOP)
REPAIR_KINDS: Final = (GASOLINE, SPARE_TIRE, REPAIRS)
SAFETIES: Final = (EXTRA_TANK, PUNCTURE_PROOF, DRIVING_ACE, RIGHT_OF_WAY)

# MIL-2: each hazard's remedy and safety; each repair's hazard.
REMEDY: Final = {OUT_OF_GAS: GASOLINE, FLAT_TIRE: SPARE_TIRE, ACCIDENT: REPAIRS, STOP: GO,
                 SPEED_LIMIT: END_OF_LIMIT}
SAFETY: Final = {OUT_OF_GAS: EXTRA_TANK, FLAT_TIRE: PUNCTURE_PROOF, ACCIDENT: DRIVING_ACE,
                 STOP: RIGHT_OF_WAY, SPEED_LIMIT: RIGHT_OF_WAY}
HAZARD_OF: Final = {GASOLINE: OUT_OF_GAS, SPARE_TIRE: FLAT_TIRE, REPAIRS: ACCIDENT,
                    EXTRA_TANK: OUT_OF_GAS, PUNCTURE_PROOF: FLAT_TIRE, DRIVING_ACE: ACCIDENT}
"""The battle hazard a repair repairs, or a safety (other than Right of Way) cures."""

SAFETY_BIT: Final = {EXTRA_TANK: 1, PUNCTURE_PROOF: 2, DRIVING_ACE: 4, RIGHT_OF_WAY: 8}

SLOT_NAMES: Final = ("P", "1", "2", "3", "4", "5", "6")
"""MIL-16: slot 0 is the picked slot ``P``."""

_BY_TOKEN: Final = {token: kind for kind, token in enumerate(TOKENS)}
_SEPARATORS: Final = re.compile(r"[\s_-]+")


def parse_card(text: str) -> int:
    """A card kind from its token or name, as MIL-64 reads it (``Out of Gas``, ``out_of_gas``)."""
    cleaned = _SEPARATORS.sub("-", text.strip().lower()).strip("-")
    kind = _BY_TOKEN.get(cleaned)
    if kind is None:
        raise NotationError(f"not a card: {text.strip()!r} (cards are {', '.join(TOKENS)})")
    return kind


def parse_slot(text: str) -> int:
    """``P`` → 0, ``1``…``6`` → 1…6 (MIL-64's slot hint)."""
    cleaned = text.strip().upper()
    if cleaned not in SLOT_NAMES:
        raise NotationError(f"not a slot: {text.strip()!r} (slots are P and 1 to 6)")
    return SLOT_NAMES.index(cleaned)


def full_deck() -> list[int]:
    """The 101 cards in canonical order (MIL-11: ten 25s first, Right of Way last)."""
    return [kind for kind in range(KINDS) for _ in range(COPIES[kind])]


@lru_cache(maxsize=16)
def shuffled_deck(seed: int, hand_serial: int) -> tuple[int, ...]:
    """MIL-11: the pile of hand ``hand_serial`` of the match with ``seed``, top (position 0) first."""
    deck = full_deck()
    generator = random.Random(f"mille/{seed}/{hand_serial}")
    draw = generator.random
    for i in range(DECK_SIZE - 1, 0, -1):
        j = int(draw() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)
