"""The hub every game's renderer draws through: the bot's messages and DMs, kept track of.

One path for every game: a click or command -> cog -> ``Sessions`` (engine/session) -> engine ->
store -> render. :class:`TableHub` records the bot's messages (edited in place, also after a
restart), sends and edits DM prompts (:mod:`cogs.table.private`), answers a click with the
redraw of the message it pressed (:mod:`cogs.table.answer`) and holds each game's
:class:`Renderer`. The session's listener is
:class:`cogs.table.listener.TableListener`; the lobby is drawn in :mod:`cogs.table.lobby`, the
buttons are in :mod:`cogs.table.buttons`. No rule lives here: legality is the session's and engine's.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord
from discord.ext import commands

from cogs.table.answer import Answer, answering
from cogs.table.closed_dms import ClosedDms
from cogs.table.closing import has_controls, opens
from cogs.table.outbox import BucketKey, Outbox, RestBudget, Run
from cogs.table.panels import Panels
from cogs.table.private import Private
from cogs.table.readers import Readers
from cogs.table.recorded import TableRecords
from cogs.table.story import Story
from cogs.table.text import jump_url, when
from db import Store
from engine.core import Event
from engine.session import Sessions, Table, Update
from i18n import t

__all__ = ["Renderer", "TableBot", "TableHub"]

log = logging.getLogger(__name__)

class Renderer(Protocol):
    """A game's drawing of the table: public messages, private prompts, the summary."""

    name: str  # engine name
    command: str  # slash group, e.g. "incan"
    dm_prompts: bool  # its prompts reach players by DM: joining checks that DMs reach them

    def title(self) -> str:
        """Return the game's display name."""
        ...

    def timeout_label(self, events: Sequence[Event], you: bool = False) -> str:
        """Return what a timeout played for the absent player (``events``: those of its first move;
        ``you``: said to that player)."""
        ...

    def event_lines(self, table: Table, events: Sequence[Event]) -> list[str]:
        """Return the public log lines of one step's events (private events never show)."""
        ...

    def board_kind(self, table: Table) -> str:
        """Return the kind of the table's current public message (what reminders link to)."""
        ...

    def closed_fields(self, hub: TableHub, table: Table, kind: str) -> dict[str, Any]:
        """Return how a public message of ``kind`` is redrawn when it closes ({}: keep what it shows)."""
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
        self.stopping = False
        """Set by a clean shutdown: new clicks and commands are answered "restarting" (cogs.table.gate)."""
        self.in_flight: set[asyncio.Task[Any]] = set()
        """The tasks handling a click or command now: a clean shutdown lets them finish."""

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register component classes (their custom_id templates), and keep the list."""
        super().add_dynamic_items(*items)
        self.dynamic_items.extend(item for item in items if item not in self.dynamic_items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Unregister component classes."""
        super().remove_dynamic_items(*items)
        self.dynamic_items = [item for item in self.dynamic_items if item not in items]


# --------------------------------------------------------------------------- the hub


class TableHub(Private):
    """Keeps track of the bot's messages and DMs; holds each game's renderer and the story."""

    bot: TableBot

    def __init__(self, bot: TableBot, store: Store, repo: TableRecords, budget: RestBudget | None = None) -> None:
        self.bot = bot
        self.store = store
        self.repo = repo  # built by the composition root (bot.py): the cogs do not know the wiring
        self.renderers: dict[str, Renderer] = {}
        self._open: set[tuple[int, str, int | None]] = set()  # messages whose controls act on their game
        self.readers = Readers(bot, store)  # who reads which language (players' locales stored)
        # Users whose DMs are closed (kept in the store): they choose via ephemeral prompts. On the
        # session's clock (the world's time: tests move it, as they move the game's timers).
        self.closed_dms = ClosedDms(store)
        self.no_dm: set[int] = self.closed_dms.users
        self._seen_at: dict[int, float] = {}  # user id -> their latest click or command
        self.outbox = Outbox(budget)  # every rate-limited call goes through it
        self.panels = Panels()  # private prompts redrawn through their player's latest click
        self.story = Story(bot, self.repo, self.outbox)  # every game's log, on its board and in its thread
        self._messages: dict[tuple[int, str, int | None], tuple[int, int]] = {}
        self._loaded: dict[int, int] = {}  # table id -> the generation whose recorded messages were read
        self._shown: dict[tuple[int, str, int | None], str] = {}  # what each message shows now
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id (saves a lookup per DM)

    def register(self, renderer: Renderer) -> None:
        """Add a game's renderer."""
        self.renderers[renderer.name] = renderer

    def renderer(self, table: Table) -> Renderer:
        """Return the renderer of a table's game."""
        return self.renderers[table.spec.name]

    def _now(self) -> float:
        """The session's clock (the world's time: tests move it, as they move the game's timers)."""
        return self.bot.sessions.clock.now()

    # ------------------------------------------------------------------ messages

    async def message_ref(self, table: Table, kind: str, seat: int | None = None) -> tuple[int, int] | None:
        """Return (channel id, message id) of a recorded message, loading the store after a restart."""
        key = (table.id, kind, seat)
        await self._load(table)
        return self._messages.get(key)

    async def prepare(self, table: Table) -> None:
        """Before drawing a change of a table: know its messages (and close what a restart left open)."""
        await self._load(table)

    async def _load(self, table: Table) -> None:
        """Read a table's recorded messages, with which ones are still open: at its first use in this
        process (closing what the bot could not close before it stopped), and again when another
        process has written to the table (its messages may have been replaced there)."""
        if self._loaded.get(table.id) == table.generation:
            return
        first = table.id not in self._loaded
        if not first:
            self._drop(table.id)
        self._loaded[table.id] = table.generation
        for row in await self.store.messages(table.id):
            key = (table.id, row.kind, row.seat)
            self._messages.setdefault(key, (row.channel_id, row.message_id))
            if row.open:
                self._open.add(key)
            else:
                self._open.discard(key)
        if first:
            await self._close_stale(table)

    def _drop(self, table_id: int) -> None:
        """Forget what is known here of a table's messages (they are read again when needed)."""
        for cache in (self._messages, self._shown):
            for key in [k for k in cache if k[0] == table_id]:
                del cache[key]
        self._open = {k for k in self._open if k[0] != table_id}

    async def remember(self, table: Table, kind: str, message: discord.Message, seat: int | None = None,
                       *, open: bool = False) -> None:
        """Record a message so it can be edited (and closed) later, also after a restart."""
        key = (table.id, kind, seat)
        self._messages[key] = (message.channel.id, message.id)
        if open:
            self._open.add(key)
        else:
            self._open.discard(key)
        await self.store.set_message(table.id, kind, message.channel.id, message.id, seat=seat, open=open)

    async def _mark(self, table: Table, key: tuple[int, str, int | None], fields: dict[str, Any]) -> None:
        """Record whether an edited message still carries controls (a store write only on a change)."""
        if "view" not in fields or key not in self._messages:
            return
        opening = has_controls(fields["view"]) and key[1] != "summary"
        if opening == (key in self._open):
            return
        if opening:
            self._open.add(key)
            ref = self._messages[key]
            await self.store.set_message(table.id, key[1], ref[0], ref[1], seat=key[2], open=True)
        else:
            self._open.discard(key)
            await self.repo.close_message(table.id, key[1], key[2])

    async def link(self, table: Table, kind: str | None = None) -> str:
        """Return the jump URL of a table message (its current public one by default), else the channel."""
        ref = await self.message_ref(table, kind or self.renderer(table).board_kind(table))
        if ref is None:
            return f"<#{table.channel_id}>"
        return jump_url(table.guild_id, ref[0], ref[1])

    async def post(self, table: Table, kind: str, *, seat: int | None = None, new: bool = False,
                   **fields: Any) -> None:
        """Show ``fields`` as the table's channel message of ``kind``: edit it, or send it when there
        is none yet or ``new`` (see :meth:`show`)."""
        channel_id = table.channel_id

        def plan(fresh: bool) -> list[BucketKey]:
            ref = None if fresh else self._messages.get((table.id, kind, seat))
            return [("edit", ref[0])] if ref is not None else [("send", channel_id)]

        async def run(latest: dict[str, Any], fresh: bool) -> None:
            await self._post_now(table, kind, seat, fresh, latest)

        await self.show(table, kind, seat, new, fields, plan, run)

    async def post_when_sent(self, table: Table, kind: str, draw: Callable[[], Awaitable[dict[str, Any]]]) -> bool:
        """Have a channel message's edit that already waits for budget draw its content when it goes.

        A table moving faster than its channel's edit bucket (bots playing bots at full speed) had
        each move's picture drawn, and all but the newest thrown away by the outbox's coalescing:
        100 such tables kept the drawing process busy and people's pictures queued behind theirs.
        When an edit of this message is queued already (and the click being handled did not press
        it), ``draw`` replaces the queued content and runs when the edit is sent, from the table as
        it is then (never stale); returns True. Otherwise returns False: draw now and :meth:`post`.
        """
        key = (table.id, kind, None)
        if not self.outbox.waiting(key) or self.outbox.queued_new(key):
            return False
        ref = await self.message_ref(table, kind)
        if ref is None or answering(ref[1]) is not None:
            return False
        channel_id = table.channel_id

        def plan(fresh: bool) -> list[BucketKey]:
            found = None if fresh else self._messages.get(key)
            return [("edit", found[0])] if found is not None else [("send", channel_id)]

        async def run(latest: dict[str, Any], fresh: bool) -> None:
            fields = await draw()
            await self._mark(table, key, fields)
            self._remember_shown(key, _signature(fields))
            await self._post_now(table, kind, None, fresh, fields)

        self._shown.pop(key, None)  # what it shows is known once it is drawn
        await self.outbox.submit(key, {}, plan=plan, run=run)
        return True

    async def show(self, table: Table, kind: str, seat: int | None, new: bool, fields: dict[str, Any],
                   plan: Callable[[bool], list[BucketKey]], run: Run) -> None:
        """The one path of every table message (public or DM): skip what is shown already, answer the
        click that pressed it with it, else hand it to the outbox (which coalesces while it waits)."""
        key = (table.id, kind, seat)
        shown = _signature(fields)
        queued_new = self.outbox.queued_new(key)
        if not new and not queued_new and shown is not None and self._shown.get(key) == shown:
            return  # the message already shows exactly this (or will, once its queued call is sent)
        ref = None if new or queued_new else await self.message_ref(table, kind, seat)
        if ref is not None:
            await self._mark(table, key, fields)  # what it will show: open or closed from now on
        answer = answering(ref[1]) if ref is not None else None
        if ref is not None and (answer is not None or self.panels.live(ref[1])):
            # The click being handled pressed this very message, or a recent click on this private
            # prompt can still redraw it: either way through an interaction endpoint, exempt from
            # the rate limits. A queued edit of it is stale now; one on the wire goes first.
            self.outbox.discard(key)
            await self.outbox.settle(key)
            if await (self._answer(answer, fields) if answer is not None else self.panels.redraw(ref[1], fields)):
                self._remember_shown(key, shown)
                return
        self._remember_shown(key, shown)
        await self.outbox.submit(key, fields, new=new, plan=plan, run=run)

    async def _answer(self, answer: Answer, fields: dict[str, Any]) -> bool:
        """Show ``fields`` through the click's response; False when that failed (then the message is
        edited the usual way, and the click is acknowledged without it)."""
        try:
            await answer.edit(**fields)
        except discord.HTTPException as exc:
            # Expired (the bot was very late) or a Discord fault: a plain edit still works, with any
            # image rewound (the failed request read it).
            log.warning("a click's answer failed (%s %s); the message is edited instead", exc.status, exc.text)
            for item in fields.get("attachments") or []:
                if isinstance(item, discord.File):
                    item.reset()
            return False
        return True

    async def _post_now(self, table: Table, kind: str, seat: int | None, new: bool, fields: dict[str, Any]) -> None:
        """Edit or send a channel message now (the outbox calls this when the budget allows)."""
        ref = None if new else await self.message_ref(table, kind, seat)
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            message = await self._edit_or_send(ref, fields, lambda latest: channel.send(**latest))
        except discord.Forbidden:
            log.warning("table %s: no permission to post in channel %s", table.id, table.channel_id)
            self._shown.pop((table.id, kind, seat), None)
            return
        except discord.HTTPException as exc:  # Discord refused it: the next redraw tries again
            log.warning("table %s: Discord refused a %s message (%s %s)", table.id, kind, exc.status, exc.text)
            self._shown.pop((table.id, kind, seat), None)
            return
        self.outbox.requests_ended()  # recording the message sends nothing: the budget is free again
        if message is not None:
            await self.remember(table, kind, message, seat, open=opens(kind, fields))

    async def _edit_or_send(self, ref: tuple[int, int] | None, fields: dict[str, Any],
                            send: Callable[[dict[str, Any]], Awaitable[discord.Message]]) -> discord.Message | None:
        """Edit the recorded message, or send one when there is none (or it was deleted); return a sent one.

        What was asked as an edit may run as a send and the other way round (the message appeared
        or vanished while the call waited): an edit's pictures are ``attachments``, a send's ``files``.
        """
        if ref is not None:
            if "files" in fields:
                fields = dict(fields)
                fields["attachments"] = fields.pop("files")
            try:
                # The public API also builds a Message from Discord's reply (unread here): 0.1-0.3 ms
                # of CPU per edit (bench/message_edit_cost.py), at most ~1 % of a core at the 50
                # requests/s Discord allows a bot.
                await self.bot.get_partial_messageable(ref[0]).get_partial_message(ref[1]).edit(**fields)
                return None
            except discord.NotFound:
                # Deleted: send a fresh one (its files were read by the failed edit: rewind them).
                for item in fields.get("attachments") or []:
                    if isinstance(item, discord.File):
                        item.reset()
        if "attachments" in fields:  # a send takes files, not attachments (a first DM may carry a picture)
            fields = dict(fields)
            fields["files"] = fields.pop("attachments")
        return await send(fields)

    def _remember_shown(self, key: tuple[int, str, int | None], shown: str | None) -> None:
        if shown is None:
            self._shown.pop(key, None)
        else:
            self._shown[key] = shown

    async def remind_privately(self, table: Table, seats: Sequence[int]) -> None:
        """DM each seat that its time is running out, naming the table and linking to it (public
        reminders would tell who has not chosen yet)."""
        if table.deadline is None:
            return
        url = await self.link(table)
        for seat in seats:
            user_id = table.seats[seat].user_id
            if user_id is None:
                continue
            with self.readers.privately(table, seat):
                text = t("play.reminder", game=self.renderer(table).title(), channel=f"<#{table.channel_id}>",
                         when=when(table.deadline), url=url)
            await self.send_dm(user_id, (table.id, "notice", seat), content=text)

    # ------------------------------------------------------------------ lobby drawing

    def forget(self, table: Table) -> None:
        """A table has finished or ended: drop what its messages showed (kept only to skip no-op edits)."""
        for key in [k for k in self._shown if k[0] == table.id]:
            del self._shown[key]


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
