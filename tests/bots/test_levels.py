"""Levels (issue 19): "The lobby and ``parlour play`` offer levels with plain names (beginner, casual,
club, expert, master or similar), each a bot kind and budget placed by the ladder, with its rating
shown." Placement from a ladder's ratings, the shipped file, and ``parlour ladder --levels``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from parlour.bots import bot_kinds, ladder
from parlour.bots.levels import (
    LEVEL_NAMES,
    LEVELS_FILE,
    Level,
    LevelsError,
    find_level,
    level_counts,
    levels_for,
    place,
    write_levels,
)


@dataclass(frozen=True)
class R:
    name: str
    points: float
    low: float = 0.0
    high: float = 0.0
    games: int = 10


def placed(*ratings: R) -> list[tuple[str, str]]:
    return [(found.name, found.kind if found.seconds is None else f"{found.kind}@{found.seconds:g}")
            for found in place(list(ratings))]


LOA = [R("strong@5", 1148), R("strong@1", 954), R("strong@0.2", 742), R("strong@0.05", 567),
       R("greedy", 298), R("random", 0)]


def test_beginner_is_random_master_the_best_and_the_middle_nearest_their_quarters() -> None:
    # Range 0..1148: marks 287, 574, 861 → greedy (298), strong@0.05 (567), strong@1 (954 is 93 away,
    # strong@0.2's 742 is 119).
    assert placed(*LOA) == [("beginner", "random"), ("casual", "greedy"), ("club", "strong@0.05"),
                            ("expert", "strong@1"), ("master", "strong@5")]
    assert [name for name, _ in placed(*LOA)] == list(LEVEL_NAMES)


def test_each_entrant_is_used_once_and_the_levels_stay_in_rating_order() -> None:
    # Two entrants crowd the middle mark: the nearest to it cannot be both club and expert, and
    # the levels go up with their names whatever the crowding.
    ratings = [R("random", 0), R("a", 480), R("b", 520), R("c", 560), R("top", 1000)]
    levels = place(ratings)
    assert [found.name for found in levels] == list(LEVEL_NAMES)
    assert len({found.kind for found in levels}) == 5
    assert [found.rating for found in levels] == sorted(found.rating for found in levels)


def test_fewer_entrants_give_fewer_levels_the_nearest_marks_kept() -> None:
    assert placed(R("random", 0)) == [("beginner", "random")]
    assert placed(R("random", 0), R("greedy", 300)) == [("beginner", "random"), ("master", "greedy")]
    # One between: it takes the level whose mark it is nearest (300 of 1000: casual's 250).
    assert placed(R("random", 0), R("greedy", 300), R("strong@1", 1000)) == [
        ("beginner", "random"), ("casual", "greedy"), ("master", "strong@1")]
    assert placed(R("random", 0), R("greedy", 700), R("strong@1", 1000)) == [
        ("beginner", "random"), ("expert", "greedy"), ("master", "strong@1")]
    # An entrant no better than random is no level above it.
    assert placed(R("random", 0), R("classic", -40), R("greedy", 300)) == [
        ("beginner", "random"), ("master", "greedy")]


def test_without_random_nothing_is_placed() -> None:
    with pytest.raises(LevelsError, match="random"):
        place([R("greedy", 10), R("strong@1", 20)])


def test_the_shipped_file_places_lines_of_action_for_two_and_nothing_else_yet() -> None:
    levels = levels_for("loa", 2)
    assert [found.name for found in levels] == list(LEVEL_NAMES)
    assert levels[0] == Level("beginner", "random", None, 0, 0, 0, levels[0].games)
    assert all(found.kind in bot_kinds("loa") for found in levels)
    assert [found.rating for found in levels] == sorted(found.rating for found in levels)
    assert all(found.low <= found.rating <= found.high and found.games > 0 for found in levels)
    entry = json.loads(LEVELS_FILE.read_text())["loa"]["2"]
    assert entry["ladder"] == "loa-2p.jsonl"
    assert entry["games"] >= max(found.games for found in levels)
    assert levels_for("loa", 3) == []
    assert levels_for("tictactoe", 2) == []  # no ladder of tictactoe, the engine's example
    assert level_counts("loa") == [2]


def test_an_unknown_level_or_a_game_without_levels_names_what_exists() -> None:
    assert find_level("loa", 2, "Club").name == "club"
    with pytest.raises(LevelsError, match=r"loa has no level 'grandmaster' \(levels: beginner, casual, club, "
                                          r"expert, master\)"):
        find_level("loa", 2, "grandmaster")
    with pytest.raises(LevelsError, match=r"tictactoe has no levels yet.*games with levels: [a-z, ]*\bloa\b"):
        find_level("tictactoe", 2, "club")


def test_writing_a_game_keeps_the_others_and_replaces_its_own(tmp_path: Path) -> None:
    path = tmp_path / "levels.json"
    source = {"ladder": "x.jsonl", "games": 3, "options": {}, "date": "2026-11-27"}
    write_levels("loa", 2, place(LOA), source, path)
    write_levels("biloba", 4, place([R("random", 0), R("classic", 400)]), source, path)
    write_levels("loa", 2, place([R("random", 0), R("greedy", 300)]), {**source, "games": 9}, path)
    assert [found.name for found in levels_for("loa", 2, path)] == ["beginner", "master"]
    assert levels_for("biloba", 4, path)[-1].kind == "classic"
    assert json.loads(path.read_text())["loa"]["2"]["games"] == 9
    assert [entry.name for entry in tmp_path.iterdir()] == ["levels.json"]  # no temporary file left


def test_a_damaged_levels_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "levels.json"
    path.write_text("{not json")
    with pytest.raises(LevelsError, match=r"levels file .* cannot be read"):
        levels_for("loa", 2, path)
    path.write_text('{"loa": {"2": {"levels": [{"name": "club"}]}}}')
    with pytest.raises(LevelsError, match="damaged level"):
        levels_for("loa", 2, path)


def ladder_line(a: str, b: str, seat: int, deal: int, points: float) -> str:
    return json.dumps({"game": "tictactoe", "players": 2, "options": {}, "a": a, "b": b, "a_seat": seat,
                       "deal": deal, "a_points": points, "winner": None, "reason": "x", "plies": 5})


def test_ladder_levels_writes_the_placement_of_its_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``parlour ladder GAME --levels``: "running a ladder and one command updates the levels"."""
    results, levels = tmp_path / "ttt.jsonl", tmp_path / "levels.json"
    # A made-up series: each stronger entrant wins 3 of 4 against the one below it.
    order = ["random", "greedy", "strong@0.01", "strong@1"]
    lines = [ladder_line(low, high, deal % 2, deal, 1 if deal == 0 else 0)
             for below, low in enumerate(order) for high in order[below + 1:] for deal in range(4)]
    results.write_text("\n".join(lines) + "\n")
    status = ladder.main(["tictactoe", "--rounds", "0", "--budgets", "0.01,1", "--file", str(results),
                          "--levels", str(levels)])
    out = capsys.readouterr().out
    assert status == 0
    found = levels_for("tictactoe", 2, levels)
    # Evenly spaced, the two between take the marks nearest them: a quarter and three quarters.
    assert [(level.name, level.entrant) for level in found] == [
        ("beginner", "random"), ("casual", "greedy"), ("expert", "strong@0.01"), ("master", "strong@1")]
    assert "master: strong at 1 s a move, rated +" in out
    entry = json.loads(levels.read_text())["tictactoe"]["2"]
    assert (entry["ladder"], entry["games"]) == ("ttt.jsonl", len(lines))


def test_ladder_levels_without_games_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    levels = tmp_path / "levels.json"
    status = ladder.main(["tictactoe", "--rounds", "0", "--file", str(tmp_path / "none.jsonl"),
                          "--levels", str(levels)])
    assert status == 1
    assert "no levels written" in capsys.readouterr().err
    assert not levels.exists()
