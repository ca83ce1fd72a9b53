"""The board's small screens: a question answered by one key, a file name, the rules."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from parlour.tui.board.rules import rules_text


class Ask(ModalScreen[str | None]):
    """A question answered by one of ``keys`` (returned), or Esc (``None``)."""

    DEFAULT_CSS = """
    Ask { align: center middle; }
    Ask > Static { width: 70; height: auto; border: round $accent; padding: 1 2; background: $panel; }
    """

    def __init__(self, question: str, keys: tuple[str, ...]) -> None:
        super().__init__()
        self.question = question
        self.keys = keys

    def compose(self) -> ComposeResult:
        yield Static(self.question)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key == "escape":
            self.dismiss(None)
        elif event.key in self.keys:
            self.dismiss(event.key)


class AskName(ModalScreen[str | None]):
    """A file name typed and confirmed with Enter; Esc gives up (``None``)."""

    DEFAULT_CSS = """
    AskName { align: center middle; }
    AskName > Vertical { width: 70; height: auto; border: round $accent; padding: 0 1; background: $panel; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "give_up", show=False)]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question)
            yield Input(placeholder="game.json")
            yield Static("Enter: save   Esc: do not save")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if name:
            self.dismiss(name)

    def action_give_up(self) -> None:
        self.dismiss(None)


class RulesScreen(ModalScreen[None]):
    """The game's rules, from its rules page; arrows and PgUp/PgDn scroll, Esc or ? closes."""

    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > VerticalScroll {
        width: 1fr; height: 1fr; border: round $accent; padding: 0 1; background: $panel;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", show=False),
    ]

    def __init__(self, name: str, title: str) -> None:
        super().__init__()
        self.game_name = name
        self.game_title = title

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = f"{self.game_title}: the rules (Esc closes)"
            yield Static(rules_text(self.game_name, self.game_title))

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
