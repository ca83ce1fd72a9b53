"""One match on the server: its state, its seats, and the one writer that changes it.

Every action — a person's, a bot's — goes through ``Match.submit`` into the writer's queue. The
writer checks it against the rules, works out the state it leads to, stores it (``Store.append``
with the expected version and the progress it makes), and only then shows it and publishes it;
chance decisions that follow are resolved and stored the same way. What a seat asks of the table
(resigning, offering or answering a draw or a rematch) is done by the same writer in turn with
the moves; a resignation and an agreed draw are the engine's leaving actions, stored like moves,
while offers live in memory only (``parlour.server.table``). Everything a client sees is
rendered here from ``view(seat)``.

A match loaded from the store replays its actions only when its state is first needed: its
stored ``Progress`` answers the lobby list, so a server with many waiting matches starts fast.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import inspect
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol

from parlour.engine import (
    ABANDON,
    CHANCE,
    GONE,
    OUT_OF_TIME,
    RESIGNED,
    Action,
    Game,
    IllegalActionError,
    JSONDict,
    NotationError,
    State,
    is_leaving,
    leaving_of,
    retirement,
)
from parlour.engine.turns import Turn, chance_owner, numbered
from parlour.server.bots import BotPool, bot_seed, random_choice
from parlour.server.chat import SPECTATOR_NAME, MatchChat, chat_json
from parlour.server.limits import Limits
from parlour.server.messages import OfferKind, ProtocolError, encode, store_unreachable
from parlour.server.pubsub import PubSub
from parlour.server.storage import (
    ClockMark,
    MatchRow,
    MatchStatus,
    Progress,
    SeatRecord,
    Store,
    StoreError,
    VersionConflict,
    progress_of,
)
from parlour.server.summary import bot_levels, seat_names_of, seats_json, summary_json
from parlour.server.table import MakeRematch, Offer, Rematch, Table

log = logging.getLogger("parlour.server")

MATCH_CHANNEL: Final = "match:"
"""The prefix of a match's channel (``Match.channel``), on Redis as in memory."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> tuple[str, str]:
    """A seat's secret token and the hash the store keeps of it."""
    token = secrets.token_urlsafe(24)
    return token, hash_token(token)


# --- time and clocks ---------------------------------------------------------------------------------


class Timer(Protocol):
    def cancel(self) -> None: ...


class ServerTime:
    """The server's time, read through this one object: wall-clock seconds, and a timer on the event
    loop. ``ManualTime`` takes its place for tests (``parlour serve --test-clock``)."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, when - self.now()), callback)


@dataclass
class _ManualTimer:
    when: float
    callback: Callable[[], object]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualTime(ServerTime):
    """Time that moves only when a test says (``advance``): no test waits for a clock by sleeping."""

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else start
        self._timers: list[_ManualTimer] = []

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer:
        timer = _ManualTimer(when, callback)
        self._timers.append(timer)
        return timer

    async def advance(self, seconds: float, timers: bool = True) -> None:
        """Moves time on, runs the timers then due (earliest first), and waits for what they
        started (a clock run out is stored and published before this returns). Without ``timers``
        they wait for a later advance, as on an event loop too busy to run them yet."""
        self._now += seconds
        if not timers:
            return
        live = [timer for timer in self._timers if not timer.cancelled]
        due = sorted((timer for timer in live if timer.when <= self._now), key=lambda timer: timer.when)
        self._timers = [timer for timer in live if timer.when > self._now]
        started = [timer.callback() for timer in due]
        await asyncio.gather(*(result for result in started if inspect.isawaitable(result)))


@dataclass(frozen=True, slots=True)
class ClockRule:
    """A match's clock as chosen at creation: ``base`` seconds with ``increment`` added after each
    move, or (``per_move``) ``base`` seconds for every move afresh."""

    base: float
    increment: float = 0.0
    per_move: bool = False

    @classmethod
    def of(cls, stored: JSONDict) -> ClockRule:
        if "per_move" in stored:
            return cls(float(stored["per_move"]), 0.0, True)
        return cls(float(stored["base"]), float(stored.get("increment", 0)))

    def to_json(self) -> dict[str, float]:
        return {"per_move": self.base} if self.per_move else {"base": self.base, "increment": self.increment}

    def after_move(self, left: float) -> float:
        """What a seat has left once its move is made, having ``left`` when it made it."""
        return self.base if self.per_move else left + self.increment

    def bot_share(self, left: float, most: float) -> float:
        """What a bot's move may cost its clock, having ``left`` when its turn began: a twentieth
        of that and half the increment, never above ``most``. It is charged no more, whatever the
        machine made it wait (the server chose its budget), so its clock never runs out."""
        return min(most, left / 20 + self.increment / 2)

    def bot_budget(self, left: float, most: float) -> float:
        """A bot's thinking time: its share, and at least a hundredth of a second to think in
        (searches stop at their budget: ``parlour.bots``)."""
        return max(0.01, self.bot_share(left, most))


@dataclass
class Clocks:
    """Every seat's clock in a timed match: seconds left per seat (as at ``since`` for the running
    one), whose clock runs (``None``: nobody's, as while chance decides or once the game is over),
    and the server time it started."""

    rule: ClockRule
    remaining: list[float]
    running: int | None = None
    since: float = 0.0
    timer: Timer | None = None

    @classmethod
    def rebuilt(cls, rule: ClockRule, players: int, marks: Iterable[ClockMark | None]) -> Clocks:
        """The clocks as the stored marks leave them: each seat's latest, else the full base."""
        remaining = [rule.base] * players
        for mark in marks:
            if mark is not None:
                remaining[mark[0]] = mark[2]
        return cls(rule, remaining)

    def left(self, now: float) -> float:
        """Seconds the running seat has left at ``now``."""
        assert self.running is not None
        return self.remaining[self.running] - (now - self.since)

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule.to_json(), "remaining": list(self.remaining), "running": self.running,
                "since": self.since}


EventSeat = int | str | None
"""Who took an action, as an event says it: a seat, ``"chance"``, or ``None`` for the table's
decision (an agreed draw)."""


@dataclass(frozen=True, slots=True)
class Event:
    """An accepted action: the version it made, who took it (``EventSeat``), and its text as
    each seat may read it: one text when every seat reads the same (perfect information), else
    one per seat with a spectator's last (from ``State.action_text_for``)."""

    version: int
    seat: EventSeat
    action: Action
    texts: str | tuple[str, ...]
    turn: int = 1
    """The turn it belongs to (``parlour.engine.turns``)."""

    def text_for(self, seat: int | None) -> str:
        if isinstance(self.texts, str):
            return self.texts
        return self.texts[-1 if seat is None else seat]


@dataclass
class _Submission:
    seat: int
    text: str
    version: int | None
    reply: asyncio.Future[ProtocolError | None] = field(repr=False)


@dataclass
class _Request:
    """Something a seat asks of the table (resign, a draw, a rematch), done by the writer in turn
    with the moves: an offer lapses when its maker's move comes first, and not after."""

    run: Callable[[], Awaitable[ProtocolError | None]]
    reply: asyncio.Future[ProtocolError | None] = field(repr=False)


_SETTLE: Final = None
"""Queued to make the writer resolve chance and wake bots (when a match starts or resumes)."""

_Work = _Submission | _Request | None


def _stopped() -> ProtocolError:
    """The answer to work the writer was stopped before finishing (the server is shutting down, or
    let the match go)."""
    return ProtocolError("unavailable", "the server stopped this match before answering: look again", 503)


def moved() -> ProtocolError:
    """The answer to what a process asked of a match another process writes now (a cluster's)."""
    return ProtocolError("unavailable", "this match moved to another server process: nothing was done; "
                         "reconnect and try again", 503)


def leaving_seat(action: Action) -> int | None:
    """Who takes a leaving action, as its event says: the retiring seat, ``None`` for the table."""
    leaving = leaving_of(action)
    return None if leaving is None else leaving.seat


def event_json(event: Event, text: str) -> dict[str, Any]:
    """An event with the text its receiver may read; a leaving action also says what it is
    (``leaving``), so that no client reads it from the words."""
    shown: dict[str, Any] = {"version": event.version, "seat": event.seat, "action": text, "turn": event.turn}
    leaving = leaving_of(event.action)
    if leaving is not None:
        shown["leaving"] = {"kind": leaving.kind, "seat": leaving.seat, "why": leaving.why}
    return shown


class Match:
    """A match's live state, made from its stored row; its actions are replayed the first time
    the state is needed. ``read_only``: a finished match read back from the store to be shown."""

    def __init__(
        self,
        row: MatchRow,
        game: Game[State],
        store: Store,
        pubsub: PubSub,
        bots: BotPool,
        on_status: Callable[[Match], None] | None = None,
        read_only: bool = False,
        make_rematch: MakeRematch | None = None,
        server_time: ServerTime | None = None,
        limits: Limits | None = None,
        working: asyncio.Semaphore | None = None,
        on_moved: Callable[[Match], None] | None = None,
    ) -> None:
        """``working``: the server's replays at once (``replays_at_once``), shared by every match
        and replay page, so that worker threads never crowd out the event loop. ``on_moved``: the
        store says another writer stored this match's next version (in a cluster, its lease was
        lost): this process must let it go."""
        self.row = row
        self.on_moved = on_moved
        self.working = working or asyncio.Semaphore(1)
        self.id = row.id
        self.game = game
        self.info = game.info
        self.store = store
        self.pubsub = pubsub
        self.bots = bots
        self.on_status = on_status
        self.read_only = read_only
        self.make_rematch = make_rematch
        self.channel = MATCH_CHANNEL + row.id
        self._state: State | None = None
        self._events: list[Event] = []
        self._turn = Turn()
        """The turn of the latest event."""
        if row.progress is None:  # a row that never had its progress stored: work it out now
            self._replay()
            row.progress = progress_of(self.state, row.seats)
        self.progress: Progress = row.progress
        self.present = [0] * row.players
        self.watching = 0
        """Spectators' connections (said hello without a seat)."""
        self.seating = asyncio.Lock()
        self._queue: asyncio.Queue[_Work] | None = None
        """The writer's work; made with the writer (most loaded matches wait for a person)."""
        self.writer: asyncio.Task[None] | None = None
        self.stopped = False
        """Stopped for good (``stop``): in a cluster, let go to another process; nothing more is done."""
        self.thinking: dict[int, asyncio.Task[None]] = {}
        """Bots at work, by seat: one task per seat, which thinks again when the table changed
        under it (``_bot_turn``)."""
        self._rendered: dict[int | None, str] = {}
        """The latest event's ``update`` by seat; emptied when an event is added (it holds no seats)."""
        self._shared_view: tuple[int, JSONDict] | None = None
        """In a perfect-information game, the view at a version: every seat's but for its ``seat``."""
        self._watch_out = row.players > 2
        """Only with 3–4 players can a seat be out while the game goes on."""
        self._out: list[str | None] | None = None
        """``seats_out()`` after the latest action, once an action has needed it."""
        self.time = server_time or ServerTime()
        self.limits = limits or Limits()
        self.chat = MatchChat(row.id, store, int(self.limits.chat_per_match))
        """What is said at the table (``parlour.server.chat``)."""
        self.table = Table(self, None if row.rematch is None else Rematch(row.rematch, {}))
        """Offers and the rematch: what the seats ask of the table around the game."""
        now = self.time.now()
        self.away_since: list[float | None] = [now if seat.kind == "person" else None for seat in row.seats]
        """Per person's seat, the server time since which no connection holds it (``None`` while one
        does; a bot is never away). Loaded or made: from now (the time the server was down is nobody's)."""
        self.touched = now
        """When a person last came or went (acting needs a connection); from start-up after a restart,
        as the time the server was down is nobody's."""
        self.clocks: Clocks | None = None
        """``None`` in an untimed match: nothing on the hot path then looks at time."""
        if row.clock is not None:
            self.clocks = Clocks.rebuilt(ClockRule.of(row.clock), row.players, row.times)
            row.times = []
            if self.status == "running" and not read_only:
                # Loaded (or made): the seat to move starts again from its stored time, now.
                self._run_clock(now, True)

    # --- the state, replayed on first use ------------------------------------------------------

    @functools.cached_property
    def seat_names(self) -> tuple[str, ...]:
        return seat_names_of(self.row)

    @property
    def offers(self) -> dict[str, Offer]:
        """Pending offers by what they offer (in memory only: a restart forgets them)."""
        return self.table.offers

    @property
    def rematch(self) -> Rematch | None:
        return self.table.rematch

    @property
    def state(self) -> State:
        if self._state is None:
            self._replay()
        assert self._state is not None
        return self._state

    @property
    def events(self) -> list[Event]:
        if self._state is None:
            self._replay()
        return self._events

    def _replay(self) -> None:
        """Rebuilds the state from the stored actions, applied as they were checked when played
        (``play_stored``: listing the legal actions again made a long Conflict match's replay
        eight times slower or more). The stored actions are then dropped (the state's history has them)."""
        self._take(*self._replayed(self.row.actions))

    @property
    def unreplayed(self) -> int:
        """Stored actions still to be replayed before the state is known (0 once it is)."""
        return 0 if self._state is not None else len(self.row.actions)

    async def loaded(self) -> None:
        """Replays the match in a worker thread if it has not been yet: a long finished match asked
        for a replay or its record must not hold up the event loop. Taken only if nothing replayed
        it meanwhile (an action may have followed: the newer state stays). Waits its turn among the
        server's replays (``working``)."""
        if self._state is None:
            async with self.working:
                if self._state is None:
                    replayed = await asyncio.to_thread(self._replayed, self.row.actions)
                    if self._state is None:
                        self._take(*replayed)

    def _take(self, state: State, events: list[Event], turn: Turn) -> None:
        self.row.actions = []
        self._state, self._events, self._turn = state, events, turn

    def _replayed(self, actions: list[Action]) -> tuple[State, list[Event], Turn]:
        """The state ``actions`` lead to, their events and the latest turn (touches nothing of the
        match's: it may run in a worker thread)."""
        row = self.row
        state = self.game.new(row.players, row.options, row.seed, row.start)
        events: list[Event] = []
        deciders: list[int] = []
        """Who was to decide before each action (``to_move()``), for the turns."""
        for action in actions:
            mover = state.to_move()
            texts = self.texts_for(state, action)
            seat: EventSeat = "chance" if mover == CHANCE else mover
            if is_leaving(action):
                seat = leaving_seat(action)
            state.play_stored(action)
            events.append(Event(len(events) + 1, seat, action, texts))
            deciders.append(mover)
        turns, turn = numbered(actions, deciders, state)
        return state, [replace(event, turn=number) for event, number in zip(events, turns, strict=True)], turn

    # --- what the match is ---------------------------------------------------------------------

    @property
    def version(self) -> int:
        return self.progress.version

    @property
    def status(self) -> MatchStatus:
        return self.progress.status

    def _set_progress(self, progress: Progress) -> None:
        changed = progress.status != self.progress.status
        self.progress = self.row.progress = progress
        if changed and self.on_status is not None:
            self.on_status(self)

    def seats_json(self) -> list[dict[str, Any]]:
        return seats_json(self.row.seats, self.seat_names, self.present, self.away_since,
                          bot_levels(self.row))

    def summary(self) -> dict[str, Any]:
        return summary_json(self.row, self.progress, self.seat_names, self.present, self.watching)

    # --- what a client sees (only ever through view(seat)) ------------------------------------

    def legal_json(self, seat: int | None) -> list[dict[str, Any]]:
        """The seat's legal actions, each as its text and its parts (empty unless it is to move)."""
        if seat is None or self.status != "running" or self.read_only:
            return []
        state = self.state
        if state.to_move() != seat:
            return []
        return state.legal_json()

    def texts_for(self, state: State, action: Action) -> str | tuple[str, ...]:
        """The pending ``action`` as each seat and a spectator may read it (before it is applied):
        one text for all when nothing is hidden."""
        if not self.info.hidden_information:
            return state.action_to_text(action)
        return tuple(state.action_text_for(action, seat) for seat in [*range(state.players), None])

    def event_json(self, event: Event, seat: int | None) -> dict[str, Any]:
        """An event as ``seat`` may see it (a card drawn into another hand stays hidden)."""
        return event_json(event, event.text_for(seat))

    def state_message(self, seat: int | None, resync: bool = False) -> dict[str, Any]:
        """Everything ``seat`` may know, the whole move list included: the one message with history."""
        message: dict[str, Any] = {
            "type": "state",
            "match": self.id,
            "version": self.version,
            "seat": seat,
            "status": self.status,
            "seats": self.seats_json(),
            "view": self.view(seat),
            "legal": self.legal_json(seat),
            "events": [self.event_json(event, seat) for event in self.events],
            "offers": [offer.to_json() for offer in self.offers.values()],
            "declined": sorted(self.table.declined),
            "rematch": None if self.rematch is None else self.rematch.for_seat(seat),
            "clock": self.clock_json(now=True),
            "now": self.time.now(),
            "gone_seconds": self.gone_seconds,
            "chat": self.chat.shown(seat, self.status == "over"),
        }
        if resync:
            message["resync"] = True
        return message

    def view(self, seat: int | None) -> JSONDict:
        """What ``seat`` sees now. With nothing hidden every seat sees the same, so the view is made
        once a version (a busy server makes one at every update, for every seat)."""
        if self.info.hidden_information:
            return self.state.view(seat)
        if self._shared_view is None or self._shared_view[0] != self.version:
            self._shared_view = (self.version, self.state.view(None))
        return {**self._shared_view[1], "seat": seat}

    def update_text(self, seat: int | None) -> str:
        """The ``update`` for the latest event (no history, no seats), encoded once per seat and version."""
        text = self._rendered.get(seat)
        if text is None:
            text = encode({
                "type": "update",
                "match": self.id,
                "version": self.version,
                "status": self.status,
                "event": self.event_json(self.events[-1], seat),
                "view": self.view(seat),
                "legal": self.legal_json(seat),
                "clock": None if self.clocks is None else self.clocks.to_json(),
            })
            self._rendered[seat] = text
        return text

    def clock_json(self, now: bool = False) -> dict[str, Any] | None:
        """The clocks as clients see them (``None``: no clock); with ``now``, the server's time, so
        that a client ticks the running clock from a message sent long after it started."""
        if self.clocks is None:
            return None
        shown = self.clocks.to_json()
        if now:
            shown["now"] = self.time.now()
        return shown

    def seats_message(self) -> dict[str, Any]:
        return {"type": "seats", "match": self.id, "version": self.version, "status": self.status,
                "seats": self.seats_json(), "now": self.time.now()}

    # --- seats and presence ----------------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for index, seat in enumerate(self.row.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return index
        return None

    def closed_error(self, joining: bool) -> ProtocolError | None:
        """Why nobody may join (or act in) this match any more; ``None``: they may."""
        if self.status == "expired":
            return ProtocolError("expired", "this match expired: its seats were not filled in time", 410)
        if self.status == "over" or self.read_only:
            why = "the game is over: no seat can be joined" if joining else "the game is over"
            return ProtocolError("game_over", why, 409)
        return None

    async def claim(self, seat: int | None, name: str | None) -> tuple[int, str]:
        """Gives a seat to a person: (seat, secret token). ``ProtocolError`` if it cannot."""
        async with self.seating:  # one claim or expiry at a time: each stores the seats' status
            return await self._claim(seat, name)

    async def _claim(self, seat: int | None, name: str | None) -> tuple[int, str]:
        closed = self.closed_error(joining=True)
        if closed is not None:
            raise closed
        if seat is None:
            free = [index for index, record in enumerate(self.row.seats) if record.kind == "open"]
            if not free:
                raise ProtocolError("no_free_seat", "every seat of this match is taken", 409)
            seat = free[0]
        if not 0 <= seat < self.row.players:
            raise ProtocolError("bad_seat", f"there is no seat {seat} (seats 0 to {self.row.players - 1})")
        record = self.row.seats[seat]
        label = f"seat {seat} ({self.seat_names[seat]})"
        if record.kind == "bot":
            raise ProtocolError("bad_seat", f"{label} is played by bot:{record.bot}")
        if record.kind != "open":
            raise ProtocolError("seat_taken", f"{label} is already taken", 409)
        token, digest = new_token()
        seats = [*self.row.seats]
        seats[seat] = SeatRecord("person", name=name, token_hash=digest)
        still_open = any(other.kind == "open" for other in seats)
        # Not ``updated``: that says when the game last moved (or was created), for the lobby's "time since".
        progress = replace(self.progress, status="open" if still_open else "running")
        try:
            claimed = await self.store.claim_seat(self.id, seat, digest, name, progress)
        except VersionConflict as error:
            raise self._fenced(error) from None
        except StoreError as error:
            log.error("match %s: claiming seat %d: %s", self.id, seat, error)
            raise store_unreachable("the seat could not be stored") from None
        if not claimed or record.kind != "open":
            raise ProtocolError("seat_taken", f"{label} is already taken", 409)
        record.kind, record.token_hash, record.name = "person", digest, name
        self.away_since[seat] = self.touched = self.time.now()  # claimed, not yet connected
        self._set_progress(replace(self.progress, status=progress.status))
        if self.status == "running" and self.clocks is not None:
            self._run_clock(self.time.now(), True)  # the last seat taken: the first mover's clock runs
        if self.status == "running":
            await self.pubsub.publish(self.channel, {"kind": "started"})
            self._wake_writer()
        else:
            await self.pubsub.publish(self.channel, {"kind": "seats"})
        return seat, token

    async def expire(self) -> None:
        """Nobody filled the match in time: it is stored as expired, and joining it answers so."""
        async with self.seating:
            if self.status != "open":  # the last seat was taken meanwhile
                return
            progress = replace(self.progress, status="expired", updated=self.time.now())
            try:
                await self.store.set_progress(self.id, progress)
            except VersionConflict as error:  # another process writes it now, and expires it
                self._fenced(error)
                return
            self._set_progress(progress)
        await self.pubsub.publish(self.channel, {"kind": "seats"})

    async def arrive(self, seat: int) -> None:
        self.present[seat] += 1
        self.touched = self.time.now()
        if self.present[seat] == 1:
            self.away_since[seat] = None
            await self._seats_changed()

    async def leave(self, seat: int) -> None:
        self.present[seat] -= 1
        self.touched = self.time.now()
        if self.present[seat] == 0:
            self.away_since[seat] = self.touched
            await self._seats_changed()
            if not any(self.present):
                await self.table.everyone_left()

    async def _seats_changed(self) -> None:
        await self.pubsub.publish(self.channel, {"kind": "seats"})

    # --- the writer ------------------------------------------------------------------------------

    def waits_for_server(self) -> bool:
        """Whether the match's next move is the server's to make (chance or a bot), from its progress."""
        if self.status != "running":
            return False
        mover = self.progress.to_move
        return mover == "chance" or (isinstance(mover, int) and self.row.seats[mover].kind == "bot")

    def start(self) -> None:
        """Resolves pending chance and wakes a bot whose turn it is (a match resumed from the store)."""
        if self.waits_for_server():
            self._wake_writer()

    def _wake_writer(self) -> None:
        """Starts the writer if need be, and has it settle (resolve chance, wake a bot)."""
        if not self.stopped:
            self._writer_queue().put_nowait(_SETTLE)

    def _writer_queue(self) -> asyncio.Queue[_Work]:
        """The writer's queue, the writer started if need be."""
        if self._queue is None:
            self._queue = asyncio.Queue()
        if self.writer is None:
            self.writer = asyncio.create_task(self._write(self._queue), name=f"match {self.id}")
        return self._queue

    async def stop(self) -> None:
        """Stops the writer, the bots and the clock for good; whatever was still queued, or comes
        later, is answered ``unavailable`` (none of it is done), so that no caller waits for ever."""
        self.stopped = True
        if self.clocks is not None and self.clocks.timer is not None:
            self.clocks.timer.cancel()
        for task in [*self.thinking.values(), self.writer]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.writer = None
        self.thinking.clear()
        while self._queue is not None and not self._queue.empty():
            work = self._queue.get_nowait()
            if work is not None and not work.reply.done():
                work.reply.set_result(_stopped())

    async def submit(self, seat: int, text: str, version: int | None) -> ProtocolError | None:
        """Queues an action for the writer; ``None`` once it is stored and published, else why not."""
        closed = self.closed_error(joining=False)
        if closed is not None:
            return closed
        if self.stopped:
            return _stopped()
        reply: asyncio.Future[ProtocolError | None] = asyncio.get_running_loop().create_future()
        self._writer_queue().put_nowait(_Submission(seat, text, version, reply))
        return await reply

    async def request(self, run: Callable[[], Awaitable[ProtocolError | None]]) -> ProtocolError | None:
        """Has the writer do ``run`` in turn with the actions (``run`` checks whether it may)."""
        if self.stopped:
            return _stopped()
        reply: asyncio.Future[ProtocolError | None] = asyncio.get_running_loop().create_future()
        self._writer_queue().put_nowait(_Request(run, reply))
        return await reply

    async def _write(self, queue: asyncio.Queue[_Work]) -> None:
        while True:
            submission = await queue.get()
            error = None
            try:
                if isinstance(submission, _Submission):
                    error = await self._act(submission)
                elif submission is not None:
                    error = await submission.run()
            except asyncio.CancelledError:  # stopped (``stop``): the caller is answered all the same
                if submission is not None and not submission.reply.done():
                    submission.reply.set_result(_stopped())
                raise
            except Exception:
                log.exception("match %s: the writer failed on %r", self.id, submission)
                error = ProtocolError("internal", "the server failed to apply that action (logged)", 500)
            if submission is not None and not submission.reply.done():
                submission.reply.set_result(error)
            if error is None:
                try:
                    await self._settle()
                except Exception:  # a fault in a game's chance code must not stop the writer
                    log.exception("match %s: resolving chance or waking a bot failed", self.id)
            if self.status == "over" and queue.empty():  # what is queued still gets its answer
                self.writer = None
                return

    async def _act(self, submission: _Submission) -> ProtocolError | None:
        seat = submission.seat
        closed = self.closed_error(joining=False)  # over, or expired while the action was queued
        if closed is not None:
            return closed
        if self.status == "open":
            return self._not_started()
        state = self.state
        mover = state.to_move()
        if mover != seat:
            whose = "the chance player's" if mover == CHANCE else f"{self.seat_names[mover]}'s"
            return ProtocolError("not_your_turn", f"it is {whose} turn, not {self.seat_names[seat]}'s")
        if submission.version is not None and submission.version != self.version:
            return ProtocolError(
                "stale_version",
                f"the match is at version {self.version}, not {submission.version}: look again and retry",
            )
        if self.clocks is not None and self.clocks.left(self.time.now()) <= 0 and not self._is_bot(seat):
            return await self._late(seat)
        try:
            action = state.parse_action(submission.text)
        except NotationError as error:
            return ProtocolError("bad_notation", str(error))
        except IllegalActionError as error:
            return ProtocolError("illegal_action", str(error))
        if not state.is_legal(action):  # the gate: a game's parser is not trusted to check the rules
            return ProtocolError("illegal_action", str(state.refusal(action, submission.text)))
        return await self.commit(seat, action)

    def _fenced(self, error: VersionConflict) -> ProtocolError:
        """The store refused a write: another process writes this match now (in a cluster, this
        one's lease was lost). It is let go (``on_moved``); the asker is told to reconnect."""
        log.warning("match %s: %s; letting it go", self.id, error)
        if self.on_moved is not None:
            self.on_moved(self)
        return moved()

    def _not_started(self) -> ProtocolError:
        waiting = sum(record.kind == "open" for record in self.row.seats)
        return ProtocolError("not_started", f"the match starts when every seat is taken ({waiting} open)")

    async def commit(self, seat: EventSeat, action: Action) -> ProtocolError | None:
        """Stores, then shows and publishes one action. The state it leads to is worked out on a
        copy and stored with its progress first: a failed store leaves the match as it was, and
        nothing unstored is ever seen."""
        before = self.state
        texts = self.texts_for(before, action)
        after = before.copy()
        after.apply(action)
        progress = replace(progress_of(after, self.row.seats), updated=self.time.now())  # the server's time
        marks: list[ClockMark | None] | None = None
        if self.clocks is not None:
            now = self.time.now()
            marks = [self._clock_mark(seat, action, now)]
        try:
            await self.store.append(self.id, self.version, [action], progress, marks)
        except VersionConflict as error:
            return self._fenced(error)
        except StoreError as error:
            log.error("match %s: storing version %d: %s", self.id, self.version + 1, error)
            return store_unreachable("the action could not be stored; the match is unchanged")
        self._state = after
        decider = before.to_move()
        owner = chance_owner(after) if decider == CHANCE and not is_leaving(action) else None
        self._turn = self._turn.after(decider, action, owner)
        self._events.append(Event(progress.version, seat, action, texts, self._turn.shown))
        self._rendered.clear()
        self._set_progress(progress)
        if marks is not None:
            self._clock_moved(marks[0], now)
        await self.pubsub.publish(self.channel, {"kind": "event", "version": self.version})
        if self._watch_out or self.offers or self.table.declined:
            await self._around(seat, before, after)
        return None

    async def _settle(self) -> None:
        """Resolves chance decisions (from the match seed) and wakes the bot whose turn it is."""
        if self.status != "running":
            return
        while self.state.to_move() == CHANCE:
            if await self.commit("chance", self.state.sample_chance()) is not None:
                return  # storage failed: logged; the next submission or restart tries again
        self._wake_bot()

    # --- clocks ----------------------------------------------------------------------------------

    def _clock_mark(self, seat: EventSeat, action: Action, now: float) -> ClockMark | None:
        """What ``seat``'s ``action`` at ``now`` does to its clock: charged only when its clock runs
        (chance is on nobody's clock; a seat leaving out of turn stopped no clock); a move earns
        the increment (a per-move clock starts afresh), leaving does not."""
        clocks = self.clocks
        assert clocks is not None
        if clocks.running is None or seat != clocks.running:
            return None
        spent = max(0.0, now - clocks.since)
        if self._is_bot(seat):
            spent = min(spent, clocks.rule.bot_share(clocks.remaining[seat], self.row.bot_seconds))
        left = max(0.0, clocks.remaining[seat] - spent)
        if not is_leaving(action):
            left = clocks.rule.after_move(left)
        return seat, round(spent, 3), round(left, 3)

    def _clock_moved(self, mark: ClockMark | None, now: float) -> None:
        """After a stored action: the charged seat keeps what its mark says (the stored figure, so a
        restart finds the same), and the clock of whoever is to move now runs."""
        assert self.clocks is not None
        if mark is not None:
            self.clocks.remaining[mark[0]] = mark[2]
        self._run_clock(now, mark is not None)

    def _run_clock(self, now: float, restart: bool) -> None:
        """Runs the clock of the seat to move from ``now`` (nobody's while chance decides or once the
        game is over), with one timer for when it runs out; a clock already running goes on unless
        ``restart`` (its seat moved again)."""
        clocks = self.clocks
        assert clocks is not None
        mover = self.progress.to_move if self.status == "running" else None
        running = mover if isinstance(mover, int) and not isinstance(mover, bool) else None
        if running == clocks.running and not restart:
            return
        if clocks.timer is not None:
            clocks.timer.cancel()
            clocks.timer = None
        clocks.running, clocks.since = running, now
        if running is not None and not self._is_bot(running):  # a bot's clock cannot run out
            clocks.timer = self.time.call_at(now + clocks.remaining[running], self._flag)

    def _flag(self) -> asyncio.Future[ProtocolError | None]:
        """The running clock's timer: the writer checks, in turn with the actions, whether it ran out."""
        reply: asyncio.Future[ProtocolError | None] = asyncio.get_running_loop().create_future()
        self._writer_queue().put_nowait(_Request(self._on_time, reply))
        return reply

    async def _on_time(self) -> ProtocolError | None:
        clocks = self.clocks
        if clocks is None or clocks.timer is None or self.status != "running" or clocks.running is None:
            return None  # the game ended, or the timer was cancelled after it fired
        now = self.time.now()
        left = clocks.left(now)
        if left > 0:  # a timer a little early, or the seat moved meanwhile: wait out the rest
            clocks.timer.cancel()
            clocks.timer = self.time.call_at(now + left, self._flag)
            return None
        return await self._retire_on_time(clocks.running)

    async def _retire_on_time(self, seat: int) -> ProtocolError | None:
        action = retirement(seat, OUT_OF_TIME)
        why = self.state.leaving_error(action)
        if why is not None:  # the rules refuse it (cannot happen to a seat in play): logged, no retry
            log.error("match %s: seat %d ran out of time, but cannot retire: %s", self.id, seat, why)
            return None
        return await self.commit(seat, action)

    async def _late(self, seat: int) -> ProtocolError:
        """A move that came after its clock ran out (before its timer's turn): the seat retires."""
        error = await self._retire_on_time(seat)
        if error is not None:
            return error
        await self._settle()  # the writer settles only after a success: the others play on now
        return ProtocolError("out_of_time", "your clock ran out before that move came: "
                                            f"{self.seat_names[seat]} is retired", 409)

    # --- gone too long, and abandoned -------------------------------------------------------------

    @property
    def gone_seconds(self) -> float:
        """How long a seat may be without a connection before the others may claim it."""
        minutes = self.limits.gone_minutes_timed if self.clocks is not None else self.limits.gone_minutes
        return minutes * 60

    async def claim_gone(self, seat: int, target: int | None) -> ProtocolError | None:
        """``seat`` claims that ``target`` (``None``: any other seat) has been gone too long: each
        such seat retires ("gone": with two players the claimer wins; with 3–4 the seat is out)."""
        return await self.request(functools.partial(self._claim_gone, seat, target))

    async def _claim_gone(self, seat: int, target: int | None) -> ProtocolError | None:
        error = self.in_play_error(seat)
        if error is not None:
            return error
        in_play = self.state.seats_in_play()
        if target is not None and (not 0 <= target < self.row.players or target == seat):
            return ProtocolError("bad_seat", f"seat {target} is not another seat of this match")
        if target is not None and target not in in_play:
            return ProtocolError("not_in_play", f"{self.seat_names[target]} is out of the game already", 409)
        now = self.time.now()
        asked = [target] if target is not None else [other for other in in_play if other != seat]
        gone = [other for other in asked if self._gone_error(other, now) is None]
        if not gone:
            why = "; ".join(str(self._gone_error(other, now)) for other in asked)
            return ProtocolError("not_gone", why, 409)
        for other in gone:
            if self.status != "running":  # the first retirement ended the game
                break
            error = await self.commit(other, retirement(other, GONE))
            if error is not None:
                return error
        return None

    def _gone_error(self, seat: int, now: float) -> str | None:
        """Why ``seat`` cannot be claimed as gone now; ``None``: it can."""
        name, away = self.seat_names[seat], self.away_since[seat]
        if self.row.seats[seat].kind == "bot":
            return f"{name} is played by a bot, which never goes"
        if away is None:
            return f"{name} is connected"
        if now - away < self.gone_seconds:
            return (f"{name} has been away {now - away:.0f} s; it may be claimed after "
                    f"{self.gone_seconds / 60:g} min")
        return None

    def untouched_for(self, now: float) -> float:
        """Seconds since a person last acted, came or went; 0 while one is connected, and for a match
        without persons (bots alone end by their own rules) or not running."""
        if self.status != "running" or any(self.present):
            return 0.0
        if not any(record.kind == "person" for record in self.row.seats):
            return 0.0
        return now - self.touched

    async def abandon_if_due(self, seconds: float) -> ProtocolError | None:
        """Ends the match as abandoned (nobody wins) if no person has touched it for ``seconds``."""
        if self.untouched_for(self.time.now()) < seconds:
            return None
        return await self.request(functools.partial(self._abandon, seconds))

    async def _abandon(self, seconds: float) -> ProtocolError | None:
        if self.untouched_for(self.time.now()) < seconds:  # someone came while this was queued
            return None
        why = self.state.leaving_error(ABANDON)
        if why is not None:
            log.error("match %s: cannot be abandoned: %s", self.id, why)
            return None
        log.info("match %s: abandoned, untouched for %g hours", self.id, seconds / 3600)
        return await self.commit(None, ABANDON)

    # --- around the game: leaving, offers, rematch -------------------------------------------

    def in_play_error(self, seat: int) -> ProtocolError | None:
        """Why ``seat`` cannot act at the table now (resign, a draw): over, not started, or out."""
        closed = self.closed_error(joining=False)
        if closed is not None:
            return closed
        if self.status == "open":
            return self._not_started()
        out = self.state.seats_out()[seat]
        if out is not None:
            return ProtocolError("not_in_play", f"you are out of this game ({self.seat_names[seat]} is out: "
                                                f"{out}): the others play on", 409)
        return None

    async def resign(self, seat: int) -> ProtocolError | None:
        """``seat`` resigns, whoever is to move: stored like an action (2 players: the other wins;
        3–4: the seat is out and the game goes on)."""
        return await self.request(functools.partial(self._resign, seat))

    async def _resign(self, seat: int) -> ProtocolError | None:
        error = self.in_play_error(seat)
        if error is not None:
            return error
        action = retirement(seat, RESIGNED)
        why = self.state.leaving_error(action)  # the rules of leaving, not the legality of a move
        if why is not None:
            return ProtocolError("not_in_play", why, 409)
        return await self.commit(seat, action)

    async def _around(self, seat: EventSeat, before: State, after: State) -> None:
        """After an action: seats it put out are told, and a draw offer lapses when its maker
        moved, when the table changed (a seat out) or when the game ended."""
        newly_out: list[int] = []
        if self._watch_out:
            previous = self._out if self._out is not None else before.seats_out()
            self._out = after.seats_out()
            newly_out = [out for out, words in enumerate(self._out)
                         if words is not None and previous[out] is None]
        for out in newly_out:
            words = self._out[out] if self._out is not None else None
            await self.pubsub.publish(self.channel, {"kind": "out", "seat": out, "version": self.version,
                                                     "words": words})
        await self.table.moved(seat, newly_out)

    def out_message(self, message: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """A seat is out (retired, or knocked out by play), told in words, to itself as "You"."""
        out = message["seat"]
        name = self.seat_names[out]
        words = f"You ({name}) are out" if out == seat else f"{name} is out"
        return {"type": "out", "match": self.id, "version": message["version"], "seat": out,
                "words": f"{words}: {message['words']}"}

    async def offer(
        self, seat: int, step: str, what: OfferKind, charge: Callable[[], None] | None = None
    ) -> ProtocolError | None:
        """An offer, acceptance or refusal of a draw or a rematch, in turn with the actions.
        ``charge`` is called when a new rematch offer is taken (it counts as creating a match), and
        may refuse it by raising ``ProtocolError`` (``rate_limited``); a refused offer costs nothing."""
        table = self.table
        if what == "draw":
            run = {"offer": table.offer_draw, "accept": table.accept_draw}.get(step)
        elif step == "offer":
            return await self.request(functools.partial(table.offer_rematch, seat, charge))
        else:
            run = {"accept": table.accept_rematch}.get(step)
        if run is None:
            return await self.request(functools.partial(table.decline, seat, what))
        return await self.request(functools.partial(run, seat))

    def offers_message(self, news: dict[str, Any]) -> dict[str, Any]:
        return {"type": "offers", "match": self.id, "version": self.version,
                "offers": [offer.to_json() for offer in self.offers.values()],
                "declined": sorted(self.table.declined), "news": news}

    def rematch_message(self, seat: int | None) -> dict[str, Any]:
        assert self.rematch is not None
        return {"type": "rematch", "match": self.id, "rematch": self.rematch.for_seat(seat)}

    # --- chat ------------------------------------------------------------------------------------

    async def say(self, seat: int | None, text: str) -> None:
        """``seat`` (``None``: a spectator) says ``text`` at the table: stored, then heard by every
        connection that may see its room (``parlour.server.chat``)."""
        name = SPECTATOR_NAME if seat is None else self.row.seats[seat].name or self.seat_names[seat]
        line = await self.chat.say(seat, name, text, self.time.now())
        await self.pubsub.publish(self.channel, {"kind": "chat", "chat": chat_json(self.id, line)})

    # --- bots ------------------------------------------------------------------------------------

    def _wake_bot(self) -> None:
        """Starts the bot whose turn it is, unless that seat's bot is at work already: it sees
        for itself that it is to move again (``_bot_turn``)."""
        mover = self.state.to_move()
        if mover < 0 or self.row.seats[mover].kind != "bot":
            return
        working = self.thinking.get(mover)
        if working is not None and not working.done():
            return
        task = asyncio.create_task(self._bot_turn(mover), name=f"bot {self.id}/{mover}")
        self.thinking[mover] = task
        task.add_done_callback(lambda done: self._bot_done(mover, done))

    def _bot_done(self, seat: int, task: asyncio.Task[None]) -> None:
        if self.thinking.get(seat) is task:
            del self.thinking[seat]

    def _is_bot(self, seat: EventSeat) -> bool:
        return isinstance(seat, int) and self.row.seats[seat].kind == "bot"

    def _bots_turn(self, seat: int) -> bool:
        return self.status == "running" and not self.read_only and self.state.to_move() == seat

    async def _bot_turn(self, seat: int) -> None:
        """The bot in ``seat`` decides from its view in a worker, then acts like anyone else; as
        long as it is to move: when the table changed while it thought (a seat not to move resigned),
        its answer is stale and it thinks again, and after its move it may be to move once more."""
        while self._bots_turn(seat):
            error = await self._bot_move(seat)
            if error is not None and error.code != "stale_version":
                return

    async def _bot_move(self, seat: int) -> ProtocolError | None:
        record = self.row.seats[seat]
        assert record.bot is not None
        who = f"match {self.id}: bot:{record.bot} in seat {seat}"
        version = self.version
        seed = bot_seed(self.row.seed, seat, version)  # derived from the secret: never sent anywhere
        view = self.view(seat)
        seconds = self.row.bot_seconds
        if self.clocks is not None and self.clocks.running == seat:
            seconds = self.clocks.rule.bot_budget(self.clocks.remaining[seat], seconds)
        try:
            text = await self.bots.choose(self.info.name, record.bot, seed, seat, view, seconds)
        except Exception:
            log.exception("%s failed; it plays a random move instead", who)
            text = random_choice(self.info.name, seed, view)
        error = await self.submit(seat, text, version)
        if error is None or error.code in ("game_over", "stale_version", "not_your_turn"):
            return error
        log.error("%s chose %r, refused: %s", who, text, error.message)
        return await self.submit(seat, random_choice(self.info.name, seed, view), version)
