"""Computer players, found by game and kind: ``make_bot("loa", "strong", seed=1)``.

What each game offers is declared as data — ``EVALUATORS`` (each game's evaluator) and ``KINDS``
(how each kind of bot is built) — so nothing here branches on a game's name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from parlour.bots.alphabeta import AlphaBetaBot
from parlour.bots.base import Bot, seen_by
from parlour.bots.evaluators import Evaluator, NullEvaluator
from parlour.bots.evaluators.loa import LoaEvaluator
from parlour.bots.greedy import GreedyBot
from parlour.bots.random_bot import RandomBot
from parlour.engine import OptionError
from parlour.games import get_game

DEFAULT_BOT: Final = "strong"


class BotKind(NamedTuple):
    """One kind of bot: what it is, whether it needs the game's evaluator, how to build it."""

    summary: str
    needs_evaluator: bool
    build: Callable[[Evaluator, int], Bot]


EVALUATORS: Final[dict[str, Callable[[], Evaluator]]] = {
    "loa": LoaEvaluator,
}
"""Each game's evaluator, for the greedy and strong bots; a game without one has only "random"."""

KINDS: Final[dict[str, BotKind]] = {
    "random": BotKind("a random legal move", False, lambda evaluator, seed: RandomBot(seed)),
    "greedy": BotKind("one ply: a win if there is one, else the best-looking move", True, GreedyBot),
    "strong": BotKind("alpha-beta search with the game's evaluator", True, AlphaBetaBot),
}


def bot_kinds(game: str) -> list[str]:
    """The kinds of bot that play ``game`` (``OptionError`` for an unknown game)."""
    get_game(game)
    return [kind for kind, spec in KINDS.items() if game in EVALUATORS or not spec.needs_evaluator]


def make_bot(game: str, kind: str, seed: int = 0) -> Bot:
    """A new bot of ``kind`` for ``game``, its random choices seeded by ``seed``."""
    known = bot_kinds(game)
    if kind not in known:
        raise OptionError(f"no bot {kind!r} for {game} (bots: {', '.join(known)})")
    evaluator = EVALUATORS.get(game, NullEvaluator)()
    bot = KINDS[kind].build(evaluator, seed)
    bot.name = kind
    return bot


__all__ = ["DEFAULT_BOT", "EVALUATORS", "KINDS", "Bot", "BotKind", "bot_kinds", "make_bot", "seen_by"]
