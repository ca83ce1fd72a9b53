"""Finished matches in memory stay bounded: "a spectator link to share" must not let one address
keep any number of finished matches in memory by holding spectators' sockets on them (each socket
once kept its match past ``FINISHED_KEPT``); a player's connection still keeps its match, and the
chat of two copies of one match read back is numbered on by the store, never twice the same."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from parlour.games import get_game
from parlour.server.bots import BotPool
from parlour.server.lobby import FINISHED_KEPT, Lobby
from parlour.server.postgres import PostgresStore
from parlour.server.pubsub import MemoryPubSub
from parlour.server.storage import MatchRow, MemoryStore, SeatRecord, SQLiteStore, Store, progress_of

ASYNC = pytest.mark.asyncio(loop_scope="session")

WON = [0, 3, 1, 4, 2]
"""A game of tic-tac-toe that X wins on the top row."""


@pytest_asyncio.fixture(params=["memory", "sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """Each store: the chat's numbering across copies of a match is the store's."""
    made: Store
    if request.param == "postgresql":
        made = PostgresStore(request.getfixturevalue("postgres").fresh())
    else:
        made = SQLiteStore(tmp_path / "kept.sqlite3") if request.param == "sqlite" else MemoryStore()
    yield made
    await made.close()


async def stored_finished(store: Store, number: int) -> str:
    state = get_game("tictactoe").new(2, {}, 1)
    seats = [SeatRecord("person", name="Ann"), SeatRecord("person", name="Bob")]
    match_id = f"done{number}"
    await store.create(MatchRow(id=match_id, game="tictactoe", players=2, options={}, seed=1, seats=seats,
                                bot_seconds=1.0, created=float(number), progress=progress_of(state, seats)))
    for action in WON:
        state.play(action)
    await store.append(match_id, 0, WON, progress_of(state, seats))
    return match_id


@ASYNC
async def test_spectators_do_not_keep_finished_matches_in_memory_and_players_do(store: Store) -> None:
    lobby = Lobby(store, MemoryPubSub(), BotPool())
    ids = [await stored_finished(store, number) for number in range(FINISHED_KEPT + 3)]
    watched, played = await lobby.get(ids[0]), await lobby.get(ids[1])
    assert watched.status == "over"
    watched.watching = 200  # spectators' sockets of one address
    played.present[0] = 1  # a player's connection
    for match_id in ids[2:]:
        await lobby.get(match_id)
    assert len(lobby.finished) == FINISHED_KEPT
    assert ids[0] not in lobby.finished
    assert ids[1] in lobby.finished
    # Read back while the old copy still talks: the store numbers both copies' messages on.
    again = await lobby.get(ids[0])
    assert again is not watched
    said = [await copy.chat.say(None, "spectator", text, 1.0)
            for copy, text in ((watched, "from the old"), (again, "from the new"), (watched, "old again"))]
    assert [line.id for line in said] == [1, 2, 3]
    await lobby.close()
