"""The words printed on the board images: the ``boards.*`` keys of the bot's one catalogue
(``i18n``), and the names of the players as the bundled font can print them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import i18n
from i18n.names import visible
from pictures.canvas import printable

__all__ = ["player_names", "tr", "trn"]


def tr(key: str, **values: Any) -> str:
    """Return the text of ``key`` filled with ``values``, from the bot's catalogue."""
    return i18n.t(key, **values)


def trn(key: str, count: int, **values: Any) -> str:
    """Return the counted text of ``key`` (``<key>.one`` / ``<key>.other``), from the bot's catalogue."""
    return i18n.tn(key, count, **values)


def player_names(names: Sequence[str] | None, seats: int) -> list[str]:
    """Return one printable name per seat: what can be seen of the given names (glyphs the font lacks
    replaced), else "Player N"."""
    out = [tr("boards.player", n=i + 1) for i in range(seats)]
    for i, name in enumerate(list(names or [])[:seats]):
        shown = visible(name or "")
        if shown:
            out[i] = printable(shown)
    return out
