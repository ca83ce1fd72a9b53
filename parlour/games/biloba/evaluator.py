"""A Biloba evaluator: material first, then pawns in danger, centre access and mobility.

Each seat still in the game gets a score, and a seat's evaluation is its score less the mean
of its opponents' (two players: less the opponent's). A score counts:

* material: the pawns on the board (a player at two pawns or fewer who fails the "can capture
  soon" test of BIL-33 is about to be removed, BIL-32, and counts none);
* pending captures: a pawn already flanked by an enemy (BIL-22) is taken at that enemy's turn
  start (BIL-26) unless its owner moves first and steps it away, which it can do for one pawn;
* pawns under threat: a pawn with an enemy on one side and, on the other, an empty tile next to
  another pawn of that enemy (or that enemy able to reach it through the centre): the seat to
  move takes one of these at once, later enemies may;
* centre access: pawns on the centre's neighbours, where the centre route opens the board
  (BIL-17, BIL-18);
* mobility: the empty tiles next to the seat's pawns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, cast

from parlour.engine import MAX_EVAL, Action, Evaluator, State
from parlour.games.biloba import REPLACE, BilobaState, decode_action, is_replacement
from parlour.games.biloba.board import (
    CENTRE,
    CENTRE_NEIGHBOURS,
    EMPTY,
    GRID_NEIGHBOURS,
    LINES,
    NON_PLAYABLE,
    TILES,
)

PAWN: Final = 1_000
FLANKED: Final = 700
"""A pawn already flanked by an enemy: lost at that enemy's turn start."""
FLANKED_ESCAPE: Final = 250
"""The first flanked pawn of the seat to move, which can step it away."""
THREAT_NOW: Final = 450
"""The first pawn that the seat to move threatens: it can take it now."""
THREAT_NOW_MORE: Final = 120
THREAT_LATER: Final = 90
"""A pawn threatened by an enemy who is not to move: its owner may still answer."""
CENTRE_ACCESS: Final = 25
MOBILITY: Final = 6
LOST: Final = MAX_EVAL - 1

NODES_PER_SECOND: Final = 30_000
"""Search nodes per second of budget with this evaluator: the rules apply, list and undo moves
at about 180 000 a second and an evaluation costs some tens of microseconds on the development
machine (2 cores, AMD EPYC, CPython 3.11), so even the four-player search ends well within its
budget."""

AXES: Final = tuple(
    tuple(
        (a, b)
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1))
        if 0 <= (ax := t // 9 - dx) < 9 and 0 <= (ay := t % 9 - dy) < 9
        and 0 <= (bx := t // 9 + dx) < 9 and 0 <= (by := t % 9 + dy) < 9
        and (a := ax * 9 + ay) not in NON_PLAYABLE and (b := bx * 9 + by) not in NON_PLAYABLE
        and CENTRE not in (a, b)
    )
    for t in range(TILES)
)
"""Per tile, the pairs of opposite neighbours (both playable, neither the centre) that could
flank a pawn there (BIL-22)."""

NEAR: Final = tuple(sum(1 << n for n in GRID_NEIGHBOURS[t] if n not in NON_PLAYABLE) for t in range(TILES))
"""Per tile, the mask of its playable neighbours."""
RING: Final = frozenset(CENTRE_NEIGHBOURS)
RING_MASK: Final = sum(1 << t for t in CENTRE_NEIGHBOURS)
PLAYABLE_MASK: Final = sum(1 << t for t in range(TILES) if t not in NON_PLAYABLE and t != CENTRE)


class BilobaEvaluator(Evaluator):
    """Material, pending captures, threats, centre access and mobility (see the module)."""

    nodes_per_second = NODES_PER_SECOND

    def evaluate(self, state: State, seat: int) -> int:
        biloba = cast(BilobaState, state)
        counts = biloba.counts
        if not counts[seat]:
            return -LOST
        scores = self.scores(biloba)
        others = [scores[other] for other in range(biloba.players) if other != seat and counts[other]]
        if not others:
            return LOST
        value = scores[seat] - sum(others) // len(others)
        return max(-LOST, min(LOST, value))

    def evaluate_all(self, state: State) -> list[int]:
        biloba = cast(BilobaState, state)
        counts = biloba.counts
        scores = self.scores(biloba)
        alive = [seat for seat in range(biloba.players) if counts[seat]]
        values = []
        for seat in range(biloba.players):
            if not counts[seat]:
                values.append(-LOST)
                continue
            others = [scores[other] for other in alive if other != seat]
            value = scores[seat] - sum(others) // len(others) if others else LOST
            values.append(max(-LOST, min(LOST, value)))
        return values

    def scores(self, state: BilobaState) -> list[int]:
        """Every seat's score (0 for a seat that is out): material, centre access and mobility,
        less the penalties for its pawns flanked or under threat."""
        board, pawns, counts, mover = state.board, state.pawns, state.counts, state.seat
        near, ring, empty = _neighbourhoods(pawns, state.players)
        centre_open = bool(RING_MASK & empty)
        mover_can_escape = state.phase != REPLACE
        scores = []
        for colour in range(state.players):
            count = counts[colour]
            if not count:
                scores.append(0)
                continue
            score = CENTRE_ACCESS * ring[colour] + MOBILITY * (near[colour] & empty).bit_count()
            if count > 2 or colour == mover or state.can_capture_soon(colour):
                score += PAWN * count  # else BIL-32: removed at its next turn start, no material
            flanked, threatened_now, threatened_later = _dangers(
                board, pawns[colour], colour, mover, near, ring, centre_open
            )
            if flanked:
                if colour == mover and mover_can_escape:
                    score -= FLANKED_ESCAPE + FLANKED * (flanked - 1)
                else:
                    score -= FLANKED * flanked
            if threatened_now:
                score -= THREAT_NOW + THREAT_NOW_MORE * (threatened_now - 1)
            score -= THREAT_LATER * threatened_later
            scores.append(score)
        return scores

    def is_tactical(self, state: State, action: Action) -> bool:
        """A move that flanks an enemy pawn (it captures, BIL-27)."""
        if is_replacement(action):
            return False
        biloba = cast(BilobaState, state)
        tiles = decode_action(action)
        origin, target = tiles[0], tiles[-1]
        board, colour = biloba.board, biloba.seat
        for mid, far in LINES[target]:
            enemy = board[mid]
            if enemy >= 0 and enemy != colour and board[far] == colour and far != origin:
                return True
        return False


def _neighbourhoods(pawns: Sequence[Sequence[int]], players: int) -> tuple[list[int], list[int], int]:
    """Per colour, the mask of the playable tiles next to its pawns and its pawns on the centre's
    neighbours; and the mask of the empty playable tiles (the centre left out)."""
    near = [0] * players
    ring = [0] * players
    occupied = 0
    for colour in range(players):
        mask = 0
        for tile in pawns[colour]:
            if tile >= 0:
                mask |= NEAR[tile]
                occupied |= 1 << tile
                if tile in RING:
                    ring[colour] += 1
        near[colour] = mask
    return near, ring, PLAYABLE_MASK & ~occupied


def _dangers(
    board: Sequence[int], tiles: Sequence[int], colour: int, mover: int,
    near: list[int], ring: list[int], centre_open: bool,
) -> tuple[int, int, int]:
    """How many of ``colour``'s pawns (on ``tiles``) are flanked by an enemy (BIL-22), threatened
    by the seat to move and threatened only by enemies not to move. A pawn is threatened by an
    enemy on one side of it when the tile on the other side is empty and that enemy can step
    there: a pawn of its is next to that tile, or the tile is around the centre, the centre
    route is open and the enemy has a pawn around the centre too."""
    flanked = threatened_now = threatened_later = 0
    for tile in tiles:
        if tile < 0:
            continue
        danger = 0  # 2: flanked, 1: threatened by the mover, 0: neither (later counted apart)
        later = False
        for a, b in AXES[tile]:
            left, right = board[a], board[b]
            if left >= 0 and left != colour:
                if right == left:
                    danger = 2
                    break
                if right == EMPTY and (near[left] >> b & 1 or (centre_open and b in RING and ring[left])):
                    if left == mover:
                        danger = 1
                    else:
                        later = True
            if right >= 0 and right != colour and left == EMPTY and (
                    near[right] >> a & 1 or (centre_open and a in RING and ring[right])):
                if right == mover:
                    danger = 1
                else:
                    later = True
        if danger == 2:
            flanked += 1
        elif danger == 1:
            threatened_now += 1
        elif later:
            threatened_later += 1
    return flanked, threatened_now, threatened_later


EVALUATOR: Final[Callable[[], Evaluator]] = BilobaEvaluator
"""A new evaluator for each bot (``parlour.bots`` finds it here): Biloba's greedy and strong bots."""
