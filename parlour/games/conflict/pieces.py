"""Conflict's pieces: the five types, their movement classes and the starting force (CON-8, CON-18).

A piece off the board is counted, not named (CON-20): rows hold counts per *code*, where
``code = seat * 5 + type`` for seats 0…3 (seat 1 of the spec is 0) and types 0…4.
"""

from __future__ import annotations

from typing import Final

from parlour.engine import NotationError

CANNON, AAGUN, AIRPLANE, SHIP, SUBMARINE = 0, 1, 2, 3, 4
TYPES: Final = 5
CODES: Final = 4 * TYPES
TYPE_NAMES: Final = ("cannon", "aagun", "airplane", "ship", "submarine")
"""CON-64's words for the types, in the order rows are drawn (CON-67 item 3)."""
TYPE_LETTERS: Final = "CGASU"
LONG_NAMES: Final = ("cannon", "anti-aircraft gun", "airplane", "ship", "submarine")

LAND_CLASS, WATER_CLASS, AIR_CLASS = 0, 1, 2
CLASS_OF: Final = (LAND_CLASS, LAND_CLASS, AIR_CLASS, WATER_CLASS, WATER_CLASS)
"""CON-8: the movement class of each type."""

AVAILABLE_FORCE: Final = (3, 1, 1, 3, 1)
RESERVE_FORCE: Final = (1, 0, 1, 2, 0)
"""CON-18: a seat's rows at the start (``submarines = false`` drops the submarine)."""

SEAT_COLOURS: Final = ("red", "orange", "green", "yellow")
"""CON-14, for seats 1 to 4."""

EMPTY: Final = -1
"""A square with no piece."""


def code_of(seat: int, kind: int) -> int:
    return seat * TYPES + kind


def piece_text(code: int) -> str:
    """``1S``: the seat number (1–4) then the type letter, as the worked examples write pieces."""
    return f"{code // TYPES + 1}{TYPE_LETTERS[code % TYPES]}"


def parse_type(text: str) -> int:
    """A type from its word or letter (any case); ``NotationError`` otherwise."""
    lowered = text.lower()
    if lowered in TYPE_NAMES:
        return TYPE_NAMES.index(lowered)
    if len(lowered) == 1 and lowered.upper() in TYPE_LETTERS:
        return TYPE_LETTERS.index(lowered.upper())
    raise NotationError(f"not a piece type: {text!r} (cannon, aagun, airplane, ship, submarine, or the "
                        "letters C G A S U)")


def force(submarines: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A seat's available and reserve rows at the start, as counts per type."""
    available = AVAILABLE_FORCE if submarines else (*AVAILABLE_FORCE[:SUBMARINE], 0)
    return available, RESERVE_FORCE


def with_article(words: str) -> str:
    """``a red ship``, ``an orange ship``, ``an anti-aircraft gun``: the article English wants."""
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"
