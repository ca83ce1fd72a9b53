"""What the seats ask of the table around the game: draw offers and the rematch.

A match owns one ``Table``; its methods run in the match's writer, in turn with the actions. Offers
live in memory only (a restart forgets them); an agreed draw is the engine's leaving action, stored
by the match like a move; a rematch is made by the lobby (``MakeRematch``) and kept on record.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from parlour.engine import AGREED_DRAW
from parlour.server.messages import OfferKind, ProtocolError

if TYPE_CHECKING:
    from parlour.server.match import EventSeat, Match

log = logging.getLogger("parlour.server")


@dataclass
class Offer:
    """A draw or a rematch that seat ``by`` offered, waiting for the persons it needs (``parties``)."""

    what: OfferKind
    by: int
    parties: tuple[int, ...]
    agreed: set[int]

    @property
    def waiting(self) -> list[int]:
        return [seat for seat in self.parties if seat not in self.agreed]

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, "by": self.by, "agreed": sorted(self.agreed), "waiting": self.waiting}


@dataclass(frozen=True)
class Rematch:
    """The match made as this one's rematch, and each person's place in it: old seat → (new seat,
    token). The places are kept in memory only (the token is the seat's secret, the store keeps its
    hash): a match read back from the store knows its rematch's id alone."""

    match: str
    seats: dict[int, tuple[int, str]]

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """What a connection of ``seat`` (``None``: a spectator) is told: where to go, and as whom."""
        new_seat, token = self.seats.get(seat, (None, None)) if seat is not None else (None, None)
        return {"match": self.match, "url": f"/match/{self.match}", "ws": f"/ws/matches/{self.match}",
                "seat": new_seat, "token": token}


MakeRematch = Callable[["Match"], Awaitable[Rematch]]


OFFER_WORDS: Final = {
    ("draw", "made"): "{who} offers a draw",
    ("draw", "agreed"): "{who} agrees to end the game here as a draw",
    ("draw", "accepted"): "{who} accepts: the game is drawn",
    ("draw", "declined"): "{who} declines the draw",
    ("draw", "withdrawn"): "{who} withdraws the draw offer",
    ("draw", "lapsed"): "The draw offer lapsed: {why}",
    ("rematch", "made"): "{who} offers a rematch",
    ("rematch", "agreed"): "{who} agrees to a rematch",
    ("rematch", "accepted"): "{who} accepts: the rematch is on",
    ("rematch", "declined"): "{who} declines the rematch",
    ("rematch", "withdrawn"): "{who} withdraws the rematch offer",
    ("rematch", "lapsed"): "The rematch offer lapsed: {why}",
}


def offer_words(offer: Offer, change: str, who: str, players: int, why: str | None) -> str:
    """What happened to an offer, in a sentence for the table."""
    if offer.what == "draw" and change == "made" and players > 2:
        return f"{who} proposes to end the game here as a draw among the seats in play"
    return OFFER_WORDS[offer.what, change].format(who=who, why=why)


class Table:
    """A match's pending offers, the seats whose draw offer was declined, and its rematch."""

    def __init__(self, match: Match, rematch: Rematch | None = None) -> None:
        self.match = match
        self.offers: dict[str, Offer] = {}
        """Pending offers by what they offer (in memory only: a restart forgets them)."""
        self.declined: set[int] = set()
        """Seats whose draw offer was declined: they may offer again once they have moved."""
        self.rematch = rematch
        """The rematch made in this process (with the new seats' tokens), or the one on record (without)."""

    async def moved(self, seat: EventSeat, newly_out: list[int]) -> None:
        """After an action by ``seat`` (``newly_out``: the seats it put out): the mover may offer
        a draw again, and a draw offer lapses when its maker moved, when the table changed (a seat
        out) or when the game ended."""
        match = self.match
        if isinstance(seat, int):
            self.declined.discard(seat)
        if match.status != "running":
            self.declined.clear()
        draw = self.offers.get("draw")
        if draw is None:
            return
        if match.status != "running":
            why = "the game is over"
        elif newly_out:
            why = f"{match.seat_names[newly_out[0]]} is out: the table changed"
        elif seat == draw.by:
            why = f"{match.seat_names[draw.by]} moved"
        else:
            return
        del self.offers["draw"]
        await self._tell_offers(draw, "lapsed", draw.by, why)

    async def everyone_left(self) -> None:
        """No seat has a connection any more: an offer of the finished match lapses (nobody is
        there to answer it), and the match may leave memory (``Lobby._in_use``)."""
        if self.match.status != "over":
            return
        for what, offer in list(self.offers.items()):
            del self.offers[what]
            await self._tell_offers(offer, "lapsed", offer.by, "everyone left the table")

    async def offer_draw(self, seat: int) -> ProtocolError | None:
        error = self.match.in_play_error(seat)
        if error is not None:
            return error
        pending = self.offers.get("draw")
        if pending is not None:  # both offered: as good as agreed
            return await self.accept_draw(seat)
        if seat in self.declined:
            return ProtocolError("offer_declined", "your draw offer was declined: you may offer again "
                                                   "after your next move", 409)
        match = self.match
        in_play = match.state.seats_in_play()
        bots = [match.seat_names[other] for other in in_play if match.row.seats[other].kind == "bot"]
        if bots:
            # A bot plays to win: taking draws would let anyone walk away level from a lost game.
            return ProtocolError("bots_play_on", f"{' and '.join(bots)} {'is' if len(bots) == 1 else 'are'} "
                                                 "played by a bot, and bots take no draws: they play every "
                                                 "game to its end (resign to leave)", 409)
        draw = self.offers["draw"] = Offer("draw", seat, tuple(in_play), {seat})
        await self._tell_offers(draw, "made", seat)
        return None

    async def accept_draw(self, seat: int) -> ProtocolError | None:
        error = self.match.in_play_error(seat)
        if error is not None:
            return error
        draw = self.offers.get("draw")
        if draw is None:
            return ProtocolError("no_offer", "nobody is offering a draw", 409)
        if seat in draw.agreed:
            return self._already(draw, seat)
        draw.agreed.add(seat)
        if draw.waiting:
            await self._tell_offers(draw, "agreed", seat)
            return None
        del self.offers["draw"]
        why = self.match.state.leaving_error(AGREED_DRAW)  # the rules of leaving decide, not the move gate
        error = await self.match.commit(None, AGREED_DRAW) if why is None else \
            ProtocolError("game_over", why, 409)
        if error is not None:  # not stored: the offer stands as it was
            draw.agreed.discard(seat)
            self.offers["draw"] = draw
            return error
        await self._tell_offers(draw, "accepted", seat)
        return None

    async def decline(self, seat: int, what: OfferKind) -> ProtocolError | None:
        offer = self.offers.get(what)
        if offer is None:
            return ProtocolError("no_offer", f"nobody is offering a {what}", 409)
        if seat not in offer.parties:
            return ProtocolError("not_in_play", f"you are out of this game: the {what} is for "
                                                f"{self._names(offer.parties)} to decide", 409)
        del self.offers[what]
        if what == "draw":  # withdrawn or declined, it is not made again before the maker moves:
            self.declined.add(offer.by)  # offering and withdrawing in a loop would pester the table
        await self._tell_offers(offer, "withdrawn" if seat == offer.by else "declined", seat)
        return None

    async def offer_rematch(
        self, seat: int, charge: Callable[[], None] | None = None
    ) -> ProtocolError | None:
        error = self._rematch_error()
        if error is not None:
            return error
        pending = self.offers.get("rematch")
        if pending is not None:  # both offered: as good as agreed
            return await self.accept_rematch(seat)
        if charge is not None:
            try:
                charge()
            except ProtocolError as refused:
                return refused
        persons = tuple(index for index, record in enumerate(self.match.row.seats) if record.kind == "person")
        rematch = self.offers["rematch"] = Offer("rematch", seat, persons, {seat})
        if rematch.waiting:
            await self._tell_offers(rematch, "made", seat)
            return None
        return await self._make_rematch(rematch, seat)  # nobody else to ask: bots always play again

    async def accept_rematch(self, seat: int) -> ProtocolError | None:
        error = self._rematch_error()
        if error is not None:
            return error
        rematch = self.offers.get("rematch")
        if rematch is None:
            return ProtocolError("no_offer", "nobody is offering a rematch", 409)
        if seat in rematch.agreed:
            return self._already(rematch, seat)
        rematch.agreed.add(seat)
        if rematch.waiting:
            await self._tell_offers(rematch, "agreed", seat)
            return None
        return await self._make_rematch(rematch, seat)

    def _rematch_error(self) -> ProtocolError | None:
        if self.rematch is not None:
            return ProtocolError("rematch_made", f"the rematch is made already: match {self.rematch.match} "
                                                 f"(/match/{self.rematch.match})", 409)
        if self.match.status != "over":
            return ProtocolError("not_over", "a rematch is offered once the game is over", 409)
        return None

    async def _make_rematch(self, offer: Offer, seat: int) -> ProtocolError | None:
        """Everyone agreed: the new match is made, and every connection told where it is."""
        if self.match.make_rematch is None:
            raise RuntimeError("this match was made without a lobby to make its rematch")
        try:
            self.rematch = await self.match.make_rematch(self.match)
        except Exception as error:  # not made, whatever failed: the offer stands as it was
            offer.agreed.discard(seat)
            if offer.by == seat:
                del self.offers["rematch"]
            if isinstance(error, ProtocolError):
                return error
            log.exception("match %s: making the rematch failed", self.match.id)
            return ProtocolError("internal", "the rematch could not be made (logged): the offer stands as "
                                             "it was", 500)
        del self.offers["rematch"]
        await self._tell_offers(offer, "accepted", seat)
        await self.match.pubsub.publish(self.match.channel, {"kind": "rematch"})
        return None

    def _already(self, offer: Offer, seat: int) -> ProtocolError:
        """``seat`` offered or accepted ``offer`` already: it is the others' to answer."""
        waiting = f"the answer is {self._names(offer.waiting)}'s"
        if seat == offer.by:
            return ProtocolError("already_offered", f"you offered this {offer.what}: {waiting}", 409)
        return ProtocolError("already_agreed", f"you have agreed to this {offer.what}: {waiting}", 409)

    def _names(self, seats: Iterable[int]) -> str:
        return " and ".join(self.match.seat_names[seat] for seat in seats) or "nobody"

    async def _tell_offers(self, offer: Offer, change: str, seat: int, why: str | None = None) -> None:
        words = offer_words(offer, change, self.match.seat_names[seat], self.match.row.players, why)
        news = {"what": offer.what, "change": change, "seat": seat, "words": words}
        await self.match.pubsub.publish(self.match.channel, {"kind": "offers", "news": news})
