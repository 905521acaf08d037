"""The session's listener on Discord: routes every committed change to the lobby, the game's
renderer, the story (the game's log) and the closing of messages that are no longer the place to act.

A change made by a click's session call comes with the click (``origin``, an ``Answer``): it is
passed on to every redraw of the change, so the redraw of the pressed message answers it
(:mod:`cogs.table.answer`). Public texts are drawn in the server's language (``readers.publicly``),
what one person reads in theirs (``readers.privately``).
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.table.answer import answer_of
from cogs.table.controls.lobby import lobby_embed, lobby_view
from cogs.table.messages.hub import TableHub
from cogs.table.messages.text import moment, seat_label
from cogs.table.messages.wanted import wanted
from engine.session import Table, Update
from engine.session.schedule import START_AT
from i18n import t

__all__ = ["TableListener"]

ENDINGS = {"cancelled": ("lobby.cancelled", "play.closed_cancelled"),
           "empty": ("lobby.closed_empty", "play.closed_cancelled"),
           "everyone_left": ("lobby.everyone_left", "play.closed_everyone_left"),
           "expired": ("lobby.expired", "play.closed_expired"),
           "away": ("lobby.away", "play.closed_away")}
"""A table's end reason -> what its lobby message and its closed messages say (else: abandoned)."""


class TableListener:
    """Implements the session's ``Listener``: lobby changes, play, reminders, the end of a table."""

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub
        self._told: set[tuple[int, int]] = set()  # (table, seat) told of a timeout, not back since

    async def lobby_changed(self, table: Table, *, origin: object | None) -> None:
        """Redraw the lobby message."""
        await self.hub.readers.load(table)
        await self.hub.prepare(table)
        with self.hub.readers.publicly(table):
            await self.hub.post(table, "lobby", answer=answer_of(origin), embed=lobby_embed(self.hub, table),
                                view=lobby_view(table))

    async def started(self, table: Table, *, origin: object | None) -> None:
        """Freeze the lobby message (the seats are final) and open the game's thread from it."""
        hub = self.hub
        await hub.readers.load(table)
        await hub.prepare(table)
        with hub.readers.publicly(table):
            embed = lobby_embed(hub, table)
            embed.description = t("lobby.started")
            await hub.post(table, "lobby", answer=answer_of(origin), embed=embed, view=None)
            title = hub.renderer(table).title()
            seats = ", ".join(seat_label(s) for s in table.seats)
            await hub.story.begin(table, await hub.message_ref(table, "lobby"),
                                  t("play.thread_title", game=title, id=table.id),
                                  [t("play.log_started", game=title, seats=seats)])

    async def played(self, update: Update) -> None:
        """Let the game's renderer draw the update (and answer its click, ``update.origin``); tell each
        timed-out person privately."""
        table = update.table
        hub = self.hub
        renderer = hub.renderer(table)
        await hub.readers.load(table)
        await hub.prepare(table)
        with hub.readers.publicly(table):
            await renderer.played(hub, update)
        if not update.timed_out:
            self._told.difference_update((table.id, seat) for seat in update.actors)  # they are back
            return
        # Told once per absence: a player away for the rest of the game gets one line, not one a turn.
        untold = [seat for seat in update.timed_out if (table.id, seat) not in self._told]
        url = await hub.link(table) if untold else ""
        first = update.step_events[0] if update.step_events else []
        for seat in untold:
            self._told.add((table.id, seat))
            with hub.readers.privately(table, seat):
                text = t("play.timed_out_you", game=renderer.title(), channel=f"<#{table.channel_id}>",
                         label=renderer.timeout_label(first, you=True), url=url)
            await hub.private.tell(table, seat, "notice", text)  # replaces its reminder if that is not sent yet

    async def reminded(self, table: Table, seats: list[int]) -> None:
        """Let the game's renderer remind the seats privately."""
        await self.hub.readers.load(table)
        await self.hub.prepare(table)
        with self.hub.readers.publicly(table):
            await self.hub.renderer(table).reminded(self.hub, table, seats)

    async def waited(self, table: Table) -> None:
        """A correspondence decision has waited its patience: the game's renderer acts on the wait
        (or, a game whose people decide one at a time, does nothing)."""
        await self.hub.readers.load(table)
        await self.hub.prepare(table)
        with self.hub.readers.publicly(table):
            await self.hub.renderer(table).waited(self.hub, table)

    async def resigned(self, table: Table, seat: int, *, origin: object | None) -> None:
        """Log the resignation, close the person's prompt, redraw the table (the seat is labelled as its bot)."""
        hub = self.hub
        renderer = hub.renderer(table)
        answer = answer_of(origin)
        await hub.readers.load(table)
        await hub.prepare(table)
        with hub.readers.privately(table, seat):
            note = t("play.closed_resigned", game=renderer.title())
        await hub.closer.close(table, "dm", seat, note, answer=answer)
        with hub.readers.publicly(table):
            await hub.story.note(table, table.seat_events[-1], renderer)
            await renderer.refresh(hub, table, answer)

    async def away(self, table: Table, seat: int, *, origin: object | None) -> None:
        """A person is away (the table's bot plays their seat) or back: a line in the game's log for
        everyone, the board redrawn (the seat's label says who plays it), and the person told
        privately: a DM, or a line in the channel naming only them when their DMs are closed."""
        hub = self.hub
        renderer = hub.renderer(table)
        event = table.seat_events[-1]
        await hub.readers.load(table)
        await hub.prepare(table)
        with hub.readers.publicly(table):
            await hub.story.note(table, event, renderer)
            await renderer.refresh(hub, table, answer_of(origin))
        if table.seats[seat].user_id is None:
            return
        url = await hub.link(table)
        with hub.readers.privately(table, seat):
            if event.kind == "away":
                text = t("play.away_you", game=renderer.title(), channel=f"<#{table.channel_id}>", url=url,
                         level=t(f"level.{event.detail.get('level', 'easy')}").capitalize())
            else:
                text = t("play.back_you", game=renderer.title(), channel=f"<#{table.channel_id}>", url=url)
        await self._tell(table, seat, "away", text)

    async def _tell(self, table: Table, seat: int, key: str, text: str) -> None:
        """Tell a seat's person privately: a DM, or when their DMs are closed a new message in the
        channel that pings only them (so ``text`` holds nothing secret)."""
        hub = self.hub
        user_id = table.seats[seat].user_id
        if user_id is None:
            return
        if user_id not in hub.private.no_dm:
            await hub.private.tell(table, seat, key, text)
            await hub.outbox.finished((table.id, key, seat))
            if user_id not in hub.private.no_dm:
                return
            # That very DM found them closed: the channel instead, or they are not told at all.
        await hub.post(table, key, seat=seat, new=True, content=f"<@{user_id}> {text}",
                       allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                                users=[discord.Object(user_id)]))

    async def opened(self, table: Table) -> None:
        """Players wanted: one message naming the members who asked to hear of a new table on the
        server and the role its managers chose (:mod:`cogs.table.messages.wanted`), notifying
        exactly them."""
        hub = self.hub
        named = await wanted(hub.bot, hub.bot.store, table)
        if not named:
            return
        await hub.readers.load(table)
        await hub.prepare(table)
        with hub.readers.publicly(table):
            text = t("wanted.opened", game=hub.renderer(table).title(), url=await hub.link(table, "lobby"))
            start_at = table.table_options.get(START_AT)
            if start_at is not None:
                text += " " + t("wanted.starts", when=moment(float(start_at)))
        await hub.post(table, "wanted", new=True, content=f"{text}\n{named.mentions()}",
                       allowed_mentions=named.allowed())

    async def start_soon(self, table: Table) -> None:
        """A scheduled table starts shortly: each seated person is told privately (DM, or the channel)."""
        hub = self.hub
        await hub.readers.load(table)
        await hub.prepare(table)
        url = await hub.link(table, "lobby")
        start_at = float(table.table_options[START_AT])
        for seat, spec in enumerate(table.seats):
            if spec.user_id is None:
                continue
            with hub.readers.privately(table, seat):
                text = t("lobby.start_soon", game=hub.renderer(table).title(), channel=f"<#{table.channel_id}>",
                         when=moment(start_at), url=url)
            await self._tell(table, seat, "start-soon", text)

    async def finished(self, table: Table, result: dict[str, Any], *, origin: object | None) -> None:
        """The summary, the rest of the log, and every control of the game closed."""
        hub = self.hub
        self._told = {told for told in self._told if told[0] != table.id}
        hub.book.forget_shown(table)
        renderer = hub.renderer(table)
        await hub.readers.load(table)
        await hub.prepare(table)
        with hub.readers.publicly(table):
            await renderer.finished(hub, table, result)
            await hub.story.end(table, [t("play.log_over", url=await hub.link(table, "summary"))], renderer)
        await hub.closer.close_all(table, "play.closed_over", "play.closed_over_dm", answer=answer_of(origin),
                                   game=renderer.title(), channel=f"<#{table.channel_id}>")
        hub.book.forget(table)

    async def ended(self, table: Table, reason: str, *, origin: object | None) -> None:
        """Close every control of the table, tell the channel and every seated person."""
        hub = self.hub
        answer = answer_of(origin)
        self._told = {told for told in self._told if told[0] != table.id}
        hub.book.forget_shown(table)
        renderer = hub.renderer(table)
        lobby_key, note_key = ENDINGS.get(reason, ("lobby.abandoned", "play.closed_abandoned"))
        # A message of the table still waiting for its first send (a lobby opened and cancelled in
        # a burst) is dropped, not delivered late: nobody saw it, so nothing is left to close.
        unsent = await hub.drop_unsent(table)
        await hub.readers.load(table)
        await hub.prepare(table)
        if "lobby" not in unsent:  # else nobody saw the table: there is nothing to close or log
            with hub.readers.publicly(table):
                embed = discord.Embed(title=renderer.title(), description=t(lobby_key),
                                      colour=discord.Colour.dark_grey())
                await hub.post(table, "lobby", answer=answer, embed=embed, view=None)
                await hub.story.end(table, [t(note_key)], renderer)
        await hub.closer.close_all(table, note_key, note_key, answer=answer)
        if table.state is not None:
            # A game was under way: say so where everyone looks, not only on the old lobby message,
            # and mention every seated person (one message tells them all, DMs open or not).
            people = [s.user_id for s in table.seats if s.user_id is not None]
            mentions = "".join(f"<@{user_id}> " for user_id in people)
            with hub.readers.publicly(table):
                text = t("play.ended_public", game=renderer.title(), note=t(note_key))
            # It may ping exactly the seated people, whatever the text holds.
            await hub.post(table, "ended", new=True, answer=answer, content=mentions + text,
                           allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                                    users=[discord.Object(u) for u in people]))
        hub.story.forget(table)
        hub.book.forget(table)
