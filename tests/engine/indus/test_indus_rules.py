"""Indus rules with pinned dice: setup, placement, rolls and rerolls, moves, stacking, captures, end."""

from __future__ import annotations

import json

import pytest

from engine.core import CHANCE, IllegalAction, Reason
from engine.indus import GAME
from engine.indus.rules import EMPTY, SPACE_INDEX, landing
from tests.engine.indus.indus_helpers import mk, move, pc, roll, sq

# --- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 5, 0])
def test_player_count_outside_2_to_4_is_value_error(players):
    with pytest.raises(ValueError, match="players"):
        GAME.setup(players, 1)


def test_unknown_option_is_value_error():
    with pytest.raises(ValueError, match="colour"):
        GAME.setup(2, 1, {"colour": "red"})


@pytest.mark.parametrize(
    ("players", "colours", "start", "reserve", "placements"),
    [
        (2, 4, (1, 1, 0), (5, 3, 2), 8),
        (3, 3, (2, 1, 0), (6, 4, 3), 9),
        (4, 4, (1, 1, 0), (5, 3, 2), 8),
    ],
)
def test_piece_counts_and_start_rounds(players, colours, start, reserve, placements):
    state = GAME.setup(players, 3)
    assert len(state.start) == colours and set(state.start) == {start}
    assert set(state.reserve) == {reserve}
    # 48 pieces come into play in every player count
    assert sum(sum(s) + sum(r) for s, r in zip(state.start, state.reserve, strict=True)) == 48
    order = []
    while state.phase == "setup":
        [seat] = GAME.to_move(state)
        order.append(seat)
        legal = GAME.legal_actions(state, seat)
        assert all(a["do"] == "place" for a in legal)
        state, _ = GAME.apply(state, seat, legal[-1])
    assert order == [i % players for i in range(placements)]  # same order every round
    assert sum(p != EMPTY for p in state.frame) == placements
    assert state.phase == "place" and state.seat == 0 and state.turn == 1
    assert set(state.start) == {(0, 0, 0)}


def test_two_players_own_two_colours_each_and_place_either():
    state = GAME.setup(2, 3)
    colours = {a["colour"] for a in GAME.legal_actions(state, 0)}
    assert colours == {0, 2}
    state, _ = GAME.apply(state, 0, {"do": "place", "colour": 2, "rank": "A", "space": "N0"})
    assert {a["colour"] for a in GAME.legal_actions(state, 1)} == {1, 3}
    # one piece per start space: N0 is no longer offered
    assert all(a["space"] != "N0" for a in GAME.legal_actions(state, 1))


def test_wrong_seat_and_illegal_actions_are_refused():
    state = GAME.setup(3, 3)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, GAME.legal_actions(state, 0)[0])
    assert err.value.reason is Reason.NOT_YOUR_TURN
    assert GAME.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"do": "place", "colour": 0, "rank": "P", "space": "N0"})  # no start P
    assert err.value.reason is Reason.ILLEGAL_MOVE


# --- turn: place, roll, move -----------------------------------------------------------------


def test_place_is_mandatory_then_a_die_is_due():
    state = mk(4, frame={"N0": pc(0, "W")}, reserve={0: (1, 0, 0)})
    assert GAME.to_move(state) == [0]
    assert {a["do"] for a in GAME.legal_actions(state, 0)} == {"place"}
    state, events = GAME.apply(state, 0, {"do": "place", "colour": 0, "rank": "W", "space": "E2"})
    assert events[0]["type"] == "place"
    assert GAME.to_move(state) == [CHANCE]
    assert GAME.chance_outcomes(state) == [(d, 1 / 6) for d in range(1, 7)]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"do": "reroll"})
    assert err.value.reason is Reason.CHANCE_DUE
    with pytest.raises(IllegalAction):
        GAME.apply(state, CHANCE, 7)


def test_empty_reserve_skips_placement():
    state = mk(4, frame={"N0": pc(0, "W"), "N1": pc(1, "W"), "N2": pc(1, "W")}, phase="roll")
    state, _ = move(roll(state, 2), "N0")
    assert state.seat == 1 and state.phase == "roll" and GAME.to_move(state) == [CHANCE]


@pytest.mark.parametrize(
    ("space", "die", "rc"),
    [("N2", 1, (0, 2)), ("N2", 6, (5, 2)), ("S4", 1, (5, 4)), ("S4", 3, (3, 4)),
     ("W1", 2, (1, 1)), ("W1", 6, (1, 5)), ("E3", 1, (3, 5)), ("E3", 5, (3, 1))],
)
def test_moves_go_straight_in_exactly_the_die(space, die, rc):
    assert divmod(landing(SPACE_INDEX[space], die), 6) == rc
    state = roll(mk(4, frame={space: pc(0, "W")}, phase="roll"), die)
    [action] = GAME.legal_actions(state, 0)
    assert (action["row"], action["col"]) == rc
    state, _ = GAME.apply(state, 0, action)
    assert state.stacks[sq(*rc)] == (pc(0, "W"),)


def test_pieces_pass_over_stacks_without_blocking():
    state = mk(4, frame={"N0": pc(0, "W")}, stacks={(0, 0): [pc(1, "A")], (1, 0): [pc(2, "W")]},
               phase="roll")
    state, _ = move(roll(state, 3), "N0")
    assert state.stacks[sq(2, 0)] == (pc(0, "W"),)


def test_reroll_rank_restrictions():
    frame = {"N0": pc(0, "W"), "N1": pc(0, "A"), "N2": pc(0, "P"), "N3": pc(1, "P")}
    state = roll(mk(4, frame=frame, phase="roll"), 4)
    legal = GAME.legal_actions(state, 0)
    assert [a.get("space") for a in legal] == ["N0", "N1", "N2", None]  # all own ranks + reroll
    assert legal[-1] == {"do": "reroll"}
    state, _ = GAME.apply(state, 0, {"do": "reroll"})
    assert GAME.to_move(state) == [CHANCE]
    state = roll(state, 2)
    assert state.roll == 2
    legal = GAME.legal_actions(state, 0)
    assert [a["rank"] for a in legal if a["do"] == "move"] == ["A", "P"]  # no worker on roll 2
    assert {"do": "reroll"} in legal  # a professor waits for roll 3
    state = roll(GAME.apply(state, 0, {"do": "reroll"})[0], 6)
    legal = GAME.legal_actions(state, 0)
    assert legal == [{"do": "move", "space": "N2", "colour": 0, "rank": "P", "row": 5, "col": 2}]
    view = GAME.view(state, None)
    assert view["roll"] == 3 and view["ranks_allowed"] == ["P"] and not view["reroll_allowed"]


def test_no_reroll_with_only_workers_and_no_third_roll_without_professor():
    workers = roll(mk(4, frame={"N0": pc(0, "W"), "N1": pc(0, "W"), "S0": pc(1, "A")}, phase="roll"), 1)
    assert {"do": "reroll"} not in GAME.legal_actions(workers, 0)
    assistant = roll(mk(4, frame={"N0": pc(0, "W"), "N1": pc(0, "A")}, phase="roll"), 1)
    assert {"do": "reroll"} in GAME.legal_actions(assistant, 0)
    second = roll(GAME.apply(assistant, 0, {"do": "reroll"})[0], 1)
    assert {"do": "reroll"} not in GAME.legal_actions(second, 0)
    assert [a["rank"] for a in GAME.legal_actions(second, 0)] == ["A"]


def test_piece_placed_this_turn_counts_for_reroll():
    state = mk(4, frame={"N0": pc(0, "W")}, reserve={0: (0, 0, 1)})
    state, _ = GAME.apply(state, 0, {"do": "place", "colour": 0, "rank": "P", "space": "W5"})
    state = roll(state, 3)
    assert {"do": "reroll"} in GAME.legal_actions(state, 0)
    assert [a["space"] for a in GAME.legal_actions(state, 0) if a["do"] == "move"] == ["N0", "W5"]


def test_two_players_move_the_colour_just_placed():
    frame = {"N0": pc(0, "A"), "N1": pc(2, "W"), "N2": pc(2, "P"), "S0": pc(1, "W")}
    state = mk(2, frame=frame, reserve={0: (1, 0, 0), 2: (1, 0, 0)})
    state, _ = GAME.apply(state, 0, {"do": "place", "colour": 2, "rank": "W", "space": "E0"})
    assert GAME.view(state, 0)["placed_colour"] == 2
    state = roll(state, 2)
    legal = GAME.legal_actions(state, 0)
    assert {a["colour"] for a in legal if a["do"] == "move"} == {2}
    # the reroll restriction looks at the placed colour only: colour 2 has a professor
    assert {"do": "reroll"} in legal
    state = roll(GAME.apply(state, 0, {"do": "reroll"})[0], 2)
    assert [a["space"] for a in GAME.legal_actions(state, 0) if a["do"] == "move"] == ["N2"]


def test_two_players_reroll_needs_the_placed_colour():
    frame = {"N0": pc(0, "P"), "N1": pc(2, "W")}
    state = mk(2, frame=frame, reserve={2: (1, 0, 0)})
    # colour 0's reserve is empty, so colour 2 must be placed
    assert {a["colour"] for a in GAME.legal_actions(state, 0)} == {2}
    state = roll(GAME.apply(state, 0, {"do": "place", "colour": 2, "rank": "W", "space": "E0"})[0], 4)
    assert {"do": "reroll"} not in GAME.legal_actions(state, 0)  # the professor is colour 0


def test_two_players_both_reserves_empty_either_colour_moves():
    state = mk(2, frame={"N0": pc(0, "W"), "N1": pc(2, "W"), "S0": pc(1, "W"), "S1": pc(1, "W")},
               seat=1, phase="roll")
    state, _ = move(roll(state, 1), "S0")
    assert state.seat == 0 and GAME.to_move(state) == [CHANCE]  # no placement step
    state = roll(state, 1)
    assert {a["colour"] for a in GAME.legal_actions(state, 0) if a["do"] == "move"} == {0, 2}


# --- stacking, securing, captures ------------------------------------------------------------


def test_landing_on_others_stacks_on_top():
    state = mk(4, frame={"N0": pc(0, "W")}, stacks={(1, 0): [pc(1, "A"), pc(2, "W")]}, phase="roll")
    state, events = move(roll(state, 2), "N0")
    assert state.stacks[sq(1, 0)] == (pc(1, "A"), pc(2, "W"), pc(0, "W"))
    assert state.owners[sq(1, 0)] == -1
    assert not [e for e in events if e["type"] == "captured"]


def test_second_piece_secures_and_captures_others_in_the_stack():
    stack = [pc(1, "P"), pc(0, "W"), pc(2, "A")]
    state = mk(4, frame={"W3": pc(0, "A"), "N5": pc(1, "W")}, stacks={(3, 2): stack}, phase="roll")
    state, events = move(roll(state, 3), "W3")
    assert state.owners[sq(3, 2)] == 0
    assert state.stacks[sq(3, 2)] == (pc(0, "W"), pc(0, "A"))  # own pieces keep their order
    assert sorted(state.prisoners[0]) == sorted([pc(1, "P"), pc(2, "A")])
    assert [e["type"] for e in events] == ["move", "secured", "captured", "turn"]
    assert GAME.result(state)["prisoner_points"][0] == 5


def test_later_arrival_on_secured_square_is_captured_by_its_owner():
    state = mk(4, frame={"S5": pc(2, "P"), "N3": pc(3, "W")}, stacks={(5, 5): [pc(1, "W"), pc(1, "A")]},
               owners={(5, 5): 1}, seat=2, phase="roll")
    state, events = move(roll(state, 1), "S5")
    assert state.stacks[sq(5, 5)] == (pc(1, "W"), pc(1, "A"))
    assert state.prisoners[1] == (pc(2, "P"),)
    capture = next(e for e in events if e["type"] == "captured")
    assert capture["by"] == 1 and capture["arrival"]
    assert state.seat == 3 and GAME.to_move(state) == [CHANCE]


def test_owner_may_add_a_third_piece():
    state = mk(4, frame={"S5": pc(1, "W")}, stacks={(5, 5): [pc(1, "W"), pc(1, "A")]},
               owners={(5, 5): 1}, seat=1, phase="roll")
    state, _ = move(roll(state, 1), "S5")
    assert state.stacks[sq(5, 5)] == (pc(1, "W"), pc(1, "A"), pc(1, "W"))
    assert state.prisoners == ((), (), (), ())


@pytest.mark.parametrize("answer", ["keep", "return"])
def test_two_players_own_colour_captured_by_securing_offers_keep_or_return(answer):
    stack = [pc(2, "A"), pc(0, "W"), pc(1, "W")]  # seat 0 owns colours 0 and 2
    state = mk(2, frame={"N4": pc(0, "P"), "S0": pc(1, "W")}, stacks={(0, 4): stack}, phase="roll")
    state, events = move(roll(state, 1), "N4")
    assert events[-1] == {"type": "own_capture", "seat": 0, "colour": 2, "rank": "A"}
    assert state.phase == "keep" and GAME.to_move(state) == [0]
    assert state.prisoners[0] == (pc(1, "W"),)  # the opponent's piece is a normal prisoner
    assert GAME.legal_actions(state, 0) == [
        {"do": "keep", "colour": 2, "rank": "A"},
        {"do": "return", "colour": 2, "rank": "A"},
    ]
    assert GAME.legal_actions(state, 1) == []
    assert GAME.view(state, None)["pending"] == {"colour": 2, "rank": "A"}
    state, _events = GAME.apply(state, 0, {"do": answer, "colour": 2, "rank": "A"})
    if answer == "keep":
        assert state.prisoners[0] == (pc(1, "W"), pc(2, "A"))
        assert state.reserve[2] == (0, 0, 0)
    else:
        assert state.prisoners[0] == (pc(1, "W"),)
        assert state.reserve[2] == (0, 1, 0)
    assert GAME.to_move(state) == [CHANCE] and state.seat == 1  # seat 1 had nothing to place


def test_two_players_landing_on_own_other_colour_secured_square_is_prisoner_without_choice():
    state = mk(2, frame={"N4": pc(2, "A"), "S0": pc(1, "W")},
               stacks={(0, 4): [pc(0, "W"), pc(0, "W")]}, owners={(0, 4): 0}, phase="roll")
    state, _ = move(roll(state, 1), "N4")
    assert state.phase != "keep"
    assert state.prisoners[0] == (pc(2, "A"),)
    assert state.stacks[sq(0, 4)] == (pc(0, "W"), pc(0, "W"))


def test_two_players_own_two_colours_do_not_secure():
    state = mk(2, frame={"N4": pc(2, "A"), "S0": pc(1, "W")}, stacks={(0, 4): [pc(0, "W")]}, phase="roll")
    state, _ = move(roll(state, 1), "N4")
    assert state.owners[sq(0, 4)] == -1 and state.stacks[sq(0, 4)] == (pc(0, "W"), pc(2, "A"))


# --- end of game -----------------------------------------------------------------------------


def test_game_ends_when_every_piece_has_entered():
    state = mk(3, frame={"N0": pc(0, "W"), "N1": pc(1, "W"), "N2": pc(2, "W")}, phase="roll")
    for seat in range(3):
        assert not GAME.is_over(state)
        state, events = move(roll(state, 6), f"N{seat}")
    assert GAME.is_over(state) and GAME.to_move(state) == []
    assert events[-1]["type"] == "game_over"
    assert all(GAME.legal_actions(state, s) == [] for s in (0, 1, 2, CHANCE))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, CHANCE, 1)
    assert err.value.reason is Reason.GAME_OVER


def test_player_with_nothing_left_is_skipped():
    # 2 players: seat 1 has nothing anywhere; seat 0 moves twice in a row
    state = mk(2, frame={"N0": pc(0, "W"), "N1": pc(2, "W")}, phase="roll")
    state, events = move(roll(state, 1), "N0")
    assert {"type": "skipped", "seat": 1} in events
    assert state.seat == 0 and GAME.to_move(state) == [CHANCE]
    state, events = move(roll(state, 1), "N1")
    assert GAME.is_over(state)


def test_views_are_public_json_and_equal_for_every_seat():
    state = GAME.setup(2, 9, {"layout": "random"})
    while state.phase == "setup":
        state = GAME.apply(state, state.seat, GAME.legal_actions(state, state.seat)[0])[0]
    public = GAME.view(state, None)
    json.dumps(public)
    assert GAME.view(state, 0) == public == GAME.view(state, 1) == GAME.observe(state, 1)
    assert public["layout"]["source"] == "random"
    import random

    assert GAME.resample_hidden(state, 0, random.Random(1)) is state
