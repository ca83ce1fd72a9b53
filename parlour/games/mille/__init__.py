"""Mille Bornes for two (``specs/mille.md``): hidden hands, a shuffled deck, chance as a player.

``cards`` (card kinds, tokens and names, the shuffle), ``actions`` (actions as integers),
``notation`` (actions as text, both ways), ``position`` (a position as data, its JSON read and
written), ``views`` (seat views, sampling), ``rules`` (make/unmake, the game),
``render`` (text), ``classic`` (the BSD computer player), ``evaluator`` and ``bench``."""

from parlour.games.mille.actions import (
    CARD,
    COUP,
    DISCARD,
    DRAW,
    EXTEND_NO,
    EXTEND_YES,
    HINT,
    PLAY,
    action_kind,
    card_action,
    coup_action,
    discard_action,
    play_action,
    split_hint,
)
from parlour.games.mille.notation import action_text
from parlour.games.mille.position import (
    DEAL,
    DRAW_STEP,
    DRAWING,
    EXTENSION,
    LINE_NAMES,
    OVER,
    PLAY_STEP,
    Event,
    HandScore,
)
from parlour.games.mille.refusals import Refusal
from parlour.games.mille.rules import Mille, MilleState, NotToActError

__all__ = [
    "CARD",
    "COUP",
    "DEAL",
    "DISCARD",
    "DRAW",
    "DRAWING",
    "DRAW_STEP",
    "EXTEND_NO",
    "EXTEND_YES",
    "EXTENSION",
    "HINT",
    "LINE_NAMES",
    "OVER",
    "PLAY",
    "PLAY_STEP",
    "Event",
    "HandScore",
    "Mille",
    "MilleState",
    "NotToActError",
    "Refusal",
    "action_kind",
    "action_text",
    "card_action",
    "coup_action",
    "discard_action",
    "play_action",
    "split_hint",
]
