"""The worked example of the Finnish rules (seed 001): Stairs climb, Firestorm for six tiles,
Shipwreck from three of them, and the opponent placing the resulting 8-tile stack."""

from __future__ import annotations

from sakkara_kit import act, make, rack, sp

from engine.sakkara import GAME


def example_state():
    column = {
        sp(0, 1): ["double_line"],
        sp(1, 1): ["circle"],
        sp(2, 1): ["moon"],
        sp(4, 1): ["grain"],
        sp(5, 1): ["horse"],
        sp(6, 1): ["eye"],
    }
    board = {
        sp(3, 0): [],  # the worker's start: height 0
        sp(3, 1): ["corner_stone", "corner_stone", "corner_stone", "braid"],  # more than 2 higher
        **column,
    }
    return make(
        board=board,
        workers=(sp(3, 0), sp(0, 6), sp(5, 2), sp(6, 6)),
        racks=({"stairs": 1, "apex": 1, "cross": 1, "braid": 1}, {"moon": 1}),
        ships=(0, 1),
        grains=(0, 1),
    )


def test_the_seed_worked_example():
    s = example_state()
    # 1. the climb from height 0 to height 4 is only possible with the Stairs
    s, ev = act(s, 0, {"do": "step", "worker": 0, "dir": "E"})
    assert ev[0]["stairs"] and ev[0]["took"] == "braid"
    # 2. Firestorm with apex, cross and braid: the whole column minus the worker's space = 6 tiles
    fire = {"do": "cast", "spell": "firestorm", "order": "apex,cross,braid", "worker": 0, "line": "col"}
    assert fire in GAME.legal_actions(s, 0)
    s, ev = act(s, 0, fire)
    assert len(ev[0]["took"]) == 6
    assert rack(s, 0) == {
        "braid": 1,
        "double_line": 1,
        "circle": 1,
        "moon": 1,
        "grain": 1,
        "horse": 1,
        "eye": 1,
    }
    # 3. Shipwreck with double line, circle and moon from those six destroys the opponent's ship
    wreck = {"do": "cast", "spell": "shipwreck", "order": "moon,double_line,circle"}
    s, _ = act(s, 0, wreck)
    assert s.ships == (0, 0)
    s, _ = act(s, 0, {"do": "end"})
    # 4. the used-tile stack: stairs, then apex, cross, braid, then moon, double line, circle, ship
    assert s.phase == "return" and GAME.to_move(s) == [1]
    assert s.pending == ("stairs", "apex", "cross", "braid", "moon", "double_line", "circle", "ship")
    # 5. the opponent places the 8-tile stack on an empty space, not next to its own workers
    eight = {a["space"] for a in GAME.legal_actions(s, 1) if a["count"] == 8}
    # (5,1) is empty now but touches the opponent's worker on (5,2); (3,0) was left by the mover
    assert eight == {sp(0, 1), sp(1, 1), sp(2, 1), sp(4, 1), sp(6, 1), sp(3, 0)}
    assert {a["count"] for a in GAME.legal_actions(s, 1)} == {3, 4, 5, 8}  # 8 may be split
    s, ev = act(s, 1, {"do": "return", "count": 8, "space": sp(1, 1)})
    assert s.board[sp(1, 1)] == ("stairs", "apex", "cross", "braid", "moon", "double_line", "circle", "ship")
    assert s.phase == "before" and s.turn == 1
    assert GAME.view(s, None)["board"][sp(1, 1)] == {"height": 8, "top": "ship"}
