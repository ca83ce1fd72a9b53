"""``parlour play GAME --join URL`` on the board: a seat of a server's match.

The protocol is the line interface's own (``parlour.tui.remote.RemoteSession``), run in a worker
thread: the board puts what the person does into the session's inbox as the line they would have
typed (a move in the game's notation, ``resign``, ``draw``, ``y``), and shows what the session
says in its log. The match, the clocks and every decision stay the server's.
"""

from __future__ import annotations

import queue
import random
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from parlour.engine import NOBODY, Action, Game, JSONDict, State
from parlour.tui.board.app import BoardApp
from parlour.tui.board.dialogs import Ask
from parlour.tui.board.drawing import Drawing, drawing_for
from parlour.tui.board.picking import Picker
from parlour.tui.board.table import Seating
from parlour.tui.play import HUMAN, Settings
from parlour.tui.remote import Event, JoinError, Link, Moved, RemoteSession, Typed

KEY_WORDS = (
    ("type accept or decline", "press a to accept, x to decline"),
    ("type claim", "press c"),
    ("type rematch", "press m"),
    ("or type quit to leave", "or press q to leave"),
    ("or quit to leave", "or q to leave"),
    ("Type 'help' for commands.", "The keys are on the bottom line; ? shows the rules."),
)
"""The session's words for typed commands, as the board's keys say them."""
REMOTE_KEYS = "arrows Enter:pick 1-9 ?:rules h:hint d:draw a/x:accept/decline r:resign q:quit"


class BoardSession(RemoteSession):
    """The session with its words in the board's log and the board drawn by the board."""

    def __init__(self, board: RemoteBoardApp, game: Game[State], link: Link, seat: int,
                 first: dict[str, Any], inbox: queue.Queue[Event]) -> None:
        super().__init__(game, link, seat, first, inbox, say=board.heard_words, prompt=board.heard_prompt,
                         complain=board.heard_words)
        self.board = board

    def show_board(self) -> None:
        """The board is always on the screen."""

    def show_due(self) -> None:
        super().show_due()
        self.board.heard_news(self)

    def finish(self) -> None:
        outcome = self.snapshot["view"]["outcome"]
        self.say("Result: the game is over" if outcome is None else f"Result: {self.result_line(outcome)}")
        self.say("Press m to offer a rematch, or q to leave.")


class RemoteTable(Seating):
    """The server's match as the seat sees it: the session's last picture of it."""

    local = False

    def __init__(self, game: Game[State], drawing: Drawing, seat: int, session: BoardSession) -> None:
        self.info = game.info
        self.drawing = drawing
        self.seat = seat
        self.session = session
        self.state = session.state

    def mover(self) -> int:
        mover = self.session.to_move
        if self.session.status == "over" or mover is None:
            return NOBODY
        return mover if isinstance(mover, int) else NOBODY

    def human_to_move(self) -> bool:
        session = self.session
        return (session.status == "running" and session.to_move == self.seat and session.pending is None
                and self.seat not in session.told_out and session.confirming is None)

    def viewer(self) -> int | None:
        return self.seat

    def view(self) -> JSONDict:
        view: JSONDict = self.session.snapshot["view"]
        return view

    def who(self, seat: int) -> str:
        if seat == self.seat:
            return "you"
        entry = self.session.seat_list[seat]
        if entry.get("kind") == "bot":
            return f"bot:{entry['bot']}"
        return str(entry.get("player") or entry.get("kind") or "")

    def play(self, seat: int, action: Action) -> list[str]:
        """Sends the move as the line that plays it; the server's answer comes as news."""
        self.session.inbox.put(Typed(self.state.action_to_text(action)))
        return []

    def take_back(self) -> str:
        return "Take-back is not available in a match on a server."


class RemoteBoardApp(BoardApp):
    """The board of a seat of a server's match."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *BoardApp.BINDINGS,
        Binding("d", "line('draw')", show=False),
        Binding("a", "line('accept')", show=False),
        Binding("x", "line('decline')", show=False),
        Binding("r", "line('resign')", show=False),
        Binding("m", "line('rematch')", show=False),
        Binding("c", "line('claim')", show=False),
    ]

    def __init__(self, game: Game[State], drawing: Drawing, link: Link, seat: int, first: dict[str, Any],
                 inbox: queue.Queue[Event]) -> None:
        self.inbox = inbox
        self.session = BoardSession(self, game, link, seat, first, inbox)
        self.remote = RemoteTable(game, drawing, seat, self.session)
        self.exit_status = 0
        self.failure: str | None = None
        self.asking = False
        self.version = self.session.snapshot.get("version", 0)
        """The match's version last shown: what happened since is narrated."""
        super().__init__(self.settings_of(game, first), drawing)
        self.table = self.remote
        self.view = self.remote.view()
        self.cursor = drawing.first_square(self.view)

    @staticmethod
    def settings_of(game: Game[State], first: dict[str, Any]) -> Settings:
        """Settings for the board's own start: no bots here, every other seat is the server's."""
        state = game.sample_state(first["view"], random.Random(0))
        return Settings(game, state, [HUMAN] * state.players, 0, 1.0)

    # --- the session's thread ---

    def start(self) -> None:
        """The session introduces the match and says whose turn it is; it runs in a worker."""
        self.query_one("#keys", Static).update(REMOTE_KEYS)
        self.run_worker(self.follow_match, thread=True, group="session", exit_on_error=False)
        self.set_interval(1.0, self.tick)
        self.fit()

    def follow_match(self) -> None:
        """The session's loop, then the rematch's, until the person leaves or the link is lost."""
        session = self.session
        try:
            while True:
                done = session.run()
                if not isinstance(done, Moved):
                    self.exit_status = done
                    break
                session = BoardSession(self, self.state.game, done.link, done.seat, done.first, self.inbox)
                self.call_from_thread(self.moved_on, session)
        except JoinError as error:
            self.failure = str(error)
            self.exit_status = 1
        self.call_from_thread(self.exit, self.exit_status)

    def heard_words(self, text: str) -> None:
        if text.strip():
            for typed, key in KEY_WORDS:
                text = text.replace(typed, key)
            self.call_from_thread(self.log_view.add, text)

    def heard_prompt(self, text: str) -> None:
        """The session asks something (resign? claim?) or waits for a move."""

    def heard_news(self, session: BoardSession) -> None:
        self.call_from_thread(self.absorb_news, session)

    def moved_on(self, session: BoardSession) -> None:
        self.session = session
        self.remote.session = session
        self.remote.seat = session.seat

    # --- the screen's thread ---

    def absorb_news(self, session: BoardSession) -> None:
        self.remote.state = session.state
        version = session.snapshot.get("version", 0)
        if version != self.version:
            self.version = version
            for line in self.drawing.narrate(session.snapshot["view"]):
                self.log_view.add(line)
            self.remote.last = self.last_event(session)
        if session.confirming is not None and not self.asking:
            self.ask_confirmation(session)
        self.advance()

    @staticmethod
    def last_event(session: BoardSession) -> str:
        """The last decision, in words: ``White a3-d3``."""
        events = session.snapshot.get("events") or []
        event = session.snapshot.get("event") or (events[-1] if events else None)
        if not isinstance(event, dict) or not isinstance(event.get("seat"), int) or not event.get("action"):
            return ""
        return f"{session.state.seat_names()[event['seat']]} {event['action']}"

    def ask_confirmation(self, session: BoardSession) -> None:
        question = ("Resign this game?" if session.confirming == "resign" else session.claim_question())
        self.asking = True

        def answered(answer: str | None) -> None:
            self.asking = False
            self.inbox.put(Typed("y" if answer == "y" else "n"))

        self.push_screen(Ask(f"{question}\ny: yes   n or Esc: no", ("y", "n")), answered)

    def advance(self) -> None:
        table = self.remote
        self.view = table.view()
        self.picker = Picker(table.options() if table.human_to_move() else [])
        if table.human_to_move():
            self.told = self.what_now()
        elif self.session.status == "over":
            self.told = "The game is over: m offers a rematch, q leaves."
        elif self.session.status == "open":
            self.told = "Waiting for every seat to be taken…"
        elif self.session.pending is not None:
            self.told = f"Sent: {self.session.pending.what}…"
        else:
            mover = table.mover()
            self.told = f"Waiting for {self.table.names()[mover]}…" if mover >= 0 else ""
        self.refresh_all()

    def last_line(self) -> list[Text]:
        lines = super().last_line()
        clocks = self.session.live_clocks() if self.session.snapshot else ""
        return [Text(f"Clocks: {clocks}"), *lines] if clocks else lines

    def tick(self) -> None:
        if self.session.snapshot.get("clock"):
            self.refresh_all()

    def played(self, seat: int, action: Action) -> None:
        self.hint = None
        self.table.play(seat, action)
        self.picker = Picker([])
        self.told = f"Sent: {self.state.action_to_text(action)}…"
        self.refresh_all()

    def action_line(self, line: str) -> None:
        """A table command, as the line interface's word for it."""
        self.inbox.put(Typed(line))

    def action_save(self, then_leave: bool = False) -> None:
        self.log_view.add("The server keeps this match: the same --join command brings you back.")

    def action_leave(self) -> None:
        self.inbox.put(Typed("quit"))

    def action_take_back(self) -> None:
        self.log_view.add(self.table.take_back())


def run_remote_board(game: Game[State], link: Link, seat: int, first: dict[str, Any],
                     inbox: queue.Queue[Event]) -> int | None:
    """Plays the seat on the board; ``None`` when the game has no board here."""
    drawing = drawing_for(game)
    if drawing is None:
        return None
    app = RemoteBoardApp(game, drawing, link, seat, first, inbox)
    app.run()
    if app.failure:
        raise JoinError(app.failure)
    return app.exit_status
