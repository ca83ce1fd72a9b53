"""Replays: a match's positions version by version, a page at a time (``GET
/api/matches/{id}/replay``), and its record to download (``GET /api/matches/{id}/record``).

A finished match's record is public: every step shows the engine's open view (every hand) and
every event's full text. A running match is shown only as one seat (with its token) or a
spectator may see it. Nothing here ever holds the seed: a record is sent with ``"seed": 0``, as
every chance outcome is an action in it.

Working out positions costs CPU: stored actions are applied unchecked (they were checked when
played: ``parlour.engine.record``), each request is charged to its address's budget by the
positions it works out, pages are made in a worker thread (the event loop answers meanwhile), at
most ``replays_at_once`` at a time, and a few positions of the latest matches replayed are kept
(``Checkpoints``), so that paging through a long match plays each action once rather than
replaying from the start for every page.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from parlour.engine import Action, JSONDict, State
from parlour.server.limits import Limits
from parlour.server.match import Event, Match, event_json
from parlour.server.messages import ProtocolError

PAGE_MOST: Final = 50
"""Steps in one page of a replay at most (and by default)."""

MATCHES_KEPT: Final = 16
"""Matches whose positions are kept for the next pages (the latest replayed)."""

KEPT_PER_MATCH: Final = 64
"""Positions kept per match at most."""

CHECKPOINT_EVERY: Final = 100
"""Versions between the positions kept while a page is worked out from far before it."""


@dataclass(frozen=True)
class Asked:
    """What a replay request asks: the first version, how many, and whose eyes (``None``: a
    spectator's; ignored once the match is over, when everything is shown)."""

    start: int
    count: int
    seat: int | None


def read_replay_query(query: Mapping[str, str], match: Match) -> Asked:
    """``from``, ``count`` and ``token`` of a replay request; ``bad_request`` or ``bad_token``."""
    start = read_whole(query.get("from", ""), "from", 0, 2**53, 0)
    count = read_whole(query.get("count", ""), "count", 1, PAGE_MOST, PAGE_MOST)
    return Asked(start, count, read_token_seat(query.get("token", ""), match))


def read_token_seat(token: str, match: Match) -> int | None:
    """The seat a request's ``token`` holds (``None`` without one: a spectator); ``403 bad_token``."""
    if not token:
        return None
    seat = match.seat_of(token)
    if seat is None:
        raise ProtocolError("bad_token", "that token holds no seat of this match", 403)
    return seat


def read_whole(text: str, name: str, low: int, high: int, default: int) -> int:
    if not text.strip():
        return default
    if not (len(text) <= 16 and text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        wrong = f"{name}: {text[:40]!r} is not a whole number from {low} to {high}"
        raise ProtocolError("bad_request", wrong)
    return int(text)


@dataclass(frozen=True)
class Walk:
    """What a page is worked out from (a snapshot taken on the event loop, read in a worker):
    the match's actions and events up to now, a kept position to start from, and the eyes."""

    actions: list[Action]
    events: list[Event]
    start_version: int
    start_state: State
    first: int
    last: int
    open: bool
    """The match is over: open views and full texts."""
    seat: int | None


def walk(page: Walk) -> tuple[list[dict[str, Any]], dict[int, State]]:
    """The steps of a page, and positions to keep (by version): worked out from a copy of the
    kept position, before the page's first step (an event's full text is read in the position
    before it), never touching the match: it runs in a worker thread."""
    state = page.start_state.copy()
    version = page.start_version
    kept: dict[int, State] = {}
    steps = [step(page, state, 0, "")] if page.first == 0 else []
    while version < page.last:
        action = page.actions[version]
        text = ""
        if version + 1 >= page.first:
            text = state.action_to_text(action) if page.open else page.events[version].text_for(page.seat)
        state.play_stored(action)  # checked when it was played: replaying it needs no legal list
        version += 1
        if version >= page.first:
            steps.append(step(page, state, version, text))
        elif version % CHECKPOINT_EVERY == 0:
            kept[version] = state.copy()
    kept[version] = state  # not changed after this: the next page starts from it
    return steps, kept


def step(page: Walk, state: State, version: int, text: str) -> dict[str, Any]:
    view: JSONDict = state.open_view() if page.open else state.view(page.seat)
    event = None if version == 0 else event_json(page.events[version - 1], text)
    return {"version": version, "event": event, "view": view, "legal": []}


class Checkpoints:
    """Positions of the latest matches replayed, by match and version (a position is never changed
    once kept: a page works on a copy). A match's earlier versions never change, so positions
    stay true while it goes on."""

    def __init__(self) -> None:
        self.matches: collections.OrderedDict[str, dict[int, State]] = collections.OrderedDict()

    def nearest_version(self, match_id: str, version: int) -> int:
        """The version of the kept position of ``match_id`` at ``version`` or the latest before it
        (0, the set-up, if none): where a page that starts after ``version`` is worked out from."""
        return max((known for known in self.matches.get(match_id, {}) if known <= version), default=0)

    def nearest(self, match: Match, version: int) -> tuple[int, State]:
        """The kept position of ``match`` at ``version`` or the latest before it (the set-up if none)."""
        kept = self.matches.get(match.id, {})
        if kept:
            self.matches.move_to_end(match.id)
        best = self.nearest_version(match.id, version)
        if best in kept:
            return best, kept[best]
        row = match.row
        return 0, match.game.new(row.players, row.options, row.seed, row.start)

    def keep(self, match_id: str, positions: dict[int, State]) -> None:
        kept = self.matches.setdefault(match_id, {})
        self.matches.move_to_end(match_id)
        kept.update(positions)
        while len(kept) > KEPT_PER_MATCH:  # the earliest go first (a replay mostly goes forwards)
            del kept[min(kept)]
        while len(self.matches) > MATCHES_KEPT:
            self.matches.popitem(last=False)


Charge = Callable[[int], None]
"""Charges the asker's budget so many positions (``AddressBuckets.spend``), or raises
``rate_limited`` before any work is done."""


class Replays:
    """The server's replays: pages and records of matches, worked out in worker threads, at most
    ``replays_at_once`` at a time (others wait their turn; one by default: several worker threads
    at once make the event loop wait for the interpreter's lock, and everyone's answers with it).
    Each request is charged by its work, the positions worked out, before any is done."""

    def __init__(self, limits: Limits, working: asyncio.Semaphore | None = None) -> None:
        """``working``: the server's (``Lobby.working``), which matches read back wait on too."""
        self.checkpoints = Checkpoints()
        self.working = working or asyncio.Semaphore(max(1, int(limits.replays_at_once)))

    def page_cost(self, match: Match, asked: Asked) -> int:
        """The positions a page will work out: the match's replay if it is not in memory yet, and
        the actions from the nearest kept position to the page's last step (1 at least)."""
        last = min(match.version, asked.start + asked.count - 1)
        walked = last - self.checkpoints.nearest_version(match.id, max(0, asked.start - 1))
        return match.unreplayed + max(1, walked)

    async def page(self, match: Match, asked: Asked, charge: Charge) -> dict[str, Any]:
        charge(self.page_cost(match, asked))
        await match.loaded()  # in its turn among the replays
        async with self.working:
            status = match.status  # as the steps show it, should the match end while they are made
            over = status == "over"
            perspective: int | str | None = "all" if over else asked.seat
            current = match.version
            last = min(current, asked.start + asked.count - 1)
            steps: list[dict[str, Any]] = []
            if asked.start <= current:
                start_version, start_state = self.checkpoints.nearest(match, max(0, asked.start - 1))
                # The actions and events up to the page's last step only (a slice is a copy).
                page = Walk(match.state.history[:last], match.events[:last], start_version, start_state,
                            asked.start, last, over, None if over else asked.seat)
                steps, kept = await asyncio.to_thread(walk, page)
                self.checkpoints.keep(match.id, kept)
        return {"match": match.id, "version": current, "status": status, "perspective": perspective,
                "steps": steps}

    async def record(self, match: Match, charge: Charge) -> JSONDict:
        """The record of a finished match, as the engine writes it (``parlour play --load`` reads
        it), with ``"seed": 0``: the server's secret never leaves it, and every chance outcome is
        an action of the record, so it replays all the same. ``409 not_over`` before the end."""
        if match.status != "over":
            raise ProtocolError("not_over", "the match is not over: its record is public once it ends", 409)
        charge(max(1, match.unreplayed))
        await match.loaded()  # in its turn among the replays
        return dataclasses.replace(match.state.record(), seed=0).to_json()
