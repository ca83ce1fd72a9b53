"""Computer players, found by game and kind: ``make_bot("loa", "strong", seed=1)``.

Which kinds of bot a game offers, and which search its strong bot runs, follow from what the
game declares (``GameInfo``: players, chance, hidden information) and from what its package
provides. Nothing here names a game.

What a game's package may provide (the package of the module that defines the game's ``Game``
class, e.g. ``parlour/games/loa/``; found by module name, ``parlour.engine.game_part``):

``evaluator.py``
    defines ``EVALUATOR``: a callable of no arguments that returns a new
    ``parlour.engine.Evaluator`` (usually the evaluator class itself; each bot gets its own, as
    an evaluator may remember things). It gives the game the ``greedy`` and ``strong`` bots.
    A game with hidden information makes it a ``parlour.engine.Playouts`` as well, for the
    determinised search. An evaluator that declares ``turn_of_decisions`` (a roll is several
    moves) gets a greedy bot that judges whole turns instead of single decisions. It may also
    define ``GREEDY_EVALUATOR``, the same kind of callable, when the greedy bot keeps a simpler
    evaluation than the strong bot's (a baseline stays as its figures were measured).
``classic.py``
    defines ``CLASSIC``: a callable that takes a seed and returns a new ``parlour.engine.Bot``,
    the original program's computer player. It gives the game the ``classic`` bot.

Both may import only ``parlour.engine`` and their own game's package, like the rest of it. A
package without them is fine: every game has the ``random`` bot.

The strong bot's search, from the declarations, first match wins: hidden information →
determinised playouts of sampled deals (``DeterminisedBot``); chance → expectimax over the next
roll (``ExpectimaxBot``, paranoid towards the other seats); otherwise alpha-beta for two players
and paranoid alpha-beta for more (``STRONG_SEARCHES``; one bot that picks by the state's number
of players when the game allows several counts).

The interfaces a game's package implements live in the engine (``Evaluator``, ``Playouts``,
``Bot``); ``Bot`` and ``seen_by`` are named here too, for the front ends that run bots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any, Final, NamedTuple

from parlour.bots.alphabeta import NODES_PER_SECOND as ALPHABETA_NODES_PER_SECOND
from parlour.bots.alphabeta import AlphaBetaBot
from parlour.bots.by_players import ByPlayers
from parlour.bots.determinised import DeterminisedBot
from parlour.bots.expectimax import ExpectimaxBot, RollBot
from parlour.bots.greedy import GreedyBot
from parlour.bots.paranoid import ParanoidBot
from parlour.bots.random_bot import RandomBot
from parlour.engine import (
    Bot,
    Evaluator,
    Game,
    GameInfo,
    OptionError,
    ParlourError,
    Playouts,
    State,
    game_part,
    seen_by,
)
from parlour.games import get_game

DEFAULT_BOT: Final = "strong"

EVALUATOR_PART: Final = "evaluator"
"""The module of a game's package that provides its evaluator (``EVALUATOR``)."""

CLASSIC_PART: Final = "classic"
"""The module of a game's package that provides its classic player (``CLASSIC``)."""


@dataclass(frozen=True)
class Provided:
    """What a game's package provides to the bots (see the module): ``None`` where it has nothing."""

    info: GameInfo
    evaluator: Callable[[], Evaluator] | None = None
    classic: Callable[[int], Bot] | None = None
    greedy_evaluator: Callable[[], Evaluator] | None = None
    """The greedy bot's own evaluator, where the game gives it one (else ``evaluator``)."""


def provided(game: str) -> Provided:
    """What ``game``'s package provides (``OptionError`` for an unknown game)."""
    found = get_game(game)
    return Provided(found.info, *_parts(found))


@cache
def _parts(game: Game[State]) -> tuple[Any, Any, Any]:
    """The evaluator, classic player and greedy evaluator of ``game``'s package, looked up once
    per game (the lookup searches the package's directory when a part is absent)."""
    evaluators = game_part(game, EVALUATOR_PART)
    return (_defined(evaluators, "EVALUATOR"),
            _defined(game_part(game, CLASSIC_PART), "CLASSIC"),
            _defined(evaluators, "GREEDY_EVALUATOR", required=False))


def _defined(module: ModuleType | None, name: str, required: bool = True) -> Any:
    """The convention's ``name`` in a game's module (``None`` without the module, or without
    the name if it is not ``required``); a module that lacks a required name is a bug, and says so."""
    if module is None:
        return None
    value = getattr(module, name, None)
    if value is None and not required:
        return None
    if not callable(value):
        raise ParlourError(f"{module.__name__} defines no callable {name} "
                           "(see parlour.bots for what a game's package provides)")
    return value


Builder = Callable[[Provided, int], Bot]
"""Builds a bot from what the game provides and a seed."""


class BotKind(NamedTuple):
    """One kind of bot: what it is, whether a game offers it, how to build it."""

    summary: str
    offered: Callable[[Provided], bool]
    build: Builder


def _evaluator(provides: Provided) -> Evaluator:
    assert provides.evaluator is not None
    return provides.evaluator()


def _alphabeta(evaluator: Evaluator, seed: int) -> Bot:
    nodes_per_second = evaluator.nodes_per_second or ALPHABETA_NODES_PER_SECOND
    return AlphaBetaBot(evaluator, seed, nodes_per_second=nodes_per_second)


def _paranoid(evaluator: Evaluator, seed: int) -> Bot:
    return ParanoidBot(evaluator, seed)


STRONG_SEARCHES: Final[dict[int, Callable[[Evaluator, int], Bot]]] = {
    2: _alphabeta,
    3: _paranoid,
}
"""The strong bot's search for a game without chance or hidden information, by number of
players: the entry for the largest count not above the game's (alpha-beta for two players;
paranoid alpha-beta for three and more)."""


def _by_players(evaluator: Evaluator, seed: int, info: GameInfo) -> Bot:
    """The search for each number of players the game allows; one bot that picks by the state's
    number of players when the game allows several."""
    bots: dict[int, Bot] = {}
    for players in range(info.min_players, info.max_players + 1):
        search = STRONG_SEARCHES[max(count for count in STRONG_SEARCHES if count <= players)]
        bots[players] = search(evaluator, seed)
    if len(bots) == 1:
        return next(iter(bots.values()))
    return ByPlayers(bots, seed)


def _determinised(evaluator: Evaluator, seed: int, info: GameInfo) -> Bot:
    """Search over sampled deals, for games with hidden information: the evaluator plays them out."""
    if not isinstance(evaluator, Playouts):
        raise OptionError(f"the {info.name} evaluator cannot play out sampled deals (it is no Playouts)")
    return DeterminisedBot(evaluator, seed)


def _strong(provides: Provided, seed: int) -> Bot:
    evaluator, info = _evaluator(provides), provides.info
    if info.hidden_information:
        return _determinised(evaluator, seed, info)
    if info.chance:
        return ExpectimaxBot(evaluator, seed)
    return _by_players(evaluator, seed, info)


def _greedy(provides: Provided, seed: int) -> Bot:
    evaluator = provides.greedy_evaluator() if provides.greedy_evaluator else _evaluator(provides)
    if evaluator.turn_of_decisions:
        return RollBot(evaluator, seed)  # the best whole turn, not the best single decision
    return GreedyBot(evaluator, seed)


def _classic(provides: Provided, seed: int) -> Bot:
    assert provides.classic is not None
    return provides.classic(seed)


def _has_evaluator(provides: Provided) -> bool:
    return provides.evaluator is not None


KINDS: Final[dict[str, BotKind]] = {
    "random": BotKind("a random legal move", lambda provides: True, lambda provides, seed: RandomBot(seed)),
    "greedy": BotKind("one ply: a win if there is one, else the best-looking move (for dice, the "
                      "best-looking whole roll)", _has_evaluator, _greedy),
    "strong": BotKind("alpha-beta search with the game's evaluator (paranoid alpha-beta for more "
                      "than two players; for hidden hands, playouts of sampled deals; for dice, "
                      "expectimax over the next roll)", _has_evaluator, _strong),
    "classic": BotKind("the original program's computer player, as its spec describes it",
                       lambda provides: provides.classic is not None, _classic),
}
"""Every kind of bot, in the order front ends list them."""


def bot_kinds(game: str) -> list[str]:
    """The kinds of bot that play ``game`` (``OptionError`` for an unknown game)."""
    return _offered(provided(game))


def _offered(provides: Provided) -> list[str]:
    return [name for name, kind in KINDS.items() if kind.offered(provides)]


def make_bot(game: str, kind: str, seed: int = 0) -> Bot:
    """A new bot of ``kind`` for ``game``, its random choices seeded by ``seed``."""
    provides = provided(game)
    known = _offered(provides)
    if kind not in known:
        raise OptionError(f"no bot {kind!r} for {game} (bots: {', '.join(known)})")
    bot = KINDS[kind].build(provides, seed)
    bot.name = kind
    return bot


__all__ = ["DEFAULT_BOT", "KINDS", "STRONG_SEARCHES", "Bot", "BotKind", "Provided", "bot_kinds", "make_bot",
           "provided", "seen_by"]
