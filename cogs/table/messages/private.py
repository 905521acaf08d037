"""A seat's private channel: DM prompts, one-off DMs, private notes, and who is away.

A prompt is a DM edited in place; a user whose DMs are closed is remembered
(:mod:`cogs.table.messages.closed_dms`) and gets ephemeral prompts instead, redrawn through their latest
click (:mod:`cogs.table.messages.panels`). Private notes go where the person looks without a rate-limited
call when possible. Every DM goes through the outbox like a channel message, and a prompt through
the hub's one path of every table message (which may answer a click with it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

import discord

from cogs.table.answer import Answer
from cogs.table.messages.book import MessageBook, opens
from cogs.table.messages.closed_dms import ClosedDms
from cogs.table.messages.delivery import Lookup, Show, edit_or_send
from cogs.table.messages.outbox import BucketKey, Outbox
from cogs.table.messages.panels import Panels
from cogs.table.messages.readers import Readers
from engine.session import Table
from i18n import t

__all__ = ["AWAY_AFTER_S", "PrivateChannel"]

log = logging.getLogger(__name__)

AWAY_AFTER_S = 60.0
"""A player who has not clicked or typed a command for this long may be looking elsewhere: only
then is their turn worth a DM that notifies them (a rate-limited call each)."""


class PrivateChannel:
    """What reaches one person: their DM prompt, one-off DMs, private notes; whether they are away.

    Given by the hub: the message book, the outbox, the panels, the readers, the clock (the
    session's: tests move it, as they move the game's timers), and the hub's ``lookup`` and
    ``show`` (a prompt is a table message like any other).
    """

    def __init__(self, bot: discord.Client, book: MessageBook, outbox: Outbox, panels: Panels, readers: Readers,
                 closed_dms: ClosedDms, now: Callable[[], float], lookup: Lookup, show: Show) -> None:
        self.bot = bot
        self.book = book
        self.outbox = outbox
        self.panels = panels
        self.readers = readers
        # Users whose DMs are closed (kept in the store): they choose via ephemeral prompts.
        self.closed_dms = closed_dms
        self.no_dm: set[int] = closed_dms.users
        self.now = now
        self.lookup = lookup
        self.show = show
        self._seen_at: dict[int, float] = {}  # user id -> their latest click or command
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id (saves a lookup per DM)

    # ------------------------------------------------------------------ prompts

    async def prompt(self, table: Table, seat: int, *, new: bool = False, closing: str | None = None,
                     answer: Answer | None = None, **fields: Any) -> bool:
        """Send or edit a seat's DM prompt; return False when the user's DMs are known to be closed
        (also when this very DM, sent at once, found them so).

        A ``new`` prompt first closes the seat's previous one (with ``closing`` as its text, or a
        plain "this question is over"), so no DM keeps buttons that are no longer the place to act.
        ``answer``: the click the update is drawn for (its press on the prompt is answered with it).
        """
        user_id = table.seats[seat].user_id
        if user_id is None:
            return False
        if user_id in self.no_dm:
            # Their prompt is an ephemeral reply: redrawn through their latest click on it, if recent.
            ephemeral = self.panels.ephemeral_of(table.id, user_id)
            if ephemeral is not None:
                await self.panels.redraw(ephemeral, fields)
            return False
        if new and await self.lookup(table, "dm", seat) is not None and self.book.is_open((table.id, "dm", seat)):
            with self.readers.privately(table, seat):
                note = closing or t("play.closed_moved_on")
            await self.close_prompt(table, seat, note, answer=answer)

        def plan(fresh: bool) -> list[BucketKey]:
            ref = None if fresh else self.book.ref((table.id, "dm", seat))
            if ref is not None:
                return [("edit", ref[0])]
            known = self._dm_channels.get(user_id)
            return [("send", known)] if known is not None else [("dm", 0), ("send", 0)]

        async def run(latest: dict[str, Any], fresh: bool) -> None:
            await self._prompt_now(table, seat, user_id, fresh, latest)

        await self.show(table, "dm", seat, new, fields, plan, run, answer)
        return user_id not in self.no_dm  # a DM sent at once may have just found them closed

    async def close_prompt(self, table: Table, seat: int, note: str, *, answer: Answer | None = None,
                           **fields: Any) -> None:
        """Close a seat's prompt that is no longer the place to act: its buttons go, ``note`` says
        what became of it; without ``fields`` redrawing it, its embed goes too (its question is over)."""
        ref = await self.lookup(table, "dm", seat)
        if ref is None or (not self.book.is_open((table.id, "dm", seat)) and not fields):
            return
        body = {"content": note, **fields, "view": None}
        if not {"embed", "embeds"} & fields.keys():
            body["embed"] = None
        await self.prompt(table, seat, answer=answer, **body)

    async def _prompt_now(self, table: Table, seat: int, user_id: int, new: bool, fields: dict[str, Any]) -> None:
        """Edit or send a DM prompt now (the outbox calls this when the budget allows)."""
        if user_id in self.no_dm:
            return  # learnt meanwhile: no request that is sure to fail
        ref = None if new else await self.lookup(table, "dm", seat)

        async def send(latest: dict[str, Any]) -> discord.Message:
            return await (await self._dm_channel(user_id)).send(**latest)

        try:
            message = await edit_or_send(self.bot, ref, fields, send)
        except discord.Forbidden:
            self.dms_closed(user_id)
            self.book.showing((table.id, "dm", seat), None)
            return
        except discord.HTTPException as exc:  # e.g. not a user Discord lets the bot write to
            log.warning("table %s: Discord refused a DM to seat %s (%s %s)", table.id, seat, exc.status, exc.text)
            self.book.showing((table.id, "dm", seat), None)
            return
        self.outbox.requests_ended()  # as in the hub's channel messages: recording sends nothing
        if message is not None:
            await self.book.remember(table, "dm", message, seat, open=opens("dm", fields))

    async def prompt_with_file(self, table: Table, seat: int, files: Callable[[], list[discord.File]], *,
                               new: bool = False, answer: Answer | None = None, **fields: Any) -> bool:
        """:meth:`prompt` with pictures: ``files`` on a new DM, ``attachments`` (replaced) on an edit;
        ``files`` makes fresh ones each time (a failed request has read the last)."""
        if new or await self.lookup(table, "dm", seat) is None:
            return await self.prompt(table, seat, new=True, answer=answer, files=files(), **fields)
        try:
            return await self.prompt(table, seat, answer=answer, attachments=files(), **fields)
        except TypeError:  # the DM was deleted: the prompt re-sends, and a send takes files, not attachments
            return await self.prompt(table, seat, new=True, answer=answer, files=files(), **fields)

    # ------------------------------------------------------------------ one-off DMs and notes

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """Return the DM channel with a user, opening it (one REST call) the first time."""
        known = self._dm_channels.get(user_id)
        if known is not None:
            return self.bot.get_partial_messageable(known)
        # create_dm needs only the id: no user lookup (a REST call without the members intent).
        channel = await self.bot.create_dm(discord.Object(user_id))
        self._dm_channels[user_id] = channel.id
        return channel

    async def send(self, user_id: int, key: Hashable, *, refused: Callable[[], Awaitable[None]] | None = None,
                   **fields: Any) -> None:
        """Send a one-off DM (a reminder, a notice) through the outbox; nothing if DMs are closed,
        except ``refused`` (when given), awaited when the DM cannot reach the user."""
        if user_id in self.no_dm:
            if refused is not None:
                await refused()
            return

        def plan(fresh: bool) -> list[BucketKey]:
            known = self._dm_channels.get(user_id)
            return [("send", known)] if known is not None else [("dm", 0), ("send", 0)]

        async def run(latest: dict[str, Any], fresh: bool) -> None:
            if user_id not in self.no_dm:
                try:
                    await (await self._dm_channel(user_id)).send(**latest)
                    return
                except discord.Forbidden:
                    self.dms_closed(user_id)
                except discord.HTTPException as exc:
                    log.warning("Discord refused a DM to user %s (%s %s)", user_id, exc.status, exc.text)
                    return
            if refused is not None:
                await refused()

        await self.outbox.submit(key, fields, new=True, plan=plan, run=run)

    async def note(self, table: Table, seat: int, note: str, answer: Answer | None = None) -> None:
        """Show a seat's person ``note`` where only they look, without a rate-limited call when
        possible: their latest private answer (redrawn through its click), else their open DM
        prompt (closed with the note; ``answer`` as in :meth:`prompt`). With neither, their status
        shows it when they ask."""
        user_id = table.seats[seat].user_id
        if user_id is None:
            return
        if await self.panels.redraw_reply(table.id, user_id, {"content": note, "embed": None, "view": None}):
            return
        if await self.lookup(table, "dm", seat) is not None and self.book.is_open((table.id, "dm", seat)):
            await self.close_prompt(table, seat, note, answer=answer)

    async def word(self, table: Table, seat: int, answer: Answer, **fields: Any) -> None:
        """Give the person whose press on a public message was answered by that message's redraw
        their private word: in their private reply, redrawn through its click while it lives, else
        in a new private message following this press (their reply from now on). Interaction calls
        both: exempt from the rate limits."""
        user_id = table.seats[seat].user_id
        if user_id is None:
            return
        if await self.panels.redraw_reply(table.id, user_id, fields):
            return
        interaction = answer.interaction
        if not interaction.response.is_done():
            return  # nothing answered the press: its own answer says it
        try:
            message = await interaction.followup.send(
                ephemeral=True, wait=True, **{k: v for k, v in fields.items() if v is not None})
        except discord.HTTPException as exc:
            log.info("a private word could not follow a press (%s)", exc.status)
            return
        self.panels.replied(table.id, interaction, followup=message.id)

    async def tell(self, table: Table, seat: int, key: str, text: str) -> None:
        """Send a seat's person a private line (a new DM: it notifies), unless their DMs are closed;
        ``key`` names the occasion: one line per occasion and seat waits for budget at most, the
        newest ("notice": a reminder, then "your time ran out", replaces one not sent yet)."""
        user_id = table.seats[seat].user_id
        if user_id is not None:
            await self.send(user_id, (table.id, key, seat), content=text)

    async def check_dms(self, user: discord.User | discord.Member, text: str) -> bool:
        """Send a DM to check that the user accepts them; remember when they do not.

        A user known to have closed DMs is not tried again (an invalid request) unless
        :meth:`interacted` let them be, which this very interaction did if it was long enough ago.
        """
        if user.id in self.no_dm:
            return False
        await self.send(user.id, ("check", user.id), content=text)
        await self.outbox.finished(("check", user.id))
        return user.id not in self.no_dm

    # ------------------------------------------------------------------ who is there

    def dms_closed(self, user_id: int) -> None:
        """Remember that a user's DMs are closed: no DM is tried again until they interact again."""
        self.closed_dms.closed(user_id, self.now())

    def interacted(self, user_id: int) -> None:
        """A user clicked or ran a command: if their DMs were closed a while ago, try them again
        (:mod:`cogs.table.messages.closed_dms`)."""
        now = self.now()
        self._seen_at[user_id] = now
        self.closed_dms.interacted(user_id, now)

    def away(self, user_id: int) -> bool:
        """Return True when the user has not interacted for :data:`AWAY_AFTER_S` (or not since start-up)."""
        seen = self._seen_at.get(user_id)
        return seen is None or self.now() - seen >= AWAY_AFTER_S

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """discord.py's ``on_interaction`` event: every click and command counts as interacting, and
        a click on a private prompt can redraw it later (:mod:`cogs.table.messages.panels`)."""
        self.interacted(interaction.user.id)
        self.panels.clicked(interaction)
