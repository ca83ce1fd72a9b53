"""A match of the classic program: the engine state, Comp's bot and what the program remembers.

Comp (seat 1) only ever decides from ``seen_by(state, 1, bot.rng)``: a state built from its own
view, its hidden parts sampled. The bot's generator is reseeded before each decision from its
``bot_seed`` and the number of entries in the record, so that a resumed match makes the same
decisions as one that was never saved.

The match runs game after game (MIL-56): each game is its own engine state, and the program
keeps the record of the games before it, so that a save file holds the whole match's record.
Hand ordering (MIL-17) is the program's too: how it shows your hand, not a game action.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, Protocol, runtime_checkable

from parlour.bots import Bot, bot_kinds, make_bot, seen_by
from parlour.engine import Action, IllegalActionError, JSONDict, State
from parlour.games import get_game
from parlour.games.mille import Mille, MilleState

YOU: Final = 0
COMP: Final = 1
NEW_GAME: Final = "new_game"
"""MIL-66: the record entry between two games of a match."""
SEED_LIMIT: Final = 1 << 53
"""MIL-10: a match seed is 0 ≤ seed < 2^53."""
DEFAULT_SECONDS: Final = 1.0
STRENGTH: Final = ("strong", "classic", "greedy", "random")
"""Bot kinds from the strongest down: Comp is the first of these the bots offer for Mille."""

Window = Literal["small", "full"]


def mille() -> Mille:
    game = get_game("mille")
    assert isinstance(game, Mille)
    return game


@runtime_checkable
class Remembering(Protocol):
    """A bot with a memory that must travel in the save file (the classic bot's, MIL-104)."""

    def memory_json(self) -> Any:
        """The memory as JSON data (``None`` for none)."""

    def load_memory(self, data: Any) -> None:
        """Restores ``memory_json``'s data; ``ValueError`` if it is not well formed."""


@runtime_checkable
class NamesSlots(Protocol):
    """A bot that can say which slot its card leaves from (the classic bot, MIL-106 step 9), so
    that Comp's hidden hand keeps the BSD program's slot layout."""

    def decide(self, state: State) -> Action:
        """The decision for ``state.to_move()``, possibly with a slot hint (``play go @5``)."""


def available_bots() -> list[str]:
    return bot_kinds("mille")


def default_bot() -> str:
    """``strong``, or the strongest kind the bots offer for Mille today."""
    kinds = available_bots()
    return next((kind for kind in STRENGTH if kind in kinds), kinds[0])


def bot_seed_for(seed: int, seat: int = COMP) -> int:
    """MIL-105: the first 52 random bits of ``random.Random("mille-botseed/<seed>/<seat>")``."""
    return random.Random(f"mille-botseed/{seed}/{seat}").getrandbits(52)


def random_seed() -> int:
    return secrets.randbelow(SEED_LIMIT)


@dataclass
class Match:
    """The state of the match, Comp's bot, and the program's own settings."""

    state: MilleState
    bot_kind: str
    bot_seed: int
    seconds: float = DEFAULT_SECONDS
    window: Window = "small"
    loaded_from: Path | None = None
    """The file the match was resumed from: "the same file" for as long as the program runs."""
    ordering: bool = False
    """MIL-16.4, MIL-17: your hand is shown sorted (``O``); off at the start of a match."""
    sort_drawn: bool = False
    """``O`` switched ordering on after you drew: the drawn cards are sorted in too, until your
    next decision (a draw never sorts, but switching ordering on sorts the whole hand)."""
    earlier: list[str] = field(default_factory=list)
    """The record of the match's finished games (MIL-66), each ending with its ``new_game``."""
    origin: JSONDict | None = None
    """The position the match's record starts from (``None``: the deal from the seed)."""
    bot: Bot = field(init=False)

    def __post_init__(self) -> None:
        self.bot = make_bot("mille", self.bot_kind, self.bot_seed)
        if not self.earlier:
            self.origin = self.state.start

    @classmethod
    def new(cls, seed: int | None = None, bot_kind: str | None = None,
            seconds: float = DEFAULT_SECONDS) -> Match:
        """A new match (MIL-80): hand 1 about to be dealt."""
        seed = random_seed() if seed is None else seed
        state = mille().new(seed=seed)
        return cls(state, bot_kind or default_bot(), bot_seed_for(seed), seconds)

    def record(self) -> list[str]:
        """MIL-66: the match's record, every game of it, from its seed."""
        return [*self.earlier, *self.state.record_lines()]

    def next_game(self) -> None:
        """MIL-56: the next game, once this one is over (``Mille.next_game``)."""
        following = mille().next_game(self.state)
        self.earlier.extend([*self.state.record_lines(), NEW_GAME])
        self.state = following

    def switch_ordering(self) -> None:
        """``O`` (MIL-85): switching on sorts the whole hand at once, the card just drawn too."""
        self.ordering = not self.ordering
        self.sort_drawn = self.ordering

    def memory(self) -> Any:
        return self.bot.memory_json() if isinstance(self.bot, Remembering) else None

    def comp_view(self) -> MilleState:
        """What Comp may search: its own view with the hidden cards sampled. The generator is
        reseeded from the record's length, so saving and resuming change nothing."""
        ply = len(self.earlier) + len(self.state.history)
        self.bot.reseed(random.Random(f"mille-bot/{self.bot_seed}/{ply}").getrandbits(52))
        seen = seen_by(self.state, COMP, self.bot.rng)
        assert isinstance(seen, MilleState)
        return seen

    def comp_decision(self, seen: MilleState) -> Action:
        """Comp's decision on ``seen`` (run it off the event loop: a search takes its time)."""
        if isinstance(self.bot, NamesSlots):
            return self.bot.decide(seen)
        return self.bot.choose(seen, self.seconds)

    def fallback(self) -> Action:
        """A legal decision for Comp when its bot fails (a bug): the first one listed."""
        legal = self.state.legal_actions()
        if not legal:
            raise IllegalActionError("Comp has no decision to take")
        return legal[0]
