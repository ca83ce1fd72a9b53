"""Computer players, found by game and kind: ``make_bot("loa", "strong", seed=1)``.

What each game offers is declared as data — ``EVALUATORS`` (each game's evaluator), ``KINDS``
(how each kind of bot is built, for every game or for some games only) and ``STRONG_SEARCHES``
(which search the strong bot runs for how many players) — so nothing here branches on a game's
name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

from parlour.bots.alphabeta import NODES_PER_SECOND as ALPHABETA_NODES_PER_SECOND
from parlour.bots.alphabeta import AlphaBetaBot
from parlour.bots.base import Bot, seen_by
from parlour.bots.by_players import ByPlayers
from parlour.bots.classic.biloba import ClassicBilobaBot
from parlour.bots.classic.mille import ClassicMilleBot
from parlour.bots.determinised import DeterminisedBot, Playouts
from parlour.bots.evaluators import Evaluator, NullEvaluator
from parlour.bots.evaluators.biloba import BilobaEvaluator
from parlour.bots.evaluators.conflict import ConflictEvaluator
from parlour.bots.evaluators.loa import LoaEvaluator
from parlour.bots.evaluators.mille import MilleEvaluator
from parlour.bots.expectimax import ExpectimaxBot, RollBot
from parlour.bots.greedy import GreedyBot
from parlour.bots.paranoid import ParanoidBot
from parlour.bots.random_bot import RandomBot
from parlour.engine import GameInfo, OptionError
from parlour.games import get_game

DEFAULT_BOT: Final = "strong"

Builder = Callable[[Evaluator, int, GameInfo], Bot]
"""Builds a bot from the game's evaluator, a seed and the game's description."""


class BotKind(NamedTuple):
    """One kind of bot: what it is, whether it needs the game's evaluator, how to build it.

    ``build`` serves every game; ``for_games`` holds builds for particular games, which take
    precedence. A kind whose ``build`` is ``None`` exists only for the games in ``for_games``.
    """

    summary: str
    needs_evaluator: bool
    build: Builder | None
    for_games: Mapping[str, Builder] = MappingProxyType({})

    def builder(self, game: str) -> Builder | None:
        return self.for_games.get(game, self.build)


EVALUATORS: Final[dict[str, Callable[[], Evaluator]]] = {
    "loa": LoaEvaluator,
    "biloba": BilobaEvaluator,
    "mille": MilleEvaluator,
    "conflict": ConflictEvaluator,
}
"""Each game's evaluator, for the greedy and strong bots; a game without one has only "random"."""


def _alphabeta(evaluator: Evaluator, seed: int) -> Bot:
    nodes_per_second = evaluator.nodes_per_second or ALPHABETA_NODES_PER_SECOND
    return AlphaBetaBot(evaluator, seed, nodes_per_second=nodes_per_second)


def _paranoid(evaluator: Evaluator, seed: int) -> Bot:
    return ParanoidBot(evaluator, seed)


STRONG_SEARCHES: Final[dict[int, Callable[[Evaluator, int], Bot]]] = {
    2: _alphabeta,
    3: _paranoid,
}
"""The strong bot's search by number of players: the entry for the largest count not above the
game's (alpha-beta for two players; paranoid alpha-beta for three and more)."""


def _strong(evaluator: Evaluator, seed: int, info: GameInfo) -> Bot:
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
    """Search over sampled deals, for games with hidden hands: the evaluator plays them out."""
    if not isinstance(evaluator, Playouts):
        raise OptionError(f"the {info.name} evaluator cannot play out sampled deals")
    return DeterminisedBot(evaluator, seed)


KINDS: Final[dict[str, BotKind]] = {
    "random": BotKind("a random legal move", False, lambda evaluator, seed, info: RandomBot(seed)),
    "greedy": BotKind("one ply: a win if there is one, else the best-looking move (for dice, the "
                      "best-looking whole roll)", True,
                      lambda evaluator, seed, info: GreedyBot(evaluator, seed),
                      for_games=MappingProxyType({
                          # A roll is several decisions: the best whole roll, not the best decision.
                          "conflict": lambda evaluator, seed, info: RollBot(evaluator, seed),
                      })),
    "strong": BotKind("alpha-beta search with the game's evaluator (paranoid alpha-beta for more "
                      "than two players; for hidden hands, playouts of sampled deals; for dice, "
                      "expectimax over the next roll)", True, _strong,
                      for_games=MappingProxyType({
                          "mille": _determinised,
                          # Dice: expectimax over the next roll (paranoid for more than two players).
                          "conflict": lambda evaluator, seed, info: ExpectimaxBot(evaluator, seed),
                      })),
    "classic": BotKind("the original program's computer player, as its spec describes it", False, None,
                       for_games=MappingProxyType({
                           "biloba": lambda evaluator, seed, info: ClassicBilobaBot(seed),
                           "mille": lambda evaluator, seed, info: ClassicMilleBot(seed),
                       })),
}


def _offers(game: str, kind: BotKind) -> bool:
    return kind.builder(game) is not None and (game in EVALUATORS or not kind.needs_evaluator)


def bot_kinds(game: str) -> list[str]:
    """The kinds of bot that play ``game`` (``OptionError`` for an unknown game)."""
    get_game(game)
    return [name for name, kind in KINDS.items() if _offers(game, kind)]


def make_bot(game: str, kind: str, seed: int = 0) -> Bot:
    """A new bot of ``kind`` for ``game``, its random choices seeded by ``seed``."""
    known = bot_kinds(game)
    if kind not in known:
        raise OptionError(f"no bot {kind!r} for {game} (bots: {', '.join(known)})")
    evaluator = EVALUATORS.get(game, NullEvaluator)()
    build = KINDS[kind].builder(game)
    assert build is not None
    bot = build(evaluator, seed, get_game(game).info)
    bot.name = kind
    return bot


__all__ = ["DEFAULT_BOT", "EVALUATORS", "KINDS", "STRONG_SEARCHES", "Bot", "BotKind", "bot_kinds",
           "make_bot", "seen_by"]
