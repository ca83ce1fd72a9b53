"""The optional modules of a game's package, found by name: what a game provides beyond the contract.

A game's package (the package of the module that defines its ``Game`` class) may hold modules
of fixed names that tools look for — ``evaluator``, ``classic`` and ``bench`` (``parlour.bots``
and ``parlour bench`` say what each must define). A module that is not there is simply not
provided; one that is there but fails to import is an error, not an absence.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType

from parlour.engine.game import Game, State


def game_package(game: Game[State]) -> str | None:
    """The dotted name of the package that defines ``game``'s class (``parlour.games.loa``), or
    ``None`` for a class defined in a module of no package (a script, a test), which has no parts."""
    module = sys.modules[type(game).__module__]
    spec = module.__spec__  # a package's own name is its parent: a class in its __init__ counts
    package = spec.parent if spec is not None else module.__package__
    return package or None


def game_part(game: Game[State], part: str) -> ModuleType | None:
    """The module ``part`` of ``game``'s package, or ``None`` when the package has no such module."""
    package = game_package(game)
    if package is None:
        return None
    name = f"{package}.{part}"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)
