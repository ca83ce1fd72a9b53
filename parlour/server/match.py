"""One match on the server: its state, its seats, and the one writer that changes it.

Every action — a person's, a bot's — goes through ``Match.submit`` into the writer's queue. The
writer checks it against the rules, stores it (``Store.append`` with the expected version),
applies it, and only then publishes it; chance decisions that follow are resolved and stored the
same way. Everything a client sees is rendered here from ``view(seat)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any, Final

from parlour.engine import (
    CHANCE,
    Action,
    Game,
    IllegalActionError,
    NotationError,
    State,
)
from parlour.server.bots import BotPool, bot_seed, random_choice
from parlour.server.messages import ProtocolError, encode
from parlour.server.pubsub import PubSub
from parlour.server.storage import MatchRow, Store, StoreError

log = logging.getLogger("parlour.server")

def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Event:
    """An accepted action: the version it made, who took it (``None``: chance), and its text as
    each seat may read it (key ``None``: a spectator), from ``State.action_text_for``."""

    version: int
    seat: int | None
    action: Action
    texts: dict[int | None, str]


@dataclass
class _Submission:
    seat: int
    text: str
    version: int | None
    reply: asyncio.Future[ProtocolError | None] = field(repr=False)


_SETTLE: Final = None
"""Queued to make the writer resolve chance and wake bots (when a match starts or resumes)."""


class Match:
    """A match's live state; created from its stored row (replaying the stored actions)."""

    def __init__(self, row: MatchRow, game: Game[State], store: Store, pubsub: PubSub, bots: BotPool) -> None:
        self.row = row
        self.id = row.id
        self.game = game
        self.info = game.info
        self.store = store
        self.pubsub = pubsub
        self.bots = bots
        self.channel = f"match:{row.id}"
        self.state: State = game.new(row.players, row.options, row.seed, row.start)
        self.seat_names = self.state.seat_names()
        self.events: list[Event] = []
        for action in row.actions:
            mover = self.state.to_move()
            texts = self.texts_for(action)
            self.state.play(action)  # checked: a damaged store must not produce a wrong game
            self.events.append(Event(len(self.events) + 1, None if mover == CHANCE else mover, action, texts))
        self.present = [0] * row.players
        self.queue: asyncio.Queue[_Submission | None] = asyncio.Queue()
        self.writer: asyncio.Task[None] | None = None
        self.thinking: dict[int, asyncio.Task[None]] = {}
        """Bot decisions under way, by the version they decide at."""
        self._rendered: dict[int | None, str] = {}
        """The latest event's ``update`` by seat; emptied when an event is added (it holds no seats)."""

    # --- what the match is ---------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def status(self) -> str:
        if self.state.is_over():
            return "over"
        if any(seat.kind == "open" for seat in self.row.seats):
            return "open"
        return "running"

    def seats_json(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": index,
                "name": self.seat_names[index],
                "kind": seat.kind,
                "player": seat.name,
                "bot": seat.bot,
                "connected": seat.kind == "bot" or self.present[index] > 0,
            }
            for index, seat in enumerate(self.row.seats)
        ]

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.info.name,
            "title": self.info.title,
            "players": self.row.players,
            "options": dict(self.state.options),
            "status": self.status,
            "version": self.version,
            "to_move": self.state.to_move_json(),
            "outcome": self.state.outcome_json(),
            "created": self.row.created,
            "url": f"/match/{self.id}",
            "ws": f"/ws/matches/{self.id}",
            "seats": self.seats_json(),
        }

    # --- what a client sees (only ever through view(seat)) ------------------------------------

    def legal_json(self, seat: int | None) -> list[dict[str, Any]]:
        """The seat's legal actions, each as its text and its parts (empty unless it is to move)."""
        state = self.state
        if seat is None or self.status != "running" or state.to_move() != seat:
            return []
        return [{"text": state.action_to_text(action), "parts": state.action_parts(action)}
                for action in state.legal_actions()]

    def texts_for(self, action: Action) -> dict[int | None, str]:
        """The pending ``action`` as each seat and a spectator may read it (before it is applied)."""
        seats: list[int | None] = [*range(self.state.players), None]
        return {seat: self.state.action_text_for(action, seat) for seat in seats}

    def event_json(self, event: Event, seat: int | None) -> dict[str, Any]:
        """An event as ``seat`` may see it (a card drawn into another hand stays hidden)."""
        return {
            "version": event.version,
            "seat": "chance" if event.seat is None else event.seat,
            "action": event.texts[seat],
        }

    def state_message(self, seat: int | None, resync: bool = False) -> dict[str, Any]:
        """Everything ``seat`` may know, the whole move list included: the one message with history."""
        message: dict[str, Any] = {
            "type": "state",
            "match": self.id,
            "version": self.version,
            "seat": seat,
            "status": self.status,
            "seats": self.seats_json(),
            "view": self.state.view(seat),
            "legal": self.legal_json(seat),
            "events": [self.event_json(event, seat) for event in self.events],
        }
        if resync:
            message["resync"] = True
        return message

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
                "view": self.state.view(seat),
                "legal": self.legal_json(seat),
            })
            self._rendered[seat] = text
        return text

    def seats_message(self) -> dict[str, Any]:
        return {"type": "seats", "match": self.id, "version": self.version, "status": self.status,
                "seats": self.seats_json()}

    # --- seats and presence ----------------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for index, seat in enumerate(self.row.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return index
        return None

    async def claim(self, seat: int | None, name: str | None) -> tuple[int, str]:
        """Gives a seat to a person: (seat, secret token). ``ProtocolError`` if it cannot."""
        if self.state.is_over():
            raise ProtocolError("game_over", "the game is over: no seat can be joined", 409)
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
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        try:
            claimed = await self.store.claim_seat(self.id, seat, digest, name)
        except StoreError as error:
            log.error("match %s: claiming seat %d: %s", self.id, seat, error)
            raise ProtocolError("internal", "the seat could not be stored; try again", 500) from None
        if not claimed or record.kind != "open":
            raise ProtocolError("seat_taken", f"{label} is already taken", 409)
        record.kind, record.token_hash, record.name = "person", digest, name
        if self.status == "running":
            await self.pubsub.publish(self.channel, {"kind": "started"})
            self.queue.put_nowait(_SETTLE)
        else:
            await self.pubsub.publish(self.channel, {"kind": "seats"})
        return seat, token

    async def arrive(self, seat: int) -> None:
        self.present[seat] += 1
        if self.present[seat] == 1:
            await self._seats_changed()

    async def leave(self, seat: int) -> None:
        self.present[seat] -= 1
        if self.present[seat] == 0:
            await self._seats_changed()

    async def _seats_changed(self) -> None:
        await self.pubsub.publish(self.channel, {"kind": "seats"})

    # --- the writer ------------------------------------------------------------------------------

    def start(self) -> None:
        """Starts the writer; it resolves pending chance and wakes a bot whose turn it is."""
        if self.writer is None and not self.state.is_over():
            self.writer = asyncio.create_task(self._write(), name=f"match {self.id}")
            self.queue.put_nowait(_SETTLE)

    async def stop(self) -> None:
        for task in [*self.thinking.values(), self.writer]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.writer = None
        self.thinking.clear()

    async def submit(self, seat: int, text: str, version: int | None) -> ProtocolError | None:
        """Queues an action for the writer; ``None`` once it is stored and published, else why not."""
        if self.writer is None:
            return ProtocolError("game_over", "the game is over")
        reply: asyncio.Future[ProtocolError | None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(_Submission(seat, text, version, reply))
        return await reply

    async def _write(self) -> None:
        while True:
            submission = await self.queue.get()
            error = None
            try:
                if submission is not None:
                    error = await self._act(submission)
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
            if self.state.is_over():
                self.writer = None
                self._fail_queued()
                return

    def _fail_queued(self) -> None:
        while not self.queue.empty():
            queued = self.queue.get_nowait()
            if queued is not None and not queued.reply.done():
                queued.reply.set_result(ProtocolError("game_over", "the game is over"))

    async def _act(self, submission: _Submission) -> ProtocolError | None:
        seat, state = submission.seat, self.state
        if state.is_over():
            return ProtocolError("game_over", "the game is over")
        if self.status == "open":
            waiting = sum(record.kind == "open" for record in self.row.seats)
            return ProtocolError("not_started", f"the match starts when every seat is taken ({waiting} open)")
        mover = state.to_move()
        if mover != seat:
            whose = "the chance player's" if mover == CHANCE else f"{self.seat_names[mover]}'s"
            return ProtocolError("not_your_turn", f"it is {whose} turn, not {self.seat_names[seat]}'s")
        if submission.version is not None and submission.version != self.version:
            return ProtocolError(
                "stale_version",
                f"the match is at version {self.version}, not {submission.version}: look again and retry",
            )
        try:
            action = state.parse_action(submission.text)
        except NotationError as error:
            return ProtocolError("bad_notation", str(error))
        except IllegalActionError as error:
            return ProtocolError("illegal_action", str(error))
        if not state.is_legal(action):  # the gate: a game's parser is not trusted to check the rules
            return ProtocolError("illegal_action", f"illegal action: {state.action_to_text(action)}")
        return await self._commit(seat, action)

    async def _commit(self, seat: int | None, action: Action) -> ProtocolError | None:
        """Stores, applies and publishes one action: stored first, so what is seen is never lost."""
        texts = self.texts_for(action)
        try:
            await self.store.append(self.id, self.version, [action])
        except StoreError as error:
            log.error("match %s: storing version %d: %s", self.id, self.version + 1, error)
            return ProtocolError("internal", "the action could not be stored; the match is unchanged", 500)
        self.state.apply(action)
        self.events.append(Event(self.version + 1, seat, action, texts))
        self._rendered.clear()
        await self.pubsub.publish(self.channel, {"kind": "event", "version": self.version})
        return None

    async def _settle(self) -> None:
        """Resolves chance decisions (from the match seed) and wakes the bot whose turn it is."""
        if self.status != "running":
            return
        while self.state.to_move() == CHANCE:
            if await self._commit(None, self.state.sample_chance()) is not None:
                return  # storage failed: logged; the next submission or restart tries again
        self._wake_bot()

    # --- bots ------------------------------------------------------------------------------------

    def _wake_bot(self) -> None:
        mover = self.state.to_move()
        if mover < 0 or self.row.seats[mover].kind != "bot":
            return
        version = self.version
        if version in self.thinking:
            return
        task = asyncio.create_task(self._bot_turn(mover, version), name=f"bot {self.id}/{mover}@{version}")
        self.thinking[version] = task
        task.add_done_callback(lambda _: self.thinking.pop(version, None))

    async def _bot_turn(self, seat: int, version: int) -> None:
        """The bot in ``seat`` decides from its view in a worker, then acts like anyone else."""
        record = self.row.seats[seat]
        assert record.bot is not None
        who = f"match {self.id}: bot:{record.bot} in seat {seat}"
        seed = bot_seed(self.row.seed, seat, version)
        view = self.state.view(seat)
        try:
            text = await self.bots.choose(self.info.name, record.bot, seed, seat, view, self.row.bot_seconds)
        except Exception:
            log.exception("%s failed; it plays a random move instead", who)
            text = random_choice(self.info.name, seed, view)
        error = await self.submit(seat, text, version)
        if error is not None and error.code not in ("game_over", "stale_version"):
            log.error("%s chose %r, refused: %s", who, text, error.message)
            await self.submit(seat, random_choice(self.info.name, seed, view), version)
