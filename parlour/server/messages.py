"""What travels on the wire: reading client messages, and the errors (``docs/protocol.md``).

Reading is strict about types (a version is an integer, never a boolean or a float) and lenient
about extra fields (ignored), so newer clients still talk to this server.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import unicodedata
from dataclasses import dataclass
from typing import Any, Final, Literal, cast

import orjson

MAX_MESSAGE: Final = 64 * 1024
"""The default of ``Limits.body_bytes``: characters in one client message (``decode`` takes the
server's limit); longer ones are refused with ``bad_message``."""

MAX_TEXT: Final = 1000
"""Characters in an action's text, a token or an id."""

MAX_NAME: Final = 40
"""Characters in a player's display name."""

TYPES: Final = ("hello", "join", "action", "resign", "offer", "accept", "decline", "claim", "chat", "ping")

MAX_CHAT: Final = 500
"""Characters in one chat message (after trimming)."""

OFFERS: Final = ("draw", "rematch")
"""What a seat may offer the table (``offer``, ``accept``, ``decline``): a draw (with 3–4 players,
ending the game here as a draw among the seats in play), or a rematch once the game is over."""


class ProtocolError(Exception):
    """Something a client got wrong (or a server fault), with the code of ``docs/protocol.md``.

    ``status`` is the HTTP status when it happens on the HTTP side; ``retry_after`` (whole seconds,
    at least 1) says when a refused request may be made again (a ``Retry-After`` header on HTTP).
    """

    def __init__(
        self, code: str, message: str, status: int = 400, retry_after: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.extra = extra or {}
        """Fields an HTTP answer carries beside ``error`` (a refused board's ``problems``)."""

    def to_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            answer["retry_after"] = self.retry_after
        return answer


def store_unreachable(what: str) -> ProtocolError:
    """``503 unavailable``: the store could not do what was asked (it is down, restarting or does
    not answer); nothing of it was done, and it may be tried again in a moment."""
    return ProtocolError("unavailable", f"{what} (the store cannot be reached): try again in a moment", 503)


def rate_limited(seconds: float, what: str) -> ProtocolError:
    """``429 rate_limited``: ``what`` (e.g. "matches created from your address") came too fast;
    it may be tried again in ``seconds`` (rounded up to whole seconds, at least 1)."""
    wait = max(1, math.ceil(seconds))
    return ProtocolError("rate_limited", f"too many {what}: try again in {wait} s", 429, wait)


@dataclass(frozen=True)
class Hello:
    token: str | None
    spectator: bool
    last_version: int | None


@dataclass(frozen=True)
class Join:
    seat: int | None
    name: str | None


@dataclass(frozen=True)
class ActionMessage:
    text: str
    version: int | None


Step = Literal["offer", "accept", "decline"]
OfferKind = Literal["draw", "rematch"]


@dataclass(frozen=True)
class Resign:
    pass


@dataclass(frozen=True)
class OfferMessage:
    """An ``offer``, ``accept`` or ``decline`` (``step``) of a draw or a rematch (``what``)."""

    step: Step
    what: OfferKind


@dataclass(frozen=True)
class Claim:
    """A claim that a seat (``None``: any) has been gone too long: it retires."""

    seat: int | None


@dataclass(frozen=True)
class Chat:
    """Something said at the table (trimmed, checked: ``read_chat``)."""

    text: str


@dataclass(frozen=True)
class Ping:
    pass


ClientMessage = Hello | Join | ActionMessage | Resign | OfferMessage | Claim | Chat | Ping
MessageId = str | int | None


def decode(frame: str | bytes | None, longest: int = MAX_MESSAGE) -> dict[str, Any]:
    """The JSON object in a WebSocket frame of at most ``longest`` characters; ``bad_json`` or
    ``bad_message`` otherwise."""
    if frame is None:
        raise ProtocolError("bad_json", "an empty frame: send one JSON object as text")
    if isinstance(frame, bytes):
        raise ProtocolError("bad_json", "binary frames are not accepted: send JSON as a text frame")
    if len(frame) > longest:
        raise ProtocolError("bad_message", f"the message is longer than {longest} characters")
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError) as error:
        raise ProtocolError("bad_json", f"not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", f"a message is a JSON object, not {json_kind(data)}")
    return data


def message_id(data: dict[str, Any]) -> MessageId:
    """The client's ``id`` to echo back, or ``None`` (also when it is not a short string or an integer)."""
    value = data.get("id")
    if isinstance(value, str) and len(value) <= MAX_TEXT and text_fault(value) is None:
        return value
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53:
        return value
    return None


def read(data: dict[str, Any]) -> ClientMessage:
    """The message a decoded object is; ``bad_message`` or ``unknown_type`` otherwise."""
    kind = data.get("type")
    if kind is None:
        raise ProtocolError("bad_message", 'a message needs a "type" (one of: ' + ", ".join(TYPES) + ")")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", f'"type" must be a string, not {json_kind(kind)}')
    if kind == "hello":
        token = optional_string(data, "token", MAX_TEXT)
        spectator = data.get("spectator", False)
        if not isinstance(spectator, bool):
            shown = json_kind(spectator)
            raise ProtocolError("bad_message", f'"spectator" must be true or false, not {shown}')
        return Hello(token, spectator, optional_count(data, "last_version"))
    if kind == "join":
        return Join(optional_count(data, "seat"), read_name(data.get("name"), "bad_message"))
    if kind == "action":
        text = optional_string(data, "text", MAX_TEXT)
        if text is None:
            example = '{"type": "action", "text": "b1-d3"}'
            raise ProtocolError("bad_message", f'an action needs its "text", e.g. {example}')
        return ActionMessage(text, optional_count(data, "version"))
    if kind == "resign":
        return Resign()
    if kind in ("offer", "accept", "decline"):
        return read_offer(cast(Step, kind), data.get("what"))
    if kind == "claim":
        return Claim(optional_count(data, "seat"))
    if kind == "chat":
        return Chat(read_chat(data.get("text")))
    if kind == "ping":
        return Ping()
    shown = kind if len(kind) <= 40 else kind[:40] + "…"
    raise ProtocolError("unknown_type", f"unknown message type {shown!r} (types: {', '.join(TYPES)})")


def read_chat(text: Any) -> str:
    """A chat message's text, trimmed: 1 to ``MAX_CHAT`` characters of plain text (the checks of a
    name), else ``bad_chat`` saying what is wrong. Markup is text like any other: it is stored and
    sent as typed, and every client shows it as text."""
    if not isinstance(text, str):
        raise ProtocolError("bad_chat", f'a chat message needs its "text" (a string), not {json_kind(text)}')
    trimmed = text.strip()
    if not trimmed:
        raise ProtocolError("bad_chat", "say something: the text is empty")
    if len(trimmed) > MAX_CHAT:
        raise ProtocolError("bad_chat", f"the text is longer than {MAX_CHAT} characters ({len(trimmed)})")
    fault = text_fault(trimmed)
    if fault is not None:
        raise ProtocolError("bad_chat", f"the text: {fault}")
    return trimmed


def read_offer(step: Step, what: Any) -> OfferMessage:
    if what == "draw" or what == "rematch":
        return OfferMessage(step, what)
    example = '{"type": "' + step + '", "what": "draw"}'
    shown = json_kind(what) if not isinstance(what, str) else repr(what[:40])
    raise ProtocolError("bad_message", f'"what" must be one of {", ".join(OFFERS)} (e.g. {example}), '
                                       f"not {shown}")


def optional_string(data: dict[str, Any], name: str, longest: int) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ProtocolError("bad_message", f'"{name}" must be a string, not {json_kind(value)}')
    if len(value) > longest:
        raise ProtocolError("bad_message", f'"{name}" is longer than {longest} characters')
    return check_text(value, name, longest)


def optional_count(data: dict[str, Any], name: str) -> int | None:
    """A non-negative integer field, or ``None`` when absent or null."""
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError("bad_message", f'"{name}" must be a whole number, not {json_kind(value)}')
    if not 0 <= value < 2**53:
        raise ProtocolError("bad_message", f'"{name}" must be between 0 and 2**53, not {value}')
    return value


def json_kind(value: Any) -> str:
    """How a JSON value is called in an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text. orjson: the standard library's encoder took about a tenth of
    the server's CPU per action (a Lines of Action mover's update, 2 KB: 45 µs against 4 µs). Keys
    that are not text (numbers: seats) are written as text, as the standard encoder does; orjson's
    option for them costs every message twice the time, so it is asked for only when needed. Text
    that is not valid Unicode (an error quoting a client's lone surrogate) is written escaped, in ASCII."""
    try:
        return orjson.dumps(message).decode()
    except orjson.JSONEncodeError:
        pass
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(message, separators=(",", ":"), allow_nan=False)


def error_message(error: ProtocolError, ref: MessageId = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "error", **error.to_json()}
    if ref is not None:
        message["id"] = ref
    return message


def read_name(value: Any, wrong_type: str = "bad_request") -> str | None:
    """A player's display name from a request: ``None`` when absent or blank. A name that is not a
    string gets ``wrong_type`` (``bad_message`` on the WebSocket); bad text gets ``bad_text``."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ProtocolError(wrong_type, f'"name" must be a string of at most {MAX_NAME} characters')
    return check_text(value, "name", MAX_NAME).strip() or None


# --- text ---------------------------------------------------------------------------------------

JOINERS: Final = frozenset("\u200c\u200d")
"""Format characters a real name needs: zero-width (non-)joiners shape Persian and Indic words and
join emoji sequences. Every other format character (bidi overrides, invisible marks) is refused."""

LINE_BREAKS: Final = frozenset("\n\r\t")
"""Control characters a text of several lines (a map in an option) may hold."""

REFUSED: Final = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Cs": "a lone surrogate (not Unicode text)",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
}
"""Unicode categories no text of a client may hold, and how an error calls them."""


def text_fault(value: str, lines: bool = False) -> str | None:
    """What is wrong with the characters of ``value`` (``None``: nothing); with ``lines``, line
    breaks and tabs are allowed."""
    if value.isascii() and value.isprintable():  # most texts (actions, tokens): no look-up per character
        return None
    allowed = JOINERS | LINE_BREAKS if lines else JOINERS
    for index, char in enumerate(value):
        category = unicodedata.category(char)
        if category[0] == "C" and char not in allowed:
            kind = REFUSED.get(category, "a character that is not text")
            return f"character {index + 1} is {kind} (U+{ord(char):04X})"
    return None


def check_text(value: str, field: str, longest: int, lines: bool = False) -> str:
    """``value`` when it is text fit to store and show: valid Unicode (a lone surrogate from a JSON
    ``\\ud800`` escape is not), no control or invisible characters, at most ``longest``
    characters; ``lines``: line breaks and tabs too. Otherwise ``bad_text``, saying where (the
    text itself is not echoed: it may not even be encodable)."""
    if len(value) > longest:
        raise ProtocolError("bad_text", f"{field}: longer than {longest} characters")
    fault = text_fault(value, lines)
    if fault is not None:
        raise ProtocolError("bad_text", f"{field}: {fault}")
    return value


PATH_SHOWN: Final = 200
"""Characters of a JSON path an error shows at most (a deeply nested value is cut short)."""


def check_json_text(value: Any, field: str, longest: int) -> None:
    """Checks every string inside a decoded JSON value with ``check_text``: values may be texts of
    several lines up to ``longest`` (a board's text in a match's options: ``Limits.board_characters``),
    object keys are names (one line, ``MAX_TEXT``). The
    error names the path, e.g. ``options.colours[2]``. Iterative: a value nested as deep as the
    JSON reader allows must not exhaust the stack."""
    pending: list[tuple[Any, str]] = [(value, field)]
    while pending:
        item, path = pending.pop()
        if isinstance(item, str):
            check_text(item, path, longest, lines=True)
        elif isinstance(item, dict):
            for key, inner in item.items():
                check_text(str(key), f"{path} (a key)", min(longest, MAX_TEXT))
                # The path grows with each level; past a point the error names the level above.
                pending.append((inner, f"{path}.{key}" if len(path) < PATH_SHOWN else path))
        elif isinstance(item, list):
            pending.extend((inner, f"{path}[{index}]" if len(path) < PATH_SHOWN else path)
                           for index, inner in enumerate(item))


# --- cursors ------------------------------------------------------------------------------------


def encode_cursor(created: float, key: str) -> str:
    """An opaque cursor of a list a page at a time (matches, a game's boards): the next page starts
    after this creation time and key (a match's id, a board's name)."""
    return base64.urlsafe_b64encode(json.dumps([created, key]).encode()).decode().rstrip("=")


def decode_cursor(text: str) -> tuple[float, str]:
    """The creation time and key of a cursor ``encode_cursor`` gave; ``bad_request`` for anything
    else, a key that is not text fit to store too (a JSON ``\\ud800`` escape decodes to a lone
    surrogate, which no store can look up)."""
    wrong = ProtocolError("bad_request", 'cursor: not a cursor this server gave (use the list\'s "next")')
    try:
        decoded = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (ValueError, binascii.Error, RecursionError):
        raise wrong from None
    if not (isinstance(decoded, list) and len(decoded) == 2 and isinstance(decoded[1], str)
            and isinstance(decoded[0], int | float) and not isinstance(decoded[0], bool)
            and math.isfinite(decoded[0]) and text_fault(decoded[1]) is None):
        raise wrong
    return float(decoded[0]), decoded[1]
