"""Conflict's strong bot keeps its time on every board (issue 16: "every strong decision stays
within its 1 s budget on the largest shipped map"): its allowance follows the board's size, and
the safety clock is looked at however the nodes are counted. No timing here: what is asserted
is the allowance and when the clock is looked at, both fixed by the code."""

from __future__ import annotations

import random
import time

import pytest

from parlour.bots import make_bot
from parlour.bots.expectimax import CLOCK_EVERY, SCAN_COST, ExpectimaxBot, RollBot, _Work
from parlour.engine import CHANCE
from parlour.games import get_game
from parlour.games.conflict import ConflictState
from parlour.games.conflict.evaluator import NODES_PER_SECOND, ConflictEvaluator, board_nodes_per_second
from parlour.games.conflict.maps import load_map

CONFLICT = get_game("conflict")
LONG_SEA = "..~~~~~~~~~~~~~~~~~~~~~~.."


def long_ocean() -> str:
    """A custom 26x52 map: ocean with 26 more rows of sea between its halves (bases and mines
    of the lower half move down with it)."""
    lines = load_map("ocean").text().splitlines()
    terrain = lines.index("terrain") + 1
    end = lines.index("end")
    rows = lines[terrain:end]
    places = []
    for line in lines[end + 1:]:
        kind, seat, square = line.split()
        row = int(square[1:])
        places.append(f"{kind} {seat} {square[0]}{row + 26 if row > 13 else row}")
    return "\n".join(["conflict-map 1", "name long-ocean", "size 26x52", "terrain", *rows[:13],
                      *[LONG_SEA] * 26, *rows[13:], "end", *places]) + "\n"


def board_state(board: str, players: int = 2, seed: int = 0) -> ConflictState:
    state = CONFLICT.new(players, {"board": board}, seed=seed)
    assert isinstance(state, ConflictState)
    return state


def allowance(board: str) -> int:
    return ExpectimaxBot(ConflictEvaluator()).allowance(board_state(board), 1.0)


def test_a_bigger_board_gets_fewer_nodes_a_second() -> None:
    # Issue 16: a node costs more on a bigger board, so a 1 s budget allows fewer of them there.
    boards = ("classic", "rivers", "ocean", long_ocean())
    classic, rivers, ocean, long = (allowance(board) for board in boards)
    assert classic == NODES_PER_SECOND
    assert classic > rivers > ocean > long  # 400, 624, 676 and 1,352 squares
    assert long > NODES_PER_SECOND // 2


def test_more_pieces_and_rivals_get_fewer_nodes_a_second() -> None:
    # Every piece is weighed against every hostile base: a node of a crowded 4-player game
    # costs half as much again as one of an empty board (measured, see PIECE_SHARE).
    squares = 26 * 26
    bare = board_nodes_per_second(squares, pieces=0, rivals=1)
    two_players = board_nodes_per_second(squares, pieces=20, rivals=1)
    assert bare > two_players > board_nodes_per_second(squares, pieces=20, rivals=3)
    rng = random.Random(4)
    state = board_state("ocean", players=4, seed=4)
    empty = ExpectimaxBot(ConflictEvaluator()).allowance(state, 1.0)
    while len(state.pieces) < 12:
        state.apply(state.sample_chance() if state.to_move() == CHANCE else rng.choice(state.legal_actions()))
    assert ExpectimaxBot(ConflictEvaluator()).allowance(state, 1.0) < empty


def test_the_allowance_is_the_budget_at_the_boards_figure() -> None:
    bot = ExpectimaxBot(ConflictEvaluator())
    state = board_state("ocean")
    assert bot.allowance(state, 2.0) == 2 * bot.allowance(state, 1.0)
    assert ExpectimaxBot(ConflictEvaluator(), nodes_per_second=500).allowance(state, 1.0) == 500


@pytest.mark.parametrize("start", [0, 3, 63])
@pytest.mark.parametrize("steps", [(8,), (1, 8), (8, 8, 1, 9)])
def test_the_safety_clock_is_looked_at_every_64_nodes(start: int, steps: tuple[int, ...]) -> None:
    # A chance outcome used to add 8 nodes at once while the clock was looked at only on a
    # multiple of 64: from 3, steps of 8 never meet one. Now, whatever the steps, a clock that
    # has run out stops the search within CLOCK_EVERY nodes (and one step) of the last look.
    work = _Work(start, allowance=10**9, deadline=time.perf_counter() - 1.0)
    step = 0
    while not work.spent():
        work.nodes += steps[step % len(steps)]
        step += 1
        assert work.nodes - start <= CLOCK_EVERY + max(steps)
    assert work.spent()  # and it stays spent


def test_a_clock_that_has_not_run_out_stops_nothing() -> None:
    work = _Work(3, allowance=1_000, deadline=time.perf_counter() + 3600.0)
    while not work.spent():
        work.nodes += 8
    assert work.nodes >= 1_000


def test_an_answer_to_the_dice_counts_the_actions_it_looks_at() -> None:
    # The answer looks at every legal action for a capture: that work is counted (SCAN_COST
    # actions a node), where it used to count for nothing.
    rng = random.Random(16)
    state = board_state("ocean", seed=16)
    while len(state.legal_actions()) < 2 * SCAN_COST or state.to_move() == CHANCE:
        state.apply(state.sample_chance() if state.to_move() == CHANCE else rng.choice(state.legal_actions()))
    actions = len(state.legal_actions())
    work = _Work(0, 10**9, float("inf"))
    ExpectimaxBot(ConflictEvaluator())._answer(state, state.to_move(), work)
    assert work.nodes >= 1 + actions // SCAN_COST >= 3


def test_the_turn_search_stops_weighing_decisions_once_the_work_is_spent() -> None:
    # A roll with hundreds of moves below each of several decisions took a 1 s search to 45,000
    # nodes on ocean (1.5 s): below the root, strong weighs no more once its work is spent.
    rng = random.Random(7)
    state = board_state("ocean", seed=7)
    while len(state.legal_actions()) < 50 or state.to_move() == CHANCE:
        state.apply(state.sample_chance() if state.to_move() == CHANCE else rng.choice(state.legal_actions()))
    actions, seat = state.legal_actions(), state.to_move()
    strong, greedy = ExpectimaxBot(ConflictEvaluator()), RollBot(ConflictEvaluator())
    def spent() -> _Work:
        return _Work(10, 10, float("inf"))

    assert len(strong._children(state, seat, actions, spent())) == 1
    assert len(strong._children(state, seat, actions, spent(), whole=True)) == len(actions)  # the root's
    assert len(greedy._children(state, seat, actions, spent())) == len(actions)  # greedy: as it was


@pytest.mark.parametrize("board", ["ocean", "rivers"])
def test_strong_is_deterministic_for_a_seed_on_every_board(board: str) -> None:
    # LOA-81 on the new boards: the same position, seed and budget give the same decision.
    rng = random.Random(board)
    state = board_state(board, seed=5)
    for _ in range(3):
        while state.to_move() == CHANCE:
            state.apply(state.sample_chance())
        first = make_bot("conflict", "strong", seed=5).choose(state.copy(), 0.05)
        second = make_bot("conflict", "strong", seed=5).choose(state.copy(), 0.05)
        assert first == second
        state.apply(rng.choice(state.legal_actions()))
