"""The classic program as a Textual app (MIL-80 to MIL-95): you, seat 0, against Comp.

The screen is drawn from ``view(0)`` only (``screen.draw``). Keys are read one character at a
time (``keys.normalise``) and go to whatever the prompt of row 10 is waiting for: a command at
``>>:Move:``, a slot after ``U`` or ``D``, a yes or no at a question, a file name at ``file:``.
Comp's decisions are searched in a worker thread; keys typed meanwhile wait their turn, as they
would in a terminal's type-ahead buffer.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Final, Literal

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.strip import Strip
from textual.widget import Widget

from parlour.engine import CHANCE, ParlourError
from parlour.games.mille import OVER, MilleState
from parlour.games.mille.cards import SLOT_NAMES
from parlour.games.mille.position import EXTENSION
from parlour.tui.mille import screen
from parlour.tui.mille.keys import (
    BACKSPACE,
    CTRL_L,
    CTRL_U,
    ENDS,
    INTERRUPTS,
    NEWLINE,
    NUL,
    RETURN,
    normalise,
    printable,
    shown,
)
from parlour.tui.mille.match import COMP, YOU, Match
from parlour.tui.mille.savefile import write_save

SLOT_KEYS: Final = {"p": 0, "0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}
"""MIL-88: ``P`` or ``0`` for slot P, ``1``–``6`` for the others."""
REALLY: Final = "Really?"


# --- what row 10 is waiting for ----------------------------------------------------------------------


@dataclass
class Move:
    """``>>:Move:``, with ``U`` or ``D`` and then a slot typed after it (MIL-87, MIL-88)."""

    command: str = ""
    slot: int | None = None


@dataclass
class Question:
    """A one-key question (MIL-90). ``s_key`` is what ``S`` does there: run the save dialogue
    and ask again, mean yes (``Save game?``), or nothing (inside the save dialogue, D-10)."""

    text: str
    yes: Callable[[], None]
    no: Callable[[], None]
    s_key: Literal["save", "yes", "invalid"] = "save"
    end_of_hand: bool = False
    shown: str = ""


@dataclass
class FileName:
    """``file:`` and the name typed so far (MIL-92 step 2)."""

    done: Callable[[str], None]
    name: str = ""


Prompt = Move | Question | FileName | None
"""``None`` while Comp moves: row 10 is blank."""


class Board(Widget, can_focus=True):
    """The 80 × 24 screen; every key pressed goes to the program."""

    DEFAULT_CSS = "Board { width: 1fr; height: 1fr; }"
    REVERSE: ClassVar[Style] = Style(reverse=True)
    PLAIN: ClassVar[Style] = Style()

    def __init__(self, program: MilleApp) -> None:
        super().__init__()
        self.program = program

    def render_line(self, y: int) -> Strip:
        canvas = self.program.canvas
        width = self.size.width
        if y >= screen.HEIGHT:
            return Strip.blank(width)
        text = "".join(canvas.rows[y])
        runs = sorted((column, length) for row, column, length in canvas.reverse if row == y)
        segments, at = [], 0
        for column, length in runs:
            segments.append(Segment(text[at:column], self.PLAIN))
            segments.append(Segment(text[column:column + length], self.REVERSE))
            at = column + length
        segments.append(Segment(text[at:], self.PLAIN))
        return Strip(segments).adjust_cell_length(width)

    def on_resize(self, event: events.Resize) -> None:
        self.program.redraw()

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.program.press(normalise(event.key, event.character))


class MilleApp(App[int], inherit_bindings=False):
    """``parlour mille``: the match in ``match``, you at seat 0 and Comp's bot at seat 1."""

    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = []
    CSS = "Screen { background: ansi_default; color: ansi_default; overflow: hidden; }"

    def __init__(self, match: Match, notice: str = "") -> None:
        super().__init__(ansi_color=True)
        self.match = match
        self.message = notice
        """The message line (MIL-89)."""
        self.fresh = bool(notice)
        """The message was written since the last key: Comp's move does not wipe it unseen."""
        self.prompt: Prompt = None
        self.bells = 0
        self.busy = False
        """Comp is moving: keys wait in ``pending``."""
        self.pending: deque[str] = deque()
        self.saved_here = False
        """Saved (with ``s``) at this end-of-hand question: ``N`` then asks no more (MIL-93)."""
        self.finished = False
        self.keys_read = 0
        """Keys received so far, read or waiting (tests wait on it, not on a clock)."""
        self.board = Board(self)
        self.canvas = screen.Canvas()

    @property
    def state(self) -> MilleState:
        return self.match.state

    def compose(self) -> ComposeResult:
        yield self.board

    def on_mount(self) -> None:
        self.board.focus()
        state = self.state
        # MIL-74: a match saved between hands goes on with the next deal, one saved after its
        # game was over with the next game.
        if state.step == OVER:
            self.match.next_game()
            state = self.state
        if state.stale:
            state.apply(state.sample_chance())
        self._advance()
        self.redraw()

    # --- what the screen shows --------------------------------------------------------------

    def too_small(self) -> bool:
        return self.size.width < screen.WIDTH or self.size.height < screen.HEIGHT

    def window(self) -> screen.Window:
        """MIL-85: the full window between hands whatever the choice."""
        state = self.state
        return "full" if state.stale or state.step == OVER else self.match.window

    def shown_prompt(self) -> screen.Prompt:
        prompt = self.prompt
        if isinstance(prompt, Move):
            slot = "" if prompt.slot is None else SLOT_NAMES[prompt.slot]
            return screen.Prompt(">>:Move:", prompt.command + slot, reverse=True)
        if isinstance(prompt, Question):
            return screen.Prompt(prompt.text, prompt.shown)
        if isinstance(prompt, FileName):
            return screen.Prompt("file:", prompt.name)
        return screen.Prompt()

    def redraw(self) -> None:
        if self.too_small():
            self.canvas = screen.too_small()
        else:
            match = self.match
            self.canvas = screen.draw(self.state.view(YOU), self.shown_prompt(), self.message, self.window(),
                                      match.ordering, match.sort_drawn)
        self.board.refresh()

    def lines(self) -> list[str]:
        """The screen as text, trailing spaces removed (for tests and for people)."""
        return [line.rstrip() for line in self.canvas.lines()]

    def ring(self) -> None:
        self.bells += 1
        self.bell()

    def say(self, text: str) -> None:
        self.message = text
        self.fresh = True

    def error(self, text: str) -> None:
        """MIL-89: an error on the message line, with the bell."""
        self.say(text)
        self.ring()

    def repaint(self) -> None:
        """``R`` and Ctrl-L: the whole screen again."""
        self.redraw()
        self.screen.refresh(repaint=True, layout=True)

    def leave(self) -> None:
        self.finished = True
        self.exit(0, return_code=0)

    # --- keys --------------------------------------------------------------------------------

    def press(self, key: str) -> None:
        """One key, as a terminal would deliver it: read now, or once Comp has moved."""
        self.keys_read += 1
        if self.busy:
            self.pending.append(key)
        else:
            self._read(key)

    def _read(self, key: str) -> None:
        if self.finished:
            return
        self.fresh = False
        if self.too_small():
            if key in INTERRUPTS:
                self.leave()
            return
        prompt = self.prompt
        if isinstance(prompt, Move):
            self._move_key(prompt, key)
        elif isinstance(prompt, Question):
            self._question_key(prompt, key)
        elif isinstance(prompt, FileName):
            self._file_key(prompt, key)
        if not self.finished:
            self.redraw()

    def _drain(self) -> None:
        while self.pending and not self.busy and not self.finished:
            self._read(self.pending.popleft())

    def _move_key(self, prompt: Move, key: str) -> None:
        """MIL-87."""
        if prompt.command:
            self._slot_key(prompt, key)
            return
        if key in INTERRUPTS:
            self._really()
            return
        if key in (*ENDS, NUL, BACKSPACE, CTRL_U):
            return
        if key == CTRL_L:
            self.repaint()
            return
        letter = key.lower() if printable(key) else ""
        if letter == "p":
            self._decide("draw")
        elif letter in ("u", "d"):
            prompt.command = letter.upper()
        elif letter == "o":
            self.match.switch_ordering()  # MIL-17: how the hand is shown, not a game action
        elif letter == "w":
            self.match.window = "full" if self.match.window == "small" else "small"
        elif letter == "r":
            self.repaint()
        elif letter == "s":
            self._save_dialogue(lambda saved: self._back_to_move())
        elif letter == "q":
            self._really()
        elif letter == "e":
            self.error("E: command not implemented")
        else:
            self.error(f"unknown command: {shown(key)}")

    def _slot_key(self, prompt: Move, key: str) -> None:
        """MIL-88: a slot, then RETURN or SPACE to confirm it."""
        if key in INTERRUPTS:
            self._really()
        elif prompt.slot is None:
            if key in (BACKSPACE, CTRL_U):
                self.prompt = Move()
            elif key.lower() in SLOT_KEYS:
                prompt.slot = SLOT_KEYS[key.lower()]
            elif key not in ENDS:
                self.ring()
        elif key in ENDS:
            self._use(prompt.slot, discard=prompt.command == "D")
        elif key == BACKSPACE:
            prompt.slot = None
        elif key == CTRL_U:
            self.prompt = Move()
        else:
            self.ring()

    def _question_key(self, question: Question, key: str) -> None:
        """MIL-90."""
        letter = key.lower() if printable(key) else ""
        if letter == "y":
            question.yes()
        elif letter == "n":
            question.no()
        elif key == CTRL_L:
            self.repaint()
        elif letter == "s" and question.s_key == "save":
            self._save_dialogue(lambda saved: self._ask_again(question, saved))
        elif letter == "s" and question.s_key == "yes":
            question.yes()
        elif key in INTERRUPTS and question.text != REALLY:
            self._really()
        else:
            question.shown = shown(key)
            self.ring()

    def _file_key(self, prompt: FileName, key: str) -> None:
        """MIL-92 step 2."""
        if key in (RETURN, NEWLINE):
            prompt.done(prompt.name)
        elif key == BACKSPACE:
            prompt.name = prompt.name[:-1]
        elif key == CTRL_U:
            prompt.name = ""
        elif key in INTERRUPTS:
            self._really()
        elif printable(key):
            prompt.name += key
        else:
            self.ring()

    # --- your decisions ----------------------------------------------------------------------

    def _use(self, slot: int, discard: bool) -> None:
        """A confirmed ``U`` or ``D``: the card in that slot, played or discarded from there."""
        match = self.match
        content = self.state.view(YOU)["content"]
        card = screen.shown_slots(content, match.ordering, match.sort_drawn)[slot]
        if card is None:
            hand = content["hand"]
            before_drawing = not hand["seats"][YOU]["drawn"] and hand["pile_size"]
            self.error("must pick first" if before_drawing else "no card there")
            self.prompt = Move()
            return
        verb = "discard" if discard else "play"  # a play that is a coup fourré becomes one
        # The slot shown is the rules' slot unless the hand is shown sorted; then any copy of
        # the kind will do (MIL-63: the lowest slot holding it).
        hint = "" if match.ordering else f" @{SLOT_NAMES[slot]}"
        self._decide(f"{verb} {card}{hint}")

    def _decide(self, text: str) -> None:
        state = self.state
        try:
            state.play_text(text)  # a slot hint kept: the BSD layout (MIL-88)
        except ParlourError as refused:  # the BSD message where the rules give one (MIL-65, MIL-89)
            self.error(getattr(refused, "bsd", str(refused)))
            self.prompt = Move()
            return
        self.match.sort_drawn = False
        self._advance()

    def _advance(self) -> None:
        """Deals and draws, then whatever comes next: Comp, your move, a question."""
        state = self.state
        self._resolve_chance()
        if state.step == OVER or state.stale:
            self._ask_another()
        elif state.to_move() == COMP:
            self._start_comp()
        elif state.step == EXTENSION:
            self.prompt = Question("Extension?", yes=lambda: self._decide("extend yes"),
                                   no=lambda: self._decide("extend no"))
        else:
            self.prompt = Move()

    def _resolve_chance(self) -> None:
        state = self.state
        while state.to_move() == CHANCE and not state.stale:
            state.apply(state.sample_chance())

    def _back_to_move(self) -> None:
        self.prompt = Move()

    def _ask_again(self, question: Question, saved: bool) -> None:
        if saved and question.end_of_hand:
            self.saved_here = True
        question.shown = ""
        self.prompt = question

    def _really(self) -> None:
        """MIL-91: ``N`` goes back to what was asked before."""
        previous = self.prompt

        def back() -> None:
            if isinstance(previous, Move) or previous is None:
                self.prompt = Move()
            else:
                if isinstance(previous, Question):
                    previous.shown = ""
                self.prompt = previous

        may_save = isinstance(previous, Move) or (isinstance(previous, Question) and previous.s_key == "save")
        self.prompt = Question(REALLY, yes=self.leave, no=back, s_key="save" if may_save else "invalid")

    # --- the end of a hand (MIL-93) ------------------------------------------------------------

    def _ask_another(self) -> None:
        text = "Another game?" if self.state.step == OVER else "Another hand?"
        self.prompt = Question(text, yes=self._next_hand, no=self._decline, end_of_hand=True)

    def _next_hand(self) -> None:
        if self.state.step == OVER:
            self.match.next_game()
        state = self.state
        state.apply(state.sample_chance())
        self.saved_here = False
        self._advance()

    def _decline(self) -> None:
        if self.saved_here:
            self.leave()
            return
        self.prompt = Question("Save game?", yes=self._save_and_leave, no=self.leave, s_key="yes")

    def _save_and_leave(self) -> None:
        self._save_dialogue(lambda saved: self.leave() if saved else self._next_hand())

    # --- saving (MIL-92) -------------------------------------------------------------------------

    def _save_dialogue(self, done: Callable[[bool], None]) -> None:
        origin = self.match.loaded_from
        if origin is None:
            self._ask_name(done)
            return
        self.prompt = Question("Same file?", yes=lambda: self._write(str(origin), done),
                               no=lambda: self._ask_name(done), s_key="invalid")

    def _ask_name(self, done: Callable[[bool], None]) -> None:
        self.prompt = FileName(lambda name: self._named(name, done))

    def _named(self, name: str, done: Callable[[bool], None]) -> None:
        if not name:
            done(False)
            return
        if os.path.lexists(name) and not self._is_origin(Path(name)):
            self.prompt = Question("Overwrite file?", yes=lambda: self._write(name, done),
                                   no=lambda: done(False), s_key="invalid")
            return
        self._write(name, done)

    def _is_origin(self, path: Path) -> bool:
        origin = self.match.loaded_from
        if origin is None:
            return False
        try:
            return os.path.samefile(path, origin)
        except OSError:
            return os.path.abspath(path) == os.path.abspath(origin)

    def _write(self, name: str, done: Callable[[bool], None]) -> None:
        """MIL-92 step 4: the file written, and ``NAME [TIME]`` or the system's reason shown."""
        try:
            write_save(Path(name), self.match)
        except OSError as failure:
            self.error(failure.strerror or str(failure))
            done(False)
            return
        self.say(f"{name} [{time.ctime()}]")
        done(True)

    # --- Comp (MIL-81) ---------------------------------------------------------------------------

    def _start_comp(self) -> None:
        # MIL-89: cleared when Comp starts a move — unless the key that let Comp move wrote it
        # (a failed save at `Save game?` goes on with the next hand, which Comp may start).
        if not self.fresh:
            self.message = ""
        self.prompt = None
        self.busy = True
        self.run_worker(self._comp_moves(), name="comp", group="comp", exclusive=True)

    async def _comp_moves(self) -> None:
        """Comp's decisions, each redrawn at once, until it is your turn or the hand is over."""
        state = self.state
        try:
            while True:
                self._resolve_chance()
                if state.to_move() != COMP:
                    break
                seen = self.match.comp_view()
                try:
                    action = await asyncio.to_thread(self.match.comp_decision, seen)
                    state.play_hinted(action)  # the classic bot names its slot (MIL-106 step 9)
                except Exception as failure:  # a bot's bug must not end your game
                    self.say(f"Comp's bot failed: {failure}")
                    state.play(self.match.fallback())
                self.redraw()
        finally:
            self.busy = False
        self._advance()
        self.redraw()
        self._drain()
