"""The bot's buttons and menus, and the private answers to them (shared by every game).

Every component is a ``DynamicItem`` whose custom_id carries the table id (and, for moves, the
decision window and the action), so buttons keep working after a restart and a stale or repeated
click gets a private refusal instead of an effect. A move is committed by the session before
anything is shown, and the click is answered by the redraw of the pressed message itself (one
REST call; see :class:`Answer`). Errors are answered privately and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import json
import logging
import re
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord

from cogs.i18n import t
from engine.session import SeatSpec, SessionError

if TYPE_CHECKING:
    from cogs.table.hub import TableBot, TableHub

__all__ = ["DYNAMIC_ITEMS", "ActButton", "ActSelect", "Answer", "LobbyButton", "PeekButton", "RematchButton",
           "act_and_confirm", "answering", "guarded", "hub_of", "refuse", "reply"]

log = logging.getLogger(__name__)

ACK_GUARD_S = 1.5
"""A click is answered by its own redraw; if the move takes longer than this, it is deferred first
(Discord fails an interaction not answered within 3 s)."""

ANSWER: contextvars.ContextVar[Answer | None] = contextvars.ContextVar("table_answer", default=None)
"""The click being processed by this task, so the redraw of the pressed message can answer it."""


class Answer:
    """A button press not answered yet: the first redraw of the pressed message answers it.

    Discord wants exactly one response per interaction within 3 s. Answering with the redraw itself
    (an UPDATE_MESSAGE callback) instead of a defer followed by an edit halves a click's REST calls;
    if the move is slow, :meth:`guard` defers in time and later redraws edit the original response.
    """

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.message_id = interaction.message.id if interaction.message is not None else None
        self.claimed = False
        self.used = False  # a redraw of the pressed message went through this answer
        self.closed = False  # the click's handler is done: timers it armed must not answer through it
        self._deferring: asyncio.Future[Any] | None = None

    def _claim(self) -> bool:
        """Take the one response (synchronously, so a concurrent guard cannot also take it)."""
        if self.claimed:
            return False
        self.claimed = True
        return True

    def guard(self) -> None:
        """Defer now unless already answered (a timer callback: the move is taking long)."""
        if self._claim():
            self._deferring = asyncio.ensure_future(self.interaction.response.defer())

    async def settled(self) -> None:
        """Wait for a deferral the guard started, so followups come after it."""
        if self._deferring is not None:
            with contextlib.suppress(discord.HTTPException):
                await self._deferring

    async def edit(self, **fields: Any) -> None:
        """Show ``fields`` on the pressed message: as the response if still possible, else an edit."""
        if self._claim():
            try:
                await self.interaction.response.edit_message(**fields)
            except discord.HTTPException:
                if not self.interaction.response.is_done():
                    self.claimed = False  # not answered after all: a later defer still can
                raise
        else:
            await self.settled()
            await self.interaction.edit_original_response(**fields)
        self.used = True

    async def defer(self) -> None:
        """Acknowledge without changing the pressed message (when nothing answered it yet)."""
        if self._claim():
            await self.interaction.response.defer()
        else:
            await self.settled()


def answering(message_id: int) -> Answer | None:
    """Return the click this task is processing when it was pressed on ``message_id``."""
    answer = ANSWER.get()
    # closed: a timer armed during the click copied this context; its redraws are plain edits.
    return answer if answer is not None and not answer.closed and answer.message_id == message_id else None


# --------------------------------------------------------------------------- errors


async def refuse(interaction: discord.Interaction, error: SessionError, command: str = "") -> None:
    """Answer privately with the translated reason; nothing was changed."""
    text = t(f"error.{error.code}", interaction.locale.value, command=command,
             **{k: (", ".join(v) if isinstance(v, list) else v) for k, v in error.details.items()})
    await reply(interaction, text)


async def reply(interaction: discord.Interaction, text: str, **fields: Any) -> None:
    """Send a private reply, as a followup when the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **fields)
    else:
        await interaction.response.send_message(text, ephemeral=True, **fields)


def hub_of(interaction: discord.Interaction) -> TableHub:
    """Return the hub of the bot that received the interaction."""
    return cast("TableBot", interaction.client).hub


def can_manage(interaction: discord.Interaction) -> bool:
    """Return True when the member may manage the server (may cancel any table)."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def as_seat(user: discord.abc.User) -> SeatSpec:
    """Return the seat spec of a Discord user."""
    return SeatSpec(user.display_name, user_id=user.id)


# --------------------------------------------------------------------------- buttons

ItemT = TypeVar("ItemT")


def guarded(
    callback: Callable[[ItemT, discord.Interaction], Coroutine[Any, Any, None]],
) -> Callable[[ItemT, discord.Interaction], Coroutine[Any, Any, None]]:
    """Wrap a button callback: an unexpected error is logged and answered privately, never silent."""

    @functools.wraps(callback)
    async def wrapper(item: ItemT, interaction: discord.Interaction) -> None:
        try:
            await callback(item, interaction)
        except Exception:
            # Without the action part: a move's custom_id names a secret choice ("act:7:12:\"torch\"").
            data: dict[str, Any] = dict(interaction.data or {})
            custom_id = str(data.get("custom_id", ""))
            log.exception("button %s failed", ":".join(custom_id.split(":", 3)[:3]))
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, t("error.internal"))

    return wrapper



def encode_action(action: Any) -> str:
    """Return the custom_id part naming an action (compact JSON; actions are small JSON values)."""
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def decode_action(code: str) -> Any:
    """Return the action named in a custom_id part (untrusted input: the session re-checks it)."""
    return json.loads(code)


class ActButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"act:(?P<table>\d+):(?P<window>\d+):(?P<code>.+)"):
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
    answer = Answer(interaction)
    token = ANSWER.set(answer)
    guard = asyncio.get_running_loop().call_later(ACK_GUARD_S, answer.guard)
    try:
        try:
            update = await hub.bot.sessions.act(table_id, interaction.user.id, window, action)
        except SessionError as exc:
            guard.cancel()
            await answer.settled()
            await refuse(interaction, exc)
            return
        table = update.table
        seat = table.seat_of(interaction.user.id)
        ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        if answer.used or (seat is not None and update.new_window and seat in table.humans_owing()
                           and not ephemeral):
            await answer.defer()  # the renderer already redrew the pressed message or sent the next prompt
        elif seat is not None and table.status == "playing":
            embed, view = hub.renderer(table).prompt(hub, table, seat)
            await answer.edit(embed=embed, view=view)
        else:
            await answer.edit(view=None)
    finally:
        guard.cancel()
        answer.closed = True
        ANSWER.reset(token)
        await answer.settled()  # an error answered by `guarded` must come after a deferral in flight


class ActSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                template=r"pick:(?P<table>\d+):(?P<window>\d+)(?::(?P<tag>[a-z0-9_-]+))?"):
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


class PeekButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"peek:(?P<table>\d+)"):
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
            table = hub.bot.sessions.table(self.table_id)
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


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"lobby:(?P<table>\d+):(?P<op>join|leave|start|cancel|ai-[a-z]+)"):
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
    """Run one lobby operation for the interaction's user (shared by buttons and slash commands)."""
    sessions = hub.bot.sessions
    user = interaction.user
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        if op == "join":
            table = await sessions.join(table_id, as_seat(user))
            ok = await hub.check_dm(user, t("lobby.dm_ok", game=hub.renderer(table).title(),
                                            channel=f"<#{table.channel_id}>"))
            await reply(interaction, t("lobby.joined") + ("" if ok else "\n" + t("lobby.dm_closed")))
        elif op == "leave":
            await sessions.leave(table_id, user.id)
            await reply(interaction, t("lobby.left"))
        elif op == "start":
            await sessions.start(table_id, user.id)
            await reply(interaction, t("lobby.started"))
        elif op == "cancel":
            await sessions.cancel(table_id, user.id, can_manage(interaction))
            await reply(interaction, t("lobby.cancelled"))
        elif op == "ai-remove":
            await sessions.remove_ai(table_id, user.id)
            await reply(interaction, t("lobby.done"))
        else:
            await sessions.add_ai(table_id, user.id, op.removeprefix("ai-"))
            await reply(interaction, t("lobby.done"))
    except SessionError as exc:
        await refuse(interaction, exc)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rematch:(?P<table>\d+)"):
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
        """Open the rematch lobby."""
        hub = hub_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await hub.bot.sessions.rematch(self.table_id, interaction.user.id)
        except SessionError as exc:
            await refuse(interaction, exc)
            return
        await reply(interaction, t("play.rematch_open"))


DYNAMIC_ITEMS = (ActButton, ActSelect, PeekButton, LobbyButton, RematchButton)
"""Registered once in setup_hook: every custom_id template the bot has ever used."""
