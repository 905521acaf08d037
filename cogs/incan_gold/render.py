"""Incan Gold on Discord: the drawing of a table (the ``/incan`` commands are in ``cogs.incan_gold.cog``).

Public: one message per expedition, edited once per card (path with remainders, artifacts with
what they are worth under the edition's scoring, hazards, who is inside and what each carries,
open tents, the deadline) with the expedition's log, carrying **Torch** and **Camp** while the
explorers inside decide. A press there is answered by that message redrawn with how many have
chosen (never who), and privately (the player's own status and choice, which they may change);
the press that completes the decision is answered by the reveal itself. **My status** shows one's
own tent privately; a camper's private answer is redrawn with what they banked and their tent's
total. A DM prompt with Torch / Camp goes to whoever chose ``/notify how:dm`` (every card) and to
the last few the table waits for; a choice made there counts the same. When the expedition ends
its message is closed with its final path and how it ended, and its log goes to the game's
thread. Everything is drawn from the engine's views and events; no rule lives here.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import discord

from cogs.incan_gold.controls import choice_buttons, choice_name
from cogs.incan_gold.summary import summary
from cogs.incan_gold.words import HAZARD_ICONS, artifact_worth, card_text, hazard_name
from cogs.table.answer import Answer, answer_of
from cogs.table.controls.buttons import PeekButton
from cogs.table.messages.fields import add_split_field, newest_lines
from cogs.table.messages.hub import TableHub
from cogs.table.messages.text import deadline_line, decision_time, name_of, pace_rules, seat_label, seat_names
from cogs.table.messages.waiting import CountRedraw, while_waiting
from engine.core import Event
from engine.incan_gold import GAME
from engine.incan_gold import editions as ed
from engine.session import Table, Update
from engine.session.pace import patience_s
from i18n import t, tn

__all__ = ["IncanRenderer"]


def _round_ended(events: Sequence[Event]) -> bool:
    return any(e["type"] == "round_end" for e in events)


class IncanRenderer:
    """Draws Incan Gold tables (the hub's listener routes the session's updates here)."""

    name = "incan_gold"
    command = "incan"
    dm_prompts = False  # decided on the public message, or from a DM prompt when told by DM: DMs not required

    def __init__(self) -> None:
        self._told: set[tuple[int, int, int]] = set()  # (table, window, seat) told that the table waits for them
        self._opening: dict[int, tuple[int, str, list[int]]] = {}  # table -> (expedition, its first line, mentioned)
        self._nudging: set[tuple[int, int]] = set()  # (table, window) whose last few this process tells after a wait
        self.count = CountRedraw(self.refresh)  # "k of n have chosen", redrawn while the table waits

    def title(self) -> str:
        """Return the game's name."""
        return t("incan.name")

    def timeout_label(self, events: Sequence[Event], you: bool = False) -> str:
        """Return what a timeout plays (``you``: said to the player it happened to)."""
        return t("incan.timeout_you" if you else "incan.timeout_label")

    def board_kind(self, table: Table) -> str:
        """Return the kind of the current expedition's message."""
        return f"round{table.state.round}" if table.state is not None else "lobby"

    def closed_fields(self, hub: TableHub, table: Table, kind: str) -> dict[str, Any]:
        """Redraw the current expedition's message as it stands (no deadline, no count) when it closes."""
        return {"embed": self.round_embed(table, hub)} if kind == self.board_kind(table) else {}

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
        parts.append(pace_rules(table))
        return "\n".join(parts)

    # ------------------------------------------------------------------ the log

    def event_lines(self, table: Table, events: Sequence[Event]) -> list[str]:
        """Return the public log lines of an update's events."""
        lines: list[str] = []
        for index, event in enumerate(events):
            kind = event["type"]
            if kind == "card" and "value" in event:
                left = tn("incan.camp_left", event["left"]) if event["left"] else ""
                # How many shared it: each took ``each`` and ``left`` stayed (a lone explorer took all).
                lone = event["each"] > 0 and event["value"] - event["left"] == event["each"]
                lines.append(tn("incan.card_treasure_lone" if lone else "incan.card_treasure", event["value"],
                                each=event["each"], left=left))
            elif kind == "card" and "hazard" in event and not event["collapse"]:
                lines.append(t("incan.card_hazard", icon=HAZARD_ICONS.get(event["hazard"], "⚠️"),
                               hazard=t(f"incan.hz.{event['hazard']}")))
            elif kind == "card" and event.get("artifact"):
                lines.append(t("incan.card_artifact", artifact=event["card"]))
            elif kind == "collapse":
                losers = [s for s, _ in event["lost"]]
                key = "incan.collapse_empty" if not losers else (
                    "incan.collapse_one" if len(losers) == 1 else "incan.collapse")
                lines.append(t(key, icon=HAZARD_ICONS.get(event["hazard"], "⚠️"),
                               hazard=t(f"incan.hz.{event['hazard']}"), names=seat_names(table, losers)))
            elif kind == "reveal":
                # Only this reveal's own camp event: one update may hold several reveals.
                rest = events[index + 1:]
                end = next((i for i, e in enumerate(rest) if e["type"] == "reveal"), len(rest))
                lines.append(self._reveal_line(table, event, rest[:end]))
            elif kind == "round_end":
                if event["reason"] == "deck-out":
                    lines.append(t("incan.deck_out"))
                lines.append(t("incan.round_end", round=event["round"]))
        return lines

    def _reveal_line(self, table: Table, reveal: Event, events: Sequence[Event]) -> str:
        camp = next((e for e in events if e["type"] == "camp"), None)
        stay = [s for s, c in enumerate(reveal["choices"]) if c == "torch"]
        if camp is None:
            return t("incan.lone_torch", names=seat_names(table, stay)) if len(stay) == 1 else t("incan.all_torch")
        arts = [f"{a['artifact']} ({a['points']})" for a in camp["artifacts"]]
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

    @staticmethod
    def _ending(table: Table, events: Sequence[Event]) -> str:
        """Return how the expedition that ended in ``events`` ended (one line)."""
        end = next(e for e in events if e["type"] == "round_end")
        if end["reason"] == "collapse":
            collapse = next(e for e in events if e["type"] == "collapse")
            return t("incan.ended_collapse", round=end["round"], hazard=hazard_name(collapse["hazard"]))
        if end["reason"] == "deck-out":
            return t("incan.ended_deck_out", round=end["round"])
        return t("incan.ended_all_left", round=end["round"])

    # ------------------------------------------------------------------ the public message

    def round_embed(self, table: Table, hub: TableHub | None = None) -> discord.Embed:
        """Return the public expedition embed, drawn from the public view only."""
        view = GAME.view(table.state, None)
        embed = discord.Embed(title=t("incan.round_title", round=view["round"], rounds=view["rounds"]),
                              colour=discord.Colour.dark_gold())
        # How the previous expedition ended stays on its own closed message, not atop this one.
        lines = []
        lines.append(" · ".join(card_text(c["card"], c["gems"]) for c in view["path"]) or t("incan.path_empty"))
        lines.append(t("incan.path_gems", gems=view["path_gems"]))
        if view["artifacts_on_path"]:
            arts = ", ".join(t("incan.artifact_worth", artifact=a, points=artifact_worth(view, a))
                             for a in view["artifacts_on_path"])
            lines.append(t("incan.artifacts_on_path", artifacts=arts))
        deadline = deadline_line(table)
        if deadline:
            lines.append(deadline)
        embed.description = "\n".join(lines)
        inside = [t("incan.carrying", name=seat_label(table.seats[s]), gems=view["carried"][s])
                  for s in view["inside"]] or [t("incan.nobody")]
        add_split_field(embed, t("incan.inside"), inside, ", ")
        if "banked" in view:
            tents = [t("incan.tent", name=name_of(spec), gems=view["banked"][s]) for s, spec in enumerate(table.seats)]
            add_split_field(embed, t("incan.tents"), tents, ", ")
        embed.add_field(name=t("incan.hazards_seen"),
                        value=", ".join(hazard_name(h) for h in view["hazards_seen"]) or t("incan.none"))
        if view["removed_hazards"]:  # none with one pile per temple (forsvunna-diamanten)
            embed.add_field(name=t("incan.removed"), value=", ".join(hazard_name(h) for h in view["removed_hazards"]))
        embed.add_field(name=t("incan.cards_left"), value=str(view["cards_left"]))
        if view["deciding"] and table.status == "playing":
            embed.set_footer(text=tn("incan.chosen", view["chosen"], deciding=view["deciding"]))
        log_lines = hub.story.lines(table) if hub is not None else []
        if log_lines:
            embed.add_field(name=t("incan.log"), value=newest_lines(log_lines), inline=False)
        return embed

    async def replay_board(self, table: Table) -> tuple[discord.Embed, discord.File | None]:
        """Return the board of a replay's step: the expedition as it stood (no picture) and, the game
        being over, everyone's tent (hidden while it was played)."""
        # round_embed reads nothing this renderer remembers of live tables (how a table's last
        # expedition ended is not how the expedition being replayed began).
        embed = self.round_embed(table)
        banked = [t("incan.tent", name=name_of(spec), gems=GAME.view(table.state, seat)["you"]["banked"])
                  for seat, spec in enumerate(table.seats)]
        embed.add_field(name=t("replay.banked"), value=", ".join(banked)[:1024], inline=False)
        return embed, None

    def _closed_embed(self, hub: TableHub, table: Table, end: Event) -> discord.Embed:
        """Return an ended expedition's embed: its final path and its log (how it ended is the content)."""
        embed = discord.Embed(title=t("incan.round_over_title", round=end["round"], rounds=ed.ROUNDS),
                              colour=discord.Colour.dark_grey())
        path = " · ".join(card_text(c["card"], c["gems"]) for c in end["path"]) or t("incan.path_empty")
        lines = [path, t("incan.gems_left", gems=end["gems_left"])]
        if end["lost_artifacts"]:
            lines.append(t("incan.artifacts_lost", artifacts=", ".join(end["lost_artifacts"])))
        embed.description = "\n".join(lines)
        log_lines = hub.story.last_batch(table)  # the expedition's log, just written to the thread
        if log_lines:
            embed.add_field(name=t("incan.log"), value=newest_lines(log_lines), inline=False)
        return embed

    def _public_fields(self, hub: TableHub, table: Table) -> dict[str, Any]:
        """The expedition message: the path, and while people decide, Torch and Camp for everyone
        inside (each press answered privately; who has chosen never shows) and their own status.
        It mentions nobody: a mention of those who still owe a choice would tell who has chosen."""
        view: discord.ui.View | None = None
        if table.status == "playing":
            view = discord.ui.View(timeout=None)
            if table.humans_owing():
                for button in choice_buttons(table, ("torch", "camp")):
                    view.add_item(button)
            view.add_item(PeekButton(table.id, t("play.my_status")))
        fields: dict[str, Any] = {"content": None, "embed": self.round_embed(table, hub), "view": view}
        opening = self._opening.get(table.id)
        if opening is not None and opening[0] == table.state.round:
            fields["content"] = opening[1]
            # Not persisted by Discord: given again on every edit, so no edit pings anyone else.
            fields["allowed_mentions"] = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in opening[2]])
        return fields

    async def refresh(self, hub: TableHub, table: Table, answer: Answer | None = None) -> None:
        """Redraw the expedition message (the count of decisions made)."""
        if table.status == "playing":
            await hub.post(table, f"round{table.state.round}", answer=answer, **self._public_fields(hub, table))

    # ------------------------------------------------------------------ Listener parts

    async def played(self, hub: TableHub, update: Update) -> None:
        """Log the events, close what ended, redraw the expedition message, tell people privately
        what became of them, keep their DM prompts in step, and tell who the table waits for."""
        answer = answer_of(update.origin)
        chooser = self._last_chooser(update.table, update.events, answer)
        await self._draw(hub, update, answer, chooser)
        if chooser is not None and answer is not None:
            await self._tell_the_chooser(hub, update.table, update.events, chooser, answer)

    async def _draw(self, hub: TableHub, update: Update, answer: Answer | None, chooser: int | None) -> None:
        """Everything public of an update, and the private outcomes of everyone but ``chooser``."""
        table = update.table
        events = update.events
        ended = any(e["type"] == "round_end" for e in events)
        # An expedition is a chapter of the game's log: at its end the lines go to the thread.
        await hub.story.played(update, self, chapter_end=_round_ended)
        await self._private_outcomes(hub, table, events, answer, skip=chooser)
        if ended:
            end = next(e for e in events if e["type"] == "round_end")
            ending = self._ending(table, events)
            await hub.closer.close(table, f"round{end['round']}", None, ending, answer=answer,
                                   embed=self._closed_embed(hub, table, end))
            if table.status != "playing":
                self._forget(table)
                return
        elif not update.new_window and not any(e["type"] == "reveal" for e in events):
            # A choice was made: nothing public changed (who has chosen stays secret). The chooser's
            # DM prompt shows their choice; the few the table still waits for may be told.
            await self._keep_prompts(hub, table, set(), answer)
            await self._tell_the_last(hub, table)
            if not await self._count_through(hub, table, answer):
                self.count.chosen(hub, table)
            return
        kind = f"round{table.state.round}"
        fields = self._public_fields(hub, table)
        told: set[int] = set()
        if table.status == "playing" and await hub.message_ref(table, kind) is None:
            told, mentioned = await self._tell_expedition(hub, table)
            if mentioned:
                # The expedition's message is new: its mentions notify (an edit's would not). Everyone
                # inside owes a choice now, so naming them tells nothing of anyone's choice. The line
                # stays for the expedition: an edit that coalesced with the unsent first message
                # still carries it.
                self._opening[table.id] = (table.state.round, t(
                    "incan.expedition_notice", mentions=" ".join(f"<@{u}>" for u in mentioned),
                    round=table.state.round, game=self.title()), mentioned)
                fields = self._public_fields(hub, table)
        # One edit per card, with the next decision's buttons; when a press on this message made
        # the last choice, the edit is that press's answer (exempt from the rate limits).
        await hub.post(table, kind, answer=answer, **fields)
        await self._keep_prompts(hub, table, told, answer)

    async def _count_through(self, hub: TableHub, table: Table, answer: Answer | None) -> bool:
        """Answer a press on the expedition's message by its redraw (the count of decisions made, as
        it is now), and give the presser their private panel; an interaction call each, exempt from
        the rate limits. False when the choice was not pressed there (a DM prompt, a timer)."""
        if answer is None:
            return False
        ref = await hub.message_ref(table, f"round{table.state.round}")
        seat = table.seat_of(answer.interaction.user.id)
        if ref is None or seat is None or not answer.pressed(ref[1]):
            return False
        await hub.post(table, f"round{table.state.round}", answer=answer, **self._public_fields(hub, table))
        if not answer.redrawn:
            return False
        self.count.pressed(hub, table)
        with hub.readers.privately(table, seat):
            embed, view = self.prompt(hub, table, seat)
        await hub.private.word(table, seat, answer, content=None, embed=embed, view=view)
        return True

    async def _tell_expedition(self, hub: TableHub, table: Table) -> tuple[set[int], list[int]]:
        """At an expedition's start, tell each person: those who chose ``/notify how:dm`` by their
        prompt as a new DM; everyone else (but those who chose ``off``) by a mention on the
        expedition's new message, which costs no call of its own. Returns the seats sent a DM prompt
        and the user ids to mention."""
        told: set[int] = set()
        mentioned: list[int] = []
        for seat in table.humans_owing():
            user_id = table.seats[seat].user_id
            how = await hub.notices.how(user_id) if user_id is not None else "off"
            if how == "off" or user_id is None:
                continue
            if how == "dm" and await self._dm_prompt(hub, table, seat):
                told.add(seat)
                self._told.add((table.id, table.window, seat))  # told for this card: not again if last
            else:
                mentioned.append(user_id)
        return told, mentioned

    @staticmethod
    def _last_few(table: Table) -> list[int]:
        """Return the people the table waits for when they are only one or a few (a third of those
        inside, at least one), else []."""
        if table.status != "playing" or table.state.phase != "decide":
            return []
        owing = table.humans_owing()
        inside = [s for s in range(len(table.seats)) if table.state.inside[s] and not table.seats[s].is_ai]
        if not owing or len(owing) == len(inside) or len(owing) > max(1, len(inside) // 3):
            return []
        return owing

    async def _tell_the_last(self, hub: TableHub, table: Table) -> None:
        """When the table waits only for one person or a few, tell each of them once per card, by DM
        only: a public mention of them would tell who has chosen. A closed-DM person is reached by
        the reminder, which names everyone inside. A correspondence table first lets them keep it
        waiting for a while (:func:`patience_s`, from the moment it came down to them): people who
        look in every hour or two are not pinged for every card; one who keeps the table waiting
        is. That wait is a timer of this process (the table stays loaded meanwhile); a restart
        loses it, and the card's waited moment then tells them instead (:meth:`waited`)."""
        if not self._last_few(table):
            return
        delay = patience_s(decision_time(table), 0.0)
        if delay <= 0:
            await self._tell_now(hub, table)
            return
        key = (table.id, table.window)
        if key in self._nudging:
            return
        self._nudging.add(key)
        clock = hub.bot.sessions.clock
        while_waiting(hub, table, clock.now() + delay, partial(self._tell_now, hub),
                      fired=partial(self._nudging.discard, key))

    async def _tell_now(self, hub: TableHub, table: Table) -> None:
        """Tell the last few the table waits for (each once per card) that it waits for them."""
        for seat in self._last_few(table):
            if (table.id, table.window, seat) in self._told:
                continue
            self._told.add((table.id, table.window, seat))
            with hub.readers.privately(table, seat):
                content = t("incan.waits_for_you", channel=f"<#{table.channel_id}>")
            await hub.notices.tell(table, seat, dm=partial(self._dm_prompt, hub, table, seat, content=content),
                                   secret=True)

    async def _dm_prompt(self, hub: TableHub, table: Table, seat: int, content: str | None = None) -> bool:
        """Send a person their Torch / Camp prompt as a new DM (the previous one closed): it notifies,
        and they can choose from there. False when their DMs are known to be closed."""
        with hub.readers.privately(table, seat):
            embed, view = self.prompt(hub, table, seat)
        return await hub.private.prompt(table, seat, new=True, content=content, embed=embed, view=view)

    async def _keep_prompts(self, hub: TableHub, table: Table, told: set[int], answer: Answer | None) -> None:
        """Redraw the DM prompt of each person inside who decides there as the card stands (the
        card, their own choice): one still open (its buttons would be stale), and every card's for
        those who chose ``/notify how:dm``, whose prompt gets its buttons back with the next card.
        One a person pressed is redrawn through their click; what shows already is not sent again.
        Someone told by DM only because they were away is told again when the table waits for them
        (not redrawn card by card: an edit a card and person, and it would notify nobody)."""
        if table.status != "playing":
            return
        for seat, spec in enumerate(table.seats):
            if seat in told or spec.is_ai or spec.user_id is None or not table.state.inside[seat]:
                continue
            if await hub.message_ref(table, "dm", seat) is None:
                continue
            if not hub.book.is_open((table.id, "dm", seat)) and await hub.notices.how(spec.user_id) != "dm":
                continue
            with hub.readers.privately(table, seat):
                embed, view = self.prompt(hub, table, seat)
            await hub.private.prompt(table, seat, answer=answer, content=None, embed=embed, view=view)

    def _outcome(self, table: Table, events: Sequence[Event], seat: int) -> str | None:
        """Return what became of a seat in these events, for its person (their language): what a
        camper banked and their tent's total, or what a collapse took."""
        for event in events:
            if event["type"] == "camp" and seat in event["seats"]:
                home = event["home"][event["seats"].index(seat)]
                mine = GAME.view(table.state, seat)["you"]
                arts = [f"{a['artifact']} ({a['points']})" for a in event["artifacts"] if event["lone"] == seat]
                extra = tn("incan.you_took_artifacts", len(arts), artifacts=", ".join(arts)) if arts else ""
                return tn("incan.you_camped", home, banked=mine["banked"], artifacts=extra)
            if event["type"] == "collapse":
                lost = dict((s, n) for s, n in event["lost"])
                if seat in lost:
                    return tn("incan.you_lost", lost[seat], hazard=hazard_name(event["hazard"]))
        return None

    async def _private_outcomes(self, hub: TableHub, table: Table, events: Sequence[Event],
                                answer: Answer | None, skip: int | None = None) -> None:
        """Tell privately who went home what they banked and their tent's total, and who lost their
        gems in a collapse: through their latest private answer while it can be redrawn (no
        rate-limited call), else (a DM prompt of old) by closing that prompt. ``skip``: the seat
        whose press made the reveal, told with their choice afterwards."""
        seats = {s for e in events if e["type"] == "camp" for s in e["seats"]}
        seats |= {s for e in events if e["type"] == "collapse" for s, _ in e["lost"]}
        for seat in sorted(seats):
            if table.seats[seat].is_ai or seat == skip:
                continue
            with hub.readers.privately(table, seat):
                note = self._outcome(table, events, seat)
            if note is not None:
                await hub.private.note(table, seat, note, answer)

    @staticmethod
    def _last_chooser(table: Table, events: Sequence[Event], answer: Answer | None) -> int | None:
        """Return the seat whose press on the expedition's public message made this update's reveal
        (that press is answered by the reveal itself, on the board), else None."""
        if answer is None or not any(e["type"] == "reveal" for e in events):
            return None
        interaction = answer.interaction
        message = interaction.message
        if message is None or message.flags.ephemeral or interaction.guild_id is None:
            return None  # pressed on a private prompt: its own redraw tells them
        seat = table.seat_of(interaction.user.id)
        return seat if seat is not None and not table.seats[seat].is_ai else None

    async def _tell_the_chooser(self, hub: TableHub, table: Table, events: Sequence[Event], seat: int,
                                answer: Answer) -> None:
        """The press that completed a decision was answered by the reveal on the board: its presser
        still gets their private word, what they chose and (a camper) what they banked, in their
        private panel, or in a new private message when they have none yet."""
        reveal = next(e for e in events if e["type"] == "reveal")
        choice = reveal["choices"][seat]
        if choice is None:
            return
        with hub.readers.privately(table, seat):
            lines = [t("incan.you_chose_it", choice=choice_name(choice, hub.readers.pressed(table, seat)))]
            outcome = self._outcome(table, events, seat)
            if outcome is not None:
                lines.append(outcome)
        await hub.private.word(table, seat, answer, content="\n".join(lines), embed=None, view=None)
        if outcome is not None and table.status == "playing" and not table.state.inside[seat]:
            # Out of the expedition: a DM prompt of theirs still open offers a choice no more.
            await hub.private.close_prompt(table, seat, outcome)

    async def reminded(self, hub: TableHub, table: Table, seats: list[int]) -> None:
        """Remind privately: if you have not chosen, you go back to camp with what you carry. A person
        whose DMs are closed is reminded in the channel together with everyone still inside, chosen or
        not, so the reminder does not tell who has not chosen yet."""
        inside = [s for s in GAME.view(table.state, None)["inside"] if not table.seats[s].is_ai]
        await hub.remind(table, seats, "incan.reminder", "incan.reminder_channel", cover=inside)

    async def waited(self, hub: TableHub, table: Table) -> None:
        """The card's window has been open for the table's patience (a correspondence table; also
        after a restart, or with the table unloaded meanwhile): the count is redrawn as it stands
        (no edit when the board shows it already), and last few the table waits for that no wait
        of this process is timing (it came down to them before a restart) are told now, each once
        per card. Those it came down to in this process are told when they have kept it waiting
        for the patience (:meth:`_tell_the_last`). With nobody's choice made there is neither: the
        card's own drawing shows none chosen."""
        if not GAME.view(table.state, None)["chosen"]:
            return
        if (table.id, table.window) not in self._nudging:
            await self._tell_now(hub, table)
        await self.count.waited(hub, table)

    async def finished(self, hub: TableHub, table: Table, result: dict[str, Any]) -> None:
        """Post the final scores and a Rematch button."""
        await summary(hub, table, result)
        self._forget(table)

    def _forget(self, table: Table) -> None:
        """The game is over: nothing of it is kept or redrawn any more."""
        self._told = {told for told in self._told if told[0] != table.id}
        self._opening.pop(table.id, None)
        self._nudging = {key for key in self._nudging if key[0] != table.id}
        self.count.forget(table)

    def already(self, hub: TableHub, table: Table, seat: int) -> str | None:
        """Return "You already chose Torch for this card" to an explorer who chose (in the words of
        the button they press now), else None."""
        if table.state is None or table.state.phase != "decide":
            return None
        you = GAME.view(table.state, seat)["you"]
        if not you["inside"] or not you["pending"]:
            return None
        return t("incan.already_chose", choice=choice_name(you["pending"], hub.readers.pressed(table, seat)))

    def prompt(self, hub: TableHub, table: Table, seat: int) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return a seat's private state and its Torch / Camp buttons."""
        view = GAME.view(table.state, seat)
        you = view["you"]
        embed = discord.Embed(title=t("incan.you_title", channel=f"<#{table.channel_id}>", round=view["round"],
                                      card=len(view["path"])), colour=discord.Colour.blurple())
        arts = [f"{a['artifact']} ({a['points']})" for a in you["artifacts"]]
        lines = [t("incan.you_state", carry=tn("incan.you_carry", you["carried"]),
                   banked=tn("incan.you_banked", you["banked"]),
                   artifacts=tn("incan.you_artifacts", len(arts), artifacts=", ".join(arts)) if arts else "")]
        lines.append(" · ".join(card_text(c["card"], c["gems"]) for c in view["path"]) or t("incan.path_empty"))
        lines.append(t("incan.path_gems", gems=view["path_gems"]))
        legal = GAME.legal_actions(table.state, seat)
        if GAME.is_over(table.state):
            lines.append(t("incan.you_over", channel=f"<#{table.channel_id}>"))
        elif not you["inside"]:
            lines.append(t("incan.you_out"))
        elif you["pending"]:
            lines.append(t("incan.you_chose", choice=choice_name(you["pending"], hub.readers.pressed(table, seat))))
            if legal:
                lines.append(t("incan.you_can_change"))
        elif legal:
            lines.append(t("incan.you_ask"))
        if legal and seat in table.humans_owing():
            deadline = deadline_line(table)
            if deadline:
                lines.append(deadline)
        embed.description = "\n".join(lines)
        if not legal:
            return embed, None
        buttons = discord.ui.View(timeout=None)
        for button in choice_buttons(table, reversed(legal)):  # torch first, then camp
            buttons.add_item(button)
        return embed, buttons
