"""Sakkara's private rack picture: one seat's tiles (and a Snake's reveal of the opponent's), with
the spell recipes; for its owner's DM or ephemeral reply only (the board module puts it under the
public board in :func:`pictures.sakkara.board.private_image`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.sakkara.tiles import MOTIFS, SPELLS
from pictures.canvas import Canvas
from pictures.lettering import player_names, tr, trn
from pictures.sakkara.motifs import BG, INK, tile_sprite

__all__ = ["RACK_WIDTH", "rack_canvas", "rack_image"]

MARGIN = 12  # as the board's: the private picture puts the rack flush under the board
RACK_COLS = 8
RACK_TILE = 62
RACK_W = 2 * MARGIN + RACK_COLS * (RACK_TILE + 30) + 8


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
    row_h = RACK_TILE + 16
    heights = [34 + row_h * max(1, -(-len(tiles) // RACK_COLS)) for _, tiles in sections]
    spell_h = 30 + 24 * 2
    height = MARGIN + sum(heights) + spell_h + MARGIN
    c = Canvas(RACK_W, height, BG)
    y = MARGIN
    for (title, tiles), h in zip(sections, heights, strict=True):
        c.text(MARGIN, y + 14, title, 18, fill=INK, anchor="lm", bold=True)
        if not tiles:
            c.text(MARGIN, y + 34 + RACK_TILE / 2, tr("boards.sakkara.rack_empty"), 15, fill="#7a6a4a", anchor="lm")
        ordered = [m for m in MOTIFS if m in tiles] + sorted(m for m in tiles if m not in MOTIFS)
        for i, motif in enumerate(ordered):
            r, col = divmod(i, RACK_COLS)
            tx, ty = MARGIN + col * (RACK_TILE + 30), y + 34 + r * row_h
            c.paste(tile_sprite(motif, RACK_TILE), tx, ty)
            c.text(tx + RACK_TILE + 3, ty + RACK_TILE - 2, f"x{tiles[motif]}", 17, fill=INK, anchor="ls", bold=True)
        y += h
    # the spell recipes: printed on the real board's border, handy next to one's own tiles
    c.text(MARGIN, y + 14, tr("boards.sakkara.spells"), 15, fill=INK, anchor="lm", bold=True)
    for i, spell in enumerate(SPELLS):
        sx = MARGIN + (i % 2) * (RACK_W // 2)
        sy = y + 30 + (i // 2) * 24
        c.text(sx, sy + 10, tr(f"boards.sakkara.spell.{spell.name}"), 14, fill=INK, anchor="lm")
        for j, motif in enumerate(spell.recipe):
            c.paste(tile_sprite(motif, 21, False), sx + 96 + j * 24, sy)
    return c


RACK_WIDTH = RACK_W
"""Width of every rack image (its height grows with a long rack or a Snake's reveal)."""
