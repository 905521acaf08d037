"""Indus board layouts: the default layout of §9.3, the text format, validation and the generator."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.indus import GAME
from engine.indus.generator import generate_layout, layout_from_option
from engine.indus.layout import (
    DEFAULT_GRID,
    build_layout,
    default_layout,
    layout_to_text,
    parse_layout_text,
    validate_cells,
)

# §9.3 table: id -> (squares as (r, c), value or (first, second))
TABLE = {
    "B1": ([(0, 2), (1, 1), (1, 2)], (8, 4)),
    "B2": ([(0, 5), (1, 5)], (6, 3)),
    "B3": ([(3, 0)], (4, 2)),
    "B4": ([(3, 2), (4, 2), (5, 2)], (8, 4)),
    "B5": ([(3, 4), (4, 4)], (6, 3)),
    "T1": ([(0, 0), (0, 1), (0, 2), (1, 0)], 8),
    "T2": ([(0, 5)], 2),
    "T3": ([(3, 1), (3, 2)], 4),
    "T4": ([(4, 5), (5, 4), (5, 5)], 6),
    "T5": ([(5, 1)], 2),
    "C1": ([(r, 3) for r in range(6)], 6),
    "C2": ([(5, 0), (5, 1)], 2),
    "W1": ([(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)], 5),
    "W2": ([(1, 5), (2, 5), (3, 5), (4, 5)], 4),
    "R1": ([(2, 0), (2, 1), (2, 2), (2, 3), (2, 4)], 5),
    "R2": ([(4, 0), (4, 1), (4, 2), (5, 1)], 4),
    "P1": ([(0, 4), (1, 3), (1, 4)], 3),
    "P2": ([(3, 4), (4, 3), (4, 4), (5, 4)], 4),
}


def test_default_layout_matches_the_rules_table():
    lay = default_layout()
    got = {
        r.id: ([divmod(s, 6) for s in r.squares], (r.first, r.second) if r.kind == "B" else r.first)
        for r in lay.ruins
    }
    assert got == TABLE
    sizes = [len(c) for c in lay.cells]
    assert (sizes.count(1), sizes.count(2), sizes.count(3)) == (19, 15, 2)
    assert sum(r.first + r.second for r in lay.ruins) == 103
    assert lay.source == "default"
    assert build_layout(lay.cells).ruins == lay.ruins  # the shipped values equal the §9.4 formula


def test_text_round_trip_and_json_form():
    lay = default_layout()
    text = layout_to_text(lay)
    again = parse_layout_text(text)
    assert again.cells == lay.cells and again.ruins == lay.ruins
    as_json = json.dumps({"grid": DEFAULT_GRID, "values": {"b1": [10, 5], "T2": 3}})
    custom = parse_layout_text(as_json)
    vals = custom.values()
    assert vals["B1"] == [10, 5] and vals["T2"] == 3 and vals["C1"] == 6  # missing → formula


def test_letters_in_any_order_and_case_comments_and_value_lines():
    grid = DEFAULT_GRID.replace("WBT", "tbw").replace("CTR", "r c t")
    text = "# my real board\n" + grid + "B4 = 9/1  # printed\nC1 = 7\n"
    lay = parse_layout_text(text)
    assert lay.cells == default_layout().cells
    assert lay.values()["B4"] == [9, 1] and lay.values()["C1"] == 7


def test_layout_option_forms():
    state = GAME.setup(2, 5, {"layout": {"grid": DEFAULT_GRID, "values": {"P1": 11}}})
    assert state.layout.values()["P1"] == 11
    assert GAME.setup(2, 5, {"layout": DEFAULT_GRID}).layout.cells == default_layout().cells
    assert GAME.setup(2, 5).layout == default_layout()
    assert GAME.setup(2, 5, {"layout": "random"}).layout == generate_layout(5)


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ({"grid": "W,T\nB"}, "lines"),
        ({"grid": DEFAULT_GRID.replace("WT,WT,WBT", "WT,WT")}, "cells"),
        ({"grid": DEFAULT_GRID.replace("WBT", "WBX")}, "unknown ruin type"),
        ({"grid": DEFAULT_GRID.replace("WBT", "WBTC")}, "not 1–3"),
        ({"grid": DEFAULT_GRID.replace("CTR", "")}, "not 1–3"),
        ({"grid": DEFAULT_GRID.replace("WBT", "WWB")}, "repeats"),
        ({"grid": DEFAULT_GRID, "values": {"Z9": 3}}, "unknown ruins"),
        ({"grid": DEFAULT_GRID, "values": {"B1": 3}}, "first, second"),
        ({"grid": DEFAULT_GRID, "values": {"T1": -2}}, "non-negative"),
        ({"grid": DEFAULT_GRID, "colour": 1}, "unknown keys"),
        (42, "expected"),
        ("{not json", "JSON"),
    ],
)
def test_bad_layouts_raise_value_error(option, message):
    with pytest.raises(ValueError, match=message):
        GAME.setup(3, 1, {"layout": option})


def test_validation_step_6():
    base = list(default_layout().cells)
    no_canal = [c.replace("C", "") or "R" for c in base]
    with pytest.raises(ValueError, match="no canal"):
        validate_cells(tuple(no_canal))
    singles = tuple(c[0] for c in base)  # only 0 multi-type squares
    with pytest.raises(ValueError, match="2\\+ types"):
        validate_cells(singles)
    big = list(base)
    for r in range(6):  # a 12-square canal: column 3 plus column 4
        big[r * 6 + 4] = "".join(sorted(set(big[r * 6 + 4] + "C"), key="BTCWRP".index))[:3]
    with pytest.raises(ValueError, match="max 8"):
        build_layout(big)


def test_random_layout_is_seeded_and_varies():
    a, b = generate_layout(11), generate_layout(11)
    assert a == b and a.source == "random"
    assert len({generate_layout(s).cells for s in range(8)}) == 8


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**63))
def test_generator_always_yields_a_valid_layout(seed):
    lay = generate_layout(seed)
    assert lay.source == "random"  # the generator succeeded (no fallback to the default)
    validate_cells(lay.cells)  # §9.5 step 6
    assert all(1 <= len(c) <= 3 for c in lay.cells)
    assert all(len(r.squares) <= 8 for r in lay.ruins)
    # ruins of one type never touch: rebuilding from cells gives the same ruins
    assert build_layout(lay.cells).ruins == lay.ruins
    counts = {k: sum(r.kind == k for r in lay.ruins) for k in "BTCWRP"}
    assert 1 <= counts["C"] <= 2 and 1 <= counts["W"] <= 2 and counts["R"] == 2 and counts["P"] == 2
    assert 4 <= counts["B"] <= 6 and 3 <= counts["T"] <= 5


def test_layout_from_option_rejects_unknown_name():
    with pytest.raises(ValueError):
        layout_from_option("castle", 0)
