"""The errors the engine raises: one type per kind of mistake, so callers can say what was wrong."""

from __future__ import annotations


class ParlourError(Exception):
    """Base of every error parlour raises on purpose."""


class NotationError(ParlourError, ValueError):
    """Text that is not an action in the game's notation (a person typed nonsense)."""


class IllegalActionError(ParlourError, ValueError):
    """A well-formed action that the rules forbid in this position."""


class OptionError(ParlourError, ValueError):
    """An unknown rules option, or a value the option does not accept."""


class FormatError(ParlourError, ValueError):
    """A saved state or match record that cannot be read (malformed, wrong game, wrong version)."""
