"""The classic Biloba policy (spec section 15) on hand-built boards, pass by pass."""

from __future__ import annotations

import random

from parlour.games.biloba.classic import (
    CENTRE,
    Board,
    Plan,
    choose_move,
    choose_replacement,
    parse_tile,
    plan,
    tile_name,
)

CORNERS = {"a1", "b1", "a2", "h1", "i1", "i2", "a8", "a9", "b9", "i8", "h9", "i9"}


def board(pawns: str, players: int = 2) -> Board:
    """A board from ``"O: a4 d6  B: b6"``: each colour letter, then its tiles."""
    cells = {}
    colour = ""
    for word in pawns.split():
        if word.endswith(":"):
            colour = word[:-1]
        else:
            cells[word] = colour
    rows = []
    for y in range(9):
        row = ""
        for x in range(9):
            name = f"{'abcdefghi'[x]}{y + 1}"
            row += "#" if name in CORNERS else cells.get(name, ".")
        rows.append(row)
    return Board.from_rows(rows, players)


def tiles(names: str) -> list[int]:
    return [parse_tile(name) for name in names.split()]


def names(entries: list[int]) -> str:
    return " ".join(tile_name(tile) for tile in entries)


def test_access_lists_x_outer_y_inner_with_jumps_as_two_entries() -> None:
    # 15.1 access: c3 jumps d3 sideways (BIL-19 allows it) to e3; d3 is listed, then e3.
    position = board("O: c3  B: d3")
    assert names(position.access(parse_tile("c3"))) == "b2 b3 b4 c2 c4 d2 d3 e3 d4"
    # A backwards jump is no entry: orange on b7 cannot jump b6 to b5 (BIL-19).
    assert names(position.access(parse_tile("c3"))).count("e3") == 1
    behind = board("O: b7  B: b6")
    assert names(behind.access(parse_tile("b7"))) == "a6 a7 b8 c6 c7 c8"


def test_access_lists_the_centre_only_when_it_may_be_entered() -> None:
    # BIL-17 inside 15.1: the centre is an entry while some other centre neighbour is empty.
    position = board("O: d4")
    assert "e5" in names(position.access(parse_tile("d4"))).split()
    full = board("O: d4 d5 d6 e4 e6 f4 f5 f6")
    assert "e5" not in names(full.access(parse_tile("d4"))).split()
    assert not full.near_centre(parse_tile("d4"))
    assert position.near_centre(parse_tile("d4"))


def test_pass_a_takes_the_capture_and_ties_keep_the_earlier_pawn() -> None:
    # 15.2 pass A: c4-b5 flanks b6 against b7 (attack_now 1).
    position = board("O: b7 c4  B: b6")
    assert plan(position, 0, tiles("b7 c4")) == Plan(parse_tile("c4"), parse_tile("b5"))
    # a4-b5 does the same: the earlier pawn in identity order (BIL-11) keeps the tie.
    position = board("O: a4 b7 c4  B: b6")
    assert plan(position, 0, tiles("a4 b7 c4")) == Plan(parse_tile("a4"), parse_tile("b5"))
    assert plan(position, 0, tiles("b7 c4 a4")) == Plan(parse_tile("c4"), parse_tile("b5"))


def test_pass_a_ignores_the_danger_of_the_capturing_square() -> None:
    # 15.2 pass A accepts on attack_now alone: b5 is then threatened through b4 (a3 is blue).
    position = board("O: b7 c4  B: b6 a3")
    chosen = plan(position, 0, tiles("b7 c4"))
    assert chosen == Plan(parse_tile("c4"), parse_tile("b5"))
    position.moved(parse_tile("c4"), parse_tile("b5"))
    assert position.threatened(0, [parse_tile("b5")]) == 1


def test_pass_a_reaches_past_the_centre_and_plans_a_centre_route() -> None:
    # 15.2 pass A step 2: e5 is expanded into access(e5); d4-e5-f5 flanks g5 against h5.
    position = board("O: d4 h5  B: g5")
    chosen = plan(position, 0, tiles("d4 h5"))
    assert chosen == Plan(parse_tile("d4"), parse_tile("f5"), via_centre=True)
    assert choose_move(position, 0, tiles("d4 h5"), random.Random(0)) == "d4-e5-f5"


def test_pass_d_moves_the_threatened_pawn_to_the_first_safe_tile() -> None:
    # 15.1 threatened: c3 sits by d3 with b3 beyond it, and blue's a4 is next to b3. 15.2 pass D:
    # b2, c3's first entry, brings the count from 1 to 0; no later entry improves on 0.
    position = board("O: c3  B: d3 a4")
    assert position.threatened(0, tiles("c3")) == 1
    assert plan(position, 0, tiles("c3")) == Plan(parse_tile("c3"), parse_tile("b2"))


def test_pass_d_keeps_the_last_strict_improvement() -> None:
    # Two threatened pawns: c3 (by d3 through b3, a4 near) and g7 (by f7 through h7, i6 near).
    # Moving c3 to b2 lowers the count to 1; g7's entries come later and also reach only 1,
    # which is no strict improvement, so c3-b2 stays.
    position = board("O: c3 g7  B: d3 a4 f7 i6")
    assert position.threatened(0, tiles("c3 g7")) == 2
    assert plan(position, 0, tiles("c3 g7")) == Plan(parse_tile("c3"), parse_tile("b2"))


def test_pass_b_prefers_fillers_and_skips_exposed_tiles() -> None:
    # 15.2 pass B: nothing to take or defend. a4-a5 puts a5 by b6 with c7 beyond, and d6 is next
    # to c7 (attack_later 1); d6-c7 scores 1 too, later in identity order, so a4-a5 stays.
    position = board("O: a4 d6  B: b6")
    assert plan(position, 0, tiles("a4 d6")) == Plan(parse_tile("a4"), parse_tile("a5"))
    # With blue on a6 and b3, a5 is exposed (beyond a5 from a6 lies a4, next to b3): threatened
    # 1 > 0, so pass B skips a4-a5 (and a4's other filling moves, exposed too) for d6-c7.
    exposed = board("O: a4 d6  B: b6 a6 b3")
    exposed.moved(parse_tile("a4"), parse_tile("a5"))
    assert exposed.attack_later(parse_tile("a5")) == 1
    assert exposed.threatened(0, tiles("a5")) == 1
    exposed.moved(parse_tile("a5"), parse_tile("a4"))
    assert plan(exposed, 0, tiles("a4 d6")) == Plan(parse_tile("d6"), parse_tile("c7"))


def test_random_move_is_a_legal_entry() -> None:
    # 15.2 random: nothing else applies when the armies are far apart.
    position = board("O: e1  B: e9")
    for seed in range(20):
        move = choose_move(position, 0, tiles("e1"), random.Random(seed))
        assert move is not None
        start, end = move.split("-")
        assert start == "e1"
        assert end in names(position.access(parse_tile("e1"))).split()


def test_replacement_takes_the_plan_destination_when_it_is_vacated() -> None:
    # 15.3: c3 is pending with d3 vacated; pass A's plan c3->d3 flanks e3 against f3.
    position = board("O: c3 f3  B: e3")
    vacated = {parse_tile("c3"): tiles("d3")}
    assert choose_replacement(position, 0, tiles("c3"), vacated, random.Random(1)) == "c3>d3"


def test_replacement_draws_a_vacated_tile_when_the_plan_goes_elsewhere() -> None:
    # 15.3: the plan's c4-b5 is not a vacated tile of c4, so a random one of its own is drawn.
    position = board("O: b7 c4  B: b6")
    vacated = {parse_tile("c4"): tiles("c5 d4")}
    seen = {choose_replacement(position, 0, tiles("c4"), vacated, random.Random(seed))
            for seed in range(20)}
    assert seen == {"c4>c5", "c4>d4"}


def test_centre_is_tile_e5() -> None:
    assert tile_name(CENTRE) == "e5"
