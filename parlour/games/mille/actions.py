"""Mille Bornes actions: the integer encoding of decisions, chance outcomes and entries (MIL-64).

Actions sort in the canonical order of MIL-63:

* ``COUP + k`` (k a safety), ``DRAW``, ``PLAY + k``, ``DISCARD + k``, ``EXTEND_YES``, ``EXTEND_NO``:
  the decisions of the seat to move;
* ``CARD + k``: the chance outcome "a card of kind k is dealt or drawn" (MIL-62).

A slot hint (MIL-64, ``play go @5``) adds ``HINT * (slot + 1)`` to a play, discard or coup.
The text of an action, written and read, is ``notation``'s.

Hand ordering (MIL-17) and a new game (MIL-56) are not actions: no seat's decision, they belong
to the program that shows a hand or runs a match (``parlour mille``; ``Mille.next_game``). Earlier
versions recorded them as the codes from ``RETIRED`` up to ``HINT``; a record holding one is
refused with a message that says so.
"""

from __future__ import annotations

from typing import Final

from parlour.engine import Action
from parlour.games.mille.cards import EMPTY, KINDS

COUP: Final = 0
DRAW: Final = 32
PLAY: Final = 64
DISCARD: Final = 96
EXTEND_YES: Final = 128
EXTEND_NO: Final = 129
CARD: Final = 160
RETIRED: Final = 192
"""Codes 192–200 were ``order on|off`` of a seat and ``new_game`` in earlier versions."""
HINT: Final = 256


def play_action(kind: int, slot: int | None = None) -> Action:
    return hinted(PLAY + kind, slot)


def discard_action(kind: int, slot: int | None = None) -> Action:
    return hinted(DISCARD + kind, slot)


def coup_action(kind: int, slot: int | None = None) -> Action:
    return hinted(COUP + kind, slot)


def card_action(kind: int) -> Action:
    return CARD + kind


def hinted(action: Action, slot: int | None) -> Action:
    return action if slot is None else action + HINT * (slot + 1)


def split_hint(action: Action) -> tuple[Action, int | None]:
    """The action without its slot hint, and the hinted slot (``None`` if none)."""
    if action < HINT:
        return action, None
    return action % HINT, action // HINT - 1


def action_kind(action: Action) -> int:
    """The card kind a play, discard, coup or chance action names (``EMPTY`` for the others)."""
    base = action % HINT
    if COUP <= base < DRAW or PLAY <= base < EXTEND_YES:
        return base % 32
    if CARD <= base < CARD + KINDS:
        return base - CARD
    return EMPTY

