"""The match behind a board: who sits where, the bots, and the words for what happens.

The same seats, bots and seeds as ``parlour play``'s line interface (``parlour.tui.play``), so a
game is the same game whichever front end plays it.
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.bots import make_bot
from parlour.engine import Action, GameInfo, JSONDict, State
from parlour.engine.player import Bot, seen_by
from parlour.tui.board.drawing import Drawing
from parlour.tui.board.picking import Option
from parlour.tui.play import HUMAN, Settings, bot_seed, describe_outcome, take_back_count
from parlour.tui.saves import GameInProgress, write_save


class Seating:
    """What a board needs of its match: whose turn it is, what that seat may do, and what
    happened, in words. ``Table`` is a local match; a server's match has its own."""

    local = True
    """Chance is resolved here and bots move here (a server does both for its matches)."""
    state: State
    info: GameInfo
    drawing: Drawing
    last = ""
    """The last decision, in words (``White c1-a3``)."""

    def names(self) -> list[str]:
        return self.state.seat_names()

    def mover(self) -> int:
        return self.state.to_move()

    def human_to_move(self) -> bool:
        raise NotImplementedError

    def bot_to_move(self) -> bool:
        return False

    def viewer(self) -> int | None:
        raise NotImplementedError

    def view(self) -> JSONDict:
        return self.state.view(self.viewer())

    def who(self, seat: int) -> str:
        raise NotImplementedError

    def options(self) -> list[Option]:
        """The legal actions of the seat to move, as it picks them."""
        state, drawing = self.state, self.drawing
        return [Option(action, item["text"], parts, drawing.route(parts), drawing.group(parts))
                for action, item in zip(state.legal_actions(), state.legal_json(), strict=True)
                for parts in [item["parts"]]]

    def outcome_text(self) -> str:
        outcome = self.state.outcome_json()
        if outcome is None:
            return "The game is over."
        return describe_outcome(self.names(), outcome)

    def play(self, seat: int, action: Action) -> list[str]:
        raise NotImplementedError

    def resolve_chance(self) -> list[str]:
        return []

    def bot_task(self, seat: int) -> Callable[[], Action]:
        raise NotImplementedError

    def take_back(self) -> str:
        raise NotImplementedError

    def unsaved(self) -> int:
        return 0

    def save(self, path: str) -> None:
        raise NotImplementedError

    def kept(self) -> str | None:
        return None

    def forget(self) -> None:
        """The game ended or was let go of."""

    def replacing(self) -> str | None:
        """Words for the start when the first move will replace a game kept for ``--resume``."""
        return None


class Table(Seating):
    """A local match: the state, the people's seats and a bot per other seat."""

    def __init__(self, settings: Settings, drawing: Drawing, keep: bool = False) -> None:
        self.settings = settings
        self.state = settings.state
        self.info = settings.game.info
        self.seats = settings.seats
        self.seconds = settings.seconds
        self.drawing = drawing
        self.humans = [seat for seat, who in enumerate(self.seats) if who == HUMAN]
        self.bots: dict[int, Bot] = {
            seat: make_bot(self.info.name, who, bot_seed(settings.seed, seat))
            for seat, who in enumerate(self.seats)
            if who != HUMAN
        }
        self.in_progress = GameInProgress(self.state, keep, settings.resumed)
        """The moves not saved yet, and the game kept in the user's data directory after every move
        for ``--resume`` (``keep``), once it is this board's: the same as the line interface's."""

    # --- who and what ---

    def human_to_move(self) -> bool:
        return self.mover() in self.humans

    def bot_to_move(self) -> bool:
        return self.mover() in self.bots

    def viewer(self) -> int | None:
        """Whose eyes the board is seen with: the person to move, else the only person."""
        mover = self.mover()
        if mover in self.humans:
            return mover
        return self.humans[0] if len(self.humans) == 1 else None

    def who(self, seat: int) -> str:
        """``you``, ``human`` or ``bot:strong``."""
        if self.seats[seat] == HUMAN:
            return "you" if len(self.humans) == 1 else "human"
        return f"bot:{self.seats[seat]}"

    def unsaved(self) -> int:
        """How many moves leaving now would lose (made since the last save, or taken back since)."""
        return self.in_progress.unsaved()

    # --- keeping and saving (the file's form: parlour.tui.saves) ---

    def save(self, path: str) -> None:
        """Saves the record and the table; ``OSError`` with the system's reason."""
        write_save(path, self.state, self.settings.table())
        self.in_progress.saved()

    def kept(self) -> str | None:
        """After every move: the game in progress kept for ``--resume``, or forgotten once over.
        Words to say when it cannot be kept (said once; play goes on)."""
        trouble = self.in_progress.keep(self.settings.table())
        if trouble:
            return f"(The game in progress cannot be kept for --resume: {trouble}. Press s to save it.)"
        return None

    def forget(self) -> None:
        """The game ended or was let go of: nothing left to resume (if the kept game is this one)."""
        self.in_progress.forget()

    def replacing(self) -> str | None:
        return self.in_progress.replaced()

    # --- playing ---

    def bot_task(self, seat: int) -> Callable[[], Action]:
        """The search of the bot of ``seat``, to run on another thread: what it may see is built
        here, now."""
        bot = self.bots[seat]
        position = seen_by(self.state, seat, bot.rng)
        seconds = self.seconds
        return lambda: bot.choose(position, seconds)

    def play(self, seat: int, action: Action) -> list[str]:
        """Plays ``seat``'s legal action; the words for it and for what it brought about."""
        text = self.state.action_text_for(action, self.viewer())
        self.state.play(action)
        self.in_progress.decided()
        self.last = f"{self.names()[seat]} {text}"
        told = self.drawing.narrate(self.view())
        if self.drawing.tells_moves and told:
            return told
        return [f"{self.names()[seat]} plays {text}", *told]

    def resolve_chance(self) -> list[str]:
        action = self.state.sample_chance()
        text = self.state.action_text_for(action, self.viewer())
        self.state.apply(action)
        told = self.drawing.narrate(self.view())
        return told or [f"Chance: {text}"]

    def take_back(self) -> str:
        """Undoes back to before the last decision of a person (the bots' replies go too)."""
        if not self.info.can_undo:
            return f"{self.info.title} does not allow taking moves back."
        count = take_back_count(self.state, self.humans)
        if not count:
            return "Nothing to take back: no move has been made by a person yet."
        for _ in range(count):
            self.state.undo()
        self.in_progress.decided()
        self.last = ""
        return f"Took back {count} {'move' if count == 1 else 'moves'}."
