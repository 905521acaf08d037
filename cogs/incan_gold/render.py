"""Incan Gold on Discord: the drawing of a table (the ``/incan`` commands are in ``cogs.incan_gold.cog``).

Public: one message per expedition, edited once per card (path with remainders, artifacts,
hazards, who is inside) with a log of what happened, carrying **Torch** and **Camp** while the
explorers inside decide; an end summary with a Rematch button. Everyone decides on that one
message: a press is answered privately (the player's own status and choice, which they may
change), and the press that completes the decision is answered by the reveal itself, so a card
costs no rate-limited call unless a bot seat or a timeout decides last (then one edit). Nobody
sees who has chosen. **My status** shows one's own tent privately. No DM per card: DMs carry only
the reminder before a deadline. Everything is drawn from the engine's views; no rule lives here.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.i18n import t, tn
from cogs.table.buttons import ActButton, PeekButton
from cogs.table.hub import TableHub
from cogs.table.lobby import post_summary
from cogs.table.text import seat_label, seat_names, standings, winner_line
from engine.core import CHANCE, Event
from engine.incan_gold import GAME
from engine.session import Table, Update

__all__ = ["IncanRenderer"]

LOG_LINES = 8  # lines of "what happened" kept on the expedition message


HAZARD_ICONS = {  # one picture per hazard of every preset (presentation only)
    "spiders": "🕷️", "snakes": "🐍", "mummies": "🧟", "fire": "🔥", "rockfall": "🪨",
    "scorpions": "🦂", "poison-gas": "☠️", "explosions": "🧨",
}


def hazard_name(hazard: str) -> str:
    """Return a hazard's picture and display name ("🕷️ Spiders")."""
    return f"{HAZARD_ICONS.get(hazard, '⚠️')} {t(f'incan.hz.{hazard}')}"


def _card(card: str, gems: int) -> str:
    if card[0] == "T":
        return f"💎{card[1:]}" + (f" ({t('incan.path_left', gems=gems)})" if gems else "")
    if card[0] == "H":
        return hazard_name(card[2:])
    return f"🏺{card}"


class IncanRenderer:
    """Draws Incan Gold tables (the hub's listener routes the session's updates here)."""

    name = "incan_gold"
    command = "incan"
    dm_prompts = False  # everyone decides on the public message; DMs carry only reminders

    def __init__(self) -> None:
        self.lines: dict[int, list[str]] = {}  # this expedition's log, per table

    def title(self) -> str:
        """Return the game's name."""
        return t("incan.name")

    def options_text(self, table: Table) -> str:
        """Return the options as lobby text."""
        o = table.options
        parts = [t("incan.opt_preset", preset=o.get("preset", "incan-gold"))]
        if "artifact_scoring" in o:
            parts.append(t("incan.opt_scoring", scoring=o["artifact_scoring"]))
        if o.get("open_tents"):
            parts.append(t("incan.opt_open_tents"))
        if o.get("one_change_per_game"):
            parts.append(t("incan.opt_one_change"))
        parts.append(t("incan.opt_timeout", seconds=int(table.table_options.get("decision_timeout_s", 120))))
        return "\n".join(parts)

    # ------------------------------------------------------------------ public message

    def _log(self, table: Table, events: list[Event], timed_out: list[int]) -> None:
        lines = self.lines.setdefault(table.id, [])
        before = len(lines)
        if timed_out:
            lines.append(t("play.timed_out", names=seat_names(table, timed_out), label=t("incan.timeout_label")))
        for index, event in enumerate(events):
            kind = event["type"]
            if kind == "round_start":
                # The new expedition's message opens with how the last one ended (this update's
                # lines: the reveal, the collapse): its own message is not drawn again.
                del lines[:before]
                before = len(lines)
            elif kind == "card" and "value" in event:
                lines.append(tn("incan.card_treasure", event["value"], each=event["each"], left=event["left"]))
            elif kind == "card" and "hazard" in event and not event["collapse"]:
                lines.append(t("incan.card_hazard", icon=HAZARD_ICONS.get(event["hazard"], "⚠️"),
                               hazard=t(f"incan.hz.{event['hazard']}")))
            elif kind == "card" and event.get("artifact"):
                lines.append(t("incan.card_artifact", artifact=event["card"]))
            elif kind == "collapse":
                losers = [s for s, _ in event["lost"]]
                key = "incan.collapse" if losers else "incan.collapse_empty"
                lines.append(t(key, icon=HAZARD_ICONS.get(event["hazard"], "⚠️"),
                               hazard=t(f"incan.hz.{event['hazard']}"), names=seat_names(table, losers)))
            elif kind == "reveal":
                # Only this reveal's own camp event: one update may hold several reveals.
                rest = events[index + 1:]
                end = next((i for i, e in enumerate(rest) if e["type"] == "reveal"), len(rest))
                lines.append(self._reveal_line(table, event, rest[:end]))
            elif kind == "round_end" and event["reason"] == "deck-out":
                lines.append(t("incan.deck_out"))
        del lines[:-LOG_LINES]

    def _reveal_line(self, table: Table, reveal: Event, events: list[Event]) -> str:
        camp = next((e for e in events if e["type"] == "camp"), None)
        stay = [s for s, c in enumerate(reveal["choices"]) if c == "torch"]
        if camp is None:
            return t("incan.all_torch")
        arts = [a["artifact"] for a in camp["artifacts"]]
        extra = tn("incan.camp_artifacts", len(arts), artifacts=", ".join(arts)) if arts else ""
        if len(camp["seats"]) == 1:
            text = tn("incan.camp_one", camp["share"], names=seat_names(table, camp["seats"]), artifacts=extra)
        else:
            left = tn("incan.camp_left", camp["left_on_path"]) if camp["left_on_path"] else ""
            text = tn("incan.camp_many", camp["share"] * len(camp["seats"]), names=seat_names(table, camp["seats"]),
                      share=camp["share"], left=left)
        if stay:
            text += " " + t("incan.still_inside", names=seat_names(table, stay))
        return text

    def round_embed(self, table: Table) -> discord.Embed:
        """Return the public expedition embed, drawn from the public view only."""
        view = GAME.view(table.state, None)
        embed = discord.Embed(title=t("incan.round_title", round=view["round"], rounds=view["rounds"]),
                              colour=discord.Colour.dark_gold())
        path = " · ".join(_card(c["card"], c["gems"]) for c in view["path"]) or t("incan.path_empty")
        lines = [path, t("incan.path_gems", gems=view["path_gems"])]
        if view["artifacts_on_path"]:
            lines.append(t("incan.artifacts_on_path", artifacts=", ".join(view["artifacts_on_path"])))
        embed.description = "\n".join(lines)
        inside = [seat_label(table.seats[s]) for s in view["inside"]] or [t("incan.nobody")]
        embed.add_field(name=t("incan.inside"), value=", ".join(inside), inline=False)
        embed.add_field(name=t("incan.hazards_seen"),
                        value=", ".join(hazard_name(h) for h in view["hazards_seen"]) or t("incan.none"))
        if view["removed_hazards"]:  # none with one pile per temple (forsvunna-diamanten)
            embed.add_field(name=t("incan.removed"), value=", ".join(hazard_name(h) for h in view["removed_hazards"]))
        embed.add_field(name=t("incan.cards_left"), value=str(view["cards_left"]))
        log_lines = self.lines.get(table.id, [])
        if log_lines:
            embed.add_field(name=t("incan.log"), value="\n".join(log_lines)[-1024:], inline=False)
        return embed

    def _public_fields(self, hub: TableHub, table: Table) -> dict[str, Any]:
        """The expedition message: the path, and while people decide, Torch and Camp for everyone
        inside (each press answered privately; who has chosen never shows) and their own status."""
        view: discord.ui.View | None = None
        if table.status == "playing":
            view = discord.ui.View(timeout=None)
            if table.humans_owing():
                for action in ("torch", "camp"):
                    style = discord.ButtonStyle.success if action == "torch" else discord.ButtonStyle.danger
                    view.add_item(ActButton(table.id, table.window, action, t(f"incan.{action}"), style))
            view.add_item(PeekButton(table.id, t("play.my_status")))
        return {"content": None, "embed": self.round_embed(table), "view": view}

    async def refresh(self, hub: TableHub, table: Table) -> None:
        """Redraw the expedition message."""
        await hub.post(table, f"round{table.state.round}", **self._public_fields(hub, table))

    # ------------------------------------------------------------------ Listener parts

    async def played(self, hub: TableHub, update: Update) -> None:
        """Log the events, redraw the expedition message, and prompt on a new decision window."""
        table = update.table
        if table.id not in self.lines and update.actors and update.actors[0] != CHANCE:
            await self._rebuild_log(hub, table, update)
        self._log(table, update.events, update.timed_out)
        if not update.new_window and not any(e["type"] == "reveal" for e in update.events):
            return  # a choice was made: nothing public changed (who has chosen stays secret)
        # One edit per card, with the next decision's buttons; when a press on this message made
        # the last choice, the edit is that press's answer (exempt from the rate limits).
        await hub.post(table, f"round{table.state.round}", **self._public_fields(hub, table))

    async def _rebuild_log(self, hub: TableHub, table: Table, update: Update) -> None:
        """After a restart, rebuild this expedition's log by replaying the stored actions."""
        self.lines[table.id] = []
        for events in await hub.past_events(table, table.version - len(update.actors)):
            self._log(table, events, [])

    async def reminded(self, hub: TableHub, table: Table, seats: list[int]) -> None:
        """Remind privately (a public reminder naming them would tell who has not chosen yet)."""
        await hub.remind_privately(table, seats)

    async def finished(self, hub: TableHub, table: Table, result: dict[str, Any]) -> None:
        """Post the final scores with a Rematch button."""
        view_ = GAME.view(table.state, None)
        lines = []
        for place, seat in enumerate(standings(result), start=1):
            arts = view_["artifacts"][seat]
            lines.append(t("incan.summary_line", place=place, name=seat_label(table.seats[seat]),
                           score=result["scores"][seat], gems=tn("incan.gems", result["banked"][seat]),
                           artifacts=tn("incan.summary_artifacts", len(arts), artifacts=", ".join(arts))
                           if arts else ""))
        lines.append(winner_line(table, result))
        await post_summary(hub, table, t("incan.summary_title"), lines)
        for seat in range(len(table.seats)):
            if not table.seats[seat].is_ai and await hub.message_ref(table, "dm", seat) is not None:
                with hub.readers.privately(table, seat):
                    mine, _ = self.prompt(hub, table, seat)
                await hub.dm(table, seat, embed=mine, view=None)  # no question left hanging in a DM
        self.lines.pop(table.id, None)

    def prompt(self, hub: TableHub, table: Table, seat: int) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return a seat's private state and its Torch / Camp buttons."""
        view = GAME.view(table.state, seat)
        you = view["you"]
        embed = discord.Embed(title=t("incan.you_title", channel=f"<#{table.channel_id}>", round=view["round"],
                                      card=len(view["path"])), colour=discord.Colour.blurple())
        arts = [a["artifact"] for a in you["artifacts"]]
        lines = [t("incan.you_state", carry=tn("incan.you_carry", you["carried"]),
                   banked=tn("incan.you_banked", you["banked"]),
                   artifacts=tn("incan.you_artifacts", len(arts), artifacts=", ".join(arts)) if arts else "")]
        lines.append(" · ".join(_card(c["card"], c["gems"]) for c in view["path"]) or t("incan.path_empty"))
        lines.append(t("incan.path_gems", gems=view["path_gems"]))
        legal = GAME.legal_actions(table.state, seat)
        if GAME.is_over(table.state):
            lines.append(t("incan.you_over", channel=f"<#{table.channel_id}>"))
        elif not you["inside"]:
            lines.append(t("incan.you_out"))
        elif you["pending"]:
            lines.append(t("incan.you_chose", choice=t(f"incan.{you['pending']}")))
            if legal:
                lines.append(t("incan.you_can_change"))
        elif legal:
            lines.append(t("incan.you_ask"))
        embed.description = "\n".join(lines)
        if not legal:
            return embed, None
        buttons = discord.ui.View(timeout=None)
        for action in reversed(legal):  # torch first, then camp
            style = discord.ButtonStyle.success if action == "torch" else discord.ButtonStyle.danger
            buttons.add_item(ActButton(table.id, table.window, action, t(f"incan.{action}"), style))
        return embed, buttons
