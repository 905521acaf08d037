"""A decision time as people write it in a command (``90``, ``90s``, ``10m``, ``8h``, ``3d``, ``1d12h``).

``/<game> new timeout:`` and ``/settings decision_time`` take a string, read by
:func:`engine.session.pace.check_decision_time`; what it refuses is answered privately, in the
reader's language, with what is accepted, and nothing changes.
"""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.table.controls.buttons import reply
from cogs.table.messages.text import escape
from engine.session.pace import DurationError, check_decision_time
from i18n import t

__all__ = ["AWAY_AFTER_DESCRIPTION", "SHOWN_MAX", "AwayAfterOption", "DurationOption", "read_decision_time"]

DurationOption = app_commands.Range[str, 1, 20]
"""A command option holding a decision time: a short string (Discord's client enforces the length;
the gate, :mod:`cogs.table.controls.gate`, refuses a longer one sent by a modified client)."""

AwayAfterOption = app_commands.Range[int, 1, 10]
"""``/<game> new away_after:``: on a correspondence table, how many decisions in a row a person may
let time out before the table's bot plays their seat until they are back (engine.session.absence)."""

AWAY_AFTER_DESCRIPTION = "Correspondence: decisions in a row a player may miss before the bot plays for them (2)"
"""The option's description (Discord's limit: 100 characters), the same in every game's ``new``."""

SHOWN_MAX = 40
"""The refusal quotes at most this much of what was written."""


async def read_decision_time(interaction: discord.Interaction, text: str) -> float | None:
    """Return the decision time ``text`` says in seconds (a whole number when it is one); or refuse
    it privately and return None."""
    try:
        seconds = check_decision_time(text)
    except DurationError as exc:
        shown = escape(" ".join(text.split())[:SHOWN_MAX]) or "–"
        await reply(interaction, t(f"error.duration_{exc.code}", text=shown) + "\n" + t("error.duration_accepted"))
        return None
    return int(seconds) if seconds.is_integer() else seconds
