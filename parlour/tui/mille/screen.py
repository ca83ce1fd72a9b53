"""The classic program's 80 × 24 screen (MIL-82 to MIL-86), drawn from seat 0's view only.

``draw`` is pure: it reads ``MilleState.view(0)`` (its ``content``) — never the state — plus what
the program itself shows (the prompt, the message line, the chosen score window) and returns the screen as
text with the cells that are in reverse video.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

from parlour.engine import JSONDict
from parlour.games.mille.cards import EXTRA_TANK, NAMES, SLOT_NAMES, VALUES, parse_card

WIDTH: Final = 80
HEIGHT: Final = 24
BOARD_WIDTH: Final = 40
MESSAGE_ROW: Final = 15
MESSAGE_COLUMN: Final = 45
PROMPT_ROW: Final = 10
PROMPT_COLUMN: Final = 20
TOO_SMALL: Final = "parlour mille needs an 80x24 terminal"

Window = Literal["small", "full"]

# MIL-84: (row, label, label column, value column or "") for the rows both windows share …
_COMMON_ROWS: Final = (
    (1, "Milestones Played", 42, ""),
    (2, "Each Safety", 48, "100"),
    (3, "All 4 Safeties", 45, "300"),
    (4, "Each Coup Fourre", 43, "300"),
)
# … and the full window's bonus rows: (row, label, label column, value, the hand score's line).
_BONUS_ROWS: Final = (
    (5, "Trip Completed", 45, "400", "trip"),
    (6, "Safe Trip", 50, "300", "safe_trip"),
    (7, "Delayed Action", 45, "300", "delayed_action"),
    (8, "Extension", 50, "200", "extension"),
    (9, "Shut-Out", 51, "500", "shut_out"),
)
_COMMANDS: Final = (
    (11, "p: pick", "q: quit"),
    (12, "u: use #", ""),  # the ordering line depends on the flag
    (13, "d: discard #", "s: save"),
    (14, "w: toggle window", "r: reprint"),
)


@dataclass(frozen=True)
class Prompt:
    """Row 10 from column 20: a label (``>>:Move:`` in reverse video, or a question) and what has
    been typed after it."""

    label: str = ""
    typed: str = ""
    reverse: bool = False


@dataclass
class Canvas:
    """Screen text, one string of ``WIDTH`` characters a row, and the reverse-video runs."""

    rows: list[list[str]] = field(default_factory=lambda: [[" "] * WIDTH for _ in range(HEIGHT)])
    reverse: list[tuple[int, int, int]] = field(default_factory=list)
    """(row, column, length) of each run drawn in reverse video."""

    def put(self, row: int, column: int, text: str, reverse: bool = False) -> None:
        cells = self.rows[row]
        text = text[: max(0, WIDTH - column)]
        cells[column:column + len(text)] = list(text)
        if reverse and text:
            self.reverse.append((row, column, len(text)))

    def lines(self) -> list[str]:
        return ["".join(cells) for cells in self.rows]


def _name(token: str | None) -> str:
    return "" if token is None else NAMES[parse_card(token)]


def _number(canvas: Canvas, row: int, values: tuple[int, int], value: str = "") -> None:
    """MIL-84: You right-aligned in columns 61–64, Comp in 67–70, the Value column 77–79."""
    canvas.put(row, 61, f"{values[0]:>4}")
    canvas.put(row, 67, f"{values[1]:>4}")
    if value:
        canvas.put(row, 77, f"{value:>3}")


def shown_slots(content: JSONDict, ordering: bool, sort_drawn: bool = False) -> list[str | None]:
    """Your hand as the screen shows it, slot P first (MIL-16). With ordering off, the slots the
    rules keep. With it on (MIL-16.4), the cards sorted — empty slots first, then canonical
    order — except the one or two you drew this turn, which stay in P and slot 1 until your next
    decision (a draw never sorts); ``sort_drawn`` (ordering just switched on) sorts them in too.

    Ordering is a display preference (MIL-17), so the program, not the engine, sorts. The rules'
    slots then differ from the ones shown only in which copy of a kind is where."""
    slots: list[str | None] = list(content["private"]["slots"])
    if not ordering:
        return slots
    hand = content["hand"]
    fresh: list[int] = []
    drawing = hand["phase"] == "chance" or hand["step"] == "play"
    if not sort_drawn and hand["to_act"] == 0 and hand["draw"] is not None and drawing:
        fresh = [0, 1] if hand["draw"]["size"] == 2 else [0]
    kept = [slot for slot in range(7) if slot not in fresh]
    cards = sorted((card for slot in kept if (card := slots[slot]) is not None), key=parse_card)
    empty: list[str | None] = [None] * (len(kept) - len(cards))
    for slot, card in zip(kept, [*empty, *cards], strict=True):
        slots[slot] = card
    return slots


def _board(canvas: Canvas, content: JSONDict, prompt: Prompt, hand_shown: list[str | None]) -> None:
    """MIL-83: safeties, hand, pile, discard, prompt, Comp's last move, battle and speed."""
    hand = content["hand"]
    seats = hand["seats"]
    for seat, column in ((0, 0), (1, 20)):
        for entry in seats[seat]["safeties"]:
            kind = parse_card(entry["card"])
            row = kind - EXTRA_TANK
            if entry["coup"]:
                canvas.put(row, column, "*")
            canvas.put(row, column + 2, NAMES[kind])
        canvas.put(13, column, "--BATTLE--")
        canvas.put(14, column + 2, _name(seats[seat]["battle"]))
        canvas.put(15, column, "--SPEED--")
        canvas.put(16, column + 2, _name(seats[seat]["speed"]))
    if hand["extended"]:
        canvas.put(4, 9, "Extension", reverse=True)
    canvas.put(5, 0, "--HAND--")
    canvas.put(5, 20, "--DECK--")
    for slot, token in enumerate(hand_shown):
        canvas.put(6 + slot, 0, SLOT_NAMES[slot])
        canvas.put(6 + slot, 2, _name(token))
    canvas.put(6, 22, f"{hand['pile_size']:>2}")
    canvas.put(7, 20, "--DISCARD--")
    if hand["discards"]:
        canvas.put(8, 22, _name(hand["discards"][-1]))
    if prompt.label:
        canvas.put(PROMPT_ROW, PROMPT_COLUMN, prompt.label, reverse=prompt.reverse)
        room = BOARD_WIDTH - PROMPT_COLUMN - len(prompt.label) - 1
        typed = prompt.typed[-room:] if room > 0 else ""  # a long file name shows its end
        canvas.put(PROMPT_ROW, PROMPT_COLUMN + len(prompt.label) + 1, typed)
    last = _comp_last_move(hand["events"])
    if last is not None:
        verb, card = last
        canvas.put(11, 20, verb)
        canvas.put(12, 20, f"{NAMES[parse_card(card)]:>16}")


def _comp_last_move(events: list[dict[str, Any]]) -> tuple[str, str] | None:
    """Comp's last play or discard of this hand (the events of the view are this hand's)."""
    for event in reversed(events):
        if event.get("seat") == 1 and event["event"] in ("play", "discard"):
            return ("PLAY" if event["event"] == "play" else "DISCARD"), event["card"]
    return None


def _score_window(canvas: Canvas, content: JSONDict, window: Window, message: str, ordering: bool) -> None:
    """MIL-84: the score window in its small or full layout, and the message line."""
    seats = content["hand"]["seats"]
    for row in range(17):
        canvas.put(row, 40, "|")
    canvas.put(16, 41, "_" * (WIDTH - 41))
    canvas.put(0, 62, "You   Comp   Value")
    safeties = [len(seat["safeties"]) for seat in seats]
    coups = [sum(1 for entry in seat["safeties"] if entry["coup"]) for seat in seats]
    values = (
        (seats[0]["mileage"], seats[1]["mileage"]),
        (100 * safeties[0], 100 * safeties[1]),
        (300 if safeties[0] == 4 else 0, 300 if safeties[1] == 4 else 0),
        (300 * coups[0], 300 * coups[1]),
    )
    for (row, label, column, value), numbers in zip(_COMMON_ROWS, values, strict=True):
        canvas.put(row, column, label)
        _number(canvas, row, numbers, value)
    totals = (
        (seats[0]["hand_total"], seats[1]["hand_total"]),
        (seats[0]["game_total"], seats[1]["game_total"]),
        (seats[0]["games_won"], seats[1]["games_won"]),
    )
    if window == "full":
        bonus = _bonuses(content)
        for row, label, column, value, line in _BONUS_ROWS:
            canvas.put(row, column, label)
            _number(canvas, row, (bonus[0].get(line, 0), bonus[1].get(line, 0)), value)
        first = 10
    else:
        first = 5
    canvas.put(first, 61, "----   ----   -----")
    canvas.put(first + 1, 49, "Hand Total")
    _number(canvas, first + 1, totals[0])
    canvas.put(first + 2, 60, "-----  -----")
    canvas.put(first + 3, 46, "Overall Total")
    _number(canvas, first + 3, totals[1])
    canvas.put(first + 4, 55, "Games")
    _number(canvas, first + 4, totals[2])
    if window == "small":
        switch = "o: stop ordering" if ordering else "o: order hand"
        for row, left, right in _COMMANDS:
            canvas.put(row, 42, left)
            canvas.put(row, 61, right or switch)
    canvas.put(MESSAGE_ROW, MESSAGE_COLUMN, message[: WIDTH - MESSAGE_COLUMN])


def _bonuses(content: JSONDict) -> tuple[dict[str, int], dict[str, int]]:
    """The last hand's trip bonuses, once it is over; during a hand every cell shows 0."""
    hand = content["hand"]
    last = content["match"]["last_hand"]
    if last is None or not (hand["between_hands"] or hand["phase"] == "game_over"):
        return {}, {}
    return last["seats"][0], last["seats"][1]


def _mileage(canvas: Canvas, content: JSONDict) -> None:
    """MIL-86: one row a value, the j-th card at column 4j (You) or 40 + 4j (Comp)."""
    canvas.put(17, 0, "--MILEAGE--")
    canvas.put(17, 41, "--MILEAGE--")
    for seat, offset in ((0, 0), (1, 40)):
        miles = content["hand"]["seats"][seat]["miles"]
        for index, value in enumerate(VALUES):
            for j in range(miles[str(value)]):
                canvas.put(18 + index, offset + 4 * j, str(value))


def draw(view: JSONDict, prompt: Prompt, message: str, window: Window, ordering: bool = False,
         sort_drawn: bool = False) -> Canvas:
    """The whole screen as seat 0 sees it (``view`` is the whole envelope of ``view(0)``), its
    hand sorted if ``ordering`` is on (``shown_slots``)."""
    content = view.get("content")
    if view.get("seat") != 0 or not isinstance(content, dict) or "private" not in content:
        raise ValueError("the classic screen is drawn from seat 0's view")
    canvas = Canvas()
    _board(canvas, content, prompt, shown_slots(content, ordering, sort_drawn))
    _score_window(canvas, content, window, message, ordering)
    _mileage(canvas, content)
    return canvas


def too_small() -> Canvas:
    canvas = Canvas()
    canvas.put(0, 0, TOO_SMALL)
    return canvas
