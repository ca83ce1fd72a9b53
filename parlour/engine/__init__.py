"""The game-agnostic core: the contract every game implements and every front end and bot uses."""

from parlour.engine.benchmark import Benchmark
from parlour.engine.boards import BoardProblem, Boards
from parlour.engine.errors import (
    FormatError,
    IllegalActionError,
    NotationError,
    OptionError,
    ParlourError,
)
from parlour.engine.evaluator import MAX_EVAL, Evaluator, NullEvaluator, Playouts
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
from parlour.engine.leaving import (
    ABANDON,
    ABANDONED,
    AGREED,
    AGREED_DRAW,
    GONE,
    OUT_OF_TIME,
    RESIGNED,
    WHYS,
    Leaving,
    is_leaving,
    leaving_of,
    retirement,
    two_player_outcome,
)
from parlour.engine.outcome import Outcome
from parlour.engine.parts import game_part
from parlour.engine.player import Bot, seen_by

__all__ = [
    "ABANDON",
    "ABANDONED",
    "AGREED",
    "AGREED_DRAW",
    "CHANCE",
    "GONE",
    "MAX_EVAL",
    "NOBODY",
    "OUT_OF_TIME",
    "RESIGNED",
    "WHYS",
    "Action",
    "Benchmark",
    "BoardProblem",
    "Boards",
    "Bot",
    "Evaluator",
    "FormatError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "JSONDict",
    "Leaving",
    "MatchRecord",
    "NotationError",
    "NullEvaluator",
    "Option",
    "OptionError",
    "Outcome",
    "ParlourError",
    "Playouts",
    "State",
    "game_part",
    "is_leaving",
    "leaving_of",
    "random_playout",
    "retirement",
    "seen_by",
    "two_player_outcome",
]
