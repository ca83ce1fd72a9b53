"""The classic Biloba player (spec section 15) clause by clause, on hand-built positions.

Issue 19: "Biloba: ``classic`` follows the original program's player (spec section 15) in every
position the spec's worked examples cover; add any that are missing." Each clause of section 15,
the test that pins it and the position it is pinned in (orange to move, 2 players, unless said):

* 15.1 access: 3×3 scan, x outer, y inner, skipping t, off-grid and non-playable cells
    test_access_order_skips_the_grid_edge_and_the_corners: b7 (a8 cut), e1 (row 0 off grid)
* 15.1 access: a legal jump is two entries, jumped-over tile then landing
    test_access_lists_x_outer_y_inner_with_jumps_as_two_entries: c3 by blue d3
* 15.1 access: no backwards jump (BIL-19), own pawns jumped too (BIL-16)
    test_access_lists_x_outer_y_inner_with_jumps_as_two_entries
    test_access_jumps_own_pawns_but_never_onto_or_from_the_centre: b7 by b6; c3 over its own c4
* 15.1 access: BIL-19 by the game's size (blue sideways both ways with 2, only to lower x with 3–4)
    test_access_follows_the_forward_rule_of_the_game_size: blue g3 by f3, h3
* 15.1 access: no jump onto the centre; none from the centre
    test_access_jumps_own_pawns_but_never_onto_or_from_the_centre: c3 by d4; e5
* 15.1 access: the centre listed only when BIL-17 holds
    test_access_lists_the_centre_only_when_it_may_be_entered: d4 alone / ring full
* 15.1 access: an empty t lists only its empty neighbours
    test_access_of_an_empty_tile_lists_its_empty_neighbours: e5 with d4 taken
* 15.1 near_centre: access(t) holds the centre (also over a pawn standing there in pass D)
    test_access_lists_the_centre_only_when_it_may_be_entered
    test_near_centre_with_a_pawn_on_the_centre: d4; orange d4/f6 with e5
* 15.1 threatened: T holds a pawn of E's colour
    test_threatened_when_the_far_tile_holds_the_enemy_colour: d3 between c3, e3
* 15.1 threatened: E's colour adjacent to T, T occupied
    test_threatened_through_an_occupied_far_tile: d3, e3 by c3, f4
* 15.1 threatened: T non-playable
    test_threatened_through_a_non_playable_far_tile: b2 by c2, b3 (a2, b1)
* 15.1 threatened: near_centre(T) and E's colour next to the centre
    test_threatened_through_the_centre_clause: c3 by b2, f6
* 15.1 threatened: T the centre or off the grid never counts
    test_threatened_never_through_the_centre_or_off_the_grid: d4 by c3; e1 by d2 e2 f2
* 15.1 threatened: distinct pawns; enemy = any other colour, c is E's own (3 players)
    test_threatened_counts_pawns_once_and_reads_the_colour_of_each_enemy: d3 (two lines); red c3, blue e3
* 15.1 attack_now: distinct enemies, any other colour
    test_attack_now_counts_each_flanked_enemy_of_any_colour: d4 by c3, e4 (blue, red)
* 15.1 attack_now: the centre never counts as the far cell
    test_attack_now_does_not_count_the_centre: c3, d4, orange on e5
* 15.1 attack_later: distinct fillers next to T
    test_attack_later_counts_each_filler_once: e3 by d3, d4; b4 c4
* 15.1 attack_later: T empty and not the centre; T may be non-playable
    test_attack_later_needs_an_empty_far_tile: c3 occupied; e5; b1
* 15.1 attack_later: through the centre when near_centre(T), P itself included
    test_attack_later_counts_fillers_through_the_centre: d4 by e4, f4 empty
* 15.2 pass A: E > max, ties keep the earlier pawn (identity order, BIL-11)
    test_pass_a_takes_the_capture_and_ties_keep_the_earlier_pawn: a4/c4-b5 on b6
* 15.2 pass A: X plays no part
    test_pass_a_ignores_the_danger_of_the_capturing_square: c4-b5 with blue a3
* 15.2 pass A step 2: centre expanded, route planned
    test_pass_a_reaches_past_the_centre_and_plans_a_centre_route: d4-e5-f5
* 15.2 pass A step 2: access(e5) appended after L, with P on its tile; ties keep the earlier
    test_pass_a_appends_the_centre_expansion_after_the_list: f6-g7 before f6-e5-d4
* 15.2 pass A step 2: P's own tile is never a destination (P still on it; occupied skipped)
    test_pass_a_expansion_leaves_out_the_pawns_own_tile: pending d4 flanking c3 mid-wave
* 15.2 pass A: a plain jump between two centre neighbours becomes a centre route
    test_pass_a_turns_a_jump_between_centre_neighbours_into_a_route: d4 over e4 to f4
* 15.2 pass A: a 2-away jump away from the centre stays a jump
    test_pass_a_keeps_a_jump_away_from_the_centre: c3-c5
* 15.2 pass D: first improvement; then strict improvements only
    test_pass_d_moves_the_threatened_pawn_to_the_first_safe_tile
    test_pass_d_keeps_the_last_strict_improvement: c3-b2
* 15.2 pass D: the last strict improvement wins; d the centre, 15.4 continuation
    test_pass_d_last_improvement_may_be_the_centre: c3-b3 (2→1), then e4-e5 (1→0)
* 15.2 pass D: a jump between two centre neighbours stays a jump (no route rule)
    test_pass_d_plays_a_jump_between_centre_neighbours_as_a_jump: f6 over e6 to d6
* 15.2 pass B: attack_later, skips exposed tiles
    test_pass_b_prefers_fillers_and_skips_exposed_tiles: a4-a5 / d6-c7
* 15.2 pass B: accepted only when X = 0, even when X ≤ before
    test_pass_b_accepts_only_unexposed_moves: c7-d6 over c7-d7
* 15.2 random: a legal entry; occupied entry drawn again
    test_random_move_is_a_legal_entry
    test_random_move_draws_again_on_a_jumped_over_tile: e1 alone; e1 by e2
* 15.2 random: empty access, another pawn (BIL-11 identities in the state)
    test_classic_plays_a_random_move_when_nothing_else_applies (test_biloba_bots.py): walled e1
* 15.2 random + 15.4: the centre entry continues at random, never back to the origin
    test_random_move_through_the_centre_never_returns: d4 alone
* 15.2 pass D again
    not testable: the spec says it repeats the first call's failure ("classic may skip it")
* 15.3: only the pending pawns are candidates
    test_replacement_considers_only_pending_pawns: c3>d3 while a4-b5 takes
* 15.1/15.3: pending pawns scanned in identity order (BIL-11), through the state
    test_replacement_scans_pending_pawns_in_identity_order: c3>d3, or h5>h6 with h5 first
* 15.3: pass D counts the pending pawns only
    test_replacement_defence_counts_only_pending_pawns: g4 filling the ring's last tile
* 15.3: before over all pawns
    no visible effect: pass B accepts only X = 0 (see pass B row), whatever before is
* 15.3: plan destination if vacated
    test_replacement_takes_the_plan_destination_when_it_is_vacated: c3>d3 of c4, d3
* 15.3: otherwise a uniform vacated tile; no plan, a random pending pawn
    test_replacement_draws_a_vacated_tile_when_the_plan_goes_elsewhere
    test_replacement_without_a_plan_draws_a_pending_pawn: c4 (c5, d4); b4, h4
* 15.4: a centre route plays its planned tile
    test_pass_a_reaches_past_the_centre_and_plans_a_centre_route: d4-e5-f5
* 3 and 4 players: enemy = any other colour, moves through the bot
    test_three_and_four_players_through_the_bot: red, green victims

Each test was seen to fail with its clause broken in ``classic.py`` (expansion inserted in place,
no centre route, pass D non-strict or first-wins, pass B accepting X <= before, each threatened,
attack_now and attack_later clause dropped, continuation back to the origin, replacement over all
pawns, occupied random entries taken, blue's 3–4 player forward rule, the plan's tile drawn).
"""

from __future__ import annotations

import random

from parlour.games import get_game
from parlour.games.biloba import BilobaState
from parlour.games.biloba.classic import (
    CENTRE,
    Board,
    ClassicBilobaBot,
    Plan,
    choose_move,
    choose_replacement,
    defend_pass,
    parse_tile,
    plan,
    tile_name,
)

CORNERS = {"a1", "b1", "a2", "h1", "i1", "i2", "a8", "a9", "b9", "i8", "h9", "i9"}
RING = "d4 e4 f4 d5 f5 d6 e6 f6"


def rows(pawns: str) -> list[str]:
    """BIL-6 rows from ``"O: a4 d6  B: b6"``: each colour letter, then its tiles."""
    cells = {}
    colour = ""
    for word in pawns.split():
        if word.endswith(":"):
            colour = word[:-1]
        else:
            assert word not in CORNERS, f"{word} is a cut corner (BIL-2) and holds no pawn"
            cells[word] = colour
    return [
        "".join("#" if (name := f"{'abcdefghi'[x]}{y + 1}") in CORNERS else cells.get(name, ".")
                for x in range(9))
        for y in range(9)
    ]


def board(pawns: str, players: int = 2) -> Board:
    return Board.from_rows(rows(pawns), players)


def state_of(layout: str, players: int = 2, **start: object) -> BilobaState:
    """Orange to move in ``layout`` (as for ``rows``); ``start`` adds pawn identities or pending."""
    state = get_game("biloba").new(players, {"quiet_limit": 200},
                                   start={"board": rows(layout), "to_move": "orange", **start})
    assert isinstance(state, BilobaState)
    return state


def legal(pawns: str) -> set[str]:
    """Orange's legal moves (BIL-20) with ``pawns`` on the board: the position must leave orange
    more than 2 pawns or a capture soon, or orange is eliminated at its turn start (BIL-32)."""
    state = state_of(pawns)
    assert state.to_move() == 0
    assert not state.is_over()
    return {state.action_to_text(action) for action in state.legal_actions()}


def choose(state: BilobaState) -> str:
    """The classic bot's decision in ``state``, which must come from the policy itself."""
    bot = ClassicBilobaBot(seed=0)
    text = state.action_to_text(bot.choose(state, 0.05))
    assert bot.fallbacks == 0
    return text


def tiles(names: str) -> list[int]:
    return [parse_tile(name) for name in names.split()]


def tile(name: str) -> int:
    return parse_tile(name)


def names(entries: list[int]) -> str:
    return " ".join(tile_name(entry) for entry in entries)


def orange(position: Board) -> list[int]:
    """Orange's pawns in identity order when the position is set up without identities: by
    start tile, column-major (BIL-11), which is ascending tile number."""
    return position.tiles_of(0)


def moves(position: Board, pawns: str, seeds: int) -> set[str]:
    found = set()
    for seed in range(seeds):
        move = choose_move(position, 0, tiles(pawns), random.Random(seed))
        assert move is not None
        found.add(move)
    return found


# --- 15.1 access and near_centre ------------------------------------------------------------


def test_access_lists_x_outer_y_inner_with_jumps_as_two_entries() -> None:
    # 15.1 access: c3 jumps d3 sideways (BIL-19 allows it) to e3; d3 is listed, then e3.
    position = board("O: c3  B: d3")
    assert names(position.access(tile("c3"))) == "b2 b3 b4 c2 c4 d2 d3 e3 d4"
    # A backwards jump is no entry: orange on b7 cannot jump b6 to b5 (BIL-19).
    behind = board("O: b7  B: b6")
    assert names(behind.access(tile("b7"))) == "a6 a7 b8 c6 c7 c8"


def test_access_order_skips_the_grid_edge_and_the_corners() -> None:
    # 15.1 access: b7's block holds a8, a cut corner (BIL-2), never listed; e1's block runs
    # off the grid above row 1.
    assert "a8" not in names(board("O: b7").access(tile("b7"))).split()
    assert names(board("O: e1").access(tile("e1"))) == "d1 d2 e2 f1 f2"


def test_access_jumps_own_pawns_but_never_onto_or_from_the_centre() -> None:
    # BIL-16 inside 15.1: c3 jumps its own c4 to c5 (two entries) ...
    position = board("O: c3 c4")
    assert names(position.access(tile("c3"))) == "b2 b3 b4 c2 c4 c5 d2 d3 d4"
    # ... but not d4 to e5: a jump never lands on the centre (BIL-16 condition 2).
    position = board("O: c3  B: d4")
    assert names(position.access(tile("c3"))) == "b2 b3 b4 c2 c4 d2 d3"
    # 15.1: from the centre, steps only (BIL-16 condition 3): d4 is no entry, nor c3 beyond it.
    position = board("O: e5  B: d4")
    assert names(position.access(CENTRE)) == "d5 d6 e4 e6 f4 f5 f6"


def test_access_follows_the_forward_rule_of_the_game_size() -> None:
    # BIL-19 inside 15.1: blue on g3 jumping f3 lands on e3, jumping h3 lands on i3. With 2
    # players both are sideways (t.y = s.y) and legal; with 3 or 4, blue must not raise x.
    sideways = "f2 f3 e3 f4 g2 g4 h2 h3 i3 h4"
    for players, expected in ((2, sideways), (3, "f2 f3 e3 f4 g2 g4 h2 h4"), (4, "f2 f3 e3 f4 g2 g4 h2 h4")):
        position = board("B: g3  O: f3 h3", players)
        assert names(position.access(tile("g3"))) == expected, players


def test_access_lists_the_centre_only_when_it_may_be_entered() -> None:
    # BIL-17 inside 15.1: the centre is an entry while some other centre neighbour is empty.
    position = board("O: d4")
    assert "e5" in names(position.access(tile("d4"))).split()
    assert position.near_centre(tile("d4"))
    full = board(f"O: {RING}")
    assert "e5" not in names(full.access(tile("d4"))).split()
    assert not full.near_centre(tile("d4"))
    assert not position.near_centre(tile("c3"))  # no centre neighbour, no centre in access


def test_access_of_an_empty_tile_lists_its_empty_neighbours() -> None:
    # 15.1: "For an empty t jumps are never legal, so access(t) lists only the empty
    # neighbours" (pass A's expansion asks for access(e5) while e5 is empty).
    position = board("O: d4 d5  B: f6")
    assert names(position.access(CENTRE)) == "d6 e4 e6 f4 f5"


def test_near_centre_with_a_pawn_on_the_centre() -> None:
    # 15.1 near_centre while pass D has put a pawn on e5 (15.2): access(t) holds the centre
    # only as a jumped-over tile. Orange d4 may jump e5 to f6 (forward); orange f6 may not jump
    # to d4 (backwards); an empty centre neighbour lists no jumps at all.
    assert board("O: d4 e5").near_centre(tile("d4"))
    assert not board("O: f6 e5").near_centre(tile("f6"))
    assert not board("O: e5").near_centre(tile("d4"))
    assert not board("O: d4 e5 f6").near_centre(tile("d4"))  # the landing is taken


# --- 15.1 threatened ---------------------------------------------------------------------------


def test_threatened_when_the_far_tile_holds_the_enemy_colour() -> None:
    # 15.1 threatened, first clause: d3 has blue c3 beside it and blue on e3 beyond it.
    assert board("O: d3  B: c3 e3").threatened(0, tiles("d3")) == 1
    assert board("O: d3  B: c3").threatened(0, tiles("d3")) == 0


def test_threatened_through_an_occupied_far_tile() -> None:
    # 15.1: "The 'adjacent to T' clauses apply even when T is occupied": beyond d3 from blue
    # c3 lies e3, an orange pawn, and blue f4 stands next to e3.
    assert board("O: d3 e3  B: c3 f4").threatened(0, tiles("d3")) == 1
    assert board("O: d3 e3  B: c3").threatened(0, tiles("d3")) == 0


def test_threatened_through_a_non_playable_far_tile() -> None:
    # 15.1: "T may be ... non-playable". b2's enemies are blue c2 (T = a2, cut corner, next to
    # blue b3) and blue b3 (T = b1, cut corner, next to blue c2): both far tiles are corners.
    assert board("O: b2  B: c2 b3").threatened(0, tiles("b2")) == 1


def test_threatened_through_the_centre_clause() -> None:
    # 15.1 third clause: beyond c3 from blue b2 lies d4, a centre neighbour with access(d4)
    # holding e5; blue f6 is next to the centre (not to d4).
    assert board("O: c3  B: b2 f6").threatened(0, tiles("c3")) == 1
    # Ring full with d4 taken: near_centre(d4) fails (BIL-17), and no blue pawn is next to d4.
    full = board("O: c3 d4 e4 d5  B: b2 f4 f5 d6 e6 f6")
    assert full.threatened(0, tiles("c3")) == 0
    # The same with f4 empty: the centre may be entered again, c3 is threatened again.
    assert board("O: c3 d4 e4 d5  B: b2 f5 d6 e6 f6").threatened(0, tiles("c3")) == 1


def test_threatened_never_through_the_centre_or_off_the_grid() -> None:
    # 15.1: T is not the centre: beyond d4 from blue c3 is e5, though blue f6 is next to it.
    assert board("O: d4  B: c3 f6").threatened(0, tiles("d4")) == 0
    # T must exist: e1's three enemies all have their far tile above row 1.
    assert board("O: e1  B: d2 e2 f2").threatened(0, tiles("e1")) == 0


def test_threatened_counts_pawns_once_and_reads_the_colour_of_each_enemy() -> None:
    # 15.1: "the number of distinct pawns": d3 is threatened along two lines, counted once.
    position = board("O: d3 h7  B: c3 e3 d2 d4")
    assert position.threatened(0, tiles("d3")) == 1
    assert position.threatened(0, position.tiles_of(0)) == 1
    # 3 players: "enemy" is any other colour, but T must hold (or touch) E's own colour c.
    assert board("O: d3  R: c3  B: e3", 3).threatened(0, tiles("d3")) == 0
    assert board("O: d3  R: c3 e3", 3).threatened(0, tiles("d3")) == 1
    assert board("O: d3  R: c3 f4  B: e3", 3).threatened(0, tiles("d3")) == 1  # red f4 by e3
    assert board("O: d3  G: c3 e3  B: d2 R: d4", 4).threatened(0, tiles("d3")) == 1


# --- 15.1 attack_now and attack_later ---------------------------------------------------------


def test_attack_now_counts_each_flanked_enemy_of_any_colour() -> None:
    # 15.1 attack_now: d4 flanks c3 (with b2) and e4 (with f4).
    assert board("O: d4 b2 f4  B: c3 e4").attack_now(tile("d4")) == 2
    assert board("O: d4 b2 f4  B: c3  R: e4", 3).attack_now(tile("d4")) == 2
    assert board("O: d4 b2  B: c3 e4").attack_now(tile("d4")) == 1


def test_attack_now_does_not_count_the_centre() -> None:
    # 15.1 attack_now: "the cell beyond E from P exists, is not the centre": an orange pawn on
    # e5 (only ever there for a moment) does not close c3-d4-e5.
    assert board("O: c3 e5  B: d4").attack_now(tile("c3")) == 0
    assert board("O: c3 e3  B: d3").attack_now(tile("c3")) == 1


def test_attack_later_counts_each_filler_once() -> None:
    # 15.1 attack_later: e3 by blue d3 (T = c3) and blue d4 (T = c5); b4 and c4 are next to
    # both T: two distinct own pawns, not four.
    assert board("O: e3 b4 c4  B: d3 d4").attack_later(tile("e3")) == 2


def test_attack_later_needs_an_empty_far_tile() -> None:
    # T occupied: c3 (orange: that is attack_now's business), b2 next to it is no filler.
    assert board("O: e3 c3 b2  B: d3").attack_later(tile("e3")) == 0
    # T the centre: beyond d4 from c3 is e5; f6 next to the centre does not count.
    assert board("O: c3 f6  B: d4").attack_later(tile("c3")) == 0
    # T may be a cut corner (empty, BIL-33's quirk): beyond c1 from d1 is b1, next to c2.
    assert board("O: d1 c2  B: c1").attack_later(tile("d1")) == 1


def test_attack_later_counts_fillers_through_the_centre() -> None:
    # 15.1 attack_later: beyond blue e4 from d4 is f4, a centre neighbour that may reach e5:
    # every orange pawn next to the centre fills, d4 itself and d6 (none is next to f4).
    assert board("O: d4 d6 a5  B: e4").attack_later(tile("d4")) == 2
    # Without the centre clause (c3 by d3, T = e3 not a centre neighbour): no filler.
    assert board("O: c3 d6  B: d3").attack_later(tile("c3")) == 0


# --- 15.2 pass A ------------------------------------------------------------------------------


def test_pass_a_takes_the_capture_and_ties_keep_the_earlier_pawn() -> None:
    # 15.2 pass A: c4-b5 flanks b6 against b7 (attack_now 1).
    position = board("O: b7 c4  B: b6")
    assert plan(position, 0, tiles("b7 c4")) == Plan(tile("c4"), tile("b5"))
    # a4-b5 does the same: the earlier pawn in identity order (BIL-11) keeps the tie.
    position = board("O: a4 b7 c4  B: b6")
    assert plan(position, 0, tiles("a4 b7 c4")) == Plan(tile("a4"), tile("b5"))
    assert plan(position, 0, tiles("b7 c4 a4")) == Plan(tile("c4"), tile("b5"))


def test_pass_a_ignores_the_danger_of_the_capturing_square() -> None:
    # 15.2 pass A accepts on attack_now alone: b5 is then threatened through b4 (a3 is blue).
    position = board("O: b7 c4  B: b6 a3")
    chosen = plan(position, 0, tiles("b7 c4"))
    assert chosen == Plan(tile("c4"), tile("b5"))
    position.moved(tile("c4"), tile("b5"))
    assert position.threatened(0, [tile("b5")]) == 1


def test_pass_a_reaches_past_the_centre_and_plans_a_centre_route() -> None:
    # 15.2 pass A step 2: e5 is expanded into access(e5); d4-e5-f5 flanks g5 against h5, and
    # 15.4 plays the planned final tile.
    position = board("O: d4 h5  B: g5")
    chosen = plan(position, 0, tiles("d4 h5"))
    assert chosen == Plan(tile("d4"), tile("f5"), via_centre=True)
    assert moves(position, "d4 h5", 8) == {"d4-e5-f5"}


def test_pass_a_appends_the_centre_expansion_after_the_list() -> None:
    # 15.2 pass A step 2 "append to L": f6's list starts with e5, so access(e5) (d4 d5 d6 e4 f4,
    # without e6 and f5, already in L, and without f6, where P still stands) is walked after
    # f6's own entries. g7 (flanking h7 against i7) and d4 (flanking c3 against b2) both take
    # one pawn; g7 comes first in L, and ties keep the earlier.
    position = board("O: b2 f6 i7  B: c3 h7 c9")
    assert names(position.access(tile("f6"))) == "e5 e6 e7 f5 f7 g5 g6 g7"
    assert names(position.access(CENTRE)) == "d4 d5 d6 e4 e6 f4 f5"
    assert plan(position, 0, orange(position)) == Plan(tile("f6"), tile("g7"))
    # Without i7, d4 is the only capture, two cells from f6 with both ends near the centre:
    # the centre route f6-e5-d4.
    position = board("O: b2 f6  B: c3 h7 c9")
    assert plan(position, 0, orange(position)) == Plan(tile("f6"), tile("d4"), via_centre=True)
    assert moves(position, "b2 f6", 4) == {"f6-e5-d4"}


def test_pass_a_expansion_leaves_out_the_pawns_own_tile() -> None:
    # 15.2 pass A step 2: access(e5) is "computed with P still on its tile", so d4 is no entry
    # of its own expansion (and were it listed, step 1 would skip it, occupied). It matters in a
    # replacement: in the middle of a wave the pending d4 may already flank c3 with b2 (the
    # next scan takes it, BIL-29); standing still would score 1 in pass A and leave the tile to
    # chance. Instead pass A finds nothing, pass D nothing (c3's far tile is e5), and pass B
    # plans d4-c4 (b2 next to c2): c4 is a vacated tile of d4, taken whatever the seed.
    position = board("O: d4 b2  B: c3 h8")
    assert position.attack_now(tile("d4")) == 1
    assert names(position.access(CENTRE)) == "d5 d6 e4 e6 f4 f5 f6"
    assert plan(position, 0, tiles("d4"), guarded=tiles("d4")) == Plan(tile("d4"), tile("c4"))
    vacated = {tile("d4"): tiles("c4 d5")}
    for seed in range(16):
        assert choose_replacement(position, 0, tiles("d4"), vacated, random.Random(seed)) == "d4>c4"


def test_pass_a_turns_a_jump_between_centre_neighbours_into_a_route() -> None:
    # 15.2 pass A: d4 jumps its own e4 to f4, where it flanks g4 against h4. f4 is already in L
    # (as the landing), so the expansion does not add it again; d4 and f4 are both near the
    # centre and two cells apart: "This also turns some plain jumps between two centre
    # neighbours into centre routes."
    position = board("O: d4 e4 h4  B: g4")
    assert plan(position, 0, orange(position)) == Plan(tile("d4"), tile("f4"), via_centre=True)
    move = choose_move(position, 0, orange(position), random.Random(0))
    assert move == "d4-e5-f4"
    assert move in legal("O: d4 e4 h4  B: g4")


def test_pass_a_keeps_a_jump_away_from_the_centre() -> None:
    # 15.2 pass A: c3 jumps c4 to c5, flanking c6 against c7. c3 is no centre neighbour, so the
    # jump stays a jump.
    position = board("O: c3 c7  B: c4 c6")
    assert plan(position, 0, orange(position)) == Plan(tile("c3"), tile("c5"))
    assert choose_move(position, 0, orange(position), random.Random(0)) == "c3-c5"


# --- 15.2 pass D ------------------------------------------------------------------------------


def test_pass_d_moves_the_threatened_pawn_to_the_first_safe_tile() -> None:
    # 15.1 threatened: c3 sits by d3 with b3 beyond it, and blue's a4 is next to b3. 15.2 pass D:
    # b2, c3's first entry, brings the count from 1 to 0; no later entry improves on 0.
    position = board("O: c3  B: d3 a4")
    assert position.threatened(0, tiles("c3")) == 1
    assert plan(position, 0, tiles("c3")) == Plan(tile("c3"), tile("b2"))


def test_pass_d_keeps_the_last_strict_improvement() -> None:
    # Two threatened pawns: c3 (by d3 through b3, a4 near) and g7 (by f7 through h7, i6 near).
    # Moving c3 to b2 lowers the count to 1; g7's entries come later and also reach only 1,
    # which is no strict improvement, so c3-b2 stays.
    position = board("O: c3 g7  B: d3 a4 f7 i6")
    assert position.threatened(0, tiles("c3 g7")) == 2
    assert plan(position, 0, tiles("c3 g7")) == Plan(tile("c3"), tile("b2"))


def test_pass_d_last_improvement_may_be_the_centre() -> None:
    # Both orange pawns are threatened through the centre clause (blue f6 is next to e5):
    # c3 by b2 (T = d4), e4 by f3 (T = d5). 15.2 pass D: c3-b3 (c3's first empty entry) makes
    # the count 1; then e4-e5 (d may be the centre) makes it 0: with a pawn on e5, neither d4
    # nor d5 reaches the centre any more, and nothing next to e5 threatens the pawn there. The
    # last strict improvement wins, and 15.4 continues at random, never back to e4.
    position = board("O: c3 e4  B: b2 f3 f6")
    assert position.threatened(0, orange(position)) == 2
    position.moved(tile("c3"), tile("b3"))
    assert position.threatened(0, position.tiles_of(0)) == 1
    position.moved(tile("b3"), tile("c3"))
    assert plan(position, 0, orange(position)) == Plan(tile("e4"), CENTRE)
    played = moves(position, "c3 e4", 40)
    assert {move[:6] for move in played} == {"e4-e5-"}
    assert {move[6:] for move in played} <= {"d4", "d5", "d6", "e6", "f4", "f5"}
    assert len(played) > 1
    assert played <= legal("O: c3 e4 a6  B: b2 f3 f6")


def test_pass_d_plays_a_jump_between_centre_neighbours_as_a_jump() -> None:
    # 15.2 pass D "record P -> d": the centre-route rule belongs to passes A and B. f6 is
    # threatened (blue f5 beside it, f7 beyond next to blue e6); e5 leaves it threatened, the
    # jump over e6 to d6 is its first safe entry, and it is played as the jump f6-d6.
    position = board("O: a6 f6 i3  B: b3 e6 f5")
    assert names(position.access(tile("f6"))) == "e5 e6 d6 e7 f7 g5 g6 g7"
    assert position.threatened(0, orange(position)) == 1
    assert plan(position, 0, orange(position)) == Plan(tile("f6"), tile("d6"))
    move = choose_move(position, 0, orange(position), random.Random(0))
    assert move == "f6-d6"
    assert move in legal("O: a6 f6 i3  B: b3 e6 f5")


# --- 15.2 pass B ------------------------------------------------------------------------------


def test_pass_b_prefers_fillers_and_skips_exposed_tiles() -> None:
    # 15.2 pass B: nothing to take or defend. a4-a5 puts a5 by b6 with c7 beyond, and d6 is next
    # to c7 (attack_later 1); d6-c7 scores 1 too, later in identity order, so a4-a5 stays.
    position = board("O: a4 d6  B: b6")
    assert plan(position, 0, tiles("a4 d6")) == Plan(tile("a4"), tile("a5"))
    # With blue on a6 and b3, a5 is exposed (beyond a5 from a6 lies a4, next to b3): threatened
    # 1 > 0, so pass B skips a4-a5 (and a4's other filling moves, exposed too) for d6-c7.
    exposed = board("O: a4 d6  B: b6 a6 b3")
    exposed.moved(tile("a4"), tile("a5"))
    assert exposed.attack_later(tile("a5")) == 1
    assert exposed.threatened(0, tiles("a5")) == 1
    exposed.moved(tile("a5"), tile("a4"))
    assert plan(exposed, 0, tiles("a4 d6")) == Plan(tile("d6"), tile("c7"))


WALLED = "B: c1 d1 f1 g1 d2 e2 f2 c3 e3 g3"
"""Blue pawns round orange's e1: e1 cannot move, and it is threatened (d1 beside it, blue f1
beyond), so ``before`` is 1 and pass D can never lower it."""


def test_pass_b_accepts_only_unexposed_moves() -> None:
    # 15.2 pass B: "accepted only if E > max and X = 0". c7-d7 would score attack_later 2 (g6
    # and g8 next to f7, beyond blue e7) with X = 1, not more than before (1, the walled e1):
    # not skipped as suicide, still not accepted. c7-d6 (1 filler, X = 0) is the plan.
    position = board(f"O: e1 c7 g6 g8  {WALLED} e7 c8")
    pawns = orange(position)
    assert position.threatened(0, pawns) == 1
    position.moved(tile("c7"), tile("d7"))
    assert (position.attack_later(tile("d7")), position.threatened(0, tiles("d7"))) == (2, 1)
    position.moved(tile("d7"), tile("c7"))
    assert plan(position, 0, pawns) == Plan(tile("c7"), tile("d6"))
    assert choose_move(position, 0, pawns, random.Random(0)) == "c7-d6"


# --- 15.2 random and 15.4 ---------------------------------------------------------------------


def test_random_move_is_a_legal_entry() -> None:
    # 15.2 random: nothing else applies when the armies are far apart.
    position = board("O: e1  B: e9")
    assert plan(position, 0, tiles("e1")) is None
    for move in moves(position, "e1", 20):
        start, end = move.split("-")
        assert start == "e1"
        assert end in names(position.access(tile("e1"))).split()


def test_random_move_draws_again_on_a_jumped_over_tile() -> None:
    # 15.2 random: e1's access list holds e2, the blue pawn it may jump; drawing it, the original
    # deselects and plans again, classic draws again. Every answer is one of the empty entries.
    position = board("O: e1  B: e2 e9")
    assert names(position.access(tile("e1"))) == "d1 d2 e2 e3 f1 f2"
    assert plan(position, 0, tiles("e1")) is None
    assert moves(position, "e1", 60) == {"e1-d1", "e1-d2", "e1-e3", "e1-f1", "e1-f2"}


def test_random_move_through_the_centre_never_returns() -> None:
    # 15.2 random + 15.4: d4 alone may draw e5; the continuation is a uniform entry of access(e5)
    # with d4 on the centre, the origin excluded.
    position = board("O: d4  B: e9")
    assert plan(position, 0, tiles("d4")) is None
    played = moves(position, "d4", 80)
    routes = {move for move in played if move.startswith("d4-e5-")}
    assert routes
    assert {move[6:] for move in routes} <= {"d5", "d6", "e4", "e6", "f4", "f5", "f6"}
    assert played <= legal("O: d4 a5 a6  B: e9")


# --- 15.3 replacements ------------------------------------------------------------------------


def test_replacement_takes_the_plan_destination_when_it_is_vacated() -> None:
    # 15.3: c3 is pending with c4 and d3 vacated; pass A's plan c3->d3 flanks e3 against f3, so
    # d3 is taken whatever the seed, never a draw between the two.
    position = board("O: c3 f3  B: e3")
    vacated = {tile("c3"): tiles("c4 d3")}
    for seed in range(16):
        assert choose_replacement(position, 0, tiles("c3"), vacated, random.Random(seed)) == "c3>d3"


def test_replacement_considers_only_pending_pawns() -> None:
    # 15.3 "the candidate pawns are only the pending pawns": a4-b5 would take b6 and comes
    # first in identity order, but only c3 is pending; its plan c3-d3 takes e3 and d3 is its
    # vacated tile.
    position = board("O: a4 b7 c3 f3  B: b6 e3")
    assert plan(position, 0, orange(position)) == Plan(tile("a4"), tile("b5"))
    vacated = {tile("c3"): tiles("d3")}
    for seed in range(4):
        assert choose_replacement(position, 0, tiles("c3"), vacated, random.Random(seed)) == "c3>d3"


def test_replacement_scans_pending_pawns_in_identity_order() -> None:
    # 15.1 "Lists are scanned in pawn identity order (BIL-11)", for pending pawns too: c3-d3
    # (flanking e3 against f3) and h5-h6 (flanking h7 against h8) both take one pawn; the
    # earlier identity keeps the tie, by start tile unless the position gives identities.
    board_text = "O: c3 f3 h5 h8  B: e3 h7 c9"
    pending = {"c3": ["d3"], "h5": ["h6"]}
    assert choose(state_of(board_text, pending=pending)) == "c3>d3"
    nulls: list[str | None] = [None] * 12
    pawns = {"orange": ["h5", "c3", "f3", "h8", *nulls], "blue": ["e3", "h7", "c9", None, *nulls]}
    assert choose(state_of(board_text, pending=pending, pawns=pawns)) == "h5>h6"


def test_replacement_defence_counts_only_pending_pawns() -> None:
    # 15.3 "in pass D, the threat counts are restricted to the pending pawns". c3 and d5 are
    # threatened through the centre clause (blue next to e5) while f4, the ring's last empty tile,
    # lets the centre be entered. g4-f4 fills it and saves both, which pass D over all pawns
    # would play; g4, the pending pawn, is not threatened itself, so its pass D finds nothing
    # and the vacated tile is drawn at random between f4 and h5.
    position = board("O: c3 d4 e4 d5 g4 i6  B: b2 f5 e6 d6 f6")
    assert position.threatened(0, orange(position)) == 2
    assert defend_pass(position, 0, tiles("g4"), None) == Plan(tile("g4"), tile("f4"))
    assert defend_pass(position, 0, tiles("g4"), tiles("g4")) is None
    assert plan(position, 0, tiles("g4"), guarded=tiles("g4")) is None
    vacated = {tile("g4"): tiles("f4 h5")}
    seen = {choose_replacement(position, 0, tiles("g4"), vacated, random.Random(seed)) for seed in range(20)}
    assert seen == {"g4>f4", "g4>h5"}


def test_replacement_draws_a_vacated_tile_when_the_plan_goes_elsewhere() -> None:
    # 15.3: the plan's c4-b5 is not a vacated tile of c4, so a random one of its own is drawn.
    position = board("O: b7 c4  B: b6")
    vacated = {tile("c4"): tiles("c5 d4")}
    seen = {choose_replacement(position, 0, tiles("c4"), vacated, random.Random(seed))
            for seed in range(20)}
    assert seen == {"c4>c5", "c4>d4"}


def test_replacement_without_a_plan_draws_a_pending_pawn() -> None:
    # 15.3 "the pawn of the plan (or a random pending pawn)": b4 and h4 are far from blue.
    position = board("O: b4 h4  B: e8 e9")
    pending = tiles("b4 h4")
    assert plan(position, 0, pending, guarded=pending) is None
    vacated = {tile("b4"): tiles("b5"), tile("h4"): tiles("h5")}
    seen = {choose_replacement(position, 0, pending, vacated, random.Random(seed)) for seed in range(20)}
    assert seen == {"b4>b5", "h4>h5"}


# --- 3 and 4 players, through the bot -----------------------------------------------------------


def test_three_and_four_players_through_the_bot() -> None:
    # 15.1 "Enemy means any other colour", with BIL-19 and BIL-22 by the game's size.
    # Pass A takes a green pawn: b2-b3 flanks c4 against d5 (4 players).
    assert choose(state_of("O: b2 d5  G: c4  B: i5  R: e9", 4)) == "b2-b3"
    # Pass D against red with 3 players: c3 by red d3, b3 beyond, red a4 next to it.
    assert choose(state_of("O: c3 i5 h6  R: d3 a4  B: e9", 3)) == "c3-b2"
    # Pass A through the centre against blue with red about (4 players): d4-e5-f5 flanks g5.
    assert choose(state_of("O: d4 h5  B: g5  R: c9  G: a6", 4)) == "d4-e5-f5"


def test_centre_is_tile_e5() -> None:
    assert tile_name(CENTRE) == "e5"
