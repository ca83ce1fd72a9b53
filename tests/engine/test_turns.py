"""Turn numbers (``parlour.engine.turns``): the server's events and ``parlour play --replay`` number
a match's actions by these rules, so that a move list reads like a scoresheet (issue 15)."""

from __future__ import annotations

from parlour.engine import CHANCE, retirement
from parlour.engine.turns import Turn, numbered
from parlour.games import get_game

END = get_game("loa").new()
"""An end state with no chance pending: the rules below never look past the last action."""


def test_a_seat_acting_again_keeps_its_turn() -> None:
    # Conflict's moves of one roll, Biloba's continuations: one turn.
    assert numbered([10, 11, 12, 13], [0, 1, 1, 0], END)[0] == [1, 2, 2, 3]


def test_chance_belongs_to_the_turn_of_the_seat_that_decides_after_its_run() -> None:
    # A roll opens its roller's turn; a deal of several cards belongs to the first player's turn.
    turns, last = numbered([5, 10, 6, 7, 11, 12], [CHANCE, 0, CHANCE, CHANCE, 1, 1], END)
    assert turns == [1, 1, 2, 2, 2, 2]
    assert last == Turn(2, 1)


def test_a_leaving_action_carries_the_current_turn_and_starts_none() -> None:
    resign = retirement(0, "resigned")
    assert numbered([resign, 10], [0, 1], END)[0] == [1, 1]  # before any move: shown as the first
    assert numbered([10, 11, resign], [0, 1, 1], END)[0] == [1, 2, 2]


def test_one_action_at_a_time_gives_what_the_whole_list_gives() -> None:
    deciders = [CHANCE, 0, 0, CHANCE, 1, CHANCE, 0]
    actions = [5, 10, 11, 6, 12, 7, 13]
    turn, shown = Turn(), []
    for index, (action, decider) in enumerate(zip(actions, deciders, strict=True)):
        owner = deciders[index + 1] if decider == CHANCE else None
        turn = turn.after(decider, action, owner)
        shown.append(turn.shown)
    assert shown == numbered(actions, deciders, END)[0] == [1, 1, 1, 2, 2, 3, 3]
