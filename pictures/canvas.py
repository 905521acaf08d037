"""A small drawing surface for the board images: design units, 2x supersampling, PNG out.

Everything is drawn at twice the output size and reduced with a box filter at the end, which
is Pillow's cheapest way to antialias shapes and text. The font is Aileron (the face Pillow
bundles, CC0), shipped in ``fonts/`` with its Latin-1 letters: Pillow's own copy has ASCII only,
and the Finnish, Swedish and Italian labels need ä, ö, å, à, è... No system fonts, no network.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

__all__ = ["COUNTED", "DISCORD_BOX", "MIN_SHOWN", "NEEDED", "SCALE", "Canvas", "Colour", "encode", "font", "png_of",
           "printable", "quantized", "shown_scale", "sizes_drawn", "smallest_shown", "text_width"]

SCALE = 2
"""Supersampling factor: drawn at SCALE x the output size, reduced once at the end."""

Colour = str | tuple[int, int, int]
Point = tuple[float, float]

NEEDED = "needed"
"""The role of a text a player reads for a decision (tile kinds, names, whose turn, scores): it must
stay readable where Discord shows the picture (``Canvas.text(..., role=NEEDED)``)."""
COUNTED = "counted"
"""The role of a number players count (stack heights, rack counts, levels): larger still."""

DISCORD_BOX = (400, 300)
"""The box Discord shows an embed's image in, in a chat: at most 400 px wide and 300 px high, the
picture scaled down to fit it and never enlarged (a chat's attachments get a box alike). So only a
picture at least 4:3 wide is shown the full 400 px wide; a tall one is shown smaller still."""

MIN_SHOWN = {NEEDED: 11.0, COUNTED: 14.0}
"""The smallest a text of each role may be where Discord shows the picture, in screen pixels."""


def shown_scale(width: int, height: int) -> float:
    """Return the factor Discord shows a ``width`` x ``height`` picture at: ``min(400/w, 300/h, 1)``
    (see :data:`DISCORD_BOX`). A text of ``size`` px in the picture is ``size * shown_scale`` on screen."""
    return min(DISCORD_BOX[0] / width, DISCORD_BOX[1] / height, 1.0)


def smallest_shown(sizes: Sequence[tuple[str, int, str]], width: int, height: int) -> dict[str, float]:
    """Return, per role, the smallest text of ``sizes`` (from :func:`sizes_drawn`) as shown on screen."""
    scale = shown_scale(width, height)
    out: dict[str, float] = {}
    for role, size, _ in sizes:
        if role:
            out[role] = min(out.get(role, size * scale), size * scale)
    return out


_SIZES: ContextVar[list[tuple[str, int, str]] | None] = ContextVar("text_sizes", default=None)


@contextmanager
def sizes_drawn() -> Iterator[list[tuple[str, int, str]]]:
    """Collect ``(role, size, text)`` of every text drawn in this block: the pictures' tests measure the
    sizes a drawing really used, not constants that could drift from it. Text in cached sprites is
    drawn once: clear those caches inside the block to see it."""
    seen: list[tuple[str, int, str]] = []
    token = _SIZES.set(seen)
    try:
        yield seen
    finally:
        _SIZES.reset(token)


FONT_FILE = Path(__file__).parent / "fonts" / "Aileron-Regular-latin.woff"
"""Aileron Regular, Latin subset (Fontsource's package of the CC0 face; FreeType reads WOFF)."""


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Return the board font at ``size`` output pixels (drawn at the supersampled size)."""
    return ImageFont.truetype(str(FONT_FILE), size * SCALE, layout_engine=ImageFont.Layout.BASIC)


PALETTE_SOURCES = ("canvas.py", "indus/board.py", "sakkara/board.py", "sakkara/motifs.py", "sakkara/rack.py")
"""The modules (relative to ``pictures/``) whose colours make the palette: every module that draws."""


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """Return the fixed 256-colour palette every board is mapped to.

    Adaptive quantisation costs 3-4x more than mapping to a fixed palette, and a fixed one
    keeps the bytes of an image independent of what was drawn before. The palette is every
    colour the board modules name (read from their source, so a new colour is never
    forgotten), each of them half-blended with the ink (text and icon edges), a 5x5x5 cube and
    a grey ramp for the remaining antialiased pixels.
    """
    names: set[str] = set()
    pictures = Path(__file__).parent
    for path in (pictures / source for source in PALETTE_SOURCES):
        names.update(m.lower() for m in re.findall(r"#[0-9a-fA-F]{6}\b", path.read_text(encoding="utf-8")))
    design = [tuple(int(n[i:i + 2], 16) for i in (1, 3, 5)) for n in sorted(names)]
    ink = (0x1E, 0x24, 0x30)
    colours: list[tuple[int, ...]] = list(design)
    colours += [tuple((a + b) // 2 for a, b in zip(c, ink, strict=True)) for c in design]
    colours += [(r, g, b) for r in range(0, 256, 64) for g in range(0, 256, 64) for b in range(0, 256, 64)]
    colours += [(v, v, v) for v in range(0, 256, 17)]
    unique = list(dict.fromkeys(colours))[:256]
    unique += [(0, 0, 0)] * (256 - len(unique))
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in unique for v in c])
    return pal


@lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    probe = font(10)
    missing = probe.getmask("\uffff")
    mask = probe.getmask(ch)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


def printable(text: str) -> str:
    """Return ``text`` with what the font lacks replaced: a letter it lacks loses its accent
    (when the bare letter exists), anything else becomes ``?``.

    The font covers Latin-1 (the bot's four languages, ``·`` and ``…``); Discord display names
    may hold anything, and a missing glyph would print as an empty box.
    """
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ch == " " or _has_glyph(ch):
            out.append(ch)
            continue
        bare = [c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)]
        out.extend(c if _has_glyph(c) else "?" for c in bare or ["?"])
    return "".join(out)


def text_width(text: str, size: int) -> float:
    """Return the width of ``text`` in output pixels."""
    return float(font(size).getlength(text)) / SCALE


@lru_cache(maxsize=4096)
def _text_sprite(text: str, size: int, fill: Colour, anchor: str, bold: bool,
                 stroke: Colour | None) -> tuple[Image.Image, int, int]:
    """Return ``text`` rendered on a transparent sprite and its offset from the anchor point.

    Every word passes through :func:`printable`: names and translated labels may hold letters
    the bundled font lacks.
    """
    text = printable(text)
    if stroke is not None:
        sw, sf = max(1, SCALE * 2), stroke
    elif bold:
        sw, sf = max(1, SCALE // 2), fill
    else:
        sw, sf = 0, None
    f = font(size)
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(text, anchor=anchor, stroke_width=sw))
    img = Image.new("RGBA", (max(1, x1 - x0), max(1, y1 - y0)), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((-x0, -y0), text, font=f, fill=fill, anchor=anchor, stroke_width=sw, stroke_fill=sf)
    return img, x0, y0


class Canvas:
    """An RGB image addressed in output pixels; every call scales by :data:`SCALE`."""

    def __init__(self, width: int, height: int, background: Colour | tuple[int, int, int, int] = "white",
                 mode: str = "RGB", base: Image.Image | None = None) -> None:
        self.width = width
        self.height = height
        if base is not None:
            self.image = base.copy()
        else:
            self.image = Image.new(mode, (width * SCALE, height * SCALE), background)
        self.draw = ImageDraw.Draw(self.image)

    @classmethod
    def sprite(cls, width: float, height: float) -> Canvas:
        """Return a transparent canvas for a reusable piece of art (see :meth:`paste`)."""
        return cls(round(width), round(height), (0, 0, 0, 0), mode="RGBA")

    def paste(self, sprite: Image.Image, x: float, y: float) -> None:
        """Paste a sprite's supersampled pixels with its alpha at output position (x, y)."""
        self.image.paste(sprite, (self._s(x), self._s(y)), sprite)

    @staticmethod
    def _s(value: float) -> int:
        return round(value * SCALE)

    def rect(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        """Draw a (rounded) rectangle."""
        box = (self._s(x0), self._s(y0), self._s(x1), self._s(y1))
        w = max(1, self._s(width)) if outline is not None else 0
        if radius:
            self.draw.rounded_rectangle(box, radius=self._s(radius), fill=fill, outline=outline, width=w)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=w)

    def circle(
        self, cx: float, cy: float, r: float, fill: Colour | None = None, outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        """Draw a circle centred on (cx, cy)."""
        box = (self._s(cx - r), self._s(cy - r), self._s(cx + r), self._s(cy + r))
        w = max(1, self._s(width)) if outline is not None else 0
        self.draw.ellipse(box, fill=fill, outline=outline, width=w)

    def ellipse(
        self, x0: float, y0: float, x1: float, y1: float, fill: Colour | None = None,
        outline: Colour | None = None, width: float = 1,
    ) -> None:
        """Draw an ellipse in a bounding box."""
        w = max(1, self._s(width)) if outline is not None else 0
        self.draw.ellipse((self._s(x0), self._s(y0), self._s(x1), self._s(y1)), fill=fill, outline=outline, width=w)

    def arc(self, x0: float, y0: float, x1: float, y1: float, start: float, end: float, fill: Colour,
            width: float = 1) -> None:
        """Draw an arc of the ellipse in a bounding box (degrees, clockwise from 3 o'clock)."""
        box = (self._s(x0), self._s(y0), self._s(x1), self._s(y1))
        self.draw.arc(box, start, end, fill=fill, width=max(1, self._s(width)))

    def polygon(self, points: Sequence[Point], fill: Colour | None = None, outline: Colour | None = None,
                width: float = 1) -> None:
        """Draw a closed polygon."""
        pts = [(self._s(x), self._s(y)) for x, y in points]
        w = max(1, self._s(width)) if outline is not None else 0
        self.draw.polygon(pts, fill=fill, outline=outline, width=w)

    def line(self, points: Sequence[Point], fill: Colour, width: float = 1, round_joints: bool = True) -> None:
        """Draw a polyline."""
        pts = [(self._s(x), self._s(y)) for x, y in points]
        self.draw.line(pts, fill=fill, width=max(1, self._s(width)), joint="curve" if round_joints else None)

    def text(self, x: float, y: float, text: str, size: int, fill: Colour = "#222222", anchor: str = "la",
             bold: bool = False, stroke: Colour | None = None, role: str = "") -> None:
        """Draw text; ``bold`` thickens the bundled (regular) font with a same-colour stroke;
        ``role`` (:data:`NEEDED`, :data:`COUNTED`, or none for a label nobody needs) is what
        :func:`sizes_drawn` records.

        Rendered words are cached as sprites: boards repeat the same labels every move, and
        FreeType rendering is the largest cost of a board after the PNG encoding.
        """
        seen = _SIZES.get()
        if seen is not None:
            seen.append((role, size, text))
        sprite, dx, dy = _text_sprite(text, size, fill, anchor, bold, stroke)
        self.image.paste(sprite, (self._s(x) + dx, self._s(y) + dy), sprite)

    def fit(self, text: str, size: int, max_width: float) -> str:
        """Return ``text`` cut with an ellipsis so it fits ``max_width`` at ``size``."""
        if text_width(text, size) <= max_width:
            return text
        while text and text_width(text + "…", size) > max_width:
            text = text[:-1]
        return text + "…"

    def reduced(self) -> Image.Image:
        """Return the image at output size (RGB): what :meth:`png` encodes, for pictures made of
        several canvases (reduced apart, pasted side by side at output size, encoded once)."""
        small = self.image.reduce(SCALE)
        return small if small.mode == "RGB" else small.convert("RGB")

    def png(self) -> bytes:
        """Return the image reduced to output size, as a 256-colour PNG (see :func:`encode`)."""
        return encode(self.reduced())


def encode(image: Image.Image) -> bytes:
    """Return an output-size RGB image as a 256-colour PNG.

    The boards are flat colours, so a palette (see :func:`palette`) is visually lossless and
    makes the file ~2.5x smaller and much faster to encode than RGB.
    """
    return png_of(quantized(image))


def quantized(image: Image.Image) -> Image.Image:
    """Return an output-size RGB image mapped to :func:`palette` (each pixel on its own, no
    dithering: parts mapped apart and pasted together give the picture mapped whole)."""
    return image.quantize(palette=palette(), dither=Image.Dither.NONE)


def png_of(image: Image.Image) -> bytes:
    """Return a :func:`quantized` image as PNG bytes."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()
