"""Sakkara on Discord: the drawing of a table (public board message, private prompts, summary).

Public: one message per game, edited after every accepted action: the board image (from
``cogs.sakkara.board`` when it is installed, else a text board), whose turn it is, each builder's
displays and pyramid, the used-tile stack and a short log drawn from the *public* events only
(the Snake's reveal and the stolen tile carry ``private_to`` and never show). Private: the seat
to move gets a DM prompt with its rack and the move controls, one DM per hand-over, edited as
the turn goes on; with closed DMs the "Choose" button opens the same prompt ephemerally.

The private prompt and its controls are :mod:`cogs.sakkara.prompt`; names and log lines
:mod:`cogs.sakkara.labels`.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.drawing import board_file
from cogs.i18n import t
from cogs.sakkara import labels
from cogs.sakkara.labels import builder_text, event_line, motif, names, round_title, seat_field, text_board, whose_turn
from cogs.sakkara.prompt import dm_with_rack, prompt_at
from cogs.table.buttons import PeekButton
from cogs.table.hub import TableHub
from cogs.table.lobby import post_summary
from cogs.table.text import seat_label, seat_names, standings, winner_line
from engine.core import CHANCE, Event
from engine.sakkara import GAME
from engine.session import Table, Update

__all__ = ["SakkaraRenderer"]

LOG_LINES = 8  # lines of "what happened" kept on the board message


class SakkaraRenderer:
    """Draws Sakkara tables (the hub's listener routes the session's updates here)."""

    name = "sakkara"
    command = "sakkara"
    dm_prompts = True

    def __init__(self) -> None:
        self.lines: dict[int, list[str]] = {}  # the recent public log, per table

    def title(self) -> str:
        """Return the game's name."""
        return t("sakkara.name")

    def options_text(self, table: Table) -> str:
        """Return the options as lobby text."""
        seconds = int(table.table_options.get("decision_timeout_s", 120))
        return t("sakkara.opt_timeout", seconds=seconds)

    # ------------------------------------------------------------------ the public log

    def log_events(self, table: Table, events: list[Event], timed_out: list[int]) -> None:
        """Add the public events' lines to the table's log (private events are skipped)."""
        lines = self.lines.setdefault(table.id, [])
        if timed_out:
            # a timeout while placing the opponent's used tiles plays that placement only
            returned = events and all(e["type"] == "return" for e in events)
            label = t("sakkara.timeout_return") if returned else table.spec.timeout_label
            lines.append(t("play.timed_out", names=seat_names(table, timed_out), label=label))
        for event in events:
            if "private_to" in event:
                continue  # the Snake's reveal and the stolen tile: never public
            line = event_line(table, event)
            if line:
                lines.append(line)
        del lines[:-LOG_LINES]

    async def _rebuild_log(self, hub: TableHub, table: Table, update: Update) -> None:
        """After a restart, rebuild the log by replaying the stored actions before this update."""
        self.lines[table.id] = []
        for events in await hub.past_events(table, table.version - len(update.actors)):
            self.log_events(table, events, [])

    # ------------------------------------------------------------------ the public message

    def public_embed(self, table: Table, image: bool) -> discord.Embed:
        """Return the public board embed, drawn from the public view only."""
        view = GAME.view(table.state, None)
        embed = discord.Embed(title=round_title(view), colour=discord.Colour.dark_gold())
        lines = [whose_turn(table, view)]
        if not image:
            lines.append(text_board(table, view))
        if view["pending"] and view["phase"] != "over":  # the apex ends the game: no return
            lines.append(t("sakkara.pending", tiles=", ".join(motif(m) for m in view["pending"])))
        embed.description = "\n".join(lines)
        for seat, spec in enumerate(table.seats):
            embed.add_field(name=seat_field(table, seat, seat_label(spec)), value=builder_text(view, seat), inline=True)
        log_lines = self.lines.get(table.id, [])
        if log_lines:
            embed.add_field(name=t("sakkara.log_title"), value="\n".join(log_lines)[-1024:], inline=False)
        if image:
            embed.set_image(url="attachment://board.png")
        return embed

    def _public_fields(self, hub: TableHub, table: Table, png: bytes | None) -> dict[str, Any]:
        fields: dict[str, Any] = {"embed": self.public_embed(table, png is not None)}
        if table.status == "playing":
            buttons = discord.ui.View(timeout=None)
            buttons.add_item(PeekButton(table.id, t("play.choose")))
            fields["view"] = buttons
            closed = [table.seats[s].user_id for s in table.humans_owing() if table.seats[s].user_id in hub.no_dm]
            fields["content"] = " ".join(f"<@{u}>" for u in closed) or None
        else:
            fields["view"] = None
            fields["content"] = None
        return fields

    async def post_public(self, hub: TableHub, table: Table, kind: str = "board", new: bool = False) -> None:
        """Send or edit the public board message, with the board image when boards are installed."""
        module = labels.boards()
        png = module.board_image(GAME.view(table.state, None), names(table)) if module is not None else None
        fields = self._public_fields(hub, table, png)
        await post_with_image(hub, table, kind, png, new=new, **fields)

    async def refresh(self, hub: TableHub, table: Table) -> None:
        """Redraw the public message."""
        await self.post_public(hub, table)

    # ------------------------------------------------------------------ Listener parts

    async def played(self, hub: TableHub, update: Update) -> None:
        """Log the events, redraw the board message, and redraw the human seats' prompts."""
        table = update.table
        if table.id not in self.lines and update.actors and update.actors[0] != CHANCE:
            await self._rebuild_log(hub, table, update)
        self.log_events(table, update.events, update.timed_out)
        await self.post_public(hub, table)
        if table.status != "playing":
            return
        owing = table.humans_owing()
        movers = [s for s in update.actors if s != CHANCE]
        for seat, spec in enumerate(table.seats):
            if spec.is_ai:
                continue
            # A new DM notifies, but costs a rate-limited call: only for a player whose prompt their
            # latest click can no longer redraw (they have not played for 14 minutes, or never).
            fresh = seat in owing and (not movers or movers[-1] != seat) and not await hub.prompt_live(table, seat)
            if fresh:
                await self._retire_dm(hub, table, seat)  # a new DM notifies; the old one loses its buttons
            elif seat not in owing and seat not in movers and seat not in update.timed_out and not any(
                    e["type"] == "stolen" and e["from"] == seat for e in update.events):
                continue  # nothing of this seat's changed
            with hub.readers.privately(table, seat):  # the rack picture is drawn in dm_with_rack
                embed, view = self.prompt(hub, table, seat)
                if any(s == seat and a == {"do": "end"} for s, a in update.forced):
                    embed.description = f"{embed.description}\n{t('sakkara.forced_end')}"
                await dm_with_rack(hub, table, seat, new=fresh, embed=embed, view=view)

    @staticmethod
    async def _retire_dm(hub: TableHub, table: Table, seat: int) -> None:
        if await hub.message_ref(table, "dm", seat) is not None:
            await hub.dm(table, seat, view=None)

    async def reminded(self, hub: TableHub, table: Table, seats: list[int]) -> None:
        """Remind privately that the decision timer is running out."""
        await hub.remind_privately(table, seats)

    async def finished(self, hub: TableHub, table: Table, result: dict[str, Any]) -> None:
        """Post the final pyramids with a Rematch button; the DM prompts lose their buttons."""
        view = GAME.view(table.state, None)
        lines = [t(f"sakkara.ended.{result['ended'] or 'apex'}")]
        for place, seat in enumerate(standings(result), start=1):
            lines.append(t("sakkara.summary_line", place=place, name=seat_label(table.seats[seat]),
                           size=result["scores"][seat], levels=view["levels"][seat], grain=view["grains"][seat]))
        lines.append(winner_line(table, result))
        await post_summary(hub, table, t("sakkara.summary_title"), lines)
        for seat, spec in enumerate(table.seats):
            if not spec.is_ai:
                await self._retire_dm(hub, table, seat)
        self.lines.pop(table.id, None)


    def prompt(self, hub: TableHub, table: Table, seat: int) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return a seat's private state (its rack) and its move controls."""
        return prompt_at(table, seat, "")


async def post_with_image(hub: TableHub, table: Table, kind: str, png: bytes | None, *, new: bool = False,
                          **fields: Any) -> None:
    """``hub.post`` with the board image: ``files`` on a send, ``attachments`` (replaced) on an edit."""
    if png is None:
        await hub.post(table, kind, new=new, **fields)
        return
    module = labels.boards()
    assert module is not None
    if new or await hub.message_ref(table, kind) is None:
        await hub.post(table, kind, new=True, files=[board_file(png, "board.png")], **fields)
        return
    try:
        await hub.post(table, kind, attachments=[board_file(png, "board.png")], **fields)
    except TypeError:  # the message was deleted: hub.post re-sends, and a send takes files, not attachments
        await hub.post(table, kind, new=True, files=[board_file(png, "board.png")], **fields)
