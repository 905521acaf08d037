"""Sakkara turn end: rack limit, the opponent returns the used-tile stack, safety end, tie-break."""

from __future__ import annotations

from dataclasses import replace

from sakkara_kit import act, make, rack, sp

from engine.sakkara import GAME
from engine.sakkara.state import digest

W = (sp(0, 0), sp(0, 6), sp(6, 0), sp(6, 6))


def test_rack_limit_discards_exactly_the_excess_after_used_tiles():
    rk = {"grain": 5, "moon": 3, "eye": 3, "ox": 1}
    s = make(racks=(rk, {}), workers=W, board={sp(0, 1): ["cross"], sp(0, 5): ["circle"], sp(0, 4): []})
    s, _ = act(s, 0, {"do": "ox", "worker": 1, "dir": "W", "count": 1})
    s, _ = act(s, 0, {"do": "step", "worker": 0, "dir": "E"})
    s, _ = act(s, 0, {"do": "end"})
    assert s.phase == "discard" and GAME.to_move(s) == [0]
    assert GAME.legal_actions(s, 0) == [
        {"do": "discard", "motif": "cross"},
        {"do": "discard", "motif": "eye"},
        {"do": "discard", "motif": "grain"},
        {"do": "discard", "motif": "moon"},
    ]
    s, ev = act(s, 0, {"do": "discard", "motif": "grain"})
    assert ev[0]["motif"] == "grain" and s.phase == "discard"
    s, _ = act(s, 0, {"do": "discard", "motif": "eye"})
    assert sum(s.racks[0]) == 10 and s.phase == "return"
    assert s.pending == ("ox", "grain", "eye") and GAME.to_move(s) == [1]


def test_rack_of_ten_needs_no_discard():
    s = make(racks=({"grain": 6, "moon": 4}, {}), workers=W, board={sp(0, 1): []})
    s, _ = act(s, 0, {"do": "step", "worker": 0, "dir": "E"})
    s, _ = act(s, 0, {"do": "end"})
    assert s.phase == "before" and s.turn == 1 and rack(s, 0) == {"grain": 6, "moon": 4}


def returning(pending, board=None, workers=W):
    board = dict(board or {})
    return make(board=board, workers=workers, pending=tuple(pending), phase="return", stepped=0, step_dir="E")


def spaces(state, count=None):
    return {a["space"] for a in GAME.legal_actions(state, 1) if count is None or a["count"] == count}


def test_opponent_places_on_an_empty_space_not_next_to_its_own_workers():
    board = {sp(5, 0): [], sp(3, 3): [], sp(0, 1): []}
    s = returning(["ox", "bird"], board)
    assert GAME.to_move(s) == [1] and GAME.legal_actions(s, 0) == []
    # (5,0) touches seat 1's worker at (6,0); (0,1) touches only seat 0's worker, which is fine
    assert spaces(s) == {sp(3, 3), sp(0, 1)}
    s2, ev = act(s, 1, {"do": "return", "count": 2, "space": sp(3, 3)})
    assert s2.board[sp(3, 3)] == ("ox", "bird") and ev[0]["seat"] == 1
    assert s2.turn == 1 and s2.phase == "before" and s2.pending == ()


def test_without_an_eligible_empty_space_the_lowest_stack_takes_it():
    board = {sp(5, 0): [], sp(2, 2): ["moon"], sp(4, 4): ["circle"]}
    s = returning(["ox"], board, workers=W)
    # every other space holds at least 1 tile: the 1-high ones are the choice
    assert sp(5, 0) not in spaces(s)
    low = {
        x
        for x in range(49)
        if len(s.board[x]) == 1 and x not in W and x not in (sp(5, 0), sp(6, 1), sp(5, 6), sp(6, 5))
    }
    assert spaces(s) == low
    s2, _ = act(s, 1, {"do": "return", "count": 1, "space": sp(2, 2)})
    assert s2.board[sp(2, 2)] == ("moon", "ox")


def test_five_or_fewer_is_one_piece():
    s = returning(["ox", "bird", "snake", "horse", "stairs"], {sp(3, 3): []})
    assert {a["count"] for a in GAME.legal_actions(s, 1)} == {5}


def test_six_to_nine_may_be_split_into_pieces_of_at_least_three():
    s = returning(["ox", "bird", "snake", "horse", "stairs", "moon"], {sp(3, 3): [], sp(2, 2): []})
    assert {a["count"] for a in GAME.legal_actions(s, 1)} == {3, 6}
    s = returning(["ox"] * 2 + ["bird"] * 2 + ["snake"] * 2 + ["horse"] * 2, {sp(3, 3): []})
    assert {a["count"] for a in GAME.legal_actions(s, 1)} == {3, 4, 5, 8}


def test_ten_or_more_must_split_and_pieces_come_off_the_top_in_order():
    pend = ["ox", "ox", "bird", "bird", "snake", "snake", "horse", "horse", "stairs", "moon", "circle", "eye"]
    s = returning(pend, {sp(3, 3): [], sp(2, 2): [], sp(1, 3): []})
    assert {a["count"] for a in GAME.legal_actions(s, 1)} == {3, 4, 5, 6, 7, 8, 9}
    s, _ = act(s, 1, {"do": "return", "count": 9, "space": sp(3, 3)})
    assert s.board[sp(3, 3)] == tuple(pend[3:]) and s.pending == tuple(pend[:3])
    assert s.phase == "return" and {a["count"] for a in GAME.legal_actions(s, 1)} == {3}
    s, _ = act(s, 1, {"do": "return", "count": 3, "space": sp(2, 2)})
    assert s.board[sp(2, 2)] == ("ox", "ox", "bird") and s.phase == "before" and s.turn == 1


def test_safety_cap_ends_after_seat_ones_200th_turn_with_tie_break():
    s = make(
        workers=W,
        board={sp(6, 1): []},
        turn=1,
        turns=(200, 199),
        pyramids=({"corner_stone": 1}, {"stairs": 1}),
    )
    s = replace(s, ships=(0, 0), grains=(0, 0))
    s, _ = act(s, 1, {"do": "step", "worker": 0, "dir": "E"})
    s, _ = act(s, 1, {"do": "end"})
    assert GAME.is_over(s) and s.ended == "cap" and s.turns == (200, 200)
    assert GAME.result(s)["winners"] == [0, 1]  # equal tiles, equal grain: a draw
    assert GAME.result(replace(s, grains=(0, 1)))["winners"] == [1]


def test_tie_break_more_pyramid_tiles_first():
    s = make(
        workers=W, pyramids=({"corner_stone": 2}, {"stairs": 1}), grains=(0, 1), ended="cap", phase="over"
    )
    assert GAME.result(s) == {"scores": [2, 1], "winners": [0], "ended": "cap"}


def test_third_repetition_ends_the_game():
    s = make(workers=W, turn=1, phase="after", stepped=0, step_dir="E")
    end, _ = act(s, 1, {"do": "end"})
    key = end.history[-1]
    assert end.phase == "before" and end.turn == 0 and key == digest(end)
    second, _ = act(replace(s, history=(key,)), 1, {"do": "end"})
    assert not GAME.is_over(second)
    third, _ = act(replace(s, history=(key, 123, key)), 1, {"do": "end"})
    assert GAME.is_over(third) and third.ended == "repetition"


def test_the_cap_counts_a_turn_whose_step_was_skipped():
    tall = ["grain", "corner_stone", "helping_hand", "grain"]
    board = {sp(5, 0): tall, sp(6, 1): tall, sp(5, 6): tall, sp(6, 5): tall}
    s = make(workers=W, board=board, turn=1, turns=(200, 199))
    assert GAME.legal_actions(s, 1) == [{"do": "end"}]
    s, _ = act(s, 1, {"do": "end"})
    assert GAME.is_over(s) and s.ended == "cap" and s.turns == (200, 200)
