"""``GET /api/games`` gives the levels a ladder placed (issue 19: "The lobby and ``parlour play`` offer
levels with plain names …, each a bot kind and budget placed by the ladder, with its rating shown")."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_helpers import Client
from server_process import Server

from parlour.bots.levels import LEVEL_NAMES, level_json, level_of, levels_for
from parlour.games import GAMES


@pytest.mark.sqlite_only("the games' declaration is the same whatever the store")
def test_the_games_list_gives_each_game_the_levels_its_ladder_placed(server: Server) -> None:
    status, answer = server.call("GET", "/api/games")
    assert status == 200
    listed = {entry["name"]: entry for entry in answer["games"]}
    loa = listed["loa"]["levels"]
    assert list(loa) == ["2"]
    assert [level["name"] for level in loa["2"]] == list(LEVEL_NAMES)
    assert loa["2"] == [level_json(level) for level in levels_for("loa", 2)]
    club = next(level for level in loa["2"] if level["name"] == "club")
    assert set(club) == {"name", "kind", "seconds", "rating", "low", "high", "games"}
    assert club["kind"] in [bot["kind"] for bot in listed["loa"]["bots"]]
    assert club["low"] <= club["rating"] <= club["high"]
    # Each game gives the player counts a ladder has placed, exactly as placed; the others (Biloba
    # with three or four, until its ladders at those tables run) keep only their bot kinds.
    for name, game in GAMES.items():
        placed = {str(players): [level_json(level) for level in levels_for(name, players)]
                  for players in range(game.info.min_players, game.info.max_players + 1)
                  if levels_for(name, players)}
        assert listed[name]["levels"] == placed, name
    assert set(listed["biloba"]["levels"]) == {"2"}


@pytest.mark.sqlite_only("the level is worked out from the stored row the same whatever the store")
def test_a_bot_seat_says_the_level_it_plays_at(server: Server) -> None:
    """A player who picked "club" in the lobby reads "club bot" on the match page, not "strong bot":
    a bot seat whose kind, at the match's bot time, is one of the game's levels carries its name,
    in the lobby's summary and in the match's messages."""
    club = next(level for level in levels_for("loa", 2) if level.name == "club")
    assert club.seconds is not None  # a strong level: its time decides which it is
    created = server.create(game="loa", seats=["open", f"bot:{club.kind}"], bot_seconds=club.seconds)
    match = created["match"]
    assert match["seats"][1]["level"] == "club"
    assert match["seats"][0]["level"] is None  # an open seat
    assert server.summary(match["id"])["seats"][1]["level"] == "club"
    joined = server.join(match["id"], seat=0, name="Ann")

    async def state_seats() -> list[dict[str, Any]]:
        client = await Client.open(server.match_ws(match["id"]), "Ann")
        try:
            return (await client.hello(joined["token"]))["seats"]  # type: ignore[no-any-return]
        finally:
            await client.close()

    seats = asyncio.run(state_seats())
    assert [seat["level"] for seat in seats] == [None, "club"]

    other = min(level.seconds for level in levels_for("loa", 2) if level.seconds is not None) / 2
    off = server.create(game="loa", seats=["open", f"bot:{club.kind}"], bot_seconds=other)["match"]
    assert off["seats"][1]["level"] is None  # no level plays at that time: the page names the kind
    beginner = server.create(game="loa", seats=["open", "bot:random"], bot_seconds=3)["match"]
    assert beginner["seats"][1]["level"] == "beginner"  # random plays alike at any time
    mille = server.create(game="mille", seats=["open", "bot:classic"], bot_seconds=1)["match"]
    placed = level_of("mille", 2, "classic", 1.0)  # a game without levels has none to name
    assert mille["seats"][1]["level"] == (placed.name if placed is not None else None)
