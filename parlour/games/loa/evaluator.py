"""A Lines of Action evaluator in the spirit of MIA and YL (Winands): concentration first.

A side wins by joining all its pieces into one group, so the main term is how far the pieces are
from their centre of mass (beyond the least possible for that many pieces). Centralisation,
solid quads (2×2 squares holding three or four pieces, which are hard to break up and block
lines), the Euler number of the pieces (a quad count that estimates the number of groups) and
mobility refine it. Everything that depends on one side's pieces alone is cached by bitboard,
because a search meets the same placement of one side again and again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, cast

from parlour.engine import MAX_EVAL, Action, Evaluator, State
from parlour.games.loa.rules import LINES, STEPS, LoaState

# Weights, in evaluation units (a piece a step further from its centre of mass than it could
# be costs about CONCENTRATION / pieces).
CONCENTRATION: Final = 480
CENTRALISATION: Final = 6
SOLID_QUAD: Final = 14
EXTRA_GROUP: Final = 40
MOBILITY: Final = 4
TEMPO: Final = 30

CACHE_LIMIT: Final = 400_000

ROW: Final = [square // 8 for square in range(64)]
COL: Final = [square % 8 for square in range(64)]
# DISTANCE[a][b]: king-step (Chebyshev) distance, the one 8-connected groups live by.
DISTANCE: Final = [[max(abs(ROW[a] - ROW[b]), abs(COL[a] - COL[b])) for b in range(64)] for a in range(64)]
# RING[sq]: 0 for the four centre squares up to 3 on the edge; CENTRE rewards the middle.
RING: Final = [max(abs(2 * ROW[s] - 7), abs(2 * COL[s] - 7)) // 2 for s in range(64)]
CENTRE: Final = [(3 - RING[s]) ** 2 for s in range(64)]
EDGE: Final = sum(1 << s for s in range(64) if RING[s] == 3)


def _least_distances(count: int) -> int:
    """The least sum of distances to their centre of mass that ``count`` pieces can have."""
    total, ring, left = 0, 0, count - 1  # one piece sits on the centre itself
    while left > 0:
        ring += 1
        placed = min(left, 8 * ring)
        total += placed * ring
        left -= placed
    return total


LEAST_DISTANCES: Final = [_least_distances(n) for n in range(65)]

# Quads: the 9×9 2×2 windows that overlap the board, border included. The board is copied into
# a 10-wide frame (one empty column and row around it) so that a quad's four squares are the
# bits i, i+1, i+10 and i+11 of the frame for the quad with index i.
QUAD_MASK: Final = sum(1 << (10 * r + c) for r in range(9) for c in range(9))


def framed(bits: int) -> int:
    """The pieces ``bits`` in the 10-wide frame (square r*8+c at bit 10*(r+1)+c+1)."""
    frame = 0
    for row in range(8):
        frame |= ((bits >> (8 * row)) & 0xFF) << (10 * row + 11)
    return frame


def quad_counts(bits: int) -> tuple[int, int, int, int]:
    """How many quads hold exactly one, three and four pieces, and two diagonal pieces."""
    frame = framed(bits)
    a = frame & QUAD_MASK
    b = (frame >> 1) & QUAD_MASK
    c = (frame >> 10) & QUAD_MASK
    d = (frame >> 11) & QUAD_MASK
    # a + b + c + d, bit-sliced: every quad at once.
    ab, cd = a ^ b, c ^ d
    low = ab ^ cd
    twos = (a & b) ^ (c & d) ^ (ab & cd)
    four = a & b & c & d
    one = low & ~twos
    three = low & twos
    diagonal = (a & d & ~b & ~c) | (b & c & ~a & ~d)
    return one.bit_count(), three.bit_count(), four.bit_count(), diagonal.bit_count()


def euler_number(bits: int) -> int:
    """Groups minus holes of the pieces (8-connected), from quad counts (Gray's formula)."""
    one, three, _, diagonal = quad_counts(bits)
    return (one - three - 2 * diagonal) // 4


def mobility(own: int, enemy: int) -> int:
    """Moves of the side owning ``own``, weighted as MIA does: a capture counts 4, a move to the
    edge 1, any other move 2."""
    occupied = own | enemy
    total = 0
    pieces = own
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        base = (low.bit_length() - 1) * 4
        for index in (base, base + 1, base + 2, base + 3):
            for _, target, between in STEPS[index][(occupied & LINES[index]).bit_count()]:
                if not own & target and not enemy & between:
                    total += 4 if enemy & target else 1 if target & EDGE else 2
    return total


class LoaEvaluator(Evaluator):
    """Scores Lines of Action positions; see the module docstring."""

    def __init__(self, use_mobility: bool = True) -> None:
        self._side_cache: dict[int, int] = {}
        self._use_mobility = use_mobility

    def evaluate(self, state: State, seat: int) -> int:
        loa = cast(LoaState, state)
        own, enemy = loa.pieces[seat], loa.pieces[1 - seat]
        cache = self._side_cache
        own_score = cache.get(own)
        if own_score is None:
            own_score = self.side_score(own)
        enemy_score = cache.get(enemy)
        if enemy_score is None:
            enemy_score = self.side_score(enemy)
        score = own_score - enemy_score
        if self._use_mobility:
            score += MOBILITY * (mobility(own, enemy) - mobility(enemy, own)) // 2
        score += TEMPO if loa.turn == seat else -TEMPO
        return max(-MAX_EVAL + 1, min(MAX_EVAL - 1, score))

    def is_tactical(self, state: State, action: Action) -> bool:
        return cast(LoaState, state).is_capture(action)

    def side_score(self, bits: int) -> int:
        """The terms that depend on one side's pieces only (cached)."""
        cache = self._side_cache
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        score = cache[bits] = side_terms(bits)
        return score


def side_terms(bits: int) -> int:
    """Concentration, centralisation, solid quads and groups of one side's pieces."""
    count = bits.bit_count()
    squares = []
    rows = cols = centre = 0
    pieces = bits
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        square = low.bit_length() - 1
        squares.append(square)
        rows += ROW[square]
        cols += COL[square]
        centre += CENTRE[square]
    # The centre of mass, rounded to the nearest square (halves up).
    mass = 8 * ((2 * rows + count) // (2 * count)) + (2 * cols + count) // (2 * count)
    distances = DISTANCE[mass]
    spread = sum(distances[square] for square in squares) - LEAST_DISTANCES[count]
    one, three, four, diagonal = quad_counts(bits)
    # The Euler number counts a group with a hole as none; never fewer than one group.
    groups = max(1, (one - three - 2 * diagonal) // 4)
    return (
        -CONCENTRATION * spread // count
        + CENTRALISATION * centre // count
        + SOLID_QUAD * (three + four)
        - EXTRA_GROUP * (groups - 1)
    )


EVALUATOR: Final[Callable[[], Evaluator]] = LoaEvaluator
"""A new evaluator for each bot (``parlour.bots`` finds it here): LOA's greedy and strong bots."""
