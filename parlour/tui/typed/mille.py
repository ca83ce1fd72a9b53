"""Mille Bornes typed at ``parlour play``: a card named by the number the text hand shows it under.

The text board shows the hand as MIL-64's slots, ``P`` (where a drawn card lands) and ``1`` to
``6``, each with its card: ``Your cards: P 25  1 Go  2 Gasoline …``. Issue 18: a person types
``discard 1`` and is told "not a card: '1'" — the notation names cards, and a number that is no
distance value is no card (W-31). So ``play 3``, ``discard 1``, ``coup 2`` typed here become the
card in that slot with MIL-64's slot hint (``discard go @1``): the very card chosen leaves (the
hint changes only the layout, never the rules), and the rules read the rest as ever.

Only the person's view is read (``content.private.slots``: tokens, ``null`` for an empty slot),
as the text board draws it; nothing here asks the rules.
"""

from __future__ import annotations

import re
from typing import Any, Final

from parlour.engine import IllegalActionError, JSONDict, NotationError
from parlour.tui.typed import Typing

SLOTS: Final = ("P", "1", "2", "3", "4", "5", "6")
"""MIL-64's slot names, in the order of the view's slots and of the text hand."""

_NUMBERED: Final = re.compile(r"(play|discard|coup)\s+([0-9]|p)", re.IGNORECASE)
"""A verb and one digit or P: a place in the hand. Cards 25 to 200 have two digits or more."""


def written(text: str, view: JSONDict) -> str:
    """``discard 1`` → ``discard go @1`` when slot 1 holds a Go; any other text as it is."""
    numbered = _NUMBERED.fullmatch(text.strip())
    if numbered is None:
        return text
    verb, place = numbered[1].lower(), numbered[2].upper()
    if place not in SLOTS:
        raise NotationError(f"your hand has no card {place}: its cards are numbered P and 1 to 6, "
                            "as 'Your cards' shows them")
    hand = _hand(view)
    if hand is None:  # no hand of one's own in this view (nobody's turn of a seat): nothing to name
        return text
    card = hand[SLOTS.index(place)]
    if card is None:
        raise IllegalActionError(f"there is no card in slot {place} of your hand "
                                 "('Your cards' shows the slots that hold one)")
    return f"{verb} {card} @{place}"


def _hand(view: JSONDict) -> list[str | None] | None:
    """The viewer's seven slots (tokens, ``None`` where empty), if the view holds them."""
    private: Any = view.get("content", {}).get("private")
    slots: Any = private.get("slots") if isinstance(private, dict) else None
    if not isinstance(slots, list) or len(slots) != len(SLOTS):
        return None
    return slots


TYPING: Final = Typing(
    written,
    "A card may be named by its number in 'Your cards': discard 1, play 3, coup P",
)
