"""Sakkara's private rack picture: one seat's tiles (and a Snake's reveal of the opponent's), with
the spell recipes; for its owner's DM (sent beside the public board) or ephemeral reply only.

640 px wide and never taller than 480 (4:3), so Discord shows it 400 px wide: every word at 18 px and
every count at 23 px are 11 and 14 px on screen. A tile is its icon and colour (the board's), with
how many of it the rack holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.sakkara.tiles import MOTIFS, SPELLS
from pictures.canvas import COUNTED, NEEDED, Canvas
from pictures.lettering import player_names, tr, trn
from pictures.sakkara.motifs import BG, INK, tile_sprite

__all__ = ["RACK_WIDTH", "rack_canvas", "rack_image"]

MARGIN = 12
RACK_COLS = 6
RACK_TILE = 50
STEP = 102  # a tile, its count, a gap
RACK_W = 640
WORD = 18
COUNT = 23


def rack_image(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """Return a PNG of one seat's private rack (and a Snake's reveal of the opponent's rack)."""
    return rack_canvas(view, names).png()


def rack_canvas(view: dict[str, Any], names: Sequence[str] | None) -> Canvas:
    seats = player_names(names, 2)
    seat = view.get("seat", 0) if view.get("seat") in (0, 1) else 0
    rack: dict[str, int] = {m: n for m, n in (view.get("rack") or {}).items() if n}
    revealed: dict[str, int] | None = view.get("revealed_rack")
    sections: list[tuple[str, dict[str, int]]] = [(trn("boards.sakkara.your_rack", sum(rack.values()),
                                                       name=seats[seat]), rack)]
    if revealed is not None:
        sections.append((trn("boards.sakkara.revealed", sum(revealed.values()), name=seats[1 - seat]),
                         {m: n for m, n in revealed.items() if n}))
    row_h = RACK_TILE + 8
    heights = [34 + row_h * max(1, -(-len(tiles) // RACK_COLS)) for _, tiles in sections]
    spell_h = 30 + 32 * 2
    height = MARGIN + sum(heights) + spell_h + MARGIN
    c = Canvas(RACK_W, height, BG)
    y = MARGIN
    for (title, tiles), h in zip(sections, heights, strict=True):
        c.text(MARGIN, y + 13, c.fit(title, WORD, RACK_W - 2 * MARGIN), WORD, fill=INK, anchor="lm", bold=True,
               role=NEEDED)
        if not tiles:
            c.text(MARGIN, y + 30 + RACK_TILE / 2, tr("boards.sakkara.rack_empty"), WORD, fill="#7a6a4a", anchor="lm",
                   role=NEEDED)
        ordered = [m for m in MOTIFS if m in tiles] + sorted(m for m in tiles if m not in MOTIFS)
        for i, motif in enumerate(ordered):
            r, col = divmod(i, RACK_COLS)
            tx, ty = MARGIN + col * STEP, y + 30 + r * row_h
            c.paste(tile_sprite(motif, RACK_TILE, False), tx, ty)
            c.text(tx + RACK_TILE + 4, ty + RACK_TILE / 2 + 1, f"×{tiles[motif]}", COUNT, fill=INK, anchor="lm",
                   bold=True, role=COUNTED)
        y += h
    # the spell recipes: printed on the real board's border, handy next to one's own tiles
    c.text(MARGIN, y + 13, tr("boards.sakkara.spells"), WORD, fill=INK, anchor="lm", bold=True, role=NEEDED)
    half = (RACK_W - 2 * MARGIN) // 2
    for i, spell in enumerate(SPELLS):
        sx = MARGIN + (i % 2) * half
        sy = y + 30 + (i // 2) * 32
        c.text(sx, sy + 13, c.fit(tr(f"boards.sakkara.spell.{spell.name}"), WORD, half - 100), WORD, fill=INK,
               anchor="lm", role=NEEDED)
        for j, motif in enumerate(spell.recipe):
            c.paste(tile_sprite(motif, 26, False), sx + half - 96 + j * 29, sy)
    return c


RACK_WIDTH = RACK_W
"""Width of every rack image (its height grows with a long rack or a Snake's reveal)."""
