"""The bot's buttons and menus, and the private answers to them (shared by every game).

Every component is a ``DynamicItem`` whose custom_id carries the table id (and, for moves, the
decision window and the action), so buttons keep working after a restart and a stale or repeated
click gets a private refusal instead of an effect. A move is committed by the session before
anything is shown. The handler hands the click to the session call as its ``origin``, which comes
back with the call's update, so the renderer's redraw of the pressed message answers it (one REST
call; see :mod:`cogs.table.answer`); otherwise :func:`confirm_move` answers it from the update.
Errors are answered privately and change nothing.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import re
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar, cast

import discord

from cogs.table.answer import Answer, answering_click
from cogs.table.controls.gate import Tree, admit, claim, throttled, turn_away, unreachable
from cogs.table.messages.hub import TableBot, TableHub
from engine.session import Place, SeatSpec, SessionError, Table, Update
from i18n import t
from i18n.names import visible

__all__ = ["DYNAMIC_ITEMS", "ActButton", "ActSelect", "PeekButton", "act_and_confirm", "as_seat", "can_manage",
           "confirm_move", "control_for", "decode_action", "encode_action", "guarded", "hub_of", "place_of", "refuse",
           "refuse_press", "reply", "table_for"]

log = logging.getLogger(__name__)



# --------------------------------------------------------------------------- errors


async def refuse(interaction: discord.Interaction, error: SessionError, command: str = "") -> None:
    """Answer privately with the translated reason; nothing was changed."""
    text = t(f"error.{error.code}", interaction.locale.value, command=command,
             **{k: (", ".join(v) if isinstance(v, list) else v) for k, v in error.details.items()})
    await reply(interaction, text)


async def refuse_press(interaction: discord.Interaction, table_id: int, error: SessionError,
                       answer: Answer | None = None) -> None:
    """Refuse a press privately. A stale press on a private panel (an ephemeral prompt, perhaps
    opened long ago: its click is a new interaction, with a fresh token) is answered with that
    panel redrawn as the game stands now, the refusal on top: a fresh panel to act on. A stale
    press on the table's public board is answered with the board redrawn as the game stands
    (:meth:`~cogs.table.messages.hub.TableHub.redraw_board`), and the refusal privately after it:
    the board is again the place to act. ``answer``: the press's answer, when its handler has one."""
    hub = hub_of(interaction)
    message = interaction.message
    table = hub.bot.sessions.loaded(table_id)
    seat = None if table is None else table.seat_of(interaction.user.id)
    if (error.code == "stale" and message is not None and message.flags.ephemeral and table is not None
            and seat is not None and table.status == "playing" and not interaction.response.is_done()):
        embed, view = hub.renderer(table).prompt(hub, table, seat)
        await interaction.response.edit_message(content=t("error.stale"), embed=embed, view=view)
        return
    if (error.code == "stale" and message is not None and not message.flags.ephemeral and table is not None
            and seat is not None and await _board_redrawn(hub, table, interaction, answer)):
        await refuse(interaction, error)  # a followup: the board's redraw was the press's answer
        return
    already = None
    if error.code == "not_your_turn" and table is not None and seat is not None and table.status == "playing":
        already = hub.renderer(table).already(hub, table, seat)
    if already is not None and table is not None and seat is not None:
        # A repeated press: what they chose, on their private panel when it can be redrawn (this
        # press then leaves no message of its own), else in a private reply.
        embed, view = hub.renderer(table).prompt(hub, table, seat)
        if not interaction.response.is_done() and await hub.panels.redraw_reply(
                table.id, interaction.user.id, {"content": already, "embed": embed, "view": view}):
            await interaction.response.defer()
            return
        await reply(interaction, already)
        return
    await refuse(interaction, error)


async def _board_redrawn(hub: TableHub, table: Table, interaction: discord.Interaction,
                         answer: Answer | None) -> bool:
    """Redraw the table's board through this stale press on it, with the press's answer or one of
    its own; False when the press was not on the board or the board was current already."""
    if answer is not None:
        return await hub.redraw_board(table, answer)
    async with answering_click(interaction) as own:
        return await hub.redraw_board(table, own)


async def reply(interaction: discord.Interaction, text: str | None, **fields: Any) -> None:
    """Send a private reply, as a followup when the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text or discord.utils.MISSING, ephemeral=True, **fields)
    else:
        await interaction.response.send_message(text, ephemeral=True, **fields)


def hub_of(interaction: discord.Interaction) -> TableHub:
    """Return the hub of the bot that received the interaction."""
    return cast("TableBot", interaction.client).hub


def can_manage(interaction: discord.Interaction) -> bool:
    """Return True when the member may manage the server (may cancel any table)."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def place_of(interaction: discord.Interaction) -> Place:
    """Return where the interaction was made: its server and channel, or a DM (no server)."""
    return Place(interaction.guild_id, interaction.channel_id)


async def table_for(interaction: discord.Interaction, table_id: int) -> Table:
    """Return the live table a component names, if the interaction may reach it from where it was
    made (its channel, or a seated player's DM); else raise SessionError ("gone", "not_valid").

    The id comes from a custom_id, which a modified client can forge: a Cancel naming another
    server's table, pressed where the presser manages the server, must change nothing.
    """
    sessions = hub_of(interaction).bot.sessions
    table = await sessions.table(table_id)
    table.check_place(place_of(interaction), interaction.user.id)
    await sessions.seen(table.id, interaction.user.id)  # a click of a person away gives them their seat back
    return table


def as_seat(user: discord.abc.User) -> SeatSpec:
    """Return the seat spec of a Discord user, named by what can be seen of their display name (an
    invisible one falls back to the username, which Discord keeps to visible letters)."""
    return SeatSpec(visible(user.display_name) or user.name, user_id=user.id)


# --------------------------------------------------------------------------- buttons

ItemT = TypeVar("ItemT")


def guarded(
    callback: Callable[[ItemT, discord.Interaction], Coroutine[Any, Any, None]],
) -> Callable[[ItemT, discord.Interaction], Coroutine[Any, Any, None]]:
    """Wrap a button callback: it claims the interaction (see :func:`cogs.table.controls.gate.claim`), is
    turned away while the bot shuts down (:func:`cogs.table.controls.gate.admit`); an unexpected error is
    logged and answered privately, never silent."""

    @functools.wraps(callback)
    async def wrapper(item: ItemT, interaction: discord.Interaction) -> None:
        hub_of(interaction).readers.saw(interaction)  # private answers in the clicker's language
        claim(interaction)  # before any await: the gate's catch-all must see it taken
        bot = hub_of(interaction).bot
        if not admit(bot):
            await turn_away(interaction)
            return
        if isinstance(bot.tree, Tree) and await throttled(interaction, bot.tree):
            return
        try:
            await callback(item, interaction)
        except Exception as exc:
            # Without the action part: a move's custom_id names a secret choice ("act:7:12:\"torch\"").
            data: dict[str, Any] = dict(interaction.data or {})
            custom_id = ":".join(str(data.get("custom_id", "")).split(":", 3)[:3])
            if unreachable(exc):  # an outage, not a bug: no traceback, and the user may try again
                log.warning("button %s: the database is unreachable; answered 'reconnecting'", custom_id)
                with contextlib.suppress(discord.HTTPException):
                    await reply(interaction, t("error.reconnecting", interaction.locale.value))
                return
            log.exception("button %s failed", custom_id)
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, t("error.internal"))

    return wrapper



def encode_action(action: Any) -> str:
    """Return the custom_id part naming an action (compact JSON; actions are small JSON values)."""
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def decode_action(code: str) -> Any:
    """Return the action named in a custom_id part (untrusted input: the session re-checks it)."""
    return json.loads(code)


def control_for(view: discord.ui.View | None, action: Any) -> tuple[str, str | None] | None:
    """Return where ``action`` is on a drawn view: (custom_id, None) of its button, or (custom_id,
    value) of the menu offering it; None when the view does not show it."""
    code = encode_action(action)
    for item in view.children if view is not None else []:
        if isinstance(item, ActButton) and str(item.item.custom_id).split(":", 3)[3] == code:
            return str(item.item.custom_id), None
        if isinstance(item, ActSelect) and any(o.value == code for o in item.item.options):
            return str(item.item.custom_id), code
    return None


class ActButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"act:(?P<table>\d{1,18}):(?P<window>\d{1,18}):(?P<code>.+)"):
    """A move: table id, decision window and the action itself live in the custom_id."""

    def __init__(self, table_id: int, window: int, action: Any, label: str,
                 style: discord.ButtonStyle = discord.ButtonStyle.primary, row: int | None = None,
                 emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, row=row, emoji=emoji,
                                           custom_id=f"act:{table_id}:{window}:{encode_action(action)}"))
        self.table_id, self.window, self.action = table_id, window, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActButton:
        """Rebuild the button from its custom_id."""
        try:
            action = decode_action(match["code"])
        except ValueError:
            action = None  # a forged id: the session refuses it as illegal
        return cls(int(match["table"]), int(match["window"]), action, "")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Apply the move (committed before anything is shown), then confirm privately."""
        await act_and_confirm(interaction, self.table_id, self.window, self.action)


async def act_and_confirm(interaction: discord.Interaction, table_id: int, window: int, action: Any) -> None:
    """Apply a move for the clicker (committed first); answer the click with the redraw of the
    pressed message, made by the renderer or, failing that, here."""
    hub = hub_of(interaction)
    async with answering_click(interaction) as answer:
        try:
            await table_for(interaction, table_id)
            # The click goes with the call: the renderer's redraw of the pressed message answers it.
            update = await hub.bot.sessions.act(table_id, interaction.user.id, window, action, origin=answer)
        except SessionError as exc:
            answer.stop_guard()
            await answer.settled()
            await refuse_press(interaction, table_id, exc, answer)
            return
        await confirm_move(hub, interaction, answer, update)


async def confirm_move(hub: TableHub, interaction: discord.Interaction, answer: Answer, update: Update) -> None:
    """Answer a move's click from the session's update, unless the redraw of the pressed message did:
    a private prompt for a press on a message everyone sees, a deferral when the next prompt is a
    new message, else the clicker's prompt (or no controls) on the pressed message."""
    table = update.table
    seat = table.seat_of(interaction.user.id)
    message = interaction.message
    ephemeral = message is not None and message.flags.ephemeral
    shared = message is not None and not ephemeral and interaction.guild_id is not None
    if answer.redrawn:
        await answer.defer()  # the renderer's redraw of the pressed message was the answer
    elif shared:
        # A move pressed on a message everyone sees (Incan Gold's Torch / Camp) that did not
        # change it: confirm privately, with the player's own prompt (they may change their mind).
        answer.stop_guard()
        await answer.settled()
        if seat is not None and table.status == "playing":
            embed, view = hub.renderer(table).prompt(hub, table, seat)
            first = not interaction.response.is_done()
            # One private panel a player: the one this player has is redrawn through its own click
            # (an interaction call), and this press is acknowledged without a new message.
            if first and await hub.panels.redraw_reply(table.id, interaction.user.id,
                                                       {"content": None, "embed": embed, "view": view}):
                await answer.defer()
                return
            await reply(interaction, None, embed=embed, **({"view": view} if view is not None else {}))
            if first:  # the reply is the original response: it can be redrawn later
                hub.panels.replied(table.id, interaction)
        else:
            await answer.defer()
    elif seat is not None and update.new_window and seat in table.humans_owing() and not ephemeral:
        await answer.defer()  # the renderer sent the next prompt as a new message
    elif seat is not None and table.status == "playing":
        embed, view = hub.renderer(table).prompt(hub, table, seat)
        await answer.edit(embed=embed, view=view)
    else:
        await answer.edit(view=None)


class ActSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                template=r"pick:(?P<table>\d{1,18}):(?P<window>\d{1,18})(?::(?P<tag>[a-z0-9_-]+))?"):
    """A move chosen from a menu (up to 25 options): each option's value is the action itself."""

    def __init__(self, table_id: int, window: int, options: Sequence[tuple[str, Any]], placeholder: str = "",
                 tag: str = "", row: int | None = None) -> None:
        suffix = f":{tag}" if tag else ""
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"pick:{table_id}:{window}{suffix}", placeholder=placeholder or None, row=row,
            options=[discord.SelectOption(label=label[:100], value=encode_action(action))
                     for label, action in options[:25]])
        super().__init__(select)
        self.table_id, self.window = table_id, window

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActSelect:
        """Rebuild the menu from its custom_id (the chosen value arrives with the interaction)."""
        return cls(int(match["table"]), int(match["window"]), [], tag=match["tag"] or "")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Apply the chosen move exactly like a button press."""
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or []
        try:
            action = decode_action(str(values[0])) if values else None
        except ValueError:
            action = None
        await act_and_confirm(interaction, self.table_id, self.window, action)


class PeekButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"peek:(?P<table>\d{1,18})"):
    """Opens a private prompt with the clicker's own state and moves (the closed-DM path)."""

    def __init__(self, table_id: int, label: str) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"peek:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PeekButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]), "")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the clicker's private prompt, ephemerally."""
        hub = hub_of(interaction)
        try:
            table = await table_for(interaction, self.table_id)
            seat = table.seat_of(interaction.user.id)
            if seat is None or table.status != "playing":
                raise SessionError("not_seated" if seat is None else "not_playing")
        except SessionError as exc:
            await refuse(interaction, exc)
            return
        embed, view = hub.renderer(table).prompt(hub, table, seat)
        if view is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        hub.panels.replied(table.id, interaction)  # their private status: redrawn when it changes


DYNAMIC_ITEMS = (ActButton, ActSelect, PeekButton)
"""The move buttons' custom_id templates (registered once at start-up, with the lobby's)."""
