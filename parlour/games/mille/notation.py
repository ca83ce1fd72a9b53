"""Mille Bornes' action notation: actions as text, both ways (MIL-64, MIL-66).

A decision is ``draw``, ``play K``, ``discard K``, ``coup K`` (each of the last three with an
optional slot hint ``@SLOT``) or ``extend yes|no``; a chance outcome is ``card K``; a record line
puts a seat prefix ``N:`` before a decision. Cards and slots are read as ``cards.parse_card`` and
``cards.parse_slot`` read them: a card by its token or by the name a hand shows, spaces and case as
one likes (``play spare tire``, ``discard End of Limit``).

A number that is no distance value is no card (W-31: ``play 3`` is unparsable). The number a text
hand shows a card under is the line interface's to read (``parlour play`` makes ``discard 3`` the
spec's ``discard go @3`` before the rules see it), not the notation's.

Reading is syntax only: ``read_action`` raises ``NotationError`` for text that names no action,
and never asks a position. Whose turn it is and whether the action is legal (MIL-65's messages)
are the rules' part, in ``MilleState.parse_action``.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from parlour.engine import Action, NotationError
from parlour.games.mille.actions import (
    CARD,
    COUP,
    DISCARD,
    DRAW,
    EXTEND_NO,
    EXTEND_YES,
    PLAY,
    action_kind,
    split_hint,
)
from parlour.games.mille.cards import (
    EMPTY,
    EXTRA_TANK,
    KINDS,
    NAMES,
    SAFETIES,
    SLOT_NAMES,
    TOKENS,
    parse_card,
    parse_slot,
)

_NOT_ACTIONS: Final = {
    # MIL-16.4, MIL-17: a display preference that never uses a turn and is no decision (MIL-63
    # does not list it); a program keeps it and sorts the hand it shows (``parlour mille``'s O).
    "order": "hand ordering is a setting of the program that shows your hand (MIL-17)",
    # MIL-56, MIL-60: "not a decision of either seat"; the game is over, nobody is to move.
    "new_game": "the program running the match starts the next game (MIL-56, Mille.next_game)",
}
"""Texts of MIL-64 that earlier versions read as recorded entries, and why they are no actions."""
_VERB: Final = re.compile(r"(?:([0-9]+)\s*:\s*)?([a-z_]+)(?:\s+(.*?))?")
_HINTED: Final = re.compile(r"(.*?)\s*@\s*(\S+)")
_ANSWERS: Final = {"yes": True, "y": True, "no": False, "n": False}


class Written(NamedTuple):
    """What a MIL-64 text says, before any position is asked whether it is legal."""

    seat: int | None
    """The record line's seat prefix (MIL-66), ``None`` without one (always for ``card``)."""
    action: Action
    """The action as written, without its slot hint: ``play stop`` is ``PLAY + STOP`` even where
    the rules make it another decision (a safety played on an open coup fourré)."""
    kind: int
    """The card kind named (``EMPTY`` for ``draw`` and ``extend``)."""
    slot: int | None
    """The slot hint (``@5``), ``None`` if none."""


def action_text(action: Action) -> str:
    """The MIL-64 text of an action (without the seat prefix of a record line)."""
    base, slot = split_hint(action)
    hint = "" if slot is None else f" @{SLOT_NAMES[slot]}"
    if base == DRAW:
        return "draw"
    if base == EXTEND_YES:
        return "extend yes"
    if base == EXTEND_NO:
        return "extend no"
    kind = action_kind(base)
    if base < DRAW and kind in SAFETIES:
        return f"coup {TOKENS[kind]}{hint}"
    if PLAY <= base < PLAY + KINDS:
        return f"play {TOKENS[kind]}{hint}"
    if DISCARD <= base < DISCARD + KINDS:
        return f"discard {TOKENS[kind]}{hint}"
    if CARD <= base < CARD + KINDS:
        return f"card {TOKENS[kind]}"
    raise NotationError(f"not a Mille Bornes action: {action!r}")


def action_parts(action: Action) -> dict[str, object]:
    """The parts an action's code alone tells (``MilleState.action_parts`` adds what the position
    tells): ``kind`` is the verb of MIL-64 (``draw``, ``play``, ``discard``, ``coup``, ``extend``,
    ``card``); a play, discard or coup names its ``card`` (a MIL-1 token; for a coup fourré, the
    safety), and so does a chance outcome; ``extend`` says ``yes`` (true or false); a hinted
    action its ``slot`` (``P``, ``1``…).

    A chance outcome's card is hidden from every seat but the one that receives it (MIL-57), and
    parts carry no reader: they are for the engine's users (search, tests) and for the seat to
    move's own legal actions, which never include chance. A front end shows another seat's
    action through ``action_text_for`` (``card ?``), never through its parts."""
    base, slot = split_hint(action)
    verb = action_text(action).split()[0]
    parts: dict[str, object] = {"kind": verb}
    if verb == "extend":
        parts["yes"] = base == EXTEND_YES
    elif action_kind(base) != EMPTY:
        parts["card"] = TOKENS[action_kind(base)]
    if slot is not None:
        parts["slot"] = SLOT_NAMES[slot]
    return parts


def read_action(text: str) -> Written:
    """MIL-64 and MIL-66's syntax: what ``text`` says, or ``NotationError`` for text that is no
    action (``order on|off`` and ``new_game`` included: they are no actions; a ``card`` with a
    seat prefix; a seat other than 0 and 1). Legality is not checked."""
    cleaned = " ".join(text.strip().lower().split())
    match = _VERB.fullmatch(cleaned)
    if match is None:
        raise NotationError(f"not a Mille Bornes decision: {text.strip()!r}")
    prefix, verb, rest = match[1], match[2], match[3] or ""
    seat = None if prefix is None else int(prefix)
    if seat is not None and seat > 1:
        raise NotationError(f"there is no seat {prefix}: the seats are 0 and 1")
    if verb in _NOT_ACTIONS:
        raise NotationError(f"{text.strip()!r} is not a game action: {_NOT_ACTIONS[verb]}")
    if verb == "card":
        # A chance outcome (MIL-62): no seat's decision, so no seat prefix.
        if seat is not None:
            raise NotationError(f"card has no seat prefix: {text.strip()!r}")
        kind = _card(rest)
        return Written(None, CARD + kind, kind, None)
    if verb == "draw" and not rest:
        return Written(seat, DRAW, EMPTY, None)
    if verb == "extend":
        answer = _ANSWERS.get(rest)
        if answer is None:
            raise NotationError(f"extend takes yes or no, not {rest!r}")
        return Written(seat, EXTEND_YES if answer else EXTEND_NO, EMPTY, None)
    if verb in ("play", "discard", "coup") and rest:
        with_slot = _HINTED.fullmatch(rest)
        slot = None if with_slot is None else parse_slot(with_slot[2])
        kind = _card(rest if with_slot is None else with_slot[1])
        if verb == "coup" and kind < EXTRA_TANK:
            raise NotationError(f"coup names a safety, not {TOKENS[kind]}")
        return Written(seat, {"play": PLAY, "discard": DISCARD, "coup": COUP}[verb] + kind, kind, slot)
    raise NotationError(f"not a Mille Bornes decision: {text.strip()!r} "
                        "(draw, play CARD, discard CARD, coup SAFETY, extend yes|no; CARD is a card's "
                        "name)")


def _card(text: str) -> int:
    """``cards.parse_card``, its refusal in the words a hand shows (``Spare Tire``)."""
    try:
        return parse_card(text)
    except NotationError:
        raise NotationError(f"not a card: {text.strip()!r} (name a card as your hand shows it: "
                            f"{', '.join(NAMES)})") from None
