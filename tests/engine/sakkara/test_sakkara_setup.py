"""Sakkara setup: players, options, the layout option, the random deal and worker placement."""

from __future__ import annotations

import pytest

from engine.core import CHANCE, IllegalAction, Reason, chance_key, pick_weighted, resolve_chance
from engine.sakkara import GAME
from engine.sakkara.rules import tiles_everywhere
from engine.sakkara.tiles import MOTIFS, TILES


def fixed_layout() -> list[list[str]]:
    """49 stacks: tiles in table order, bottoms row-major, the last 26 on spaces 0..25."""
    tiles = [t.motif for t in TILES for _ in range(t.count)]
    stacks = [[m] for m in tiles[:49]]
    for i, m in enumerate(tiles[49:]):
        stacks[i].append(m)
    stacks[0].reverse()  # ships are the first 4 bottoms: bring two of them on top
    stacks[1].reverse()
    return stacks


def test_table_is_75_tiles_of_16_motifs():
    assert sum(t.count for t in TILES) == 75
    assert len(MOTIFS) == 16 == len(set(MOTIFS))


@pytest.mark.parametrize("players", [1, 3, 4])
def test_only_two_players(players):
    with pytest.raises(ValueError, match="players"):
        GAME.setup(players, 1)


def test_unknown_option_is_named():
    with pytest.raises(ValueError, match="colour"):
        GAME.setup(2, 1, {"colour": "red"})


def test_layout_pins_the_deal_and_placement_starts():
    state = GAME.setup(2, 1, {"layout": fixed_layout()})
    assert GAME.to_move(state) == [0]
    assert state.phase == "place"
    assert [list(s) for s in state.board] == fixed_layout()


@pytest.mark.parametrize(
    "breakage",
    ["stack of three", "unknown motif", "missing tile", "empty space", "one ship on top", "48 stacks"],
)
def test_bad_layouts_are_value_errors(breakage):
    layout = fixed_layout()
    if breakage == "stack of three":
        layout[30].append(layout[40].pop())  # 30 has 1 tile, 40 has 1: 30 -> 2 and 40 -> 0
        layout[0].append(layout[30].pop())
    elif breakage == "unknown motif":
        layout[0][0] = "pyramid"
    elif breakage == "missing tile":
        layout[0].pop()
    elif breakage == "empty space":
        layout[30].append(layout[40].pop())
    elif breakage == "one ship on top":
        layout[0].reverse()
        assert sum(s[-1] == "ship" for s in layout) == 1
    elif breakage == "48 stacks":
        layout = layout[:48]
    with pytest.raises(ValueError, match="layout"):
        GAME.setup(2, 1, {"layout": layout})


def test_random_deal_follows_the_rules():
    for seed in range(30):
        state = GAME.setup(2, seed)
        assert GAME.to_move(state) == [CHANCE]
        outcome = resolve_chance(GAME, state)
        state, events = GAME.apply(state, CHANCE, outcome)
        assert state.draws == 1 and state.phase == "place"
        heights = sorted(len(s) for s in state.board)
        assert heights.count(2) == 26 and heights.count(1) == 23
        assert sum(s[-1] == "ship" for s in state.board) >= 2
        assert tiles_everywhere(state) == [t.count for t in TILES]
        # the deal event shows heights and tops only: covered tiles stay hidden
        assert set(events[0]["board"][0]) == {"height", "top"}


def test_chance_outcomes_list_the_seeded_deal_with_probability_one():
    state = GAME.setup(2, 7)
    outcomes = GAME.chance_outcomes(state)
    assert outcomes == [(GAME.sample_chance(state, chance_key(7, 0)), 1.0)]
    assert pick_weighted(outcomes, chance_key(7, 0)) == resolve_chance(GAME, state)
    assert GAME.chance_outcomes(GAME.apply(state, CHANCE, outcomes[0][0])[0]) == []


def test_a_bad_chance_outcome_is_refused():
    state = GAME.setup(2, 7)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, CHANCE, [["ship"]] * 49)
    assert err.value.reason is Reason.ILLEGAL_MOVE
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"do": "place", "space": 0})
    assert err.value.reason is Reason.CHANCE_DUE


def test_workers_are_placed_0_1_0_1_taking_top_tiles():
    state = GAME.setup(2, 1, {"layout": fixed_layout()})
    order = []
    for space in (0, 10, 30, 48):
        seat = GAME.to_move(state)[0]
        order.append(seat)
        top = state.board[space][-1]
        state, events = GAME.apply(state, seat, {"do": "place", "space": space})
        assert events[0]["took"] == top
        assert state.racks[seat][MOTIFS.index(top)] >= 1
    assert order == [0, 1, 0, 1]
    assert state.workers == (0, 30, 10, 48)
    assert state.phase == "before" and GAME.to_move(state) == [0]
    assert sum(state.racks[0]) == 2 and sum(state.racks[1]) == 2


def test_an_occupied_space_cannot_take_a_second_worker():
    state = GAME.setup(2, 1, {"layout": fixed_layout()})
    state, _ = GAME.apply(state, 0, {"do": "place", "space": 5})
    assert {"do": "place", "space": 5} not in GAME.legal_actions(state, 1)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, {"do": "place", "space": 5})
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"do": "place", "space": 6})
    assert err.value.reason is Reason.NOT_YOUR_TURN
