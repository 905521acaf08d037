"""Indus board layouts: the 6×6 dig as data, its ruins and their find values.

A layout is 36 squares, each showing 1–3 ruin types, plus the value of every ruin. The printed
tiles of the physical game could not be recovered, so the default layout (rules §9.3), the value
formula (§9.4) and the random generator (§9.5, option B, in :mod:`.generator`) are this project's own; a table owning
the game can enter its real board in the text format parsed by :func:`parse_layout_text`.

Ruin types (letters in a cell may come in any order and case): ``B`` building, ``T`` tomb,
``C`` canal, ``W`` city wall, ``R`` stone road, ``P`` wooden path. A ruin is a maximal
orthogonally connected set of squares sharing a type (§9.2); ruins are numbered per type in
row-major order of their first square (``B1``…, ``T1``…, ``C1``…, ``W1``…, ``R1``…, ``P1``…).
A building has a first and a second value; every other ruin has one value (``second`` is 0).

Squares are numbered 0–35 row-major: square ``6 * row + col``, (0, 0) top-left.
Nothing here is hidden information; a layout is public from the start.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

__all__ = [
    "DEFAULT_GRID",
    "DEFAULT_LAYOUT_TEXT",
    "SIZE",
    "TYPES",
    "TYPE_NAMES",
    "Layout",
    "Ruin",
    "build_layout",
    "default_layout",
    "formula_values",
    "layout_to_text",
    "neighbours",
    "parse_layout_text",
    "ruin_components",
    "validate_cells",
]

SIZE = 6
"""The dig is SIZE × SIZE squares."""

TYPES = "BTCWRP"
"""Ruin type letters in their canonical order (also the order ruin ids are listed in)."""

TYPE_NAMES = {
    "B": "building",
    "T": "tomb",
    "C": "canal",
    "W": "city wall",
    "R": "stone road",
    "P": "wooden path",
}

MAX_RUIN_SIZE = 8
MIN_MULTI, MAX_MULTI = 10, 20
"""Validation (§9.5 step 6): between 10 and 20 squares show two or more ruin types."""

DEFAULT_GRID = """\
WT,WT,WBT,C,P,BT
WT,B,B,CP,P,BW
RW,R,R,CR,R,W
B,T,BT,C,PB,W
R,R,RB,CP,PB,WT
C,CTR,B,C,PT,T
"""
"""The default grid of §9.3 (rows r0..r5, cells c0..c5)."""

DEFAULT_LAYOUT_TEXT = (
    "# Indus default layout (rules §9.3): this project's own board, not a printed tile.\n"
    + DEFAULT_GRID
    + """\
# find values (§9.3 table; they equal the §9.4 formula)
B1 = 8/4
B2 = 6/3
B3 = 4/2
B4 = 8/4
B5 = 6/3
T1 = 8
T2 = 2
T3 = 4
T4 = 6
T5 = 2
C1 = 6
C2 = 2
W1 = 5
W2 = 4
R1 = 5
R2 = 4
P1 = 3
P2 = 4
"""
)
"""The default layout as data, in the same text format a table uses to enter its own board."""



@dataclass(frozen=True)
class Ruin:
    """One ruin: its id (``B1``…), type letter, squares (sorted) and values."""

    id: str
    kind: str
    squares: tuple[int, ...]
    first: int
    second: int = 0


@dataclass(frozen=True)
class Layout:
    """A complete board: each square's type letters (canonical order) and the ruins."""

    cells: tuple[str, ...]
    ruins: tuple[Ruin, ...]
    source: str = "custom"

    def values(self) -> dict[str, Any]:
        """Return every ruin's value(s): ``[first, second]`` for buildings, an int otherwise."""
        return {r.id: ([r.first, r.second] if r.kind == "B" else r.first) for r in self.ruins}

    def ruins_at(self, square: int) -> tuple[Ruin, ...]:
        """Return the ruins that include ``square``."""
        return tuple(r for r in self.ruins if square in r.squares)


def neighbours(square: int) -> list[int]:
    """Return the orthogonal neighbours of a square inside the grid."""
    row, col = divmod(square, SIZE)
    out = []
    if row > 0:
        out.append(square - SIZE)
    if row < SIZE - 1:
        out.append(square + SIZE)
    if col > 0:
        out.append(square - 1)
    if col < SIZE - 1:
        out.append(square + 1)
    return out


def _canonical(cell: str) -> str:
    """Return a cell's letters in canonical order; raise ValueError on a bad letter."""
    letters = [ch for ch in cell.upper() if not ch.isspace()]
    for ch in letters:
        if ch not in TYPES:
            raise ValueError(f"layout: unknown ruin type {ch!r} in cell {cell!r}")
    if len(set(letters)) != len(letters):
        raise ValueError(f"layout: a ruin type repeats in cell {cell!r}")
    return "".join(t for t in TYPES if t in letters)


def ruin_components(cells: tuple[str, ...], kind: str) -> list[tuple[int, ...]]:
    """Return the connected components of one type, in row-major order of their first square."""
    seen: set[int] = set()
    comps: list[tuple[int, ...]] = []
    for sq in range(SIZE * SIZE):
        if kind not in cells[sq] or sq in seen:
            continue
        todo, comp = [sq], {sq}
        seen.add(sq)
        while todo:
            cur = todo.pop()
            for nb in neighbours(cur):
                if nb not in seen and kind in cells[nb]:
                    seen.add(nb)
                    comp.add(nb)
                    todo.append(nb)
        comps.append(tuple(sorted(comp)))
    return comps


def formula_values(kind: str, size: int) -> tuple[int, int]:
    """Return (first, second) of a ruin by the §9.4 formula, clamped to the finds' range 1..12."""

    def clamp(v: int) -> int:
        return max(1, min(12, v))

    if kind == "B":
        return clamp(2 * size + 2), clamp(size + 1)
    if kind == "T":
        return clamp(2 * size), 0
    return clamp(size), 0


def validate_cells(cells: tuple[str, ...]) -> None:
    """Check §9.5 step 6 (square types, every type used, 10–20 multi squares, size ≤ 8)."""
    if len(cells) != SIZE * SIZE:
        raise ValueError(f"layout: needs {SIZE * SIZE} squares, got {len(cells)}")
    for sq, cell in enumerate(cells):
        if not 1 <= len(cell) <= 3:
            raise ValueError(f"layout: square {divmod(sq, SIZE)} shows {len(cell)} ruin types, not 1–3")
    for kind in TYPES:
        if not any(kind in cell for cell in cells):
            raise ValueError(f"layout: no {TYPE_NAMES[kind]} anywhere")
    multi = sum(1 for cell in cells if len(cell) >= 2)
    if not MIN_MULTI <= multi <= MAX_MULTI:
        raise ValueError(f"layout: {multi} squares show 2+ types, not {MIN_MULTI}–{MAX_MULTI}")
    for kind in TYPES:
        for comp in ruin_components(cells, kind):
            if len(comp) > MAX_RUIN_SIZE:
                raise ValueError(f"layout: a {TYPE_NAMES[kind]} of {len(comp)} squares (max 8)")


def _check_value(rid: str, value: object) -> int:
    """Return a ruin value if it is a non-negative int; raise ValueError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"layout: value of {rid} must be a non-negative integer, got {value!r}")
    return value


def build_layout(
    cells: Iterable[str], values: Mapping[str, Any] | None = None, source: str = "custom"
) -> Layout:
    """Return a validated layout from 36 cells and optional values (missing ones by §9.4)."""
    canon = tuple(_canonical(c) for c in cells)
    validate_cells(canon)
    given = dict(values or {})
    ruins: list[Ruin] = []
    for kind in TYPES:
        for i, comp in enumerate(ruin_components(canon, kind), start=1):
            rid = f"{kind}{i}"
            first, second = formula_values(kind, len(comp))
            if rid in given:
                raw = given.pop(rid)
                if kind == "B":
                    if not isinstance(raw, list | tuple) or len(raw) != 2:
                        raise ValueError(f"layout: building {rid} needs [first, second], got {raw!r}")
                    first, second = _check_value(rid, raw[0]), _check_value(rid, raw[1])
                else:
                    first = _check_value(rid, raw)
            ruins.append(Ruin(rid, kind, comp, first, second))
    if given:
        raise ValueError(f"layout: values for unknown ruins {sorted(given)}")
    return Layout(canon, tuple(ruins), source)


def _grid_cells(grid: str) -> list[str]:
    """Return the 36 cells of a grid text (6 lines of 6 comma-separated cells)."""
    lines = [ln.strip() for ln in grid.strip().splitlines() if ln.strip()]
    if len(lines) != SIZE:
        raise ValueError(f"layout: grid needs {SIZE} lines, got {len(lines)}")
    cells: list[str] = []
    for n, line in enumerate(lines):
        row = line.split(",")
        if len(row) != SIZE:
            raise ValueError(f"layout: grid line {n + 1} needs {SIZE} cells, got {len(row)}")
        cells.extend(row)
    return cells


def parse_layout_text(text: str) -> Layout:
    """Return the layout described by a text: JSON ``{"grid", "values"}`` or grid lines + values.

    The plain form is 6 grid lines (``WT,WT,WBT,C,P,BT``), then optional value lines such as
    ``B1 = 8/4`` or ``T1 = 8``; ``#`` starts a comment. This is the file a table owning the
    physical game writes to enter its real board.
    """
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise ValueError(f"layout: not valid JSON ({exc.msg})") from None
        return layout_from_mapping(data)
    grid_lines: list[str] = []
    values: dict[str, Any] = {}
    for raw in stripped.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" in line:
            rid, _, val = (part.strip() for part in line.partition("="))
            try:
                if "/" in val:
                    a, b = val.split("/")
                    values[rid.upper()] = [int(a), int(b)]
                else:
                    values[rid.upper()] = int(val)
            except ValueError:
                raise ValueError(f"layout: bad value line {line!r}") from None
        else:
            grid_lines.append(line)
    return build_layout(_grid_cells("\n".join(grid_lines)), values)


def layout_from_mapping(data: object) -> Layout:
    """Return the layout of ``{"grid": "<6 lines>", "values": {...}}`` (values optional)."""
    if not isinstance(data, dict) or not isinstance(data.get("grid"), str):
        raise ValueError('layout: expected {"grid": "<6 lines of 6 cells>", "values": {...}}')
    extra = set(data) - {"grid", "values"}
    if extra:
        raise ValueError(f"layout: unknown keys {sorted(extra)}")
    values = data.get("values", {})
    if not isinstance(values, dict):
        raise ValueError("layout: values must be an object")
    return build_layout(_grid_cells(data["grid"]), {str(k).upper(): v for k, v in values.items()})


def layout_to_text(layout: Layout) -> str:
    """Return the plain text form of a layout (parse_layout_text reads it back)."""
    lines = [",".join(layout.cells[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
    for ruin in layout.ruins:
        val = f"{ruin.first}/{ruin.second}" if ruin.kind == "B" else str(ruin.first)
        lines.append(f"{ruin.id} = {val}")
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def default_layout() -> Layout:
    """Return the default layout of §9.3 with its values."""
    return replace(parse_layout_text(DEFAULT_LAYOUT_TEXT), source="default")
