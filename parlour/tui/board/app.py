"""The board in a terminal: the game's squares on the left, the seats, the state of play and a
log of what happened on the right, the keys along the bottom.

Generic over the engine contract: a person picks one of ``state.legal_actions()`` by its parts
(``picking``), the game's module here only draws (``drawing``). Bots think in a worker thread,
so the screen never freezes; a hint is the strongest bot's choice at a short budget.
"""

from __future__ import annotations

import contextlib
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from parlour.bots import bot_kinds, make_bot
from parlour.engine import CHANCE, Action, IllegalActionError, JSONDict, NotationError, State
from parlour.engine.player import seen_by
from parlour.tui.board.dialogs import Ask, AskName, RulesScreen
from parlour.tui.board.drawing import Drawing
from parlour.tui.board.picking import Group, Option, Picker
from parlour.tui.board.table import Seating, Table
from parlour.tui.board.widgets import BoardView, Choices, Frame, Log
from parlour.tui.play import Settings, default_bot

WIDTH, HEIGHT = 80, 24
"""The smallest terminal the board is drawn in (as ``parlour mille`` needs)."""
SIDE = 30
"""Columns the side panel keeps at least."""
HINT_SECONDS = 0.5
KEYS = "arrows/mouse Enter:pick Esc:back 1-9:choose ?:rules h:hint u:undo s:save q:quit"


class BoardApp(App[int], inherit_bindings=False):
    """``parlour play GAME`` in a terminal: the board of a local match."""

    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; overflow: hidden; }
    #body { height: 1fr; }
    #side { width: 1fr; padding-left: 2; }
    #seats, #status, #prompt { height: auto; }
    #keys { height: 1; color: $text-muted; }
    #small { display: none; height: 1fr; content-align: center middle; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(0,-1)", show=False),
        Binding("down", "cursor(0,1)", show=False),
        Binding("left", "cursor(-1,0)", show=False),
        Binding("right", "cursor(1,0)", show=False),
        Binding("enter,space", "pick", show=False),
        Binding("escape", "drop", show=False),
        *(Binding(str(n), f"choose({n})", show=False) for n in range(1, 10)),
        Binding("0", "choose(10)", show=False),
        Binding("question_mark", "rules", show=False),
        Binding("h", "hint", show=False),
        Binding("u", "take_back", show=False),
        Binding("s", "save", show=False),
        Binding("q", "leave", show=False),
        Binding("ctrl+c,ctrl+d", "leave", show=False, priority=True),  # asked, never at once
    ]

    def __init__(self, settings: Settings, drawing: Drawing, keep: bool = False) -> None:
        """``keep``: the game in progress is kept for ``parlour play --resume`` after every move."""
        super().__init__()
        self.drawing = drawing
        self.table: Seating = Table(settings, drawing, keep)
        self.view: JSONDict = self.table.view()
        self.picker = Picker([])
        self.cursor = drawing.first_square(self.view)
        self.hint: Option | None = None
        self.thinking = False
        """A bot or the hint is being searched in a worker."""
        self.told = ""
        """The line under the seats: what to do now, or why a key did nothing."""
        self.marks: dict[str, set[str]] = {}
        self.finished = False
        self.complaint = ""
        """Said on the terminal once the board is closed (a bug in a bot)."""
        self.board = BoardView(self)
        self.choices = Choices(self)
        self.log_view = Log()

    @property
    def state(self) -> State:
        return self.table.state

    def compose(self) -> ComposeResult:
        with Frame(self):
            with Horizontal(id="body"):
                yield self.board
                with Vertical(id="side"):
                    yield Static(id="seats")
                    yield Static(id="status")
                    yield Static(id="prompt")
                    yield self.choices
                    yield self.log_view
            yield Static(id="small")
            yield Static(KEYS, id="keys")

    def on_mount(self) -> None:
        self.start()

    def start(self) -> None:
        """The match begins on the screen: who plays, then the first turn."""
        names = self.table.names()
        seats = ", ".join(f"{names[seat]}: {self.table.who(seat)}" for seat in range(len(names)))
        self.log_view.add(f"{self.drawing.title or self.table.info.title}. {seats}.")
        replacing = self.table.replacing()
        if replacing:
            self.log_view.add(replacing)
        self.advance()
        self.fit()

    def too_small(self) -> bool:
        return self.size.width < WIDTH or self.size.height < HEIGHT

    def fit(self) -> None:
        """The board as wide as it wants, leaving the side panel room; the message instead of
        both when the terminal is too small."""
        small = self.too_small()
        self.query_one("#body").display = not small
        self.query_one("#keys").display = not small
        note = self.query_one("#small", Static)
        note.display = small
        note.update(f"The board needs a terminal of at least {WIDTH}×{HEIGHT}; this one is "
                    f"{self.size.width}×{self.size.height}. Make it bigger, or press q to leave.")
        room = (max(10, self.size.width - SIDE), self.size.height - 1)
        big = self.board.natural_size(2)
        self.board.zoom = 2 if big[0] <= room[0] and big[1] <= room[1] else 1
        self.board.styles.width = min(self.board.natural_size(self.board.zoom)[0], room[0])
        self.refresh_all()

    # --- the flow of the game ---

    def advance(self) -> None:
        """Chance, then a bot's move (in a worker) or a person's turn, or the end."""
        table = self.table
        while table.local and table.mover() == CHANCE:  # dice and deals come from the match seed
            for line in table.resolve_chance():
                self.log_view.add(line)
        trouble = table.kept()
        if trouble:
            self.log_view.add(trouble)
        self.view = table.view()
        self.picker = Picker([])
        if self.state.is_over():
            self.log_view.add(table.outcome_text())
            self.told = "The game is over: q leaves, u takes back."
        elif table.bot_to_move():
            self.start_bot(table.mover())
        else:
            self.picker = Picker(table.options())
            self.told = self.what_now()
            if self.cursor not in self.picker.starts() and self.picker.starts():
                self.cursor = min(self.picker.starts(), key=lambda s: self.distance(s))
        self.refresh_all()

    def distance(self, square: str) -> int:
        x, y = self.drawing.place(self.view, square)
        cx, cy = self.drawing.place(self.view, self.cursor)
        return abs(x - cx) + abs(y - cy)

    def start_bot(self, seat: int) -> None:
        self.thinking = True
        task = self.table.bot_task(seat)
        plies = len(self.state.history)
        self.told = f"{self.table.names()[seat]} is thinking…"

        def think() -> None:
            action = task()
            with contextlib.suppress(RuntimeError):  # the board was closed while the bot thought
                self.call_from_thread(self.bot_moved, seat, plies, action)

        self.run_worker(think, thread=True, group="bot", exit_on_error=True)

    def bot_moved(self, seat: int, plies: int, action: Action) -> None:
        self.thinking = False
        if self.finished or len(self.state.history) != plies:
            return
        if not self.state.is_legal(action):
            who = f"{self.table.who(seat)} in seat {seat}"
            self.complaint = (f"parlour play: {who} chose an illegal action ({action}); "
                              "this is a bug in the bot")
            self.exit(1)
            return
        self.played(seat, action)

    def played(self, seat: int, action: Action) -> None:
        self.hint = None
        for line in self.table.play(seat, action):
            self.log_view.add(line)
        self.advance()

    def what_now(self) -> str:
        name = self.table.names()[self.table.mover()]
        if self.picker.picked:
            if self.picker.groups():
                return f"{name}: pick where it goes (marked •), or which piece by number."
            if self.picker.targets():
                return f"{name}: pick where it goes (marked •), Esc to drop it."
            return f"{name}: choose by number."
        if self.picker.starts():
            return f"{name} to move: pick a piece (arrows and Enter, or the mouse)."
        return f"{name} to move: choose by number."

    # --- what is drawn ---

    def refresh_all(self) -> None:
        self.view = self.table.view()
        self.marks = self.compute_marks()
        self.query_one("#seats", Static).update(self.seats_text())
        status = Text("\n").join(self.drawing.status(self.view) + self.last_line())
        self.query_one("#status", Static).update(status)
        self.query_one("#prompt", Static).update(self.told)
        self.choices.show(self.choice_lines())
        self.board.refresh()
        self.log_view.refresh()

    def compute_marks(self) -> dict[str, set[str]]:
        marks: dict[str, set[str]] = {}

        def add(square: str, mark: str) -> None:
            marks.setdefault(square, set()).add(mark)

        for square in self.drawing.last_move(self.view):
            add(square, "last")
        for square in self.drawing.taken(self.view):
            add(square, "taken")
        if not self.picker.picked and self.ready():
            for square in self.picker.starts():
                add(square, "start")
        for square in self.picker.picked:
            add(square, "picked")
        for square in self.picker.targets():
            add(square, "target")
        if self.hint is not None:
            for square in self.hint.route:
                add(square, "hint")
        for square in self.walk_shown():
            add(square, "path")
        return marks

    def walk_shown(self) -> list[str]:
        """The squares a move walks on its way, for the destination under the cursor (or the
        single action the picked squares leave)."""
        picker = self.picker
        if not picker.picked:
            return []
        ending = [o for o in picker.options if o.route[: len(picker.picked)] == tuple(picker.picked)
                  and o.route and o.route[-1] == self.cursor]
        if not ending:
            return []
        path = ending[0].parts.get("path")
        return [square for square in path if isinstance(square, str)] if isinstance(path, list) else []

    def seats_text(self) -> Text:
        text = Text()
        mover = self.table.mover()
        for seat, name in enumerate(self.table.names()):
            if seat:
                text.append("\n")
            text.append("▶ " if seat == mover else "  ")
            mark = self.drawing.seat_mark(seat, self.view)
            text.append(f"{name}{' ' + mark if mark else ''}", self.drawing.seat_style(seat, self.view))
            out = self.view.get("out", [None] * (seat + 1))[seat]
            text.append(f"  {self.table.who(seat)}" + (f" (out: {out})" if out else ""))
        return text

    def last_line(self) -> list[Text]:
        lines = []
        if self.table.last:
            lines.append(Text(f"Last: {self.table.last}"))
        if self.hint is not None:
            lines.append(Text(f"Hint: {self.hint.text}", style="bold"))
        return lines

    def choice_lines(self) -> list[str]:
        if not self.table.human_to_move() or self.thinking:
            return []
        listed = self.picker.choices()[:10]  # 1 to 9, then 0
        return [f"{n % 10}  {self.choice_label(choice)}" for n, choice in enumerate(listed, 1)]

    def choice_label(self, choice: Option | Group) -> str:
        if isinstance(choice, Group):
            return f"{choice.label}: only its moves"
        return self.drawing.label(choice.text, choice.parts)

    def screen_lines(self) -> list[str]:
        """The screen as text, trailing spaces removed (for tests and snapshots)."""
        strips = self.screen._compositor.render_strips()
        return [strip.text.rstrip() for strip in strips]

    # --- keys ---

    def ready(self) -> bool:
        """A person may pick now: it is a person's turn and nothing is being searched."""
        return not self.too_small() and self.table.human_to_move() and not self.thinking

    def action_cursor(self, dx: int, dy: int) -> None:
        if self.too_small():
            return
        columns, rows = self.drawing.grid(self.view)
        x, y = self.drawing.place(self.view, self.cursor)
        for _ in range(max(columns, rows)):
            x, y = x + dx, y + dy
            if not (0 <= x < columns and 0 <= y < rows):
                return
            square = self.drawing.square(self.view, x, y)
            if square is not None:
                self.cursor = square
                self.refresh_all()
                return

    def action_pick(self) -> None:
        if not self.ready():
            return
        picker, square = self.picker, self.cursor
        before, starts, targets = list(picker.picked), picker.starts(), picker.targets()
        chosen = picker.pick(square)
        if chosen is not None:
            self.decided(chosen)
            return
        self.told = self.what_now()
        if before and square not in targets | starts and square != before[-1]:
            self.told = self.refused([*before, square])
        elif not before and square not in starts:
            self.told = f"Nothing of yours moves from {square}: the pieces that can move are underlined."
        self.refresh_all()

    def refused(self, squares: list[str]) -> str:
        """Why the squares picked are no legal move, in the engine's words when it has them."""
        text = self.drawing.move_text(self.view, squares)
        if text is not None:
            try:
                self.state.parse_action(text)
            except IllegalActionError as error:
                return f"Not {text}: {error.reason}."
            except NotationError:
                pass
        return f"{squares[-2]} cannot go to {squares[-1]}: the squares marked • are where it may go."

    def decided(self, chosen: Option) -> None:
        """A person's action, played at once or after the warning the game gives for it."""
        seat = self.table.mover()
        warning = self.drawing.warning(self.view, chosen.parts)
        if warning is None:
            self.played(seat, chosen.action)
            return

        def answered(answer: str | None) -> None:
            if answer == "y" and self.table.mover() == seat and self.state.is_legal(chosen.action):
                self.played(seat, chosen.action)
            else:
                self.refresh_all()

        self.push_screen(Ask(f"{warning}\ny: play {chosen.text}   Esc: do not", ("y",)), answered)

    def action_drop(self) -> None:
        if self.ready():
            self.picker.back()
            self.told = self.what_now()
            self.refresh_all()

    def action_choose(self, number: int) -> None:
        if not self.ready():
            return
        chosen = self.picker.choose(number)
        if chosen is not None:
            self.decided(chosen)
            return
        self.told = self.what_now()
        self.refresh_all()

    def action_rules(self) -> None:
        self.push_screen(RulesScreen(self.table.info.name, self.table.info.title))

    def action_hint(self) -> None:
        if not self.ready():
            return
        info = self.table.info
        kind = default_bot(self.state.game, list(bot_kinds(info.name)))
        seat = self.table.mover()
        bot = make_bot(info.name, kind, len(self.state.history))
        position = seen_by(self.state, seat, bot.rng)
        plies = len(self.state.history)
        self.thinking = True
        self.told = "Looking for a hint…"
        self.refresh_all()

        def think() -> None:
            action = bot.choose(position, HINT_SECONDS)
            with contextlib.suppress(RuntimeError):  # the board was closed meanwhile
                self.call_from_thread(self.hint_found, plies, action)

        self.run_worker(think, thread=True, group="hint", exit_on_error=True)

    def hint_found(self, plies: int, action: Action) -> None:
        self.thinking = False
        if len(self.state.history) == plies:
            self.hint = next((o for o in self.picker.options if o.action == action), None)
            if self.hint is not None:
                self.log_view.add(f"Hint: {self.hint.text}")
        self.told = self.what_now()
        self.refresh_all()

    def action_take_back(self) -> None:
        if self.thinking or self.too_small():
            self.told = "Wait for the bot to move, then take back."
            self.refresh_all()
            return
        self.hint = None
        self.log_view.add(self.table.take_back())
        self.advance()

    def action_save(self, then_leave: bool = False) -> None:
        def saved(path: str | None) -> None:
            if path:
                try:
                    self.table.save(path)
                except OSError as error:
                    self.log_view.add(f"Could not save to {path}: {error.strerror or error} "
                                      "(any earlier file there is unchanged).")
                    self.refresh_all()
                    return
                self.log_view.add(f"Saved to {path}. Resume with: parlour play --load {path}")
                if then_leave:
                    self.table.forget()  # saved by name: nothing else to resume (as the line interface)
                    self.leave()
            self.refresh_all()

        self.push_screen(AskName("Save the game to the file:"), saved)

    def action_leave(self) -> None:
        """q, Ctrl-C or Ctrl-D: with moves not saved, asks whether to save them first."""
        if len(self.screen_stack) > 1:  # a question or the rules are open: they answer first
            return
        lost = self.table.unsaved()
        if not lost:
            self.table.forget()
            self.leave()
            return

        def answered(answer: str | None) -> None:
            if answer == "y":
                self.action_save(then_leave=True)
            elif answer == "n":
                self.table.forget()
                self.leave()

        moves = f"{lost} {'move' if lost == 1 else 'moves'} not saved"
        question = (f"Save the game before leaving ({moves})?\n"
                    "y: save it   n: leave without saving   Esc: back to the game")
        self.push_screen(Ask(question, ("y", "n")), answered)

    def leave(self) -> None:
        self.finished = True
        self.exit(0)
