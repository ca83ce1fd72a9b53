"""Bot seats: their thinking runs in worker processes, so search never blocks the event loop.

A worker gets only the seat's view, rebuilds a state from it with ``game.sample_state`` (a
determinisation when something is hidden), asks the bot, and answers with the action's *text*:
the match's writer then validates it like anyone else's.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import random
import signal
from concurrent.futures.process import BrokenProcessPool

from parlour.bots import make_bot
from parlour.engine import JSONDict
from parlour.engine.processes import die_with_parent
from parlour.games import get_game

log = logging.getLogger("parlour.server")


def bot_seed(match_seed: int, seat: int, version: int) -> int:
    """A bot's seed for one decision: reproducible from the match, independent of timing."""
    return random.Random(f"{match_seed}/bot/{seat}/{version}").getrandbits(63)


def think(game_name: str, kind: str, seed: int, seat: int, view: JSONDict, seconds: float) -> str:
    """The text of the action the bot chooses, seeing ``view`` only (runs in a worker)."""
    game = get_game(game_name)
    state = game.sample_state(view, random.Random(seed))
    if state.to_move() != seat:
        raise RuntimeError(f"the view of seat {seat} has seat {state.to_move()} to move")
    bot = make_bot(game_name, kind, seed)
    return state.action_to_text(bot.choose(state, seconds))


def random_choice(game_name: str, seed: int, view: JSONDict) -> str:
    """A random legal action from the view: the fallback when a worker fails."""
    rng = random.Random(seed)
    state = get_game(game_name).sample_state(view, rng)
    return state.action_to_text(rng.choice(state.legal_actions()))


def _worker_start(server: int) -> None:
    """Workers die with the server (even after SIGKILL) and leave Ctrl-C to it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(server, signal.SIGKILL)


class BotPool:
    """A lazily started pool of worker processes for bot decisions."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self.executor: concurrent.futures.ProcessPoolExecutor | None = None

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self.executor is None:
            # spawn, not fork: the server has threads and an event loop that a fork would copy.
            self.executor = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start,
                initargs=(os.getpid(),),
            )
        return self.executor

    async def choose(
        self, game: str, kind: str, seed: int, seat: int, view: JSONDict, seconds: float
    ) -> str:
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            try:
                return await loop.run_in_executor(self._pool(), think, game, kind, seed, seat, view, seconds)
            except BrokenProcessPool:
                log.warning("the bot worker pool broke; starting a new one (attempt %d)", attempt + 1)
                self._discard()
        raise RuntimeError("the bot worker pool keeps breaking")

    def _discard(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None

    def close(self) -> None:
        self._discard()
