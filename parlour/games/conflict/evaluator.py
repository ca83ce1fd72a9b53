"""Conflict's evaluator: material by piece value, the danger to home bases, progress towards them.

A takeover (CON-45) passes a whole dominion to the mover, so material is counted by *controller*:
a takeover shows up at once as the victim's pieces changing sides, and losing one's base as the
worst loss there is. What a static count cannot see is the next roll, so each base also carries
a *threat*: the chance that a hostile piece standing within a die's reach lands on it (a die of
at least its distance, on either of two dice), times what the base's holder would lose. With
more than two players, every hostile player rolls before the holder rolls again: their chances
compound (one player's pieces share its dice, so only its best counts).

A position is worth what the seat controls less what its rivals do: the strongest rival's worth
and their mean, half and half (``RIVALS_MEAN_SHARE``). With two players that is the rival's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from parlour.engine import MAX_EVAL, Action, Evaluator, State
from parlour.games.conflict.actions import MOVE
from parlour.games.conflict.board import Board
from parlour.games.conflict.pieces import AAGUN, AIR_CLASS, AIRPLANE, CLASS_OF, EMPTY, SUBMARINE, TYPES
from parlour.games.conflict.rules import ConflictState

PIECE_VALUES: Final = (30, 30, 50, 30, 40)
"""Cannon, AA gun, airplane, ship, submarine: the airplane goes anywhere (CON-8), the submarine
is immune to airplanes (CON-38)."""

RESERVE_SHARE: Final = 0.6
"""A reserve piece needs a 7 to become available (CON-47): it is worth less than one at hand."""

SEAT_BONUS: Final = 120
"""Each seat one controls, besides its material: a base held is a player out (CON-52)."""

AIR_GUARD: Final = 25
"""An AA gun or submarine of the base's side standing on it: no airplane can take it (CON-45)."""

THREAT_SHARE: Final = 0.5
"""How much of a base's worth a threat to it costs; the holder may still parry it."""

TO_ROLL_SHARE: Final = 0.5
"""A threatened base whose holder rolls next: it may capture or block the threat first."""

PROGRESS: Final = 2
"""Per step closer to the nearest hostile base, for a piece on the board, within its horizon."""

PROGRESS_REACH: Final = 20
"""The shortest horizon: a piece within this many steps of the nearest hostile base is worth
``PROGRESS`` more a step closer; a longer board's horizon is its longest side less a die, or the
longest route between two bases if that is longer (``progress_horizon``): 20 on ``classic`` and
``rivers``, 21 on ``ocean`` (round its centre island), 35 on ``crossroads``. Measured (issue
16): on ``ocean`` stretched to 26x40, two players 31 squares apart, strong at 1 s scored 0.533 of
30 games against greedy with a horizon of 20 for both, and 0.756 (0.653-0.836) of 82 games with
34: beyond the horizon a piece felt no pull at all."""

RIVALS_MEAN_SHARE: Final = 0.5
"""With more than one rival, a position is worth what one holds less a mix of the strongest
rival's worth and the rivals' mean: with the strongest alone, a blow to any other rival (the
neighbour attacking one's base) was worth nothing. Two players: the rival's worth either way.
Measured (issue 16, crossroads, 4 players, strong at 1 s against three greedy of the old
evaluation, the same duplicate dice): 0.710 of 31 games with this and the compounding threats,
against 0.387 without. The greedy bot keeps the old evaluation (``greedy_evaluator``)."""

FAR: Final = 99
"""Steps counted at most: a square further from a base by its piece's route, or with no route,
is this far (``REACH`` has a chance for each count up to it)."""


def progress_horizon(board: Board) -> int:
    """The steps from the nearest hostile base within which a step closer is worth ``PROGRESS``."""
    longest_route = max(
        board.routes_from(AIR_CLASS, start)[goal] for start in board.bases for goal in board.bases
    )
    return min(FAR, max(PROGRESS_REACH, max(board.cols, board.rows) - 6, longest_route))


REACH: Final = tuple(
    1.0 - ((d - 1) / 6) ** 2 if 1 <= d <= 6 else 0.1 * (13 - d) / 6 if d <= 12 else 0.0
    for d in range(FAR + 1)
)
"""The chance that two dice show at least one value of ``d`` or more: a piece ``d`` steps from
a base, with room to wander, can then end an exact-length path on it (CON-37). Beyond 6, a
double's extra roll (CON-50) gives a small chance."""

NODES_PER_SECOND: Final = 10_000
"""The strong bot's nodes per second of budget on ``classic``'s 400 squares (LOA-81: a figure
fixed in the code, so that a budget is the same search on every machine)."""

CLASSIC_SQUARES: Final = 400
SQUARES_EXPONENT: Final = 0.5
"""A node costs more on a bigger board (longer paths to search, more squares in every mask):
the figure is ``NODES_PER_SECOND`` times (400 / squares) ** 0.5, never more than classic's.
Measured (issue 16): strong at 1 s against greedy, 2 players, 2 games of 30 decisions a map,
counted nodes per CPU second, median: classic (400 squares) 31,400, rivers (624) 27,700, ocean
(676) 30,800, a 26x52 ocean with a longer sea (1,352) 22,800; crossroads (1,040), 3 games of 40
decisions, 21,000, and its dearest decisions 18,500. The exponent was 0.3 until crossroads: its
slowest decisions took 0.93 s of a 1 s budget on an idle machine. With 0.5 the formula gives 1,
0.80, 0.77, 0.62 and 0.54 of classic's figure; a position's cost varies with its map's shape
more than with its size, so the exponent is chosen for the slowest decisions of the largest
shipped map."""

PIECE_SHARE: Final = 0.006
"""And a node costs more with more pieces on the board and more seats to threaten: every piece
is weighed against every hostile base (``worths``). The figure is divided by 1 + 0.006 times
the pieces on the board times the rivals in the game. Measured (issue 16, ocean and rivers, 2
games of 25 decisions each): CPU µs per counted node against pieces on the board, 2 players
29.9 + 0.09 a piece (flat), 4 players 30.6 + 0.54 a piece (30 µs with no piece, 46 µs with
28 to 31, 61 with 36): about 0.18 µs, 0.006 of a node, per piece and rival."""


def board_nodes_per_second(squares: int, pieces: int = 0, rivals: int = 1) -> int:
    """The strong bot's nodes per second of budget on a board of ``squares`` squares with
    ``pieces`` on it, each seat in the game having ``rivals`` others."""
    size_share = (CLASSIC_SQUARES / max(squares, CLASSIC_SQUARES)) ** SQUARES_EXPONENT
    return int(NODES_PER_SECOND * size_share / (1.0 + PIECE_SHARE * pieces * rivals))


def any_of(chances: list[float]) -> float:
    """The chance that at least one of independent events happens (a lone chance as it is)."""
    result = 0.0
    for chance in chances:
        if chance:
            result = 1.0 - (1.0 - result) * (1.0 - chance) if result else chance
    return result


Routes = tuple[tuple[tuple[int, ...], ...], ...]
"""Per piece kind, per base seat, per square: the steps to the base (``ConflictEvaluator.routes``)."""


class ConflictEvaluator(Evaluator):
    """Scores a Conflict position for one player (engine seat) against its rivals (``RIVALS_MEAN_SHARE``)."""

    nodes_per_second = NODES_PER_SECOND
    turn_of_decisions = True  # a roll is several decisions: the greedy bot judges the whole roll

    def __init__(self, every_rival: bool = True) -> None:
        self._routes: dict[int, tuple[Routes, int]] = {}
        self.every_rival = every_rival
        """Whether threats of several players compound and every rival's worth counts (the
        module's docstring); ``False``: the most likely threat and the strongest rival alone."""
        self.mean_share = RIVALS_MEAN_SHARE if every_rival else 0.0

    def nodes_per_second_at(self, state: State) -> int:
        """Fewer nodes per second on a bigger board and with more pieces and rivals, so that a
        budget takes about as long on every board and at every stage of a game."""
        assert isinstance(state, ConflictState)
        rivals = sum(1 for seat in state.occupied if state.out[seat] is None) - 1
        return board_nodes_per_second(state.board.size, len(state.pieces), max(rivals, 0))

    def routes(self, board: Board) -> tuple[Routes, int]:
        """Per piece kind and base seat, every square's steps to that base by the kind's route (at
        most ``FAR``: a cannon goes round a lake, a ship round an island, anything round a wall),
        and the board's ``progress_horizon``."""
        found = self._routes.get(id(board))
        if found is None:
            by_class = {
                cls: tuple(tuple(min(FAR, steps) for steps in board.routes_from(cls, base))
                           for base in board.bases)
                for cls in set(CLASS_OF)
            }
            found = tuple(by_class[cls] for cls in CLASS_OF), progress_horizon(board)
            self._routes[id(board)] = found
        return found

    def worths(self, state: ConflictState) -> list[float]:
        """Per board seat (0…3), the worth of what that seat's player controls, threats included."""
        controller, board = state.controller, state.board
        routes, horizon = self.routes(board)
        worth = [0.0] * 4
        for code in range(4 * TYPES):
            count_available, count_reserve = state.available[code], state.reserve[code]
            if count_available or count_reserve:
                value = PIECE_VALUES[code % TYPES]
                worth[controller[code // TYPES]] += value * (count_available + RESERVE_SHARE * count_reserve)
        in_game = [seat for seat in state.occupied if state.out[seat] is None]
        hostile_bases = {seat: [base for base in in_game if controller[base] != seat] for seat in in_game}
        threat = [[0.0] * 4 for _ in range(4)]  # per base seat, per player: its best piece's chance
        squares, bases = state.squares, board.bases
        air_proof = [
            squares[bases[seat]] != EMPTY and squares[bases[seat]] % TYPES in (AAGUN, SUBMARINE)
            for seat in range(4)
        ]  # CON-45 item 1: an airplane may not land on a base held by an AA gun or a submarine
        for square, code in state.pieces.items():
            holder = controller[code // TYPES]
            kind = code % TYPES
            distance = routes[kind]
            worth[holder] += PIECE_VALUES[kind]
            targets = hostile_bases.get(holder)
            if not targets:
                continue
            nearest = FAR
            for base in targets:
                steps = distance[base][square]
                if steps < nearest:
                    nearest = steps
                if REACH[steps] > threat[base][holder] and not (kind == AIRPLANE and air_proof[base]):
                    threat[base][holder] = REACH[steps]
            worth[holder] += PROGRESS * max(0, horizon - nearest)
        for seat in in_game:
            if air_proof[seat] and controller[squares[bases[seat]] // TYPES] == controller[seat]:
                worth[controller[seat]] += AIR_GUARD
        for seat in range(4):
            if controller[seat] != seat:
                worth[controller[seat]] += SEAT_BONUS
        lost = list(worth)
        roller = controller[state.seat]
        for base in in_game:
            chance = any_of(threat[base]) if self.every_rival else max(threat[base])
            if chance:
                # The base's holder risks its whole dominion, less so when it rolls first.
                share = THREAT_SHARE * (TO_ROLL_SHARE if controller[base] == roller else 1.0)
                worth[controller[base]] -= share * chance * (lost[controller[base]] + SEAT_BONUS)
        return worth

    def evaluate(self, state: State, seat: int) -> int:
        assert isinstance(state, ConflictState)
        return self._against_rivals(state, self.worths(state), state.occupied[seat])

    def evaluate_all(self, state: State) -> list[int]:
        assert isinstance(state, ConflictState)
        worth = self.worths(state)
        return [self._against_rivals(state, worth, seat) for seat in state.occupied]

    def _against_rivals(self, state: ConflictState, worth: list[float], mine: int) -> int:
        """``mine``'s worth less its rivals': the strongest's and their mean, half and half (the
        strongest's alone unless ``every_rival``)."""
        rivals = [worth[other] for other in state.occupied if other != mine and state.out[other] is None]
        if not rivals:
            return 0
        against = (1.0 - self.mean_share) * max(rivals) + self.mean_share * sum(rivals) / len(rivals)
        return max(-MAX_EVAL + 1, min(MAX_EVAL - 1, int(worth[mine] - against)))

    def is_tactical(self, state: State, action: Action) -> bool:
        """A move that ends on a piece or on a base hostile to the mover (a capture or takeover)."""
        if action < MOVE:
            return False
        assert isinstance(state, ConflictState)
        final = (action - MOVE) % state.board.size
        if state.squares[final] != EMPTY:
            return True
        base_seat = state.board.base_seat[final]
        return base_seat >= 0 and state.controller[base_seat] != state.seat


EVALUATOR: Final[Callable[[], Evaluator]] = ConflictEvaluator
"""A new evaluator for each bot (``parlour.bots`` finds it here): Conflict's strong bot."""


def greedy_evaluator() -> Evaluator:
    """The greedy bot's: the most likely threat to a base and the strongest rival alone, as it
    was when issue 16 set strong's targets against it. With strong's evaluation, greedy held
    strong at 1 s to 5 wins in 24 four-player games on crossroads (0.21): there the evaluation,
    not strong's search, made the difference."""
    return ConflictEvaluator(every_rival=False)


GREEDY_EVALUATOR: Final[Callable[[], Evaluator]] = greedy_evaluator
