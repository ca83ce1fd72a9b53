"""Leaving the table: a seat retiring, a draw the table agrees, a match abandoned.

What leaving does to the game is a rule (BIL-39, CON-71, LOA-98, MIL-109): with two players the
other seat wins at once; with more, the game decides what becomes of the seat's pieces and goes
on among the others. The server (or a front end) decides *when* — a resignation, a clock run out,
a seat gone too long, every seat still in play agreeing to end, nobody playing for a day — and
records it as an action like any other: stored, replayed, undone.

Such an action is a negative integer (no game's own action is negative) and never appears in
``legal_actions()``: nobody chooses it as a move, so bots never search it. ``State.leave`` checks
and applies one; a game's ``apply`` and ``undo`` carry it out (``leaving_of`` tells them which).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from parlour.engine.errors import ParlourError
from parlour.engine.outcome import Outcome

RESIGNED: Final = "resigned"
OUT_OF_TIME: Final = "out-of-time"
GONE: Final = "gone"
WHYS: Final = (RESIGNED, OUT_OF_TIME, GONE)
"""Why a seat retires; with two players the reason the game ends (``Outcome.reason``)."""

AGREED: Final = "agreed"
"""``Outcome.reason`` of a draw every seat still in play agreed to."""
ABANDONED: Final = "abandoned"
"""``Outcome.reason`` of a match nobody played for too long: nobody wins."""

LEAVING_REASONS: Final = {
    RESIGNED: "the other side resigned",
    OUT_OF_TIME: "the other side ran out of time",
    GONE: "the other side was gone too long",
    AGREED: "agreed at the table",
    ABANDONED: "the match was abandoned",
}
"""End reasons every game has (``GameInfo.reason_words`` knows them), in words that complete
"… wins: <words>" or "Draw: <words>"."""

RETIRED_WORDS: Final = {RESIGNED: "resigned", OUT_OF_TIME: "ran out of time", GONE: "was gone too long"}
"""How a retired seat is described: "<seat> resigned"."""

AGREED_DRAW: Final = -16
ABANDON: Final = -17
_RETIRE: Final = -32
_SEATS: Final = 8
"""``retirement(seat, why)`` is ``_RETIRE - _SEATS * WHYS.index(why) - seat``."""
_LOWEST: Final = _RETIRE - _SEATS * len(WHYS) + 1


@dataclass(frozen=True, slots=True)
class Leaving:
    """A leaving action, decoded: a seat retiring (with ``why``), an agreed draw, or abandonment."""

    kind: Literal["retire", "agreed", "abandoned"]
    seat: int | None = None
    why: str | None = None


def retirement(seat: int, why: str) -> int:
    """The action of ``seat`` retiring because ``why`` (one of ``WHYS``)."""
    if why not in WHYS:
        raise ParlourError(f"a seat retires because it {' or '.join(WHYS)}, not {why!r}")
    if not 0 <= seat < _SEATS:
        raise ParlourError(f"there is no seat {seat}")
    return _RETIRE - _SEATS * WHYS.index(why) - seat


def is_leaving(action: int) -> bool:
    return _LOWEST <= action <= AGREED_DRAW


def leaving_of(action: int) -> Leaving | None:
    """What a leaving action means; ``None`` for any other action."""
    if action == AGREED_DRAW:
        return Leaving("agreed")
    if action == ABANDON:
        return Leaving("abandoned")
    if _LOWEST <= action <= _RETIRE:
        why, seat = divmod(_RETIRE - action, _SEATS)
        return Leaving("retire", seat, WHYS[why])
    return None


def two_player_outcome(leaving: Leaving, scores: tuple[float, ...] = ()) -> Outcome:
    """The end a leaving action makes of a 2-player game (LOA-98, MIL-109, TTT-7): the other seat
    wins for the reason the seat left; an agreed draw or an abandoned match is nobody's. ``scores``:
    the game's scores as they stand."""
    if leaving.kind == "retire":
        assert leaving.seat is not None
        assert leaving.why is not None
        return Outcome(1 - leaving.seat, leaving.why, scores)
    return Outcome(None, AGREED if leaving.kind == "agreed" else ABANDONED, scores)
