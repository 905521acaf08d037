"""Sakkara's one data table: the 75 tiles (motif, count, colour, role) and the spell recipes.

The rulebook's counts and most recipes could not be recovered, so these rows are a decision of
the project (see shared/rules/sakkara.md, "Binding decisions"). A table owning the physical
game corrects a count or a recipe here, and nowhere else: the rules, the deal, the views, the
AIs and the tests all read these rows.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BOARD_SIDE",
    "DIRECTIONS",
    "LEVEL_OF",
    "LEVEL_SLOTS",
    "MOTIFS",
    "MOTIF_INDEX",
    "RACK_LIMIT",
    "SPACES",
    "SPELLS",
    "TILES",
    "TOTAL_TILES",
    "Spell",
    "Tile",
]


@dataclass(frozen=True)
class Tile:
    """One row of the tile table: a motif, how many the box holds, its colour and its role."""

    motif: str
    count: int
    colour: str
    role: str


@dataclass(frozen=True)
class Spell:
    """One spell: its name, its three ingredients and what it does."""

    name: str
    recipe: tuple[str, str, str]
    effect: str


TILES: tuple[Tile, ...] = (
    Tile("ship", 4, "green", "prerequisite: 1 displayed before building"),
    Tile("grain", 9, "green", "prerequisite: 1 / 2 / 3 displayed for levels 1 / 2 / 3"),
    Tile("apex", 5, "gold", "level 3 (placed with 2 helping hands); spell ingredient"),
    Tile("corner_stone", 9, "blue", "the 4 corners of level 1, each placed with 1 helping hand"),
    Tile("stairs", 7, "blue", "special: climb any height for one step; or 1 of the 2 stairs of level 1"),
    Tile("moon", 4, "blue", "plain level-1 glyph; spell ingredient"),
    Tile("circle", 4, "blue", "plain level-1 glyph; spell ingredient"),
    Tile("double_line", 4, "blue", "plain level-1 glyph; spell ingredient"),
    Tile("cross", 4, "red", "level-2 glyph; spell ingredient"),
    Tile("braid", 4, "red", "level-2 glyph; spell ingredient"),
    Tile("eye", 4, "red", "level-2 glyph; spell ingredient"),
    Tile("helping_hand", 9, "grey", "special: spent with each corner stone (1) and with the apex (2)"),
    Tile("snake", 2, "grey", "special: steal one tile of your choice from the opponent's revealed rack"),
    Tile("horse", 2, "grey", "special: after the step, 1-2 more steps in the same direction"),
    Tile("bird", 2, "grey", "special: put a worker that has not stepped on any space with tiles"),
    Tile("ox", 2, "grey", "special: push top tiles in front of a worker one space on, never uphill"),
)

SPELLS: tuple[Spell, ...] = (
    Spell("firestorm", ("apex", "cross", "braid"), "take the top tile of every other space of one line"),
    Spell("shipwreck", ("double_line", "circle", "moon"), "the opponent loses the displayed ship"),
    Spell("whirlwind", ("apex", "eye", "circle"), "take the top tile of the 8 spaces around a worker"),
    Spell("drought", ("eye", "double_line", "moon"), "the opponent loses one displayed grain"),
)

MOTIFS: tuple[str, ...] = tuple(t.motif for t in TILES)
MOTIF_INDEX: dict[str, int] = {m: i for i, m in enumerate(MOTIFS)}
TOTAL_TILES = sum(t.count for t in TILES)

# Which pyramid level each buildable motif belongs to, and how many of a slot group a level
# takes. Level 1's plain glyphs share 3 slots, level 2's red glyphs share 4 (repeats allowed).
LEVEL_OF: dict[str, int] = {
    "corner_stone": 1,
    "stairs": 1,
    "moon": 1,
    "circle": 1,
    "double_line": 1,
    "cross": 2,
    "braid": 2,
    "eye": 2,
    "apex": 3,
}
LEVEL_SLOTS: tuple[tuple[tuple[str, ...], int, int], ...] = (
    # (motifs sharing the slots, number of slots, helping hands spent with each tile)
    (("corner_stone",), 4, 1),
    (("stairs",), 2, 0),
    (("moon", "circle", "double_line"), 3, 0),
    (("cross", "braid", "eye"), 4, 0),
    (("apex",), 1, 2),
)

BOARD_SIDE = 7
SPACES = BOARD_SIDE * BOARD_SIDE
RACK_LIMIT = 10
DIRECTIONS: tuple[str, ...] = ("E", "N", "S", "W")

assert TOTAL_TILES == 75, "the binding table holds 75 tiles"
assert len(MOTIFS) == 16, "the binding table holds 16 motifs"
assert all(len(set(s.recipe)) == 3 for s in SPELLS), "a recipe names three different motifs"
