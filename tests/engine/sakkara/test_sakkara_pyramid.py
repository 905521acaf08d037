"""Sakkara building: display limits, prerequisites, helping hands, one level per turn, the apex."""

from __future__ import annotations

import pytest
from sakkara_kit import act, kinds, make, rack

from engine.core import IllegalAction
from engine.sakkara import GAME

LEVEL1 = {"corner_stone": 4, "stairs": 2, "moon": 1, "circle": 1, "double_line": 1}
LEVEL2 = {"cross": 2, "braid": 1, "eye": 1}


def builds(state, seat=0):
    return {a["motif"] for a in GAME.legal_actions(state, seat) if a["do"] == "build"}


def displays(state, seat=0):
    return {a["motif"] for a in GAME.legal_actions(state, seat) if a["do"] == "display"}


def test_ship_and_first_grain_in_either_order_and_limits():
    s = make(racks=({"ship": 2, "grain": 3}, {}))
    assert displays(s) == {"ship", "grain"}
    s, _ = act(s, 0, {"do": "display", "motif": "grain"})
    assert displays(s) == {"ship"}  # a second grain waits for a complete level 1
    s, _ = act(s, 0, {"do": "display", "motif": "ship"})
    assert displays(s) == set() and s.ships == (1, 0) and s.grains == (1, 0)
    assert rack(s, 0) == {"ship": 1, "grain": 2}


def test_grain_cap_follows_completed_levels():
    s = make(racks=({"grain": 3}, {}), ships=(1, 0), grains=(1, 0), pyramids=(LEVEL1, {}))
    s, _ = act(s, 0, {"do": "display", "motif": "grain"})
    assert displays(s) == set()
    s = make(racks=({"grain": 3}, {}), ships=(1, 0), grains=(3, 0), pyramids=({**LEVEL1, **LEVEL2}, {}))
    assert displays(s) == set()  # never more than 3 grain


def test_level_one_needs_ship_and_grain():
    rk = {"corner_stone": 1, "helping_hand": 1, "stairs": 1, "moon": 1}
    assert builds(make(racks=(rk, {}))) == set()
    assert builds(make(racks=(rk, {}), ships=(1, 0))) == set()
    assert builds(make(racks=(rk, {}), grains=(1, 0))) == set()
    assert builds(make(racks=(rk, {}), ships=(1, 0), grains=(1, 0))) == {"corner_stone", "stairs", "moon"}


def test_corner_stone_spends_a_helping_hand_stairs_and_glyphs_do_not():
    rk = {"corner_stone": 2, "helping_hand": 1, "stairs": 1, "circle": 1}
    s = make(racks=(rk, {}), ships=(1, 0), grains=(1, 0))
    s, ev = act(s, 0, {"do": "build", "motif": "corner_stone"})
    assert s.pending == ("helping_hand",) and ev[0]["level"] == 1
    assert "corner_stone" not in builds(s)  # no hand left
    s, _ = act(s, 0, {"do": "build", "motif": "stairs"})
    s, _ = act(s, 0, {"do": "build", "motif": "circle"})
    assert s.pending == ("helping_hand",)
    assert GAME.view(s, None)["pyramid_sizes"] == [3, 0]


def test_level_one_slot_counts():
    full = {"corner_stone": 4, "stairs": 2, "moon": 2, "circle": 1}
    rk = {"corner_stone": 1, "helping_hand": 1, "stairs": 1, "moon": 1, "double_line": 1, "cross": 1}
    s = make(racks=(rk, {}), ships=(1, 0), grains=(2, 0), pyramids=(full, {}))
    assert builds(s) == {"cross"}  # 4 corners, 2 stairs and 3 plain glyphs are all level 1 takes


def test_one_level_per_turn_and_the_next_level_waits_for_the_previous():
    almost = {"corner_stone": 4, "stairs": 2, "moon": 2}
    rk = {"circle": 1, "cross": 2, "grain": 1}
    s = make(racks=(rk, {}), ships=(1, 0), grains=(1, 0), pyramids=(almost, {}))
    assert builds(s) == {"circle"}  # red glyphs wait for level 1
    s, _ = act(s, 0, {"do": "build", "motif": "circle"})
    s, _ = act(s, 0, {"do": "display", "motif": "grain"})  # displaying is not building
    assert s.grains == (2, 0) and builds(s) == set()  # level 2 must wait for the next turn
    with pytest.raises(IllegalAction):
        act(s, 0, {"do": "build", "motif": "cross"})
    s, _ = act(s, 0, {"do": "step", "worker": 0, "dir": "E"})
    s, _ = act(s, 0, {"do": "end"})
    s, _ = act(s, 1, GAME.legal_actions(s, 1)[0]) if s.phase == "return" else (s, [])
    s, _ = act(s, 1, {"do": "step", "worker": 0, "dir": "N"})
    s, _ = act(s, 1, {"do": "end"})
    while s.phase == "return":
        s, _ = act(s, 0, GAME.legal_actions(s, 0)[0])
    assert s.turn == 0 and builds(s) == {"cross"}


def test_level_two_needs_two_grain():
    s = make(racks=({"eye": 1}, {}), ships=(1, 0), grains=(1, 0), pyramids=(LEVEL1, {}))
    assert builds(s) == set()
    s = make(racks=({"eye": 1}, {}), ships=(1, 0), grains=(2, 0), pyramids=(LEVEL1, {}))
    assert builds(s) == {"eye"}


def test_apex_needs_level_two_three_grain_two_hands_and_wins_at_once():
    both = {**LEVEL1, **LEVEL2}
    rk = {"apex": 1, "helping_hand": 1, "ox": 2}
    assert builds(make(racks=(rk, {}), ships=(1, 0), grains=(3, 0), pyramids=(both, {}))) == set()
    rk = {"apex": 1, "helping_hand": 2, "grain": 1, "snake": 2, "bird": 2, "horse": 2, "ox": 2, "stairs": 3}
    assert builds(make(racks=(rk, {}), ships=(1, 0), grains=(2, 0), pyramids=(both, {}))) == set()
    s = make(racks=(rk, {}), ships=(1, 0), grains=(2, 0), pyramids=(both, {}))
    s, _ = act(s, 0, {"do": "display", "motif": "grain"})
    s, _ = act(s, 0, {"do": "build", "motif": "apex"})
    assert GAME.is_over(s) and GAME.to_move(s) == [] and s.ended == "apex"
    assert sum(s.racks[0]) > 10  # no discard, no return: the game is over at once
    assert GAME.result(s) == {"scores": [14, 0], "winners": [0], "ended": "apex"}
    assert GAME.legal_actions(s, 0) == [] and GAME.legal_actions(s, 1) == []


def test_a_partly_built_level_freezes_without_the_prerequisites():
    part = {"corner_stone": 4, "stairs": 2, "moon": 3, "cross": 1}
    rk = {"eye": 1}
    assert builds(make(racks=(rk, {}), ships=(1, 0), grains=(1, 0), pyramids=(part, {}))) == set()
    assert builds(make(racks=(rk, {}), ships=(0, 0), grains=(2, 0), pyramids=(part, {}))) == set()
    assert builds(make(racks=(rk, {}), ships=(1, 0), grains=(2, 0), pyramids=(part, {}))) == {"eye"}


def test_building_only_in_ones_own_turn():
    s = make(racks=({}, {"moon": 1}), ships=(0, 1), grains=(0, 1))
    assert GAME.legal_actions(s, 1) == []
    assert "build" not in kinds(s, 0)
