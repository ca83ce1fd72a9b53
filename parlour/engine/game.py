"""The engine contract: a game described by data, and the state every front end and bot drives.

A *state* knows whose decision it is (a seat, the chance player or nobody), lists the legal
actions, applies one and undoes the last one (make/unmake), copies cheaply, and talks to the
outside world only through ``view`` and the game's text notation.  Actions are small integers
whose meaning belongs to the game; the notation turns them into text and back.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Generic, TypeVar

from parlour.engine.boards import Boards
from parlour.engine.errors import FormatError, IllegalActionError, NotationError, OptionError, ParlourError
from parlour.engine.leaving import (
    ABANDON,
    AGREED_DRAW,
    LEAVING_REASONS,
    RETIRED_WORDS,
    is_leaving,
    leaving_of,
    retirement,
)
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
GameState = TypeVar("GameState", bound="State", covariant=True)
"""The state class of a game (``Game[LoaState]``); ``Game[State]`` is any game."""


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
    end_reasons: Mapping[str, str] = field(default_factory=dict)
    """Every way a game can end: code (``Outcome.reason``) → plain words for a person, which
    complete "… wins: <words>" or "Draw: <words>" ("all its pieces joined", "the move limit").
    The ways of leaving the table (``leaving.LEAVING_REASONS``) are every game's already."""
    listed: bool = True
    """Offered in the lobby and in help; an unlisted game (an example) is still playable by name."""

    def reason_words(self, reason: str) -> str:
        """The plain words for an end reason this game declares."""
        words = self.end_reasons.get(reason) or LEAVING_REASONS.get(reason)
        if words is None:
            raise ValueError(f"{self.name} declares no end reason {reason!r}")
        return words

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


class Game(ABC, Generic[GameState]):
    """A game: its metadata and a way to start a state (the initial set-up or a given one)."""

    info: GameInfo
    boards: Boards | None = None
    """Set by a game whose board is a file people may draw and share (``Boards``)."""

    def new(
        self,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        start: JSONDict | None = None,
    ) -> GameState:
        """A new state. ``start`` is a position in the game's JSON form (``None``: the set-up).

        Options are checked and completed from their defaults and the player count is checked
        here, once for every game; ``create`` builds the state."""
        resolved = self.info.resolve_options(options)
        count = self.info.check_players(self.players_for(players, resolved, start))
        return self.create(count, resolved, seed, start)

    def players_for(self, players: int | None, options: dict[str, Any], start: JSONDict | None) -> int | None:
        """The player count when the caller gave none (``None``: the default). A game whose
        options or positions imply a count (which seats a map uses) says so here."""
        return players

    def served_options(self, players: int, bots_only: bool = False) -> dict[str, Any]:
        """Options a server match of ``players`` takes unless its creator chose otherwise
        (``bots_only``: every seat is a bot from the start). A match whose seats still in play are all
        bots plays on without delays, so it must end: a game whose play may otherwise run on for ever
        switches on the bound its rules allow. Default: none."""
        return {}

    @abstractmethod
    def create(self, players: int, options: dict[str, Any], seed: int, start: JSONDict | None) -> GameState:
        """The state for checked ``players`` and complete ``options`` (``new`` checked them)."""

    def state_from_json(self, data: Any) -> GameState:
        """Rebuilds a state from ``State.to_json()`` by replaying its record (so undo still works)."""
        return MatchRecord.from_json(data).replay(self)

    def sample_state(self, view: JSONDict, rng: random.Random) -> GameState:
        """A full state consistent with a seat's view (for search by bots and remote front ends).

        Perfect-information games show the whole position: the view's content holds it under
        ``position`` (``position_json`` form). The state has no history, and its seed is drawn
        from ``rng``: a view never carries the match's seed. Hidden-information games sample
        the unseen part themselves.
        """
        if self.info.hidden_information:
            raise NotImplementedError(f"{self.info.name} must sample hidden information itself")
        return self.new(len(view["seats"]), view["options"], rng.getrandbits(52), view["content"]["position"])


class State(ABC):
    """A position plus the actions that led to it. Subclasses implement the rules.

    The shared fields live here; a game's state adds its own ``__slots__`` (a state has no
    ``__dict__``) and copies them in ``copy_into``."""

    __slots__ = ("game", "history", "options", "players", "seed", "start")

    game: Game[State]
    players: int
    options: dict[str, Any]
    seed: int
    start: JSONDict | None
    history: list[Action]

    def __init__(
        self, game: Game[State], players: int, options: dict[str, Any], seed: int, start: JSONDict | None
    ) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.start = start
        self.history = []

    # --- the rules -------------------------------------------------------------------------

    @abstractmethod
    def to_move(self) -> int:
        """The seat (0…players-1) whose decision it is, ``CHANCE``, or ``NOBODY`` when over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action, in the game's canonical order; empty when the game is over."""

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal here (a game may answer faster than the whole list)."""
        return action in self.legal_actions()

    def illegal_reason(self, action: Action) -> str:
        """Why the rules forbid ``action`` here, in words a player reads, naming the rule where that
        helps: "no piece of yours on e4", "a piece on b1 moves exactly 3 squares along that line
        (LOA-7)". Asked only for an action ``is_legal`` refuses, and only on that refusal (never by
        ``is_legal`` or the legal list, the searches' and the server's hot path), so it may take
        its time. This default knows the end of the game, numbers that are no action and the legal
        list; a game says more from its rules."""
        if self.is_over():
            return self.over_reason()
        try:
            self.action_to_text(action)
        except ParlourError:
            return f"it is no action of {self.game.info.title}"
        return f"the rules do not allow it here; the legal actions are {self.legal_sample()}"

    def over_reason(self) -> str:
        """``illegal_reason`` once the game is over: "the game is over (three in a row)"."""
        outcome = self.outcome()
        if outcome is None:  # over without an outcome: no game does that, but say what is true
            return "the game is over"
        return f"the game is over ({self.game.info.reason_words(outcome.reason)})"

    def legal_sample(self, most: int = 6) -> str:
        """The first few legal actions as text, for a reason that points the player at them."""
        legal = self.legal_actions()
        shown = ", ".join(self.action_to_text(action) for action in legal[:most])
        return shown if len(legal) <= most else f"{shown}, … ({len(legal)} in all)"

    def refusal(self, action: Action, text: str | None = None) -> IllegalActionError:
        """The error refusing ``action`` (as the player wrote it, ``text``, when there is one), with
        ``illegal_reason``'s words: what ``play`` and ``parse_action`` raise and the server's gate
        answers. The action is named unless the game is over (then nothing is legal)."""
        if is_leaving(action):  # never a move: ``leave`` takes it (``leaving_error``)
            reason = self.leaving_error(action) or "leaving the table is not a move"
        else:
            reason = self.illegal_reason(action)
        if self.is_over():
            return IllegalActionError(reason)
        if text is None:
            try:
                text = self.action_to_text(action)
            except ParlourError:  # a number that is no action of this game at all
                text = f"action number {action}"
        return IllegalActionError(reason, text.strip())

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Applies a legal action (unchecked: use ``play`` for actions from outside), or a leaving
        action that ``leave`` checked (``leaving.leaving_of`` decodes it)."""

    @abstractmethod
    def undo(self) -> None:
        """Takes back the last action, restoring the exact previous state (a leaving action too)."""

    def copy(self: StateT) -> StateT:
        """An independent state equal to this one, history included."""
        clone = object.__new__(type(self))
        clone.game = self.game
        clone.players = self.players
        clone.options = self.options  # resolved once and never changed
        clone.seed = self.seed
        clone.start = self.start
        clone.history = self.history.copy()
        self.copy_into(clone)
        return clone

    @abstractmethod
    def copy_into(self, clone: Any) -> None:
        """Sets the game's own fields of ``clone`` (a bare object of this class) from ``self``,
        so that the two are independent."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``; its reason is one of the game's
        declared ``end_reasons``."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance player's outcomes with their probabilities (only when it is to move)."""
        raise IllegalActionError("no chance decision is pending")

    # --- what leaves the engine ------------------------------------------------------------

    def view(self, seat: int | None) -> JSONDict:
        """What ``seat`` may know (``None``: a spectator), as JSON-ready data.

        Every game's view has the same envelope; the game's own content is under ``content``.
        A view never holds the record or the seed."""
        return {
            "game": self.game.info.name,
            "seat": seat,
            "seats": self.seat_names(),
            "options": dict(self.options),
            "to_move": self.to_move_json(),
            "outcome": self.outcome_json(),
            "out": self.seats_out(),
            "content": self.view_content(seat),
        }

    def open_view(self) -> JSONDict:
        """The view with nothing hidden, for a finished match whose record is public (a replay
        shows every hand, as at a real table once the game is over). A spectator's view unless a
        game hides something: such a game adds what it hides to the content."""
        return self.view(None)

    @abstractmethod
    def view_content(self, seat: int | None) -> JSONDict:
        """The game's own part of ``view(seat)``: what that seat may know of the position. A
        perfect-information game puts its ``position_json()`` under ``position``."""

    def to_move_json(self) -> int | str | None:
        """Whose decision it is, for a view: a seat, ``"chance"``, or ``None`` once over."""
        mover = self.to_move()
        if mover == CHANCE:
            return "chance"
        return None if mover == NOBODY else mover

    def outcome_json(self) -> JSONDict | None:
        """The outcome for a person: the data and the game's words for its reason."""
        outcome = self.outcome()
        if outcome is None:
            return None
        return {**outcome.to_json(), "words": self.game.info.reason_words(outcome.reason)}

    @abstractmethod
    def action_to_text(self, action: Action) -> str:
        """The action in the game's notation (in this position); a leaving action in words
        (``leaving_text``)."""

    def action_text_for(self, action: Action, seat: int | None) -> str:
        """The action as ``seat`` may see it (``None``: a spectator).

        Front ends print other seats' actions through this: a card drawn into another hand
        must not show. Perfect-information games show everything."""
        return self.action_to_text(action)

    @abstractmethod
    def action_parts(self, action: Action) -> JSONDict:
        """A legal action's parts as data, so a front end can highlight and assemble it without
        reading the notation. ``kind`` always (a word of the game: ``move``, ``play``, ``roll``);
        then those that apply: ``from``, ``to`` (square names), ``path`` (squares passed),
        ``card``, ``slot`` (a hand position), ``target`` (a seat), ``piece``, ``die``."""

    def legal_json(self) -> list[JSONDict]:
        """Every legal action as a front end offers it: ``{"text": …, "parts": …}``
        (``action_to_text``, ``action_parts``). A server sends it with every move, so a game may
        answer from its own caches; what it gives must equal this default."""
        return [{"text": self.action_to_text(action), "parts": self.action_parts(action)}
                for action in self.legal_actions()]

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The legal action the text names; ``NotationError`` if malformed, else
        ``IllegalActionError`` if the rules forbid it here, saying why (``refusal``). Whatever it
        returns is legal."""

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

    def seats_out(self) -> list[str | None]:
        """Per seat, ``None`` while it is in the game, else why it is out, in words completing
        "<seat> is out: …" ("resigned", "Green took its last pawns"). Only games where a seat can
        leave and the game go on (3–4 players) have seats out; a finished game keeps them."""
        return [None] * self.players

    def seats_in_play(self) -> list[int]:
        """The seats still in the game (none once it is over)."""
        if self.is_over():
            return []
        return [seat for seat, out in enumerate(self.seats_out()) if out is None]

    def hidden_from(self, seat: int | None) -> list[str]:
        """Texts that ``view(seat)`` must never contain (cards in another hand, the deck order).

        Used by the contract suite to check views; perfect-information games hide nothing.
        """
        return []

    # --- shared behaviour --------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.to_move() == NOBODY

    def play(self, action: Action) -> None:
        """Applies an action after checking that it is legal (``refusal`` says why it is not)."""
        if not self.is_legal(action):
            raise self.refusal(action)
        self.apply(action)

    # --- leaving the table (leaving.py; BIL-39, CON-71, LOA-98, MIL-109) ---------------------

    def leaving_error(self, action: Action) -> str | None:
        """Why the leaving ``action`` cannot happen now; ``None``: it can."""
        leaving = leaving_of(action)
        if leaving is None:
            return f"action {action} is not a way of leaving the table"
        if self.is_over():
            return "the game is over"
        if leaving.kind == "retire":
            assert leaving.seat is not None
            if leaving.seat >= self.players:
                return f"there is no seat {leaving.seat}"
            out = self.seats_out()[leaving.seat]
            if out is not None:
                return f"{self.seat_names()[leaving.seat]} is already out: {out}"
        return None

    def leave(self, action: Action) -> None:
        """Checks and applies a leaving action (``IllegalActionError`` says why it cannot be)."""
        error = self.leaving_error(action)
        if error is not None:
            raise IllegalActionError(error)
        self.apply(action)

    def play_recorded(self, action: Action) -> None:
        """An action read back from a record or a store: a move checked by ``play``, a leaving
        action by ``leave``."""
        if is_leaving(action):
            self.leave(action)
        else:
            self.play(action)

    def play_stored(self, action: Action) -> None:
        """An action that was checked when it was first played (a server's stored match): a leaving
        action by ``leave``, any other applied without listing the legal ones again, which made
        a long Conflict match's replay many times slower (2,463 random actions: 0.66 s checked,
        0.08 s applied). It reaches the same state as ``play_recorded``."""
        if is_leaving(action):
            self.leave(action)
        else:
            self.apply(action)

    def retire(self, seat: int, why: str) -> None:
        """``seat`` leaves the game (``why``: resigned, out-of-time or gone); the rules decide the rest."""
        self.leave(retirement(seat, why))

    def agree_draw(self) -> None:
        """Every seat still in play agreed to end the game here: a draw among them."""
        self.leave(AGREED_DRAW)

    def abandon(self) -> None:
        """Nobody played the match for too long: it ends, and nobody wins."""
        self.leave(ABANDON)

    def leaving_text(self, action: Action) -> str:
        """A leaving action in words ("White resigned"): what ``action_to_text`` says of one."""
        leaving = leaving_of(action)
        if leaving is None:  # a number that is no action at all: refused like any such number
            raise NotationError(f"action number {action} is not an action of {self.game.info.title}")
        if leaving.kind == "agreed":
            return "draw agreed"
        if leaving.kind == "abandoned":
            return "abandoned"
        assert leaving.seat is not None
        assert leaving.why is not None
        return f"{self.seat_names()[leaving.seat]} {RETIRED_WORDS[leaving.why]}"

    def play_text(self, text: str) -> Action:
        """Parses and plays an action given as text; returns it."""
        action = self.parse_action(text)
        self.play(action)
        return action

    def sample_chance(self) -> Action:
        """Resolves the pending chance decision from the match seed and the ply.

        Keyed on (seed, ply) rather than a running generator, so undo and replay give the same
        outcome again.
        """
        return draw_chance(self, random.Random(f"{self.seed}/{len(self.history)}"))

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

    def replay(self, game: Game[StateT], play: Callable[[StateT, Action], None] | None = None) -> StateT:
        """The state this record reaches, every action checked against the rules (by ``play``: a
        game whose records say more than its actions, such as Mille's slot hints, passes its own)."""
        if game.info.name != self.game:
            raise FormatError(f"this is a record of {self.game!r}, not {game.info.name!r}")
        state = game.new(self.players, self.options, self.seed, self.start)
        for ply, action in enumerate(self.actions):
            # No game's own action is negative (leaving.py), and a game's notation may index
            # with it: -1 would be written as its last square, not refused.
            if action < 0 and not is_leaving(action):
                raise FormatError(_no_action(ply, action, game))
            try:
                if play is None or is_leaving(action):
                    state.play_recorded(action)
                else:
                    play(state, action)
            except IllegalActionError as error:
                raise FormatError(f"action {ply + 1} of the record: {error}") from None
            except LookupError:  # a number past the game's tables, met while naming it in the refusal
                raise FormatError(_no_action(ply, action, game)) from None
        return state


def _no_action(ply: int, action: Action, game: Game[Any]) -> str:
    return f"action {ply + 1} of the record: action number {action}: it is no action of {game.info.title}"


def draw_chance(state: State, rng: random.Random) -> Action:
    """The pending chance decision of ``state``, drawn from ``rng`` with its probabilities."""
    outcomes = state.chance_outcomes()
    return rng.choices([action for action, _ in outcomes], [probability for _, probability in outcomes])[0]


def random_playout(state: State, rng: random.Random, max_plies: int | None = None) -> int:
    """Plays random legal actions (chance resolved by its odds) until the end; returns plies."""
    plies = 0
    while not state.is_over() and (max_plies is None or plies < max_plies):
        if state.to_move() == CHANCE:
            state.apply(draw_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        plies += 1
    return plies

