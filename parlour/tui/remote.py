"""``parlour play --join URL``: a seat of a match on a parlour server, at the terminal.

The same text front end as local play (``Session``): the board is drawn by the game's own
``render`` from a state rebuilt out of the seat's view, moves are read and checked in the game's
notation, then sent to the server, which has the last word. The protocol is
``docs/protocol.md``; the seat's token is kept in the user's data directory, so running the
same command again takes the same seat back (with the moves missed meanwhile).
"""

from __future__ import annotations

import contextlib
import getpass
import json
import random
import socket
import sys
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import platformdirs
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from parlour.engine import Action, Game, ParlourError, State
from parlour.games import get_game
from parlour.tui.files import write_atomically
from parlour.tui.play import (
    Session,
    UsageError,
    _HelpShown,
    build_parser,
    describe_outcome,
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


class Link:
    """The WebSocket to the match; after a drop it reconnects and says hello with the token."""

    def __init__(self, target: Target, say: Callable[[str], None]) -> None:
        self.target = target
        self.say = say
        self.socket: ClientConnection | None = None
        self.token: str | None = None

    def open(self) -> None:
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
        try:
            assert self.socket is not None
            self.socket.send(json.dumps(message))
        except ConnectionClosed:
            self.reconnect()
            if message.get("type") == "action":
                return
            assert self.socket is not None
            self.socket.send(json.dumps(message))

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message from the server (``TimeoutError`` after ``timeout`` seconds)."""
        while True:
            try:
                assert self.socket is not None
                frame = self.socket.recv(timeout)
            except ConnectionClosed:
                self.reconnect()
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

    def reconnect(self) -> None:
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
        if self.socket is not None:
            with contextlib.suppress(Exception):
                self.socket.close()


# --- the session -----------------------------------------------------------------------------------


class RemoteSession(Session):
    """``Session`` with the match kept by the server: moves go out, events come in."""

    COMMANDS = ("help", "moves", "board", "undo", "save", "quit", "exit")

    def __init__(
        self,
        game: Game[State],
        link: Link,
        seat: int,
        first: dict[str, Any],
        ask: Callable[[str], str],
        say: Callable[[str], None],
        complain: Callable[[str], None],
    ) -> None:
        # Not Session.__init__: there are no local bots and no local state to start from.
        self.game = game
        self.info = game.info
        self.link = link
        self.seat = seat
        self.ask = ask
        self.say = say
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
        self.waiting_shown: int | None = None
        self.absorb(first)
        self.seats = ["human"] * len(self.seat_list)

    # --- what the server says ---

    def absorb(self, snapshot: dict[str, Any]) -> None:
        """Takes a ``state`` or ``update``: the seat's picture of the match, rebuilt from its view
        (``Game.sample_state``: the position from the view's content, hidden parts sampled)."""
        self.snapshot = snapshot
        self.state = self.game.sample_state(snapshot["view"], self.rng)

    @property
    def to_move(self) -> int | str | None:
        mover: int | str | None = self.snapshot["view"]["to_move"]
        return mover

    def hear(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "state":
            was, version = self.snapshot.get("status"), self.snapshot.get("version", 0)
            self.absorb(message)
            self.seat_list = message["seats"]
            for event in message["events"][version:]:  # those after the last version seen
                self.tell_event(event)
            if was == "open" and message["status"] == "running":
                self.say("Every seat is taken: the match starts.")
            self.board_shown = False
        elif kind == "update":
            self.absorb(message)
            self.tell_event(message["event"])
            self.board_shown = False
        elif kind == "seats":
            self.tell_seats(message["seats"])
            self.seat_list = message["seats"]
            self.snapshot = {**self.snapshot, "status": message["status"]}
        elif kind == "error":
            self.say(f"Server: {message.get('message')}")

    def tell_event(self, event: dict[str, Any]) -> None:
        if event["seat"] == "chance":
            if event["action"] is not None:
                self.say(f"Chance: {event['action']}")
            return
        name = self.state.seat_names()[event["seat"]]
        self.say(f"{name} plays {event['action']}" if event["action"] is not None else f"{name} has played")

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
        name = self.state.seat_names()[entry["seat"]]
        if entry.get("kind") == "bot":
            return f"{name} (bot:{entry['bot']})"
        return f"{name} ({entry['player']})" if entry.get("player") else name

    # --- the loop ---

    def run(self) -> int:
        self.say(self.introduction())
        self.tell_since_last_turn()
        while True:
            if self.snapshot["status"] == "over":
                self.finish()
                return 0
            if self.snapshot["status"] == "running" and self.to_move == self.seat:
                self.waiting_shown = None
                done = self.human_turn(self.seat)
                if done is not None:
                    return done
            else:
                self.show_waiting()
                self.hear(self.link.receive())

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
        if not self.board_shown:
            self.say("")
            self.say(self.state.render(self.seat))
            self.board_shown = True
        if self.snapshot["status"] == "open":
            self.say("Waiting for every seat to be taken…")
            return
        mover = self.to_move
        if isinstance(mover, int):
            entry = self.seat_list[mover]
            self.say(f"Waiting for {self.seat_label(entry)}…")

    def play_move(self, seat: int, action: Action) -> int | None:
        """Sends the move; the server's update (or its refusal) is the answer."""
        text = self.state.action_to_text(action)
        version = self.snapshot["version"]
        self.link.send({"type": "action", "text": text, "version": version})
        while self.snapshot["version"] == version:
            message = self.link.receive()
            if message.get("type") == "error":
                self.say(f"The server refused {text}: {message.get('message')}")
                return None
            self.hear(message)
            if message.get("type") == "state" and self.snapshot["version"] == version:
                self.say(f"The connection was lost before {text} reached the server: play it again.")
                return None
        return None

    def finish(self) -> None:
        self.say("")
        self.say(self.state.render(self.seat))
        outcome = self.snapshot["view"]["outcome"]
        if outcome is None:
            self.say("Result: the game is over")
        else:
            self.say(describe_outcome(self.snapshot["view"]["seats"], outcome))

    # --- commands ---

    def legal_texts(self) -> list[str]:
        return [str(entry["text"]) for entry in self.snapshot.get("legal", [])]

    def command(self, word: str, argument: str, seat: int) -> int | None:
        if word == "undo":
            self.say("Undo is not available in a match on a server.")
        elif word == "save":
            self.say("The server keeps this match: run the same 'parlour play --join' command to come back.")
        elif word in ("quit", "exit"):
            self.say("You left the match; your seat is kept: run the same command to come back.")
            return 0
        else:
            return super().command(word, argument, seat)
        return None

    def help_text(self) -> str:
        lines = [
            "Commands:",
            "  help        this text",
            "  moves       list every legal move",
            "  board       show the board again",
            "  quit        leave the match (your seat is kept; the same command brings you back)",
            f"Anything else is read as a move in {self.info.title} notation, for example:",
            "  " + "   ".join(self.examples()),
        ]
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
    link = Link(target, print)
    try:
        link.open()
        game, seat, first = take_seat(link, target, game_name, seat_text, print)
        session = RemoteSession(game, link, seat, first, ask=input, say=print, complain=_complain)
        return session.run()
    except (JoinError, UsageError) as error:
        print(f"parlour play: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nInterrupted: your seat is kept; the same command brings you back.")
        return 130
    finally:
        link.close()


def _complain(text: str) -> None:
    print(text, file=sys.stderr)
