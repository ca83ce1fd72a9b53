"""The worked examples of specs/mille.md §16 (W-n), rule ids cited. W-39 is the classic bot's
(MIL-103) and is tested with the bot."""

from __future__ import annotations

import random

from mille_tables import MILLE, do, legal, public, refused, resolve, slots, step, table

from parlour.engine import CHANCE
from parlour.games.mille import DRAW_STEP, EXTENSION, PLAY_STEP, MilleState
from parlour.games.mille.cards import DECK_SIZE, GO, SPEED_LIMIT, full_deck, shuffled_deck

SIX = ["25", "50", "75", "gasoline", "spare-tire", "repairs"]
"""A hand of six cards for a seat whose cards do not matter."""


def test_w1_deal_and_first_draw() -> None:
    """W-1: MIL-11 shuffle, MIL-12 deal, MIL-13 starter, MIL-20/21 draw, MIL-35."""
    state = MILLE.new(seed=2026)
    deck = full_deck()  # MIL-11, written out again from the spec's words
    generator = random.Random("mille/2026/1")
    for i in range(DECK_SIZE - 1, 0, -1):
        j = int(generator.random() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    assert tuple(deck) == shuffled_deck(2026, 1)
    assert state.to_move() == CHANCE
    resolve(state)
    assert state.slots[0][1:] == deck[:6]
    assert state.slots[1][1:] == deck[6:12]
    assert state.slots[0][0] == state.slots[1][0] == -1
    assert state.view(None)["content"]["hand"]["pile_size"] == 89
    assert state.to_move() == 0
    assert state.step == DRAW_STEP
    assert legal(state) == ["draw"]
    assert refused(state, "0: play go") == "must pick first"
    do(state, "0: draw")
    assert state.to_move() == CHANCE
    resolve(state)
    assert state.slots[0][0] == deck[12]
    assert state.view(0)["content"]["hand"]["pile_size"] == 88


def test_w2_go_first() -> None:
    """W-2: MIL-26.4, MIL-28."""
    state = table({"cards": ["25", "go", *SIX[2:]]}, {"cards": SIX}, drawn=True)
    assert refused(state, "play 25") == "cannot move now"
    do(state, "play go")
    assert public(state, 0)["battle"] == "go"
    assert state.rolling(0)
    assert state.to_move() == 1
    assert state.step == DRAW_STEP


def test_w3_hazards_need_a_rolling_opponent_speed_limit_does_not() -> None:
    """W-3: MIL-30.1, MIL-31."""
    state = table({"cards": ["stop", "speed-limit", *SIX[:5]]}, {"cards": SIX}, drawn=True)
    assert refused(state, "play stop") == "opponent cannot go"
    do(state, "play speed-limit")
    assert state.limited(1)
    assert public(state, 1)["speed"] == "speed-limit"


def test_w4_starter_alternation_across_games() -> None:
    """W-4: MIL-13, MIL-56 — serials 1, 2, 3 start with S0, S1, S0; game 2 starts at serial 6 with S1."""
    state = MILLE.new(seed=4)
    rng = random.Random(4)
    starters = []
    while state.hand_serial <= 3:
        serial = state.hand_serial
        resolve(state)
        starters.append(state.to_move())
        assert state.view(None)["content"]["hand"]["starter"] == starters[-1]
        while state.hand_serial == serial and not state.is_over():  # random play to the next deal
            step(state, rng)
    assert starters == [0, 1, 0]
    # Game 1 ends after hand 5, started by S0.
    state = table({"cards": ["25"], "battle": "go"}, {"cards": ["100"], "battle": "stop"},
                  match={"hand_serial": 5, "hand_no": 5, "totals": [4990, 3000]}, pile=0)
    assert state.to_move() == 0
    do(state, "play 25")  # MIL-51: nothing useful is left, the hand ends; 5015 ends the game
    assert state.is_over()
    assert state.games_won == [1, 0]
    state = resolve(MILLE.next_game(state))
    match = state.view(None)["content"]["match"]
    assert (match["game_no"], match["hand_no"], match["hand_serial"]) == (2, 1, 6)
    assert match["totals"] == [0, 0]
    assert match["games_won"] == [1, 0]
    assert state.to_move() == 1


def test_w5_third_200() -> None:
    """W-5: MIL-26.1 comes first."""
    for extra in ({}, {"speed": "speed-limit"}, {"battle": "stop"}):
        state = table({"cards": ["200", *SIX], "battle": "go", "miles": {"200": 2}, **extra},
                      {"cards": SIX}, drawn=True)
        assert refused(state, "play 200") == "only two 200's per hand"


def test_w6_limit() -> None:
    """W-6: MIL-26.2, MIL-32."""
    state = table({"cards": ["75", "50", "25", *SIX[3:]], "battle": "go", "speed": "speed-limit",
                   "miles": {"100": 3}}, {"cards": SIX}, drawn=True)
    assert refused(state, "play 75") == "limit of 50"
    assert {"play 50", "play 25"} <= set(legal(state))
    do(state, "play 50")
    assert state.mileage[0] == 350


def test_w7_overshoot_and_the_extension_step() -> None:
    """W-7: MIL-26.3, MIL-45."""
    state = table({"cards": ["75", "100", "50", *SIX[3:]], "battle": "go",
                   "miles": {"100": 6, "50": 1}}, {"cards": SIX}, drawn=True)
    assert refused(state, "play 75") == "puts you over 700"
    assert refused(state, "play 100") == "puts you over 700"
    do(state, "play 50")
    assert state.mileage[0] == 700
    assert state.step == EXTENSION
    assert state.to_move() == 0
    assert legal(state) == ["extend yes", "extend no"]
    assert refused(state, "discard 25") == "not now"


def test_w8_check_order_when_stopped() -> None:
    """W-8: MIL-26 (the distance check before the rolling check)."""
    state = table({"cards": ["75", "25", *SIX[3:]], "battle": "stop", "miles": {"100": 6, "50": 1}},
                  {"cards": SIX}, drawn=True)
    assert refused(state, "play 75") == "puts you over 700"
    assert refused(state, "play 25") == "cannot move now"


def test_w9_after_an_extension() -> None:
    """W-9: MIL-26.3, MIL-45."""
    state = table({"cards": ["200", "100", *SIX[3:]], "battle": "go",
                   "miles": {"100": 7, "75": 2}}, {"cards": SIX, "miles": {"100": 4}},
                  drawn=True, goal=1000)
    assert state.mileage[0] == 850
    assert refused(state, "play 200") == "puts you over 1000"
    do(state, "play 100")
    assert state.mileage[0] == 950


def test_w10_go_on_a_hazard_then_gasoline_then_go() -> None:
    """W-10: MIL-27, MIL-28."""
    state = table({"cards": ["go", "gasoline", *SIX[:4]], "battle": "out-of-gas"}, {"cards": SIX},
                  drawn=True)
    assert refused(state, "play go") == 'cannot play "Go" on a "Out of Gas"'
    do(state, "play gasoline")
    assert public(state, 0)["battle"] == "gasoline"
    assert not state.rolling(0)
    resolve(do(state, "1: draw"))
    do(state, "1: discard 25")
    resolve(do(state, "0: draw"))
    do(state, "0: play go")
    assert state.rolling(0)


def test_w11_wrong_repair() -> None:
    """W-11: MIL-27."""
    state = table({"cards": ["gasoline", "repairs", *SIX[:4]], "battle": "flat-tire"}, {"cards": SIX},
                  drawn=True)
    assert refused(state, "play gasoline") == 'can\'t play "Gasoline"'
    state = table({"cards": ["gasoline", "repairs", *SIX[:4]]}, {"cards": SIX}, drawn=True)
    assert refused(state, "play repairs") == 'can\'t play "Repairs"'


def test_w12_go_on_go_and_an_unneeded_end_of_limit() -> None:
    """W-12: MIL-28, MIL-29."""
    state = table({"cards": ["go", "end-of-limit", *SIX[:4]], "battle": "go"}, {"cards": SIX},
                  drawn=True)
    assert refused(state, "play go") == 'cannot play "Go" on a "Go"'
    assert refused(state, "play end-of-limit") == "not limited"
    state = table({"cards": ["go", "end-of-limit", *SIX[:4]], "speed": "end-of-limit"},
                  {"cards": SIX}, drawn=True)
    assert refused(state, "play end-of-limit") == "not limited"


def test_w13_stop_on_right_of_way() -> None:
    """W-13: MIL-18, MIL-30, MIL-31, MIL-38."""
    state = table({"cards": ["stop", "speed-limit", "accident", *SIX[:3]]},
                  {"cards": SIX, "safeties": ["right-of-way"]}, drawn=True)
    assert state.rolling(1)
    assert refused(state, "play stop") == "opponent is protected"
    assert refused(state, "play speed-limit") == "opponent is protected"
    do(state, "play accident")
    assert public(state, 1)["battle"] == "accident"


def test_w14_check_order_for_hazards() -> None:
    """W-14: MIL-30 (the rolling check first)."""
    state = table({"cards": ["stop", *SIX]},
                  {"cards": SIX, "safeties": ["right-of-way"], "battle": "accident"}, drawn=True)
    assert refused(state, "play stop") == "opponent cannot go"


def test_w15_speed_limit_on_a_limited_seat() -> None:
    """W-15: MIL-31.1."""
    state = table({"cards": ["speed-limit", *SIX]}, {"cards": SIX, "speed": "speed-limit"}, drawn=True)
    assert refused(state, "play speed-limit") == "opponent has limit"


def test_w16_hazard_on_a_repair_with_right_of_way() -> None:
    """W-16: MIL-18, MIL-30."""
    state = table({"cards": ["flat-tire", "out-of-gas", *SIX[:5]]},
                  {"cards": SIX, "safeties": ["right-of-way"], "battle": "gasoline",
                   "battle_pile": ["out-of-gas", "gasoline"]}, drawn=True)
    assert {"play flat-tire", "play out-of-gas"} <= set(legal(state))
    do(state, "play out-of-gas")
    assert public(state, 1)["battle"] == "out-of-gas"


def test_w17_a_useless_go() -> None:
    """W-17: MIL-28, MIL-51."""
    state = table({"cards": ["go", *SIX], "safeties": ["right-of-way"]}, {"cards": SIX}, drawn=True)
    assert state.rolling(0)
    assert not state.useful(0, GO)
    do(state, "play go")
    assert public(state, 0)["battle"] == "go"
    assert state.to_move() == 1


def test_w18_right_of_way_at_the_start() -> None:
    """W-18: MIL-34, MIL-38 — not a cure; +100; extra turn; a 200 at once."""
    state = table({"cards": ["right-of-way", "200", *SIX[:5]]}, {"cards": SIX}, drawn=True)
    do(state, "play right-of-way")
    assert public(state, 0)["battle"] is None
    assert state.rolling(0)
    assert state.hand_total[0] == 100
    assert state.to_move() == 0
    assert state.step == DRAW_STEP
    do(state, "draw")
    assert state.draw_size == 1
    resolve(state)
    do(state, "play 200")
    assert state.mileage[0] == 200


def test_w19_right_of_way_while_limited_on_an_empty_battle_pile() -> None:
    """W-19: MIL-38 table row 3, MIL-39, MIL-40."""
    state = table({"cards": ["right-of-way", *SIX[:5]]}, {"cards": ["speed-limit", *SIX]},
                  to_act=1, drawn=True)
    do(state, "1: play speed-limit")
    assert public(state, 0)["coup_window"] == "speed-limit"
    assert legal(state) == ["coup right-of-way", "draw"]
    do(state, "0: coup right-of-way")
    assert public(state, 0)["speed"] is None
    assert public(state, 0)["battle"] == "go"
    assert state.rolling(0)
    assert state.hand_total[0] == 400
    assert state.to_move() == 0
    assert state.step == DRAW_STEP
    do(state, "draw")
    assert state.draw_size == 2


def w20() -> MilleState:
    """W-20's situation: S1 has just played Accident on S0, who holds Driving Ace; pile 60."""
    state = table({"cards": ["driving-ace", *SIX[:5]], "battle": "go", "miles": {"100": 3}},
                  {"cards": ["accident", *SIX]}, to_act=1, drawn=True, pile=60)
    return do(state, "1: play accident")


def test_w20_coup_fourre() -> None:
    """W-20: MIL-36, MIL-37, MIL-39, MIL-40, MIL-21."""
    state = w20()
    assert legal(state) == ["coup driving-ace", "draw"]
    do(state, "coup driving-ace")
    seat = public(state, 0)
    assert seat["battle"] == "go"
    assert seat["safeties"] == [{"card": "driving-ace", "coup": True}]
    assert state.hand_total[0] == 300 + 400
    assert "*Driving Ace" in state.render(0)
    assert state.to_move() == 0
    assert state.step == DRAW_STEP
    do(state, "draw")
    resolve(state)
    assert state.view(0)["content"]["hand"]["pile_size"] == 58
    assert slots(state)[0] is not None
    assert slots(state)[1] is not None
    do(state, "discard 25")
    assert state.to_move() == 1


def test_w21_drew_first_no_coup() -> None:
    """W-21: MIL-39 (drawing closes the window), MIL-37."""
    state = w20()
    do(state, "draw")
    resolve(state)
    assert public(state, 0)["coup_window"] is None
    assert refused(state, "coup driving-ace") == "no coup fourre"
    assert "play driving-ace" in legal(state)
    assert "coup driving-ace" not in legal(state)
    do(state, "play driving-ace")
    assert public(state, 0)["battle"] == "go"
    assert state.hand_total[0] == 300 + 100
    do(state, "draw")
    assert state.draw_size == 1


def test_w22_cure_on_a_later_turn() -> None:
    """W-22: MIL-35, MIL-36, MIL-40."""
    state = table({"cards": ["driving-ace", *SIX[:5]], "battle": "accident"}, {"cards": SIX})
    assert state.step == DRAW_STEP
    assert legal(state) == ["draw", "play driving-ace"]
    do(state, "play driving-ace")
    assert public(state, 0)["battle"] == "go"
    assert state.hand_total[0] == 100
    assert state.coups[0] == 0
    do(state, "draw")
    assert state.draw_size == 2


def test_w23_a_safety_that_cures_nothing() -> None:
    """W-23: MIL-34, MIL-35."""
    state = table({"cards": ["extra-tank", *SIX[:5]], "battle": "go"}, {"cards": SIX})
    assert refused(state, "play extra-tank") == "must pick first"
    resolve(do(state, "draw"))
    do(state, "play extra-tank")
    assert state.hand_total[0] == 100
    assert state.to_move() == 0
    assert state.step == DRAW_STEP
    do(state, "draw")
    assert state.draw_size == 1


def test_w24_right_of_way_against_stop_while_limited() -> None:
    """W-24: MIL-38, MIL-39."""
    state = table({"cards": ["right-of-way", *SIX[:5]], "battle": "go", "speed": "speed-limit"},
                  {"cards": ["stop", *SIX]}, to_act=1, drawn=True)
    do(state, "1: play stop")
    do(state, "0: coup right-of-way")
    seat = public(state, 0)
    assert seat["battle"] is None
    assert seat["speed"] is None
    assert seat["rolling"]
    assert state.hand_total[0] == 400
    assert state.step == DRAW_STEP


def test_w25_old_limit_new_flat_tire() -> None:
    """W-25: MIL-21, MIL-38, MIL-39 (D-2: no coup for the old Limit)."""
    state = table({"cards": ["right-of-way", "puncture-proof", *SIX[:4]], "battle": "go",
                   "speed": "speed-limit"}, {"cards": ["flat-tire", *SIX]}, to_act=1, drawn=True)
    do(state, "1: play flat-tire")
    assert legal(state) == ["coup puncture-proof", "draw", "play right-of-way"]
    do(state, "play right-of-way")
    seat = public(state, 0)
    assert seat["speed"] is None
    assert seat["battle"] == "flat-tire"
    assert not seat["rolling"]
    assert state.hand_total[0] == 100
    assert seat["coup_window"] == "flat-tire"
    assert state.step == DRAW_STEP
    do(state, "coup puncture-proof")
    assert public(state, 0)["battle"] == "go"
    assert state.hand_total[0] == 100 + 400
    assert state.cards_held(0) == 4
    resolve(do(state, "draw"))
    assert state.cards_held(0) == 6
    do(state, "discard 25")
    resolve(do(state, "1: draw"))
    do(state, "1: discard 50")
    do(state, "0: draw")
    assert state.draw_size == 2


def test_w26_pile_empty_the_window_does_not_stay_open() -> None:
    """W-26: MIL-39 (D-3)."""
    state = table({"cards": ["driving-ace", "75", "go", "25"], "battle": "go"},
                  {"cards": ["accident", "gasoline", "spare-tire", "repairs"]}, to_act=1, pile=0)
    do(state, "1: play accident")
    assert state.step == PLAY_STEP
    assert "coup driving-ace" in legal(state)
    do(state, "0: discard 75")
    assert public(state, 0)["coup_window"] is None
    do(state, "1: discard gasoline")
    assert "play driving-ace" in legal(state)
    assert "coup driving-ace" not in legal(state)
    do(state, "0: play driving-ace")
    assert state.hand_total[0] == 100


def test_w27_discarding_a_safety() -> None:
    """W-27: MIL-23."""
    state = table({"cards": ["extra-tank", *SIX]}, {"cards": SIX}, drawn=True)
    assert refused(state, "discard extra-tank") == "discard a safety?"


def test_w28_all_four() -> None:
    """W-28: MIL-34, MIL-53."""
    state = table({"cards": ["right-of-way", *SIX], "battle": "go",
                   "safeties": ["extra-tank", {"card": "puncture-proof", "coup": True}, "driving-ace"]},
                  {"cards": SIX}, drawn=True)
    assert state.hand_total[0] == 600
    do(state, "play right-of-way")
    assert state.events[-1].number == 400
    assert state.hand_total[0] == 1000
    assert state.to_move() == 0
    assert state.step == DRAW_STEP


def test_w29_tidy_after_a_normal_play() -> None:
    """W-29: MIL-16."""
    state = table({"slots": ["go", "50", "stop", "100", "gasoline", "75", "25"], "battle": "go"},
                  {"cards": SIX}, drawn=True)
    do(state, "play 100")
    assert slots(state) == [None, "50", "stop", "go", "gasoline", "75", "25"]


def test_w30_tidy_after_a_coup_before_drawing() -> None:
    """W-30: MIL-16, MIL-21."""
    state = table({"slots": [None, "25", "50", "75", "driving-ace", "gasoline", "spare-tire"],
                   "battle": "accident", "coup_window": "accident"}, {"cards": SIX})
    do(state, "coup driving-ace")
    assert slots(state) == [None, None, "50", "75", "25", "gasoline", "spare-tire"]
    resolve(do(state, "draw"))
    assert None not in slots(state)


def test_w31_notation() -> None:
    """W-31: MIL-64."""
    state = table({"cards": ["out-of-gas", "go", "25", "50", "go", "75"], "battle": "go"},
                  {"cards": SIX, "battle": "go"}, drawn=True)
    assert state.action_to_text(state.parse_action("Play Out of Gas")) == "play out-of-gas"
    assert slots(state)[5] == "go"
    do(state, "discard go @5")
    assert slots(state) == [None, None, "go", "25", "50", "out-of-gas", "75"]
    state = table({"cards": ["out-of-gas", "go", "25", "50", "go", "75"]}, {"cards": SIX}, drawn=True)
    assert refused(state, "discard go @4") == "no card there"
    from parlour.engine import NotationError
    try:
        state.parse_action("play 3")
    except NotationError:
        pass
    else:
        raise AssertionError("play 3 must be unparsable")


def test_w32_the_pile_runs_out_and_the_hand_ends() -> None:
    """W-32: MIL-51, MIL-54."""
    state = table({"cards": ["200", "100", "75", "gasoline", "gasoline", "spare-tire"], "battle": "go",
                   "miles": {"200": 2, "100": 2, "50": 1}},
                  {"cards": ["gasoline", "spare-tire", "go", "go", "25", "50"], "battle": "accident"},
                  pile=["200"])
    do(state, "0: draw")
    state.play_text("card 200")
    assert state.last_hand is not None
    assert state.last_hand.how == "play-out"
    assert state.stale
    assert state.to_move() == CHANCE
    assert state.last_hand.lines[0][4:] == (0, 0, 0, 0, 0)


def test_w33_speed_limit_near_the_goal_is_not_useful() -> None:
    """W-33: MIL-31, MIL-51."""
    state = table({"cards": ["speed-limit", "75"], "battle": "stop"},
                  {"cards": ["100", "gasoline"], "battle": "go", "miles": {"100": 6, "75": 1}},
                  to_act=1, pile=0)
    assert state.play_error(0, SPEED_LIMIT) is None
    assert not state.useful(0, SPEED_LIMIT)
    do(state, "1: discard gasoline")
    assert state.last_hand is not None
    assert state.last_hand.how == "play-out"


def test_w34_play_out_goes_on() -> None:
    """W-34: MIL-19, MIL-51, MIL-52."""
    state = table({"cards": ["gasoline"], "battle": "stop"}, {"cards": ["25", "50"], "battle": "go"},
                  pile=0)
    do(state, "0: discard gasoline")
    assert state.to_move() == 1
    do(state, "1: play 25")
    assert state.to_move() == 1  # S0 holds nothing: skipped
    do(state, "1: play 50")
    assert state.last_hand is not None
    assert state.last_hand.how == "play-out"


def test_w35_delayed_action() -> None:
    """W-35: MIL-45, MIL-53, MIL-54."""
    state = table({"cards": ["gasoline", "stop"]}, {"cards": ["100", "25"], "battle": "go",
                                                    "miles": {"100": 6}}, to_act=1, pile=0)
    do(state, "1: play 100")
    assert state.step == EXTENSION
    assert state.to_move() == 1
    do(state, "1: extend no")
    assert state.last_hand is not None
    assert state.last_hand.how == "declined"
    assert state.last_hand.lines[1] == (700, 0, 0, 0, 400, 300, 300, 0, 500)
    assert state.hand_total[1] == 700 + 1500


def test_w36_a_full_trip() -> None:
    """W-36: MIL-53, MIL-54."""
    state = table({"cards": ["100", *SIX[:5]], "battle": "go",
                   "miles": {"25": 2, "50": 2, "75": 2, "100": 3},
                   "safeties": [{"card": "driving-ace", "coup": True}]},
                  {"cards": SIX}, drawn=True, pile=30)
    assert state.mileage[0] == 600
    do(state, "play 100", "extend no")
    assert state.last_hand is not None
    assert state.last_hand.lines[0] == (700, 100, 0, 300, 400, 300, 0, 0, 500)
    assert state.last_hand.hand_totals[0] == 2300


def test_w37_the_extension_is_won_by_the_other_seat() -> None:
    """W-37: MIL-45, MIL-46, MIL-47."""
    state = table({"cards": ["200", *SIX[:5]], "battle": "go", "miles": {"100": 5}},
                  {"cards": SIX, "battle": "go", "miles": {"100": 4}}, drawn=True)
    do(state, "play 200", "extend yes")
    assert state.goal == 1000
    assert state.extended
    assert state.to_move() == 1
    state = table({"cards": SIX, "battle": "go", "miles": {"75": 4, "100": 2, "200": 1}},
                  {"cards": ["100", *SIX[:5]], "battle": "go", "miles": {"100": 7, "75": 2, "50": 1}},
                  goal=1000, to_act=1, drawn=True, pile=20)
    do(state, "1: play 100")
    assert state.last_hand is not None
    assert state.last_hand.how == "1000"
    assert state.last_hand.lines[1][4:] == (400, 300, 0, 200, 0)
    assert state.last_hand.lines[0][4:] == (0, 0, 0, 0, 0)


def test_w38_an_extension_that_fails() -> None:
    """W-38: MIL-47, MIL-51, MIL-54."""
    state = table({"cards": ["gasoline"], "battle": "go", "miles": {"100": 8, "50": 1},
                   "safeties": ["extra-tank"]},
                  {"cards": ["repairs"], "battle": "go", "miles": {"100": 4, "200": 1}},
                  goal=1000, pile=0)
    do(state, "0: discard gasoline")
    score = state.last_hand
    assert score is not None
    assert score.how == "play-out"
    assert score.lines[0] == (850, 100, 0, 0, 0, 0, 0, 0, 0)
    assert score.lines[1] == (600, 0, 0, 0, 0, 0, 0, 0, 0)


def test_w40_5000_passed_during_a_hand() -> None:
    """W-40: MIL-55 — the higher total wins, not the first past 5000."""
    state = table({"cards": ["100", *SIX[:5]], "battle": "go", "miles": {"100": 5, "50": 2}},
                  {"cards": ["100", *SIX[:5]], "battle": "go", "miles": {"100": 1}},
                  match={"totals": [4700, 4975]}, to_act=1, drawn=True)
    do(state, "1: play 100")
    assert state.game_total[1] == 5075
    assert not state.is_over()
    resolve(do(state, "0: draw"))
    do(state, "0: play 100", "0: extend no")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == 0
    assert outcome.scores == (5500.0, 5075.0)
    assert state.games_won == [1, 0]


def test_w41_tie() -> None:
    """W-41: MIL-55."""
    state = table({"cards": ["100", *SIX[:5]], "battle": "go", "miles": {"100": 4, "200": 1}},
                  {"cards": SIX, "battle": "go", "miles": {"25": 1}},
                  match={"totals": [4700, 5200]}, drawn=True)
    do(state, "play 100", "extend no")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert outcome.scores == (5200.0, 5200.0)
    assert state.games_won == [0, 0]


def test_w42_double_draw_with_one_card_left() -> None:
    """W-42: MIL-21, MIL-51."""
    state = table({"cards": ["driving-ace", "gasoline", "spare-tire", "repairs", "end-of-limit", "200"],
                   "battle": "accident", "coup_window": "accident", "miles": {"200": 2}},
                  {"cards": ["25", "50", "spare-tire"], "battle": "accident"}, pile=["gasoline"])
    do(state, "coup driving-ace")
    assert state.cards_held(0) == 5
    do(state, "draw")
    assert state.draw_size == 1
    resolve(state)
    assert state.last_hand is not None
    assert state.last_hand.how == "play-out"
    assert state.last_hand.lines[0][3] == 300
