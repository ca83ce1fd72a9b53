"""Threat warnings (issue 16): "before a roll ends, the squares and home bases that enemy pieces can
reach on their next roll are shown, with the chance"; "the threat figures equal exact counts over
the 21 rolls on small hand-made positions".

Every figure here is checked against a brute force that knows nothing of ``threats``: the same
board with the enemy to roll, each of the 21 rolls applied to a copy, and the legal decisions
after it looked at (a double counts 1/36, any other roll 2/36, CON-61).
"""

from __future__ import annotations

from typing import Any

from conflict_helpers import do, position

from parlour.games.conflict import ROLL, ConflictState, decode
from parlour.games.conflict.actions import ROLL_ODDS

Key = tuple[str, str | None, str]
"""A threat as the brute force finds it: (square, the attacker's square or None for an entry,
the attacker's type letter and seat, ``"2A"``)."""

Figures = dict[Key, tuple[list[int], float]]


def threats(state: ConflictState, seat: int) -> list[dict[str, Any]]:
    """The warnings for the player of ``seat`` (0…3): the entries against the seats it controls, as
    a page shows them (every view holds the same list, that of the player on roll)."""
    content = state.view(None)["content"]
    controllers = content["controllers"]
    return [threat for threat in content["threats"] if controllers[threat["against"] - 1] == seat + 1]


def brute_force(state: ConflictState, squares: set[str]) -> tuple[Figures, dict[str, float]]:
    """For the player to roll in ``state``: every piece that some roll lets end a first decision
    on one of ``squares``, with the die values that do (from the doubles) and the chance (the sum
    over the 21 rolls of those whose legal decisions hold such a move); and per square, the chance
    that the roll lets ANY piece end there."""
    board = state.board
    found: Figures = {}
    any_piece: dict[str, float] = {}
    for roll, odds in ROLL_ODDS:
        low, high = divmod(roll - ROLL, 6)
        after = state.copy()
        after.apply(roll)
        seen: set[Key] = set()
        for action in after.legal_actions():  # the 21 rolls again if the roll ended by itself
            decision = decode(action, board.size)
            if decision is None or decision.kind not in ("move", "enter"):
                continue
            if board.names[decision.final] not in squares:
                continue
            if decision.kind == "move":
                start: str | None = board.names[decision.square]
                code = after.squares[decision.square]
            else:
                start, code = None, decision.code
            seen.add((board.names[decision.final], start, f"{code // 5 + 1}{'CGASU'[code % 5]}"))
        for key in seen:
            dice, chance = found.get(key, ([], 0.0))
            found[key] = (sorted({*dice, low + 1} if low == high else dice), chance + odds)
        for square in {key[0] for key in seen}:
            any_piece[square] = any_piece.get(square, 0.0) + odds
    return found, any_piece


def key_of(threat: dict[str, Any]) -> Key:
    letters = {"cannon": "C", "aagun": "G", "airplane": "A", "ship": "S", "submarine": "U"}
    return threat["square"], threat["from"], f"{threat['by']}{letters[threat['attacker']]}"


def check_entries(found: list[dict[str, Any]], enemy: ConflictState, squares: set[str]) -> None:
    """``found`` holds exactly one entry a square ``enemy``'s player (to roll in ``enemy``) can
    reach among ``squares``, with the chance that ANY of its pieces can, exact over the 21 rolls;
    it names the likeliest piece, with that piece's dice, and counts the others that can."""
    pieces, any_piece = brute_force(enemy, squares)
    assert {threat["square"]: threat["chance"] for threat in found} == {
        square: round(chance, 4) for square, chance in any_piece.items()
    }
    assert len(found) == len(any_piece)
    for threat in found:
        rivals = {key: figures for key, figures in pieces.items() if key[0] == threat["square"]}
        dice, chance = rivals[key_of(threat)]
        assert threat["dice"] == dice
        assert round(chance, 4) == max(round(other, 4) for _, other in rivals.values())
        assert threat["others"] == len(rivals) - 1


def check_against_brute_force(
    text: str, enemy_text: str, seat: int, squares: set[str]
) -> list[dict[str, Any]]:
    """The threats ``seat`` (on roll in ``text``) is warned of are exactly what the brute force
    finds in ``enemy_text`` (the same board, the one enemy to roll) on ``squares`` (its bases and
    pieces)."""
    found = threats(position(text, players=2), seat)
    check_entries(found, position(enemy_text, players=2), squares)
    return found


# --- the figures ---------------------------------------------------------------------------------------


def test_an_open_base_and_an_airplane_that_reaches_it() -> None:
    # The airplane on h2 is three squares from Red's base e5, but the straight way passes g3,
    # which is impassable: only a 4 or more takes it there (11 + 9 + 7 = 27 of 36 rolls).
    text = "pieces 2A h2 1C a1\navailable 2 -\nreserve 2 -\nturn {}"
    found = check_against_brute_force(text.format(1), text.format(2), 0, {"e5", "a1"})
    base = found[0]
    assert base == {
        "square": "e5", "target": "base", "against": 1, "piece": None, "by": 2, "attacker": "airplane",
        "from": "h2", "dice": [4, 5, 6], "others": 0, "chance": 0.75,
        "text": "Your base is open: Orange's airplane on h2 reaches it with a 4 or more (75 %)",
    }


def test_an_airplane_cannot_take_a_base_an_aa_gun_holds() -> None:
    # CON-38, CON-45 item 1: the gun on e5 keeps the airplane off the base; Orange's cannon on h4
    # can still take the gun, and the base with it.
    text = "pieces 2A h2 2C h4 1G e5\navailable 2 -\nreserve 2 -\nturn {}"
    found = check_against_brute_force(text.format(1), text.format(2), 0, {"e5"})
    assert [(threat["square"], threat["attacker"]) for threat in found] == [("e5", "cannon")]
    assert found[0]["piece"] == "aagun"
    assert found[0]["text"].startswith("Your base is not safe: Orange's cannon on h4 can take your "
                                       "anti-aircraft gun on it with ")
    unguarded = text.replace("1G e5", "1G a1")
    found = check_against_brute_force(unguarded.format(1), unguarded.format(2), 0, {"e5", "a1"})
    assert [(threat["square"], threat["others"]) for threat in found] == [("e5", 1)]  # cannon, airplane


def test_one_entry_a_square_and_enemy_naming_the_likeliest_piece() -> None:
    # "One entry per (threatened square, hostile player)": Orange's cannon on h4 reaches Red's
    # open base with a 3 or more, its airplane on h2 with a 4 or more; the entry names the cannon.
    text = "pieces 2A h2 2C h4 1G a1\navailable 2 -\nreserve 2 -\nturn {}"
    found = check_against_brute_force(text.format(1), text.format(2), 0, {"e5", "a1"})
    assert found == [{
        "square": "e5", "target": "base", "against": 1, "piece": None, "by": 2, "attacker": "cannon",
        "from": "h4", "dice": [3, 4, 5, 6], "others": 1, "chance": 0.8889,
        "text": "Your base is open: Orange's cannon on h4 reaches it with a 3 or more; 1 more piece can too "
                "(89 % in all)",
    }]


def test_two_enemies_on_one_square_are_two_entries() -> None:
    # Orange's airplane on h2 and Green's on e8 both reach Red's base: one entry each, the chance
    # that each one's own next roll lets it, the likelier first.
    rows = "".join(f"available {seat} -\nreserve {seat} -\n" for seat in (2, 3))
    board = f"pieces 2A h2 3A e8 1G a1\n{rows}"
    found = threats(position(board + "turn 1", players=3), 0)
    assert [(threat["square"], threat["by"]) for threat in found] == [("e5", 3), ("e5", 2)]
    check_entries([found[0]], position(board + "turn 3", players=3), {"e5", "a1"})
    check_entries([found[1]], position(board + "turn 2", players=3), {"e5", "a1"})
    assert found[0]["text"] == "Your base is open: Green's airplane on e8 reaches it with a 3 or more (89 %)"


def test_entering_pieces_threaten_from_their_base() -> None:
    # Orange's ship and submarine enter at p5 and can end on n6; the cannons cannot swim.
    text = "pieces 1S n6\navailable 2 CSU\nreserve 2 -\nturn {}"
    found = check_against_brute_force(text.format(1), text.format(2), 0, {"e5", "n6"})
    assert [(threat["square"], threat["from"], threat["others"]) for threat in found] == [("n6", None, 1)]
    ship = found[0]
    assert ship["target"] == "piece"
    assert ship["piece"] == "ship"
    assert ship["text"] == ("Orange's ship entering at p5 can take your ship on n6 with a 2 or more; 1 more "
                            f"piece can too ({round(ship['chance'] * 100)} % in all)")


def test_a_piece_on_its_own_mine_is_destroyed_with_the_attacker() -> None:
    # CON-43: an enemy walk ends on Red's mine g7 under Red's ship; both are destroyed.
    text = "pieces 1S g7 2S k7\navailable 2 -\nreserve 2 -\nturn {}"
    found = check_against_brute_force(text.format(1), text.format(2), 0, {"e5", "g7"})
    on_mine = [threat for threat in found if threat["square"] == "g7"]
    assert on_mine
    for threat in on_mine:
        assert threat["text"] == ("Orange's ship on k7 can run onto the mine under your ship on g7 with a 4 "
                                  f"or more, destroying both ({round(threat['chance'] * 100)} %)")


def test_threats_are_figured_for_the_enemy_s_next_roll_while_the_viewer_is_on_roll() -> None:
    # Red is in the middle of its roll (its ship has moved): the warning is about Orange's next
    # roll, with the board as it stands, not about Red's dice or what Red has moved.
    board = "pieces 1S n6 1C h2 2C k2 2A m1\navailable 2 S\nreserve 2 -\n"
    found = check_against_brute_force(board + "turn 1\ndice 2-5\nunused 2\nmoved n6",
                                      board + "turn 2", 0, {"e5", "n6", "h2"})
    assert found
    assert found == threats(position(board + "turn 1", players=2), 0)


def test_orange_is_warned_too_and_the_list_is_sorted() -> None:
    text = "pieces 1A m2 1S n6 2C o3 2S o6\navailable 1 -\nreserve 1 -\nturn {}"
    found = check_against_brute_force(text.format(2), text.format(1), 1, {"p5", "o3", "o6"})
    assert [threat["target"] for threat in found][:1] == ["base"]
    bases = [threat for threat in found if threat["target"] == "base"]
    pieces = [threat for threat in found if threat["target"] == "piece"]
    assert found == bases + pieces
    for group in (bases, pieces):
        assert [threat["chance"] for threat in group] == sorted((t["chance"] for t in group), reverse=True)
    assert all(threat["by"] == 1 for threat in found)


def test_a_seat_taken_over_is_warned_of_for_its_new_controller() -> None:
    # CON-23, CON-45: Red took Orange's base, so Orange's base and ship are Red's to guard; their
    # entries are against seat 2, which Red controls, and speak to Red.
    rows = "".join(f"available {seat} -\nreserve {seat} -\n" for seat in (1, 2, 3))
    board = f"pieces 1S k5 2S o6 3A p8\nowner 2 1\n{rows}"
    found = threats(position(board + "turn 1", players=3), 0)
    enemy = position(board + "turn 3", players=3)
    check_entries(found, enemy, {"e5", "p5", "k5", "o6"})
    assert [(threat["against"], threat["square"]) for threat in found] == [(2, "p5"), (2, "o6"), (1, "k5")]
    assert found[0]["text"] == ("Orange's base on p5, now yours, is open: Green's airplane on p8 reaches "
                                "it with a 3 or more (89 %)")
    assert found[1]["text"] == ("Green's airplane on p8 can take your orange ship on o6 with a 2 or more "
                                "(97 %)")
    to_green = threats(position(board + "turn 3", players=3), 2)
    check_entries(to_green, position(board + "turn 1", players=3), {"e16", "p8"})
    assert to_green[0]["text"] == ("Red's orange ship on o6 can take your airplane on p8 with a 2 or more; "
                                   "1 more piece can too (97 % in all)")


def test_a_warning_names_the_piece_as_the_event_of_its_move_does() -> None:
    # Conflict's words have one source: Green is warned of "Red's orange ship" (a piece of the
    # colour Red took over, CON-45) and, when Red's roll carries the threat out, the event names the
    # same piece and player in the same words.
    rows = "".join(f"available {seat} -\nreserve {seat} -\n" for seat in (1, 2, 3))
    board = f"pieces 1S k5 2S o6 3A p8\nowner 2 1\n{rows}"
    warning = threats(position(board + "turn 3", players=3), 2)[0]
    assert warning["text"].startswith("Red's orange ship on o6 can take your airplane on p8 with a 2")
    assert warning["dice"] == [2, 3, 4, 5, 6]
    state = position(board + "turn 1", players=3)
    do(state, "roll 2-1")
    do(state, "o6 2: o7 p8")
    events = state.view(None)["content"]["events"]
    assert events[:2] == ["Red moves the orange ship from o6 to p8 with the 2",
                          "The green airplane on p8 is captured"]


def test_no_threat_out_of_reach() -> None:
    # Nothing of Orange's is on the board or can enter anywhere near Red's pieces.
    state = position("pieces 1C a20\navailable 2 C\nreserve 2 -\nturn 1", players=2)
    assert threats(state, 0) == []


# --- who sees them, and when ---------------------------------------------------------------------------


def test_every_viewer_gets_the_threats_to_the_player_on_roll_and_a_finished_game_none() -> None:
    # "Before a roll ends, the squares and home bases that enemy pieces can reach on their next roll
    # are shown": to the player on roll, who decides before its roll ends. Conflict hides nothing
    # (CON-66): one list for all viewers, each entry against the seat it concerns.
    text = "pieces 1S k5 2A h2 2C p4\navailable 2 -\nreserve 2 -\nturn {}"
    state = position(text.format(1), players=2)
    seen = [state.view(seat)["content"]["threats"] for seat in (0, 1, None)]
    assert seen[0] == seen[1] == seen[2]
    assert seen[0]
    assert {threat["against"] for threat in seen[0]} == {1}
    assert threats(state, 1) == []  # Orange is not on roll: its warnings come with its own roll
    orange_on_roll = position(text.format(2), players=2)
    against_orange = orange_on_roll.view(None)["content"]["threats"]
    assert against_orange
    assert all(threat["against"] == 2 and threat["by"] == 1 for threat in against_orange)
    do(state, "roll 5-2")
    do(state, "k5 5: l5 m5 n5 o5 p5")  # CON-45: Red takes Orange's base; Orange is out, Red wins
    assert state.outcome() is not None
    assert all("threats" not in state.view(seat)["content"] for seat in (0, 1, None))
    assert state.view(None)["content"]["events"][-1] == "Red wins (the last player left in the game)"


def test_the_warnings_pass_to_the_next_player_when_a_roll_ends() -> None:
    state = position("pieces 1S k5 2A h2 2C p4\navailable 2 -\nreserve 2 -\nturn 1", players=2)
    assert {threat["against"] for threat in state.view(None)["content"]["threats"]} == {1}
    do(state, "roll 1-2")
    do(state, "end")
    assert {threat["against"] for threat in state.view(None)["content"]["threats"]} == {2}


def test_the_figures_follow_the_position_through_apply_and_undo() -> None:
    state = position("pieces 1S n6 2A h2\navailable 2 -\nreserve 2 -\nturn 1", players=2)
    before = threats(state, 0)
    do(state, "roll 1-2")
    do(state, "n6 1: m6")
    after = threats(state, 0)
    assert after != before
    assert after == threats(position("pieces 1S m6 2A h2\navailable 2 -\nreserve 2 -\nturn 1", players=2), 0)
    state.undo()
    assert threats(state, 0) == before
    assert threats(state.copy(), 0) == before
