"""The private prompt of a Sakkara seat: its rack and the controls of its legal moves.

Every control is built from ``GAME.legal_actions(state, seat)`` only; the grouping (step buttons
per worker, a menu of specials and spells, a space picker split into menus of 25) is
presentation. A sub-menu is opened with a :class:`NavButton` / :class:`NavSelect`, whose
custom_id carries the table, the decision window and the group, so it survives a restart and a
stale one is refused privately.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from cogs.sakkara import words
from cogs.sakkara.words import (
    ARROWS,
    SEAT_MARKS,
    SPELL_GROUPS,
    action_label,
    builder_text,
    counts_text,
    group_of,
    motif,
    names,
    step_label,
    text_board,
    whose_turn,
    worker_name,
)
from cogs.table.answer import Answer, acknowledged_while_drawing
from cogs.table.controls.buttons import ActButton, ActSelect, control_for, guarded, refuse_press, table_for
from cogs.table.messages.attach import board_file
from cogs.table.messages.hub import TableHub
from cogs.table.messages.text import deadline_line, name_of
from engine.sakkara import GAME
from engine.sakkara.effects import stairs_spent
from engine.sakkara.state import NEIGHBOURS
from engine.session import SessionError, Table
from i18n import t, tn
from pictures.drawing import drawn

__all__ = ["NAV_ITEMS", "Controls", "NavButton", "NavSelect", "dm_with_rack", "private_embed", "prompt_at", "route"]

PRIVATE_PNG = "you.png"  # a seat's picture in its DM: its rack (beside the board, BOARD_PNG)
BOARD_PNG = "board.png"
MENU = 25  # Discord's limit of options per select menu
MENUS_PER_PAGE = 4  # select menus per prompt page; the fifth row holds Back / page buttons


class NavButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"skn:(?P<table>\d{1,18}):(?P<window>\d{1,18}):(?P<group>[a-z0-9.]*)"):
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
                template=r"sks:(?P<table>\d{1,18}):(?P<window>\d{1,18})"):
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
        await navigate(interaction, self.table_id, self.window, str(values[0]))


async def navigate(interaction: discord.Interaction, table_id: int, window: int, group: str) -> None:
    """Show the clicker's prompt at ``group``; refuse privately when stale, not theirs, or a group
    the prompt does not have (crafted: every honest one is drawn from the legal actions)."""
    try:
        table = await table_for(interaction, table_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise SessionError("not_seated")
        if table.status != "playing":
            raise SessionError("not_playing")
        if window != table.window:
            raise SessionError("stale")
        embed, view = prompt_at(table, seat, group)
    except SessionError as exc:
        await refuse_press(interaction, table_id, exc)
        return
    await interaction.response.edit_message(embed=embed, view=view)


NAV_ITEMS = (NavButton, NavSelect)


def prompt_at(table: Table, seat: int, group: str) -> tuple[discord.Embed, discord.ui.View | None]:
    """Return the prompt opened at ``group`` ("" = the main controls)."""
    view = GAME.view(table.state, seat)
    legal = GAME.legal_actions(table.state, seat)
    embed = private_embed(table, seat, view, bool(legal))
    if not legal:
        if group:
            raise SessionError("not_valid")
        return embed, None
    return embed, Controls(table, view, legal).build(group)


def route(table: Table, seat: int, action: dict[str, Any]) -> list[tuple[str, str | None]]:
    """Return the shortest way to ``action`` on the seat's prompt: the sub-menu openers to press
    (custom_id, and the menu value for a menu of sub-menus), then the action's own control.
    Raise LookupError when the prompt does not offer it (tests and benchmarks press this path)."""
    queue: list[tuple[str, list[tuple[str, str | None]]]] = [("", [])]
    seen = {""}
    while queue:
        group, path = queue.pop(0)
        _, view = prompt_at(table, seat, group)
        hit = control_for(view, action)
        if hit is not None:
            return [*path, hit]
        for item in view.children if view is not None else []:
            if isinstance(item, NavButton):
                targets: list[tuple[str, str | None]] = [(item.group, None)]
            elif isinstance(item, NavSelect):
                targets = [(o.value, o.value) for o in item.item.options]
            else:
                continue
            for target, value in targets:
                if target and target not in seen:
                    seen.add(target)
                    queue.append((target, [*path, (str(item.item.custom_id), value)]))
    raise LookupError(f"{action} is not on the prompt")


def private_embed(table: Table, seat: int, view: dict[str, Any], owing: bool) -> discord.Embed:
    """Return the private embed: rack, displays, what to do now (and the board as text when the
    board images are not installed; with them, the DM's picture shows board and rack)."""
    embed = discord.Embed(title=t("sakkara.you_title", channel=f"<#{table.channel_id}>",
                                  seat=f"{SEAT_MARKS[seat]} {seat + 1}"), colour=discord.Colour.blurple())
    lines = [] if words.boards() is not None else [text_board(table, view)]
    lines.append(tn("sakkara.your_rack", sum(view["rack"].values()), tiles=counts_text(view["rack"])))
    lines.append(builder_text(view, seat, rack=False))
    if "revealed_rack" in view:
        lines.append(t("sakkara.revealed", name=name_of(table.seats[1 - seat]),
                       tiles=counts_text(view["revealed_rack"])))
    if view["pending"]:
        lines.append(t("sakkara.pending", tiles=", ".join(motif(m) for m in view["pending"])))
    if owing:
        phase = view["phase"]
        if phase == "after" and any(a["do"] == "horse" for a in GAME.legal_actions(table.state, seat)):
            phase = "after_horse"  # the Horse is mentioned only when it can be ridden
        lines.append("**" + t(f"sakkara.ask.{phase}", excess=view["rack_sizes"][seat] - 10) + "**")
        deadline = deadline_line(table)
        if deadline:
            lines.append(deadline)
    else:
        lines.append(whose_turn(table, GAME.view(table.state, None)))
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
        """Return the view at ``group`` (a name, optionally with ``.page``; "" the main one); raise
        SessionError("not_valid") for a group these legal actions do not make."""
        name, _, page = group.partition(".")
        if not group:
            self._main()
        elif name in self.groups and (not page or (page.isdigit() and len(page) <= 4)):
            self._menus(self.groups[name], name, int(page or 0), back=True)
        else:
            raise SessionError("not_valid")
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
                self.items.add_item(NavButton(self.table.id, self.window, size, tn(key, count),
                                              discord.ButtonStyle.primary, row=i // 5))
            return
        steps = sorted(g.get("step", []), key=lambda a: (a["worker"], "WNSE".index(str(a["dir"]))))
        seat = int(self.view["seat"])
        for action in steps:  # one row of direction buttons per worker, west to east
            w = int(action["worker"])
            to = NEIGHBOURS[self.view["workers"][seat][w]][str(action["dir"])]
            # the label says what the step costs: a climb above 2 spends a Stairs (the engine's count)
            label = step_label(self.view, action, to, stairs_spent(self.table.state, seat, action))
            self._button(action, label, w, emoji=ARROWS[str(action["dir"])])
        row2 = [*g.get("horse", []), *g.get("snake", []), *g.get("end", [])]
        for action in row2:
            style = discord.ButtonStyle.danger if action["do"] == "end" else discord.ButtonStyle.secondary
            label = action_label(self.view, action, stairs_spent(self.table.state, seat, action))
            self._button(action, label, 2, style)
        direct = [*g.get("display", []), *g.get("build", [])]
        if direct:
            self.items.add_item(ActSelect(self.table.id, self.window,
                                          [(action_label(self.view, a), a) for a in direct],
                                          t("sakkara.menu_build"), tag="b", row=3))
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


def _short(label: str) -> str:
    return label.split(" ", 1)[0].rstrip(":")


def _menu_order(action: dict[str, Any]) -> tuple[int, int, int]:
    """Menus list spaces in board order (the legal list is sorted by JSON text: 1, 10, 11, ..., 2)."""
    return int(action.get("worker", 0)), int(action.get("space", -1)), int(action.get("count", 0))


async def dm_with_rack(hub: TableHub, table: Table, seat: int, *, new: bool = False, answer: Answer | None = None,
                       **fields: Any) -> None:
    """``hub.private.prompt`` with the seat's pictures attached (when boards are installed), replaced on
    edits: the board the moves are made on, and the seat's rack in the prompt's embed. Two pictures, not
    one: Discord shows each in a 400 x 300 px box, and the board with the rack under it was a picture so
    tall that it was shown 250-300 px wide, its words unreadable (``answer``: the click it is drawn for)."""
    module = words.boards()
    if module is None:
        await hub.private.prompt(table, seat, new=new, answer=answer, **fields)
        return
    with acknowledged_while_drawing(answer):
        board, rack = await drawn(module.private_pictures, GAME.view(table.state, seat), names(table))
    embed = fields.get("embed")
    if isinstance(embed, discord.Embed):
        embed.set_image(url=f"attachment://{PRIVATE_PNG}")
    await hub.private.prompt_with_file(
        table, seat, lambda: [board_file(board, BOARD_PNG), board_file(rack, PRIVATE_PNG)], new=new, answer=answer,
        **fields)
