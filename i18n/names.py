"""How a name a player chose is shown: what cannot be seen, or would turn the text after it around,
is left out.

Display names may hold anything Unicode allows. A right-to-left override (U+202E) in a name
reverses the rest of the line it is printed in, in every message that names the player; a name
made of zero-width characters leaves an empty seat line. :func:`visible` keeps what a reader sees
and nothing that steers the text; the Discord side escapes the result (``cogs.table.messages.text``)
and the pictures print it with their font (``pictures.lettering``).
"""

from __future__ import annotations

import unicodedata

__all__ = ["visible"]

ZWJ = "\u200d"
"""The zero-width joiner: kept between two pictographs (it joins an emoji family), dropped elsewhere."""

FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols drawn as nothing (the Hangul fillers, the blank Braille pattern): names made
of them look empty, so they count as invisible."""

_DROPPED = frozenset(("Cc", "Cf", "Co", "Cs", "Zl", "Zp"))
"""Controls, format characters (bidirectional embeddings, overrides and isolates, marks, zero-width
spaces and joiners), private-use and surrogate code points, line and paragraph separators."""


def _pictograph(ch: str) -> bool:
    return unicodedata.category(ch) in ("So", "Sk") or ch == "\ufe0f"


def visible(name: str) -> str:
    """Return ``name`` as a reader sees it: no control, format or invisible character (a zero-width
    joiner only between two pictographs), every run of spaces one space, no space at either end;
    "" when nothing visible is left."""
    kept: list[str] = []
    for i, ch in enumerate(name):
        if ch == ZWJ:
            if kept and _pictograph(kept[-1]) and i + 1 < len(name) and _pictograph(name[i + 1]):
                kept.append(ch)
            continue
        if unicodedata.category(ch) in _DROPPED or ch in FILLERS:
            continue
        kept.append(" " if ch.isspace() else ch)
    return " ".join("".join(kept).split())
