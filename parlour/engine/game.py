"""The engine contract: a game described by data, and the state every front end and bot drives.

A *state* knows whose decision it is (a seat, the chance player or nobody), lists the legal
actions, applies one and undoes the last one (make/unmake), copies cheaply, and talks to the
outside world only through ``view`` and the game's text notation.  Actions are small integers
whose meaning belongs to the game; the notation turns them into text and back.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from parlour.engine.errors import FormatError, IllegalActionError, OptionError
from parlour.engine.outcome import Outcome

Action = int
"""An action is an integer; its meaning (and text) belongs to the game."""

CHANCE: Final = -1
"""``to_move()`` when the next decision is the chance player's (dice, card draws)."""

NOBODY: Final = -2
"""``to_move()`` when the game is over."""

RECORD_FORMAT: Final = "parlour.record"
RECORD_VERSION: Final = 1

JSONDict = dict[str, Any]
StateT = TypeVar("StateT", bound="State")


@dataclass(frozen=True)
class Option:
    """One rules option: its name, default, the values it accepts and what it means."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None

    def check(self, value: Any) -> Any:
        if self.choices:
            if value not in self.choices:
                allowed = ", ".join(repr(c) for c in self.choices)
                raise OptionError(f"option {self.name!r} must be one of {allowed}, not {value!r}")
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r} must be true or false, not {value!r}")
            return value
        if isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r} must be an integer, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"option {self.name!r} must be at least {self.minimum}, not {value}")
            return value
        return value

    def parse(self, text: str) -> Any:
        """Reads the option's value from command-line text (``move_limit=80``)."""
        if isinstance(self.default, bool):
            lowered = text.lower()
            if lowered in ("true", "yes", "on", "1"):
                return self.check(True)
            if lowered in ("false", "no", "off", "0"):
                return self.check(False)
            raise OptionError(f"option {self.name!r} must be true or false, not {text!r}")
        if isinstance(self.default, int):
            try:
                return self.check(int(text))
            except ValueError:
                raise OptionError(f"option {self.name!r} must be an integer, not {text!r}") from None
        return self.check(text)


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as data: front ends, bots and tests read this instead of branching on names."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    chance: bool
    hidden_information: bool
    options: tuple[Option, ...] = ()
    seat_names: tuple[str, ...] = ()
    can_undo: bool = True
    max_actions: int | None = None
    """For a game whose every game ends but may take many actions: past how many actions a game
    is a runaway (``parlour arena`` scores it a draw). ``None``: the arena's own bound."""

    def seat_name(self, seat: int) -> str:
        if seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"Player {seat + 1}"

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The full option dict: defaults filled in, unknown names and bad values refused."""
        known = {option.name: option for option in self.options}
        resolved = {option.name: option.default for option in self.options}
        for name, value in (options or {}).items():
            if name not in known:
                listed = ", ".join(known) or "none"
                raise OptionError(f"{self.name} has no option {name!r} (options: {listed})")
            resolved[name] = known[name].check(value)
        return resolved

    def check_players(self, players: int | None) -> int:
        if players is None:
            return self.default_players
        if not self.min_players <= players <= self.max_players:
            counts = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise OptionError(f"{self.title} is for {counts} players, not {players}")
        return players


class Game(ABC):
    """A game: its metadata and a way to start a state (the initial set-up or a given one)."""

    info: GameInfo

    @abstractmethod
    def new(
        self,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        start: JSONDict | None = None,
    ) -> State:
        """A new state. ``start`` is a position in the game's JSON form (``None``: the set-up)."""

    def state_from_json(self, data: Any) -> State:
        """Rebuilds a state from ``State.to_json()`` by replaying its record (so undo still works)."""
        return MatchRecord.from_json(data).replay(self)

    def sample_state(self, view: JSONDict, rng: random.Random) -> State:
        """A full state consistent with a seat's view (for determinised search).

        Perfect-information games have nothing hidden: the view holds the whole record.
        """
        if self.info.hidden_information:
            raise NotImplementedError(f"{self.info.name} must sample hidden information itself")
        return self.state_from_json(view["record"])


class State(ABC):
    """A position plus the actions that led to it. Subclasses implement the rules."""

    game: Game
    players: int
    options: dict[str, Any]
    seed: int
    start: JSONDict | None
    history: list[Action]

    # --- the rules -------------------------------------------------------------------------

    @abstractmethod
    def to_move(self) -> int:
        """The seat (0…players-1) whose decision it is, ``CHANCE``, or ``NOBODY`` when over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action, in the game's canonical order; empty when the game is over."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Applies a legal action (unchecked: use ``play`` for actions from outside)."""

    @abstractmethod
    def undo(self) -> None:
        """Takes back the last action, restoring the exact previous state."""

    @abstractmethod
    def copy(self: StateT) -> StateT:
        """An independent state equal to this one, history included."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance player's outcomes with their probabilities (only when it is to move)."""
        raise IllegalActionError("no chance decision is pending")

    # --- what leaves the engine ------------------------------------------------------------

    @abstractmethod
    def view(self, seat: int | None) -> JSONDict:
        """What ``seat`` may know (``None``: a spectator), as JSON-ready data."""

    @abstractmethod
    def action_to_text(self, action: Action) -> str:
        """The action in the game's notation (in this position)."""

    def action_text_for(self, action: Action, seat: int | None) -> str:
        """The action as ``seat`` may see it (``None``: a spectator).

        Front ends print other seats' actions through this: a card drawn into another hand
        must not show. Perfect-information games show everything."""
        return self.action_to_text(action)

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The legal action the text names; ``NotationError`` if malformed, else
        ``IllegalActionError`` if the rules forbid it here."""

    @abstractmethod
    def render(self, seat: int | None = None) -> str:
        """The position as text for a terminal, as ``seat`` may see it."""

    @abstractmethod
    def position_key(self) -> int:
        """A hash of the position (Zobrist-style): equal positions give equal keys.

        It covers what is on the board and who decides, not the history (ply counts, limits)."""

    @abstractmethod
    def position_json(self) -> JSONDict:
        """The current position in the game's JSON form (what ``Game.new(start=…)`` accepts)."""

    def seat_names(self) -> list[str]:
        """The display name of each seat (0…players-1) in this match: ``GameInfo.seat_name`` unless
        the options decide it (which colours a Conflict match uses)."""
        return [self.game.info.seat_name(seat) for seat in range(self.players)]

    def hidden_from(self, seat: int | None) -> list[str]:
        """Texts that ``view(seat)`` must never contain (cards in another hand, the deck order).

        Used by the contract suite to check views; perfect-information games hide nothing.
        """
        return []

    # --- shared behaviour --------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.to_move() == NOBODY

    def play(self, action: Action) -> None:
        """Applies an action after checking that it is legal."""
        if action not in self.legal_actions():
            raise IllegalActionError(f"illegal action: {self.action_to_text(action)}")
        self.apply(action)

    def play_text(self, text: str) -> Action:
        """Parses and plays an action given as text; returns it."""
        action = self.parse_action(text)
        self.apply(action)
        return action

    def sample_chance(self) -> Action:
        """Resolves the pending chance decision from the match seed and the ply.

        Keyed on (seed, ply) rather than a running generator, so undo and replay give the same
        outcome again.
        """
        outcomes = self.chance_outcomes()
        rng = random.Random(f"{self.seed}/{len(self.history)}")
        actions = [action for action, _ in outcomes]
        weights = [probability for _, probability in outcomes]
        return rng.choices(actions, weights)[0]

    def record(self) -> MatchRecord:
        return MatchRecord(
            game=self.game.info.name,
            players=self.players,
            options=dict(self.options),
            seed=self.seed,
            start=self.start,
            actions=list(self.history),
        )

    def to_json(self) -> JSONDict:
        return self.record().to_json()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_json() == other.to_json() and self.position_json() == other.position_json()

    __hash__ = None  # type: ignore[assignment]


@dataclass
class MatchRecord:
    """Everything needed to reproduce a match: game, options, seed, start and the action list."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int = 0
    start: JSONDict | None = None
    actions: list[Action] = field(default_factory=list)

    def to_json(self) -> JSONDict:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "start": self.start,
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        if not isinstance(data, dict):
            raise FormatError("a match record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise FormatError(f"not a parlour match record (format {data.get('format')!r})")
        if data.get("version") != RECORD_VERSION:
            raise FormatError(
                f"match record version {data.get('version')!r} is not supported "
                f"(this parlour reads version {RECORD_VERSION})"
            )
        try:
            game, players, options = data["game"], data["players"], data["options"]
            seed, start, actions = data["seed"], data["start"], data["actions"]
        except KeyError as missing:
            raise FormatError(f"match record has no {missing.args[0]!r}") from None
        if not isinstance(game, str) or not isinstance(players, int) or not isinstance(seed, int):
            raise FormatError("match record: game, players or seed has the wrong type")
        if not isinstance(options, dict) or not (start is None or isinstance(start, dict)):
            raise FormatError("match record: options or start has the wrong type")
        if not isinstance(actions, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in actions
        ):
            raise FormatError("match record: actions must be a list of integers")
        return cls(game, players, dict(options), seed, start, list(actions))

    def replay(self, game: Game) -> State:
        """The state this record reaches, every action checked against the rules."""
        if game.info.name != self.game:
            raise FormatError(f"this is a record of {self.game!r}, not {game.info.name!r}")
        state = game.new(self.players, self.options, self.seed, self.start)
        for ply, action in enumerate(self.actions):
            try:
                state.play(action)
            except IllegalActionError as error:
                raise FormatError(f"action {ply + 1} of the record: {error}") from None
        return state


def random_playout(state: State, rng: random.Random, max_plies: int | None = None) -> int:
    """Plays random legal actions (chance resolved by its odds) until the end; returns plies."""
    plies = 0
    while not state.is_over() and (max_plies is None or plies < max_plies):
        if state.to_move() == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
        plies += 1
    return plies

