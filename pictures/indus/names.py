"""One naming of the Indus board for the picture, the menus, the log and the rules text.

The board is labelled as players read it: columns A–F from left to right, rows 1–6 from top to
bottom (``A1`` top-left). A start space is named by its edge and the column or row it enters:
``N-A`` … ``N-F`` above the columns, ``S-A`` … ``S-F`` below them, ``W-1`` … ``W-6`` left of the
rows, ``E-1`` … ``E-6`` right of them. The engine's own identifiers (``N0`` … ``W5``, counted
from 0) stay in the actions and the log; only what people read is named here.
"""

from __future__ import annotations

__all__ = ["COLUMNS", "SIDES", "square_label", "start_label", "start_order"]

COLUMNS = "ABCDEF"
SIDES = "NESW"  # clockwise from the top, the engine's side letters


def square_label(row: int, col: int) -> str:
    """Return a dig square's name: its column letter and row number (``A1`` top-left, ``F6``)."""
    return f"{COLUMNS[col]}{row + 1}"


def start_label(space: str) -> str:
    """Return a start space's name from the engine's identifier: ``N0`` → ``N-A``, ``W0`` → ``W-1``."""
    side, line = space[0], int(space[1:])
    return f"{side}-{COLUMNS[line]}" if side in "NS" else f"{side}-{line + 1}"


def start_order(space: str) -> tuple[int, int]:
    """Return a sort key that lists start spaces clockwise: top, right, bottom, left edge."""
    return SIDES.index(space[0]), int(space[1:])
