"""Names and standings as every game's text shows them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cogs.i18n import t
from engine.session import SeatSpec, Table

__all__ = ["seat_label", "seat_names", "standings", "winner_line"]


def standings(result: dict[str, Any]) -> list[int]:
    """Return the seats in final order: the engine's winners first, then by score."""
    return sorted(range(len(result["scores"])), key=lambda s: (s not in result["winners"], -result["scores"][s]))


def winner_line(table: Table, result: dict[str, Any]) -> str:
    """Return the summary's "Winner: ..." (or shared win) line."""
    key = "play.winner" if len(result["winners"]) == 1 else "play.winners"
    return "\n" + t(key, names=seat_names(table, result["winners"]))


def seat_label(seat: SeatSpec) -> str:
    """Return how a seat is named at the table (bots tagged)."""
    return f"🤖 {seat.display_name}" if seat.is_ai else seat.display_name


def seat_names(table: Table, seats: Sequence[int]) -> str:
    """Return seat names joined for a sentence."""
    names = [table.seats[s].display_name for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return t("play.and", first=", ".join(names[:-1]), last=names[-1])
