"""Conflict maps: the format (CON-10, CON-11), validation (CON-12), warnings (CON-13), the
default board parlour-20 (CON-15) and its testable properties (CON-16), the shipped maps (CON-72)
and the check that reports every problem on its squares (issue 16's map editor)."""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest
from conflict_helpers import CONFLICT

import parlour.web
from parlour.engine import FormatError
from parlour.games.conflict.board import bits, board_for
from parlour.games.conflict.maps import (
    BASE,
    BLOCKED,
    LAND,
    MAP_BOARDS,
    MAP_FILES,
    PARLOUR_20,
    RECOMMENDED_MAP,
    SHIPPED_MAPS,
    WATER,
    check_map,
    load_map,
    map_name,
    neighbour_table,
    parse_map,
    reached,
    route_length,
)
from parlour.games.conflict.pieces import AIR_CLASS, LAND_CLASS, WATER_CLASS

SMALL = """\
conflict-map 1
name small   ; a 6x5 test map
size 6x5
terrain
.+~~+.
..~...
#..~..
..~~..
.+~~+.
end
base 1 b1
base 2 e1
base 3 b5
base 4 e5
mine 1 a1
mine 1 a2
mine 2 f2
mine 2 f1
mine 3 a4
mine 3 a5
mine 4 f4
mine 4 f5
"""
"""Land crosses the water where c3 and d2 touch corners; water where c2 and d3 do."""


def error_of(text: str) -> str:
    with pytest.raises(FormatError) as error:
        parse_map(text)
    return str(error.value)


def edit(old: str, new: str, text: str = SMALL) -> str:
    assert old in text
    return text.replace(old, new, 1)


# --- CON-10, CON-11: the format ---------------------------------------------------------------------


def test_a_small_map_is_read() -> None:
    # CON-10, CON-11
    board_map = parse_map(SMALL)
    assert (board_map.name, board_map.cols, board_map.rows) == ("small", 6, 5)
    assert [board_map.square_name(s) for s in board_map.bases] == ["b1", "e1", "b5", "e5"]
    assert [[board_map.square_name(s) for s in pair] for pair in board_map.mines] == [
        ["a1", "a2"], ["f1", "f2"], ["a4", "a5"], ["f4", "f5"]]
    assert board_map.terrain[:6] == (LAND, BASE, WATER, WATER, BASE, LAND)
    assert board_map.terrain[12] == BLOCKED  # a3


def test_comments_blank_lines_and_trailing_whitespace_are_ignored() -> None:
    # CON-10
    text = "; a comment first\n\n" + SMALL.replace("size 6x5", "   size   6x5   ; comment ").replace(
        ".+~~+.\n..~...", ".+~~+.   \n..~...\t")
    assert parse_map(text).cols == 6


def test_the_map_text_round_trips() -> None:
    board_map = load_map("parlour-20")
    assert parse_map(board_map.text()) == board_map


@pytest.mark.parametrize(
    ("text", "line", "item"),
    [
        (edit("conflict-map 1", "name first"), "1", "item 1"),
        (edit("conflict-map 1", "conflict-map 2"), "1", "item 1"),
        (edit("terrain\n", "colour red\nterrain\n"), "4", "item 1"),
        (edit("size 6x5\n", "size 6x5\nname again\n"), "4", "item 1"),
        (edit("name small   ; a 6x5 test map\n", ""), "21 (end of file)", "item 2"),
        (edit("size 6x5\n", ""), "3", "item 2"),
        (edit("size 6x5", "size 4x5"), "3", "item 2"),
        (edit("size 6x5", "size 6x100"), "3", "item 2"),
        (edit("size 6x5\n", "") + "size 6x5\n", "3", "item 2"),
        (edit("..~...\n#..~..", "..~...\nend"), "7", "item 3"),
        (edit("#..~..", "#..~."), "7", "item 3"),
        (edit("#..~..", "#..~.x"), "7", "item 3"),
        (edit("#..~..", "#..~.. ; no comments"), "7", "item 3"),
        (edit(".+~~+.\nend", ".+~~+.\n......\nend"), "10", "item 3"),
        (edit("#..~..", "#..+.."), "4", "item 4"),
        (edit("base 2 e1", "base 1 e1"), "12", "item 5"),
        (edit("base 2 e1", "base 2 c3"), "12", "item 5"),
        (edit("base 2 e1\n", ""), "21 (end of file)", "item 5"),
        (edit("mine 4 f5", "mine 3 f5"), "22", "item 6"),
        (edit("mine 4 f5", "mine 4 e5"), "22", "item 6"),
        (edit("mine 4 f5", "mine 4 a3"), "22", "item 6"),
        (edit("mine 4 f5", "mine 4 f4"), "22", "item 6"),
        (edit("mine 4 f5\n", ""), "21 (end of file)", "item 6"),
        (edit("mine 4 f5", "mine 4 g4"), "22", "item 7"),
        (edit("mine 4 f5", "mine 4 f6"), "22", "item 7"),
        (edit("mine 4 f5", "mine 5 f5"), "22", "item 7"),
        (edit(".+~~+.\n..~...", ".+.~+.\n......"), "11", "item 8"),
        (edit("..~~..\n.+~~+.", "..~~~~\n.+~~+~"), "14", "item 8"),
    ],
)
def test_a_bad_map_is_refused_naming_the_line_and_the_rule(text: str, line: str, item: str) -> None:
    # CON-12: one case per problem of each item.
    message = error_of(text)
    assert f"line {line}" in message, message
    assert f"CON-12 {item}" in message, message


def test_the_end_of_the_file_is_named_when_something_is_missing() -> None:
    # CON-12 items 2 and 3: detected only at the end.
    assert "line 4 (end of file)" in error_of("conflict-map 1\nname x\nsize 6x5\n; no terrain\n")
    message = error_of("conflict-map 1\nname x\nsize 6x5\nterrain\n.+~~+.\n")
    assert "end of file" in message
    assert "item 3" in message
    assert "item 1" in error_of("; nothing but a comment\n")


def test_a_bad_map_option_is_a_format_error() -> None:
    # CON-12 through the game's 'board' option: the same message reaches the caller.
    with pytest.raises(FormatError, match="line 3"):
        CONFLICT.new(2, {"board": edit("size 6x5", "size 6x4")})  # the block runs into 'end'

    with pytest.raises(FormatError, match="no map called"):
        CONFLICT.new(2, {"board": "atlantis"})


# --- CON-13: warnings --------------------------------------------------------------------------------


def test_a_playable_map_has_no_warnings() -> None:
    assert parse_map(SMALL).warnings == ()
    assert load_map("parlour-20").warnings == ()


def test_missing_routes_are_warned_about_but_the_map_loads() -> None:
    # CON-13 item 1: without the land bridge c3 the left bases have no land route to the right
    # ones; water still joins them all, and every base still touches land and water.
    cut = edit("#..~..", "#.~~..")
    warnings = parse_map(cut).warnings
    assert len(warnings) == 8
    assert all("CON-13 item 1" in w and "no land route" in w for w in warnings)
    assert "no land route from base 1 (b1) to base 2 (e1)" in warnings[0]
    game = CONFLICT.new(2, {"board": cut})
    assert game.view(None)["content"]["board"]["warnings"] == list(warnings)


def test_a_mine_across_the_only_route_is_warned_about() -> None:
    # CON-13 item 1: routes avoid the mines of every other seat, not the seat's own.
    mined = edit("mine 3 a4", "mine 3 c3")
    warnings = " ".join(parse_map(mined).warnings)
    assert "no land route from base 1 (b1) to base 2 (e1)" in warnings
    assert "no land route from base 3 (b5) to base 2 (e1)" not in warnings


@pytest.mark.parametrize("name", [*SHIPPED_MAPS, "cut"])
def test_one_search_from_a_base_answers_for_every_goal(name: str) -> None:
    # CON-13 item 1 looks for routes with one search per base and kind: a square is reached
    # exactly when route_length finds a route to it, from every base, by land and by water.
    text = edit("#..~..", "#.~~..") if name == "cut" else SHIPPED_MAPS[name]
    board_map = parse_map(text)
    cols, rows, terrain = board_map.cols, board_map.rows, board_map.terrain
    for seat, base in enumerate(board_map.bases):
        avoid = {square for other, pair in enumerate(board_map.mines) if other != seat for square in pair}
        for kinds in ((LAND, BASE), (WATER, BASE)):
            found = reached(cols, rows, terrain, kinds, base, avoid)
            for goal in range(0, board_map.size, 7 if board_map.size > 100 else 1):
                routed = route_length(cols, rows, terrain, kinds, base, goal, avoid) is not None
                assert bool(found[goal]) == routed, (seat, board_map.square_name(goal))


@pytest.mark.parametrize(("cols", "rows"), [(5, 5), (6, 5), (26, 7)])
def test_the_neighbour_table_is_con_6(cols: int, rows: int) -> None:
    # CON-6: the squares one step away in any of the 8 directions, on the board, in reading order.
    table = neighbour_table(cols, rows)
    assert len(table) == cols * rows
    for square, near in enumerate(table):
        row, col = divmod(square, cols)
        expected = [other for other in range(cols * rows)
                    if other != square and max(abs(other // cols - row), abs(other % cols - col)) == 1]
        assert list(near) == expected


def test_bases_out_of_their_corners_are_warned_about() -> None:
    # CON-13 item 2
    swapped = edit("base 2 e1", "base 1 e1", edit("base 1 b1", "base 2 b1"))
    warnings = parse_map(swapped).warnings
    assert sum("CON-13 item 2" in w for w in warnings) == 2
    assert "base 1 (e1) is not in the upper-left quarter" in " ".join(warnings)


# --- CON-15, CON-16: parlour-20 ------------------------------------------------------------------------


def test_the_default_board_is_the_spec_map() -> None:
    # CON-15: the shipped map is the file of the spec, and the game's default board.
    assert CONFLICT.new(2).board.map == parse_map(PARLOUR_20)
    board_map = load_map("parlour-20")
    assert (board_map.name, board_map.cols, board_map.rows) == ("parlour-20", 20, 20)
    names = [[board_map.square_name(s) for s in pair] for pair in board_map.mines]
    assert names == [["c3", "g7"], ["r3", "n7"], ["g14", "c18"], ["n14", "r18"]]
    assert [board_map.square_name(s) for s in board_map.bases] == ["e5", "p5", "e16", "p16"]


def test_the_default_board_counts() -> None:
    # CON-16: 228 land, 156 water, 12 impassable and 4 bases.
    terrain = load_map("parlour-20").terrain
    assert [terrain.count(kind) for kind in (LAND, WATER, BLOCKED, BASE)] == [228, 156, 12, 4]


def regions(kinds: tuple[int, ...]) -> list[set[str]]:
    board = board_for("parlour-20")
    left = {s for s in range(board.size) if board.terrain[s] in kinds}
    found = []
    while left:
        first = left.pop()
        region, queue = {first}, deque([first])
        while queue:
            square = queue.popleft()
            for near in bits(board.step_mask[AIR_CLASS][square]):
                if near in left:
                    left.discard(near)
                    region.add(near)
                    queue.append(near)
        found.append({board.names[s] for s in region})
    return sorted(found, key=len, reverse=True)


def test_the_land_regions_and_the_centre_island() -> None:
    # CON-16: the outer region of 220 squares and the island of 12 around the 2x2 peak.
    outer, island = regions((LAND, BASE))
    assert (len(outer), len(island)) == (220, 12)
    assert island == set(["i9", "j9", "k9", "l9", "i10", "l10", "i11", "l11", "i12", "j12", "k12", "l12"])
    board = board_for("parlour-20")
    assert {board.names[s] for s in range(board.size) if board.terrain[s] == BLOCKED} >= {"j10", "k10", "j11",
                                                                                             "k11"}


def test_the_water_is_one_region() -> None:
    # CON-16: 160 squares with the bases.
    water = regions((WATER, BASE))
    assert [len(region) for region in water] == [160]


def test_the_default_board_has_the_eight_symmetries() -> None:
    # CON-16: terrain, bases and mines unchanged; each seat's base and mines map onto one seat's.
    board_map = load_map("parlour-20")
    n = 20

    def transforms(row: int, col: int) -> list[tuple[int, int]]:
        return [(row, col), (col, n - 1 - row), (n - 1 - row, n - 1 - col), (n - 1 - col, row),
                (row, n - 1 - col), (n - 1 - row, col), (col, row), (n - 1 - col, n - 1 - row)]

    for index in range(8):
        def image(square: int, index: int = index) -> int:
            row, col = transforms(*divmod(square, n))[index]
            return row * n + col

        assert all(board_map.terrain[image(s)] == board_map.terrain[s] for s in range(n * n))
        for seat in range(4):
            target = board_map.bases.index(image(board_map.bases[seat]))
            assert {image(s) for s in board_map.mines[seat]} == set(board_map.mines[target])


@pytest.mark.parametrize(
    ("other", "land", "water", "air"),
    [("p5", 11, 11, 11), ("e16", 11, 11, 11), ("p16", 22, 15, 13)],
)
def test_shortest_routes_from_a_base(other: str, land: int, water: int, air: int) -> None:
    # CON-16's table, from seat 1's base, avoiding the mines of all other seats.
    board_map = load_map("parlour-20")
    board = board_for("parlour-20")
    avoid = {s for pair in board_map.mines[1:] for s in pair}
    start, goal = board.square_of("e5"), board.square_of(other)
    assert start is not None
    assert goal is not None
    lengths = [route_length(20, 20, board_map.terrain, kinds, start, goal, avoid)
               for kinds in ((LAND, BASE), (WATER, BASE), (LAND, WATER, BASE))]
    assert lengths == [land, water, air]


def test_the_island_corner() -> None:
    # CON-16: from i9 the only 4-step route to e5 crosses g7, seat 1's water mine; a hostile
    # airplane there needs a 5 or a 6 to land on e5.
    board = board_for("parlour-20")
    i9, e5 = board.square_of("i9"), board.square_of("e5")
    assert i9 is not None
    assert e5 is not None
    hostile = sum(1 << s for s in board.mines[0])  # seat 1's mines, hostile to the airplane
    reach = [bool(board.finals(AIR_CLASS, i9, die, hostile) >> e5 & 1) for die in range(1, 7)]
    assert reach == [False, False, False, False, True, True]
    path = board.first_path(AIR_CLASS, i9, 4, e5, 0, lambda visited: True)
    assert path is not None
    assert [board.names[s] for s in path] == ["h8", "g7", "f6", "e5"]


def test_base_surroundings() -> None:
    # CON-16: 5 land and 3 water neighbours at every base.
    board = board_for("parlour-20")
    e5 = board.bases[0]
    assert [board.names[s] for s in bits(board.step_mask[LAND_CLASS][e5])] == ["d4", "e4", "f4", "d5", "d6"]
    assert [board.names[s] for s in bits(board.step_mask[WATER_CLASS][e5])] == ["f5", "e6", "f6"]
    for base in board.bases:
        assert len(bits(board.step_mask[LAND_CLASS][base])) == 5
        assert len(bits(board.step_mask[WATER_CLASS][base])) == 3


# --- CON-72: the shipped maps, the editor's check (issue 16) --------------------------------------------


def test_every_shipped_map_passes_the_check() -> None:
    # "Engine tests: every shipped map passes the map check": no errors and no warnings, named as its file.
    names = list(SHIPPED_MAPS)
    assert names == ["classic", *sorted(name for name in names if name != "classic")]
    assert sorted(SHIPPED_MAPS) == sorted(path.stem for path in MAP_FILES.glob("*.cmap"))
    for name, text in SHIPPED_MAPS.items():
        assert check_map(text) == [], name
        assert parse_map(text).name == name
        assert map_name(text) == name
    assert RECOMMENDED_MAP in SHIPPED_MAPS


def test_classic_is_the_spec_map_and_parlour_20_its_alias() -> None:
    # CON-72: the 20x20 map is named classic; parlour-20 (CON-15, stored matches) gives the same
    # board under its old name, and is taken by the option but not listed.
    assert SHIPPED_MAPS["classic"] == PARLOUR_20.replace("name parlour-20\n", "name classic\n")
    classic, old = load_map("classic"), load_map("parlour-20")
    assert (classic.name, old.name) == ("classic", "parlour-20")
    assert (classic.cols, classic.rows, classic.terrain, classic.bases, classic.mines) == (
        old.cols, old.rows, old.terrain, old.bases, old.mines)
    assert "parlour-20" not in SHIPPED_MAPS
    assert CONFLICT.boards is not None
    assert "parlour-20" not in CONFLICT.boards.shipped()
    assert CONFLICT.boards.aliases() == {"parlour-20": "classic"}
    assert CONFLICT.new(2, {"board": "classic"}).board.map == classic
    assert CONFLICT.new(2).view(None)["options"]["board"] == "parlour-20"  # CON-70's default
    with pytest.raises(FormatError, match=r"\(maps: classic"):
        load_map("atlantis")


def test_the_drawing_is_the_views_board() -> None:
    boards = CONFLICT.boards
    assert boards is not None
    assert boards.drawing(SMALL) == parse_map(SMALL).json()
    assert boards.drawing(SHIPPED_MAPS["classic"]) == load_map("classic").json()
    assert boards.name_of(SMALL) == "small"
    assert boards.name_of(edit("name small   ; a 6x5 test map\n", "")) is None
    with pytest.raises(FormatError, match="CON-12 item 4"):
        boards.drawing(edit("#..~..", "#..+.."))


Problem = tuple[str, str, tuple[str, ...], int | None]
"""A problem as (severity, rule, squares, line)."""


def problems_of(text: str) -> list[Problem]:
    return [(p.severity, p.rule, p.squares, p.line) for p in check_map(text)]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        # CON-12 item 1: an unknown directive, on its line.
        (edit("terrain\n", "colour red\nterrain\n"), ("error", "CON-12 item 1", (), 4)),
        # CON-12 item 2: a size out of range.
        (edit("size 6x5", "size 4x5"), ("error", "CON-12 item 2", (), 3)),
        # CON-12 item 3: bad characters, on their squares and line.
        (edit("#..~..", "#x.~y."), ("error", "CON-12 item 3", ("b3", "e3"), 7)),
        # CON-12 item 4: five '+' squares, all of them.
        (edit("#..~..", "#..+.."), ("error", "CON-12 item 4", ("b1", "e1", "d3", "b5", "e5"), 4)),
        # CON-12 item 5: a base off a '+', a base on another's square, a second base.
        (edit("base 2 e1", "base 2 c3"), ("error", "CON-12 item 5", ("c3",), 12)),
        (edit("base 2 e1", "base 2 b1"), ("error", "CON-12 item 5", ("b1",), 12)),
        (edit("base 2 e1", "base 1 e1"), ("error", "CON-12 item 5", ("e1",), 12)),
        # CON-12 item 6: a mine on a base, on impassable ground, shared, a seat's count.
        (edit("mine 4 f5", "mine 4 e5"), ("error", "CON-12 item 6", ("e5",), 22)),
        (edit("mine 4 f5", "mine 4 a3"), ("error", "CON-12 item 6", ("a3",), 22)),
        (edit("mine 4 f5", "mine 4 a1"), ("error", "CON-12 item 6", ("a1",), 22)),
        (edit("mine 4 f5", "mine 3 f5"), ("error", "CON-12 item 6", ("f5",), 22)),
        # CON-12 item 7: a seat that is not 1-4 (its square still named), a square off the board.
        (edit("mine 4 f5", "mine 5 f5"), ("error", "CON-12 item 7", ("f5",), 22)),
        (edit("mine 4 f5", "mine 4 g4"), ("error", "CON-12 item 7", (), 22)),
        # CON-12 item 8: a base without water, on the base's square and line.
        (edit("..~~..\n.+~~+.", "..~~~~\n.+~~+~"), ("error", "CON-12 item 8", ("e5",), 14)),
        # CON-13 item 1: a route, on the two bases' squares.
        (edit("#..~..", "#.~~.."), ("warning", "CON-13 item 1", ("b1", "e1"), None)),
        # CON-13 item 2: a base out of its corner, on its square.
        (edit("base 2 e1", "base 1 e1", edit("base 1 b1", "base 2 b1")),
         ("warning", "CON-13 item 2", ("e1",), None)),
    ],
)
def test_each_problem_names_its_squares(text: str, problem: Problem) -> None:
    # Issue 16: "see every validation error of the engine's map check on the square it concerns".
    assert problem in problems_of(text)


def test_the_check_reports_every_problem_not_just_the_first() -> None:
    text = edit("base 2 e1", "base 2 c3", edit("mine 1 a2", "mine 1 a3", edit("mine 4 f5", "mine 4 e5")))
    text += "mine 3 a1\nbase 7 a1\nbase 1 z9\n"
    assert problems_of(text) == [
        ("error", "CON-12 item 7", ("a1",), 24),  # seat 7: item 7 is checked first (CON-12's order)
        ("error", "CON-12 item 7", (), 25),  # z9
        ("error", "CON-12 item 5", ("c3",), 12),  # base 2 off its '+'
        ("error", "CON-12 item 6", ("a3",), 16),  # a mine on '#'
        ("error", "CON-12 item 6", ("e5",), 22),  # a mine on a base
        ("error", "CON-12 item 6", ("a1",), 23),  # seat 3's third mine
        ("error", "CON-12 item 5", ("e1",), 5),  # the '+' square base 2 should name is named by none
    ]


@pytest.mark.parametrize(
    ("old", "new", "problem", "healthy"),
    [
        ("mine 1 a2", "mine 1 a3", ("error", "CON-12 item 6", ("a3",), 16), "a1"),  # on '#'
        ("mine 1 a2", "mine 1 b1", ("error", "CON-12 item 6", ("b1",), 16), "a1"),  # on a base
        ("mine 4 f5", "mine 4 a1", ("error", "CON-12 item 6", ("a1",), 22), "f4"),  # on seat 1's mine
        ("base 2 e1", "base 2 c3", ("error", "CON-12 item 5", ("c3",), 12), "f2"),  # off its '+'
    ],
)
def test_a_line_refused_for_its_square_is_one_problem(
    old: str, new: str, problem: Problem, healthy: str
) -> None:
    # Issue 16's editor paints each problem on its square: a mine refused for its square still
    # counts towards the seat's two, so the seat is not also "short of a mine", painted on its
    # other, healthy mine; a base off its '+' still names its seat.
    text = edit(old, new)
    problems = problems_of(text)
    assert problems[0] == problem
    assert all(healthy not in squares for _, _, squares, _ in problems), problems
    assert not any("not 2" in p.message or "names seat" in p.message for p in check_map(text))


def test_a_seat_short_of_a_line_is_still_told() -> None:
    # CON-12 items 5 and 6: a mine line missing, or a base line, is a problem of its own.
    assert problems_of(edit("mine 1 a2\n", "")) == [("error", "CON-12 item 6", ("a1",), None)]
    assert "seat 1 has 1 mine, not 2" in error_of(edit("mine 1 a2\n", ""))
    assert problems_of(edit("mine 1 a2\n", "", edit("mine 1 a1", "mine 1 a3"))) == [
        ("error", "CON-12 item 6", ("a3",), 15),  # the mine on '#'
        ("error", "CON-12 item 6", (), None),  # and one line short: "seat 1 has 1 mine, not 2"
    ]
    assert "no 'base' line names seat 2" in error_of(edit("base 2 e1\n", ""))


def test_a_broken_terrain_block_reports_each_line_and_reading_goes_on() -> None:
    text = edit("#..~..\n..~~..", "#..~.x\n..~~.", edit("name small", "name Small"))
    assert problems_of(text) == [
        ("error", "CON-10", (), 2),  # the name
        ("error", "CON-12 item 3", ("f3",), 7),
        ("error", "CON-12 item 3", (), 8),
    ]
    assert "line 2" in error_of(text)


def test_a_file_saved_on_windows_is_read() -> None:
    # A map downloaded, edited elsewhere and uploaded again: a byte order mark, \r\n line ends.
    windows = "\ufeff" + SMALL.replace("\n", "\r\n")
    assert check_map(windows) == []
    assert parse_map(windows) == parse_map(SMALL)
    assert map_name(windows) == "small"


def test_reading_stops_only_where_the_rest_cannot_be_read() -> None:
    # No size: the terrain block cannot be read; a first line that is no map's: nothing can.
    assert problems_of(edit("size 6x5", "size 6y5")) == [("error", "CON-12 item 2", (), 3)]
    assert problems_of("hello\nworld\n") == [("error", "CON-12 item 1", (), 1)]


def mutations(text: str) -> list[str]:
    """Every line dropped, doubled, or with a character changed: texts with one problem or more."""
    lines = text.split("\n")
    found = []
    for index, line in enumerate(lines):
        found.append("\n".join(lines[:index] + lines[index + 1:]))
        found.append("\n".join(lines[:index + 1] + lines[index:]))
        for where in (0, len(line) // 2, len(line) - 1):
            for glyph in ("#", "+", "x", "9"):
                if 0 <= where < len(line):
                    changed = line[:where] + glyph + line[where + 1:]
                    found.append("\n".join([*lines[:index], changed, *lines[index + 1:]]))
    return found


def test_parse_map_refuses_with_the_checks_first_error_and_only_then() -> None:
    # One source for each rule: the map is refused exactly when the check has an error, and the
    # refusal is the check's first error.
    for text in mutations(SMALL):
        problems = check_map(text)
        errors = [problem for problem in problems if problem.severity == "error"]
        if not errors:
            warnings = [f"{warning.message} ({warning.rule})" for warning in problems]
            assert warnings == list(parse_map(text).warnings)
            continue
        assert errors == problems
        message = error_of(text)
        first = errors[0]
        assert message.endswith(f": {first.message} ({first.rule})"), (message, first)
        if first.line is not None:
            assert message.startswith(f"map line {first.line}: ")


def test_the_rules_page_and_the_option_name_the_shipped_maps() -> None:
    # The lobby shows the board option's help, the rules page explains the option: both name the
    # maps shipped now (classic, the recommended one and the others), not "parlour-20 is the
    # standard one".
    board_option = CONFLICT.info.options[0]
    assert board_option.name == "board"
    page = (Path(parlour.web.__file__).parent / "help" / "conflict.html").read_text(encoding="utf-8")
    options = page[page.index('<section id="options">'):]
    item = options[options.index("<strong>board</strong>"):options.index("</li>")]
    for name in SHIPPED_MAPS:
        assert name in board_option.help
        assert f"<em>{name}</em>" in item
    after = item[item.index(f"<em>{RECOMMENDED_MAP}</em>") + 1:]
    assert "recommended" in after[:after.index("<em>")]  # said of the recommended map itself
    assert "standard" not in board_option.help


# --- texts no one draws (a review of issue 16): refused with problems, never a crash ----------------

HUGE = "9" * 5000
"""More digits than Python turns into an int (4,300): int() raises ValueError, not FormatError."""


@pytest.mark.parametrize(("old", "new", "item"), [
    ("size 6x5", f"size {HUGE}x5", "item 2"),
    ("size 6x5", f"size 6x{HUGE}", "item 2"),
    ("mine 4 f5", f"mine 4 f{HUGE}", "item 7"),
    ("base 4 e5", f"base 4 e{HUGE}", "item 7"),
], ids=["cols", "rows", "mine", "base"])
def test_a_number_of_thousands_of_digits_is_a_problem_of_the_map(old: str, new: str, item: str) -> None:
    text = edit(old, new)
    problems = check_map(text)
    assert any(problem.rule == f"CON-12 {item}" for problem in problems), problems
    assert f"CON-12 {item}" in error_of(text)
    assert all(len(problem.message) < 200 for problem in problems)  # the number is not sent back


def test_a_long_text_of_rubbish_gets_a_short_answer() -> None:
    # Every unknown line and every '+' square named by no base is a problem: a page of them is
    # cut to the first 100 and one problem counting the rest; a run of unknown lines stops the reading.
    plus = "conflict-map 1\nname x\nsize 26x99\nterrain\n" + ("+" * 26 + "\n") * 99 + "end\n"
    problems = check_map(plus)
    assert len(problems) == 101
    assert problems[-1].severity == "error"
    assert re.fullmatch(r"…and [0-9]+ more problems", problems[-1].message)
    rubbish = "conflict-map 1\n" + "hello there\n" * 2000
    problems = check_map(rubbish)
    assert [problem.line for problem in problems] == [2, 3, 4, 5, 6]
    assert "5 unknown directives in a row" in problems[-1].message
    # Unknown lines between good ones are each told (the run starts again).
    spaced = edit("terrain\n", "colour red\nsize 6x5\nterrain\n")
    assert "unknown directive 'colour'" in error_of(spaced)


def test_a_name_is_60_characters_at_most() -> None:
    # A map's name is shown in every lobby summary and names a saved map (the server's limit).
    longest = "n" * 60
    assert parse_map(edit("name small", f"name {longest}")).name == longest
    assert map_name(edit("name small", f"name {longest}")) == longest
    too_long = edit("name small", f"name {longest}n")
    assert "at most 60 characters" in error_of(too_long)
    assert map_name(too_long) is None
    assert MAP_BOARDS.max_name == 60


def test_the_name_is_read_from_its_line_alone() -> None:
    # A lobby shows a match's map by its name: map_name reads the name line, as parse_map does.
    assert map_name(SMALL) == "small"
    assert map_name(edit("terrain\n", "terrain broken\n")) == "small"
    assert map_name(edit("name small", "name Small")) is None
    assert map_name(edit("name small", "name two words")) is None
    assert map_name("hello\nname small\n") is None  # no map: its first line is no directive
    assert map_name("; a comment\n\nconflict-map 1\nname small\n") == "small"
    for text in mutations(SMALL):
        name = map_name(text)
        assert name is None or name == "small"
