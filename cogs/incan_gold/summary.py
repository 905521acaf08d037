"""Incan Gold's end of game: the standings (shared places as stored) with artifacts and their points."""

from __future__ import annotations

from typing import Any

from cogs.i18n import t, tn
from cogs.table.hub import TableHub
from cogs.table.lobby import post_summary
from cogs.table.text import place_of, seat_label, standings, winner_line
from engine.incan_gold import GAME
from engine.session import Table

__all__ = ["summary"]


async def summary(hub: TableHub, table: Table, result: dict[str, Any]) -> None:
    """Post the final scores with a Rematch button."""
    lines = []
    for rank, seat in enumerate(standings(result, table), start=1):
        arts = [f"{a['artifact']} ({a['points']})" for a in GAME.view(table.state, seat)["you"]["artifacts"]]
        lines.append(t("incan.summary_line", place=place_of(table, seat, rank), name=seat_label(table.seats[seat]),
                       score=result["scores"][seat], gems=tn("incan.gems", result["banked"][seat]),
                       artifacts=tn("incan.summary_artifacts", len(arts), artifacts=", ".join(arts)) if arts else ""))
    lines.append(winner_line(table, result))
    await post_summary(hub, table, t("incan.summary_title"), lines)
