"""The lobby: the games on offer, creating matches, listing them a page at a time, and bringing
stored matches back: the unfinished ones at start-up, a finished one when someone asks for it.

Only open and running matches live in memory; a match that ends moves to a small cache of
finished ones and leaves it when newer ones come, and open matches nobody joined expire.

In a cluster (``Leases`` other than ``SoleLeases``: several processes on one PostgreSQL), this
process holds in memory only the unfinished matches whose lease it holds: those it created, those
a client asked for while nobody held them, and those it found unattended (their writer died). It
renews their leases every third of a lease's length and lets go of a match whose lease it lost
(its connections are closed and reconnect to the new writer). A client asking for a match another
process holds is told where (``Elsewhere``), and ``parlour.server.relay`` passes it on there.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import math
import secrets
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from parlour.bots import DEFAULT_BOT, KINDS, bot_kinds
from parlour.bots.levels import level_counts, level_json, levels_for
from parlour.engine import Game, ParlourError, State
from parlour.games import GAMES, get_game
from parlour.server import collector
from parlour.server.boards import Library, board_given_as_text, boards_json, read_board_text
from parlour.server.bots import BotPool
from parlour.server.leases import Leases, Node, SoleLeases
from parlour.server.limits import UNKNOWN_ADDRESS, Limits
from parlour.server.match import Match, ServerTime, Timer, new_token
from parlour.server.messages import (
    ProtocolError,
    check_json_text,
    decode_cursor,
    encode_cursor,
    json_kind,
    read_name,
    store_unreachable,
)
from parlour.server.pubsub import PubSub
from parlour.server.relay import gone
from parlour.server.storage import (
    MatchRow,
    MatchStatus,
    SeatRecord,
    Store,
    StoreError,
    progress_of,
)
from parlour.server.summary import seat_names_of, summary_json
from parlour.server.table import Rematch

log = logging.getLogger("parlour.server")

DEFAULT_BOT_SECONDS: Final = 1.0
BOT_SECONDS_RANGE: Final = (0.01, 60.0)

CLOCK_RANGES: Final = {"base": (1.0, 36_000.0), "increment": (0.0, 600.0), "per_move": (1.0, 86_400.0)}
"""Seconds a clock option may say: a base of up to 10 hours, an increment of up to 10 minutes, a
day for one move."""

FINISHED_KEPT: Final = 64
"""Finished matches kept in memory (the latest to end or be asked for); the rest are read from
the store when someone asks."""

ABANDON_CHECK_SECONDS: Final = 600.0
"""How often running matches are checked for abandonment (more often when they are abandoned sooner)."""

EXPIRY_CHECK_SECONDS: Final = 60.0
"""How often open matches are checked for expiry (more often when they expire sooner)."""

LISTED: Final[tuple[MatchStatus, ...]] = ("open", "running", "over")
"""The statuses a client may ask the list for (expired matches are gone from the lobby)."""

DEFAULT_LISTED: Final[tuple[MatchStatus, ...]] = ("open", "running")

UNATTENDED_AT_ONCE: Final = 50
"""Matches without a writer taken over in one round of ``_attend`` (the rest wait for the next)."""


class Elsewhere(Exception):
    """The match is held by another process of the cluster, reached at ``holder.address``."""

    def __init__(self, match_id: str, holder: Node) -> None:
        super().__init__(f"match {match_id} is held by {holder.address}")
        self.match_id = match_id
        self.holder = holder


@dataclass(frozen=True)
class ListQuery:
    """What a ``GET /api/matches`` asks for: statuses, game, the cursor, the page size, and ids."""

    statuses: list[MatchStatus]
    game: str | None
    after: tuple[float, str] | None
    size: int
    ids: list[str] | None


async def read_match(store: Store, match_id: str) -> MatchRow:
    """A match of a game this server plays, from the store: ``no_match`` if there is none,
    ``unavailable`` if the store cannot be read."""
    row = None
    if 0 < len(match_id) <= 40:  # ids are short: a long one is not worth asking the store for
        try:
            row = await store.load_match(match_id)
        except StoreError as error:
            log.error("reading match %s: %s", match_id, error)
            raise store_unreachable("the match could not be read") from None
    if row is None or row.game not in GAMES:
        raise ProtocolError("no_match", f"there is no match {match_id[:40]!r}", 404)
    return row


def game_json(game: Game[State], help_page: str | None, board_characters: int) -> dict[str, Any]:
    """A game's declaration for ``GET /api/games``: all from ``GameInfo`` and the bot registry,
    the address of its rules page (``None`` when the game has none) and its boards, if it has
    any (``board_characters``: the server's limit of a board's text). ``levels``: by player count,
    the levels a ladder placed (``parlour.bots.levels``), easiest first; none for a game without."""
    info = game.info
    kinds = bot_kinds(info.name)
    return {
        "name": info.name,
        "title": info.title,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "default_players": info.default_players,
        "chance": info.chance,
        "hidden_information": info.hidden_information,
        "seat_names": [info.seat_name(seat) for seat in range(info.max_players)],
        "end_reasons": dict(info.end_reasons),
        "listed": info.listed,
        "options": [
            {"name": option.name, "default": option.default, "help": option.help,
             "choices": list(option.choices), "minimum": option.minimum}
            for option in info.options
        ],
        "served_options": {
            str(players): served
            for players in range(info.min_players, info.max_players + 1)
            if (served := game.served_options(players))
        },
        "bots": [{"kind": kind, "summary": KINDS[kind].summary} for kind in kinds],
        "default_bot": DEFAULT_BOT if DEFAULT_BOT in kinds else (kinds[-1] if kinds else None),
        "levels": {str(players): [level_json(level) for level in levels_for(info.name, players)]
                   for players in level_counts(info.name)},
        "help": help_page,
        "boards": boards_json(game, board_characters),
    }



class Places:
    """Matches of one kind that take a place under a cap, each with the address that created it
    ("" for those loaded at start-up): at most ``per_address`` for one address, ``total`` in all."""

    def __init__(
        self, per_address: float, total: float,
        too_many: Callable[[int], ProtocolError], full: Callable[[int], ProtocolError],
    ) -> None:
        self.per_address = per_address
        self.total = total
        self.too_many = too_many
        self.full = full
        self.creators: dict[str, str] = {}

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.creators))

    def hold(self, match_id: str, address: str) -> None:
        """Takes a place for ``match_id``, or raises ``too_many(mine)`` / ``full(held)``."""
        mine = sum(creator == address for creator in self.creators.values())
        if mine >= self.per_address:
            raise self.too_many(mine)
        if len(self.creators) >= self.total:
            raise self.full(len(self.creators))
        self.creators[match_id] = address

    def keep(self, match_id: str) -> None:
        """A place for a match loaded at start-up, whatever the caps (its creator is not stored)."""
        self.creators[match_id] = ""

    def release(self, match_id: str) -> None:
        self.creators.pop(match_id, None)


class Lobby:
    """Every open and running match this server holds, by id, and a few finished ones."""

    def __init__(
        self, store: Store, pubsub: PubSub, bots: BotPool, limits: Limits | None = None,
        server_time: ServerTime | None = None, leases: Leases | None = None,
    ) -> None:
        self.store = store
        self.leases: Leases = leases or SoleLeases()
        """Which process writes which match: always this one unless in a cluster."""
        self.clustered = not isinstance(self.leases, SoleLeases)
        self._relays: dict[str, set[asyncio.Event]] = {}
        """Per match another process writes, the events of the clients relayed there (``taken_here``)."""
        self.unplayable: set[str] = set()
        """In a cluster, matches this process took over but could not resume (damaged, or of a game
        it does not know): their leases are kept, so that no round of any process tries them again."""
        self.time = server_time or ServerTime()
        """The one clock every match reads (a manual one under ``--test-clock``)."""
        self.limits = limits or Limits()
        self.pubsub = pubsub
        self.bots = bots
        self.matches: dict[str, Match] = {}
        """Open and running matches."""
        self.finished: collections.OrderedDict[str, Match] = collections.OrderedDict()
        """Finished (or expired) matches lately ended or asked for, the latest last."""
        hours = self.limits.open_expiry_hours
        self.open_places = Places(
            self.limits.open_per_address, self.limits.open_total,
            lambda mine: ProtocolError(
                "too_many_open",
                f"you have {mine} open matches waiting for players, the most one address may have: "
                f"fill the seats of one (join it, or invite friends) or wait for one to expire "
                f"({hours:g} hours after it was created)",
                429,
            ),
            lambda held: ProtocolError(
                "server_full",
                f"the server holds {held} open matches, the most it takes: join one of them, or try "
                "again later",
                503,
            ),
        )
        """Open matches (waiting for players)."""
        self.bot_places = Places(
            self.limits.bot_matches_per_address, self.limits.bot_matches_total,
            lambda mine: ProtocolError(
                "too_many_bot_matches",
                f"you have {mine} matches with bots in every seat still playing, the most one address "
                "may have: watch one to its end first",
                429,
            ),
            lambda held: ProtocolError(
                "server_full",
                f"the server is playing {held} matches of bots alone, the most it takes: try again later",
                503,
            ),
        )
        """Unfinished matches with bots in every seat: nobody waits on them, but their bots take the
        server's CPUs until they end."""
        self.tasks: set[asyncio.Task[None]] = set()
        self._abandon_timer: Timer | None = None
        self.library = Library(store, self.limits, self.time.now)
        """Each game's boards, shipped and saved (a saved one's name becomes its text in a match)."""
        self.working = asyncio.Semaphore(max(1, int(self.limits.replays_at_once)))
        """Replays worked out in worker threads at once, on the whole server: a match read back and
        a replay page alike (several threads at once make the event loop wait for the interpreter)."""

    # --- life ------------------------------------------------------------------------------------

    async def load(self) -> None:
        """Brings back the unfinished matches (not replayed: each replays when first needed), then,
        in the background, wakes those whose next move is the server's and expires old open ones.
        In a cluster, none at once: ``_attend`` takes over, a round at a time, those nobody holds."""
        if self.clustered:
            collector.loaded()
            self._background(self._attend_regularly())
            self._background(self._expire_regularly())
            self._check_abandoned()
            return
        for row in await self.store.load_unfinished():
            try:
                match = self._match(row)
            except Exception as error:  # one damaged or unknown match must not keep the server down
                log.error("match %s cannot be resumed: %s", row.id, error)
                continue
            self.matches[row.id] = match
            if match.status == "open":
                self.open_places.keep(row.id)
            elif all(seat.kind == "bot" for seat in row.seats):
                self.bot_places.keep(row.id)
        log.info("%d unfinished matches loaded (finished ones are read when asked for)", len(self.matches))
        collector.loaded()
        self._background(self._wake_all())
        self._background(self._expire_regularly())
        self._check_abandoned()

    async def close(self) -> None:
        if self._abandon_timer is not None:
            self._abandon_timer.cancel()
        for task in list(self.tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        held = list(self.matches)
        for match in [*self.matches.values(), *self.finished.values()]:
            await match.stop()
        if self.clustered and held:  # handed over at once, not after the leases run out
            with contextlib.suppress(StoreError):
                await self.leases.drop(held)

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _wake_all(self) -> None:
        """Resumes the matches waiting for chance or a bot one at a time, letting the server
        answer in between (each resumed match replays its actions)."""
        for match in [match for match in self.matches.values() if match.waits_for_server()]:
            try:
                match.start()
            except Exception as error:  # a damaged match stays as it is; the others go on
                log.error("match %s cannot be resumed: %s", match.id, error)
            await asyncio.sleep(0)

    def _match(self, row: MatchRow, read_only: bool = False) -> Match:
        game = get_game(row.game)
        return Match(row, game, self.store, self.pubsub, self.bots, self._status_changed, read_only,
                     make_rematch=self.rematch, server_time=self.time, limits=self.limits,
                     working=self.working, on_moved=self._moved)

    def _status_changed(self, match: Match) -> None:
        """A match started, ended or expired: it leaves the open ones, and memory when it is over."""
        if match.status != "open":
            self.open_places.release(match.id)
        if match.status in ("over", "expired"):
            self.bot_places.release(match.id)
            if self.clustered and match.id in self.matches:  # a finished match needs no writer
                self._background(self._drop_lease(match.id))
        if match.status in ("over", "expired") and self.matches.pop(match.id, None) is not None:
            self._keep_finished(match)
            if match.status == "over":
                collector.settled()

    def _keep_finished(self, match: Match) -> None:
        """Keeps ``match`` as the latest finished one, and lets the oldest go beyond
        ``FINISHED_KEPT``, but never one still in use (``_in_use``)."""
        self.finished[match.id] = match
        self.finished.move_to_end(match.id)
        excess = len(self.finished) - FINISHED_KEPT
        for match_id, oldest in list(self.finished.items()):
            if excess <= 0:
                break
            if self._in_use(oldest):
                continue
            del self.finished[match_id]
            excess -= 1
            self._background(oldest.stop())

    def _in_use(self, match: Match) -> bool:
        """Whether a finished match must stay in memory: a copy read back from the store would not
        know its players' connections, its pending offers, nor the new seats' tokens of its rematch
        (kept while the rematch is unfinished), and a second tab on such a copy could make a second
        rematch. Spectators do not keep it: anyone may open as many spectators' sockets as their
        connections allow, and each would pin a match past ``FINISHED_KEPT``; a copy read back
        shares their channel, and the store numbers the chat of both."""
        if any(match.present) or match.offers:
            return True
        return match.rematch is not None and match.rematch.match in self.matches

    # --- one match -------------------------------------------------------------------------------

    async def get(self, match_id: str) -> Match:
        """The match ``match_id``: from memory, or read from the store (read-only) if it is over.
        In a cluster, an unfinished match nobody holds is taken here; ``Elsewhere`` if another
        process holds it."""
        match = self.matches.get(match_id)
        if match is not None:
            await self._expire_if_due(match)
            return match
        match = self.finished.get(match_id)
        if match is not None:
            self.finished.move_to_end(match_id)
            return match
        row = await self._read(match_id)
        match = self.matches.get(match_id) or self.finished.get(match_id)  # another request was quicker
        if match is None and self.clustered and unfinished(row):
            return await self._take(row)
        if match is None:
            match = self._match(row, read_only=True)
            self._keep_finished(match)
        return match

    async def _read(self, match_id: str) -> MatchRow:
        return await read_match(self.store, match_id)

    # --- the cluster: which matches this process writes ----------------------------------------

    async def _take(self, row: MatchRow) -> Match:
        """The unfinished match of ``row``, written from now on by this process if nobody else
        holds it (``Elsewhere`` if another does)."""
        holder = await self._lease(row.id)
        if holder != self.leases.me and holder.address == self.leases.me.address:
            # Two processes cannot listen on one address: the holder is this one's dead predecessor.
            await self._forget(holder)
            holder = await self._lease(row.id)
        if holder != self.leases.me:
            raise Elsewhere(row.id, holder)
        match = self.matches.get(row.id)
        if match is None:
            try:
                fresh = await self._read(row.id)  # read under the lease: what the last writer stored
            except ProtocolError:
                await self._drop_lease(row.id)  # held by nobody who plays it: the next asker takes it
                raise
            # One match, one ``Match``: a request that came meanwhile may have made it already.
            match = self.matches.get(row.id) or self._adopt(fresh)
        return match

    async def _lease(self, match_id: str) -> Node:
        try:
            return await self.leases.take(match_id)
        except StoreError as error:
            log.error("taking the lease of match %s: %s", match_id, error)
            raise store_unreachable("the match's server could not be settled") from None

    def _adopt(self, row: MatchRow) -> Match:
        """A match this process now holds the lease of: in memory, its bots and chance woken."""
        match = self._match(row)
        self.matches[row.id] = match
        for taken in self._relays.pop(row.id, ()):
            taken.set()
        if match.status == "open":
            self.open_places.keep(row.id)
        elif all(seat.kind == "bot" for seat in row.seats):
            self.bot_places.keep(row.id)
        match.start()
        return match

    async def _attend_regularly(self) -> None:
        """Renews this process's leases and takes over matches nobody holds (their writer died),
        every third of a lease's length."""
        while True:
            try:
                await self._attend()
            except StoreError as error:  # the store is away: the next round tries again
                log.error("renewing leases: %s", error)
            await asyncio.sleep(self.leases.seconds / 3)

    async def _attend(self) -> None:
        held = [match_id for match_id, match in self.matches.items() if match.status in ("open", "running")]
        kept = await self.leases.renew([*held, *self.unplayable])  # this node's heartbeat, even holding none
        self.unplayable &= kept
        for match_id in held:
            if match_id not in kept:
                log.warning("match %s: its lease was lost; another process writes it now", match_id)
                await self.let_go(match_id)
        while await self._take_over(await self.leases.unattended(UNATTENDED_AT_ONCE)):
            await asyncio.sleep(0)  # a full round: more may wait (a dead process's thousand matches)

    async def _take_over(self, unattended: list[str]) -> bool:
        """Takes over what it can of ``unattended``; whether the list was full and this process
        took some (then another round follows at once)."""
        taken = 0
        for match_id in unattended:
            if match_id in self.matches or await self.leases.take(match_id) != self.leases.me:
                continue
            taken += 1
            try:
                row = await self.store.load_match(match_id)
            except StoreError:
                await self._drop_lease(match_id)  # held by nobody who plays it: let another round try
                raise
            if match_id in self.matches:  # a client's request made it meanwhile
                continue
            if row is None or not unfinished(row):
                await self.leases.drop([match_id])
                continue
            if row.game not in GAMES:
                log.error("match %s cannot be resumed: no game called %r", match_id, row.game)
                self.unplayable.add(match_id)
                continue
            try:
                self._adopt(row)
            except Exception as error:  # one damaged match must not stop the others' take-over
                log.error("match %s cannot be resumed: %s", match_id, error)
                self.unplayable.add(match_id)
            else:
                log.info("match %s: taken over (nobody held it)", match_id)
        return taken > 0 and len(unattended) >= UNATTENDED_AT_ONCE

    async def let_go(self, match_id: str) -> None:
        """Stops writing ``match_id`` (its lease is lost): out of memory, its connections closed
        (``moved``: they reconnect, and reach its new writer)."""
        match = self.matches.pop(match_id, None)
        if match is None:
            return
        self.open_places.release(match_id)
        self.bot_places.release(match_id)
        await match.stop()  # what it was doing is answered first (a stopped match answers the rest)
        await self.pubsub.publish(match.channel, {"kind": "moved"})
        # Still ours when the store refused it for another reason than the lease (a version another
        # copy stored): dropped, the match is nobody's and taken over afresh, unless a request
        # took it again meanwhile (then this process writes it, and keeps it).
        if match_id not in self.matches:
            await self._drop_lease(match_id)

    async def forget_if_gone(self, holder: Node) -> bool:
        """Whether ``holder``, which could not be reached, is gone for sure (``relay.gone``): then its
        leases run out now, and its matches are taken over without waiting for them to run out."""
        if holder == self.leases.me or not await gone(holder):
            return False
        return await self._forget(holder)

    async def _forget(self, holder: Node) -> bool:
        """Runs out the leases of ``holder``, a process known to be gone."""
        try:
            count = await self.leases.expire(holder)
        except StoreError as error:
            log.error("running out the leases of %s: %s", holder.address, error)
            return False
        log.warning("the process at %s (node %s) is gone: its %d leases run out now", holder.address,
                    holder.id, count)
        return True

    def taken_here(self, match_id: str) -> asyncio.Event:
        """An event set when this process takes ``match_id`` over: a client relayed from here to the
        match's writer waits on it, and is sent on (reconnects) then, instead of staying on a relay to
        a writer that may hang."""
        taken = asyncio.Event()
        self._relays.setdefault(match_id, set()).add(taken)
        return taken

    def relay_ended(self, match_id: str, taken: asyncio.Event) -> None:
        relays = self._relays.get(match_id)
        if relays is not None:
            relays.discard(taken)
            if not relays:
                del self._relays[match_id]

    async def _drop_lease(self, match_id: str) -> None:
        try:
            await self.leases.drop([match_id])
        except StoreError as error:  # a client's request or a take-over round takes it again
            log.error("dropping the lease of match %s: %s", match_id, error)

    async def _holds_new(self, match: Match) -> bool:
        """Whether this process writes a match it just created: it takes the lease (nobody else
        knows the match yet, unless a take-over round found it first: then that process writes it,
        and this one lets it go). A store that does not answer leaves it to a take-over round."""
        if not self.clustered:
            return True
        try:
            holder: Node | None = await self._lease(match.id)
        except ProtocolError:  # logged by _lease
            holder = None
        if holder != self.leases.me:
            await self.let_go(match.id)
            return False
        return True

    def _moved(self, match: Match) -> None:
        """The store refused an action of ``match``: another process wrote its next version."""
        if self.matches.get(match.id) is match:
            self._background(self.let_go(match.id))

    # --- the list --------------------------------------------------------------------------------

    async def page(self, query: Sequence[tuple[str, str]]) -> dict[str, Any]:
        """One page of ``GET /api/matches`` from its query parameters, in order, a name possibly
        repeated (``docs/protocol.md``): newest first, of the statuses and game asked for, from the
        store (finished matches are not in memory) with live fields from the matches in memory.
        With ``ids``, only those matches (a browser's own), of any status unless one is asked for."""
        asked = self._read_query(query)
        try:
            rows = await self.store.list_matches(asked.statuses, asked.game, asked.after, asked.size + 1,
                                                 asked.ids)
        except StoreError as error:
            log.error("listing matches: %s", error)
            raise store_unreachable("the matches could not be listed") from None
        more, rows = len(rows) > asked.size, rows[:asked.size]
        listed = []
        for row in rows:
            live = self.matches.get(row.id) or self.finished.get(row.id)
            if live is not None:
                listed.append(live.summary())
            elif row.progress is not None and row.game in GAMES:
                listed.append(summary_json(row, row.progress, seat_names_of(row)))
        last = rows[-1] if more else None
        return {"matches": listed, "next": None if last is None else encode_cursor(last.created, last.id)}

    def _read_query(self, query: Sequence[tuple[str, str]]) -> ListQuery:
        """The list's query; ``bad_request`` saying what is wrong."""
        statuses: list[MatchStatus] = []
        game: str | None = None
        after: tuple[float, str] | None = None
        ids: list[str] | None = None
        most = max(1, int(self.limits.page_size))  # --limit page_size=0.5 must not make empty pages
        size = most
        for name, value in query:
            if name == "ids" and not value.strip(",").strip():  # a browser holding no seats has no matches
                ids = ids or []
                continue
            if not value.strip():  # an empty parameter is one not given (e.g. the first page's cursor)
                continue
            if name == "status":
                statuses += [read_status(word) for word in value.split(",") if word.strip()]
            elif name == "all":
                statuses += LISTED if value.lower() in ("1", "true", "yes") else DEFAULT_LISTED
            elif name == "game":
                if value not in GAMES:
                    known = ", ".join(GAMES)
                    raise ProtocolError("bad_request", f"game: no game {value[:40]!r} (games: {known})")
                game = value
            elif name == "cursor":
                after = decode_cursor(value)
            elif name == "limit":
                size = read_page_size(value, most)
            elif name == "ids":
                ids = [*(ids or []), *read_ids(value, most)]
                if len(ids) > most:
                    raise ProtocolError("bad_request", f"ids: at most {most} match ids at once")
        default = LISTED if ids is not None else DEFAULT_LISTED  # one's own matches: finished ones too
        chosen = [status for status in LISTED if status in statuses] or list(default)
        return ListQuery(chosen, game, after, size, ids)

    # --- expiry ----------------------------------------------------------------------------------

    @property
    def expiry_seconds(self) -> float:
        return self.limits.open_expiry_hours * 3600

    async def _expire_regularly(self) -> None:
        """Expires open matches nobody filled in time: at start-up, then every minute (more often
        when matches expire within minutes, so that none waits much past its time)."""
        interval = min(EXPIRY_CHECK_SECONDS, max(0.1, self.expiry_seconds / 4))
        while True:
            for match_id in self.open_places:
                match = self.matches.get(match_id)
                if match is not None:
                    await self._expire_if_due(match)
            await asyncio.sleep(interval)

    async def _expire_if_due(self, match: Match) -> None:
        if match.status != "open" or self.time.now() - match.row.created < self.expiry_seconds:
            return
        try:
            await match.expire()
        except StoreError as error:  # logged; the next check tries again (fenced: let go already)
            log.error("match %s: storing its expiry: %s", match.id, error)

    # --- abandonment -------------------------------------------------------------------------------

    @property
    def abandon_seconds(self) -> float:
        return self.limits.abandon_hours * 3600

    def _check_abandoned(self) -> asyncio.Future[list[Any]]:
        """Ends the running matches no person has touched for ``abandon_hours``, then checks again
        in a while: one timer on the server's time for all (the test clock drives it too)."""
        interval = max(1.0, min(ABANDON_CHECK_SECONDS, self.abandon_seconds / 24))
        self._abandon_timer = self.time.call_at(self.time.now() + interval, self._check_abandoned)
        due = [match.abandon_if_due(self.abandon_seconds) for match in self.matches.values()
               if match.untouched_for(self.time.now()) >= self.abandon_seconds]
        return asyncio.gather(*due)

    # --- creating --------------------------------------------------------------------------------

    async def create(self, body: Any, address: str = UNKNOWN_ADDRESS) -> tuple[Match, int | None, str | None]:
        """A new match from a ``POST /api/matches`` body; with ``join``, the creator's seat and token.
        It is stored in one go, the creator's seat already claimed: nothing is stored if any of it fails."""
        if not isinstance(body, dict):
            raise ProtocolError("bad_request", f"the body must be a JSON object, not {json_kind(body)}")
        game = read_game(body.get("game"))
        longest = int(self.limits.board_characters)  # the one limit of a board's text: here as in the library
        players, options = read_players(body.get("players")), read_options(game, body.get("options"), longest)
        options = await self.library.resolve(game, options)
        secret = secrets.randbits(62)  # the seed: the server's secret
        make = functools.partial(game.new, players, options, secret)
        try:
            # A board given by its text is read (and kept by the game) in a worker thread, as the
            # library checks one: up to about 10 ms for the largest Conflict map, which the event
            # loop's other clients need not wait out whole.
            state = await asyncio.to_thread(make) if board_given_as_text(game, options) else make()
        except ParlourError as error:
            raise ProtocolError("bad_option", str(error)) from None
        seats = read_seats(game, state.players, body.get("seats"))
        bots_only = all(seat.kind == "bot" for seat in seats)
        served = {name: value for name, value in game.served_options(state.players, bots_only).items()
                  if name not in options}
        if served:  # a match among bots must end: the game's bound, unless the creator chose
            try:
                state = game.new(state.players, {**options, **served}, state.seed)
            except ParlourError as error:
                raise ProtocolError("bad_option", str(error)) from None
        seed = read_seed(game, seats, body.get("seed"))
        if seed is not None:
            state = game.new(state.players, state.options, seed)
        bot_seconds = read_bot_seconds(body.get("bot_seconds", DEFAULT_BOT_SECONDS))
        clock = read_clock(body.get("clock"))
        join, join_name = read_join(body.get("join"), seats), read_name(body.get("name"))
        token = None
        if join is not None:
            token, digest = new_token()
            seats[join] = SeatRecord("person", name=join_name, token_hash=digest)
        now = self.time.now()  # the server's time, as every action's ``updated`` (``--test-clock``)
        row = MatchRow(
            id=self._new_id(), game=game.info.name, players=state.players, options=dict(state.options),
            seed=state.seed, seats=seats, bot_seconds=bot_seconds, created=now,
            progress=replace(progress_of(state, seats), updated=now), clock=clock,
        )
        opens = row.progress is not None and row.progress.status == "open"
        # Its place is held while it is stored: creations at once cannot pass a cap together.
        if opens:
            self.open_places.hold(row.id, address)
        elif all(seat.kind == "bot" for seat in seats):
            self.bot_places.hold(row.id, address)
        try:
            await self.store.create(row)
        except StoreError as error:
            self.open_places.release(row.id)
            self.bot_places.release(row.id)
            log.error("creating a match: %s", error)
            raise store_unreachable("the match could not be stored") from None
        match = self._match(row)
        match.chat.new()
        self.matches[row.id] = match
        if await self._holds_new(match):
            match.start()
        collector.settled()
        return match, join, token

    async def rematch(self, old: Match) -> Rematch:
        """A new match after ``old``: the same game, options, clock, bots and bot time, every player moved
        one seat on (seat i's to seat i+1), each person with a new token. It starts at once: it
        takes no place among the open matches, and a person plays in it (no cap of bots alone)."""
        row = old.row
        players = row.players
        seats = [SeatRecord("open") for _ in range(players)]
        places: dict[int, tuple[int, str]] = {}
        for index, record in enumerate(row.seats):
            seat = (index + 1) % players
            if record.kind == "bot":
                seats[seat] = SeatRecord("bot", bot=record.bot)
            else:
                token, digest = new_token()
                seats[seat] = SeatRecord("person", name=record.name, token_hash=digest)
                places[index] = (seat, token)
        state = old.game.new(players, dict(row.options), secrets.randbits(62), row.start)  # a new secret seed
        now = self.time.now()
        new = MatchRow(
            id=self._new_id(), game=row.game, players=players, options=dict(state.options), seed=state.seed,
            seats=seats, bot_seconds=row.bot_seconds, start=row.start, created=now,
            progress=replace(progress_of(state, seats), updated=now),
            clock=None if row.clock is None else dict(row.clock), rematch_of=row.id,
        )
        try:
            await self.store.create(new)
        except StoreError as error:
            log.error("creating the rematch of %s: %s", old.id, error)
            raise store_unreachable("the rematch could not be stored") from None
        match = self._match(new)
        match.chat.new()
        self.matches[new.id] = match
        if await self._holds_new(match):
            match.start()
        collector.settled()
        return Rematch(new.id, places)

    def _new_id(self) -> str:
        while True:
            match_id = secrets.token_urlsafe(8)
            if match_id not in self.matches:
                return match_id


def unfinished(row: MatchRow) -> bool:
    return row.progress is not None and row.progress.status in ("open", "running")


# --- reading a creation's body ---------------------------------------------------------------------


def read_game(name: Any) -> Game[State]:
    if not isinstance(name, str):
        raise ProtocolError("bad_request", 'say which game: {"game": "' + next(iter(GAMES)) + '", …}')
    if name not in GAMES:
        listed = ", ".join(sorted(known for known, game in GAMES.items() if game.info.listed))
        raise ProtocolError("unknown_game", f"no game {name[:40]!r} (games: {listed})", 404)
    return get_game(name)


def read_players(players: Any) -> int | None:
    if players is None:
        return None
    if isinstance(players, bool) or not isinstance(players, int):
        raise ProtocolError("bad_request", f'"players" must be a whole number, not {json_kind(players)}')
    return players


def read_options(game: Game[State], options: Any, longest: int) -> dict[str, Any]:
    """A match's options: texts fit to store of at most ``longest`` characters (a board's text,
    the longest an option holds: ``413 too_large`` past it, as the library answers)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ProtocolError("bad_request", f'"options" must be an object, not {json_kind(options)}')
    boards = game.boards
    if boards is not None and isinstance(options.get(boards.option), str):
        read_board_text(options[boards.option], longest, f"options.{boards.option}")
    check_json_text(options, "options", longest)
    return options


def read_seed(game: Game[State], seats: list[SeatRecord], seed: Any) -> int | None:
    """A seed the client chose (``None``: the server keeps its secret one). Refused for a game with
    chance or hidden information unless bots play every seat: whoever knows the seed knows every
    roll to come, every hand and the deck's order."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ProtocolError("bad_request", '"seed" must be a whole number from 0 to 2**63 - 1')
    info = game.info
    if (info.chance or info.hidden_information) and any(seat.kind != "bot" for seat in seats):
        secret = " and ".join(word for word, has in (("chance", info.chance),
                                                    ("hidden information", info.hidden_information)) if has)
        raise ProtocolError(
            "seed_not_allowed",
            f"{info.title} has {secret}: whoever knows a match's seed knows what is to come, so the server "
            "chooses it and keeps it secret (a seed may be given only when bots play every seat)",
        )
    return seed


def read_join(join: Any, seats: list[SeatRecord]) -> int | None:
    if join is None:
        return None
    if isinstance(join, bool) or not isinstance(join, int):
        raise ProtocolError("bad_request", f'"join" must be a seat number, not {json_kind(join)}')
    if not 0 <= join < len(seats) or seats[join].kind != "open":
        raise ProtocolError("bad_seat", f'"join": seat {join} is not an open seat of this match')
    return join


# --- the list's query ------------------------------------------------------------------------------


def read_status(word: str) -> MatchStatus:
    status = word.strip()
    for known in LISTED:
        if status == known:
            return known
    raise ProtocolError("bad_request", f"status: {status[:40]!r} is not one of {', '.join(LISTED)}")


def read_ids(text: str, most: int) -> list[str]:
    """Match ids, comma-separated; ``bad_request`` for more than ``most`` or one that is no id."""
    ids = [word.strip() for word in text.split(",") if word.strip()]
    if len(ids) > most:
        raise ProtocolError("bad_request", f"ids: at most {most} match ids at once")
    for word in ids:
        if len(word) > 40 or not word.isascii() or not all(char.isalnum() or char in "-_" for char in word):
            raise ProtocolError("bad_request", f"ids: {word[:40]!r} is not a match id")
    return ids


def read_page_size(text: str, most: int) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= most:
        raise ProtocolError("bad_request", f"limit: {text[:40]!r} is not a whole number from 1 to {most}")
    return int(text)


def read_seats(game: Game[State], players: int, given: Any) -> list[SeatRecord]:
    """``"open"`` or ``"bot:KIND"`` (``"bot"``: the default bot) per seat; all open when absent."""
    if given is None:
        return [SeatRecord("open") for _ in range(players)]
    if not isinstance(given, list) or len(given) != players:
        raise ProtocolError("bad_seat", f'"seats" must list {players} entries, one per seat')
    kinds = bot_kinds(game.info.name)
    seats = []
    for index, text in enumerate(given):
        if text == "open":
            seats.append(SeatRecord("open"))
            continue
        if not isinstance(text, str) or not (text == "bot" or text.startswith("bot:")):
            shown = str(text)[:40]
            raise ProtocolError("bad_seat", f'seat {index} must be "open" or "bot:KIND", not {shown!r}')
        kind = text.removeprefix("bot:") if text != "bot" else (DEFAULT_BOT if DEFAULT_BOT in kinds else "")
        if kind not in kinds:
            raise ProtocolError("bad_seat", f"seat {index}: no bot {kind[:40]!r} for {game.info.title} "
                                            f"(bots: {', '.join(kinds) or 'none'})")
        seats.append(SeatRecord("bot", bot=kind))
    return seats


def read_bot_seconds(value: Any) -> float:
    low, high = BOT_SECONDS_RANGE
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not low <= value <= high:
        raise ProtocolError("bad_request", f'"bot_seconds" must be a number from {low:g} to {high:g}')
    return float(value)


def read_clock(value: Any) -> dict[str, float] | None:
    """A clock option as stored: ``None`` (no clock), ``{"base", "increment"}`` (seconds; the
    increment is added after each move) or ``{"per_move"}`` (seconds for every move afresh);
    ``bad_clock`` saying what is wrong."""
    if value is None:
        return None
    shape = '"clock" must be null, {"base": SECONDS, "increment": SECONDS} or {"per_move": SECONDS}'
    if not isinstance(value, dict):
        raise ProtocolError("bad_clock", f"{shape}, not {json_kind(value)}")
    unknown = sorted(set(value) - set(CLOCK_RANGES))
    if unknown:
        raise ProtocolError("bad_clock", f"{shape}: no clock option {str(unknown[0])[:40]!r}")
    if "per_move" in value:
        if len(value) > 1:
            raise ProtocolError("bad_clock", f"{shape}: a per-move clock has no base or increment")
        return {"per_move": clock_seconds(value, "per_move")}
    if "base" not in value:
        raise ProtocolError("bad_clock", f"{shape}: say the base time")
    return {"base": clock_seconds(value, "base"),
            "increment": clock_seconds(value, "increment") if "increment" in value else 0.0}


def clock_seconds(clock: dict[str, Any], name: str) -> float:
    low, high = CLOCK_RANGES[name]
    value = clock[name]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not low <= value <= high:
        raise ProtocolError("bad_clock", f'clock "{name}": a number of seconds from {low:g} to {high:g}')
    return float(value)
