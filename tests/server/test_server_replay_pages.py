"""Replay pages worked out from kept positions (``parlour.server.replay``), in the server's own
process: "step through any finished match" one page at a time, in any order: pages asked for out
of order, after the positions kept were dropped, from versions that are not on a page's boundary,
each step the engine's own position; and each page charged by the positions it works out."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from parlour.engine import CHANCE, Action, Game, State
from parlour.engine.game import draw_chance
from parlour.games import get_game
from parlour.server import replay
from parlour.server.limits import Limits
from parlour.server.match import Event
from parlour.server.replay import Asked, Replays

ASYNC = pytest.mark.asyncio(loop_scope="session")


@dataclass
class Row:
    players: int
    options: dict[str, Any]
    seed: int
    start: None = None


@dataclass
class Finished:
    """What ``Replays`` reads of a finished match in memory (a ``Match``'s fields of the same names)."""

    id: str
    game: Game[State]
    row: Row
    state: State
    events: list[Event]
    status: str = "over"
    unreplayed: int = 0
    charged: list[int] = field(default_factory=list)

    @property
    def version(self) -> int:
        return len(self.state.history)

    async def loaded(self) -> None:
        return None

    def charge(self, positions: int) -> None:
        self.charged.append(positions)


def finished(match_id: str, seed: int) -> tuple[Finished, list[State]]:
    """A random Conflict match of some hundreds of actions, and its position at every version."""
    game = get_game("conflict")
    rng = random.Random(seed)
    state = game.new(2, {}, seed)
    positions, events = [state.copy()], []
    while not state.is_over() and len(state.history) < 700:
        mover = state.to_move()
        action: Action = draw_chance(state, rng) if mover == CHANCE else rng.choice(state.legal_actions())
        text = state.action_to_text(action)
        state.apply(action)
        events.append(Event(len(events) + 1, "chance" if mover == CHANCE else mover, action, text))
        positions.append(state.copy())
    return Finished(match_id, game, Row(2, dict(state.options), seed), state, events), positions


@ASYNC
async def test_pages_out_of_order_after_kept_positions_were_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    # Few positions kept, of one match at a time: some pages start from kept positions, others find
    # them dropped.
    monkeypatch.setattr(replay, "KEPT_PER_MATCH", 2)
    monkeypatch.setattr(replay, "MATCHES_KEPT", 1)
    monkeypatch.setattr(replay, "CHECKPOINT_EVERY", 40)
    one, positions = finished("one", 5)
    other, _ = finished("other", 6)
    assert one.version > 300
    replays = Replays(Limits())
    rng = random.Random(1)
    starts = [0, 1, 49, 50, 51, one.version - 3, one.version, 137, 3, one.version // 2, 299, 12]
    rng.shuffle(starts)
    for turn, start in enumerate(starts):
        count = rng.randint(1, 50)
        page = await replays.page(one, Asked(start, count, None), one.charge)
        assert page["perspective"] == "all"
        shown = [step["version"] for step in page["steps"]]
        assert shown == list(range(start, min(start + count, one.version + 1))), (start, count)
        for step in page["steps"]:
            version = step["version"]
            assert step["view"] == positions[version].open_view(), f"version {version} from {start}"
            if version:
                assert step["event"]["action"] == one.events[version - 1].texts
        if turn % 3 == 2:  # another match's replay drops what was kept of this one
            await replays.page(other, Asked(rng.randint(0, other.version), 10, None), other.charge)
            assert list(replays.checkpoints.matches) == ["other"]


@ASYNC
async def test_a_page_is_charged_the_positions_it_works_out() -> None:
    match, _ = finished("charged", 8)
    replays = Replays(Limits())
    await replays.page(match, Asked(300, 50, None), match.charge)  # from the set-up: 349 actions
    await replays.page(match, Asked(350, 50, None), match.charge)  # on from the position kept at 349
    await replays.page(match, Asked(0, 1, None), match.charge)  # the set-up: nothing to play, 1 still
    assert match.charged == [349, 50, 1]
    match.unreplayed = 500  # not in memory yet: the match's own replay is charged too
    await replays.page(match, Asked(0, 1, None), match.charge)
    assert match.charged[-1] == 501
