"""Determinised search for games with hidden information and chance, through the engine contract.

The bot never sees the true state: from its seat's view it samples full states consistent
with it (*determinisations*, ``Game.sample_state``), plays each candidate action in each of them
and finishes the game — or the game's natural horizon, such as the end of a hand — with the
game's playout policy, then scores the result with the game's values. The candidates share
their determinisations and the random numbers of their playouts (common random numbers), so
the comparison between two actions is not drowned by the luck of the deal. Sequential halving
spends the budget: every candidate gets the same number of playouts, the worse half is dropped,
and the survivors get twice as many, until one is left. The game's default policy has a say:
its own choice is kept unless the winner beats it, deal for deal, by ``CONFIDENCE`` standard
errors — so the search improves on the policy where it can tell, and never plays a coin toss
between moves its playouts cannot separate.

Determinism (as alpha-beta's LOA-81): the time budget becomes a number of playouts
(``samples_per_second``, fixed per game in the code), so the same view, seed and budget give
the same action on any machine (given the same earlier decisions, where the game's default
policy remembers them). The clock is only a safety stop at ``safety_factor`` times the
budget. All randomness comes from ``self.rng``.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Final

from parlour.bots.search import SAFETY_FACTOR
from parlour.engine import Action, Bot, OptionError, Playouts, State

MIN_SAMPLES: Final = 8
"""Even a tiny budget gets this many playouts."""

CONFIDENCE: Final = 1.5
"""The search leaves the default policy's choice only for an action whose playouts beat it by
this many standard errors: a difference within the noise of the sampled deals is no reason."""


@dataclass(frozen=True)
class SampleReport:
    """What the last search did: how many playouts, how many determinisations, how long."""

    action: Action
    value: float
    """The chosen action's mean value, from 0 to 1."""
    samples: int
    determinisations: int
    candidates: int
    seconds: float

    @property
    def samples_per_second(self) -> float:
        return self.samples / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        return (f"{self.samples:,} playouts ({self.determinisations:,} sampled deals, "
                f"{self.candidates} candidate actions) in {self.seconds:.2f} s = "
                f"{self.samples_per_second:,.0f} samples/s")


class DeterminisedBot(Bot):
    """Sequential halving over the legal actions, each scored by playouts in shared sampled
    states (see the module)."""

    name = "determinised"

    def __init__(self, playouts: Playouts, seed: int = 0, samples_per_second: int | None = None,
                 safety_factor: float = SAFETY_FACTOR, confidence: float = CONFIDENCE) -> None:
        super().__init__(seed)
        self.confidence = confidence
        self.playouts = playouts
        self.samples_per_second = samples_per_second or playouts.samples_per_second
        self.safety_factor = safety_factor
        self.last: SampleReport | None = None

    def choose(self, state: State, seconds: float) -> Action:
        samples = max(MIN_SAMPLES, int(seconds * self.samples_per_second))
        return self.search(state, samples, self.safety_factor * seconds).action

    def search(self, state: State, samples: int, seconds: float | None = None) -> SampleReport:
        """Spends about ``samples`` playouts (and at most ``seconds`` of clock, if given) on the
        decision of ``state.to_move()``, seeing only that seat's view. ``state`` is untouched."""
        started = time.perf_counter()
        seat = state.to_move()
        if seat < 0:
            raise OptionError("no seat is to decide")
        # Everything below comes from the view: two states that look alike to the seat give the
        # same root, hence the same search.
        root = state.game.sample_state(state.view(seat), self.rng)
        actions = root.legal_actions()
        if len(actions) == 1:
            self.last = SampleReport(actions[0], 0.0, 0, 0, 1, time.perf_counter() - started)
            return self.last
        self.playouts.reset()
        choice = self.playouts.default(root, random.Random(self.rng.getrandbits(64)))
        default = choice if choice in actions else None
        deadline = None if seconds is None else started + seconds
        alive = [a for a in self.playouts.candidates(root, actions, default) if a in actions] or list(actions)
        if default is not None and default not in alive:
            alive.append(default)
        if len(alive) == 1:
            self.last = SampleReport(alive[0], 0.0, 0, 0, 1, time.perf_counter() - started)
            return self.last
        scores: dict[Action, list[float]] = {action: [] for action in alive}
        rounds = math.ceil(math.log2(len(alive)))
        done = worlds = 0
        for round_ in range(rounds):
            share = max(1, (samples - done) // ((rounds - round_) * len(alive)))
            for _ in range(share):
                if deadline is not None and time.perf_counter() > deadline:
                    break
                world = self.playouts.determinise(root, seat, self.rng)
                worlds += 1
                luck = self.rng.getrandbits(64)
                for action in alive:
                    trial = world.copy()
                    trial.apply(action)
                    scores[action].append(self.playouts.playout(trial, root, random.Random(luck))[seat])
                    done += 1
            alive.sort(key=lambda a: _mean(scores[a]), reverse=True)
            keep = alive[:max(1, (len(alive) + 1) // 2)]
            if default is not None and default not in keep:
                keep.append(default)  # the default stays, to be compared with the winner
            alive = keep
            if deadline is not None and time.perf_counter() > deadline:
                break
        best = max(alive, key=lambda a: _mean(scores[a]))
        if default is not None and best != default and not _better(scores[best], scores[default],
                                                                    self.confidence):
            best = default
        self.last = SampleReport(best, _mean(scores[best]), done, worlds, len(scores),
                                 time.perf_counter() - started)
        return self.last


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _better(challenger: list[float], default: list[float], confidence: float) -> bool:
    """Whether ``challenger`` beats ``default`` by more than ``confidence`` standard errors, over
    the playouts they share (the first ones of each: the same sampled deals, the same luck)."""
    pairs = min(len(challenger), len(default))
    if pairs < 2:
        return False
    differences = [challenger[i] - default[i] for i in range(pairs)]
    mean = sum(differences) / pairs
    variance = sum((d - mean) ** 2 for d in differences) / (pairs - 1)
    return mean > confidence * math.sqrt(variance / pairs)
