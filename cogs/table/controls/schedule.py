"""``/<game> new start_at: fill_with:``: a table opened for later, as people write its time.

The time is read in UTC (:func:`engine.session.schedule.check_start_at`: Discord does not tell a
bot a member's time zone); the lobby shows it as a live timestamp in each reader's own time. What
cannot be read, is past or is more than a week ahead is refused privately in the reader's
language, and nothing is opened.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from cogs.table.controls.buttons import reply
from cogs.table.messages.text import escape
from engine.session.schedule import FILL_WITH, START_AT, StartAtError, check_start_at
from i18n import t

__all__ = ["FILL_WITH_DESCRIPTION", "START_AT_DESCRIPTION", "FillWithOption", "StartAtOption", "read_schedule"]

StartAtOption = app_commands.Range[str, 1, 30]
"""``start_at``: a short string (the gate refuses a longer one sent by a modified client)."""

FillWithOption = Literal["easy", "medium", "hard"]
"""``fill_with``: the level of the bots that fill a scheduled table's empty seats at its start."""

START_AT_DESCRIPTION = "Start later, in UTC: 18:30 (today) or 2026-12-08 18:30 (within a week)"
FILL_WITH_DESCRIPTION = "With start_at: at that time, bots of this level fill the empty seats"

SHOWN_MAX = 40
"""The refusal quotes at most this much of what was written."""


async def read_schedule(interaction: discord.Interaction, start_at: str | None, fill_with: str | None,
                        now: float) -> dict[str, Any] | None:
    """Return the table options ``start_at`` and ``fill_with`` say (none: {}), or refuse them
    privately and return None."""
    if start_at is None:
        if fill_with is not None:
            await reply(interaction, t("error.fill_needs_start"))
            return None
        return {}
    try:
        moment = check_start_at(start_at, now)
    except StartAtError as exc:
        shown = escape(" ".join(start_at.split())[:SHOWN_MAX]) or "–"
        await reply(interaction, t(f"error.start_at_{exc.code}", text=shown) + "\n" + t("error.start_at_accepted"))
        return None
    return {START_AT: int(moment)} | ({FILL_WITH: fill_with} if fill_with is not None else {})
