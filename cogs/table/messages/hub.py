"""The hub every game's renderer draws through: the bot's messages and DMs, kept track of.

One path for every game: a click or command -> cog -> ``Sessions`` (engine/session) -> engine ->
store -> render. :class:`TableHub` draws a table's channel messages (edited in place, also after a
restart) through the one path of every table message, which answers a click with the redraw of
the message it pressed (:mod:`cogs.table.answer`), and holds each game's :class:`Renderer`. It owns
the parts it hands what they need: the message book (:mod:`cogs.table.messages.book`), the private channel
(DM prompts and notes, :mod:`cogs.table.messages.private`), the closer (:mod:`cogs.table.messages.closing`), the
outbox, the panels, the readers, the players' notification choices (:mod:`cogs.table.messages.reach`),
what the bot may do in each channel (:mod:`cogs.table.messages.permissions`) and the story. The
session's listener is :class:`cogs.table.listener.TableListener`; the lobby is drawn
in :mod:`cogs.table.controls.lobby`, the buttons are in :mod:`cogs.table.controls.buttons`. No rule
lives here: legality is the session's and engine's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord
from discord.ext import commands

from cogs.table.answer import Answer
from cogs.table.messages.attach import PICTURE_FIELDS, unpictured
from cogs.table.messages.book import MessageBook, Ref, opens, signature
from cogs.table.messages.closed_dms import ClosedDms
from cogs.table.messages.closing import Closer
from cogs.table.messages.delivery import edit_or_send, rewind
from cogs.table.messages.notices import TurnNotices
from cogs.table.messages.outbox import BucketKey, Outbox, Plan, RestBudget, Run
from cogs.table.messages.panels import Panels
from cogs.table.messages.permissions import BY_KEY, ChannelPermissions, needs_of, plain, shown
from cogs.table.messages.private import PrivateChannel
from cogs.table.messages.reach import NotifyChoices
from cogs.table.messages.readers import Readers
from cogs.table.messages.recorded import HubRecords
from cogs.table.messages.story import Story
from cogs.table.messages.text import jump_url, when
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

    async def replay_board(self, table: Table) -> tuple[discord.Embed, discord.File | None]:
        """Return the board of one step of a replay (``/game replay``) with its picture, if drawn.
        ``table`` is a game that is over, rebuilt as it stood at that step (not a live table): what
        the game hid while it was played may be shown. The replay cog calls only this, so a new
        game needs no edit of it."""
        ...

    async def played(self, hub: TableHub, update: Update) -> None:
        """Redraw after accepted actions; prompt the seats that owe a decision in a new window (the
        click the update was made for, ``answer_of(update.origin)``, is passed on to every redraw)."""
        ...

    async def refresh(self, hub: TableHub, table: Table, answer: Answer | None = None) -> None:
        """Redraw the public message (e.g. the count of decisions made; ``answer``: the click it is
        redrawn for)."""
        ...

    async def reminded(self, hub: TableHub, table: Table, seats: list[int]) -> None:
        """Remind seats privately that their decision timer is running out."""
        ...

    async def waited(self, hub: TableHub, table: Table) -> None:
        """A correspondence decision window has been open for the table's patience and still waits
        (a moment derived from its stored deadline: also after a restart or an unload): act on the
        wait, e.g. tell the last few it waits for them. A game with nothing to do then does nothing."""
        ...

    async def finished(self, hub: TableHub, table: Table, result: dict[str, Any]) -> None:
        """Show the final summary with a Rematch button."""
        ...

    def prompt(self, hub: TableHub, table: Table, seat: int) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return a seat's private state and its move buttons (DM or ephemeral)."""
        ...

    def already(self, hub: TableHub, table: Table, seat: int) -> str | None:
        """Return what a seat already decided in this window, said to its person ("You already chose
        Torch for this card"), when a repeated press finds nothing left for them to decide; else None."""
        ...


class TableBot(commands.Bot):
    """The bot as the cogs see it: discord.py's Bot plus the store, the hub and the sessions.

    The composition root says how the hub and the sessions are built (``hub``, ``sessions``): the
    hub needs the bot, and the sessions need the hub (their listener draws through it), so the bot
    builds them in that order, here, and owns them.
    """

    def __init__(self, store: Store, hub: Callable[[TableBot], TableHub], sessions: Callable[[TableHub], Sessions],
                 *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.store = store
        self.hub = hub(self)
        self.sessions = sessions(self.hub)
        self.sessions.cache.on_unload.append(self.hub.unloaded)
        self.dynamic_items: list[type[discord.ui.DynamicItem[Any]]] = []
        """Every component class registered: a custom_id matching none is crafted (tests fuzz each)."""
        self.stopping = False
        """Set by a clean shutdown: new clicks and commands are answered "restarting" (cogs.table.controls.gate)."""
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


class TableHub:
    """Draws every table: its channel messages through the one path of every message, its people
    through :attr:`private`, closing through :attr:`closer`; holds each game's renderer and the story.

    It owns the parts and hands each what it needs: the message book (which messages exist, are
    open, what they show), the outbox (every rate-limited call), the panels (prompts redrawn
    through a click), the readers (who reads which language).
    """

    def __init__(self, bot: TableBot, store: Store, repo: HubRecords, budget: RestBudget | None = None) -> None:
        self.bot = bot
        self.repo = repo  # built by the composition root (bot.py): the cogs do not know the wiring
        self.renderers: dict[str, Renderer] = {}
        self.readers = Readers(bot, store)  # who reads which language (players' locales stored)
        self.outbox = Outbox(budget)  # every rate-limited call goes through it
        # Private prompts redrawn through their player's latest click, while its token lives (on the
        # session's clock, the world's time: tests move it as the fake Discord moves its own).
        self.panels = Panels(now=lambda: bot.sessions.clock.now())
        self.book = MessageBook(store, repo)  # the bot's messages: where, open or not, what they show
        # What the bot may do in each channel now: every send path asks it before acting (no 403).
        self.permissions = ChannelPermissions(bot)
        self._lacking: set[tuple[int, str]] = set()  # (table, need) the channel was told is off
        self.story = Story(bot, repo, self.outbox, may=self.may,
                           refused=self.permissions.refused)  # every game's log, on its board and in its thread
        self.private = PrivateChannel(
            bot, self.book, self.outbox, self.panels, self.readers, ClosedDms(store),
            # The session's clock (the world's time: tests move it, as they move the game's timers);
            # the sessions are made after the hub.
            now=lambda: bot.sessions.clock.now(), lookup=self.message_ref, show=self.show)
        # How each player chose to be told a decision is theirs (/notify), on the session's clock.
        self.notify_choices = NotifyChoices(store, now=lambda: bot.sessions.clock.now())
        self.closer = Closer(
            bot, self.book, repo, self.readers, prepare=self.prepare, lookup=self.message_ref, post=self.post,
            private=self.private, board_kind=lambda table: self.renderer(table).board_kind(table),
            closed_fields=lambda table, kind: self.renderer(table).closed_fields(self, table, kind))
        self.notices = TurnNotices(bot, self.private, self.outbox, self.readers, how=self.notify_choices.how,
                                   link=self.link, post=self.post,
                                   title=lambda table: self.renderer(table).title(), lookup=self.message_ref)

    def register(self, renderer: Renderer) -> None:
        """Add a game's renderer."""
        self.renderers[renderer.name] = renderer

    def renderer(self, table: Table) -> Renderer:
        """Return the renderer of a table's game."""
        return self.renderers[table.spec.name]

    # ------------------------------------------------------------------ permissions

    async def may(self, table: Table, need: str) -> bool:
        """May the bot do ``need`` (a key of :data:`~cogs.table.messages.permissions.NEEDS`) in the
        table's channel now? The first time a table meets it off, the channel gets one line saying
        what is off and what it costs (when the bot may post there at all)."""
        if self.permissions.may(table.channel_id, need):
            return True
        if (table.id, need) not in self._lacking and need not in ("send", "view"):
            self._lacking.add((table.id, need))
            with self.readers.publicly(table):
                text = t(f"permissions.off.{need}", permission=shown([BY_KEY[need]]))
            await self.post(table, f"lacking-{need}", new=True, content=text,
                            allowed_mentions=discord.AllowedMentions.none())
        return False

    # ------------------------------------------------------------------ messages

    def unloaded(self, table: Table) -> None:
        """The session layer dropped an idle table from memory (or one another process ended): drop
        what is kept here of it too (where its messages are and what they show, its story), as a
        restart would. Its next use reads them again from the store (and another process's writes
        meanwhile with them)."""
        self.book.forget(table)
        self.story.forget(table)

    async def prepare(self, table: Table) -> None:
        """Before drawing a change of a table: know its messages, and at the table's first use in
        this process close what the bot could not close before it stopped."""
        if await self.book.load(table):
            await self.closer.close_stale(table)

    async def message_ref(self, table: Table, kind: str, seat: int | None = None) -> Ref | None:
        """Return (channel id, message id) of a recorded message, loading the store after a restart."""
        await self.prepare(table)
        return self.book.ref((table.id, kind, seat))

    async def link(self, table: Table, kind: str | None = None) -> str:
        """Return the jump URL of a table message (its current public one by default), else the channel."""
        ref = await self.message_ref(table, kind or self.renderer(table).board_kind(table))
        if ref is None:
            return f"<#{table.channel_id}>"
        return jump_url(table.guild_id, ref[0], ref[1])

    async def post(self, table: Table, kind: str, *, seat: int | None = None, new: bool = False,
                   answer: Answer | None = None, **fields: Any) -> None:
        """Show ``fields`` as the table's channel message of ``kind``: edit it, or send it when there
        is none yet or ``new`` (see :meth:`show`; ``answer``: the click the update is drawn for)."""
        channel_id = table.channel_id

        def plan(fresh: bool) -> list[BucketKey]:
            ref = None if fresh else self.book.ref((table.id, kind, seat))
            return [("edit", ref[0])] if ref is not None else [("send", channel_id)]

        async def run(latest: dict[str, Any], fresh: bool) -> None:
            await self._post_now(table, kind, seat, fresh, latest)

        await self.show(table, kind, seat, new, fields, plan, run, answer)

    async def post_when_sent(self, table: Table, kind: str, draw: Callable[[], Awaitable[dict[str, Any]]],
                             answer: Answer | None = None) -> bool:
        """Have a channel message's edit that already waits for budget draw its content when it goes.

        A table moving faster than its channel's edit bucket (bots playing bots at full speed) had
        each move's picture drawn, and all but the newest thrown away by the outbox's coalescing:
        100 such tables kept the drawing process busy and people's pictures queued behind theirs.
        When an edit of this message is queued already (and ``answer``, the click the update is
        drawn for, did not press it), ``draw`` replaces the queued content and runs when the edit is
        sent, from the table as it is then (never stale); returns True. Otherwise returns False:
        draw now and :meth:`post`.
        """
        key = (table.id, kind, None)
        if not self.outbox.waiting(key) or self.outbox.queued_new(key):
            return False
        ref = await self.message_ref(table, kind)
        if ref is None or (answer is not None and answer.pressed(ref[1])):
            return False
        channel_id = table.channel_id

        def plan(fresh: bool) -> list[BucketKey]:
            found = None if fresh else self.book.ref(key)
            return [("edit", found[0])] if found is not None else [("send", channel_id)]

        async def run(latest: dict[str, Any], fresh: bool) -> None:
            fields = await draw()
            await self.book.mark(table, key, fields)
            self.book.showing(key, signature(fields))
            await self._post_now(table, kind, None, fresh, fields)

        self.book.showing(key, None)  # what it shows is known once it is drawn
        await self.outbox.submit(key, {}, plan=plan, run=run)
        return True

    async def drop_unsent(self, table: Table) -> set[str]:
        """Drop the table's messages still waiting for their first send, and return their kinds:
        the table ended before anyone saw them, and a late send would only confuse."""
        await self.prepare(table)  # which of its messages were sent is known from the book
        dropped = set()
        for key in self.outbox.waiting_keys():
            if isinstance(key, tuple) and len(key) == 3 and key[0] == table.id and self.book.ref(key) is None:
                self.outbox.discard(key)
                dropped.add(str(key[1]))
        return dropped

    async def show(self, table: Table, kind: str, seat: int | None, new: bool, fields: dict[str, Any],
                   plan: Plan, run: Run, answer: Answer | None = None) -> None:
        """The one path of every table message (public or DM): skip what is shown already, answer
        ``answer`` (the click the update is drawn for) with it if the click pressed it, else hand it
        to the outbox (which coalesces while it waits)."""
        key = (table.id, kind, seat)
        shown = signature(fields)
        queued_new = self.outbox.queued_new(key)
        if not new and not queued_new and self.book.shows(key, shown):
            return  # the message already shows exactly this (or will, once its queued call is sent)
        ref = None if new or queued_new else await self.message_ref(table, kind, seat)
        if ref is not None:
            await self.book.mark(table, key, fields)  # what it will show: open or closed from now on
        pressed = answer if answer is not None and ref is not None and answer.pressed(ref[1]) else None
        if ref is not None and (pressed is not None or self.panels.live(ref[1])):
            # The click this is drawn for pressed this very message, or a recent click on this private
            # prompt can still redraw it: either way through an interaction endpoint, exempt from
            # the rate limits. A queued edit of it is stale now; one on the wire goes first.
            self.outbox.discard(key)
            await self.outbox.settle(key)
            # The same message whichever way it goes: as the channel allows (a response needs no
            # permission, but a board must not change form with the path it took).
            shaped = await self._shaped(table, kind, fields, edit=True)
            if await (self._answer(pressed, shaped) if pressed is not None else self.panels.redraw(ref[1], shaped)):
                self.book.showing(key, shown)
                return
        self.book.showing(key, shown)
        # A key never sent yet (a lobby being opened, a new round's message) is what people wait
        # for to see the table at all: it goes before the redraws of tables already shown.
        first = not new and not queued_new and ref is None
        await self.outbox.submit(key, fields, new=new, first=first, plan=plan, run=run)

    async def _answer(self, answer: Answer, fields: dict[str, Any]) -> bool:
        """Show ``fields`` through the click's response; False when that failed (then the message is
        edited the usual way, and the click is acknowledged without it)."""
        try:
            await answer.edit(**fields)
        except discord.HTTPException as exc:
            # Expired (the bot was very late) or a Discord fault: a plain edit still works, with any
            # image rewound (the failed request read it).
            log.warning("a click's answer failed (%s %s); the message is edited instead", exc.status, exc.text)
            rewind(fields)
            return False
        return True

    async def _post_now(self, table: Table, kind: str, seat: int | None, new: bool, fields: dict[str, Any]) -> None:
        """Edit or send a channel message now (the outbox calls this when the budget allows)."""
        ref = None if new else await self.message_ref(table, kind, seat)
        channel = self.bot.get_partial_messageable(table.channel_id)
        allowed = await self._allowed_fields(table, kind, fields, edit=ref is not None)
        if allowed is None:  # the bot may not post there: nothing is tried (a 403 counts against it)
            self.book.showing((table.id, kind, seat), None)
            return
        fields = allowed
        try:
            message = await edit_or_send(self.bot, ref, fields, lambda latest: channel.send(**latest))
        except discord.Forbidden:
            # A permission changed between the check and the call: not tried again until it changes back.
            # Which permission was missing Discord does not say: the optional one first (the next
            # redraw goes without it), so each permission costs at most one 403 per change.
            needs = needs_of(fields)
            culprit = next(need for need in ("attach", "embed", "send") if need in needs)
            self.permissions.refused(table.channel_id, {culprit}, f"a {kind} message of table {table.id}")
            self.book.showing((table.id, kind, seat), None)
            if culprit != "send":
                await self._without(table, kind, seat, new, fields)
            return
        except discord.HTTPException as exc:  # Discord refused it: the next redraw tries again
            log.warning("table %s: Discord refused a %s message (%s %s)", table.id, kind, exc.status, exc.text)
            self.book.showing((table.id, kind, seat), None)
            return
        self.outbox.requests_ended()  # recording the message sends nothing: the budget is free again
        if message is not None:
            await self.book.remember(table, kind, message, seat, open=opens(kind, fields))

    async def redraw_board(self, table: Table, answer: Answer) -> bool:
        """Answer ``answer``, a press on the table's public board whose controls were stale, with the
        board redrawn as the table stands, through that press (an interaction call, exempt from the
        rate limits): the presser sees the decision the table waits for now and can act at once.

        A board's controls go stale without an edit when the rate-limited edit was spared on
        purpose: Indus redraws its board at the end of a turn played from a DM prompt, not at each
        of its steps. False when the press was not on the board, the table is not playing, or the
        board shows the table as it stands already (the redraw did not go through the press)."""
        renderer = self.renderer(table)
        async with table.lock:  # drawn from a state no move is changing, as a timer's redraw is
            if table.status != "playing":
                return False
            await self.prepare(table)
            ref = self.book.ref((table.id, renderer.board_kind(table), None))
            if ref is None or not answer.pressed(ref[1]):
                return False
            await self.readers.load(table)
            with self.readers.publicly(table):
                await renderer.refresh(self, table, answer)
        return answer.redrawn

    async def _without(self, table: Table, kind: str, seat: int | None, new: bool, fields: dict[str, Any]) -> None:
        """Show again what was refused, without what is off now: the board is redrawn by its game
        (a text board in place of the picture; queued behind this call), anything else goes at
        once without its pictures or embeds. Never stale controls, never a second 403 for it."""
        if seat is None and kind == self.renderer(table).board_kind(table) and table.status == "playing":
            await self.renderer(table).refresh(self, table)
            return
        rewind(fields)
        await self._post_now(table, kind, seat, new, fields)

    async def _allowed_fields(self, table: Table, kind: str, fields: dict[str, Any],
                              edit: bool) -> dict[str, Any] | None:
        """Return ``fields`` as the bot may send them in the table's channel now: without pictures
        when Attach Files is off (the renderers drew a text board already: this only catches the
        rest), as plain text when Embed Links is off; None when it may not post there at all
        (``edit``: they edit the message, see :meth:`_shaped`)."""
        if not self.permissions.may(table.channel_id, "send"):
            self.permissions.skipped(table.channel_id, "send", f"a {kind} message of table {table.id}")
            return None
        return await self._shaped(table, kind, fields, edit)

    async def _shaped(self, table: Table, kind: str, fields: dict[str, Any], edit: bool) -> dict[str, Any]:
        """Return a channel message's ``fields`` without pictures when Attach Files is off there, as
        plain text when Embed Links is (a DM prompt: as they are, no server permission applies).
        ``edit``: they edit the message, which then keeps no picture they do not carry
        (:func:`~cogs.table.messages.attach.unpictured`: Discord would keep the old one)."""
        if kind == "dm":
            return fields
        needs = needs_of(fields)
        if "attach" in needs and not await self.may(table, "attach"):
            kept = [a for a in fields.get("attachments") or [] if not isinstance(a, discord.File)]
            fields = {k: v for k, v in fields.items() if k not in PICTURE_FIELDS}
            if edit:
                fields["attachments"] = kept
        if "embed" in needs and not await self.may(table, "embed"):
            fields = plain(fields)
        return unpictured(fields) if edit else fields

    async def remind(self, table: Table, seats: Sequence[int], private_key: str, channel_key: str,
                     cover: Sequence[int] | None = None) -> None:
        """Tell each seat by DM that its time is running out and what happens then (``private_key``),
        naming the table and linking to it.

        A person whose DMs are closed (known, or found by this very DM) is reminded in the channel
        instead: one new message per reminder for all of them (``channel_key``; a new message
        notifies, an edit would not). It mentions ``cover``, the people among whom who still owes
        must stay unknown (Incan Gold: everyone still inside, chosen or not), or else only the seats
        found closed; ``allowed_mentions`` lets it ping exactly them.
        """
        if table.deadline is None:
            return
        url = await self.link(table)
        game, deadline = self.renderer(table).title(), when(table.deadline)
        in_channel = t(channel_key, game=game, when=deadline, url=url)  # in the server's language, now
        posted = False

        async def remind_in_channel() -> None:
            nonlocal posted
            if posted:
                return  # one channel message per reminder, however many DMs turned out closed
            posted = True
            named = cover if cover is not None else [
                s for s in seats if table.seats[s].user_id in self.private.no_dm]
            people = [u for u in (table.seats[s].user_id for s in named) if u is not None]
            mentions = " ".join(f"<@{user_id}>" for user_id in people)
            await self.post(table, "reminder", new=True, content=f"{mentions} {in_channel}",
                            allowed_mentions=discord.AllowedMentions(
                                everyone=False, roles=False, users=[discord.Object(u) for u in people]))

        for seat in seats:
            user_id = table.seats[seat].user_id
            if user_id is None:
                continue
            with self.readers.privately(table, seat):
                text = t(private_key, game=game, channel=f"<#{table.channel_id}>", when=deadline, url=url)
            await self.private.send(user_id, (table.id, "notice", seat), content=text, refused=remind_in_channel)
