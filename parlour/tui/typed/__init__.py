"""What a person types at the line interface, made the game's own notation before the rules read it.

A text board may show things under numbers of its own that the game's notation does not use:
Mille Bornes' hand is shown ``Your cards: 1 25  2 Go …`` while its notation names a card
(``discard go``; ``play 3`` is unparsable, MIL-64 and W-31). A person reads the screen and types
what it shows. A game whose text board numbers things so has a module here, named after the game
(as the boards' modules are), with ``TYPING``: its ``written`` turns the typed text into the
notation, reading the person's view (``State.view(seat)``, what the board was drawn from). The
engine never sees the screen's numbers, and a record holds notation only.

Generic code asks ``typing_for(game)`` and names no game (``tests/test_layers.py``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass

from parlour.engine import Game, JSONDict, State


@dataclass(frozen=True)
class Typing:
    """A game's reading of text typed at its text board."""

    written: Callable[[str, JSONDict], str]
    """The typed text in the game's notation, read against the typist's view; text that is no
    screen number is returned as it is (the notation reads it). Raises ``NotationError`` for a
    number the screen never shows, ``IllegalActionError`` for one that shows nothing now."""
    help: str
    """One line for ``help``: what may be typed besides the notation, with an example."""


def typing_for(game: Game[State]) -> Typing | None:
    """The ``TYPING`` of ``game``'s module in this package, if it has one."""
    name = f"{__package__}.{game.info.name}"
    if importlib.util.find_spec(name) is None:
        return None
    reading: Typing = importlib.import_module(name).TYPING
    return reading
