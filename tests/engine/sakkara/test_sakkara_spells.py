"""Sakkara spells: Firestorm, Whirlwind, Drought, Shipwreck; recipes come from the one table."""

from __future__ import annotations

from sakkara_kit import act, kinds, make, rack, sp

from engine.sakkara import GAME
from engine.sakkara.tiles import SPELLS

RECIPE = {s.name: s.recipe for s in SPELLS}
FIRE = {"apex": 1, "cross": 1, "braid": 1}
WHIRL = {"apex": 1, "eye": 1, "circle": 1}
WRECK = {"double_line": 1, "circle": 1, "moon": 1}
DROUGHT = {"eye": 1, "double_line": 1, "moon": 1}


def casts(state, spell):
    return [a for a in GAME.legal_actions(state, 0) if a["do"] == "cast" and a["spell"] == spell]


def test_recipes_are_the_binding_ones():
    assert set(RECIPE["firestorm"]) == {"apex", "cross", "braid"}
    assert set(RECIPE["shipwreck"]) == {"double_line", "circle", "moon"}
    assert set(RECIPE["whirlwind"]) == {"apex", "eye", "circle"}
    assert set(RECIPE["drought"]) == {"eye", "double_line", "moon"}


def test_firestorm_takes_top_tiles_of_one_line_except_under_workers():
    row = {
        sp(3, c): [m, "grain"] for c, m in enumerate(["ship", "ship", "bird", "moon", "ox", "snake", "horse"])
    }
    row[sp(3, 3)] = ["stairs"]  # the caster's own space
    row[sp(3, 5)] = []  # an empty space gives nothing
    board = {k: v for k, v in row.items()}
    board[sp(3, 6)] = ["horse", "grain"]
    s = make(board=board, workers=(sp(3, 3), sp(0, 0), sp(3, 1), sp(6, 6)), racks=(FIRE, {}))
    orders = {a["order"] for a in casts(s, "firestorm") if a["line"] == "row" and a["worker"] == 0}
    assert len(orders) == 6  # the caster chooses the order of the three tiles in the stack
    s2, ev = act(
        s, 0, {"do": "cast", "spell": "firestorm", "order": "braid,apex,cross", "worker": 0, "line": "row"}
    )
    # (3,0), (3,2), (3,4), (3,6) give their top grain; (3,1) has a worker, (3,5) is empty
    assert rack(s2, 0) == {"grain": 4}
    assert s2.board[sp(3, 1)] == ("ship", "grain") and s2.board[sp(3, 3)] == ("stairs",)
    assert s2.board[sp(3, 0)] == ("ship",)
    assert s2.pending == ("braid", "apex", "cross")
    assert sorted(sp_ for sp_, _ in ev[0]["took"]) == [sp(3, 0), sp(3, 2), sp(3, 4), sp(3, 6)]


def test_firestorm_column_and_needs_a_tile_to_take():
    col = {sp(r, 3): [] for r in range(7)}
    col[sp(5, 3)] = ["moon"]
    row = {sp(3, c): [] for c in range(7)}
    s = make(board={**col, **row}, workers=(sp(3, 3), sp(0, 0), sp(6, 0), sp(6, 6)), racks=(FIRE, {}))
    targets = {(a["worker"], a["line"]) for a in casts(s, "firestorm")}
    assert (0, "col") in targets and (0, "row") not in targets


def test_firestorm_needs_all_three_ingredients():
    s = make(racks=({"apex": 1, "cross": 1}, {}))
    assert "cast" not in kinds(s, 0)


def test_whirlwind_takes_the_eight_surrounding_tops():
    ring = {sp(r, c): ["corner_stone", "grain"] for r in (2, 3, 4) for c in (2, 3, 4)}
    ring[sp(3, 3)] = ["moon"]
    ring[sp(2, 2)] = []
    s = make(board=ring, workers=(sp(3, 3), sp(0, 0), sp(4, 4), sp(6, 6)), racks=(WHIRL, {}))
    s2, ev = act(s, 0, {"do": "cast", "spell": "whirlwind", "order": "apex,eye,circle", "worker": 0})
    assert rack(s2, 0) == {"grain": 6}  # 8 around, minus an empty one and the opponent's worker
    assert s2.board[sp(4, 4)] == ("corner_stone", "grain") and s2.board[sp(3, 3)] == ("moon",)
    assert s2.pending == ("apex", "eye", "circle")
    assert len(ev[0]["took"]) == 6


def test_drought_and_shipwreck_need_a_displayed_target():
    s = make(racks=({**WRECK, "eye": 1}, {}))
    assert "cast" not in kinds(s, 0)
    s = make(racks=({**WRECK, "eye": 1}, {}), ships=(0, 1), grains=(0, 2))
    assert {a["spell"] for a in GAME.legal_actions(s, 0) if a["do"] == "cast"} == {"shipwreck", "drought"}


def test_shipwreck_and_drought_stack_ship_above_grain_on_top():
    racks = ({"double_line": 2, "circle": 1, "moon": 2, "eye": 1}, {})
    s = make(racks=racks, ships=(0, 1), grains=(0, 2))
    s, _ = act(s, 0, {"do": "cast", "spell": "shipwreck", "order": "circle,double_line,moon"})
    assert s.ships == (0, 0) and s.destroyed == ("ship",)
    s, _ = act(s, 0, {"do": "cast", "spell": "drought", "order": "eye,moon,double_line"})
    assert s.grains == (0, 1) and s.destroyed == ("ship", "grain")
    s, _ = act(s, 0, {"do": "step", "worker": 0, "dir": "E"})
    s, _ = act(s, 0, {"do": "end"})
    assert s.phase == "return"
    # bottom to top: used in order, then the destroyed grain, the ship on top
    assert s.pending == ("circle", "double_line", "moon", "eye", "moon", "double_line", "grain", "ship")


def test_built_tiles_are_never_removed_and_a_wrecked_builder_is_frozen():
    pyr = {"corner_stone": 2}
    s = make(
        racks=({**WRECK}, {"corner_stone": 1, "helping_hand": 1}),
        ships=(0, 1),
        grains=(0, 1),
        pyramids=({}, pyr),
    )
    s, _ = act(s, 0, {"do": "cast", "spell": "shipwreck", "order": "circle,double_line,moon"})
    assert s.pyramids[1] == make(pyramids=({}, pyr)).pyramids[1]
    # seat 1 cannot build until it displays a ship again
    s1 = make(
        racks=({}, {"corner_stone": 1, "helping_hand": 1}),
        ships=(0, 0),
        grains=(0, 1),
        pyramids=({}, pyr),
        turn=1,
    )
    assert "build" not in kinds(s1, 1)
    s1 = make(
        racks=({}, {"corner_stone": 1, "helping_hand": 1, "ship": 1}),
        grains=(0, 1),
        pyramids=({}, pyr),
        turn=1,
    )
    s1, _ = act(s1, 1, {"do": "display", "motif": "ship"})
    assert "build" in kinds(s1, 1)
