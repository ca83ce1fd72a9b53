"""``GET /api/games`` gives the levels a ladder placed (issue 19: "The lobby and ``parlour play`` offer
levels with plain names …, each a bot kind and budget placed by the ladder, with its rating shown")."""

from __future__ import annotations

import pytest
from server_process import Server

from parlour.bots.levels import LEVEL_NAMES, level_json, levels_for
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
    # Each game gives the player counts a ladder has placed, exactly as placed; the others
    # (Mille Bornes and Conflict, until their ladders run) keep only their bot kinds.
    for name, game in GAMES.items():
        placed = {str(players): [level_json(level) for level in levels_for(name, players)]
                  for players in range(game.info.min_players, game.info.max_players + 1)
                  if levels_for(name, players)}
        assert listed[name]["levels"] == placed, name
    assert listed["mille"]["levels"] == {}
