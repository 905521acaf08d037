"""Incan Gold's end of game: the standings (shared places as stored) with artifacts and their points,
and the chart of each player's total after every expedition (replayed from the stored actions)."""

from __future__ import annotations

from typing import Any

from cogs.table.controls.lobby import post_summary
from cogs.table.messages.hub import TableHub
from cogs.table.messages.text import absence_lines, place_of, seat_label, standings, winner_line
from engine.incan_gold import GAME
from engine.incan_gold.history import expeditions
from engine.session import RepoUnavailable, Table
from i18n import t, tn
from pictures.incan_gold.chart import chart_png

__all__ = ["summary", "tie_lines"]


async def summary(hub: TableHub, table: Table, result: dict[str, Any]) -> None:
    """Post the final scores with a Rematch button."""
    lines = []
    for rank, seat in enumerate(standings(result, table), start=1):
        arts = [f"{a['artifact']} ({a['points']})" for a in GAME.view(table.state, seat)["you"]["artifacts"]]
        lines.append(t("incan.summary_line", place=place_of(table, seat, rank), name=seat_label(table.seats[seat]),
                       score=result["scores"][seat], gems=tn("incan.gems", result["banked"][seat]),
                       artifacts=tn("incan.summary_artifacts", len(arts), artifacts=", ".join(arts)) if arts else ""))
    lines.append(winner_line(table, result))
    lines += tie_lines(result)
    lines += absence_lines(table, hub.bot.sessions.clock.now())
    await post_summary(hub, table, t("incan.summary_title"), lines, picture=await results_picture(hub, table))


def tie_lines(result: dict[str, Any]) -> list[str]:
    """Return how ties were broken, when two seats have the same score: the most artifacts wins,
    and seats still tied share their place (the standings show the same place twice)."""
    scores = result["scores"]
    return [t("incan.tiebreak")] if len(set(scores)) < len(scores) else []


async def results_picture(hub: TableHub, table: Table) -> bytes | None:
    """Return the chart of the game's expeditions, or None when its actions cannot be read now (the
    summary then goes without it: the standings matter more than the picture)."""
    assert table.seed is not None
    try:
        actions = await hub.repo.actions(table.id, table.version)
    except RepoUnavailable:  # the store is away: the standings still go out
        return None
    ends = expeditions(len(table.seats), table.seed, table.options, actions)
    return chart_png(ends, [s.display_name for s in table.seats])
