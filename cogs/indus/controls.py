"""The controls of the Indus player to move, on the public board message.

Every control is built from ``GAME.legal_actions(state, seat)`` only. Placements can exceed a
menu's 25 options (2 players: two colours x three ranks x free spaces), so the piece is chosen
first (:class:`PieceButton`: it only redraws the controls, no action) and its start space second
(a menu of at most 24 spaces, each option value the full action). When every piece the player
may place fits in a menu of its own (up to five), the menus are shown at once: one click places.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.indus.words import piece_name, rank_name, space_label, space_name, square_name
from cogs.table.controls.buttons import ActButton, ActSelect, guarded, refuse_press, table_for
from engine.indus import GAME
from engine.session import SessionError, Table
from i18n import t, tn
from pictures.indus.names import start_order

__all__ = ["PieceButton", "controls"]

MAX_MOVE_BUTTONS = 20  # more legal moves than this go into menus (never happens with 8-9 frame pieces)
SELECT_MAX = 25
MENU_ROWS = 5  # a message holds five rows: up to five pieces get a start-space menu each


class PieceButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"indus:pc:(?P<table>\d{1,18}):(?P<window>\d{1,18}):(?P<piece>[0-3][WAP])"):
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
        try:
            table = await table_for(interaction, self.table_id)
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
            await refuse_press(interaction, self.table_id, exc)  # a stale board is redrawn through it
            return
        await interaction.response.edit_message(view=controls(table, chosen=self.piece))


def controls(table: Table, chosen: str | None = None) -> discord.ui.View | None:
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
        _placement_controls(table, view, legal, chosen)
    elif legal[0]["do"] in ("keep", "return"):
        for action in legal:
            style = discord.ButtonStyle.success if action["do"] == "keep" else discord.ButtonStyle.primary
            view.add_item(ActButton(table.id, table.window, action,
                                    t(f"indus.{action['do']}", piece=piece_name(action))[:80], style))
    else:
        _move_controls(table, view, legal)
    return view


def _placement_controls(table: Table, view: discord.ui.View, legal: list[Any], chosen: str | None) -> None:
    """One start-space menu per piece when they fit on the message (one click places); with more
    pieces than menus (2 players, two colours of three ranks), piece buttons and one menu."""
    groups: dict[str, list[Any]] = {}
    for action in legal:
        groups.setdefault(f"{action['colour']}{action['rank']}", []).append(action)
    state_view = GAME.view(table.state, None)
    pools = state_view["start_pieces"] if state_view["phase"] == "setup" else state_view["reserve"]

    def menu(key: str, row: int) -> None:
        piece = {"colour": int(key[0]), "rank": key[1]}
        actions = sorted(groups[key], key=lambda a: start_order(a["space"]))  # clockwise from N-A
        for page in range(0, len(actions), SELECT_MAX):
            chunk = actions[page:page + SELECT_MAX]
            options = [(space_name(a["space"]), a) for a in chunk]
            holder = tn("indus.space_placeholder", pools[piece["colour"]][key[1]], piece=piece_name(piece))
            view.add_item(ActSelect(table.id, table.window, options, holder[:150],
                                    tag=f"p{key.lower()}{page // SELECT_MAX}", row=row + page // SELECT_MAX))

    if len(groups) <= MENU_ROWS:
        for row, key in enumerate(groups):
            menu(key, row)
        return
    pick = chosen if chosen in groups else next(iter(groups))
    for n, key in enumerate(groups):
        piece = {"colour": int(key[0]), "rank": key[1]}
        label = tn("indus.piece_button", pools[piece["colour"]][key[1]], piece=piece_name(piece))
        style = discord.ButtonStyle.primary if key == pick else discord.ButtonStyle.secondary
        view.add_item(PieceButton(table.id, table.window, key, label[:80], style, row=n // 5))
    menu(pick, (len(groups) + 4) // 5)


def _move_controls(table: Table, view: discord.ui.View, legal: list[Any]) -> None:
    moves = [a for a in legal if a["do"] == "move"]
    labels = [(t("indus.move_button", piece=piece_name(a), space=space_label(a["space"]),
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
