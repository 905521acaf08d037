"""What every game's Discord layer shares: the bot class, lobby, buttons, messages and errors.

One path for every game: a click or command -> cog -> ``Sessions`` (engine/session) -> engine ->
store -> render. The :class:`TableHub` is the session's listener: it draws the generic lobby
and hands play to the game's :class:`Renderer`. Buttons are ``DynamicItem``s whose custom_id
carries the table id (and, for moves, the decision window), so they work after a restart and a
stale click gets a private refusal. No rule lives here: legality is the session's and engine's.
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
from typing import Any, Protocol, TypeVar

import discord
from discord.ext import commands
from discord.http import handle_message_parameters

from cogs.i18n import t
from db.store import Store
from engine.core import Event
from engine.session import SeatSpec, SessionError, Sessions, Table, Update

__all__ = ["ActButton", "ActSelect", "LobbyButton", "PeekButton", "RematchButton", "Renderer", "TableBot", "TableHub"]

log = logging.getLogger(__name__)

COUNT_REFRESH_AFTER_S = 10.0
""""k of n have chosen" is redrawn only in a decision window open this long, then at most this
often: a quick card is drawn once, at its reveal (one public edit per card), while a table waiting
on a slow player sees how many have chosen, at the cost of one more edit per 10 s of waiting."""
ACK_GUARD_S = 1.5
"""A click is answered by its own redraw; if the move takes longer than this, it is deferred first
(Discord fails an interaction not answered within 3 s)."""

ANSWER: contextvars.ContextVar[Answer | None] = contextvars.ContextVar("table_answer", default=None)
"""The click being processed by this task, so the redraw of the pressed message can answer it."""


class Renderer(Protocol):
    """A game's drawing of the table: public messages, private prompts, the summary."""

    name: str  # engine name
    command: str  # slash group, e.g. "incan"

    def title(self) -> str:
        """Return the game's display name."""
        ...

    def options_text(self, table: Table) -> str:
        """Return the lobby's description of the chosen options."""
        ...

    async def played(self, hub: TableHub, update: Update) -> None:
        """Redraw after accepted actions; prompt the seats that owe a decision in a new window."""
        ...

    async def refresh(self, hub: TableHub, table: Table) -> None:
        """Redraw the public message (e.g. the count of decisions made)."""
        ...

    async def reminded(self, hub: TableHub, table: Table, seats: list[int]) -> None:
        """Remind seats privately that their decision timer is running out."""
        ...

    async def finished(self, hub: TableHub, table: Table, result: dict[str, Any]) -> None:
        """Show the final summary with a Rematch button."""
        ...

    def prompt(self, hub: TableHub, table: Table, seat: int) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return a seat's private state and its move buttons (DM or ephemeral)."""
        ...


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
            await self.interaction.response.edit_message(**fields)
        else:
            await self.settled()
            await self.interaction.edit_original_response(**fields)

    async def defer(self) -> None:
        """Acknowledge without changing the pressed message (when nothing answered it yet)."""
        if self._claim():
            await self.interaction.response.defer()


def _answering(message_id: int) -> Answer | None:
    """Return the click this task is processing when it was pressed on ``message_id``."""
    answer = ANSWER.get()
    return answer if answer is not None and answer.message_id == message_id else None


class TableBot(commands.Bot):
    """The bot: discord.py's Bot plus the store, the sessions and the hub (set in setup_hook)."""

    store: Store
    sessions: Sessions
    hub: TableHub


# --------------------------------------------------------------------------- the hub


class TableHub:
    """The session listener: keeps track of the bot's messages and routes drawing to renderers."""

    def __init__(self, bot: TableBot, store: Store) -> None:
        self.bot = bot
        self.store = store
        self.renderers: dict[str, Renderer] = {}
        self.no_dm: set[int] = set()  # users whose DMs are closed: they choose via ephemeral prompts
        self._messages: dict[tuple[int, str, int | None], tuple[int, int]] = {}
        self._loaded: set[int] = set()  # tables whose recorded messages were read from the store
        self._shown: dict[tuple[int, str, int | None], str] = {}  # what each message shows now
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id (saves a lookup per DM)
        self._refresh_armed: dict[int, int] = {}  # table id -> the window a count redraw is armed for
        self._refreshed_at: dict[int, float] = {}  # table id -> when its count was last redrawn

    def register(self, renderer: Renderer) -> None:
        """Add a game's renderer."""
        self.renderers[renderer.name] = renderer

    def renderer(self, table: Table) -> Renderer:
        """Return the renderer of a table's game."""
        return self.renderers[table.spec.name]

    # ------------------------------------------------------------------ messages

    async def message_ref(self, table: Table, kind: str, seat: int | None = None) -> tuple[int, int] | None:
        """Return (channel id, message id) of a recorded message, loading the store after a restart."""
        key = (table.id, kind, seat)
        if key not in self._messages and table.id not in self._loaded:
            self._loaded.add(table.id)
            for row in await self.store.messages(table.id):
                self._messages.setdefault((table.id, row.kind, row.seat), (row.channel_id, row.message_id))
        return self._messages.get(key)

    async def remember(self, table: Table, kind: str, message: discord.Message, seat: int | None = None) -> None:
        """Record a message so it can be edited later (also after a restart)."""
        self._messages[(table.id, kind, seat)] = (message.channel.id, message.id)
        await self.store.set_message(table.id, kind, message.channel.id, message.id, seat=seat)

    async def post(self, table: Table, kind: str, *, seat: int | None = None, new: bool = False,
                   **fields: Any) -> discord.Message | None:
        """Edit the recorded channel message of ``kind`` (or send it when missing or ``new``); return a sent message."""
        ref = None if new else await self.message_ref(table, kind, seat)
        channel = self.bot.get_partial_messageable(table.channel_id)
        key = (table.id, kind, seat)
        shown = _signature(fields)
        try:
            if ref is not None:
                if shown is not None and self._shown.get(key) == shown:
                    return None  # the message already shows exactly this: no edit
                await self._edit(ref, fields)
                self._remember_shown(key, shown)
                return None
            message = await channel.send(**fields)
        except discord.NotFound:
            if ref is None:
                raise
            # The old message was deleted: post a fresh one (a send takes files, not attachments).
            resend = dict(fields)
            if "attachments" in resend:
                resend["files"] = resend.pop("attachments")
            message = await channel.send(**resend)
        except discord.Forbidden:
            log.warning("table %s: no permission to post in channel %s", table.id, table.channel_id)
            return None
        self._remember_shown(key, shown)
        await self.remember(table, kind, message, seat)
        return message

    async def _edit(self, ref: tuple[int, int], fields: dict[str, Any]) -> None:
        """Edit a recorded message; when it is the one the current click pressed, answer the click with it."""
        answer = _answering(ref[1])
        if answer is not None:
            try:
                await answer.edit(**fields)
                return None
            except discord.NotFound:
                pass  # the interaction expired (the bot was very late): a plain edit still works
        # Straight to the REST call: PartialMessage.edit would also build a Message from Discord's
        # reply (about a tenth of the bot's CPU under load) that nothing here reads, and register
        # the view, which DynamicItems (every component of this bot) do not need.
        mentions = self.bot.allowed_mentions if "content" in fields else None
        with handle_message_parameters(previous_allowed_mentions=mentions, **fields) as params:
            await self.bot.http.edit_message(ref[0], ref[1], params=params)
        return None

    def _remember_shown(self, key: tuple[int, str, int | None], shown: str | None) -> None:
        if shown is None:
            self._shown.pop(key, None)
        else:
            self._shown[key] = shown

    async def dm(self, table: Table, seat: int, *, new: bool = False, **fields: Any) -> bool:
        """Send or edit a seat's DM prompt; return False when the user's DMs are closed."""
        user_id = table.seats[seat].user_id
        if user_id is None or user_id in self.no_dm:
            return False
        ref = None if new else await self.message_ref(table, "dm", seat)
        key = (table.id, "dm", seat)
        shown = _signature(fields)
        try:
            if ref is not None:
                if shown is not None and self._shown.get(key) == shown:
                    return True
                await self._edit(ref, fields)
                self._remember_shown(key, shown)
                return True
            known = self._dm_channels.get(user_id)
            if known is not None:
                message = await self.bot.get_partial_messageable(known).send(**fields)
            else:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                message = await user.send(**fields)
                self._dm_channels[user_id] = message.channel.id
        except discord.Forbidden:
            self.no_dm.add(user_id)
            return False
        except discord.NotFound:
            if ref is None:
                raise
            return await self.dm(table, seat, new=True, **fields)
        self._remember_shown(key, shown)
        await self.remember(table, "dm", message, seat)
        return True

    async def remind_privately(self, table: Table, seats: Sequence[int]) -> None:
        """DM each seat how long is left to decide (public reminders would tell who has not chosen)."""
        left = int(max(0.0, (table.deadline or 0) - self.bot.sessions.clock.now()))
        for seat in seats:
            user_id = table.seats[seat].user_id
            if user_id is None or user_id in self.no_dm:
                continue
            text = t("play.timeout_reminder", names=table.seats[seat].display_name, seconds=left)
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            try:
                await user.send(text)
            except discord.Forbidden:
                self.no_dm.add(user_id)

    async def past_events(self, table: Table, upto: int) -> list[list[Event]]:
        """Return the events of the first ``upto`` stored actions, by replay (rebuilds a log after a restart)."""
        game = table.spec.game
        state = game.setup(len(table.seats), table.seed or 0, table.options)
        out = []
        for row in (await self.store.actions(table.id))[:upto]:
            state, events = game.apply(state, row.seat, row.payload)
            out.append(events)
        return out

    async def check_dm(self, user: discord.User | discord.Member, text: str) -> bool:
        """Send a DM to check that the user accepts them; remember when they do not."""
        try:
            await user.send(text)
        except discord.Forbidden:
            self.no_dm.add(user.id)
            return False
        self.no_dm.discard(user.id)
        return True

    def schedule_refresh(self, table: Table) -> None:
        """Redraw the public message once for a burst of decisions, if the window stays open long."""
        window = table.window
        if self._refresh_armed.get(table.id) == window:
            return
        self._refresh_armed[table.id] = window
        clock = self.bot.sessions.clock

        async def fire() -> None:
            if self._refresh_armed.get(table.id) == window:
                del self._refresh_armed[table.id]
            live = self.bot.sessions.tables.get(table.id)
            if live is not None and live.status == "playing" and live.window == window:
                async with live.lock:
                    if live.window == window:  # a reveal meanwhile redrew the message already
                        self._refreshed_at[table.id] = clock.now()
                        await self.renderer(live).refresh(self, live)

        last = self._refreshed_at.get(table.id, float("-inf"))
        due = max(clock.now(), table.opened_at + COUNT_REFRESH_AFTER_S, last + COUNT_REFRESH_AFTER_S)
        # In table.timers: a new window cancels it (that window's redraw shows the count anyway).
        table.timers.append(clock.call_at(due, fire))

    # ------------------------------------------------------------------ lobby drawing

    def lobby_embed(self, table: Table) -> discord.Embed:
        """Return the lobby embed: seats, host, options."""
        renderer = self.renderer(table)
        embed = discord.Embed(title=t("lobby.title", game=renderer.title()), colour=discord.Colour.gold())
        names = [seat_label(s) for s in table.seats] or [t("lobby.empty")]
        embed.add_field(name=t("lobby.seats", count=len(table.seats), max=table.spec.max_players),
                        value="\n".join(names), inline=True)
        embed.add_field(name=t("lobby.options"), value=renderer.options_text(table), inline=True)
        host = next((s.display_name for s in table.seats if s.user_id == table.host_id), "?")
        hint = t("lobby.hint")
        if len(table.seats) == 2 and table.spec.min_players == 2 and table.spec.max_players > 4:
            hint += "\n" + t("lobby.two_players")
        embed.description = f"{t('lobby.host', host=host)}\n{hint}"
        return embed

    def lobby_view(self, table: Table) -> discord.ui.View:
        """Return the lobby buttons (persistent: they carry the table id)."""
        view = discord.ui.View(timeout=None)
        for op, style in (("join", discord.ButtonStyle.success), ("leave", discord.ButtonStyle.secondary),
                          ("start", discord.ButtonStyle.primary), ("cancel", discord.ButtonStyle.danger)):
            view.add_item(LobbyButton(table.id, op, t(f"lobby.{op}"), style, row=0))
        for level in table.spec.agents:
            view.add_item(LobbyButton(table.id, f"ai-{level}", t("lobby.add_bot", level=level),
                                      discord.ButtonStyle.secondary, row=1))
        view.add_item(LobbyButton(table.id, "ai-remove", t("lobby.remove_bot"), discord.ButtonStyle.secondary,
                                  row=1))
        return view

    # ------------------------------------------------------------------ Listener

    async def lobby_changed(self, table: Table) -> None:
        """Redraw the lobby message."""
        await self.post(table, "lobby", embed=self.lobby_embed(table), view=self.lobby_view(table))

    async def started(self, table: Table) -> None:
        """Freeze the lobby message: the seats are final."""
        embed = self.lobby_embed(table)
        embed.description = t("lobby.started")
        await self.post(table, "lobby", embed=embed, view=None)

    async def played(self, update: Update) -> None:
        """Let the game's renderer draw the update."""
        await self.renderer(update.table).played(self, update)

    async def reminded(self, table: Table, seats: list[int]) -> None:
        """Let the game's renderer remind the seats privately."""
        await self.renderer(table).reminded(self, table, seats)

    async def finished(self, table: Table, result: dict[str, Any]) -> None:
        """Let the game's renderer draw the summary."""
        self._refresh_armed.pop(table.id, None)
        self._refreshed_at.pop(table.id, None)
        await self.renderer(table).finished(self, table, result)

    async def ended(self, table: Table, reason: str) -> None:
        """Close the table's messages after a cancel or an unreadable save."""
        self._refresh_armed.pop(table.id, None)
        self._refreshed_at.pop(table.id, None)
        key = {"cancelled": "lobby.cancelled", "empty": "lobby.closed_empty"}.get(reason, "lobby.abandoned")
        embed = discord.Embed(title=self.renderer(table).title(), description=t(key),
                              colour=discord.Colour.dark_grey())
        await self.post(table, "lobby", embed=embed, view=None)


def _signature(fields: dict[str, Any]) -> str | None:
    """Return what a message with these fields shows, to skip edits that change nothing
    (None when files are involved: attachments are always sent)."""
    if {"file", "files", "attachments"} & fields.keys():
        return None
    embed = fields.get("embed")
    embeds = fields.get("embeds") or []
    view = fields.get("view")
    shown = {
        "content": fields.get("content"),
        "embeds": [e.to_dict() for e in ([embed] if embed is not None else []) + list(embeds)],
        "view": view.to_components() if isinstance(view, discord.ui.View) else None,
    }
    return json.dumps(shown, sort_keys=True, default=str)


def seat_label(seat: SeatSpec) -> str:
    """Return how a seat is named at the table (bots tagged)."""
    return f"🤖 {seat.display_name}" if seat.is_ai else seat.display_name


def seat_names(table: Table, seats: Sequence[int]) -> str:
    """Return seat names joined for a sentence."""
    names = [table.seats[s].display_name for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return t("play.and", first=", ".join(names[:-1]), last=names[-1])


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
    bot = interaction.client
    assert isinstance(bot, TableBot)
    return bot.hub


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
            log.exception("button %s failed", interaction.data and interaction.data.get("custom_id"))
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
        if seat is not None and update.new_window and seat in table.humans_owing() and not ephemeral:
            await answer.defer()  # the renderer already sent this seat its next prompt
        elif seat is not None and table.status == "playing":
            embed, view = hub.renderer(table).prompt(hub, table, seat)
            await answer.edit(embed=embed, view=view)
        else:
            await answer.edit(view=None)
    finally:
        guard.cancel()
        ANSWER.reset(token)


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
