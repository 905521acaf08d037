"""Indus's end of game: the final scoring ruin by ruin, the standings and the final board picture,
posted with a Rematch button."""

from __future__ import annotations

from typing import Any

from cogs.indus.words import COLOUR_EMOJI, final_png
from cogs.table.controls.lobby import post_summary
from cogs.table.messages.fields import split_items
from cogs.table.messages.hub import TableHub
from cogs.table.messages.text import absence_lines, name_of, place_of, seat_label, standings, winner_line
from engine.indus import GAME
from engine.session import Table
from i18n import t
from pictures.drawing import drawn

__all__ = ["summary"]


async def summary(hub: TableHub, table: Table, result: dict[str, Any]) -> None:
    """Post the final scoring, ruin by ruin, with a Rematch button."""
    view = GAME.view(table.state, None)
    colour_seat = {c["colour"]: c["seat"] for c in view["colours"]}
    ruin_lines = []
    for ruin in view["layout"]["ruins"]:
        value = f"{ruin['first']}/{ruin['second']}" if "second" in ruin else str(ruin["first"])
        got = result["ruins"].get(ruin["id"], {})
        takers = ", ".join(t("indus.ruin_taker", colour=COLOUR_EMOJI[int(c)],
                             name=name_of(table.seats[colour_seat[int(c)]]), points=p)
                           for c, p in sorted(got.items(), key=lambda kv: -kv[1]))
        ruin_lines.append(t("indus.ruin_line", id=ruin["id"], type=t(f"indus.type_{ruin['id'][0]}"),
                            value=value, takers=takers or t("indus.ruin_nobody")))
    scores = result["scores"]
    total_lines = []
    for rank, seat in enumerate(standings(result, table), start=1):
        colours = " + ".join(f"{COLOUR_EMOJI[c]} {result['colour_points'][c]}"
                             for c in view["seat_colours"][seat])
        total_lines.append(t("indus.summary_line", place=place_of(table, seat, rank),
                             name=seat_label(table.seats[seat]),
                             score=scores[seat], ruins=colours, prisoners=result["prisoner_points"][seat]))
    total_lines.append(winner_line(table, result))
    total_lines += absence_lines(table, hub.bot.sessions.clock.now())
    if sum(1 for s in scores if s == max(scores)) > len(result["winners"]):
        total_lines.append(t("indus.tiebreak"))
    # A huge custom layout: the rest in further fields, split between ruins.
    fields = [(t("indus.summary_ruins") if index == 0 else "…", part)
              for index, part in enumerate(split_items(ruin_lines, "\n"))]
    picture = await drawn(final_png, view, [seat.display_name for seat in table.seats], result)
    await post_summary(hub, table, t("indus.summary_title"), total_lines, fields, picture=picture)
