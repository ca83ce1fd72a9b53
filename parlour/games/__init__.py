"""The registry of games: every front end, bot and test finds a game here by name."""

from __future__ import annotations

from parlour.engine import Game, OptionError, State
from parlour.games.biloba import Biloba
from parlour.games.conflict import Conflict
from parlour.games.loa import LinesOfAction
from parlour.games.mille import Mille
from parlour.games.tictactoe import TicTacToe

GAMES: dict[str, Game[State]] = {
    game.info.name: game for game in (LinesOfAction(), Biloba(), Mille(), Conflict(), TicTacToe())
}


def get_game(name: str) -> Game[State]:
    """The game called ``name``; ``OptionError`` naming the known games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(sorted(GAMES))})") from None
