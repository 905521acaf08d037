"""Leaving a running game: ``/<game> resign`` asks to confirm, then a bot plays the seat.

The command answers privately with the consequences (a bot of the player's choice plays the seat
for the rest of the game, labelled as such; the player ranks last among the people at the table)
and two buttons: resign, or keep playing. The buttons carry the table id and the chosen level, so
they keep working after a restart; a second press, a press after the game ended or by someone who
no longer plays there is refused privately by the session and changes nothing.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.table.answer import answering_click
from cogs.table.controls.buttons import guarded, hub_of, refuse, reply, table_for
from engine.session import SessionError, Table
from i18n import t

__all__ = ["DYNAMIC_ITEMS", "ResignButton", "ask_to_resign"]

KEEP = "keep"


def confirm_view(table: Table, level: str) -> discord.ui.View:
    """Return the two buttons of the confirmation: resign to ``level``'s bot, or keep playing."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(table.id, level, t("resign.confirm", level=t(f"level.{level}")),
                               discord.ButtonStyle.danger))
    view.add_item(ResignButton(table.id, KEEP, t("resign.keep"), discord.ButtonStyle.secondary))
    return view


async def ask_to_resign(interaction: discord.Interaction, table: Table, level: str, command: str) -> None:
    """Answer ``/<game> resign`` privately: what resigning means, and the buttons to confirm it.

    Checked here as well as at the press (by the session): a player who could not resign is told at
    once rather than after a confirmation.
    """
    seat = table.seat_of(interaction.user.id)
    error = None
    if table.status != "playing":
        error = SessionError("not_playing")
    elif seat is None:
        error = SessionError("not_seated")
    elif table.seats[seat].resigned:
        error = SessionError("resigned")
    elif level not in table.spec.agents:
        error = SessionError("unknown_level", levels=sorted(table.spec.agents))
    if error is not None:
        await refuse(interaction, error, command)
        return
    await reply(interaction, t("resign.ask", level=t(f"level.{level}")), view=confirm_view(table, level))


class ResignButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"resign:(?P<table>\d{1,18}):(?P<op>[a-z]{1,16})"):
    """Resign (to the bot level it names) or keep playing, on the private confirmation."""

    def __init__(self, table_id: int, op: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or op, style=style, custom_id=f"resign:{table_id}:{op}"))
        self.table_id, self.op = table_id, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ResignButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]), match["op"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Resign through the session, then close the confirmation (its answer); errors privately."""
        hub = hub_of(interaction)
        async with answering_click(interaction) as answer:
            if self.op == KEEP:
                await answer.edit(content=t("resign.kept"), view=None)
                return
            try:
                table = await table_for(interaction, self.table_id)
                # The click goes with the call: a picture redrawn for it acknowledges it if slow.
                await hub.bot.sessions.resign(self.table_id, interaction.user.id, self.op, origin=answer)
            except SessionError as exc:
                answer.stop_guard()
                await answer.settled()
                await refuse(interaction, exc)
                return
            await answer.edit(content=t("resign.done", game=hub.renderer(table).title(),
                                        level=t(f"level.{self.op}")), view=None)


DYNAMIC_ITEMS = (ResignButton,)
"""The confirmation's custom_id template (registered once at start-up)."""
