"""The registry of games: every front end, bot and test finds a game here by name.

A game is registered by one line below: where its ``Game`` class lives (``package:Class``).
"""

from __future__ import annotations

from importlib import import_module

from parlour.engine import Game, OptionError, State

REGISTERED = (
    "parlour.games.loa:LinesOfAction",
    "parlour.games.biloba:Biloba",
    "parlour.games.mille:Mille",
    "parlour.games.conflict:Conflict",
    "parlour.games.tictactoe:TicTacToe",  # the example of docs/engine.md, not listed in the lobby
)


def _load(where: str) -> Game[State]:
    module, name = where.split(":")
    game: Game[State] = getattr(import_module(module), name)()
    return game


GAMES: dict[str, Game[State]] = {game.info.name: game for game in map(_load, REGISTERED)}


def get_game(name: str) -> Game[State]:
    """The game called ``name``; ``OptionError`` naming the known games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(sorted(GAMES))})") from None
