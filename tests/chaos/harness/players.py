"""The chaos harness's players: people who keep Incan Gold tables going through what Discord shows them.

Three people per channel (the channels spread over the fake's guilds, so over the bot's shards)
open a table, seat themselves and two bot seats, start, and press Torch or Camp on the newest
message that has them (``/incan status`` when those are stale, e.g. after a restart). Every click
they send is recorded, and every one the bot *acknowledged* (Discord got the click's answer, which
the bot sends only after the commit). A click whose shard is down is not sent: on Discord it would
fail at once ("This interaction failed") and nobody would count it as played.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import sqlite3
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from fakediscord import interactions as ix
from fakediscord.fake import FakeDiscord
from fakediscord.loopback import LoopbackServer
from fakediscord.objects import FakeChannel, FakeMessage, FakeUser, InteractionRecord
from i18n import t
from tests.chaos.harness.verdict import Move, Reader

__all__ = ["Players", "accepted", "open_channels"]

STATUS_EVERY_S = 1.0  # at most one /incan status per player per second
SEATS = {"incan": (3, 5), "sakkara": (1, 2)}
"""People and seats (the rest bots) at a table of each game, by its command group. Sakkara's
prompts come by DM: its DM clicks reach the process of shard 0, wherever the table's guild is."""
FROM_DMS = {"sakkara"}
"""Games whose players press their DM prompt when it has a move (not the newer private reply of a
/status): so DM clicks, the ones that cross processes, happen in every run."""


def open_channels(fake: FakeDiscord, tables: int) -> list[FakeChannel]:
    """Open a channel per table, spread over the fake's guilds (so over the bot's shards). Before
    the bots connect: their GUILD_CREATE lists them."""
    guilds = fake.guild_ids
    return [fake.text_channel(f"table-{n}", guild_id=guilds[n % len(guilds)]) for n in range(tables)]


STALE = t("error.stale", "en")
"""What a stale press on a private panel is answered with, on top of the panel redrawn as the game
stands (a refusal, though its answer is a redraw like an accepted move's)."""


def accepted(rec: InteractionRecord) -> bool:
    """Whether the bot accepted a move: answered by a redraw of the pressed message (7) that is not
    a stale press's refusal, or, pressed on a public message, privately with the player's prompt (an
    embed); a refusal is a private text. A slow move is deferred first (6), before its outcome is
    known: it counts once the redraw edits the pressed message (``@original``) or the prompt follows,
    never on the deferral."""
    if rec.ack_type == 6:
        return rec.original_edits > 0 or any(m.embeds for m in rec.followups)
    if rec.ack_type == 7:
        # A stale press on a public board is answered with the board as it stands, and the refusal
        # follows privately (cogs.table.controls.buttons.refuse_press).
        return not any((text or "").startswith(STALE)
                       for text in (rec.update_content, *(m.content for m in rec.followups)))
    return rec.ack_type == 4 and any(m.embeds for m in rec.replies)


class Players:
    """People keeping a table going in every channel (Incan Gold, or a game of SEATS) through what
    Discord shows them."""

    def __init__(self, fake: FakeDiscord, server: LoopbackServer, reader: Reader, channels: list[FakeChannel],
                 seed: int, process_of: Callable[[int | None], int] = lambda guild_id: 0,
                 games: dict[int, str] | None = None) -> None:
        """``process_of(guild_id)`` names the bot process a guild's clicks reach (None: DM clicks);
        ``games`` the command group of a channel's game (``incan`` when not named)."""
        self.fake, self.server, self.db, self.process_of = fake, server, reader, process_of
        self.rng = random.Random(seed)
        self.channels = channels
        self.games = {channel.id: (games or {}).get(channel.id, "incan") for channel in channels}
        self.people = {channel.id: [fake.user(f"P{n}-{k}") for k in range(3)] for n, channel in
                       enumerate(self.channels)}
        self._answered_moves: list[tuple[Move, InteractionRecord]] = []  # moves whose answer looked accepted
        self.crossed = 0  # acknowledged DM clicks handled by another process than the table's guild's
        self.notes: dict[str, str] = {}  # repr of an acknowledged move -> how and when it was answered
        self.sent: list[Move] = []  # every move clicked, acknowledged or not (a click may be applied unanswered)
        self.spent: set[tuple[int, str]] = set()  # (message, custom_id) pressed and refused: not again
        self.asked: dict[int, float] = {}  # user id -> when they last ran /incan status
        self.up = asyncio.Event()
        """Set while a bot process is connected: nobody clicks into a dead bot."""
        # The messages carrying a table's controls, by (kind, table id) — "act" and "pick" for
        # moves, "lobby" — kept up to date as messages are made, edited and deleted, so a player
        # finds their buttons however long the run's history grows (a scan of the newest N
        # messages lost a table whose players waited while status replies scrolled its message
        # out of the window: the 1,000-kill run stalled so).
        self.marked: dict[tuple[str, int], dict[int, FakeMessage]] = {}
        self._marks: dict[int, set[tuple[str, int]]] = {}
        fake.add_message_listener(self._mark)
        self.errors = 0  # player turns that raised (a click into a bot being killed): counted, retried

    async def _active(self, channel: FakeChannel) -> tuple[int, str, list[int | None]] | None:
        rows = await self.db.rows(
            "SELECT id, status FROM games WHERE channel_id = ? AND status IN ('lobby', 'playing')", channel.id)
        if not rows:
            return None
        [(table_id, status)] = rows
        seats = [r[0] for r in await self.db.rows("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat",
                                                  table_id)]
        return int(table_id), str(status), seats

    @property
    def acknowledged(self) -> list[Move]:
        """The moves the bot acknowledged, judged on everything their answers brought so far: a stale
        press on a public board is answered by the board redrawn, and its refusal follows it."""
        return [move for move, rec in self._answered_moves if accepted(rec)]

    async def _answered(self, rec: InteractionRecord, timeout: float = 2.0, outcome_s: float = 5.0) -> bool:
        """Wait for the click's answer; after a deferral, for what follows it (see :func:`accepted`)."""
        deadline = time.monotonic() + timeout
        while not rec.acknowledged and not rec.errors:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.005)
        deadline = time.monotonic() + outcome_s
        while rec.ack_type == 6 and not rec.original_edits and not rec.followup_ids and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        return rec.acknowledged

    async def _click(self, user: FakeUser, message: FakeMessage, custom_id: str,
                     option: str | None = None) -> InteractionRecord | None:
        """Press a button, or pick ``option`` of a menu."""
        channel = self.fake.channels[message.channel_id]
        if not self.server.serves(channel.guild_id):
            return None  # its shard is down (a DM's: shard 0): Discord would say "interaction failed"
        try:
            kinds, values = ((2,), None) if option is None else ((3,), [option])
            rec, payload = self.fake.actions.component_interaction(user, message, custom_id, kinds, values)
        except Exception:  # the message changed meanwhile (its button is gone)
            return None
        await self.server.dispatch("INTERACTION_CREATE", payload)
        await self._answered(rec)
        return rec

    async def _command(self, user: FakeUser, channel: FakeChannel, command: str,
                       options: dict[str, Any] | None = None) -> None:
        """Run ``/<game> <sub>`` as Discord's client would send it (from the commands the bot synced)."""
        group = self.games[channel.id]
        synced = next((c for c in self.fake.commands.get(None, []) if c["name"] == group), None)
        if synced is None or not self.server.serves(channel.guild_id):
            return  # the bot has not synced its commands yet, or the channel's shard is down
        leaf = [ix.option_payload(name, 3, value) for name, value in (options or {}).items()]
        data = ix.command_data(int(synced["id"]), group, [ix.option_payload(command, 1, options=leaf)])
        rec, payload = self.fake.actions.new_interaction(user, channel, ix.INTERACTION_APPLICATION_COMMAND, data)
        await self.server.dispatch("INTERACTION_CREATE", payload)
        await self._answered(rec)

    async def _new_table(self, host: FakeUser, channel: FakeChannel) -> None:
        await self._command(host, channel, "new")

    def _mark(self, kind: str, message: FakeMessage) -> None:
        """Keep :attr:`marked` in step with a message made, edited or deleted."""
        now: set[tuple[str, int]] = set()
        if kind != "delete" and not message.deleted:
            for custom_id in message.custom_ids:
                head, _, rest = custom_id.partition(":")
                table, _, _ = rest.partition(":")
                if head in ("act", "pick", "lobby") and table.isdigit():
                    now.add((head, int(table)))
        for key in self._marks.pop(message.id, set()) - now:
            self.marked.get(key, {}).pop(message.id, None)
        for key in now:
            self.marked.setdefault(key, {})[message.id] = message
        if now:
            self._marks[message.id] = now

    def _carrying(self, table_id: int, *kinds: str) -> list[FakeMessage]:
        """The messages with the table's controls of ``kinds``, newest first."""
        found = {number: message for kind in kinds for number, message in self.marked.get((kind, table_id), {}).items()}
        return [found[number] for number in sorted(found, reverse=True)]

    def _lobby(self, channel: FakeChannel, table_id: int) -> FakeMessage | None:
        return next((m for m in self._carrying(table_id, "lobby")
                     if m.channel_id == channel.id and m.ephemeral_to is None), None)

    async def _fill(self, channel: FakeChannel, table_id: int, seats: list[int | None]) -> None:
        """Seat the game's people and bots (see SEATS), then start: with the lobby's buttons, or with
        the commands when its message is missing (the bot was killed between opening the table and
        posting it)."""
        lobby = self._lobby(channel, table_id)
        people, size = SEATS[self.games[channel.id]]
        host, *others = self.people[channel.id][:people]
        for user in others:
            if user.id not in seats:
                if lobby is not None:
                    await self._click(user, lobby, f"lobby:{table_id}:join")
                else:
                    await self._command(user, channel, "join")
        # Sakkara's stronger bots search for seconds: the easy one keeps its turns short.
        level = "easy" if size == 2 else self.rng.choice(["easy", "medium"])
        if len(seats) < size:
            if lobby is not None:
                await self._click(host, lobby, f"lobby:{table_id}:ai-{level}")
            else:
                await self._command(host, channel, "addbot", {"level": level})
        elif host.id in seats:
            if lobby is not None:
                await self._click(host, lobby, f"lobby:{table_id}:start")
            else:
                await self._command(host, channel, "start")

    def _prompts(self, user: FakeUser, channel: FakeChannel, table_id: int) -> Iterator[FakeMessage]:
        """The messages with move buttons of the table the user sees, newest first: the channel's
        (Incan Gold's expedition message carries Torch / Camp), their DMs and private replies."""
        dm = self.fake.dm_channel_ids.get(user.id)
        for message in self._carrying(table_id, "act", "pick"):
            visible = (message.channel_id == channel.id and message.ephemeral_to is None) or (
                dm is not None and message.channel_id == dm) or message.ephemeral_to == user.id
            if visible:
                yield message

    def _choices(self, prompt: FakeMessage, table_id: int) -> list[tuple[str, str | None]]:
        """The moves on a prompt not pressed yet: (custom_id, None) for a move button, (custom_id,
        option) for each option of a move menu (Sakkara's)."""
        choices: list[tuple[str, str | None]] = []
        for custom_id in prompt.custom_ids:
            if (prompt.id, custom_id) in self.spent:
                continue
            if custom_id.startswith(f"act:{table_id}:"):
                choices.append((custom_id, None))
            elif custom_id.startswith(f"pick:{table_id}:"):
                menu = prompt.component(custom_id) or {}
                choices += [(custom_id, option["value"]) for option in menu.get("options", [])]
        return choices

    def _prompt(self, user: FakeUser, channel: FakeChannel, table_id: int) -> FakeMessage | None:
        """The prompt the player presses: the newest, or for a game of FROM_DMS their newest DM
        prompt with a move not pressed yet."""
        prompts = self._prompts(user, channel, table_id)
        if self.games[channel.id] not in FROM_DMS:
            return next(prompts, None)
        found = list(itertools.islice(prompts, 8))
        fresh = [m for m in found if self.fake.channels[m.channel_id].is_dm and self._choices(m, table_id)]
        return next(iter(fresh or found), None)

    async def _move(self, user: FakeUser, channel: FakeChannel, table_id: int) -> None:
        prompt = self._prompt(user, channel, table_id)
        choices = [] if prompt is None else self._choices(prompt, table_id)
        if prompt is not None and choices:
            custom_id, option = self.rng.choice(choices)
            _, _, window, *code = custom_id.split(":", 3)
            move = Move(table_id, user.id, int(window), json.loads(code[0] if option is None else option))
            self.sent.append(move)
            rec = await self._click(user, prompt, custom_id, option)
            if rec is not None and accepted(rec):
                self._answered_moves.append((move, rec))
                dm = self.fake.channels[prompt.channel_id].is_dm
                if dm and self.process_of(None) != self.process_of(channel.guild_id):
                    self.crossed += 1
                self.notes[repr(move)] = (f"answered {rec.ack_type} (edits {rec.original_edits}) at {time.time():.3f} "
                                    f"by process {self.process_of(None if dm else channel.guild_id)}")
                return
            if rec is not None and rec.acknowledged:  # refused (stale, not theirs now): press it no more
                self.spent.update((prompt.id, c) for c in prompt.custom_ids)
        # No buttons, or stale ones (the bot restarted before redrawing): /incan status shows the
        # table and, privately, the buttons of the decision owed now. Not more often than a person
        # would ask: a player waiting for the others would otherwise flood the bot with commands.
        now = time.monotonic()
        if now - self.asked.get(user.id, -STATUS_EVERY_S) >= STATUS_EVERY_S:
            self.asked[user.id] = now
            await self._command(user, channel, "status")

    async def play(self, channel: FakeChannel, stop: asyncio.Event) -> None:
        """Keep a table going in ``channel`` until ``stop``."""
        while not stop.is_set():
            await self.up.wait()
            try:
                await self._turn(channel)
            except Exception:  # a click into a bot being killed (its socket closing): try again
                # A player task that died here would stall its table for the rest of the run.
                self.errors += 1
                if self.errors == 1:
                    traceback.print_exc()
            await asyncio.sleep(0.01)

    async def _turn(self, channel: FakeChannel) -> None:
        """One look at the table in ``channel``: open it, fill it, or make the moves owed."""
        try:
            active = await self._active(channel)
        except sqlite3.OperationalError:  # the database is busy checkpointing: look again
            active = None
        if active is None:
            await self._new_table(self.people[channel.id][0], channel)
        else:
            table_id, status, seats = active
            if status == "lobby":
                await self._fill(channel, table_id, seats)
            else:
                for user in self.people[channel.id]:
                    if user.id in seats:
                        await self._move(user, channel, table_id)
