"""Sakkara's end of game: how it ended, the standings by pyramid, and the final board with the
scoring marked, posted with a Rematch button."""

from __future__ import annotations

import logging
from typing import Any

from cogs.sakkara import words
from cogs.sakkara.words import names
from cogs.table.controls.lobby import post_summary
from cogs.table.messages.hub import TableHub
from cogs.table.messages.text import absence_lines, place_of, seat_label, standings, winner_line
from engine.sakkara import GAME
from engine.session import Table
from i18n import t
from pictures.drawing import drawn

log = logging.getLogger(__name__)

__all__ = ["final_picture", "summary"]


async def summary(hub: TableHub, table: Table, result: dict[str, Any]) -> None:
    """Post the final pyramids with a Rematch button; the DM prompts lose their buttons."""
    view = GAME.view(table.state, None)
    lines = [t(f"sakkara.ended.{result['ended'] or 'apex'}")]
    for rank, seat in enumerate(standings(result, table), start=1):
        lines.append(t("sakkara.summary_line", place=place_of(table, seat, rank),
                       name=seat_label(table.seats[seat]), size=result["scores"][seat],
                       levels=view["levels"][seat], grain=view["grains"][seat]))
    lines.append(winner_line(table, result))
    lines += absence_lines(table, hub.bot.sessions.clock.now())
    picture = await drawn(final_picture, names(table), view, result)
    await post_summary(hub, table, t("sakkara.summary_title"), lines, picture=picture)


def final_picture(players: list[str], view: dict[str, Any], result: dict[str, Any]) -> bytes | None:
    """Return the final board with the scoring marked, or None when it cannot be drawn (the
    standings then go out without it: they matter more than the picture). Plain data in, so a
    drawing process can be handed it."""
    if words.boards() is None:
        return None
    from pictures.sakkara.final import final_image  # beside the board module, optional like it

    try:
        return final_image(view, players, result)
    except Exception:  # a drawing bug must not hold back the summary
        log.warning("sakkara final picture failed; the summary goes without it", exc_info=True)
        return None
