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


def threats(state: ConflictState, seat: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = state.view(seat)["content"]["threats"]
    return found


def brute_force(state: ConflictState, squares: set[str]) -> dict[Key, tuple[list[int], float]]:
    """For the player to roll in ``state``: every piece that some roll lets end a first decision
    on one of ``squares``, with the die values that do (from the doubles) and the chance (the sum
    over the 21 rolls of those whose legal decisions hold such a move)."""
    board = state.board
    found: dict[Key, tuple[list[int], float]] = {}
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
    return found


def as_keys(found: list[dict[str, Any]]) -> dict[Key, tuple[list[int], float]]:
    letters = {"cannon": "C", "aagun": "G", "airplane": "A", "ship": "S", "submarine": "U"}
    return {
        (threat["square"], threat["from"], f"{threat['by']}{letters[threat['attacker']]}"):
            (threat["dice"], threat["chance"])
        for threat in found
    }


def exact(found: dict[Key, tuple[list[int], float]]) -> dict[Key, tuple[list[int], float]]:
    return {key: (dice, round(chance, 4)) for key, (dice, chance) in found.items()}


def check_against_brute_force(
    text: str, enemy_text: str, seat: int, squares: set[str]
) -> list[dict[str, Any]]:
    """The threats ``seat`` is warned of in ``text`` are exactly what the brute force finds in
    ``enemy_text`` (the same board, the one enemy to roll) on ``squares`` (its bases and pieces)."""
    found = threats(position(text, players=2), seat)
    assert as_keys(found) == exact(brute_force(position(enemy_text, players=2), squares))
    return found


# --- the figures ---------------------------------------------------------------------------------------


def test_an_open_base_and_an_airplane_that_reaches_it() -> None:
    # The airplane on h2 is three squares from Red's base e5, but the straight way passes g3,
    # which is impassable: only a 4 or more takes it there (11 + 9 + 7 = 27 of 36 rolls).
    text = "pieces 2A h2 1C a1\navailable 2 -\nreserve 2 -\nturn {}"
    found = check_against_brute_force(text.format(1), text.format(2), 0, {"e5", "a1"})
    base = found[0]
    assert base == {
        "square": "e5", "target": "base", "piece": None, "by": 2, "attacker": "airplane", "from": "h2",
        "dice": [4, 5, 6], "chance": 0.75,
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
    unguarded = threats(position(text.format(1).replace("1G e5", "1G a1"), players=2), 0)
    assert ("e5", "airplane") in [(threat["square"], threat["attacker"]) for threat in unguarded]


def test_entering_pieces_threaten_from_their_base() -> None:
    # Orange's ship and submarine enter at p5 and can end on n6; the cannons cannot swim.
    text = "pieces 1S n6\navailable 2 CSU\nreserve 2 -\nturn {}"
    found = check_against_brute_force(text.format(1), text.format(2), 0, {"e5", "n6"})
    assert {(threat["attacker"], threat["from"]) for threat in found} == {("ship", None), ("submarine", None)}
    ship = next(threat for threat in found if threat["attacker"] == "ship")
    assert ship["target"] == "piece"
    assert ship["piece"] == "ship"
    assert ship["text"] == (f"Orange's ship entering at p5 can take your ship on n6 with a 2 or more "
                            f"({round(ship['chance'] * 100)} %)")


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


def test_no_threat_out_of_reach() -> None:
    # Nothing of Orange's is on the board or can enter anywhere near Red's pieces.
    state = position("pieces 1C a20\navailable 2 C\nreserve 2 -\nturn 1", players=2)
    assert threats(state, 0) == []


# --- who sees them, and when ---------------------------------------------------------------------------


def test_spectators_and_finished_games_carry_no_threats() -> None:
    state = position("pieces 1S k5 2A h2\navailable 2 -\nreserve 2 -\nturn 1", players=2)
    assert "threats" in state.view(0)["content"]
    assert "threats" not in state.view(None)["content"]
    do(state, "roll 5-2")
    do(state, "k5 5: l5 m5 n5 o5 p5")  # CON-45: Red takes Orange's base; Orange is out, Red wins
    assert state.outcome() is not None
    assert all("threats" not in state.view(seat)["content"] for seat in (0, 1, None))


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
