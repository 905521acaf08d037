"""Indus final scoring on the default layout: buildings, top-piece majorities, ties, 2 players."""

from __future__ import annotations

from engine.indus import GAME
from engine.indus.scoring import colour_scores, winners
from tests.engine.indus.indus_helpers import mk, pc

# Default layout reminders: B3 = (3,0) 4/2; B5 = (3,4)(4,4) 6/3; B4 = (3,2)(4,2)(5,2) 8/4;
# B2 = (0,5)(1,5) 6/3; P2 = (3,4)(4,3)(4,4)(5,4) 4; T3 = (3,1)(3,2) 4; R2 = (4,0)(4,1)(4,2)(5,1) 4;
# C1 = column 3, 6; P1 = (0,4)(1,3)(1,4) 3; R1 = row 2 cols 0–4, 5; (0,2) is W+B+T.


def breakdown(state):
    return colour_scores(state)[1]


def test_building_counts_buried_pieces_other_ruins_only_the_top():
    # B5: colour 1 is buried on both squares but has the most pieces: first 6; colours 0 and 2
    # tie for second: 3 // 2 = 1 each. P2 counts tops only: colours 0 and 2 tie, 4 // 2 = 2 each.
    state = mk(4, stacks={(3, 4): [pc(1, "W"), pc(0, "A")], (4, 4): [pc(1, "P"), pc(2, "W")]})
    got = breakdown(state)
    assert got["B5"] == {"1": 6, "0": 1, "2": 1}
    assert got["P2"] == {"0": 2, "2": 2}
    assert set(got) == {"B5", "P2"}
    assert colour_scores(state)[0] == [3, 6, 3, 0]


def test_building_single_player_takes_first_only():
    state = mk(4, stacks={(0, 5): [pc(3, "W")], (1, 5): [pc(3, "A")]})
    got = breakdown(state)
    assert got == {"B2": {"3": 6}, "T2": {"3": 2}, "W2": {"3": 4}}


def test_building_tie_for_first_shares_first_plus_second_and_no_second():
    state = mk(4, stacks={(3, 2): [pc(0, "W"), pc(1, "W")], (4, 2): [pc(2, "W")],
                          (5, 2): [pc(1, "A"), pc(0, "P")]})
    got = breakdown(state)
    assert got["B4"] == {"0": 6, "1": 6}  # (8 + 4) // 2; colour 2 (one piece) gets nothing
    assert got["T3"] == {"1": 4}  # (3,2) top is colour 1
    assert got["R2"] == {"2": 4}  # (4,2) top is colour 2


def test_building_three_way_tie_rounds_down():
    state = mk(4, stacks={(3, 0): [pc(1, "W"), pc(2, "W"), pc(0, "W")]})
    assert breakdown(state) == {"B3": {"0": 2, "1": 2, "2": 2}}  # (4 + 2) // 3


def test_building_second_place_is_decided_by_count():
    state = mk(4, stacks={(3, 2): [pc(0, "W"), pc(0, "A"), pc(0, "P")], (4, 2): [pc(3, "W"), pc(1, "W")],
                          (5, 2): [pc(3, "A")]}, owners={(3, 2): 0})
    got = breakdown(state)
    assert got["B4"] == {"0": 8, "3": 4}  # 3 pieces first, 2 pieces second, colour 1 (1) nothing
    assert got["T3"] == {"0": 4} and got["R2"] == {"1": 4}


def test_non_building_majority_of_top_pieces_and_ties():
    state = mk(4, stacks={(0, 3): [pc(0, "W")], (1, 3): [pc(2, "W"), pc(0, "W")],
                          (2, 3): [pc(1, "W")], (5, 3): [pc(0, "A"), pc(1, "A")]})
    got = breakdown(state)
    assert got["C1"] == {"0": 3, "1": 3}  # tops: c0 on (0,3),(1,3); c1 on (2,3),(5,3): 6 // 2
    assert got["P1"] == {"0": 3}  # (1,3) is C+P: its top counts for both ruins
    assert got["R1"] == {"1": 5}  # (2,3) is C+R
    assert "C2" not in got


def test_odd_value_split_rounds_down():
    state = mk(4, stacks={(1, 3): [pc(1, "W")], (0, 4): [pc(0, "W")]})
    assert breakdown(state)["P1"] == {"0": 1, "1": 1}  # 3 // 2


def test_square_with_three_types_counts_for_each():
    state = mk(4, stacks={(0, 2): [pc(2, "W"), pc(3, "W")]})
    got = breakdown(state)
    assert got["T1"] == {"3": 8} and got["W1"] == {"3": 5}
    assert got["B1"] == {"3": 6, "2": 6}  # tie for first in the building: (8 + 4) // 2


def test_prisoners_add_points_and_result_sums_per_seat():
    state = mk(4, stacks={(3, 0): [pc(1, "W")]}, prisoners={2: [pc(0, "P"), pc(1, "W"), pc(3, "A")]})
    res = GAME.result(state)
    assert res["prisoner_points"] == [0, 0, 6, 0]
    assert res["scores"] == [0, 4, 6, 0]


def test_two_players_score_each_colour_as_its_own_player_then_sum():
    # seat 0 owns colours 0 and 2; seat 1 owns 1 and 3. In B5 colour 0 has 2, colour 2 has 1,
    # colour 1 has 1: colour 0 first (6), colours 2 and 1 tie for second (1 each). Seat 0 = 7.
    stacks = {(3, 4): [pc(0, "W"), pc(2, "W")], (4, 4): [pc(1, "W"), pc(0, "A")]}
    state = mk(2, stacks=stacks)
    got = breakdown(state)
    assert got["B5"] == {"0": 6, "1": 1, "2": 1}
    assert got["P2"] == {"0": 2, "2": 2}  # the two colours of seat 0 tie with each other
    res = GAME.result(state)
    assert res["colour_points"] == [8, 1, 3, 0]
    assert res["scores"] == [11, 1]


def test_winner_tie_break_by_prisoners_then_shared():
    assert winners([10, 12, 12], [5, 1, 3]) == [2]
    assert winners([12, 12, 9], [2, 2, 7]) == [0, 1]
    assert winners([3, 8], [9, 0]) == [1]


def test_result_winners_only_at_the_end():
    state = mk(3, stacks={(3, 0): [pc(1, "W")]})
    assert GAME.result(state)["winners"] == []
    over = mk(3, stacks={(3, 0): [pc(1, "W")]}, phase="over")
    assert GAME.result(over)["winners"] == [1]
