"""Indus on Discord: the drawing of a table (board message, move controls, log, summary).

One public board message per table, edited after every step: the board (a PNG from
``cogs.indus.board`` when that module is installed, else a text grid), whose turn it is, the die,
every player's colours, reserve and prisoners, and a log of what happened. Indus hides nothing,
so the controls of the player to move sit on that public message; anyone else's click is
refused privately by the session. The player to move also gets a short DM nudge with a link.

Every control is built from ``GAME.legal_actions(state, seat)`` only. Placements can exceed a
menu's 25 options (2 players: two colours x three ranks x free spaces), so the piece is chosen
first (buttons that only redraw the controls, no action) and its start space second (a menu of at
most 24 spaces, each option value the full action). No rule lives here.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

from cogs.i18n import t
from cogs.table.buttons import ActButton, ActSelect, guarded, hub_of, refuse
from cogs.table.hub import TableHub
from cogs.table.lobby import post_summary
from cogs.table.text import seat_label, seat_names, standings, winner_line
from engine.core import CHANCE, Event
from engine.indus import GAME
from engine.session import SessionError, Table, Update

__all__ = ["IndusRenderer", "PieceButton", "board_png", "board_text"]

log = logging.getLogger(__name__)

LOG_LINES = 8  # lines of "what happened" kept on the board message
COLOUR_EMOJI = ("🔵", "🟡", "🟢", "🔴")
COLOUR_LETTER = "bygr"
MAX_MOVE_BUTTONS = 20  # more legal moves than this go into menus (never happens with 8-9 frame pieces)
SELECT_MAX = 25
IMAGE_NAME = "board.png"


# --------------------------------------------------------------------------- board picture


def _boards() -> Any:
    """Return the board-image module, or None while it is not installed (text fallback)."""
    try:
        from cogs.indus import board as boards  # imported lazily: the picture module is optional
    except ImportError:
        return None
    return boards if hasattr(boards, "board_image") else None


def board_png(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes | None:
    """Return the board as PNG bytes, or None when the image module is not installed."""
    boards = _boards()
    if boards is None:
        return None
    try:
        png = boards.board_image(view, list(names) if names is not None else None)
    except Exception:  # a drawing bug must not stop the game: fall back to text
        log.warning("indus board image failed; showing the text board", exc_info=True)
        return None
    return png if isinstance(png, bytes) else None


def board_file(png: bytes) -> discord.File:
    """Return the PNG as an attachment named board.png."""
    return discord.File(io.BytesIO(png), filename=IMAGE_NAME)


def _piece_code(piece: dict[str, Any]) -> str:
    return f"{COLOUR_LETTER[piece['colour']]}{piece['rank']}"


def board_text(view: dict[str, Any]) -> str:
    """Return the board as a text grid (frame pieces around, top piece + height in each square)."""
    frame = view["frame"]

    def slot(name: str) -> str:
        return _piece_code(frame[name]) if name in frame else "··"

    cells = {(sq["row"], sq["col"]): sq for sq in view["board"]}
    lines = ["      " + "".join(f"{'ABCDEF'[c]:<5}" for c in range(6)),
             "      " + "".join(f"{slot(f'N{c}'):<5}" for c in range(6))]
    for r in range(6):
        row = []
        for c in range(6):
            sq = cells[(r, c)]
            stack = sq["stack"]
            text = f"{_piece_code(stack[-1])}{len(stack)}" if stack else " . "
            row.append(f"{text}{'*' if sq['owner'] >= 0 else ' '}")
        lines.append(f"{r + 1} {slot(f'W{r}'):>2} |{' '.join(row)}| {slot(f'E{r}')}")
    lines.append("      " + "".join(f"{slot(f'S{c}'):<5}" for c in range(6)))
    lines.append("")
    for r in range(6):
        lines.append(f"{r + 1}     " + "".join(f"{cells[(r, c)]['types']:<5}" for c in range(6)))
    return "```\n" + "\n".join(lines) + "\n```\n" + t("indus.text_legend")


# --------------------------------------------------------------------------- names


def colour_name(colour: int) -> str:
    """Return a colour with its emoji, e.g. '🔵 blue'."""
    return f"{COLOUR_EMOJI[colour]} {t(f'indus.colour{colour}')}"


def rank_name(rank: str) -> str:
    """Return a rank letter's name (Worker, Assistant, Professor)."""
    return t(f"indus.rank_{rank}")


def piece_name(piece: dict[str, Any]) -> str:
    """Return e.g. '🔵 Assistant'."""
    return f"{COLOUR_EMOJI[piece['colour']]} {rank_name(piece['rank'])}"


def space_name(space: str) -> str:
    """Return a start space with where it lies, e.g. 'N3 (top, column 3)'."""
    return t(f"indus.side_{space[0]}", space=space, line=space[1:])


def square_name(row: int, col: int) -> str:
    """Return a square's label as printed on the board image (A1..F6: column letter, row number)."""
    boards = _boards()
    label = getattr(boards, "indus_square_label", None) if boards is not None else None
    if label is not None:
        try:
            return str(label(row, col))
        except TypeError:
            pass
    return f"{'ABCDEF'[col]}{row + 1}"


# --------------------------------------------------------------------------- the piece buttons


class PieceButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"indus:pc:(?P<table>\d+):(?P<window>\d+):(?P<piece>[0-3][WAP])"):
    """Step one of a placement: shows the start-space menu for this piece (applies nothing)."""

    def __init__(self, table_id: int, window: int, piece: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or piece, style=style, row=row,
                                           custom_id=f"indus:pc:{table_id}:{window}:{piece}"))
        self.table_id, self.window, self.piece = table_id, window, piece

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PieceButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]), int(match["window"]), match["piece"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Redraw the controls with this piece's start spaces; refuse anyone but the mover."""
        hub = hub_of(interaction)
        try:
            table = hub.bot.sessions.table(self.table_id)
            if table.status != "playing":
                raise SessionError("not_playing")
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise SessionError("not_seated")
            if self.window != table.window:
                raise SessionError("stale")
            if seat not in table.humans_owing():
                raise SessionError("not_your_turn")
        except SessionError as exc:
            await refuse(interaction, exc)
            return
        renderer = hub.renderer(table)
        assert isinstance(renderer, IndusRenderer)
        await interaction.response.edit_message(view=renderer.controls(table, chosen=self.piece))


# --------------------------------------------------------------------------- the renderer


class IndusRenderer:
    """Draws Indus tables (the hub calls it as the session's listener)."""

    name = "indus"
    command = "indus"

    def __init__(self) -> None:
        self.lines: dict[int, list[str]] = {}  # recent log lines, per table

    def title(self) -> str:
        """Return the game's name."""
        return t("indus.name")

    def options_text(self, table: Table) -> str:
        """Return the options as lobby text."""
        layout_seed = table.table_options.get("layout_seed")
        if layout_seed is not None:
            layout = t("indus.opt_layout_seed", seed=layout_seed)
        elif table.options.get("layout") == "random":
            layout = t("indus.opt_layout_random")
        else:
            layout = t("indus.opt_layout_default")
        seconds = int(table.table_options.get("decision_timeout_s", 120))
        return "\n".join([layout, t("indus.opt_timeout", seconds=seconds)])

    # ------------------------------------------------------------------ the log

    def _log(self, table: Table, events: Sequence[Event], timed_out: Sequence[int]) -> None:
        lines = self.lines.setdefault(table.id, [])
        if timed_out:
            lines.append(t("play.timed_out", names=seat_names(table, list(timed_out)),
                           label=t("indus.timeout_label")))
        for event in events:
            line = self._event_line(table, event)
            if line:
                lines.append(line)
        del lines[:-LOG_LINES]

    @staticmethod
    def _event_line(table: Table, event: Event) -> str | None:
        kind = event["type"]
        who = table.seats[event["seat"]].display_name if isinstance(event.get("seat"), int) else ""
        if kind == "place":
            return t("indus.log_place", name=who, piece=piece_name(event), space=event["space"])
        if kind == "roll":
            return t("indus.log_roll", name=who, die=event["die"], roll=event["roll"])
        if kind == "reroll":
            return t("indus.log_reroll", name=who, die=event["rejected"])
        if kind == "move":
            return t("indus.log_move", name=who, piece=piece_name(event), space=event["space"],
                     square=square_name(event["row"], event["col"]), die=event["die"])
        if kind == "secured":
            return t("indus.log_secured", name=who, colour=colour_name(event["colour"]),
                     square=square_name(event["row"], event["col"]))
        if kind == "captured":
            pieces = ", ".join(piece_name(p) for p in event["pieces"])
            key = "indus.log_arrival" if event["arrival"] else "indus.log_captured"
            return t(key, name=table.seats[event["by"]].display_name, pieces=pieces,
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

    async def _rebuild_log(self, hub: TableHub, table: Table, update: Update) -> None:
        """After a restart, rebuild the recent log by replaying the stored actions."""
        self.lines[table.id] = []
        for events in await hub.past_events(table, table.version - len(update.actors)):
            self._log(table, events, [])

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

    def _players_field(self, table: Table, view: dict[str, Any]) -> str:
        lines = []
        scores = view["standing"]["scores"]
        for seat in range(len(table.seats)):
            parts = []
            for colour in view["seat_colours"][seat]:
                pool = view["start_pieces"][colour] if view["phase"] == "setup" else view["reserve"][colour]
                counts = " ".join(f"{k}{v}" for k, v in pool.items())
                parts.append(f"{COLOUR_EMOJI[colour]} {counts}")
            taken = view["prisoners"][seat]
            prison = sum({"W": 1, "A": 2, "P": 3}[p["rank"]] for p in taken)
            lines.append(t("indus.player_line", name=seat_label(table.seats[seat]), pools=" · ".join(parts),
                           prisoners=len(taken), prison_points=prison, score=scores[seat]))
        return "\n".join(lines)

    def board_embed(self, table: Table, png: bool) -> discord.Embed:
        """Return the public embed (drawn from the public view); ``png``: the image is attached."""
        view = GAME.view(table.state, None)
        title = t("indus.title_setup") if view["phase"] == "setup" else t("indus.title_turn", turn=view["turn"])
        embed = discord.Embed(title=title, colour=discord.Colour.dark_teal())
        status = self._status_line(table, view)
        if view["phase"] != "over" and table.seats[view["seat"]].is_ai:
            status += "\n" + t("indus.ai_thinking")
        embed.description = status if png else f"{status}\n{board_text(view)}"
        players = t("indus.players_setup") if view["phase"] == "setup" else t("indus.players")
        embed.add_field(name=players, value=self._players_field(table, view)[:1024], inline=False)
        log_lines = self.lines.get(table.id, [])
        if log_lines:
            embed.add_field(name=t("indus.log"), value="\n".join(log_lines)[-1024:], inline=False)
        if png:
            embed.set_image(url=f"attachment://{IMAGE_NAME}")
        return embed

    def controls(self, table: Table, chosen: str | None = None) -> discord.ui.View | None:
        """Return the move controls of the human to move, built from the legal actions only."""
        if table.status != "playing":
            return None
        owing = table.humans_owing()
        if not owing:
            return None
        seat = owing[0]
        legal = GAME.legal_actions(table.state, seat)
        if not legal:
            return None
        view = discord.ui.View(timeout=None)
        if legal[0]["do"] == "place":
            self._placement_controls(table, view, legal, chosen)
        elif legal[0]["do"] in ("keep", "return"):
            for action in legal:
                style = discord.ButtonStyle.success if action["do"] == "keep" else discord.ButtonStyle.primary
                view.add_item(ActButton(table.id, table.window, action,
                                        t(f"indus.{action['do']}", piece=piece_name(action))[:80], style))
        else:
            self._move_controls(table, view, legal)
        return view

    def _placement_controls(self, table: Table, view: discord.ui.View, legal: list[Any], chosen: str | None) -> None:
        groups: dict[str, list[Any]] = {}
        for action in legal:
            groups.setdefault(f"{action['colour']}{action['rank']}", []).append(action)
        pick = chosen if chosen in groups else next(iter(groups))
        state_view = GAME.view(table.state, None)
        pools = state_view["start_pieces"] if state_view["phase"] == "setup" else state_view["reserve"]
        if len(groups) > 1:
            for n, key in enumerate(groups):
                piece = {"colour": int(key[0]), "rank": key[1]}
                label = t("indus.piece_button", piece=piece_name(piece), left=pools[piece["colour"]][key[1]])
                style = discord.ButtonStyle.primary if key == pick else discord.ButtonStyle.secondary
                view.add_item(PieceButton(table.id, table.window, key, label[:80], style, row=n // 5))
        actions = groups[pick]
        first_row = (len(groups) + 4) // 5 if len(groups) > 1 else 0
        piece = {"colour": int(pick[0]), "rank": pick[1]}
        for page in range(0, len(actions), SELECT_MAX):
            chunk = actions[page:page + SELECT_MAX]
            options = [(space_name(a["space"]), a) for a in chunk]
            view.add_item(ActSelect(table.id, table.window, options,
                                    t("indus.space_placeholder", piece=piece_name(piece))[:150],
                                    tag=f"p{pick.lower()}{page // SELECT_MAX}", row=first_row + page // SELECT_MAX))

    def _move_controls(self, table: Table, view: discord.ui.View, legal: list[Any]) -> None:
        moves = [a for a in legal if a["do"] == "move"]
        labels = [(t("indus.move_button", piece=piece_name(a), space=a["space"],
                          square=square_name(a["row"], a["col"])), a)
                  for a in moves]
        if len(moves) <= MAX_MOVE_BUTTONS:
            for n, (label, action) in enumerate(labels):
                view.add_item(ActButton(table.id, table.window, action, label[:80], discord.ButtonStyle.primary,
                                        row=n // 5))
            next_row = (len(moves) + 4) // 5
        else:
            for page in range(0, len(labels), SELECT_MAX):
                view.add_item(ActSelect(table.id, table.window, labels[page:page + SELECT_MAX],
                                        t("indus.move_placeholder"), tag=f"m{page // SELECT_MAX}",
                                        row=page // SELECT_MAX))
            next_row = (len(labels) + SELECT_MAX - 1) // SELECT_MAX
        if any(a["do"] == "reroll" for a in legal):
            state_view = GAME.view(table.state, None)
            label = t("indus.reroll_button", roll=state_view["roll"] + 1,
                      ranks=" / ".join(rank_name(r) for r in "WAP"[state_view["roll"]:]))
            view.add_item(ActButton(table.id, table.window, {"do": "reroll"}, label[:80],
                                    discord.ButtonStyle.secondary, row=min(next_row, 4)))

    def _fields(self, table: Table) -> tuple[dict[str, Any], bytes | None]:
        png = board_png(GAME.view(table.state, None), [seat.display_name for seat in table.seats])
        owing = table.humans_owing()
        content = t("indus.your_turn_public", mention=f"<@{table.seats[owing[0]].user_id}>") if owing else None
        fields = {"content": content, "embed": self.board_embed(table, png is not None),
                  "view": self.controls(table)}
        return fields, png

    async def _post_board(self, hub: TableHub, table: Table) -> None:
        fields, png = self._fields(table)
        if png is not None:
            # A new message takes files, an edit replaces its attachments.
            exists = await hub.message_ref(table, "board") is not None
            fields["attachments" if exists else "files"] = [board_file(png)]
        try:
            await hub.post(table, "board", **fields)
        except TypeError:
            if "attachments" not in fields or png is None:
                raise
            # The board message was deleted: hub.post re-sends it with the edit's fields, and a
            # new message takes files, not attachments. Post a fresh board message instead.
            del fields["attachments"]
            await hub.post(table, "board", new=True, files=[board_file(png)], **fields)

    async def refresh(self, hub: TableHub, table: Table) -> None:
        """Redraw the board message."""
        await self._post_board(hub, table)

    # ------------------------------------------------------------------ Listener parts

    async def played(self, hub: TableHub, update: Update) -> None:
        """Log the events, redraw the board message, nudge the player whose turn it now is."""
        table = update.table
        if table.id not in self.lines and table.version > len(update.actors):
            await self._rebuild_log(hub, table, update)
        self._log(table, update.events, update.timed_out)
        await self._post_board(hub, table)
        if table.status != "playing" or not update.new_window:
            return
        humans = [s for s in update.actors if s != CHANCE]
        for seat in table.humans_owing():
            if humans and humans[-1] == seat and not update.timed_out:
                continue  # the same player goes on with their turn: no new nudge
            await self._nudge(hub, table, seat)

    async def _jump_url(self, hub: TableHub, table: Table) -> str:
        ref = await hub.message_ref(table, "board")
        if ref is None:
            return f"<#{table.channel_id}>"
        return f"https://discord.com/channels/{table.guild_id}/{ref[0]}/{ref[1]}"

    async def _nudge(self, hub: TableHub, table: Table, seat: int) -> None:
        url = await self._jump_url(hub, table)
        await hub.dm(table, seat, new=True, content=t("indus.nudge", channel=f"<#{table.channel_id}>", url=url))

    async def reminded(self, hub: TableHub, table: Table, seats: list[int]) -> None:
        """Remind the player to move by DM that the timer is running out (nothing is secret)."""
        left = int(max(0.0, (table.deadline or 0) - hub.bot.sessions.clock.now()))
        url = await self._jump_url(hub, table)
        for seat in seats:
            text = t("indus.reminder", seconds=left, url=url)
            await hub.dm(table, seat, new=True, content=text)

    async def finished(self, hub: TableHub, table: Table, result: dict[str, Any]) -> None:
        """Post the final scoring, ruin by ruin, with a Rematch button."""
        view = GAME.view(table.state, None)
        colour_seat = {c["colour"]: c["seat"] for c in view["colours"]}
        ruin_lines = []
        for ruin in view["layout"]["ruins"]:
            value = f"{ruin['first']}/{ruin['second']}" if "second" in ruin else str(ruin["first"])
            got = result["ruins"].get(ruin["id"], {})
            takers = ", ".join(t("indus.ruin_taker", colour=COLOUR_EMOJI[int(c)],
                                 name=table.seats[colour_seat[int(c)]].display_name, points=p)
                               for c, p in sorted(got.items(), key=lambda kv: -kv[1]))
            ruin_lines.append(t("indus.ruin_line", id=ruin["id"], type=t(f"indus.type_{ruin['id'][0]}"),
                                value=value, takers=takers or t("indus.ruin_nobody")))
        scores = result["scores"]
        total_lines = []
        for place, seat in enumerate(standings(result), start=1):
            colours = " + ".join(f"{COLOUR_EMOJI[c]} {result['colour_points'][c]}"
                                 for c in view["seat_colours"][seat])
            total_lines.append(t("indus.summary_line", place=place, name=seat_label(table.seats[seat]),
                                 score=scores[seat], ruins=colours, prisoners=result["prisoner_points"][seat]))
        total_lines.append(winner_line(table, result))
        if sum(1 for s in scores if s == max(scores)) > len(result["winners"]):
            total_lines.append(t("indus.tiebreak"))
        ruins = "\n".join(ruin_lines)
        fields = [(t("indus.summary_ruins"), ruins[:1024])]
        if len(ruins) > 1024:  # a huge custom layout: the rest in a second field
            fields.append(("…", ruins[1024:2048]))
        await post_summary(hub, table, t("indus.summary_title"), total_lines, fields)
        self.lines.pop(table.id, None)

    def prompt(self, hub: TableHub, table: Table, seat: int) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return the board with the controls of whoever is to move (the same for every seat).

        ``act_and_confirm`` edits the clicked message with this; that is the public board
        message, whose attachment (the image) an edit without attachments keeps.
        """
        return self.board_embed(table, board_png_available()), self.controls(table)


def board_png_available() -> bool:
    """Return True when the board-image module can be imported."""
    return _boards() is not None
