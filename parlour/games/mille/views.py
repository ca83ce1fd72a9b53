"""What leaves a Mille Bornes state: seat views (MIL-57), built from the public blocks of the
position's JSON form (``position``), the texts they must never contain, and a full position
sampled from a view (MIL-58) for determinised search."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

from parlour.engine import FormatError, JSONDict
from parlour.games.mille.cards import COPIES, EMPTY, KINDS, TOKENS, parse_card
from parlour.games.mille.notation import action_text
from parlour.games.mille.position import event_json, flow_json, match_json, table_json, token

if TYPE_CHECKING:
    from parlour.games.mille.rules import MilleState


def private_part(state: MilleState, seat: int) -> JSONDict:
    """What only ``seat`` may see: its slots, the cards it just received, its decisions. (MIL-57's
    ordering flag is not here: hand ordering is the setting of a program, MIL-17.)"""
    acting = state.to_move() == seat
    return {
        "seat": seat,
        "slots": [token(k) for k in state.slots[seat]],
        "received": [TOKENS[k] for k in state.received[seat]],
        "legal": [action_text(a) for a in state.legal_actions()] if acting else [],
    }


def seat_view(state: MilleState, seat: int | None) -> JSONDict:
    """MIL-57 for a seat, MIL-59 for a spectator (``None``): never a hidden card, the pile's
    order, the seed or the record."""
    seats = []
    for s in (0, 1):
        public = table_json(state, s)
        public.update(
            mileage=state.mileage[s],
            rolling=state.rolling(s),
            limited=state.limited(s),
            game_total=state.game_total[s],
            games_won=state.games_won[s],
            cards=state.cards_held(s),
            drawn=state.drawn and state.mover == s,
        )
        seats.append(public)
    hand = flow_json(state)
    hand.update(
        pile_size=len(state.pile),
        discards=[TOKENS[k] for k in state.discards],
        events=[event_json(e) for e in state.events],
        seats=seats,
    )
    content: JSONDict = {"match": match_json(state), "hand": hand}
    if seat is not None:
        content["private"] = private_part(state, seat)
    return content


def open_content(state: MilleState) -> JSONDict:
    """A spectator's content and every seat's hand of cards (``hands``: its slots, as its own
    view's ``private.slots`` has them) with the cards each just received (``received``, as its
    ``private.received``): a finished match's record is public, as at a real table once the game
    is over. The pile's order is left out: the record shows each card as it was drawn."""
    content = seat_view(state, None)
    content["hands"] = [[token(k) for k in state.slots[s]] for s in (0, 1)]
    content["received"] = [[TOKENS[k] for k in state.received[s]] for s in (0, 1)]
    return content


def hidden_texts(state: MilleState, seat: int | None) -> list[str]:
    """Texts that would only be in ``view(seat)`` if it leaked: another seat's private part or its
    slots or received cards as the view would write them, the pile, the seed, a record."""
    secrets = ['"pile": ', '"seed"', '"record"', '"actions"', '"history"']
    own = private_part(state, seat) if seat is not None else None
    for other in (0, 1):
        if other == seat:
            continue
        private = private_part(state, other)
        secrets.append('"private": ' + json.dumps(private))
        secrets.append(f'"private": {{"seat": {other},')
        for key in ("slots", "received"):
            if own is None or private[key] != own[key]:
                secrets.append(f'"{key}": ' + json.dumps(private[key]))
    if len(state.pile) >= 10:  # shorter lists could match a public pile by chance
        secrets.append(json.dumps([TOKENS[k] for k in reversed(state.pile)]))
    return secrets


# --- sampling a position consistent with a view (MIL-58) -----------------------------------------


_PUBLIC_SEAT_KEYS = ("battle", "speed", "battle_pile", "speed_pile", "safeties", "miles", "hand_total",
                     "coup_window")
_FLOW_KEYS = ("phase", "step", "chance", "to_act", "drawn", "dealt", "draw", "between_hands", "goal",
              "extended")


def unseen_cards(content: JSONDict) -> list[int]:
    """MIL-58: the deck minus the viewer's hand minus every card face up, in canonical order
    (``content``: a view's content)."""
    counts = list(COPIES)
    hand = content["hand"]

    def see(tokens: list[str]) -> None:
        for text in tokens:
            counts[parse_card(text)] -= 1

    see(hand["discards"])
    for public in hand["seats"]:
        see(public["battle_pile"])
        see(public["speed_pile"])
        see([entry["card"] for entry in public["safeties"]])
        for text, count in public["miles"].items():
            counts[parse_card(text)] -= count
    private = content.get("private")
    if private is not None:
        see([text for text in private["slots"] if text is not None])
    if any(count < 0 for count in counts):
        raise FormatError("this view shows more cards of a kind than the deck has")
    return [kind for kind in range(KINDS) for _ in range(counts[kind])]


def _hidden_layout(cards: list[int], hand: JSONDict, seat: int) -> tuple[list[int], list[int]]:
    """Slots for a hidden hand of cards, laid out as the rules would have laid them (MIL-16), and
    the cards of its deal or draw in progress (its private ``received``)."""
    slots = [EMPTY] * 7
    if hand["chance"] == "deal" and not hand["between_hands"]:
        slots[1:1 + len(cards)] = cards
        return slots, list(cards)
    draw = hand["draw"]
    taken = 0
    if hand["drawn"] and hand["to_act"] == seat and draw is not None:
        taken = min(draw["size"] - (draw["left"] if hand["phase"] == "chance" else 0), len(cards))
    slots[:taken] = cards[:taken]
    rest = cards[taken:]
    if rest:
        slots[7 - len(rest):] = rest
    return slots, cards[:taken]


def sample_position(content: JSONDict, viewer: int | None, rng: random.Random) -> JSONDict:
    """A position consistent with what ``viewer`` sees (``content``: its view's content): the
    unseen cards shuffled into the hidden hands of cards (as many as each holds) and the pile
    (MIL-58)."""
    try:
        hand = content["hand"]
        unseen = unseen_cards(content)
        rng.shuffle(unseen)
        seats = []
        for s, public in enumerate(hand["seats"]):
            entry = {key: public[key] for key in _PUBLIC_SEAT_KEYS}
            if s == viewer:
                private = content["private"]
                entry.update(slots=private["slots"], received=private["received"])
            else:
                held, unseen = unseen[:public["cards"]], unseen[public["cards"]:]
                slots, received = _hidden_layout(held, hand, s)
                entry.update(slots=[token(k) for k in slots], received=[TOKENS[k] for k in received])
            seats.append(entry)
        if len(unseen) != hand["pile_size"]:
            raise FormatError("this view's card counts do not add up to the deck")
        sampled = {key: hand[key] for key in _FLOW_KEYS}
        sampled.update(pile=[TOKENS[k] for k in unseen], discards=hand["discards"], seats=seats,
                       events=hand["events"])
        return {"match": content["match"], "hand": sampled}
    except (KeyError, TypeError, ValueError) as error:
        raise FormatError(f"not a Mille Bornes view: {error!r}") from None
