"""A bot that hands each decision to the bot meant for the state's number of players."""

from __future__ import annotations

from collections.abc import Mapping

from parlour.bots.search import SearchResult
from parlour.engine import Action, Bot, OptionError, State


class ByPlayers(Bot):
    """Plays as ``bots[state.players]`` (alpha-beta for two players, a multi-player search for
    more, say). ``last`` is the search result of the bot that played last, if it reports one."""

    name = "by-players"

    def __init__(self, bots: Mapping[int, Bot], seed: int = 0) -> None:
        super().__init__(seed)
        self.bots = dict(bots)
        self.last: SearchResult | None = None

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        for bot in self.bots.values():
            bot.reseed(seed)

    def choose(self, state: State, seconds: float) -> Action:
        bot = self.bots.get(state.players)
        if bot is None:
            counts = ", ".join(str(count) for count in sorted(self.bots))
            raise OptionError(f"this bot plays games of {counts} players, not {state.players}")
        action = bot.choose(state, seconds)
        last = getattr(bot, "last", None)
        self.last = last if isinstance(last, SearchResult) else None
        return action
