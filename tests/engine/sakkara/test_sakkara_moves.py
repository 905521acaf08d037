"""Sakkara movement and specials: the step, the climb limit, Stairs, Horse, Bird, Ox, Snake."""

from __future__ import annotations

import pytest
from sakkara_kit import act, kinds, make, rack, sp

from engine.core import IllegalAction
from engine.sakkara import GAME

C = sp(3, 3)  # the centre: seat 0's worker 0 stands here in most scenarios
WORKERS = (C, sp(0, 6), sp(6, 0), sp(6, 6))


def centre(**kw):
    board = {
        C: ["moon"],
        sp(3, 4): ["cross", "braid", "eye"],  # E: climb 3 - 1 = 2, allowed
        sp(2, 3): ["cross", "braid", "eye", "apex"],  # N: climb 3, needs Stairs
        sp(4, 3): [],  # S: empty, allowed, takes nothing
        sp(3, 2): ["grain"],  # W
    }
    board.update(kw.pop("board", {}))
    return make(board=board, workers=kw.pop("workers", WORKERS), **kw)


def step(w, d):
    return {"do": "step", "worker": w, "dir": d}


def test_step_takes_the_top_tile_and_opens_the_after_phase():
    s, ev = act(centre(), 0, step(0, "E"))
    assert s.workers[0] == sp(3, 4) and s.board[sp(3, 4)] == ("cross", "braid")
    assert rack(s, 0) == {"eye": 1}
    assert ev[0]["took"] == "eye" and not ev[0]["stairs"]
    assert s.phase == "after" and "step" not in kinds(s, 0) and "end" in kinds(s, 0)


def test_entering_an_empty_space_takes_nothing():
    s, ev = act(centre(), 0, step(0, "S"))
    assert s.workers[0] == sp(4, 3) and ev[0]["took"] is None and rack(s, 0) == {}


def test_climb_of_three_needs_stairs():
    assert step(0, "N") not in GAME.legal_actions(centre(), 0)
    with pytest.raises(IllegalAction):
        act(centre(), 0, step(0, "N"))
    s, ev = act(centre(racks=({"stairs": 2}, {})), 0, step(0, "N"))
    assert ev[0]["stairs"] and rack(s, 0) == {"stairs": 1, "apex": 1}
    assert s.pending == ("stairs",)


def test_stairs_are_spent_only_when_needed():
    s, ev = act(centre(racks=({"stairs": 1}, {})), 0, step(0, "E"))
    assert not ev[0]["stairs"] and rack(s, 0) == {"stairs": 1, "eye": 1} and s.pending == ()


def test_descending_is_unlimited_and_climb_counts_the_current_height():
    board = {C: ["ox", "ox", "bird", "bird", "snake"], sp(3, 4): [], sp(2, 3): ["moon"] * 4 + ["circle"] * 3}
    s = centre(board=board)
    legal = GAME.legal_actions(s, 0)
    assert step(0, "E") in legal  # 5 -> 0
    assert step(0, "N") in legal  # 5 -> 7: climb 2


def test_no_step_onto_a_worker_or_off_the_board():
    s = centre(workers=(C, sp(3, 4), sp(6, 0), sp(6, 6)))
    legal = GAME.legal_actions(s, 0)
    assert step(0, "E") not in legal and step(1, "W") not in legal
    corner = make(workers=(sp(0, 0), sp(0, 6), sp(6, 0), sp(6, 6)))
    dirs = {(a["worker"], a["dir"]) for a in GAME.legal_actions(corner, 0) if a["do"] == "step"}
    assert dirs == {(0, "E"), (0, "S"), (1, "W"), (1, "S")}


def test_end_before_the_step_only_when_no_step_is_legal():
    assert "end" not in kinds(centre(), 0)
    tall = ["grain", "corner_stone", "helping_hand", "grain"]
    board = {sp(0, 0): [], sp(0, 1): tall, sp(1, 0): tall, sp(0, 6): [], sp(0, 5): tall, sp(1, 6): tall}
    boxed = make(board=board, workers=(sp(0, 0), sp(0, 6), sp(6, 0), sp(6, 6)))
    assert "step" not in kinds(boxed, 0) and "end" in kinds(boxed, 0)
    s, _ = act(boxed, 0, {"do": "end"})
    assert s.turn == 1 and s.phase == "before"  # the step was skipped, nothing to return


# --- Horse ------------------------------------------------------------------------------


def horse_board(**kw):
    board = {
        sp(3, 0): ["moon"],
        sp(3, 1): ["circle"],
        sp(3, 2): ["cross"],
        sp(3, 3): ["braid"],
        sp(3, 4): ["eye"],
        sp(3, 5): ["apex"],
    }
    board.update(kw.pop("board", {}))
    return make(board=board, workers=kw.pop("workers", (sp(3, 0), sp(0, 6), sp(6, 0), sp(6, 6))), **kw)


def test_horse_continues_one_or_two_steps_same_direction_taking_tiles():
    s = horse_board(racks=({"horse": 1}, {}))
    assert "horse" not in kinds(s, 0)  # only after the step
    s, _ = act(s, 0, step(0, "E"))
    assert {"do": "horse", "steps": 1} in GAME.legal_actions(s, 0)
    s2, ev = act(s, 0, {"do": "horse", "steps": 2})
    assert s2.workers[0] == sp(3, 3)
    assert rack(s2, 0) == {"circle": 1, "cross": 1, "braid": 1}
    assert [m["took"] for m in ev[0]["moves"]] == ["cross", "braid"]
    assert s2.pending == ("horse",)
    assert "horse" not in kinds(s2, 0)


def test_horse_is_one_per_turn():
    s = horse_board(racks=({"horse": 2}, {}))
    s, _ = act(s, 0, step(0, "E"))
    s, _ = act(s, 0, {"do": "horse", "steps": 1})
    assert "horse" not in kinds(s, 0)


def test_horse_steps_obey_workers_edges_and_climb():
    blocked = horse_board(racks=({"horse": 1}, {}), workers=(sp(3, 0), sp(3, 3), sp(6, 0), sp(6, 6)))
    s, _ = act(blocked, 0, step(0, "E"))
    horses = [a for a in GAME.legal_actions(s, 0) if a["do"] == "horse"]
    assert horses == [{"do": "horse", "steps": 1}]  # (3,3) holds a worker
    tall = horse_board(racks=({"horse": 1}, {}), board={sp(3, 3): ["braid"] * 4})
    s, _ = act(tall, 0, step(0, "E"))
    # climb from (3,2) (now 0 high) to (3,3) (4 high) is 4 > 2 without Stairs
    assert [a["steps"] for a in GAME.legal_actions(s, 0) if a["do"] == "horse"] == [1]
    edge = make(racks=({"horse": 1}, {}), workers=(sp(0, 5), sp(3, 3), sp(6, 0), sp(6, 6)))
    s, _ = act(edge, 0, step(0, "E"))
    assert "horse" not in kinds(s, 0)


def test_horse_step_spends_stairs_and_may_use_a_stairs_just_taken():
    board = {sp(3, 2): ["stairs"], sp(3, 3): ["moon", "moon", "moon", "braid"]}
    s = horse_board(racks=({"horse": 1}, {}), board=board)
    s, _ = act(s, 0, step(0, "E"))
    assert {"do": "horse", "steps": 2} in GAME.legal_actions(s, 0)
    s, ev = act(s, 0, {"do": "horse", "steps": 2})
    assert [m["stairs"] for m in ev[0]["moves"]] == [False, True]
    assert s.pending == ("horse", "stairs") and rack(s, 0) == {"circle": 1, "braid": 1}


def test_no_horse_after_a_skipped_step():
    tall = ["grain", "corner_stone", "helping_hand", "grain"]
    board = {sp(0, 0): [], sp(0, 1): tall, sp(1, 0): tall, sp(0, 6): [], sp(0, 5): tall, sp(1, 6): tall}
    s = make(board=board, workers=(sp(0, 0), sp(0, 6), sp(6, 0), sp(6, 6)), racks=({"horse": 1}, {}))
    assert "horse" not in kinds(s, 0)


# --- Bird -------------------------------------------------------------------------------


def test_bird_before_the_step_leaves_the_other_worker_to_step():
    s = centre(racks=({"bird": 1}, {}), board={sp(5, 5): ["ship", "snake"]})
    s, ev = act(s, 0, {"do": "bird", "worker": 1, "space": sp(5, 5)})
    assert s.workers[1] == sp(5, 5) and rack(s, 0) == {"snake": 1} and ev[0]["took"] == "snake"
    assert s.pending == ("bird",)
    assert {a["worker"] for a in GAME.legal_actions(s, 0) if a["do"] == "step"} == {0}


def test_bird_after_the_step_moves_only_the_other_worker():
    s = centre(racks=({"bird": 1}, {}))
    s, _ = act(s, 0, step(0, "E"))
    birds = [a for a in GAME.legal_actions(s, 0) if a["do"] == "bird"]
    assert birds and {a["worker"] for a in birds} == {1}


def test_bird_needs_tiles_and_no_worker():
    s = centre(racks=({"bird": 1}, {}))
    targets = {a["space"] for a in GAME.legal_actions(s, 0) if a["do"] == "bird"}
    assert sp(4, 3) not in targets  # empty
    assert not targets & set(WORKERS)
    assert sp(3, 2) in targets


def test_two_birds_may_move_both_workers_then_the_step_is_skipped():
    s = centre(racks=({"bird": 2}, {}))
    s, _ = act(s, 0, {"do": "bird", "worker": 0, "space": sp(3, 2)})
    s, _ = act(s, 0, {"do": "bird", "worker": 1, "space": sp(3, 4)})
    assert "step" not in kinds(s, 0) and "end" in kinds(s, 0)


# --- Ox ---------------------------------------------------------------------------------


def ox_state(**kw):
    board = {sp(3, 4): ["moon", "circle", "cross", "braid"], sp(3, 5): ["eye"]}
    board.update(kw.pop("board", {}))
    return centre(board=board, racks=({"ox": 1}, {}), **kw)


def test_ox_pushes_top_tiles_in_order_never_uphill():
    s = ox_state()
    counts = sorted(a["count"] for a in GAME.legal_actions(s, 0) if a["do"] == "ox" and a["dir"] == "E")
    assert counts == [1, 2, 3]  # 1 + k <= 4: pushing 4 would leave the block above its source
    s2, ev = act(s, 0, {"do": "ox", "worker": 0, "dir": "E", "count": 2})
    assert ev[0]["top"] == "braid" and "cross" not in str(ev)  # the covered part stays hidden
    assert s2.board[sp(3, 4)] == ("moon", "circle") and s2.board[sp(3, 5)] == ("eye", "cross", "braid")
    assert s2.pending == ("ox",) and s2.workers[0] == C


def test_ox_onto_an_empty_space_may_push_the_whole_stack():
    s = ox_state(board={sp(3, 5): []})
    assert max(a["count"] for a in GAME.legal_actions(s, 0) if a["do"] == "ox" and a["dir"] == "E") == 4


def test_ox_needs_a_free_source_and_destination_on_the_board():
    s = ox_state(workers=(C, sp(3, 5), sp(6, 0), sp(6, 6)))
    assert not [
        a for a in GAME.legal_actions(s, 0) if a["do"] == "ox" and a["worker"] == 0 and a["dir"] == "E"
    ]
    s = ox_state(workers=(C, sp(3, 4), sp(6, 0), sp(6, 6)))
    assert not [
        a for a in GAME.legal_actions(s, 0) if a["do"] == "ox" and a["worker"] == 0 and a["dir"] == "E"
    ]
    edge = make(racks=({"ox": 1}, {}), workers=(sp(0, 5), sp(3, 3), sp(6, 0), sp(6, 6)))
    assert not [
        a for a in GAME.legal_actions(edge, 0) if a["do"] == "ox" and a["worker"] == 0 and a["dir"] == "E"
    ]


def test_ox_taller_destination_is_uphill():
    s = ox_state(board={sp(3, 4): ["moon"], sp(3, 5): ["eye", "eye"]})
    assert not [
        a for a in GAME.legal_actions(s, 0) if a["do"] == "ox" and a["worker"] == 0 and a["dir"] == "E"
    ]


# --- Snake ------------------------------------------------------------------------------


def test_snake_reveals_the_rack_to_the_caster_only_then_steals():
    s = centre(racks=({"snake": 1}, {"apex": 1, "ship": 2}))
    s, ev = act(s, 0, {"do": "snake"})
    reveal = [e for e in ev if e["type"] == "reveal"]
    assert reveal == [{"type": "reveal", "seat": 1, "rack": {"apex": 1, "ship": 2}, "private_to": [0]}]
    assert GAME.view(s, 0)["revealed_rack"] == {"apex": 1, "ship": 2}
    assert "revealed_rack" not in GAME.view(s, 1) and "revealed_rack" not in GAME.view(s, None)
    assert GAME.legal_actions(s, 0) == [{"do": "steal", "motif": "apex"}, {"do": "steal", "motif": "ship"}]
    s, ev = act(s, 0, {"do": "steal", "motif": "ship"})
    assert rack(s, 0) == {"ship": 1} and rack(s, 1) == {"apex": 1, "ship": 1}
    assert s.phase == "before" and s.pending == ("snake",)
    public = [e for e in ev if "private_to" not in e]
    assert public and all("motif" not in e for e in public)
    assert "revealed_rack" not in GAME.view(s, 0)


def test_snake_is_illegal_against_an_empty_rack():
    assert "snake" not in kinds(centre(racks=({"snake": 1}, {})), 0)


def test_snake_after_the_step_returns_to_the_after_phase():
    s = centre(racks=({"snake": 1}, {"moon": 1}))
    s, _ = act(s, 0, step(0, "E"))
    s, _ = act(s, 0, {"do": "snake"})
    s, _ = act(s, 0, {"do": "steal", "motif": "moon"})
    assert s.phase == "after"
