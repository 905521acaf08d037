"""Indus's seeded random layout (rules §9.5, option B) and the game option that picks a layout.

The generator lays a main canal, then walls on the outer ring, roads, paths, buildings and tombs
as walks and blobs, and keeps the first attempt that passes §9.5 step 6 (1–3 types a square,
every type used, 10–20 squares with several, no ruin over 8 squares) with separate ruins of one
type never merged. Its RNG is keyed by the game's seed with a salt of its
own, so the board never consumes or shifts the dice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from engine.core import MASK64, splitmix64

from .layout import (
    SIZE,
    TYPES,
    Layout,
    build_layout,
    default_layout,
    layout_from_mapping,
    neighbours,
    parse_layout_text,
    ruin_components,
    validate_cells,
)

__all__ = ["MAX_TRIES", "generate_layout", "layout_from_option"]

# Salt that separates the layout generator's RNG from the dice keys chance_key(seed, draws).
_LAYOUT_SALT = 0x1D05_1A70_0B0A_2D00
MAX_TRIES = 2000
"""Cap on the random generator's retries; past it the default layout is used (never seen)."""


def layout_from_option(option: object, seed: int) -> Layout:
    """Return the layout named by the game option ``layout`` (default, random or custom)."""
    if option is None or option == "default":
        return default_layout()
    if option == "random":
        return generate_layout(seed)
    if isinstance(option, dict):
        return layout_from_mapping(option)
    if isinstance(option, str):
        return parse_layout_text(option)
    raise ValueError(f"layout: expected 'default', 'random' or a layout, got {option!r}")


# --- the seeded random generator (§9.5 option B) -------------------------------------------


class _Attempt:
    """One try of the generator: the squares' type sets and how many ruins of each type."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.types: list[set[str]] = [set() for _ in range(SIZE * SIZE)]
        self.placed = dict.fromkeys(TYPES, 0)

    def free(self, sq: int, kind: str) -> bool:
        """Return True if a new ruin of ``kind`` may use ``sq`` (room, no touching same type)."""
        if len(self.types[sq]) >= 3 or kind in self.types[sq]:
            return False
        return all(kind not in self.types[nb] for nb in neighbours(sq))

    def add(self, squares: Iterable[int], kind: str) -> None:
        """Record one ruin of ``kind`` on ``squares``."""
        for sq in squares:
            self.types[sq].add(kind)
        self.placed[kind] += 1

    def pick_start(self, options: list[int]) -> int:
        """Return a start square, preferring uncovered squares (so every square gets a type)."""
        bare = [sq for sq in options if not self.types[sq]]
        return self.rng.choice(bare if bare and self.rng.random() < 0.85 else options)

    def grow(self, kind: str, length: int, allowed: set[int], path: bool) -> list[int] | None:
        """Return a walk (``path``) or a blob of ``length`` squares of ``kind`` within ``allowed``."""
        options = [sq for sq in allowed if self.free(sq, kind)]
        if not options:
            return None
        shape = [self.pick_start(sorted(options))]
        while len(shape) < length:
            heads = shape[-1:] if path else shape
            nxt = sorted(
                {nb for h in heads for nb in neighbours(h) if nb in allowed and nb not in shape and self.free(nb, kind)}
            )
            if not nxt:
                return None
            shape.append(self.pick_start(nxt))
        return shape


_ALL = set(range(SIZE * SIZE))
_RING = {sq for sq in _ALL if sq // SIZE in (0, SIZE - 1) or sq % SIZE in (0, SIZE - 1)}


def _main_canals() -> list[tuple[int, ...]]:
    """Return every edge-to-edge canal with at most one bend and 5–8 squares (§9.5 step 1)."""
    out: list[tuple[int, ...]] = []
    for i in range(SIZE):
        out.append(tuple(i * SIZE + c for c in range(SIZE)))
        out.append(tuple(r * SIZE + i for r in range(SIZE)))
    for r in range(1, SIZE - 1):
        for c in range(1, SIZE - 1):
            for cols in (range(0, c + 1), range(c, SIZE)):
                for rows in (range(0, r + 1), range(r, SIZE)):
                    sqs = {r * SIZE + cc for cc in cols} | {rr * SIZE + c for rr in rows}
                    if 5 <= len(sqs) <= 8:
                        out.append(tuple(sorted(sqs)))
    return out


_MAIN_CANALS = _main_canals()


def _try_generate(rng: random.Random) -> tuple[str, ...] | None:
    """Return the cells of one generator attempt, or None if it failed step 6."""
    at = _Attempt(rng)
    at.add(rng.choice(_MAIN_CANALS), "C")
    plan: list[tuple[str, int, set[int], bool]] = []
    if rng.random() < 0.5:
        plan.append(("C", rng.randint(2, 3), _ALL, True))
    plan += [("W", rng.randint(3, 6), _RING, True) for _ in range(rng.randint(1, 2))]
    plan += [("R", rng.randint(3, 5), _ALL, True) for _ in range(2)]
    plan += [("P", rng.randint(2, 4), _ALL, True) for _ in range(2)]
    plan += [("B", rng.randint(1, 4), _ALL, False) for _ in range(rng.randint(4, 6))]
    plan += [("T", rng.randint(1, 3), _ALL, False) for _ in range(rng.randint(3, 5))]
    for kind, length, allowed, path in plan:
        shape = at.grow(kind, length, allowed, path)
        if shape is None:
            return None
        at.add(shape, kind)
    cells = tuple("".join(t for t in TYPES if t in s) for s in at.types)
    try:
        validate_cells(cells)
    except ValueError:
        return None
    # Separate ruins of one type must not have merged into one (§9.5 step 6).
    if any(len(ruin_components(cells, kind)) != at.placed[kind] for kind in TYPES):
        return None
    return cells


def generate_layout(seed: int) -> Layout:
    """Return the random layout of game ``seed`` (§9.5 option B), valid by §9.5 step 6.

    Its RNG is keyed by the seed with a salt, so it never consumes or shifts the dice.
    """
    rng = random.Random(splitmix64((seed & MASK64) ^ _LAYOUT_SALT))
    for _ in range(MAX_TRIES):
        cells = _try_generate(rng)
        if cells is not None:
            return build_layout(cells, source="random")
    return default_layout()
