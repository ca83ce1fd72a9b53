"""Keys as the classic program reads them: one character each, as a terminal would send it.

Textual names keys (``enter``, ``ctrl+c``, ``delete``); the program works on the characters a
terminal in raw mode delivers, so that its rules read like MIL-87 to MIL-92. Keys that send no
single character (arrows, function keys) keep their Textual name in angle brackets.
"""

from __future__ import annotations

from typing import Final

RETURN: Final = "\r"
NEWLINE: Final = "\n"
SPACE: Final = " "
NUL: Final = "\0"
BACKSPACE: Final = "\b"
DELETE: Final = "\x7f"
"""The Delete key (D-18: it quits). Backspace, whatever the terminal sends for it, erases."""
CTRL_C: Final = "\x03"
CTRL_L: Final = "\x0c"
CTRL_U: Final = "\x15"

ENDS: Final = (RETURN, NEWLINE, SPACE)
"""RETURN (or newline) and SPACE: they confirm a slot (MIL-88)."""
INTERRUPTS: Final = (DELETE, CTRL_C)

_NAMED: Final = {
    "enter": RETURN,
    "ctrl+m": RETURN,
    "ctrl+j": NEWLINE,
    "space": SPACE,
    "backspace": BACKSPACE,
    "ctrl+h": BACKSPACE,
    "delete": DELETE,
    "tab": "\t",
    "ctrl+i": "\t",
    "escape": "\x1b",
    "ctrl+@": NUL,
    "ctrl+space": NUL,
}


def normalise(key: str, character: str | None) -> str:
    """The character a Textual key event stands for."""
    if key in _NAMED:
        return _NAMED[key]
    if key.startswith("ctrl+") and len(key) == 6 and key[5].isalpha():
        return chr(ord(key[5].lower()) - ord("a") + 1)
    if character is not None and len(character) == 1:
        return character
    return f"<{key}>"


def shown(key: str) -> str:
    """A key as a message writes it: itself if printable, a control key as ``^X``."""
    if len(key) != 1:
        return key.strip("<>")
    if key == DELETE:
        return "^?"
    if ord(key) < 32:
        return "^" + chr(ord(key) + 64)
    return key


def printable(key: str) -> bool:
    return len(key) == 1 and key.isprintable()
