"""Indus's words and pictures on Discord: names of colours, ranks, start spaces and squares, the
board as a picture (``pictures.indus.board``) or as a text grid. Nothing in Indus is hidden."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from i18n import t
from pictures.indus.names import COLUMNS, square_label, start_label

__all__ = [
    "COLOUR_EMOJI",
    "IMAGE_NAME",
    "RANK_MARK",
    "RUIN_ICON",
    "board_png",
    "board_png_available",
    "board_text",
    "colour_name",
    "final_png",
    "piece_name",
    "rank_name",
    "space_label",
    "space_name",
    "square_name",
]

log = logging.getLogger(__name__)

COLOUR_EMOJI = ("🔵", "🟡", "🟢", "🔴")
COLOUR_LETTER = "bygr"
RANK_MARK = {"W": "①", "A": "②", "P": "③"}
"""A rank in the texts, by its strength (and its prisoner points): the letters W and P also named
the city wall, the wooden path and the West start spaces. The picture keeps its own labels; its
legend (``indus.legend``) explains those."""
RUIN_ICON = {"B": "🏛️", "T": "⚱️", "C": "🌊", "W": "🧱", "R": "🪨", "P": "🪵"}
"""A ruin type in the texts: building, tomb, canal, city wall, stone road, wooden path."""
IMAGE_NAME = "board.png"


def _boards() -> Any:
    """Return the board-image module, or None while it is not installed (text fallback)."""
    try:
        from pictures.indus import board as boards  # imported lazily: the picture module is optional
    except ImportError:
        return None
    return boards if hasattr(boards, "board_image") else None


def board_png(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes | None:
    """Return the board as PNG bytes, or None when the image module is not installed."""
    boards = _boards()
    if boards is None:
        return None
    try:
        png = boards.board_image(view, list(names) if names is not None else None)
    except Exception:  # a drawing bug must not stop the game: fall back to text
        log.warning("indus board image failed; showing the text board", exc_info=True)
        return None
    return png if isinstance(png, bytes) else None



def _piece_code(piece: dict[str, Any]) -> str:
    return f"{COLOUR_LETTER[piece['colour']]}{RANK_MARK.get(piece['rank'], piece['rank'])}"


def board_text(view: dict[str, Any]) -> str:
    """Return the board as a text grid (frame pieces around, top piece + height in each square)."""
    frame = view["frame"]

    def slot(name: str) -> str:
        return _piece_code(frame[name]) if name in frame else "··"

    cells = {(sq["row"], sq["col"]): sq for sq in view["board"]}
    lines = ["      " + "".join(f"{COLUMNS[c]:<5}" for c in range(6)),
             "      " + "".join(f"{slot(f'N{c}'):<5}" for c in range(6))]
    for r in range(6):
        row = []
        for c in range(6):
            sq = cells[(r, c)]
            stack = sq["stack"]
            text = f"{_piece_code(stack[-1])}{len(stack)}" if stack else " . "
            row.append(f"{text}{'*' if sq['owner'] >= 0 else ' '}")
        lines.append(f"{r + 1} {slot(f'W{r}'):>2} |{' '.join(row)}| {slot(f'E{r}')}")
    lines.append("      " + "".join(f"{slot(f'S{c}'):<5}" for c in range(6)))
    lines.append("")
    for r in range(6):
        lines.append(f"{r + 1}     " + " ".join(
            "".join(RUIN_ICON.get(k, k) for k in cells[(r, c)]["types"]).ljust(4) for c in range(6)))
    return "```\n" + "\n".join(lines) + "\n```\n" + t("indus.text_legend")


# --------------------------------------------------------------------------- names


def colour_name(colour: int) -> str:
    """Return a colour with its emoji, e.g. '🔵 blue'."""
    return f"{COLOUR_EMOJI[colour]} {t(f'indus.colour{colour}')}"


def rank_name(rank: str) -> str:
    """Return a rank letter's name (Worker, Assistant, Professor)."""
    return t(f"indus.rank_{rank}")


def piece_name(piece: dict[str, Any]) -> str:
    """Return e.g. '🔵 Assistant'."""
    return f"{COLOUR_EMOJI[piece['colour']]} {rank_name(piece['rank'])}"


def space_label(space: str) -> str:
    """Return a start space's short name (``N-A``), as the picture prints it."""
    return start_label(space)


def space_name(space: str) -> str:
    """Return a start space with where it lies, e.g. 'N-D: top edge, column D' (as the picture names it)."""
    line = int(space[1:])
    return t(f"indus.side_{space[0]}", space=start_label(space),
             line=COLUMNS[line] if space[0] in "NS" else str(line + 1))


def square_name(row: int, col: int) -> str:
    """Return a square's name as printed on the board image (A1..F6: column letter, row number)."""
    return square_label(row, col)


def final_png(view: dict[str, Any], names: Sequence[str], result: dict[str, Any]) -> bytes | None:
    """Return the final board with the scoring marked, or None when it cannot be drawn (the
    summary then goes without it: the standings matter more than the picture)."""
    if _boards() is None:
        return None
    from pictures.indus.final import final_image  # beside the board module, optional like it

    try:
        return final_image(view, list(names), result)
    except Exception:  # a drawing bug must not hold back the summary
        log.warning("indus final picture failed; the summary goes without it", exc_info=True)
        return None


def board_png_available() -> bool:
    """Return True when the board-image module can be imported."""
    return _boards() is not None
