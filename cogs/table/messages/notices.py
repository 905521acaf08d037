"""Turn notices: a person whose decision comes due is told by something Discord delivers.

Discord notifies a mention only when the message is created (an edit that adds one notifies nobody)
and a DM only when it is new (play_over_time.md). So when a decision becomes a person's, and they
are not already looking at the table, they get one new message: their prompt as a new DM (with its
controls: they can decide from there), or a new channel message that mentions only them. Which one
is the person's choice (``/notify how``), else the table's pace decides:

- ``dm``: the game's prompt, sent as a new DM (the previous one closed); closed DMs: a mention;
- ``mention``: a new message in the table's channel naming only them (``allowed_mentions`` limited
  to them); their previous notice of that table is deleted, so a channel holds one per person;
- ``off``: nothing beyond the board and the reminders;
- no choice: nothing while they are looking at the table (they clicked or typed a command within
  :data:`cogs.table.messages.private.AWAY_AFTER_S`), else ``dm``. At a correspondence pace people
  come back hours later, so in practice every turn of theirs is told by DM; at a live pace only the
  player who wandered off is (a DM for every turn of a game they are playing would be noise).

The games call :meth:`TurnNotices.tell` with the way their prompt is sent as a DM; how a secret
decision is told without revealing who has chosen is the game's (Incan Gold tells by DM only).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord

from cogs.table.messages.delivery import Lookup
from cogs.table.messages.outbox import BucketKey, Outbox
from cogs.table.messages.private import PrivateChannel
from cogs.table.messages.readers import Readers
from cogs.table.messages.text import when
from engine.session import Table
from i18n import t

__all__ = ["HOW", "Route", "TurnNotices"]

log = logging.getLogger(__name__)

HOW = ("dm", "mention", "off")
"""What a person may choose with ``/notify how``."""

Route = Literal["dm", "mention", "quiet"]
"""How one notice reaches its person: their prompt by new DM, a channel mention, or not at all."""

NOTICE = "turn"
"""The kind of a table's channel notice (one per seat: the seat is part of its key)."""


class TurnNotices:
    """Tells people that a decision is theirs: by a new DM prompt or a mention that notifies.

    Given by the hub: the bot, the private channel (DMs, who is away, closed DMs), the outbox, the
    readers, ``how`` (a person's ``/notify`` choice, None without one), ``link`` (the jump URL of the
    table's current message), ``post`` (the hub's one path of every channel message), ``title`` (the
    display name of a table's game) and ``lookup`` (a table message's reference, loaded from the
    store after a restart).
    """

    def __init__(self, bot: discord.Client, private: PrivateChannel, outbox: Outbox,
                 readers: Readers, how: Callable[[int], Awaitable[str | None]],
                 link: Callable[[Table], Awaitable[str]], post: Callable[..., Awaitable[None]],
                 title: Callable[[Table], str], lookup: Lookup) -> None:
        self.bot = bot
        self.private = private
        self.outbox = outbox
        self.readers = readers
        self.how = how
        self.link = link
        self.post = post
        self.title = title
        self.lookup = lookup

    async def route(self, table: Table, seat: int) -> Route:
        """Return how a notice reaches the seat's person now (see the module doc)."""
        user_id = table.seats[seat].user_id
        if user_id is None or table.seats[seat].is_ai:
            return "quiet"
        how = await self.how(user_id)
        if how == "off":
            return "quiet"
        if how is None:
            if not self.private.away(user_id):
                return "quiet"  # they are playing right now: the board (or their prompt) is their notice
            how = "dm"
        if how == "dm" and user_id in self.private.no_dm:
            return "mention"  # closed DMs: told in the channel, quietly (no error, no retry)
        return "mention" if how == "mention" else "dm"

    async def tell(self, table: Table, seat: int, dm: Callable[[], Awaitable[bool]], *,
                   secret: bool = False) -> Route:
        """Tell the seat's person that a decision is theirs; return the route taken.

        ``dm`` sends the game's prompt as a new DM and returns False when their DMs are known to be
        closed. ``secret``: a public mention would tell who has not decided yet (Incan Gold), so
        such a person is told by DM only.
        """
        route = await self.route(table, seat)
        if route == "dm" and await dm():
            return "dm"
        if route == "quiet" or secret:
            return "quiet"
        await self.mention(table, seat)
        return "mention"

    async def mention(self, table: Table, seat: int) -> None:
        """Post a new channel message that mentions only the seat's person (it notifies them),
        deleting their previous notice of this table, so the channel keeps one per person."""
        user_id = table.seats[seat].user_id
        if user_id is None:
            return
        old = await self.lookup(table, NOTICE, seat)  # also the one sent before a restart
        url = await self.link(table)
        with self.readers.privately(table, seat):  # a line for one person: in their language
            game = self.title(table)
            text = t("play.turn_notice", mention=f"<@{user_id}>", game=game, url=url)
            if table.deadline is not None:
                text = f"{text} {t('play.deadline', when=when(table.deadline))}"
        await self.post(table, NOTICE, seat=seat, new=True, content=text,
                        allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                                                 users=[discord.Object(user_id)]))
        if old is not None:
            await self._delete(table, seat, old)

    async def _delete(self, table: Table, seat: int, ref: tuple[int, int]) -> None:
        """Delete an earlier notice through the outbox (a rate-limited call, like an edit)."""
        channel_id, message_id = ref

        def plan(fresh: bool) -> list[BucketKey]:
            return [("edit", channel_id)]

        async def run(latest: dict[str, Any], fresh: bool) -> None:
            try:
                await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).delete()
            except discord.NotFound:
                pass  # deleted by someone already
            except discord.HTTPException as exc:  # no permission, or a Discord fault: it stays, harmless
                log.info("table %s: an old turn notice was not deleted (%s %s)", table.id, exc.status, exc.text)

        await self.outbox.submit(("delete", message_id), {}, plan=plan, run=run, group=table.id)
