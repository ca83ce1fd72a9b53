"""The game-agnostic core: the contract every game implements and every front end and bot uses."""

from parlour.engine.errors import (
    FormatError,
    IllegalActionError,
    NotationError,
    OptionError,
    ParlourError,
)
from parlour.engine.game import (
    CHANCE,
    NOBODY,
    Action,
    Game,
    GameInfo,
    JSONDict,
    MatchRecord,
    Option,
    State,
    random_playout,
)
from parlour.engine.outcome import Outcome

__all__ = [
    "CHANCE",
    "NOBODY",
    "Action",
    "FormatError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "JSONDict",
    "MatchRecord",
    "NotationError",
    "Option",
    "OptionError",
    "Outcome",
    "ParlourError",
    "State",
    "random_playout",
]
