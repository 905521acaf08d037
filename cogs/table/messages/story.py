"""The whole story of a game, for every game: its log on the board and, in batches, in a thread.

Each renderer turns a committed update's events into log lines (its own wording); this module is
the one mechanism that keeps them:

- the **board** (the game's public message) shows every line since the last batch was written,
  so nothing that happened is only in the past;
- a **batch** goes to the game's thread (created from its lobby message at the start, where the
  server allows threads and the bot may create one and post in it — asked before, so no request
  fails for it; else straight into the channel) when the
  renderer says a natural chapter ended (an expedition, a round), when the board's log would
  overflow its field, and at the end of the game — so the thread ends up holding every event in
  order, at the cost of one rate-limited post per chapter instead of one per event;
- how far the log was posted is stored (:mod:`db.table_records`): after a restart the lines not
  yet posted are rebuilt by replaying the stored actions and seat events (timeouts, resignations),
  so no line is posted twice or dropped. A batch that cannot be posted stays on the board and is
  tried again with the next one.

Positions are (actions, notes): every action before ``actions`` and the first ``notes`` seat
events of the table; a seat event at version ``v`` comes before action ``v``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

import discord

from cogs.table.messages.fields import split_items
from cogs.table.messages.text import decision_time, name_of
from engine.core import Event
from engine.session import SeatEvent, Table, Update
from engine.session.options import DEFAULT_THREADS
from engine.session.pace import LIVE, pace_of
from i18n import t

if TYPE_CHECKING:
    from cogs.table.messages.outbox import BucketKey, Outbox
    from cogs.table.messages.recorded import HubRecords

__all__ = ["BOARD_LOG_LIMIT", "POST_LIMIT", "Narrator", "Story", "round_chapters"]

log = logging.getLogger(__name__)

BOARD_LOG_LIMIT = 1000
"""Characters of log the board shows at most (an embed field holds 1,024): a batch is written
before the lines since the last one would pass it."""

POST_LIMIT = 1900
"""Characters per log post (a message holds 2,000): a longer batch takes several posts."""

THREAD_ARCHIVE_MIN: Literal[60, 1440, 4320, 10080] = 1440
"""The thread hides itself after a day without posts (each post brings it back)."""

Position = tuple[int, int]


def round_chapters(table: Table, round_end: Callable[[Sequence[Event]], bool]
                   ) -> Callable[[Sequence[Event]], bool] | None:
    """Return ``round_end`` as a turn-based game's chapter end at a live table, else None: a
    correspondence round lasts hours or days, and a thread post for each would cost a call per round
    for lines the board shows anyway (every line since the last batch); there a batch is written
    when the board's log would overflow, and at the end."""
    return round_end if pace_of(decision_time(table)) == LIVE else None


class Narrator(Protocol):
    """What the story needs of a game's renderer: its log lines."""

    def event_lines(self, table: Table, events: Sequence[Event]) -> list[str]:
        """Return the public log lines of one step's events."""
        ...

    def timeout_label(self, events: Sequence[Event], you: bool = False) -> str:
        """Return what a timeout played (``events``: those of its first move)."""
        ...


@dataclass
class _Log:
    """One table's story in memory: where the thread is, what is written, what is pending."""

    thread_id: int | None
    written: Position
    pending: list[str] = field(default_factory=list)
    upto: Position = (0, 0)
    last_batch: list[str] = field(default_factory=list)
    unposted: list[tuple[list[str], Position]] = field(default_factory=list)  # cut batches: chunks, position
    opening: tuple[int, int, str] | None = None  # (channel, lobby message, title) of a thread not yet made


class Story:
    """Every table's log: lines since the last batch (for the board) and the batches (to a thread)."""

    def __init__(self, bot: discord.Client, repo: HubRecords, outbox: Outbox | None = None,
                 may: Callable[[Table, str], Awaitable[bool]] | None = None,
                 refused: Callable[[int, set[str], str], None] | None = None) -> None:
        self.bot = bot
        self.repo = repo
        self.outbox = outbox
        # May the bot do this in the table's channel now (the hub's answer; None: always tried).
        self.may = may
        self.refused = refused  # a 403 anyway: the hub's permissions learn it (nothing retries it in a loop)
        self._logs: dict[int, _Log] = {}

    # ------------------------------------------------------------------ reading

    def lines(self, table: Table) -> list[str]:
        """Return the lines since the last batch was written (what the board shows)."""
        story = self._logs.get(table.id)
        return list(story.pending) if story is not None else []

    def last_batch(self, table: Table) -> list[str]:
        """Return the lines of the batch written last (e.g. the chapter that just ended)."""
        story = self._logs.get(table.id)
        return list(story.last_batch) if story is not None else []

    def thread_id(self, table: Table) -> int | None:
        """Return the table's thread, if it has one (known once the story is loaded)."""
        story = self._logs.get(table.id)
        return story.thread_id if story is not None else None

    # ------------------------------------------------------------------ writing

    async def begin(self, table: Table, lobby: tuple[int, int] | None, title: str, lines: list[str]) -> None:
        """Open the game's thread from its lobby message (or settle for the channel) and log the start."""
        story = _Log(None, (0, 0))
        if lobby is not None and table.table_options.get("threads", DEFAULT_THREADS):
            # Made by the first batch's call, through the outbox like every rate-limited call:
            # creating a thread takes a global token and the channel's thread bucket.
            story.opening = (lobby[0], lobby[1], title)
        self._logs[table.id] = story
        await self.repo.set_story(table.id, None, 0, 0)
        story.pending.extend(lines)
        await self.flush(table)

    async def played(self, update: Update, narrator: Narrator,
                     chapter_end: Callable[[Sequence[Event]], bool] | None = None) -> None:
        """Add an update's lines (its timeouts first); write a batch after each step that ends a
        chapter (``chapter_end`` of its events) and before the board's log would overflow."""
        table = update.table
        timeouts = [e for e in table.seat_events[len(table.seat_events) - len(update.timed_out):]
                    if e.kind == "timeout"] if update.timed_out else []
        notes = len(table.seat_events)
        story = await self._load(table, (update.start, notes - len(timeouts)), narrator)
        first = update.step_events[0] if update.step_events else []
        lines = [self._note_line(table, e, narrator, first) for e in timeouts]
        for number, events in enumerate(update.step_events):
            lines += narrator.event_lines(table, events)
            if chapter_end is not None and chapter_end(events):
                await self._add(table, story, lines, (update.start + number + 1, notes))
                await self.flush(table)
                lines = []
        await self._add(table, story, lines, (table.version, notes))

    async def note(self, table: Table, event: SeatEvent, narrator: Narrator) -> None:
        """Add the line of a seat event that came without actions (a resignation, a person away or back)."""
        story = await self._load(table, (table.version, len(table.seat_events) - 1), narrator)
        await self._add(table, story, [self._note_line(table, event, narrator, [])],
                        (table.version, len(table.seat_events)))

    async def end(self, table: Table, lines: list[str], narrator: Narrator) -> None:
        """Write everything left, with closing ``lines`` (the game is over or cancelled)."""
        if table.status == "lobby":
            return
        story = await self._load(table, (table.version, len(table.seat_events)), narrator)
        story.pending.extend(lines)
        await self.flush(table)
        self._logs.pop(table.id, None)

    async def flush(self, table: Table) -> None:
        """Cut the pending lines as one batch and post it (through the outbox: in order, as budget allows)."""
        story = self._logs.get(table.id)
        if story is None or not story.pending:
            return
        story.unposted.append((split_items(story.pending, "\n", POST_LIMIT), story.upto))
        story.last_batch, story.pending = story.pending, []
        if self.outbox is None:
            await self._post_all(table, story)
            return

        planned = [0]  # the batches the budget was taken for: a batch cut meanwhile waits for the next call

        def plan(fresh: bool) -> list[BucketKey]:
            opening = [("thread", story.opening[0])] if story.opening is not None else []
            target = story.thread_id or table.channel_id
            planned[0] = len(story.unposted)
            return opening + [("send", target)] * max(1, sum(len(chunks) for chunks, _ in story.unposted))

        async def run(latest: dict[str, Any], fresh: bool) -> None:
            await self._post_all(table, story, planned[0] if self.outbox is not None and self.outbox.budget else None)

        # One key per table: a batch cut while another waits joins it (both go, in order).
        await self.outbox.submit(("story", table.id), {}, plan=plan, run=run, group=table.id)

    def forget(self, table: Table) -> None:
        """Drop a table's story from memory (it stays in the store)."""
        self._logs.pop(table.id, None)

    # ------------------------------------------------------------------ internals

    async def _add(self, table: Table, story: _Log, lines: list[str], upto: Position) -> None:
        if story.pending and len("\n".join(story.pending + lines)) > BOARD_LOG_LIMIT:
            await self.flush(table)  # the board's log would overflow: the older lines go first
        story.pending.extend(lines)
        story.upto = upto
        if len("\n".join(story.pending)) > BOARD_LOG_LIMIT:
            await self.flush(table)  # one update alone says more than the board holds

    def _note_line(self, table: Table, event: SeatEvent, narrator: Narrator, events: Sequence[Event]) -> str:
        seat = table.seats[event.seat]
        if event.kind == "resign":
            level = t(f"level.{event.detail.get('level', 'easy')}").capitalize()
            return t("play.resigned_log", name=name_of(seat), level=level)
        if event.kind == "away":
            level = t(f"level.{event.detail.get('level', 'easy')}").capitalize()
            return t("play.away_log", name=name_of(seat), level=level)
        if event.kind == "back":
            return t("play.back_log", name=name_of(seat))
        return t("play.timed_out", names=name_of(seat), label=narrator.timeout_label(events))

    async def _load(self, table: Table, start: Position, narrator: Narrator) -> _Log:
        """Return the table's story, rebuilding the unwritten lines before ``start`` after a restart."""
        story = self._logs.get(table.id)
        if story is not None:
            return story
        row = await self.repo.story(table.id)
        if row is None:
            # The bot stopped before the story began: begin it now, in the channel (no lobby at hand).
            story = _Log(None, (0, 0))
            await self.repo.set_story(table.id, None, 0, 0)
        else:
            story = _Log(row.thread_id, (row.actions_written, row.notes_written))
        story.pending = await self._replay(table, story.written, start, narrator)
        story.upto = start
        self._logs[table.id] = story
        return story

    async def _replay(self, table: Table, written: Position, start: Position, narrator: Narrator) -> list[str]:
        """Return the lines of the story between ``written`` and ``start``, from the stored log."""
        if start <= written:
            return []
        game = table.spec.game
        state = game.setup(len(table.seats), table.seed or 0, table.options)
        actions = await self.repo.actions(table.id, start[0])
        notes = list(enumerate(table.seat_events[:start[1]]))
        lines: list[str] = []
        for version in range(start[0] + 1):
            events: list[Event] = []
            if version < start[0]:
                seat, action = actions[version]
                state, events = game.apply(state, seat, action)
            for index, note in notes:
                if note.version == version and index >= written[1]:
                    lines.append(self._note_line(table, note, narrator, events))
            if version < start[0] and version >= written[0]:
                lines += narrator.event_lines(table, events)
        return lines

    async def _open_thread(self, table: Table, story: _Log) -> None:
        """Make the game's thread from its lobby message, once (the story's first call does it)."""
        if story.opening is None:
            return
        channel_id, message_id, title = story.opening
        story.opening = None
        if not (await self._may(table, "threads") and await self._may(table, "thread_send")):
            return  # the log goes to the channel at once, without a request that would fail
        channel = self.bot.get_partial_messageable(channel_id, guild_id=table.guild_id)
        try:
            thread = await channel.get_partial_message(message_id).create_thread(
                name=title[:100], auto_archive_duration=THREAD_ARCHIVE_MIN)
        except (discord.HTTPException, ValueError) as exc:
            # Too many active threads, a DM, a permission taken away since the check...: the log
            # goes to the channel.
            log.info("table %s: no thread (%s); the log goes to the channel", table.id, exc)
            if isinstance(exc, discord.Forbidden) and self.refused is not None:
                self.refused(channel_id, {"threads"}, "creating a thread")
            return
        story.thread_id = thread.id

    async def _post_all(self, table: Table, story: _Log, batches: int | None = None) -> None:
        """Open the thread (the first time), post what is cut (the first ``batches`` of it: those the
        call took budget for), then record the thread and how far the story got, once: the records
        send nothing, so the outbox's budget is given back before them (a call held it through each
        store write, hundreds of ms on a loaded machine)."""
        before = (story.thread_id, story.written)
        await self._open_thread(table, story)
        await self._post_unposted(table, story, batches)
        if self.outbox is not None:
            self.outbox.requests_ended()
        if (story.thread_id, story.written) == before:
            return
        try:
            await self.repo.set_story(table.id, story.thread_id, *story.written)
        except Exception:
            # Not recorded: after a restart the log goes on in the channel (a new thread is not
            # known) and batches posted since the last record are posted again; nothing is lost.
            log.warning("table %s: the story's thread and position were not saved", table.id, exc_info=True)

    async def _post_unposted(self, table: Table, story: _Log, batches: int | None = None) -> None:
        """Post the cut batches in order (at most ``batches``), each chunk once; note how far the story got."""
        # A batch cut while this call was on the wire has a call of its own queued, with its budget:
        # sent here, it would go past the channel's bucket (discord.py then sleeps out the window
        # with the budget held: 10-15 s beside 100 tables of bots) and leave that call nothing to send.
        left = len(story.unposted) if batches is None else batches
        while story.unposted and left > 0:
            left -= 1
            chunks, upto = story.unposted[0]
            while chunks:
                if not await self._post(table, story, chunks[0]):
                    # Kept, in order, for the next batch; a restart rebuilds them from the store.
                    return
                chunks.pop(0)
            story.unposted.pop(0)
            story.written = upto

    async def _post(self, table: Table, story: _Log, text: str) -> bool:
        """Post one text to the thread or else the channel; False when it cannot be posted now."""
        while True:
            if story.thread_id is not None and not await self._may(table, "thread_send"):
                story.thread_id = None  # the thread is closed to the bot now: the story goes on in the channel
            target = story.thread_id or table.channel_id
            if story.thread_id is None and not await self._may(table, "send"):
                return False  # kept for the next batch: nothing is tried where it cannot be posted
            try:
                await self.bot.get_partial_messageable(target, guild_id=table.guild_id).send(
                    text, allowed_mentions=discord.AllowedMentions.none())
                return True
            except (discord.Forbidden, discord.NotFound) as exc:
                if isinstance(exc, discord.Forbidden) and self.refused is not None:
                    self.refused(table.channel_id, {"thread_send"} if story.thread_id else {"send"}, "a log post")
                if story.thread_id is None:
                    log.warning("table %s: the log cannot be posted in its channel (%s)", table.id, exc)
                    return False
                # The thread is gone or closed to the bot: the story goes on in the channel.
                log.info("table %s: thread %s unusable (%s); the log goes to the channel", table.id,
                         story.thread_id, exc)
                story.thread_id = None
            except discord.HTTPException as exc:
                log.warning("table %s: a log batch was not posted (%s); it is tried again later", table.id, exc)
                return False

    async def _may(self, table: Table, need: str) -> bool:
        return self.may is None or await self.may(table, need)
