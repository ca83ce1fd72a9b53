"""``parlour play --join URL``: a seat of a match on a parlour server, at the terminal.

The same text front end as local play (``Session``): the board is drawn by the game's own
``render`` from a state rebuilt out of the seat's view, moves are read and checked in the game's
notation, then sent to the server, which has the last word. The protocol is
``docs/protocol.md``; the seat's token is kept in the user's data directory, so running the
same command again takes the same seat back (with the moves missed meanwhile).
"""

from __future__ import annotations

import collections
import contextlib
import getpass
import itertools
import json
import math
import os
import queue
import random
import socket
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import platformdirs
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from parlour.engine import (
    Action,
    Game,
    Leaving,
    ParlourError,
    State,
)
from parlour.engine.files import write_atomically
from parlour.engine.leaving import LEAVING_REASONS, RETIRED_WORDS
from parlour.games import get_game
from parlour.tui.play import (
    Session,
    UsageError,
    _HelpShown,
    build_parser,
    read_seat_number,
)

RECONNECTS: Final = 8
"""Attempts to get a lost connection back (a second or two apart) before giving up."""

WAIT: Final = 30.0
"""Seconds to wait for the server's answer to a question (hello, join) before giving up."""


class JoinError(Exception):
    """The seat cannot be played: reported in one line, exit status 1."""


@dataclass(frozen=True)
class Target:
    """Where a match lives: its WebSocket address and the page a person would open."""

    ws_url: str
    page_url: str
    match_id: str


def read_target(url: str) -> Target:
    """A match page (``http://HOST:PORT/match/ID``) or WebSocket (``ws://…/ws/matches/ID``) address."""
    parts = urllib.parse.urlsplit(url.strip())
    schemes = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}
    if parts.scheme not in schemes or not parts.netloc:
        raise UsageError(f"--join {url!r}: give the match's address, e.g. http://HOST:8080/match/ID")
    words = [word for word in parts.path.split("/") if word]
    if len(words) == 2 and words[0] == "match":
        match_id = words[1]
    elif len(words) == 3 and words[:2] == ["ws", "matches"]:
        match_id = words[2]
    else:
        raise UsageError(f"--join {url!r}: not a match address (…/match/ID or …/ws/matches/ID)")
    web = "https" if schemes[parts.scheme] == "wss" else "http"
    return Target(
        ws_url=f"{schemes[parts.scheme]}://{parts.netloc}/ws/matches/{match_id}",
        page_url=f"{web}://{parts.netloc}/match/{match_id}",
        match_id=match_id,
    )


# --- the seat's token ----------------------------------------------------------------------------


def token_file() -> Path:
    return platformdirs.user_data_path("parlour", appauthor=False) / "seats.json"


def saved_token(target: Target) -> tuple[int, str] | None:
    try:
        entry = json.loads(token_file().read_text(encoding="utf-8")).get(target.ws_url)
        return int(entry["seat"]), str(entry["token"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def save_token(target: Target, seat: int, token: str) -> None:
    path = token_file()
    try:
        book = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(book, dict):
            book = {}
    except (OSError, ValueError):
        book = {}
    book[target.ws_url] = {"seat": seat, "token": token}
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(book, indent=1) + "\n")


# --- the connection --------------------------------------------------------------------------------


class LinkClosed(Exception):
    """The link was closed on purpose (the session moved to a rematch): its listener stops."""


class Link:
    """The WebSocket to the match; after a drop it reconnects and says hello with the token.

    Once the session runs, a listener thread receives (``listen``) while the main thread sends;
    either may find the connection lost, and only the first of them reconnects."""

    def __init__(self, target: Target, say: Callable[[str], None]) -> None:
        self.target = target
        self.say = say
        self.socket: ClientConnection | None = None
        self.token: str | None = None
        self.closing = False
        self.lock = threading.Lock()

    def open(self) -> None:
        self.closing = False
        try:
            self.socket = self.connect(10)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as error:
            raise JoinError(f"cannot reach the server at {self.target.page_url}: {error}") from None

    def connect(self, seconds: float) -> ClientConnection:
        """A direct connection (no proxy), with Nagle off so that each message leaves at once."""
        parts = urllib.parse.urlsplit(self.target.ws_url)
        port = parts.port or (443 if parts.scheme == "wss" else 80)
        sock = socket.create_connection((parts.hostname or "localhost", port), timeout=seconds)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connect(self.target.ws_url, sock=sock, open_timeout=seconds, legacy=True)

    def send(self, message: dict[str, Any]) -> None:
        """Sends a message; after a reconnection an action is not sent again (the fresh state
        that answers the hello says whether it had arrived)."""
        used = self.socket
        try:
            assert used is not None
            used.send(json.dumps(message))
        except ConnectionClosed:
            self.reconnect(used)
            if message.get("type") == "action":
                return
            assert self.socket is not None
            self.socket.send(json.dumps(message))

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message from the server (``TimeoutError`` after ``timeout`` seconds)."""
        while True:
            used = self.socket
            try:
                assert used is not None
                frame = used.recv(timeout)
            except ConnectionClosed:
                self.reconnect(used)
                continue
            try:
                message = json.loads(frame)
            except ValueError:
                continue
            if isinstance(message, dict):
                return message

    def ask(self, message: dict[str, Any], answers: tuple[str, ...]) -> dict[str, Any]:
        """Sends a question and returns the first answer of one of ``answers`` types (or an error)."""
        self.send(message)
        return self.expect(answers, str(message.get("type")))

    def expect(self, answers: tuple[str, ...], question: str) -> dict[str, Any]:
        """The next message of one of ``answers`` types, or an error; others are skipped."""
        deadline = time.monotonic() + WAIT
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise JoinError(f"the server did not answer {question!r} in {WAIT:g} s")
            reply = self.receive(remaining)
            if reply.get("type") in (*answers, "error"):
                return reply

    def reconnect(self, failed: ClientConnection | None) -> None:
        """Replaces the connection ``failed`` (unless another thread has done so already)."""
        with self.lock:
            if self.closing:
                raise LinkClosed()
            if self.socket is not failed:
                return
            if self.token is None:
                raise JoinError("the connection to the server was lost")
            self.say("Connection lost; reconnecting…")
            for attempt in range(RECONNECTS):
                time.sleep(min(0.25 * 2**attempt, 2.0))
                with contextlib.suppress(OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
                    self.socket = self.connect(5)
                    # The answering state lists every event: the session tells those it missed.
                    self.socket.send(json.dumps({"type": "hello", "token": self.token}))
                    self.say("Reconnected.")
                    return
            raise JoinError(f"lost the connection to {self.target.page_url} and could not get it back")

    def close(self) -> None:
        self.closing = True
        if self.socket is not None:
            with contextlib.suppress(Exception):
                self.socket.close()


# --- what the session waits for: lines typed and messages heard -----------------------------------


@dataclass(frozen=True)
class Typed:
    """A line the player typed (``None``: the end of the input)."""

    line: str | None


@dataclass(frozen=True)
class Heard:
    """A message from the server on ``link``."""

    link: Link
    message: dict[str, Any]


@dataclass(frozen=True)
class Lost:
    """``link`` is gone for good."""

    link: Link
    error: JoinError


@dataclass(frozen=True)
class Tick:
    """Time passed: a seat away may have become claimable."""


Event = Typed | Heard | Lost | Tick

TICK_SECONDS: Final = 10.0
"""How often the session looks again at how long a seat has been away."""

def ticking(inbox: queue.Queue[Event]) -> None:
    while True:
        time.sleep(TICK_SECONDS)
        inbox.put(Tick())


def clock_text(seconds: float) -> str:
    """A clock as players read one: "4:52", "1:02:09"; tenths under ten seconds ("7.3")."""
    left = max(0.0, seconds)
    if left < 10:
        return f"{int(left * 10) / 10:.1f}"
    whole = int(left)
    hours, minutes, rest = whole // 3600, whole % 3600 // 60, whole % 60
    return f"{hours}:{minutes:02d}:{rest:02d}" if hours else f"{minutes}:{rest:02d}"


def span_text(seconds: float) -> str:
    """How long, in words: "45 s", "2 min", "1 h 5 min"."""
    whole = max(0, int(seconds))
    if whole < 60:
        return f"{whole} s"
    minutes = whole // 60
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h" + (f" {minutes % 60} min" if minutes % 60 else "")


def read_typing(inbox: queue.Queue[Event], fd: int) -> None:
    """Puts each line read from ``fd`` in ``inbox``, then the end of the input. Reads the file
    descriptor itself: a thread blocked in ``sys.stdin`` would hold its lock at exit."""
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            if pending:
                inbox.put(Typed(pending.decode(errors="replace")))
            inbox.put(Typed(None))
            return
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            inbox.put(Typed(line.decode(errors="replace").rstrip("\r")))


def listen(link: Link, inbox: queue.Queue[Event]) -> None:
    """Puts every message of ``link`` in ``inbox`` until the link is closed or lost."""
    while True:
        try:
            message = link.receive()
        except LinkClosed:
            return
        except JoinError as error:
            inbox.put(Lost(link, error))
            return
        inbox.put(Heard(link, message))


def start_typing(inbox: queue.Queue[Event]) -> None:
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, OSError):  # no standard input at all
        inbox.put(Typed(None))
        return
    threading.Thread(target=read_typing, args=(inbox, fd), name="typing", daemon=True).start()


# --- the session -----------------------------------------------------------------------------------


OFFER_STEPS: Final = ("offer", "accept", "decline")


@dataclass(frozen=True)
class Request:
    """A message sent to the server and not answered yet: ``what`` it asks, in words."""

    ref: int
    what: str
    kind: str
    """The message's type: ``action``, ``resign``, or one of ``OFFER_STEPS``."""


@dataclass(frozen=True)
class Moved:
    """The match's rematch is made: the player goes on there, in ``seat``, on ``link``."""

    link: Link
    seat: int
    first: dict[str, Any]


def score_text(score: float) -> str:
    """A score as people write it: 5575, not 5575.0."""
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


class RemoteSession(Session):
    """``Session`` with the match kept by the server: moves go out, events come in. Lines typed
    and messages heard are taken in turn, so that a player may resign, offer or answer a draw at
    any time, not only when it is their move."""

    TABLE_COMMANDS = ("resign", "draw", "accept", "decline", "rematch", "claim", "clock")
    """Around the game, beside ``Session.COMMANDS``."""

    def __init__(
        self,
        game: Game[State],
        link: Link,
        seat: int,
        first: dict[str, Any],
        inbox: queue.Queue[Event],
        say: Callable[[str], None],
        prompt: Callable[[str], None],
        complain: Callable[[str], None],
    ) -> None:
        # Not Session.__init__: there are no local bots and no local state to start from.
        self.game = game
        self.info = game.info
        self.link = link
        self.seat = seat
        self.inbox = inbox
        self.print = say
        self.say = self.tell
        self.write_prompt = prompt
        self.complain = complain
        self.humans = [seat]
        self.bots = {}
        self.seconds = 0.0
        self.board_shown = False
        self.rng = random.Random(0)
        self.snapshot: dict[str, Any] = {}
        """The last ``state`` or ``update``: version, status, view, legal."""
        self.seat_list: list[dict[str, Any]] = first["seats"]
        """The match's seats as the server last told them (``state`` and ``seats`` messages)."""
        self.offers: list[dict[str, Any]] = list(first.get("offers") or [])
        """The pending draw and rematch offers, as the server last told them."""
        self.waiting_shown: int | None = None
        self.prompted = False
        """A prompt is the last thing on the screen (the player has typed nothing since)."""
        self.pending: Request | None = None
        """The message sent, until the server answers it: lines typed meanwhile wait for it."""
        self.deferred: collections.deque[str | None] = collections.deque()
        self.confirming: str | int | None = None
        """What the player is asked to confirm: "resign", "all", or the seat to claim."""
        self.offset: float | None = None
        """The server's time minus this machine's (from a state's ``now``, an update's ``since``)."""
        self.gone_seconds = math.inf
        """How long a seat may be away before it can be claimed: the server's limit (a state says it)."""
        self.away_told: dict[int, float] = {}
        """Seats told claimable, with the ``away_since`` they were told for."""
        self.asked: dict[int, str] = {}
        """What each message sent asked for, by its id: a refusal says what it refuses."""
        self.refs = itertools.count(1)
        self.told_out: set[int] = set()
        self.over_told = False
        self.absorb(first)
        self.seats = ["human"] * len(self.seat_list)

    def tell(self, text: str) -> None:
        if self.prompted:  # news while the prompt waits: not on the prompt's line
            self.print("")
        self.prompted = False
        self.print(text)

    # --- what the server says ---

    def absorb(self, snapshot: dict[str, Any]) -> None:
        """Takes a ``state`` or ``update``: the seat's picture of the match, rebuilt from its view
        (``Game.sample_state``: the position from the view's content, hidden parts sampled)."""
        self.snapshot = snapshot
        self.state = self.game.sample_state(snapshot["view"], self.rng)
        self.read_time(snapshot)
        if isinstance(snapshot.get("gone_seconds"), int | float):
            self.gone_seconds = snapshot["gone_seconds"]
        clock = snapshot.get("clock")
        if isinstance(clock, dict):
            local = time.time()
            if isinstance(clock.get("now"), int | float):
                self.offset = clock["now"] - local
                self.snapshot = {**snapshot, "clock_seen": clock["now"]}
            elif isinstance(clock.get("since"), int | float):
                if clock["since"] > self.server_now():
                    self.offset = clock["since"] - local
                self.snapshot = {**snapshot, "clock_seen": clock["since"]}

    def read_time(self, message: dict[str, Any]) -> None:
        """A state's or seats message's ``now``: the server's time when it was made."""
        if isinstance(message.get("now"), int | float):
            self.offset = message["now"] - time.time()

    def server_now(self) -> float:
        """The server's time as far as this session can tell (this machine's, without a clock)."""
        return time.time() + (self.offset or 0.0)

    def clocks_line(self) -> str:
        """ "Black 4:52 · White 5:00": every seat's clock as the last message left it ("" untimed)."""
        clock = self.snapshot.get("clock")
        if not isinstance(clock, dict):
            return ""
        names = self.state.seat_names()
        parts = []
        for seat, left in enumerate(clock["remaining"]):
            if clock.get("running") == seat:
                left -= max(0.0, self.snapshot.get("clock_seen", clock["since"]) - clock["since"])
            parts.append(f"{names[seat]} {clock_text(left)}")
        return " · ".join(parts)

    def live_clocks(self) -> str:
        """The clocks now, the running one counted down since the last message."""
        line = self.clocks_line()
        clock = self.snapshot.get("clock")
        if not line or not isinstance(clock, dict) or clock.get("running") is None:
            return line
        running = clock["running"]
        left = clock["remaining"][running] - max(0.0, self.server_now() - clock["since"])
        names = self.state.seat_names()
        return " · ".join(f"{names[seat]} {clock_text(left)}" if seat == running else part
                          for seat, part in enumerate(line.split(" · ")))

    def claimable(self) -> list[tuple[int, float]]:
        """Seats in play, not this one, without a connection past the limit: (seat, seconds away)."""
        if self.status != "running" or self.seat in self.told_out:
            return []
        limit = self.gone_seconds
        outs = self.snapshot["view"].get("out") or []
        found = []
        for entry in self.seat_list:
            seat, since = entry["seat"], entry.get("away_since")
            if seat == self.seat or entry.get("kind") != "person" or entry.get("connected"):
                continue
            if (seat < len(outs) and outs[seat]) or not isinstance(since, int | float):
                continue
            away = self.server_now() - since
            if away >= limit:
                found.append((seat, away))
        return found

    def tell_away(self) -> None:
        """Each seat gone long enough, told once for each time it went away."""
        for seat, away in self.claimable():
            since = self.seat_list[seat]["away_since"]
            if self.away_told.get(seat) == since:
                continue
            self.away_told[seat] = since
            self.say(f"{self.person(seat)} has been away {span_text(away)}: type claim "
                     f"{'to win' if self.in_play() == 2 else 'to retire the seat'}.")

    def in_play(self) -> int:
        outs = self.snapshot["view"].get("out") or []
        return sum(1 for seat in range(len(self.seat_list)) if not (seat < len(outs) and outs[seat]))

    @property
    def to_move(self) -> int | str | None:
        mover: int | str | None = self.snapshot["view"]["to_move"]
        return mover

    @property
    def status(self) -> str:
        return str(self.snapshot["status"])

    def hear(self, message: dict[str, Any]) -> Moved | None:
        kind = message.get("type")
        if kind == "state":
            return self.hear_state(message)
        if kind == "update":
            self.absorb(message)
            # A move or resignation is answered by this seat's event; a claim, by the claimed seat's.
            mine = message["event"]["seat"] == self.seat
            kinds = ("action", "resign", "claim") if mine else ("claim",)
            if self.pending is not None and self.pending.kind in kinds:
                self.settle()
            self.tell_event(message["event"])
            self.tell_out()
            self.board_shown = False
        elif kind == "seats":
            self.read_time(message)
            self.tell_seats(message["seats"])
            self.seat_list = message["seats"]
            self.snapshot = {**self.snapshot, "status": message["status"]}
        elif kind == "offers":
            before, self.offers = self.offers, list(message["offers"])
            news = message.get("news")
            if news:
                self.tell_offer(news, before)
                # This seat's offer or answer is answered by the news, except a rematch made:
                # the rematch message that follows is (the session goes on there).
                made = news["what"] == "rematch" and news["change"] == "accepted"
                answered = self.pending is not None and self.pending.kind in OFFER_STEPS
                if answered and news["seat"] == self.seat and not made:
                    self.settle()
        elif kind == "out":
            self.tell_out(message)
        elif kind == "rematch":
            return self.go_to_rematch(message["rematch"])
        elif kind == "error":
            self.hear_error(message)
        return None

    def hear_state(self, message: dict[str, Any]) -> Moved | None:
        was, version = self.snapshot.get("status"), self.snapshot.get("version", 0)
        self.absorb(message)
        self.seat_list = message["seats"]
        self.offers = list(message.get("offers") or [])
        for event in message["events"][version:]:  # those after the last version seen
            self.tell_event(event)
        self.tell_out()
        if was == "open" and message["status"] == "running":
            self.say("Every seat is taken: the match starts.")
        if message["version"] != version:
            self.board_shown = False
        if self.pending is not None:
            if self.pending.kind == "action" and message["version"] == version:
                self.say(f"The connection was lost before {self.pending.what} reached the server: "
                         "play it again.")
            self.settle()
        if message.get("rematch") and message["status"] == "over":
            return self.go_to_rematch(message["rematch"])
        return None

    def settle(self) -> None:
        """The message sent is answered: the next line may be taken."""
        if self.pending is not None:
            self.asked.pop(self.pending.ref, None)
        self.pending = None

    def hear_error(self, message: dict[str, Any]) -> None:
        ref = message.get("id")
        asked = self.asked.pop(ref, None) if isinstance(ref, int) else None
        if self.pending is not None and ref == self.pending.ref:
            self.pending = None
        said = str(message.get("message"))
        if asked is None:
            self.say(f"Server: {said}")
        elif said.startswith(f"{asked}: "):  # a refused action's reason names the action already
            self.say(f"The server refused {said}")
        else:
            self.say(f"The server refused {asked}: {said}")

    def tell_event(self, event: dict[str, Any]) -> None:
        seat, text = event["seat"], event["action"]
        if seat == "chance":
            if text is not None:
                self.say(f"Chance: {text}")
            return
        leaving = self.leaving_of(event)
        if leaving is not None:
            self.say(self.leaving_words(leaving))
        elif seat is None:
            self.say(f"The table: {text}")
        else:
            name = self.state.seat_names()[seat]
            self.say(f"{name} plays {text}" if text is not None else f"{name} has played")

    @staticmethod
    def leaving_of(event: dict[str, Any]) -> Leaving | None:
        """What a leaving event is, as the server says it (``leaving``), not read from its words."""
        said = event.get("leaving")
        if not isinstance(said, dict):
            return None
        return Leaving(said["kind"], said.get("seat"), said.get("why"))

    def leaving_words(self, leaving: Leaving) -> str:
        if leaving.kind == "agreed":
            return "Draw agreed at the table."
        if leaving.kind == "abandoned":
            return "The match was abandoned."
        assert leaving.seat is not None
        assert leaving.why is not None
        who = "You" if leaving.seat == self.seat else self.person(leaving.seat)
        return f"{who} {RETIRED_WORDS[leaving.why]}."

    def tell_out(self, message: dict[str, Any] | None = None) -> None:
        """Seats out of the game (3-4 players), each told once: from the view's ``out``, or from
        an ``out`` message the view has not shown yet."""
        outs: list[str | None] = list(self.snapshot["view"].get("out") or [])
        if message is not None and message["seat"] not in self.told_out:
            self.told_out.add(message["seat"])
            self.say(str(message["words"]))
        for seat, why in enumerate(outs):
            if why is None or seat in self.told_out:
                continue
            self.told_out.add(seat)
            if seat == self.seat:
                self.say(f"You are out: {why}. You may watch the game to its end, or type quit to leave.")
            else:
                self.say(f"{self.seat_label(self.seat_list[seat])} is out: {why}")

    def tell_offer(self, news: dict[str, Any], before: list[dict[str, Any]]) -> None:
        what, change, seat = news["what"], news["change"], news["seat"]
        if change == "lapsed":
            self.say(str(news["words"]))  # says why, which only the server knows
            return
        offer = self.offer_of(what, self.offers) or self.offer_of(what, before) or {}
        mine = seat == self.seat
        who = "You" if mine else self.person(seat)
        ending = what == "draw" and len(self.seat_list) > 2
        waiting = [other for other in offer.get("waiting", []) if other != seat]
        pending = self.offer_of(what, self.offers) is not None
        still = f": waiting for {self.persons(waiting)}" if waiting and pending else ""
        if change == "made":
            # The maker hears whom it waits for; a party, how to answer; a seat out, only the news.
            answer = still if mine else ": type accept or decline" if self.seat in waiting else ""
            if ending:
                parties = sorted([*offer.get("agreed", []), *offer.get("waiting", [])])
                self.say(f"{who} {'propose' if mine else 'proposes'} ending the game here, a draw among "
                         f"{self.persons(parties)}{answer}")
            else:
                self.say(f"{who} {'offer' if mine else 'offers'} a {what}{answer}")
        elif change == "agreed":
            deal = "ending the game here" if ending else f"the {what}"
            self.say(f"{who} {'agree' if mine else 'agrees'} to {deal}{still}")
        elif change == "accepted":
            deal = "ending the game here: the game is drawn" if ending else f"the {what}"
            if offer.get("by", seat) == seat:  # made and agreed at once: only bots to play against
                self.say(f"The {what} is on.")
            else:
                self.say(f"{who} {'accept' if mine else 'accepts'} {deal}")
        elif change == "declined":
            yours = what == "draw" and offer.get("by") == self.seat
            again = " You may offer again after your next move." if yours else ""
            self.say(f"{who} {'decline' if mine else 'declines'} the {self.offer_name(what)}.{again}")
        elif change == "withdrawn":
            again = " You may offer again after your next move." if mine and what == "draw" else ""
            self.say(f"{who} {'withdraw' if mine else 'withdraws'} the {self.offer_name(what)}.{again}")
        else:
            self.say(str(news["words"]))

    @staticmethod
    def offer_of(what: str, offers: list[dict[str, Any]]) -> dict[str, Any] | None:
        return next((offer for offer in offers if offer["what"] == what), None)

    def offer_name(self, what: str) -> str:
        if what == "draw":
            return "proposal to end the game here" if len(self.seat_list) > 2 else "draw offer"
        return "rematch offer"

    def go_to_rematch(self, rematch: dict[str, Any]) -> Moved | None:
        """Takes the new seat of the rematch (its token kept like any other) and goes there."""
        page = urllib.parse.urljoin(self.link.target.page_url, str(rematch["url"]))
        seat, token = rematch.get("seat"), rematch.get("token")
        if not isinstance(seat, int) or not isinstance(token, str):
            self.say(f"The rematch is at {page}.")
            return None
        target = read_target(page)
        save_token(target, seat, token)
        link = Link(target, self.link.say)
        link.open()
        link.token = token
        first = link.ask({"type": "hello", "token": token}, ("state",))
        if first["type"] == "error":
            link.close()
            raise JoinError(f"the rematch at {page} did not take your seat: {first.get('message')}")
        self.link.close()
        self.say("")
        self.say(f"Rematch: you now play {first['seats'][seat]['name']} (seat {seat}) at {target.page_url}")
        return Moved(link, seat, first)

    def tell_seats(self, seats: list[dict[str, Any]]) -> None:
        before = {entry["seat"]: entry for entry in self.seat_list}
        for entry in seats:
            old = before.get(entry["seat"])
            if entry["seat"] == self.seat or old is None:
                continue
            who = self.seat_label(entry)
            if old["kind"] == "open" and entry["kind"] != "open":
                self.say(f"{who} has joined.")
            elif old["connected"] and not entry["connected"]:
                self.say(f"{who} has left (the seat is kept).")
            elif not old["connected"] and entry["connected"] and entry["kind"] == "person":
                self.say(f"{who} is back.")

    def seat_label(self, entry: dict[str, Any]) -> str:
        """A seat, then who plays it: "White (Bob)", "Red (bot:strong)"."""
        name = self.state.seat_names()[entry["seat"]]
        if entry.get("kind") == "bot":
            return f"{name} (bot:{entry['bot']})"
        return f"{name} ({entry['player']})" if entry.get("player") else name

    def person(self, seat: int) -> str:
        """Who plays a seat, then the seat: "Bob (White)"; a bot as ``seat_label`` says it."""
        entry = self.seat_list[seat]
        name = self.state.seat_names()[seat]
        if entry.get("kind") == "person" and entry.get("player"):
            return f"{entry['player']} ({name})"
        return self.seat_label(entry)

    def persons(self, seats: Sequence[int]) -> str:
        names = ["you" if seat == self.seat else self.person(seat) for seat in seats]
        if len(names) < 2:
            return names[0] if names else "nobody"
        return f"{', '.join(names[:-1])} and {names[-1]}"

    # --- the loop ---

    def run(self) -> int | Moved:  # type: ignore[override]  # a rematch goes on elsewhere
        self.say(self.introduction())
        self.tell_since_last_turn()
        self.tell_out()
        for offer in self.offers:
            self.tell_offer({"what": offer["what"], "change": "made", "seat": offer["by"]}, [])
        if self.snapshot.get("rematch") and self.status == "over":  # made while this seat was away
            outcome = self.snapshot["view"]["outcome"]
            if outcome is not None:
                self.say(f"Result: {self.result_line(outcome)}")
            moved = self.go_to_rematch(self.snapshot["rematch"])
            if moved is not None:
                return moved
        threading.Thread(target=listen, args=(self.link, self.inbox), name="listen", daemon=True).start()
        threading.Thread(target=ticking, args=(self.inbox,), name="tick", daemon=True).start()
        while True:
            done: int | Moved | None
            if self.pending is None and self.deferred:
                done = self.take_line(self.deferred.popleft())
            else:
                if self.inbox.empty():  # what came at once is told before the board and prompt
                    self.show_due()
                done = self.take(self.inbox.get())
            if done is not None:
                return done

    def take(self, event: Event) -> int | Moved | None:
        if isinstance(event, Tick):
            self.tell_away()
            return None
        if isinstance(event, Typed):
            if self.pending is not None:  # what was sent is not answered yet: this line waits
                self.deferred.append(event.line)
                return None
            return self.take_line(event.line)
        if event.link is not self.link:  # the match left for its rematch
            return None
        if isinstance(event, Lost):
            raise event.error
        return self.hear(event.message)

    def show_due(self) -> None:
        """What the player should see before typing: the board, whose turn, and a prompt."""
        if self.pending is not None:
            return
        self.tell_away()
        clocks = self.clocks_line()
        if self.confirming == "resign":
            prompt = "Resign this game? [y/N] "
        elif self.confirming is not None:
            prompt = self.claim_question() + " [y/N] "
        elif self.status == "over":
            if not self.over_told:
                self.finish()
                self.over_told = True
            prompt = "Game over> "
        elif self.status == "running" and self.to_move == self.seat:
            self.waiting_shown = None
            self.show_board()
            turn = f"{self.state.seat_names()[self.seat]} to move"
            prompt = f"{turn} · {clocks}> " if clocks else f"{turn}> "
        else:
            self.show_waiting()
            prompt = "Watching> " if self.seat in self.told_out else "> "
        if not self.prompted:
            self.write_prompt(prompt)
            self.prompted = True

    def show_board(self) -> None:
        if not self.board_shown:
            self.say("")
            self.say(self.state.render(self.seat))
            self.board_shown = True

    def tell_since_last_turn(self) -> None:
        """On arrival, the moves made since this seat's own last one (all of them if it has none)."""
        events = self.snapshot["events"]
        mine = [index for index, event in enumerate(events) if event["seat"] == self.seat]
        since = events[mine[-1] + 1:] if mine else events
        if mine and since:
            self.say("While you were away:")
        for event in since:
            self.tell_event(event)

    def introduction(self) -> str:
        others = [self.seat_label(entry) for entry in self.seat_list if entry["seat"] != self.seat]
        return (
            f"{self.info.title} at {self.link.target.page_url}. "
            f"You play {self.state.seat_names()[self.seat]}; "
            f"{', '.join(others)}. Type 'help' for commands."
        )

    def show_waiting(self) -> None:
        version = self.snapshot["version"]
        if self.waiting_shown == version:
            return
        self.waiting_shown = version
        self.show_board()
        if self.status == "open":
            self.say("Waiting for every seat to be taken…")
            return
        mover = self.to_move
        if isinstance(mover, int):
            entry = self.seat_list[mover]
            clocks = self.clocks_line()
            self.say(f"Waiting for {self.seat_label(entry)}…" + (f" · {clocks}" if clocks else ""))

    def take_line(self, line: str | None) -> int | None:
        """A line the player typed: a command, an answer, or a move."""
        if line is None:
            self.say("")
            if self.status == "over":
                self.say("End of input.")
            else:
                self.say("End of input: you left the match; your seat is kept: "
                         "run the same command to come back.")
            return 0
        self.prompted = False  # the line typed ends the prompt's line
        text = line.strip()
        if self.confirming is not None:
            asked, self.confirming = self.confirming, None
            if asked == "resign":
                self.answer_resign(text.lower())
            else:
                self.answer_claim(None if asked == "all" else int(asked), text.lower())
            return None
        if not text:
            return None
        word, _, rest = text.partition(" ")
        if word.lower() in (*self.COMMANDS, *self.TABLE_COMMANDS):
            return self.command(word.lower(), rest.strip(), self.seat)
        if self.status != "running" or self.to_move != self.seat:
            self.say(self.not_now())
            return None
        self.read_move(text)
        return None

    def not_now(self) -> str:
        """Why a move cannot be typed now."""
        if self.status == "over":
            return "The game is over: type rematch to offer a rematch, or quit to leave."
        if self.status == "open":
            return "The match has not started: waiting for every seat to be taken."
        if self.seat in self.told_out:
            return "You are out of this game: you may watch it to its end, or type quit to leave."
        mover = self.to_move
        waiting = f": waiting for {self.seat_label(self.seat_list[mover])}" if isinstance(mover, int) else ""
        return f"It is not your turn{waiting}."

    def read_move(self, text: str) -> None:
        typed = self.read_typed(text, self.seat)  # Mille: discard 1; refused in the engine's words
        if typed is not None:
            self.play_move(self.seat, typed[0])

    def play_move(self, seat: int, action: Action) -> int | None:
        """Sends the move; the server's update (or its refusal) is the answer, and lines typed
        meanwhile wait for it."""
        text = self.state.action_to_text(action)
        self.request({"type": "action", "text": text, "version": self.snapshot["version"]}, text)
        return None

    def request(self, message: dict[str, Any], what: str) -> None:
        """Sends ``message`` with an id of its own and waits for its answer before the next line;
        a refusal will say it refuses ``what``."""
        ref = next(self.refs)
        self.asked[ref] = what
        self.pending = Request(ref, what, str(message["type"]))
        self.link.send({**message, "id": ref})

    def finish(self) -> None:
        outcome = self.snapshot["view"]["outcome"]
        if outcome is None or outcome["reason"] not in LEAVING_REASONS:
            # After a resignation or an agreed draw the board is as it was shown, and the position
            # the view gives knows nothing of the end ("White to move"): it is not drawn again.
            self.say("")
            self.say(self.state.render(self.seat))
        self.say("Result: the game is over" if outcome is None else f"Result: {self.result_line(outcome)}")
        self.say("Type rematch to offer a rematch, or quit to leave.")

    def result_line(self, outcome: dict[str, Any]) -> str:
        """Who won, with who played them, why in the game's words, and the scores if any:
        "White (Bob) wins: the other side resigned"."""
        winner = outcome["winner"]
        head = "Draw" if winner is None else f"{self.seat_label(self.seat_list[winner])} wins"
        line = f"{head}: {outcome['words']}"
        if outcome["scores"]:
            scores = zip(self.seat_list, outcome["scores"], strict=False)
            line += " · " + ", ".join(f"{self.seat_label(who)} {score_text(score)}" for who, score in scores)
        return line

    # --- commands ---

    def legal_texts(self) -> list[str]:
        return [str(entry["text"]) for entry in self.snapshot.get("legal", [])]

    def command(self, word: str, argument: str, seat: int) -> int | None:
        if word == "undo":
            self.say("Undo is not available in a match on a server.")
        elif word == "save":
            self.say("The server keeps this match: run the same 'parlour play --join' command to come back.")
        elif word in ("quit", "exit"):
            if self.status == "over":
                self.say("You left the table.")
            else:
                self.say("You left the match; your seat is kept: run the same command to come back.")
            return 0
        elif word == "resign":
            if self.status == "over":
                self.say("The game is over: there is nothing to resign.")
            else:
                self.confirming = "resign"
        elif word == "claim":
            self.ask_claim()
        elif word == "clock":
            live = self.live_clocks()
            self.say(f"Clocks: {live}." if live else "This match has no clock.")
        elif word == "draw":
            self.request({"type": "offer", "what": "draw"}, f"your {self.offer_name('draw')}")
        elif word in ("accept", "decline"):
            self.answer_offer(word)
        elif word == "rematch":
            self.request({"type": "offer", "what": "rematch"}, "your rematch offer")
        elif word == "moves" and not self.legal_texts():
            self.say(self.not_now())
        else:
            return super().command(word, argument, seat)
        return None

    def answer_resign(self, answer: str) -> None:
        if answer not in ("y", "yes"):
            self.say("You play on.")
        elif self.status == "over":
            self.say("The game is over already.")
        else:
            self.request({"type": "resign"}, "your resignation")

    def ask_claim(self) -> None:
        """``claim``: the seat gone long enough, asked about first; when the session cannot tell
        (none or several), every seat gone, and the server's answer says who is not."""
        if self.status != "running":
            self.say("Only a match in play can be claimed.")
            return
        found = self.claimable()
        self.confirming = found[0][0] if len(found) == 1 else "all"

    def claim_question(self) -> str:
        if self.confirming == "all":
            return ("Claim every seat gone too long? With two players you win; with more, "
                    "each such seat leaves the game.")
        seat = int(str(self.confirming))
        away = next((span_text(away) for other, away in self.claimable() if other == seat), "a while")
        if self.in_play() == 2:
            return f"{self.person(seat)} has been away {away}. Claim the win?"
        return f"{self.person(seat)} has been away {away}. Retire the seat?"

    def answer_claim(self, seat: int | None, answer: str) -> None:
        if answer not in ("y", "yes"):
            self.say("You wait.")
            return
        if self.status != "running":
            self.say("The game is over already.")
            return
        message: dict[str, Any] = {"type": "claim"}
        if seat is not None:
            message["seat"] = seat
        self.request(message, "your claim")

    def answer_offer(self, word: str) -> None:
        """``accept`` or ``decline`` the pending offer, draw or rematch: the one waiting for this seat."""
        offer = next((offer for offer in self.offers if self.seat in offer["waiting"]), None)
        if offer is None and self.offers:
            offer = self.offers[0]  # this seat made it or agreed already: the server says so
        if offer is None:
            self.say(f"Nobody is offering a draw or a rematch: there is nothing to {word}.")
            return
        doing = "accepting" if word == "accept" else "declining"
        self.request({"type": word, "what": offer["what"]}, f"{doing} the {self.offer_name(offer['what'])}")

    def help_text(self) -> str:
        players = len(self.seat_list)
        draw = ("propose ending the game here, a draw among those still playing" if players > 2
                else "offer a draw")
        lines = [
            "Commands (at any time, also while others are to move):",
            "  help        this text",
            "  moves       list every legal move (on your turn)",
            "  board       show the board again",
            "  resign      give up this game (you are asked to confirm)",
            f"  draw        {draw}",
            "  accept      say yes to the draw or rematch offered to you",
            "  decline     say no to it (or withdraw your own offer)",
            "  rematch     once the game is over, offer to play again (everyone moves one seat on)",
            "  claim       a player away too long (2 minutes with a clock, 10 without): you win, or",
            "              with 3-4 players their seat leaves the game (you are asked to confirm)",
            "  clock       the clocks now",
            "  quit        leave the match (your seat is kept; the same command brings you back)",
        ]
        examples = self.examples()
        if examples:
            lines += [f"Anything else is read as a move in {self.info.title} notation, for example:",
                      "  " + "   ".join(examples)]
        else:
            lines.append(f"Anything else is read as a move in {self.info.title} notation, on your turn.")
        return "\n".join(lines)


# --- the command -----------------------------------------------------------------------------------


def seat_names(snapshot: dict[str, Any]) -> list[str]:
    """The match's seat names, as the server's ``state`` message gives them."""
    return [str(entry["name"]) for entry in snapshot["seats"]]


def take_seat(link: Link, target: Target, game_name: str | None, seat_text: str | None,
              say: Callable[[str], None]) -> tuple[Game[State], int, dict[str, Any]]:
    """Says hello with the saved token for this match, or watches, then joins a seat."""
    saved = saved_token(target)
    if saved is not None:
        seat, token = saved
        answer = link.ask({"type": "hello", "token": token}, ("state",))
        if answer["type"] == "state":
            game = check_game(answer, game_name)
            if seat_text is None or read_seat_number(seat_names(answer), seat_text) == seat:
                link.token = token
                say(f"Back in your seat ({seat_names(answer)[seat]}).")
                return game, seat, answer
            link.close()
            link.open()
    watched = link.ask({"type": "hello", "spectator": True}, ("state",))
    if watched["type"] == "error":
        raise JoinError(str(watched.get("message")))
    game = check_game(watched, game_name)
    wanted = None if seat_text is None else read_seat_number(seat_names(watched), seat_text)
    joined = link.ask({"type": "join", "seat": wanted, "name": user_name()}, ("joined",))
    if joined["type"] == "error":
        raise JoinError(str(joined.get("message")))
    seat, token = joined["seat"], joined["token"]
    link.token = token
    save_token(target, seat, token)
    state = link.expect(("state",), "join")
    say(f"You took seat {seat} ({seat_names(watched)[seat]}); the same command brings you back to it.")
    return game, seat, state


def check_game(snapshot: dict[str, Any], game_name: str | None) -> Game[State]:
    try:
        game = get_game(snapshot["view"]["game"])
    except ParlourError as error:
        raise JoinError(f"the server plays a game this parlour does not know: {error}") from None
    if game_name is not None and game_name != game.info.name:
        raise JoinError(f"that match is a game of {game.info.title}, not {game_name}")
    return game


def user_name() -> str | None:
    with contextlib.suppress(Exception):
        return getpass.getuser()[:40]
    return None


def read_join(argv: Sequence[str]) -> tuple[Target, str | None, str | None]:
    args = build_parser().parse_args(list(argv))
    if args.load is not None or args.players is not None or args.option:
        raise UsageError("--join plays the server's match: --load, --players and --option do not apply")
    if len(args.seat) > 1:
        raise UsageError("--join takes one seat: --seat N (or the seat's name)")
    seat_text = None
    if args.seat:
        seat_text, _, who = args.seat[0].partition("=")
        if who and who.strip().lower() != "human":
            raise UsageError("with --join, --seat names your own seat: --seat N")
        seat_text = seat_text.strip()
    return read_target(args.join), args.game, seat_text


def main(argv: Sequence[str]) -> int:
    try:
        target, game_name, seat_text = read_join(argv)
    except _HelpShown as shown:
        return shown.status
    except UsageError as error:
        print(f"parlour play: {error}\nTry 'parlour play --help'.", file=sys.stderr)
        return 2
    link = Link(target, _say)
    inbox: queue.Queue[Event] = queue.Queue()
    try:
        link.open()
        game, seat, first = take_seat(link, target, game_name, seat_text, _say)
        if not build_parser().parse_args(list(argv)).text and sys.stdin.isatty() and sys.stdout.isatty():
            from parlour.tui.board.remote import run_remote_board  # the board (issue 18); None: none here

            status = run_remote_board(game, link, seat, first, inbox)
            if status is not None:
                return status
        start_typing(inbox)
        while True:
            session = RemoteSession(game, link, seat, first, inbox, say=_say, prompt=_prompt,
                                    complain=_complain)
            done = session.run()
            if not isinstance(done, Moved):
                return done
            link, seat, first = done.link, done.seat, done.first
    except (JoinError, UsageError) as error:
        print(f"parlour play: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nInterrupted: your seat is kept; the same command brings you back.")
        return 130
    finally:
        link.close()


def _say(text: str) -> None:
    # Flushed: news comes while the player reads, not only when a prompt is written.
    print(text, flush=True)


def _prompt(text: str) -> None:
    print(text, end="", flush=True)


def _complain(text: str) -> None:
    print(text, file=sys.stderr)
