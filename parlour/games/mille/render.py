"""A Mille Bornes table as text, as one seat (or a spectator) may see it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.games.mille.cards import EMPTY, NAMES, SLOT_NAMES, VALUES
from parlour.games.mille.notation import action_text
from parlour.games.mille.position import DEAL, DRAWING, EXTENSION, LINE_NAMES, OVER, Event, HandScore

if TYPE_CHECKING:
    from parlour.games.mille.rules import MilleState

LINE_LABELS = ("Milestones Played", "Each Safety", "All 4 Safeties", "Each Coup Fourre", "Trip Completed",
               "Safe Trip", "Delayed Action", "Extension", "Shut-Out")
assert len(LINE_LABELS) == len(LINE_NAMES)
LABEL = 20
COLUMN = 30


def _name(state: MilleState, seat: int, viewer: int | None) -> str:
    name = state.seat_names()[seat]
    return f"{name} (you)" if seat == viewer else name


def _card(kind: int) -> str:
    return "-" if kind == EMPTY else NAMES[kind]


def _row(label: str, cells: tuple[str, str]) -> str:
    return f"{label:<{LABEL}}{cells[0]:<{COLUMN}}{cells[1]}".rstrip()


def _miles(state: MilleState, seat: int) -> str:
    played = " ".join(str(VALUES[k]) for k in range(5) for _ in range(state.miles[seat][k]))
    return f"{state.mileage[seat]}" + (f": {played}" if played else "")


def _safeties(state: MilleState, seat: int) -> str:
    return ", ".join(("*" if coup else "") + NAMES[k] for k, coup in state.safeties[seat]) or "-"


def _event(state: MilleState, event: Event, viewer: int | None) -> str:
    who = _name(state, event.seat, viewer) if event.seat >= 0 else ""
    if event.kind == "deal":
        return f"hand {event.number} dealt, {who} starts"
    if event.kind == "draw":
        return f"{who} draws {'two cards' if event.number == 2 else 'a card'}"
    if event.kind == "play":
        coup = " (coup fourré)" if event.flag else ""
        return f"{who} plays {NAMES[event.card]}{coup}"
    if event.kind == "discard":
        return f"{who} discards {NAMES[event.card]}"
    if event.kind == "extend":
        return f"{who} {'extends to 1000' if event.flag else 'does not extend'}"
    if event.kind == "hand_end":
        return "the hand is over"
    return "the game is over"


def _score_table(state: MilleState, score: HandScore, viewer: int | None) -> list[str]:
    names = (_name(state, 0, viewer), _name(state, 1, viewer))
    lines = [f"Hand over ({score.how}):", _row("", names)]
    for index, label in enumerate(LINE_LABELS):
        lines.append(_row(label, (str(score.lines[0][index]), str(score.lines[1][index]))))
    lines.append(_row("Hand Total", (str(score.hand_totals[0]), str(score.hand_totals[1]))))
    lines.append(_row("Overall Total", (str(score.game_totals[0]), str(score.game_totals[1]))))
    return lines


def _status(state: MilleState, viewer: int | None) -> str:
    step = state.step
    if step == OVER:
        outcome = state.outcome()
        # MIL-109: a game left at the table says how ("Player 2 resigned") before its result.
        last = state.history[-1] if state.history else 0
        left = f"{state.action_to_text(last)}; " if last < 0 else ""
        if outcome is None or outcome.winner is None:
            return f"Game over: {left}a tie."
        return f"Game over: {left}{_name(state, outcome.winner, viewer)} wins."
    if step <= DRAWING:
        seat, slot = state.receiving()
        what = "the next hand is dealt" if state.stale else (
            f"dealing to {_name(state, seat, viewer)}" if step == DEAL else
            f"{_name(state, seat, viewer)} draws into slot {SLOT_NAMES[slot]}")
        return f"Chance: {what}."
    who = _name(state, state.mover, viewer)
    if step == EXTENSION:
        return f"{who}: 700 miles. Extend to 1000?"
    return f"{who} to {'draw' if not state.drawn and state.pile else 'play or discard'}."


def _ended_with_a_hand(state: MilleState) -> bool:
    """Whether the game is over at the end of a hand (MIL-55), not left mid-hand (MIL-109): only
    then is the last hand's score the one that ended it."""
    events = state.events
    return state.step == OVER and len(events) >= 2 and events[-2].kind == "hand_end"


def table(state: MilleState, viewer: int | None) -> str:
    """The table for ``parlour play mille``: both seats' piles, the viewer's own cards only."""
    names = (_name(state, 0, viewer), _name(state, 1, viewer))
    discard = _card(state.discards[-1]) if state.discards else "-"
    extended = " (extended)" if state.extended else ""
    lines = [
        f"Mille Bornes - game {state.game_no}, hand {state.hand_no} - goal {state.goal}{extended} - "
        f"pile {len(state.pile)} - discard {discard}",
        _row("", names),
        _row("Battle", (_card(state.battle[0]), _card(state.battle[1]))),
        _row("Speed", (_card(state.speed[0]), _card(state.speed[1]))),
        _row("Safeties", (_safeties(state, 0), _safeties(state, 1))),
        _row("Miles", (_miles(state, 0), _miles(state, 1))),
        _row("Coup window", (_card(state.window[0]), _card(state.window[1]))),
        _row("Hand / game total", (f"{state.hand_total[0]} / {state.game_total[0]}",
                                   f"{state.hand_total[1]} / {state.game_total[1]}")),
        _row("Games won", (str(state.games_won[0]), str(state.games_won[1]))),
        _row("Cards in hand", (str(state.cards_held(0)), str(state.cards_held(1)))),
    ]
    if viewer is not None:
        cards = "  ".join(f"{SLOT_NAMES[i]} {NAMES[k]}" for i, k in enumerate(state.slots[viewer])
                          if k != EMPTY)
        lines.append(f"Your cards: {cards or '(none)'}")
    recent = [e for e in state.events if e.kind not in ("draw", "deal")][-2:]
    if recent:
        lines.append("Last: " + "; ".join(_event(state, e, viewer) for e in recent))
    if state.last_hand is not None and (state.stale or _ended_with_a_hand(state)):
        lines.extend(_score_table(state, state.last_hand, viewer))
    lines.append(_status(state, viewer))
    if viewer is not None and state.to_move() == viewer:
        lines.append("You may: " + ", ".join(action_text(a) for a in state.legal_actions()))
    return "\n".join(lines)
