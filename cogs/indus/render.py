"""Indus on Discord: the drawing of a table (board message, move controls, log, summary).

One public board message per table, edited after every step: the board (a PNG from
``pictures.indus.board`` when that module is installed, else a text grid), whose turn it is, the die,
every player's colours, reserve and prisoners, and a log of what happened. Indus hides nothing,
so the controls of the player to move sit on that public message; anyone else's click is
refused privately by the session. The player to move also gets a short DM nudge with a link.

The controls are built in :mod:`cogs.indus.controls`, names and the board picture come from
:mod:`cogs.indus.words`, the end of the game is :mod:`cogs.indus.summary`. No rule lives here.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import discord

from cogs.indus.controls import controls
from cogs.indus.summary import summary
from cogs.indus.words import (
    COLOUR_EMOJI,
    IMAGE_NAME,
    RANK_MARK,
    RUIN_ICON,
    board_png,
    board_png_available,
    board_text,
    colour_name,
    piece_name,
    rank_name,
    space_label,
    square_name,
)
from cogs.table.answer import Answer, acknowledged_while_drawing, answer_of
from cogs.table.messages.attach import board_file
from cogs.table.messages.fields import add_split_field, newest_lines
from cogs.table.messages.hub import TableHub
from cogs.table.messages.story import round_chapters
from cogs.table.messages.text import deadline_line, name_of, pace_rules, seat_label
from engine.core import CHANCE, Event
from engine.indus import GAME
from engine.session import Table, Update
from i18n import t, tn
from pictures.drawing import drawn

__all__ = ["IndusRenderer"]


class IndusRenderer:
    """Draws Indus tables (the hub's listener routes the session's updates here)."""

    name = "indus"
    command = "indus"
    dm_prompts = True  # a turn can be played from a DM prompt (cogs.table.messages.notices)

    def title(self) -> str:
        """Return the game's name."""
        return t("indus.name")

    def timeout_label(self, events: Sequence[Event], you: bool = False) -> str:
        """Return what a timeout plays (``you``: said to the player it happened to)."""
        return t("indus.timeout_you" if you else "indus.timeout_label")

    def board_kind(self, table: Table) -> str:
        """Return the kind of the public board message."""
        return "board"

    def closed_fields(self, hub: TableHub, table: Table, kind: str) -> dict[str, Any]:
        """Redraw the board's embed as it stands (no deadline) when it closes; its image stays."""
        if kind != "board" or table.state is None:
            return {}
        pictures = board_png_available() and hub.permissions.may(table.channel_id, "attach")
        return {"embed": self.board_embed(table, pictures, hub)}

    def options_text(self, table: Table) -> str:
        """Return the options as lobby text."""
        layout_seed = table.table_options.get("layout_seed")
        if layout_seed is not None:
            layout = t("indus.opt_layout_seed", seed=layout_seed)
        elif table.options.get("layout") == "random":
            layout = t("indus.opt_layout_random")
        else:
            layout = t("indus.opt_layout_default")
        return "\n".join([layout, pace_rules(table)])

    # ------------------------------------------------------------------ the log

    def event_lines(self, table: Table, events: Sequence[Event]) -> list[str]:
        """Return the log lines of an update's events (Indus hides nothing)."""
        return [line for line in (self._event_line(table, e) for e in events) if line]

    @staticmethod
    def _event_line(table: Table, event: Event) -> str | None:
        kind = event["type"]
        who = name_of(table.seats[event["seat"]]) if isinstance(event.get("seat"), int) else ""
        if kind == "place":
            return t("indus.log_place", name=who, piece=piece_name(event), space=space_label(event["space"]))
        if kind == "roll":
            return t("indus.log_roll", name=who, die=event["die"], roll=event["roll"])
        if kind == "reroll":
            return t("indus.log_reroll", name=who, die=event["rejected"])
        if kind == "move":
            return tn("indus.log_move", event["die"], name=who, piece=piece_name(event),
                      space=space_label(event["space"]), square=square_name(event["row"], event["col"]))
        if kind == "secured":
            return t("indus.log_secured", name=who, colour=colour_name(event["colour"]),
                     square=square_name(event["row"], event["col"]))
        if kind == "captured":
            pieces = ", ".join(piece_name(p) for p in event["pieces"])
            key = "indus.log_arrival" if event["arrival"] else "indus.log_captured"
            return t(key, name=name_of(table.seats[event["by"]]), pieces=pieces,
                     colour=colour_name(event["by_colour"]), square=square_name(event["row"], event["col"]))
        if kind == "own_capture":
            return t("indus.log_own_capture", name=who, piece=piece_name(event))
        if kind in ("kept", "returned"):
            return t(f"indus.log_{kind}", name=who, piece=piece_name(event))
        if kind == "skipped":
            return t("indus.log_skipped", name=who)
        if kind == "game_over":
            return t("indus.log_over")
        return None

    # ------------------------------------------------------------------ the board message

    def _who(self, table: Table, view: dict[str, Any], seat: int) -> str:
        colours = " + ".join(colour_name(c) for c in view["seat_colours"][seat])
        return f"**{seat_label(table.seats[seat])}** ({colours})"

    def _status_line(self, table: Table, view: dict[str, Any]) -> str:
        phase = view["phase"]
        if phase == "over":
            return t("indus.status_over")
        seat = view["seat"]
        who = self._who(table, view, seat)
        if phase == "setup":
            return t("indus.status_setup", who=who)
        if phase == "place":
            return t("indus.status_place", who=who, turn=view["turn"])
        if phase == "keep":
            return t("indus.status_keep", who=who, piece=piece_name(view["pending"]))
        if phase == "move":
            ranks = " / ".join(rank_name(r) for r in view["ranks_allowed"])
            text = t("indus.status_move", who=who, turn=view["turn"], die=view["die"], roll=view["roll"],
                     ranks=ranks)
            if view["placed_colour"] is not None and view["players"] == 2:
                text += " " + t("indus.status_colour", colour=colour_name(view["placed_colour"]))
            if view["reroll_allowed"]:
                text += " " + t("indus.status_reroll")
            return text
        return t("indus.status_turn", who=who, turn=view["turn"])

    def _players_field(self, table: Table, view: dict[str, Any]) -> list[str]:
        lines = []
        scores = view["standing"]["scores"]
        for seat in range(len(table.seats)):
            parts = []
            for colour in view["seat_colours"][seat]:
                pool = view["start_pieces"][colour] if view["phase"] == "setup" else view["reserve"][colour]
                counts = " ".join(f"{RANK_MARK.get(k, k)}{v}" for k, v in pool.items())
                parts.append(f"{COLOUR_EMOJI[colour]} {counts}")
            taken = view["prisoners"][seat]
            prison = sum({"W": 1, "A": 2, "P": 3}[p["rank"]] for p in taken)
            lines.append(t("indus.player_line", name=seat_label(table.seats[seat]), pools=" · ".join(parts),
                           prisoners=len(taken), prison_points=prison, score=scores[seat]))
        return lines

    def board_embed(self, table: Table, png: bool, hub: TableHub | None = None) -> discord.Embed:
        """Return the public embed (drawn from the public view); ``png``: the image is attached."""
        view = GAME.view(table.state, None)
        title = t("indus.title_setup") if view["phase"] == "setup" else t("indus.title_turn", turn=view["turn"])
        embed = discord.Embed(title=title, colour=discord.Colour.dark_teal())
        status = self._status_line(table, view)
        if view["phase"] != "over" and table.seats[view["seat"]].is_ai:
            status += "\n" + t("indus.ai_thinking")
        deadline = deadline_line(table)
        if deadline:
            status += "\n" + deadline
        embed.description = status if png else f"{status}\n{board_text(view)}"
        players = t("indus.players_setup") if view["phase"] == "setup" else t("indus.players")
        add_split_field(embed, players, self._players_field(table, view), "\n")
        add_split_field(embed, t("indus.ruins_now"), self._ruins_field(view), " · ")
        log_lines = hub.story.lines(table) if hub is not None else []
        if log_lines:
            embed.add_field(name=t("indus.log"), value=newest_lines(log_lines), inline=False)
        if png:
            embed.set_image(url=f"attachment://{IMAGE_NAME}")
            embed.set_footer(text=t("indus.legend"))
        return embed

    async def replay_board(self, table: Table) -> tuple[discord.Embed, discord.File | None]:
        """Return the board of a replay's step: the board embed with its picture (Indus hides nothing)."""
        png = await drawn(board_png, GAME.view(table.state, None), [s.display_name for s in table.seats]) \
            if board_png_available() else None
        embed = self.board_embed(table, png is not None)
        # Live, a bot's turn says the bot is thinking; in a replay its move is already there.
        embed.description = (embed.description or "").replace("\n" + t("indus.ai_thinking"), "")
        return embed, None if png is None else board_file(png, IMAGE_NAME)

    @staticmethod
    def _ruins_field(view: dict[str, Any]) -> list[str]:
        """Each ruin's value and who would score it if the game ended now (the picture names the ruins)."""
        got = view["standing"]["ruins"]
        parts = []
        for ruin in view["layout"]["ruins"]:
            value = f"{ruin['first']}/{ruin['second']}" if "second" in ruin else str(ruin["first"])
            takers = " ".join(f"{COLOUR_EMOJI[int(c)]}{p}" for c, p in
                              sorted(got.get(ruin["id"], {}).items(), key=lambda kv: (-kv[1], int(kv[0]))))
            # The id as the picture prints it, after its type's icon (W1 is a wall, not a worker).
            icon = RUIN_ICON.get(str(ruin["id"])[:1], "")
            parts.append(f"{icon}**{ruin['id']}** {value}" + (f" {takers}" if takers else ""))
        return parts

    async def _fields(self, hub: TableHub, table: Table, answer: Answer | None) -> tuple[dict[str, Any], bytes | None]:
        png = None
        if await hub.may(table, "attach"):  # else the text board: nothing is drawn that cannot be sent
            with acknowledged_while_drawing(answer):
                png = await drawn(board_png, GAME.view(table.state, None), [seat.display_name for seat in table.seats])
        owing = table.humans_owing()
        content = t("indus.your_turn_public", mention=f"<@{table.seats[owing[0]].user_id}>") if owing else None
        # The mention marks the line for its player but never pings: a turn is told by a notice of
        # its own (cogs.table.messages.notices), and an edit's mention would not notify anyway.
        fields = {"content": content, "embed": self.board_embed(table, png is not None, hub),
                  "view": controls(table), "allowed_mentions": discord.AllowedMentions.none()}
        return fields, png

    async def _post_board(self, hub: TableHub, table: Table, answer: Answer | None) -> None:
        if await hub.post_when_sent(table, "board", lambda: self._drawn_when_sent(hub, table), answer):
            return  # an edit of the board waits for budget: it is drawn when it goes
        fields, png = await self._fields(hub, table, answer)
        if png is not None:
            # A new message takes files, an edit replaces its attachments.
            exists = await hub.message_ref(table, "board") is not None
            fields["attachments" if exists else "files"] = [board_file(png)]
        try:
            await hub.post(table, "board", answer=answer, **fields)
        except TypeError:
            if "attachments" not in fields or png is None:
                raise
            # The board message was deleted: hub.post re-sends it with the edit's fields, and a
            # new message takes files, not attachments. Post a fresh board message instead.
            del fields["attachments"]
            await hub.post(table, "board", new=True, answer=answer, files=[board_file(png)], **fields)

    async def _drawn_when_sent(self, hub: TableHub, table: Table) -> dict[str, Any]:
        """The board's fields, drawn as the table stands (by a queued edit, when it is sent: the click
        of the update that queued it is long answered)."""
        with hub.readers.publicly(table):
            fields, png = await self._fields(hub, table, None)
        if png is not None:
            fields["files"] = [board_file(png)]  # an edit sends them as its attachments
        return fields

    async def refresh(self, hub: TableHub, table: Table, answer: Answer | None = None) -> None:
        """Redraw the board message."""
        await self._post_board(hub, table, answer)

    # ------------------------------------------------------------------ Listener parts

    async def played(self, hub: TableHub, update: Update) -> None:
        """Log the events, redraw the board message, tell the person whose turn it now is, and keep
        the DM prompts in step: the mover's redrawn when they play from it, else closed."""
        table = update.table
        answer = answer_of(update.origin)
        # A round (every seat's turn) is a chapter of the game's log: it ends when seat 0's turn begins.
        await hub.story.played(update, self, chapter_end=round_chapters(table, lambda events: any(
            e["type"] == "turn" and e["seat"] == 0 for e in events)))
        if not await self._mid_turn_in_dm(hub, update):
            await self._post_board(hub, table, answer)
        if table.status != "playing":
            return  # the summary closes every prompt
        told: set[int] = set()
        if update.new_window:
            humans = [s for s in update.actors if s != CHANCE]
            for seat in table.humans_owing():
                if humans and humans[-1] == seat and not update.timed_out:
                    continue  # the same player goes on with their turn: no new notice
                route = await hub.notices.tell(table, seat, dm=partial(self._dm_prompt, hub, table, seat, new=True,
                                                                       answer=answer))
                if route == "dm":
                    told.add(seat)
        await self._keep_prompts(hub, table, told, answer)

    async def _mid_turn_in_dm(self, hub: TableHub, update: Update) -> bool:
        """Return True when a player plays their turn from their DM prompt and it goes on: the board
        waits for the turn's end (one edit a turn instead of one a step; the prompt, redrawn through
        the click, shows the step, and the log has it)."""
        table, answer = update.table, answer_of(update.origin)
        owing = table.humans_owing()
        if table.status != "playing" or answer is None or not owing or update.timed_out:
            return False
        movers = [s for s in update.actors if s != CHANCE]
        if not movers or movers[-1] != owing[0]:
            return False
        ref = await hub.message_ref(table, "dm", owing[0])
        return ref is not None and answer.pressed(ref[1])

    async def _keep_prompts(self, hub: TableHub, table: Table, told: set[int], answer: Answer | None) -> None:
        """Keep each open DM prompt the place to act, or close it: the person to move who played from
        it sees it redrawn (through their click); one who went on at the board, or whose turn is
        over, sees it closed (the board is where the game is; the decision is not theirs now)."""
        owing = table.humans_owing()
        for seat, spec in enumerate(table.seats):
            if seat in told or spec.is_ai or spec.user_id is None:
                continue
            ref = await hub.message_ref(table, "dm", seat)
            if ref is None or not hub.book.is_open((table.id, "dm", seat)):
                continue
            if seat in owing and answer is not None and answer.pressed(ref[1]):
                await self._dm_prompt(hub, table, seat, answer=answer)
                continue
            url = await hub.link(table, "board")
            with hub.readers.privately(table, seat):
                note = t("indus.prompt_moved_on", url=url) if seat in owing else t("play.closed_moved_on")
            await hub.private.close_prompt(table, seat, note, answer=answer)

    async def _dm_prompt(self, hub: TableHub, table: Table, seat: int, *, new: bool = False,
                         answer: Answer | None = None) -> bool:
        """Send (``new``) or redraw a person's DM prompt: the board and its controls, to play from
        the DM as from the channel; False when their DMs are known to be closed."""
        with acknowledged_while_drawing(answer):
            png = await drawn(board_png, GAME.view(table.state, None), [seat.display_name for seat in table.seats])
        url = await hub.link(table, "board")
        with hub.readers.privately(table, seat):
            # Without the game's log: its lines are the channel's (in the server's language), and
            # the board message and the thread keep it.
            embed = self.board_embed(table, png is not None)
            content = t("indus.nudge", channel=f"<#{table.channel_id}>", url=url)
            view = controls(table)
        if png is None:
            return await hub.private.prompt(table, seat, new=new, answer=answer, content=content, embed=embed,
                                            view=view)
        return await hub.private.prompt_with_file(table, seat, lambda: [board_file(png)], new=new, answer=answer,
                                                  content=content, embed=embed, view=view)

    async def reminded(self, hub: TableHub, table: Table, seats: list[int]) -> None:
        """Remind the player to move by DM (the Easy bot plays what they owe at the deadline); one
        whose DMs are closed is named in the channel (nothing is secret)."""
        await hub.remind(table, seats, "play.reminder_bot", "play.reminder_bot_channel")

    async def waited(self, hub: TableHub, table: Table) -> None:
        """Nothing: one person moves at a time, told when the turn became theirs; the reminders
        follow."""

    async def finished(self, hub: TableHub, table: Table, result: dict[str, Any]) -> None:
        """Post the final scoring, ruin by ruin, with a Rematch button."""
        await summary(hub, table, result)

    def already(self, hub: TableHub, table: Table, seat: int) -> str | None:
        """Nothing: one player decides at a time, and a decision made moves the turn on."""
        return None

    def prompt(self, hub: TableHub, table: Table, seat: int) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return the board with the controls of whoever is to move (the same for every seat).

        ``act_and_confirm`` edits the clicked message with this; that is the public board
        message, whose attachment (the image) an edit without attachments keeps.
        """
        with hub.readers.publicly(table):  # the board message is public, whoever clicked
            return self.board_embed(table, board_png_available(), hub), controls(table)
