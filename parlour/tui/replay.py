"""``parlour play --replay FILE``: step through a match record in the terminal.

A record (``State.to_json()``: a game saved with ``save``, or a finished match downloaded from a
server, whose seed is 0 because every chance outcome is an action of the record) is read once,
checked by the game's own rules, and turned into a scoresheet: per ply its turn number, who made
it and the action in the game's notation. Positions are rebuilt on demand from a few kept states.

Everything is shown: a record is public once it is in a file (the server hands one out only for a
finished match), so the board is drawn for a spectator (``render(None)``) and every hand the
game's open view holds (``State.open_view()``: Mille Bornes' ``hands``) is printed under it, and
chance outcomes (cards drawn) are written in full.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.engine import (
    CHANCE,
    Action,
    FormatError,
    Game,
    MatchRecord,
    ParlourError,
    State,
    is_leaving,
)
from parlour.engine.turns import numbered
from parlour.games import get_game

CHECKPOINT = 64
"""A state is kept every this many plies: a jump replays at most this many actions."""

COMMANDS = """\
Commands:
  Enter, n    the next ply
  b           the ply before
  first       the start of the match
  last        the end of the record
  N           jump to ply N (0 is the start)
  moves       the scoresheet: every ply, numbered, with its turn
  board       show this position again
  play        play on from this position as a new match (seats as --seat says; the file is not changed)
  help        this text
  quit        leave the replay"""


class RecordError(Exception):
    """A file that cannot be replayed, with the reason in words."""


@dataclass(frozen=True)
class Entry:
    """One ply of the scoresheet."""

    ply: int
    """From 1: the ply this action makes (ply 0 is the start)."""
    turn: int
    who: str
    """The seat's name, ``chance``, or empty for a leaving action (its text names the seat)."""
    text: str

    def said(self) -> str:
        """``White: d1-f3``, ``chance: roll 1-3``; ``White resigned``."""
        return f"{self.who}: {self.text}" if self.who else self.text

    def line(self) -> str:
        """The scoresheet's line: ``12. turn 6  White: d1-f3``."""
        return f"{self.ply}. turn {self.turn}  {self.said()}"


class Replay:
    """A checked record: its scoresheet, and the position at any ply."""

    def __init__(self, path: str, data: dict[str, Any], game: Game[State]) -> None:
        self.path = path
        self.data = data
        self.game = game
        self.actions: list[Action] = list(data["actions"])
        self.entries: list[Entry] = []
        self.kept: list[State] = []
        self._walk()

    @property
    def plies(self) -> int:
        return len(self.actions)

    def _walk(self) -> None:
        """Plays the record once (already checked by the game's rules: ``play_stored``), writing
        the scoresheet and keeping a state every ``CHECKPOINT`` plies."""
        state = self.start()
        names = state.seat_names()
        movers: list[int] = []
        said: list[tuple[str, str]] = []
        for ply, action in enumerate(self.actions):
            if ply % CHECKPOINT == 0:
                self.kept.append(state.copy())
            movers.append(state.to_move())
            # The full text: nothing in a public record is hidden (a card drawn is named).
            said.append((who_made(names, movers[-1], action), state.action_to_text(action)))
            state.play_stored(action)
        if self.plies % CHECKPOINT == 0:
            self.kept.append(state.copy())
        turns, _ = numbered(self.actions, movers, state)
        self.entries = [Entry(ply + 1, turn, who, text)
                        for ply, (turn, (who, text)) in enumerate(zip(turns, said, strict=True))]

    def start(self) -> State:
        record = MatchRecord.from_json(self.data)
        return self.game.new(record.players, record.options, record.seed, record.start)

    def state_at(self, ply: int) -> State:
        """The position after ``ply`` actions (a state of its own)."""
        state = self.kept[ply // CHECKPOINT].copy()
        for action in self.actions[len(state.history):ply]:
            state.play_stored(action)
        return state

    def continued_at(self, ply: int, seed: int) -> State:
        """A new match from the position after ``ply`` actions, with ``seed`` for what chance does
        from there (a downloaded record's seed is 0, known to all): the record cut at ``ply`` and
        read back by the game's rules, so the new match has its history (undo, save)."""
        data = {**self.data, "seed": seed, "actions": self.actions[:ply]}
        return self.game.state_from_json(data)


def who_made(names: Sequence[str], mover: int, action: Action) -> str:
    if is_leaving(action):
        return ""
    if mover == CHANCE:
        return "chance"
    return names[mover]


def read_record(path: str, game: Game[State] | None, read_json: Callable[[Path], Any]) -> Replay:
    """The record in ``path`` (of ``game`` when given), checked; ``RecordError`` says what is wrong."""
    try:
        data = read_json(Path(path).expanduser())
        record = MatchRecord.from_json(data)
    except FormatError as error:
        raise RecordError(str(error)) from None
    try:
        recorded = get_game(record.game)
    except ParlourError:
        raise RecordError(f"it is a record of a game this parlour does not know ({record.game!r})") from None
    if game is not None and recorded is not game:
        raise RecordError(
            f"it is a record of {recorded.info.title} ({recorded.info.name}), not of {game.info.title}; "
            f"name {recorded.info.name} or leave the game out"
        )
    try:
        recorded.state_from_json(data)  # the game's own checks, every action against the rules
        return Replay(path, data, recorded)
    except ParlourError as error:
        raise RecordError(str(error)) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as error:
        # The engine checks records; this is the net under a damaged record it did not foresee.
        raise RecordError(f"not a parlour match record ({type(error).__name__}: {error})") from None


def board_text(state: State) -> str:
    """The position with nothing hidden: the spectator's board and every hand of the open view."""
    lines = [state.render(None)]
    content = state.open_view().get("content")
    hands = content.get("hands") if isinstance(content, dict) else None
    if isinstance(hands, list):
        for seat, hand in enumerate(hands):
            cards = [str(card) for card in hand if card is not None] if isinstance(hand, list) else []
            lines.append(f"{state.seat_names()[seat]}'s hand: {'  '.join(cards) or '(none)'}")
    return "\n".join(lines)


class Stepper:
    """The replay at the prompt: one position at a time, moved by commands."""

    def __init__(
        self,
        replay: Replay,
        ask: Callable[[str], str],
        say: Callable[[str], None],
        describe_outcome: Callable[[Sequence[str], dict[str, Any]], str],
        ply: int = 0,
    ) -> None:
        self.replay = replay
        self.ask = ask
        self.say = say
        self.describe_outcome = describe_outcome
        self.ply = ply

    def run(self) -> int | None:
        """Steps until ``quit`` or the end of input (a status), or ``play`` (``None``: the caller
        plays on from ``self.ply``)."""
        info = self.replay.game.info
        self.say(f"Replay of {info.title} from {self.replay.path}: {self.replay.plies} plies. "
                 "Enter or n for the next ply, b for the one before; type 'help' for the commands.")
        self.show()
        while True:
            try:
                line = self.ask(f"replay {self.ply}/{self.replay.plies}> ")
            except EOFError:
                self.say("")
                return 0
            done = self.command(line.strip().lower())
            if done is not None:
                return None if done < 0 else done

    def command(self, word: str) -> int | None:
        """Does one command; a status ends the replay, -1 asks to play on from here."""
        if word in ("", "n", "next"):
            self.go(self.ply + 1)
        elif word in ("b", "back"):
            self.go(self.ply - 1)
        elif word == "first":
            self.go(0)
        elif word == "last":
            self.go(self.replay.plies)
        elif word.isdigit():
            self.go(int(word))
        elif word == "moves":
            self.say(self.scoresheet())
        elif word == "board":
            self.show()
        elif word == "help":
            self.say(COMMANDS)
        elif word in ("quit", "exit", "q"):
            return 0
        elif word == "play":
            return self.play_here()
        else:
            self.say(f"Unknown command {word!r}: type 'help' for the commands.")
        return None

    def go(self, ply: int) -> None:
        if ply < 0:
            self.say("This is the start of the match: there is no ply before it.")
        elif ply > self.replay.plies:
            self.say(f"The record ends at ply {self.replay.plies}.")
        else:
            self.ply = ply
            self.show()

    def show(self) -> None:
        state = self.replay.state_at(self.ply)
        self.say("")
        if self.ply == 0:
            self.say(f"Ply 0 of {self.replay.plies}: the start")
        else:
            entry = self.replay.entries[self.ply - 1]
            self.say(f"Ply {self.ply} of {self.replay.plies}, turn {entry.turn}: {entry.said()}")
        self.say(board_text(state))
        outcome = state.outcome_json()
        if outcome is not None:
            self.say(self.describe_outcome(state.seat_names(), outcome))

    def scoresheet(self) -> str:
        lines = [f"{'>' if entry.ply == self.ply else ' '} {entry.line()}" for entry in self.replay.entries]
        return "\n".join([f"Moves ({self.replay.plies}; > marks this position):", *lines])

    def play_here(self) -> int | None:
        if self.replay.state_at(self.ply).is_over():
            self.say("The game is over here: step back to play on from an earlier position.")
            return None
        return -1
