"""Sakkara on Discord: the drawing of a table (public board message, private prompts, summary).

Public: one message per game, edited after every accepted action: the board image (from
``pictures.sakkara.board`` when it is installed, else a text board), whose turn it is, each builder's
displays and pyramid, the used-tile stack and a short log drawn from the *public* events only
(the Snake's reveal and the stolen tile carry ``private_to`` and never show). Private: the seat
to move gets a DM prompt with its rack and the move controls, one DM per hand-over, edited as
the turn goes on; with closed DMs the "Choose" button opens the same prompt ephemerally.

The private prompt and its controls are :mod:`cogs.sakkara.controls`; names and log lines
:mod:`cogs.sakkara.words`; the end of the game :mod:`cogs.sakkara.summary`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from cogs.sakkara import words
from cogs.sakkara.controls import dm_with_rack, prompt_at
from cogs.sakkara.summary import summary
from cogs.sakkara.words import (
    SEAT_MARKS,
    builder_text,
    counts_text,
    event_line,
    motif,
    names,
    round_title,
    seat_field,
    text_board,
    whose_turn,
)
from cogs.table.answer import Answer, acknowledged_while_drawing, answer_of
from cogs.table.controls.buttons import PeekButton
from cogs.table.messages.attach import board_file
from cogs.table.messages.fields import add_split_field, newest_lines
from cogs.table.messages.hub import TableHub
from cogs.table.messages.story import round_chapters
from cogs.table.messages.text import deadline_line, name_of, pace_rules, seat_label
from engine.core import CHANCE, Event
from engine.sakkara import GAME
from engine.session import Table, Update
from i18n import t
from pictures.drawing import drawn

log = logging.getLogger(__name__)

__all__ = ["SakkaraRenderer"]


class SakkaraRenderer:
    """Draws Sakkara tables (the hub's listener routes the session's updates here)."""

    name = "sakkara"
    command = "sakkara"
    dm_prompts = True

    def title(self) -> str:
        """Return the game's name."""
        return t("sakkara.name")

    def timeout_label(self, events: Sequence[Event], you: bool = False) -> str:
        """Return what a timeout played (``events``: those of its first move; ``you``: said to the
        player it happened to)."""
        # a timeout while placing the opponent's used tiles plays that placement only
        returned = bool(events) and all(e["type"] == "return" for e in events)
        key = "sakkara.timeout_return" if returned else "sakkara.timeout_label"
        return t(key + ("_you" if you else ""))

    def board_kind(self, table: Table) -> str:
        """Return the kind of the public board message."""
        return "board"

    def closed_fields(self, hub: TableHub, table: Table, kind: str) -> dict[str, Any]:
        """Redraw the board's embed as it stands (no deadline) when it closes; its image stays."""
        if kind != "board" or table.state is None:
            return {}
        pictures = words.boards() is not None and hub.permissions.may(table.channel_id, "attach")
        return {"embed": self.public_embed(table, pictures, hub)}

    def options_text(self, table: Table) -> str:
        """Return the options as lobby text."""
        return pace_rules(table)

    # ------------------------------------------------------------------ the public log

    def event_lines(self, table: Table, events: Sequence[Event]) -> list[str]:
        """Return the public events' lines (private events are skipped)."""
        lines = []
        for event in events:
            if "private_to" in event:
                continue  # the Snake's reveal and the stolen tile: never public
            line = event_line(table, event)
            if line:
                lines.append(line)
        return lines

    # ------------------------------------------------------------------ the public message

    def public_embed(self, table: Table, image: bool, hub: TableHub | None = None) -> discord.Embed:
        """Return the public board embed, drawn from the public view only."""
        view = GAME.view(table.state, None)
        embed = discord.Embed(title=round_title(view), colour=discord.Colour.dark_gold())
        lines = [whose_turn(table, view)]
        deadline = deadline_line(table)
        if deadline:
            lines.append(deadline)
        if not image:
            lines.append(text_board(table, view))
        if view["pending"] and view["phase"] != "over":  # the apex ends the game: no return
            lines.append(t("sakkara.pending", tiles=", ".join(motif(m) for m in view["pending"])))
        embed.description = "\n".join(lines)
        for seat, spec in enumerate(table.seats):
            embed.add_field(name=seat_field(table, seat, seat_label(spec)), value=builder_text(view, seat), inline=True)
        log_lines = hub.story.lines(table) if hub is not None else []
        if log_lines:
            embed.add_field(name=t("sakkara.log_title"), value=newest_lines(log_lines), inline=False)
        if image:
            embed.set_image(url="attachment://board.png")
        return embed

    async def replay_board(self, table: Table) -> tuple[discord.Embed, discord.File | None]:
        """Return the board of a replay's step: the public board embed with its picture and, the game
        being over, each builder's rack as it stood (private while the game was played).

        The racks are text in one field, not the DM's rack picture: a replay step carries one picture
        (the board, its embed's image), and a rack is at most a few dozen words."""
        module = words.boards()
        png = None if module is None else await drawn(module.board_image, GAME.view(table.state, None), names(table))
        embed = self.public_embed(table, png is not None)
        if table.status != "playing":  # a second lock: the replay cog refuses a running game before reading it
            racks = [t("replay.rack", mark=SEAT_MARKS[seat], name=name_of(spec),
                       tiles=counts_text(GAME.view(table.state, seat)["rack"]))
                     for seat, spec in enumerate(table.seats)]
            add_split_field(embed, t("replay.racks"), racks, "\n")
        return embed, None if png is None else board_file(png, "board.png")

    def _public_fields(self, hub: TableHub, table: Table, png: bytes | None) -> dict[str, Any]:
        fields: dict[str, Any] = {"embed": self.public_embed(table, png is not None, hub)}
        if table.status == "playing":
            buttons = discord.ui.View(timeout=None)
            buttons.add_item(PeekButton(table.id, t("play.choose")))
            fields["view"] = buttons
            no_dm = hub.private.no_dm
            closed = [table.seats[s].user_id for s in table.humans_owing() if table.seats[s].user_id in no_dm]
            fields["content"] = " ".join(f"<@{u}>" for u in closed) or None
        else:
            fields["view"] = None
            fields["content"] = None
        return fields

    async def post_public(self, hub: TableHub, table: Table, kind: str = "board", new: bool = False,
                          answer: Answer | None = None) -> None:
        """Send or edit the public board message, with the board image when boards are installed
        (``answer``: the click it is drawn for)."""
        if not new and await hub.post_when_sent(table, kind, lambda: self._drawn_when_sent(hub, table), answer):
            return  # an edit of the board waits for budget: it is drawn when it goes
        module = words.boards() if await hub.may(table, "attach") else None  # Attach Files off: the text board
        png = None
        if module is not None:
            with acknowledged_while_drawing(answer):
                png = await drawn(module.board_image, GAME.view(table.state, None), names(table))
        fields = self._public_fields(hub, table, png)
        await post_with_image(hub, table, kind, png, new=new, answer=answer, **fields)

    async def _drawn_when_sent(self, hub: TableHub, table: Table) -> dict[str, Any]:
        """The board message's fields, drawn as the table stands (by a queued edit, when it is sent)."""
        module = words.boards() if await hub.may(table, "attach") else None  # Attach Files off: the text board
        with hub.readers.publicly(table):
            png = None if module is None else await drawn(module.board_image, GAME.view(table.state, None),
                                                             names(table))
            fields = self._public_fields(hub, table, png)
        if png is not None:
            fields["files"] = [board_file(png, "board.png")]  # an edit sends them as its attachments
        return fields

    async def refresh(self, hub: TableHub, table: Table, answer: Answer | None = None) -> None:
        """Redraw the public message."""
        await self.post_public(hub, table, answer=answer)

    # ------------------------------------------------------------------ Listener parts

    async def played(self, hub: TableHub, update: Update) -> None:
        """Log the events, redraw the board message, and redraw the human seats' prompts."""
        table = update.table
        answer = answer_of(update.origin)
        # A round (both builders' turns) is a chapter of the game's log.
        last = len(table.seats) - 1
        await hub.story.played(update, self, chapter_end=round_chapters(table, lambda events: any(
            e["type"] == "end" and e.get("seat") == last for e in events)))
        if table.status != "playing":
            await self.post_public(hub, table, answer=answer)
            return
        movers = [s for s in update.actors if s != CHANCE]
        people = [seat for seat, spec in enumerate(table.seats) if not spec.is_ai]
        # The mover's prompt first: it is the message their click pressed, and its redraw answers
        # the click (a picture before the board's rather than after it: a click answered ~12 ms
        # sooner, the public board a picture later, which shares the board drawn for the prompt).
        first = [seat for seat in movers if seat in people][:1]  # a bot's reply may follow in the same update
        for seat in first:
            await self._redraw_prompt(hub, update, seat, movers)
        await self.post_public(hub, table, answer=answer)
        for seat in people:
            if seat not in first:
                await self._redraw_prompt(hub, update, seat, movers)

    async def _redraw_prompt(self, hub: TableHub, update: Update, seat: int, movers: list[int]) -> None:
        """Redraw one person's private prompt after an update, if anything of theirs changed."""
        table = update.table
        owing = table.humans_owing()
        fresh = False
        if seat in owing and (not movers or movers[-1] != seat):
            # The turn came to them: a notice Discord delivers (their prompt as a new DM, or a mention
            # in the channel), unless they are playing right now (cogs.table.messages.notices).
            route = await hub.notices.route(table, seat)
            fresh = route == "dm"
            if route == "mention":
                await hub.notices.mention(table, seat)
        if not fresh and seat not in owing and seat not in movers and seat not in update.timed_out and not any(
                e["type"] == "stolen" and e["from"] == seat for e in update.events):
            return  # nothing of this seat's changed
        with hub.readers.privately(table, seat):  # the rack picture is drawn in dm_with_rack
            embed, view = self.prompt(hub, table, seat)
            if any(s == seat and a == {"do": "end"} for s, a in update.forced):
                # The turn that ended by itself is over; when a new turn is theirs already (the
                # opponent's bot played meanwhile), say so first, in the past, apart from the new turn.
                if seat in owing and table.state.phase == "before":
                    embed.description = f"{t('sakkara.forced_end_before')}\n{embed.description}"
                else:
                    embed.description = f"{embed.description}\n{t('sakkara.forced_end')}"
            await dm_with_rack(hub, table, seat, new=fresh, answer=answer_of(update.origin),
                               closing=t("sakkara.closed_turn"), embed=embed, view=view)

    async def reminded(self, hub: TableHub, table: Table, seats: list[int]) -> None:
        """Remind the player to move by DM (the Easy bot plays what they owe at the deadline); one
        whose DMs are closed is named in the channel (nothing is secret)."""
        await hub.remind(table, seats, "play.reminder_bot", "play.reminder_bot_channel")

    async def waited(self, hub: TableHub, table: Table) -> None:
        """Nothing: one person moves at a time, told when the turn became theirs; the reminders
        follow."""

    async def finished(self, hub: TableHub, table: Table, result: dict[str, Any]) -> None:
        """Post the final pyramids with a Rematch button; the DM prompts lose their buttons."""
        await summary(hub, table, result)

    def already(self, hub: TableHub, table: Table, seat: int) -> str | None:
        """Nothing: one player decides at a time, and a decision made moves the turn on."""
        return None

    def prompt(self, hub: TableHub, table: Table, seat: int) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return a seat's private state (its rack) and its move controls."""
        return prompt_at(table, seat, "")


async def post_with_image(hub: TableHub, table: Table, kind: str, png: bytes | None, *, new: bool = False,
                          answer: Answer | None = None, **fields: Any) -> None:
    """``hub.post`` with the board image: ``files`` on a send, ``attachments`` (replaced) on an edit."""
    if png is None:
        await hub.post(table, kind, new=new, answer=answer, **fields)
        return
    module = words.boards()
    assert module is not None
    if new or await hub.message_ref(table, kind) is None:
        await hub.post(table, kind, new=True, answer=answer, files=[board_file(png, "board.png")], **fields)
        return
    try:
        await hub.post(table, kind, answer=answer, attachments=[board_file(png, "board.png")], **fields)
    except TypeError:  # the message was deleted: hub.post re-sends, and a send takes files, not attachments
        await hub.post(table, kind, new=True, answer=answer, files=[board_file(png, "board.png")], **fields)
