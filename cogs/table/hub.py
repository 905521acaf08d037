"""The hub every game's renderer draws through: the bot's messages and DMs, kept track of.

One path for every game: a click or command -> cog -> ``Sessions`` (engine/session) -> engine ->
store -> render. :class:`TableHub` records the bot's messages (edited in place, also after a
restart), sends and edits DM prompts, answers a click with the redraw of the message it pressed
(:mod:`cogs.table.answer`) and holds each game's :class:`Renderer`. The session's listener is
:class:`cogs.table.listener.TableListener`; the lobby is drawn in :mod:`cogs.table.lobby`, the
buttons are in :mod:`cogs.table.buttons`. No rule lives here: legality is the session's and engine's.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any, Protocol

import discord
from discord.ext import commands
from discord.http import handle_message_parameters

from cogs.i18n import t
from cogs.table.answer import answering
from cogs.table.readers import Readers
from db.store import Store
from engine.core import Event
from engine.session import Sessions, Table, Update

__all__ = ["COUNT_REFRESH_AFTER_S", "Renderer", "TableBot", "TableHub"]

log = logging.getLogger(__name__)

COUNT_REFRESH_AFTER_S = 30.0
""""k of n have chosen" is redrawn only in a decision window open this long, then at most this
often. A card decided at a normal pace is drawn once, at its reveal (the budget is one public edit
per card: with 5-30 s decisions a 10 s threshold cost 1.2 extra edits per card), while a table
stuck on a slow player sees how many have chosen; that player is also reminded privately."""
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


class TableBot(commands.Bot):
    """The bot: discord.py's Bot plus the store, the sessions and the hub (set in its constructor)."""

    store: Store
    sessions: Sessions
    hub: TableHub

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.dynamic_items: list[type[discord.ui.DynamicItem[Any]]] = []
        """Every component class registered: a custom_id matching none is crafted (tests fuzz each)."""

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register component classes (their custom_id templates), and keep the list."""
        super().add_dynamic_items(*items)
        self.dynamic_items.extend(item for item in items if item not in self.dynamic_items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Unregister component classes."""
        super().remove_dynamic_items(*items)
        self.dynamic_items = [item for item in self.dynamic_items if item not in items]


# --------------------------------------------------------------------------- the hub


class TableHub:
    """Keeps track of the bot's messages and DMs; holds each game's renderer."""

    def __init__(self, bot: TableBot, store: Store) -> None:
        self.bot = bot
        self.store = store
        self.renderers: dict[str, Renderer] = {}
        self.readers = Readers(bot)  # who reads which language
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
        answer = answering(ref[1])
        if answer is not None:
            try:
                await answer.edit(**fields)
                return None
            except discord.NotFound:
                # The interaction expired (the bot was very late): a plain edit still works, with
                # any image rewound (the failed request read it).
                for item in fields.get("attachments") or []:
                    if isinstance(item, discord.File):
                        item.reset()
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
            with self.readers.privately(table, seat):
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
                        with self.readers.publicly(live):
                            await self.renderer(live).refresh(self, live)

        last = self._refreshed_at.get(table.id, float("-inf"))
        due = max(clock.now(), table.opened_at + COUNT_REFRESH_AFTER_S, last + COUNT_REFRESH_AFTER_S)
        # In table.timers: a new window cancels it (that window's redraw shows the count anyway).
        table.timers.append(clock.call_at(due, fire))

    # ------------------------------------------------------------------ lobby drawing

    def forget(self, table: Table) -> None:
        """Drop a finished or ended table's pending count redraw."""
        self._refresh_armed.pop(table.id, None)
        self._refreshed_at.pop(table.id, None)


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
