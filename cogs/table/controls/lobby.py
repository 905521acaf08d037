"""The lobby on Discord: its message and buttons, the shared lobby operations, and the Rematch
and Replay buttons on a finished game's summary (a new lobby; the game replayed, by cogs.replay)."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any, Protocol, cast

import discord

from cogs.table.answer import Answer, answering_click
from cogs.table.controls.buttons import as_seat, can_manage, guarded, hub_of, place_of, refuse, reply, table_for
from cogs.table.messages.hub import TableHub
from cogs.table.messages.text import decision_time, moment, name_of, seat_label, when
from engine.session import SessionError, Table
from engine.session.pace import CORRESPONDENCE, pace_of
from engine.session.schedule import FILL_WITH, START_AT
from i18n import t, tn

__all__ = ["DYNAMIC_ITEMS", "LobbyButton", "RematchButton", "ReplayButton", "lobby_embed", "lobby_op", "lobby_view",
           "post_summary"]


def lobby_embed(hub: TableHub, table: Table) -> discord.Embed:
    """Return the lobby embed: seats, host, options."""
    renderer = hub.renderer(table)
    embed = discord.Embed(title=t("lobby.title", game=renderer.title()), colour=discord.Colour.gold())
    names = [seat_label(s) for s in table.seats] or [t("lobby.empty")]
    embed.add_field(name=tn("lobby.seats", len(table.seats), max=table.spec.max_players),
                    value="\n".join(names), inline=True)
    embed.add_field(name=t("lobby.options"), value=renderer.options_text(table), inline=True)
    host = next((name_of(s) for s in table.seats if s.user_id == table.host_id), "?")
    hint = t("lobby.hint")
    if len(table.seats) == 2 and table.spec.min_players == 2 and table.spec.max_players > 4:
        hint += "\n" + t("lobby.two_players")
    embed.description = f"{t('lobby.host', host=host)}\n{hint}"
    start_at = table.table_options.get(START_AT)
    if start_at is not None:
        # A live timestamp: every reader sees the time in their own time zone.
        embed.description += "\n" + t("lobby.starts_at", when=moment(float(start_at)))
        level = table.table_options.get(FILL_WITH)
        embed.description += "\n" + (t("lobby.fill_with", level=t(f"level.{level}")) if level is not None
                                      else t("lobby.waits_for_host"))
    elif table.lobby_until is not None and pace_of(decision_time(table)) == CORRESPONDENCE:
        # People of a correspondence table gather over hours: say how long the lobby waits for them.
        embed.description += "\n" + t("lobby.open_until", when=when(table.lobby_until))
    return embed



def lobby_view(table: Table) -> discord.ui.View:
    """Return the lobby buttons (persistent: they carry the table id)."""
    view = discord.ui.View(timeout=None)
    for op, style in (("join", discord.ButtonStyle.success), ("leave", discord.ButtonStyle.secondary),
                      ("start", discord.ButtonStyle.primary), ("cancel", discord.ButtonStyle.danger)):
        view.add_item(LobbyButton(table.id, op, t(f"lobby.{op}"), style, row=0))
    for level in table.spec.agents:
        view.add_item(LobbyButton(table.id, f"ai-{level}", t("lobby.add_bot", level=t(f"level.{level}")),
                                  discord.ButtonStyle.secondary, row=1))
    view.add_item(LobbyButton(table.id, "ai-remove", t("lobby.remove_bot"), discord.ButtonStyle.secondary,
                              row=1))
    return view

# ------------------------------------------------------------------ Listener


async def post_summary(hub: TableHub, table: Table, title: str, lines: Sequence[str],
                       fields: Sequence[tuple[str, str]] = (), picture: bytes | None = None) -> None:
    """Post a game's final summary (``lines``, then ``fields``, and the results ``picture`` on the same
    message: one send) with the Rematch and Replay buttons."""
    embed = discord.Embed(title=title, description="\n".join(lines), colour=discord.Colour.green())
    for name, value in fields:
        embed.add_field(name=name, value=value, inline=False)
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(table.id, t("play.rematch")))
    view.add_item(ReplayButton(table.id))
    if picture is not None and not await hub.may(table, "attach"):
        picture = None  # Attach Files is off in the channel: the standings go alone
    if picture is None:
        await hub.post(table, "summary", embed=embed, view=view)
        return
    embed.set_image(url="attachment://results.png")
    await hub.post(table, "summary", embed=embed, view=view,
                   files=[discord.File(io.BytesIO(picture), filename="results.png")])


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"lobby:(?P<table>\d{1,18}):(?P<op>join|leave|start|cancel|ai-[a-z]+)"):
    """Join / Leave / Start / Cancel / Add bot / Remove bot on the lobby message."""

    def __init__(self, table_id: int, op: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or op, style=style, row=row,
                                           custom_id=f"lobby:{table_id}:{op}"))
        self.table_id, self.op = table_id, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]), match["op"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Run the lobby operation through the session; errors come back privately."""
        hub = hub_of(interaction)
        await lobby_op(hub, interaction, self.table_id, self.op)


async def lobby_op(hub: TableHub, interaction: discord.Interaction, table_id: int, op: str) -> None:
    """Run one lobby operation for the interaction's user (shared by buttons and slash commands).

    A lobby button is answered by the redraw of the lobby it pressed (the interaction's response,
    exempt from the rate limits); a command, or an operation that redraws nothing, by a private
    line. Only a closed DM found at Join adds a private note after the redraw.
    """
    async with answering_click(interaction) as answer:
        try:
            done, note = await _run_op(hub, interaction, table_id, op, answer)
        except SessionError as exc:
            answer.stop_guard()
            await answer.settled()
            await refuse(interaction, exc)
            return
        answer.stop_guard()
        await answer.settled()
        if not answer.redrawn:
            await reply(interaction, done + (f"\n{note}" if note else ""))
        elif note:
            await reply(interaction, note)  # the redraw answered: a followup, only for closed DMs


async def _run_op(hub: TableHub, interaction: discord.Interaction, table_id: int, op: str,
                  answer: Answer) -> tuple[str, str]:
    """Run one lobby operation through the session, for ``answer`` (the lobby's redraw answers a
    press on it); return what it says privately, and a note (a closed DM found at Join). Raise
    SessionError when it is refused."""
    sessions = hub.bot.sessions
    user = interaction.user
    note = ""
    here = await table_for(interaction, table_id)
    if op == "join":
        table = await sessions.join(table_id, as_seat(user), origin=answer)
        renderer = hub.renderer(table)
        ok = not renderer.dm_prompts or await hub.private.check_dms(
            user, t("lobby.dm_ok", game=renderer.title(), channel=f"<#{table.channel_id}>"))
        done = t("lobby.joined")
        note = "" if ok else t("lobby.dm_closed")
    elif op == "leave":
        await sessions.leave(table_id, user.id, origin=answer)
        done = t("lobby.left")
    elif op == "start":
        await sessions.start(table_id, user.id, origin=answer)
        done = t("lobby.started")
    elif op == "cancel":
        await sessions.cancel(table_id, user.id, can_manage(interaction), origin=answer)
        done = t("lobby.cancelled")
    elif op == "ai-remove":
        await sessions.remove_ai(table_id, user.id, origin=answer)
        done = t("lobby.done")
    else:
        with hub.readers.publicly(here):  # a bot seat's name is read by the whole table
            await sessions.add_ai(table_id, user.id, op.removeprefix("ai-"), origin=answer)
        done = t("lobby.done")
    return done, note


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rematch:(?P<table>\d{1,18})"):
    """Opens a new lobby with the same seats and options (for anyone who played)."""

    def __init__(self, table_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or t("play.rematch"), style=discord.ButtonStyle.success,
                                           custom_id=f"rematch:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RematchButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the rematch lobby; say so privately."""
        hub = hub_of(interaction)
        async with answering_click(interaction) as answer:
            try:
                await hub.bot.sessions.rematch(self.table_id, interaction.user.id, place_of(interaction),
                                               origin=answer)
                text = t("play.rematch_open")
            except SessionError as exc:
                text = ""
                answer.stop_guard()
                await answer.settled()
                await refuse(interaction, exc)
            if text:  # a private line: the first response, unless the rematch took long
                answer.stop_guard()
                await answer.settled()
                await reply(interaction, text)


class Opener(Protocol):
    """What the replay cog (cogs.replay) offers the Replay button."""

    async def open(self, interaction: discord.Interaction, game_id: int, public: bool) -> None:
        """Open a game's replay at its start."""
        ...


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"replay-open:(?P<table>\d{1,18})"):
    """Opens the game's replay privately for whoever presses it. It sits beside Rematch on every
    summary; the replay itself is drawn by the replay cog, reached when pressed (the cog draws with
    the games' renderers, which post these summaries: importing it here would be a circle)."""

    def __init__(self, table_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or t("replay.button"), style=discord.ButtonStyle.secondary,
                                           custom_id=f"replay-open:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the game's replay at its start, privately."""
        cog = hub_of(interaction).bot.get_cog("Replays")
        if cog is None:  # a bot without the replay cog
            await reply(interaction, t("error.internal"))
            return
        await cast("Opener", cog).open(interaction, self.table_id, public=False)


DYNAMIC_ITEMS = (LobbyButton, RematchButton, ReplayButton)
"""The lobby's custom_id templates (registered once at start-up, with the move buttons')."""
