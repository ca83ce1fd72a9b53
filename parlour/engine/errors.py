"""The errors the engine raises: one type per kind of mistake, so callers can say what was wrong."""

from __future__ import annotations


class ParlourError(Exception):
    """Base of every error parlour raises on purpose."""


class NotationError(ParlourError, ValueError):
    """Text that is not an action in the game's notation (a person typed nonsense)."""


class IllegalActionError(ParlourError, ValueError):
    """A well-formed action that the rules forbid in this position, and why.

    ``reason`` is the why, in words a player reads, naming the rule where that helps ("no piece
    of yours on e4", "a piece on b1 moves exactly 3 squares along that line (LOA-7)");
    ``action`` is the refused action in the game's notation, or ``None`` when the reason needs
    no action named ("the game is over"). ``str(error)`` says both: ``e4-e6: no piece of yours
    on e4``. ``State.refusal`` makes one from the game's ``State.illegal_reason``."""

    def __init__(self, reason: str, action: str | None = None) -> None:
        super().__init__(f"{action}: {reason}" if action else reason)
        self.reason = reason
        self.action = action

    def __reduce__(self) -> tuple[type[IllegalActionError], tuple[str, str | None]]:
        # Rebuilt from its parts, not its message, when it crosses a process (a bot's worker).
        return type(self), (self.reason, self.action)


class OptionError(ParlourError, ValueError):
    """An unknown rules option, or a value the option does not accept."""


class FormatError(ParlourError, ValueError):
    """A saved state or match record that cannot be read (malformed, wrong game, wrong version)."""
