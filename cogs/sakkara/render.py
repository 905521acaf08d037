"""Sakkara on Discord: the drawing of a table (public board message, private prompts, summary).

Public: one message per game, edited after every accepted action: the board image (from
``cogs.drawing`` when it is installed, else a text board), whose turn it is, each builder's
displays and pyramid, the used-tile stack and a short log drawn from the *public* events only
(the Snake's reveal and the stolen tile carry ``private_to`` and never show). Private: the seat
to move gets a DM prompt with its rack and the move controls, one DM per hand-over, edited as
the turn goes on; with closed DMs the "Choose" button opens the same prompt ephemerally.

Every control is built from ``GAME.legal_actions(state, seat)`` only; the grouping (step
buttons per worker, a menu of specials and spells, a space picker split into menus of 25) is
presentation. A sub-menu is opened with a :class:`NavButton` / :class:`NavSelect`, whose
custom_id carries the table, the decision window and the group, so it survives a restart and a
stale one is refused privately.
"""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import discord

from cogs.drawing import board_file
from cogs.i18n import t
from cogs.table.buttons import ActButton, ActSelect, PeekButton, guarded, hub_of, refuse
from cogs.table.hub import TableHub
from cogs.table.lobby import post_summary
from cogs.table.text import seat_label, seat_names, standings, winner_line
from engine.core import CHANCE, Event
from engine.sakkara import GAME
from engine.sakkara.state import NEIGHBOURS
from engine.session import SessionError, Table, Update

__all__ = ["NAV_ITEMS", "NavButton", "NavSelect", "SakkaraRenderer", "boards", "names", "space_name", "worker_name"]

log = logging.getLogger(__name__)

LOG_LINES = 8  # lines of "what happened" kept on the board message
MENU = 25  # Discord's limit of options per select menu
MENUS_PER_PAGE = 4  # select menus per prompt page; the fifth row holds Back / page buttons
SIDE = 7
ARROWS = {"N": "⬆️", "E": "➡️", "S": "⬇️", "W": "⬅️"}
SHORT = {  # two letters per motif for the text board (presentation only)
    "ship": "Sh", "grain": "Gr", "apex": "Ap", "corner_stone": "Co", "stairs": "St", "moon": "Mo",
    "circle": "Ci", "double_line": "Dl", "cross": "Cr", "braid": "Br", "eye": "Ey", "helping_hand": "Hh",
    "snake": "Sn", "horse": "Ho", "bird": "Bi", "ox": "Ox",
}
MOTIF_ORDER = list(SHORT)  # the engine's motif order (tiles.MOTIFS)
SPELL_GROUPS = ("firestorm", "whirlwind", "shipwreck", "drought")


def boards() -> ModuleType | None:
    """Return ``cogs.drawing`` (board images) when installed, else None: the text board is used."""
    try:
        return importlib.import_module("cogs.sakkara.board")
    except ImportError:
        return None


def space_name(space: int) -> str:
    """Return a space's name: column letter A-G (west to east), row 1-7 (north to south)."""
    row, col = divmod(space, SIDE)
    return f"{'ABCDEFG'[col]}{row + 1}"


def worker_name(seat: int, worker: int) -> str:
    """Return a worker's name as the board image prints it: 1A, 1B (seat 1), 2A, 2B (seat 2)."""
    return f"{seat + 1}{'AB'[worker]}"


def motif(name: str | None) -> str:
    """Return a motif's display name."""
    return t(f"sakkara.m.{name}") if name else t("sakkara.nothing")


def counts_text(counts: dict[str, int]) -> str:
    """Return a rack-like multiset as text, in the table's motif order."""
    items = [(m, counts[m]) for m in MOTIF_ORDER if counts.get(m)]
    return ", ".join(f"{c}× {motif(m)}" if c > 1 else motif(m) for m, c in items) or t("sakkara.empty")


def group_of(action: dict[str, Any]) -> str:
    """Return the prompt group an action is shown in (presentation only)."""
    kind = action["do"]
    if kind == "bird":
        return f"bird{action['worker']}"
    if kind == "cast":
        return str(action["spell"])
    if kind == "return":
        return f"ret{action['count']}"
    return str(kind)


# --------------------------------------------------------------------------- action labels


def _space_label(view: dict[str, Any], space: int) -> str:
    cell = view["board"][space]
    if not cell["height"]:
        return t("sakkara.space_empty", space=space_name(space))
    return t("sakkara.space", space=space_name(space), height=cell["height"], top=motif(cell["top"]))


def action_label(view: dict[str, Any], action: dict[str, Any]) -> str:
    """Return a menu label for one legal action, from the seat's view."""
    kind = action["do"]
    if kind in ("place", "return"):
        return _space_label(view, int(action["space"]))
    if kind == "bird":
        return _space_label(view, int(action["space"]))
    if kind == "ox":
        seat = int(view["seat"])
        pos = view["workers"][seat][int(action["worker"])]
        return t("sakkara.ox_option", worker=worker_name(seat, int(action["worker"])), count=action["count"],
                 dir=t(f"sakkara.dir.{action['dir']}"), space=space_name(pos))
    if kind == "cast":
        order = " → ".join(motif(m) for m in str(action["order"]).split(","))
        if "worker" in action:
            target = t("sakkara.cast_worker", worker=worker_name(int(view["seat"]), int(action["worker"])))
            if "line" in action:
                target += " " + t(f"sakkara.line.{action['line']}")
            return f"{target} · {order}"
        return order
    if kind in ("display", "build", "steal", "discard"):
        return t(f"sakkara.do.{kind}", motif=motif(str(action["motif"])))
    if kind == "horse":
        return t("sakkara.do.horse", steps=action["steps"])
    return t(f"sakkara.do.{kind}")


# --------------------------------------------------------------------------- navigation items


class NavButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"skn:(?P<table>\d+):(?P<window>\d+):(?P<group>[a-z0-9.]*)"):
    """Opens a sub-menu of the prompt (or Back / another page); changes nothing in the game."""

    def __init__(self, table_id: int, window: int, group: str, label: str,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, row=row,
                                           custom_id=f"skn:{table_id}:{window}:{group}"))
        self.table_id, self.window, self.group = table_id, window, group

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> NavButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]), int(match["window"]), match["group"], "")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Redraw the clicked prompt at the group."""
        await navigate(interaction, self.table_id, self.window, self.group)


class NavSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                template=r"sks:(?P<table>\d+):(?P<window>\d+)"):
    """A menu of sub-menus (specials and spells): each option's value is a group name."""

    def __init__(self, table_id: int, window: int, options: Sequence[tuple[str, str]], placeholder: str = "",
                 row: int | None = None) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"sks:{table_id}:{window}", placeholder=placeholder or None, row=row,
            options=[discord.SelectOption(label=label[:100], value=group) for label, group in options[:MENU]])
        super().__init__(select)
        self.table_id, self.window = table_id, window

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> NavSelect:
        """Rebuild the menu from its custom_id (the chosen group arrives with the interaction)."""
        return cls(int(match["table"]), int(match["window"]), [])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Redraw the prompt at the chosen group."""
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or [""]
        group = str(values[0])
        if not re.fullmatch(r"[a-z0-9.]*", group):
            group = ""
        await navigate(interaction, self.table_id, self.window, group)


async def navigate(interaction: discord.Interaction, table_id: int, window: int, group: str) -> None:
    """Show the clicker's prompt at ``group``; refuse privately when stale or not theirs."""
    hub = hub_of(interaction)
    try:
        table = hub.bot.sessions.table(table_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise SessionError("not_seated")
        if table.status != "playing":
            raise SessionError("not_playing")
        if window != table.window:
            raise SessionError("stale")
    except SessionError as exc:
        await refuse(interaction, exc)
        return
    renderer = hub.renderer(table)
    assert isinstance(renderer, SakkaraRenderer)
    embed, view = renderer.prompt_at(table, seat, group)
    await interaction.response.edit_message(embed=embed, view=view)


NAV_ITEMS = (NavButton, NavSelect)


# --------------------------------------------------------------------------- the renderer


class SakkaraRenderer:
    """Draws Sakkara tables (the hub calls it as the session's listener)."""

    name = "sakkara"
    command = "sakkara"

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
            lines.append(t("play.timed_out", names=seat_names(table, timed_out), label=table.spec.timeout_label))
        for event in events:
            if "private_to" in event:
                continue  # the Snake's reveal and the stolen tile: never public
            line = self._line(table, event)
            if line:
                lines.append(line)
        del lines[:-LOG_LINES]

    def _line(self, table: Table, e: Event) -> str:
        kind = e["type"]
        if kind == "deal":
            return t("sakkara.log.deal")
        name = table.seats[e["seat"]].display_name if "seat" in e else "?"
        other = table.seats[1 - e["seat"]].display_name if "seat" in e else "?"
        if kind in ("place", "bird"):
            space = e["space"] if kind == "place" else e["to"]
            return t(f"sakkara.log.{kind}", name=name, space=space_name(space), took=motif(e["took"]))
        if kind == "step":
            extra = " " + t("sakkara.log.stairs") if e["stairs"] else ""
            return t("sakkara.log.step", name=name, dir=t(f"sakkara.dir.{e['dir']}"), space=space_name(e["to"]),
                     took=motif(e["took"])) + extra
        if kind == "horse":
            took = ", ".join(motif(m["took"]) for m in e["moves"])
            return t("sakkara.log.horse", name=name, steps=len(e["moves"]), space=space_name(e["moves"][-1]["to"]),
                     took=took)
        if kind == "ox":
            return t("sakkara.log.ox", name=name, count=e["count"], frm=space_name(e["from"]), to=space_name(e["to"]),
                     top=motif(e["top"]))
        if kind == "cast":
            took = ", ".join(motif(m) for _, m in e.get("took", []))
            key = f"sakkara.log.cast_{e['spell']}"
            return t(key, name=name, other=other, took=took or t("sakkara.nothing"))
        if kind == "return":
            tiles = ", ".join(motif(m) for m in e["tiles"])
            return t("sakkara.log.return", name=name, count=e["count"], space=space_name(e["space"]), tiles=tiles)
        if kind in ("display", "build", "discard"):
            return t(f"sakkara.log.{kind}", name=name, motif=motif(e["motif"]), level=e.get("level", 0))
        if kind in ("snake", "steal", "end"):
            return t(f"sakkara.log.{kind}", name=name, other=other)
        return ""

    async def _rebuild_log(self, hub: TableHub, table: Table, update: Update) -> None:
        """After a restart, rebuild the log by replaying the stored actions before this update."""
        self.lines[table.id] = []
        for events in await hub.past_events(table, table.version - len(update.actors)):
            self.log_events(table, events, [])

    # ------------------------------------------------------------------ the public message

    def public_embed(self, table: Table, image: bool) -> discord.Embed:
        """Return the public board embed, drawn from the public view only."""
        view = GAME.view(table.state, None)
        turn = sum(view["turns"]) + 1
        embed = discord.Embed(title=t("sakkara.title", turn=turn), colour=discord.Colour.dark_gold())
        lines = [self._whose_turn(table, view)]
        if not image:
            lines.append(text_board(table, view))
        if view["pending"]:
            lines.append(t("sakkara.pending", tiles=", ".join(motif(m) for m in view["pending"])))
        embed.description = "\n".join(lines)
        for seat, spec in enumerate(table.seats):
            embed.add_field(name=f"{seat + 1} · {seat_label(spec)}", value=self._builder(view, seat), inline=True)
        log_lines = self.lines.get(table.id, [])
        if log_lines:
            embed.add_field(name=t("sakkara.log_title"), value="\n".join(log_lines)[-1024:], inline=False)
        if image:
            embed.set_image(url="attachment://board.png")
        return embed

    def _whose_turn(self, table: Table, view: dict[str, Any]) -> str:
        if view["phase"] == "over":
            return t("sakkara.over")
        movers = [s for s in view["to_move"] if s != CHANCE]
        if not movers:
            return t("sakkara.dealing")
        name = table.seats[movers[0]].display_name
        return t(f"sakkara.phase.{view['phase']}", name=name)

    @staticmethod
    def _builder(view: dict[str, Any], seat: int, rack: bool = True) -> str:
        ship = t("sakkara.yes") if view["ships"][seat] else t("sakkara.no")
        text = t("sakkara.builder", ship=ship, grain=view["grains"][seat], size=view["pyramid_sizes"][seat],
                 levels=view["levels"][seat])
        return text + ("\n" + t("sakkara.rack_size", count=view["rack_sizes"][seat]) if rack else "")

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
        module = boards()
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
            fresh = seat in owing and (not movers or movers[-1] != seat)
            if fresh:
                await self._retire_dm(hub, table, seat)  # a new DM notifies; the old one loses its buttons
            elif seat not in owing and seat not in movers and seat not in update.timed_out and not any(
                    e["type"] == "stolen" and e["from"] == seat for e in update.events):
                continue  # nothing of this seat's changed
            embed, view = self.prompt(hub, table, seat)
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

    # ------------------------------------------------------------------ private prompts

    def prompt(self, hub: TableHub, table: Table, seat: int) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return a seat's private state (its rack) and its move controls."""
        return self.prompt_at(table, seat, "")

    def prompt_at(self, table: Table, seat: int, group: str) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return the prompt opened at ``group`` ("" = the main controls)."""
        view = GAME.view(table.state, seat)
        legal = GAME.legal_actions(table.state, seat)
        embed = self.private_embed(table, seat, view, bool(legal))
        if not legal:
            return embed, None
        return embed, Controls(table, view, legal).build(group)

    def private_embed(self, table: Table, seat: int, view: dict[str, Any], owing: bool) -> discord.Embed:
        """Return the private embed: rack, displays, what to do now."""
        embed = discord.Embed(title=t("sakkara.you_title", channel=f"<#{table.channel_id}>", seat=seat + 1),
                              colour=discord.Colour.blurple())
        lines = [t("sakkara.your_rack", count=sum(view["rack"].values()), tiles=counts_text(view["rack"]))]
        lines.append(self._builder(view, seat, rack=False))
        if "revealed_rack" in view:
            lines.append(t("sakkara.revealed", name=table.seats[1 - seat].display_name,
                           tiles=counts_text(view["revealed_rack"])))
        if view["pending"]:
            lines.append(t("sakkara.pending", tiles=", ".join(motif(m) for m in view["pending"])))
        if owing:
            lines.append("**" + t(f"sakkara.ask.{view['phase']}", excess=view["rack_sizes"][seat] - 10) + "**")
        else:
            lines.append(self._whose_turn(table, GAME.view(table.state, None)))
        embed.description = "\n".join(lines)
        return embed


class Controls:
    """Builds one prompt's components from the legal actions (presentation only)."""

    def __init__(self, table: Table, view: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        self.table, self.view, self.legal = table, view, legal
        self.window = table.window
        self.items = discord.ui.View(timeout=None)
        self.groups: dict[str, list[dict[str, Any]]] = {}
        for action in legal:
            self.groups.setdefault(group_of(action), []).append(action)

    def build(self, group: str) -> discord.ui.View:
        """Return the view at ``group`` (a name, optionally with ``.page``), else the main one."""
        name, _, page = group.partition(".")
        if name and name in self.groups:
            self._menus(self.groups[name], name, int(page or 0), back=True)
        else:
            self._main()
        return self.items

    def _button(self, action: dict[str, Any], label: str, row: int,
                style: discord.ButtonStyle = discord.ButtonStyle.primary, emoji: str | None = None) -> None:
        self.items.add_item(ActButton(self.table.id, self.window, action, label, style, row=row, emoji=emoji))

    def _main(self) -> None:
        g = self.groups
        phase = self.view["phase"]
        if phase in ("place", "steal", "discard"):
            self._menus(self.legal, phase, 0, back=False)
            return
        if phase == "return":
            sizes = sorted(g, key=lambda name: int(name.removeprefix("ret")))
            if len(sizes) == 1:
                self._menus(g[sizes[0]], sizes[0], 0, back=False)
                return
            for i, size in enumerate(sizes):  # the split choice: which piece goes down next
                count = int(size.removeprefix("ret"))
                key = "sakkara.piece_all" if count == len(self.view["pending"]) else "sakkara.piece"
                self.items.add_item(NavButton(self.table.id, self.window, size, t(key, count=count),
                                              discord.ButtonStyle.primary, row=i // 5))
            return
        steps = sorted(g.get("step", []), key=lambda a: (a["worker"], "WNSE".index(str(a["dir"]))))
        for action in steps:  # one row of direction buttons per worker, west to east
            w = int(action["worker"])
            seat = int(self.view["seat"])
            to = NEIGHBOURS[self.view["workers"][seat][w]][str(action["dir"])]
            cell = self.view["board"][to]
            label = t("sakkara.step", worker=worker_name(seat, w), space=space_name(to),
                      top=motif(cell["top"]) if cell["height"] else t("sakkara.empty"))
            self._button(action, label, w, emoji=ARROWS[str(action["dir"])])
        row2 = [*g.get("horse", []), *g.get("snake", []), *g.get("end", [])]
        for action in row2:
            style = discord.ButtonStyle.danger if action["do"] == "end" else discord.ButtonStyle.secondary
            self._button(action, action_label(self.view, action), 2, style)
        direct = [*g.get("display", []), *g.get("build", [])]
        if direct:
            self.items.add_item(ActSelect(self.table.id, self.window,
                                          [(action_label(self.view, a), a) for a in direct],
                                          t("sakkara.menu_build"), tag="b", row=3))
        seat = int(self.view["seat"])
        special = [(_group_label(name, seat), name) for name in ("bird0", "bird1", "ox", *SPELL_GROUPS) if name in g]
        if special:
            self.items.add_item(NavSelect(self.table.id, self.window, special, t("sakkara.menu_special"), row=4))

    def _menus(self, actions: list[dict[str, Any]], name: str, page: int, back: bool) -> None:
        """Menus of up to 25 actions each (four per page), then Back and page buttons."""
        per_page = MENU * MENUS_PER_PAGE
        pages = max(1, -(-len(actions) // per_page))
        page = min(max(page, 0), pages - 1)
        actions = sorted(actions, key=_menu_order)
        chunk = actions[page * per_page:(page + 1) * per_page]
        for i in range(0, len(chunk), MENU):
            part = chunk[i:i + MENU]
            first, last = action_label(self.view, part[0]), action_label(self.view, part[-1])
            placeholder = t(f"sakkara.pick.{part[0]['do']}")
            if len(actions) > MENU:
                placeholder += f" ({_short(first)} … {_short(last)})"
            self.items.add_item(ActSelect(self.table.id, self.window, [(action_label(self.view, a), a) for a in part],
                                          placeholder, tag=f"m{i // MENU}", row=i // MENU))
        if back:
            self.items.add_item(NavButton(self.table.id, self.window, "", t("sakkara.back"), row=4))
        if pages > 1:
            if page > 0:
                self.items.add_item(NavButton(self.table.id, self.window, f"{name}.{page - 1}", "◀", row=4))
            if page + 1 < pages:
                self.items.add_item(NavButton(self.table.id, self.window, f"{name}.{page + 1}", "▶", row=4))


def _group_label(name: str, seat: int) -> str:
    if name.startswith("bird"):
        return t("sakkara.group.bird", worker=worker_name(seat, int(name[4:])))
    return t(f"sakkara.group.{name}")


def names(table: Table) -> list[str]:
    """Return the seats' display names (printed on the board image)."""
    return [s.display_name for s in table.seats]


def _short(label: str) -> str:
    return label.split(" ", 1)[0].rstrip(":")


def _menu_order(action: dict[str, Any]) -> tuple[int, int, int]:
    """Menus list spaces in board order (the legal list is sorted by JSON text: 1, 10, 11, ..., 2)."""
    return int(action.get("worker", 0)), int(action.get("space", -1)), int(action.get("count", 0))


def text_board(table: Table, view: dict[str, Any]) -> str:
    """Return the board as a text grid (used when board images are not installed)."""
    marks = {pos: worker_name(seat, w) for seat, ws in enumerate(view["workers"]) for w, pos in enumerate(ws)
             if pos >= 0}
    rows = ["    " + "".join(f"{c:<6}" for c in "ABCDEFG")]
    for r in range(SIDE):
        cells = []
        for c in range(SIDE):
            sp = r * SIDE + c
            cell = view["board"][sp]
            text = f"{cell['height']}{SHORT[cell['top']]}" if cell["height"] else " ·"
            cells.append(f"{text + marks.get(sp, ''):<6}")
        rows.append(f"{r + 1:<4}" + "".join(cells).rstrip())
    return "```\n" + "\n".join(rows) + "\n```"


async def post_with_image(hub: TableHub, table: Table, kind: str, png: bytes | None, *, new: bool = False,
                          **fields: Any) -> None:
    """``hub.post`` with the board image: ``files`` on a send, ``attachments`` (replaced) on an edit."""
    if png is None:
        await hub.post(table, kind, new=new, **fields)
        return
    module = boards()
    assert module is not None
    if new or await hub.message_ref(table, kind) is None:
        await hub.post(table, kind, new=True, files=[board_file(png, "board.png")], **fields)
        return
    try:
        await hub.post(table, kind, attachments=[board_file(png, "board.png")], **fields)
    except TypeError:  # the message was deleted: hub.post re-sends, and a send takes files, not attachments
        await hub.post(table, kind, new=True, files=[board_file(png, "board.png")], **fields)


async def dm_with_rack(hub: TableHub, table: Table, seat: int, *, new: bool = False, **fields: Any) -> None:
    """``hub.dm`` with the seat's rack image attached (when boards are installed), replaced on edits."""
    module = boards()
    if module is None:
        await hub.dm(table, seat, new=new, **fields)
        return
    png = module.rack_image(GAME.view(table.state, seat), names(table))
    if new or await hub.message_ref(table, "dm", seat) is None:
        await hub.dm(table, seat, new=True, files=[board_file(png, "rack.png")], **fields)
        return
    try:
        await hub.dm(table, seat, attachments=[board_file(png, "rack.png")], **fields)
    except TypeError:  # the DM was deleted: hub.dm re-sends, and a send takes files, not attachments
        await hub.dm(table, seat, new=True, files=[board_file(png, "rack.png")], **fields)
