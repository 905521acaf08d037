"""Sakkara's 16 tile motifs as small vector icons, plus the tile faces they sit on.

Each icon is drawn in a square of side ``s`` centred on (cx, cy) with plain shapes, so it stays
crisp at any size. The tile colour comes from the engine's tile table (green, gold, blue, red,
grey); the icon and its name under it tell motifs apart without relying on colour.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image

from engine.sakkara.tiles import TILES
from pictures.canvas import Canvas, Colour, text_width
from pictures.lettering import tr

__all__ = ["BG", "FACE", "INK", "MOTIF_COLOUR", "draw_motif", "draw_tile", "motif_word", "tile_sprite"]

BG = "#f6f0e1"
"""The background of every Sakkara picture."""
INK = "#1e2430"
FACE: dict[str, str] = {
    "green": "#a9d98f",
    "gold": "#f4d25e",
    "blue": "#9dc3ef",
    "red": "#f0a090",
    "grey": "#d2d2d2",
}
EDGE: dict[str, str] = {
    "green": "#4f8a3a",
    "gold": "#a07a12",
    "blue": "#3c6fa8",
    "red": "#a8473a",
    "grey": "#7a7a7a",
}
MOTIF_COLOUR: dict[str, str] = {t.motif: t.colour for t in TILES}
def motif_word(motif: str) -> str:
    """Return the word printed under a motif's icon: its name in the catalogue, the very name the
    text (menus, log, prompts) uses, so the picture and the text never name a tile differently."""
    return tr(f"sakkara.m.{motif}")


def draw_tile(c: Canvas, motif: str, x0: float, y0: float, side: float, word: str | None = None) -> None:
    """Draw one tile face (colour of its motif, icon, optional word) with top-left (x0, y0)."""
    colour = MOTIF_COLOUR.get(motif, "grey")
    face = FACE[colour]
    c.rect(x0, y0, x0 + side, y0 + side, fill=face, outline=EDGE[colour], width=max(1.0, side / 40), radius=side / 9)
    if word and side >= 44:
        size = max(10, round(side * 0.19))
        while size > 8 and text_width(word, size) > side * 0.94:  # a longer name (another language)
            size -= 1
        draw_motif(c, motif, x0 + side / 2, y0 + side * 0.42, side * 0.56, face)
        c.text(x0 + side / 2, y0 + side - side * 0.07, c.fit(word, size, side * 0.96), size, fill=INK, anchor="ms")
    else:
        draw_motif(c, motif, x0 + side / 2, y0 + side / 2, side * 0.72, face)


def draw_motif(c: Canvas, motif: str, cx: float, cy: float, s: float, face: Colour, ink: Colour = INK) -> None:
    """Draw the icon of ``motif`` in a square of side ``s`` centred on (cx, cy)."""

    def p(x: float, y: float) -> tuple[float, float]:
        return (cx + x * s, cy + y * s)

    def poly(points: list[tuple[float, float]], fill: Colour = ink) -> None:
        c.polygon([p(x, y) for x, y in points], fill=fill)

    lw = max(1.0, s * 0.09)
    if motif == "ship":
        poly([(-0.48, 0.12), (0.48, 0.12), (0.32, 0.36), (-0.32, 0.36)])
        c.line([p(0, 0.12), p(0, -0.46)], ink, lw * 0.7)
        poly([(0.05, -0.42), (0.05, 0.05), (0.38, 0.05)])
        poly([(-0.05, -0.3), (-0.05, 0.05), (-0.3, 0.05)])
    elif motif == "grain":
        c.line([p(0, 0.48), p(0, -0.3)], ink, lw * 0.7)
        for i in range(4):
            y = -0.28 + i * 0.16
            c.ellipse(*p(-0.22, y - 0.07), *p(-0.03, y + 0.07), fill=ink)
            c.ellipse(*p(0.03, y - 0.07), *p(0.22, y + 0.07), fill=ink)
        c.ellipse(*p(-0.07, -0.48), *p(0.07, -0.26), fill=ink)
    elif motif == "apex":
        poly([(0, -0.44), (0.48, 0.38), (-0.48, 0.38)])
        poly([(0, -0.44), (0.48, 0.38), (0.1, 0.38)], fill="#8a6508")
    elif motif == "corner_stone":
        c.rect(*p(-0.34, -0.3), *p(0.34, 0.2), outline=ink, width=lw)
        c.rect(*p(-0.46, 0.18), *p(0.46, 0.42), fill=ink)
        c.line([p(-0.34, -0.05), p(0.34, -0.05)], ink, lw * 0.6)
    elif motif == "stairs":
        poly([(-0.44, 0.42), (-0.44, 0.16), (-0.16, 0.16), (-0.16, -0.12), (0.12, -0.12), (0.12, -0.4),
              (0.44, -0.4), (0.44, 0.42)])
    elif motif == "moon":
        c.circle(cx, cy, s * 0.4, fill=ink)
        c.circle(cx + s * 0.18, cy - s * 0.1, s * 0.34, fill=face)
    elif motif == "circle":
        c.circle(cx, cy, s * 0.34, outline=ink, width=lw * 1.3)
    elif motif == "double_line":
        for y in (-0.14, 0.14):
            c.rect(*p(-0.42, y - 0.06), *p(0.42, y + 0.06), fill=ink)
    elif motif == "cross":
        c.rect(*p(-0.08, -0.44), *p(0.08, 0.44), fill=ink)
        c.rect(*p(-0.36, -0.2), *p(0.36, -0.04), fill=ink)
    elif motif == "braid":
        for phase in (0.0, math.pi):
            pts = [p(0.2 * math.sin(phase + t * math.pi * 2.2), -0.44 + t * 0.88) for t in
                   (i / 16 for i in range(17))]
            c.line(pts, ink, lw)
    elif motif == "eye":
        upper = [p(-0.46 + 0.92 * t, -0.28 * math.sin(math.pi * t)) for t in (i / 12 for i in range(13))]
        lower = [p(0.46 - 0.92 * t, 0.26 * math.sin(math.pi * t)) for t in (i / 12 for i in range(13))]
        c.polygon(upper + lower, outline=ink, width=lw)
        c.circle(cx, cy, s * 0.13, fill=ink)
    elif motif == "helping_hand":
        c.rect(*p(-0.26, -0.04), *p(0.24, 0.44), fill=ink, radius=s * 0.08)
        for i, top in enumerate((-0.3, -0.42, -0.38, -0.26)):
            x = -0.26 + i * 0.125
            c.rect(*p(x + 0.01, top), *p(x + 0.105, 0.05), fill=ink, radius=s * 0.04)
        poly([(-0.26, 0.26), (-0.46, 0.02), (-0.38, -0.04), (-0.2, 0.1)])
    elif motif == "snake":
        pts = [p(-0.44 + 0.78 * t, 0.2 * math.sin(t * math.pi * 2.6)) for t in (i / 20 for i in range(21))]
        c.line(pts, ink, lw * 1.2)
        hx, hy = pts[-1]
        c.circle(hx, hy, s * 0.1, fill=ink)
        c.line([(hx + s * 0.08, hy), (hx + s * 0.2, hy - s * 0.04)], ink, max(1.0, lw * 0.4))
    elif motif == "horse":
        poly([(-0.3, 0.44), (0.34, 0.44), (0.3, 0.28), (0.1, 0.12), (0.12, -0.02), (0.34, 0.1), (0.46, 0.0),
              (0.44, -0.12), (0.16, -0.36), (0.06, -0.46), (0.0, -0.36), (-0.18, -0.28), (-0.3, -0.06),
              (-0.24, 0.26)])
        c.circle(cx + s * 0.12, cy - s * 0.2, s * 0.04, fill=face)
    elif motif == "bird":
        c.ellipse(*p(-0.34, -0.08), *p(0.2, 0.22), fill=ink)
        c.circle(cx + s * 0.22, cy - s * 0.12, s * 0.12, fill=ink)
        poly([(0.3, -0.16), (0.48, -0.1), (0.3, -0.06)])
        poly([(-0.22, 0.0), (0.08, 0.0), (-0.14, -0.36)])
        poly([(-0.3, 0.06), (-0.48, -0.08), (-0.46, 0.16)])
        c.line([p(-0.04, 0.2), p(-0.06, 0.4)], ink, lw * 0.5)
        c.line([p(0.06, 0.2), p(0.08, 0.4)], ink, lw * 0.5)
    elif motif == "ox":
        c.ellipse(*p(-0.22, -0.18), *p(0.22, 0.44), fill=ink)
        for sign in (-1, 1):
            pts = [p(sign * x, y) for x, y in ((0.16, -0.1), (0.32, -0.12), (0.42, -0.24), (0.42, -0.42))]
            c.line(pts, ink, lw * 1.1)
            c.circle(cx + sign * s * 0.09, cy + s * 0.06, s * 0.04, fill=face)
            c.circle(cx + sign * s * 0.07, cy + s * 0.32, s * 0.035, fill=face)
    else:  # an unknown motif (a corrected tile table): its first letters
        c.text(cx, cy, motif[:3], max(8, round(s * 0.4)), fill=ink, anchor="mm")


def tile_sprite(motif: str, side: int, label: bool = True) -> Image.Image:
    """Return one tile face as a reusable sprite (the icons are the costly part of a board)."""
    return _tile(motif, side, motif_word(motif) if label else None)


@lru_cache(maxsize=256)
def _tile(motif: str, side: int, word: str | None) -> Image.Image:
    # keyed by the word, not a flag: a cached tile never prints another language's name
    s = Canvas.sprite(side + 1, side + 1)
    draw_tile(s, motif, 0, 0, side, word)
    return s.image
