"""The chaos harness: the real bot in its own process, killed with SIGKILL at random moments of play,
restarted on the same database, and checked against what it had acknowledged.

Discord (a :class:`FakeDiscord` behind a :class:`LoopbackServer`) and the players live in this
process, so messages, DM prompts and their buttons outlive the bot, as on Discord. The bot runs in a
child forked by :mod:`fakediscord.zygote` (the real ``bot.run``: store, gateway, signal handlers,
bot seats acting on the real clock). Players keep ``tables`` Incan Gold tables of three people and
two bot seats going: they press Torch or Camp on the newest message that has them (``/incan status``
when those are stale, e.g. after a restart), open a new table when one ends, and record every move the
bot *acknowledged* (Discord got the click's answer, which the bot sends only after the commit).

After every kill the database is checked: every acknowledged move is in its table's log in the
decision window it was made in (lost = 0), every log replays legally through the engine, every
finished table's stored results are the replay's, no table was abandoned as unreadable. The last
life ends with SIGTERM instead, which must exit 0.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord import payloads as p
from fakediscord.fake import FakeDiscord
from fakediscord.loopback import LoopbackServer
from fakediscord.records import FakeChannel, FakeMessage, FakeUser, InteractionRecord

ROOT = Path(__file__).resolve().parents[1]
STATUS_EVERY_S = 1.0  # at most one /incan status per player per second
def accepted(rec: InteractionRecord) -> bool:
    """Whether the bot accepted a move: answered by a redraw of the pressed message (7), a deferral
    (6), or, pressed on a public message, privately with the player's prompt (an embed); a refusal
    is a private text."""
    return rec.ack_type in (6, 7) or (rec.ack_type == 4 and any(m.embeds for m in rec.replies))


@dataclass(frozen=True)
class Move:
    """A move the bot acknowledged: the table, who, the decision window it was made in, the action."""

    table_id: int
    user_id: int
    window: int
    action: Any


@dataclass
class Report:
    """What a chaos run did and found."""

    kills: int = 0
    lives: int = 0
    acknowledged: int = 0
    moves: list[Move] = field(default_factory=list)  # the acknowledged moves themselves
    lost: list[Move] = field(default_factory=list)
    corrupt: list[str] = field(default_factory=list)
    games: int = 0
    finished: int = 0
    clean_exit: int | None = None
    tracebacks: int = 0
    seconds: float = 0.0
    late: int = 0  # moves acknowledged in the run's last quarter of kills: play never stalled
    player_errors: int = 0  # player turns that raised (a click into a dying bot), retried

    def line(self) -> str:
        """Return the run's figures on one line."""
        return (f"kills={self.kills} lives={self.lives} acknowledged_moves={self.acknowledged} lost={len(self.lost)} "
                f"corrupt={len(self.corrupt)} games={self.games} finished={self.finished} "
                f"clean_exit={self.clean_exit} tracebacks={self.tracebacks} late_moves={self.late} "
                f"player_errors={self.player_errors} seconds={self.seconds:.0f}")


class Zygote:
    """The warm parent of the bot processes (``python -m fakediscord.zygote``)."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, "-m", "fakediscord.zygote"], cwd=ROOT, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("the zygote did not start")

    def spawn(self, port: int, database: Path, log: Path) -> int:
        """Fork a bot process; return its pid."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{port} {database} {log}\n")
        self.process.stdin.flush()
        return int(self.process.stdout.readline())

    def close(self) -> None:
        """Stop the zygote (its children are gone by then)."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def _gone(pid: int, timeout: float) -> bool:
    """Wait until process ``pid`` has ended (the zygote reaps it); return False on timeout."""
    deadline = time.monotonic() + timeout
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


# --------------------------------------------------------------------------- checking the database


def _window_moves(game: Any, seats: int, seed: int, options: dict[str, Any],
                  actions: list[tuple[int, Any]]) -> tuple[Any, set[tuple[int, int, str]]]:
    """Replay a log (raises on an illegal step); return the final state and every (seat, window,
    action) played, the window numbered as the session numbers it (the version it opened at)."""
    state = game.setup(seats, seed, options)
    window, played = 0, set()
    for number, (seat, action) in enumerate(actions):
        before = set(game.to_move(state))
        state, _ = game.apply(state, seat, action)
        after = game.to_move(state)
        if seat >= 0:
            played.add((seat, window, json.dumps(action, sort_keys=True)))
        if seat < 0 or seat in after or not set(after) <= before:
            window = number + 1
    return state, played


def check_database(path: Path, acknowledged: list[Move], report: Report) -> None:
    """Check the database against the acknowledged moves (see the module's docstring)."""
    from engine.session.games import SPECS

    report.lost.clear()
    connection = sqlite3.connect(path, timeout=30)
    try:
        games = connection.execute("SELECT id, game, status, seed, options FROM games").fetchall()
        played: dict[int, set[tuple[int, int, str]]] = {}
        seat_of: dict[tuple[int, int], int] = {}
        report.games, report.finished = len(games), 0
        for game_id, name, status, seed, options in games:
            if status == "abandoned":
                report.corrupt.append(f"game {game_id} abandoned")
            if seed is None:
                continue
            seats = connection.execute("SELECT seat, user_id FROM seats WHERE game_id = ? ORDER BY seat",
                                       (game_id,)).fetchall()
            seat_of.update({(game_id, user): seat for seat, user in seats if user is not None})
            log = [(seat, json.loads(payload)) for seat, payload in connection.execute(
                "SELECT seat, payload FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
            engine = SPECS[name].game
            try:
                state, played[game_id] = _window_moves(engine, len(seats), seed, json.loads(options), log)
            except Exception as exc:  # an illegal step in a stored log: corruption
                report.corrupt.append(f"game {game_id} does not replay: {exc!r}")
                continue
            if status == "finished":
                report.finished += 1
                stored = [row[0] for row in connection.execute(
                    "SELECT score FROM results WHERE game_id = ? ORDER BY seat", (game_id,))]
                if not engine.is_over(state) or stored != [int(s) for s in engine.result(state)["scores"]]:
                    report.corrupt.append(f"game {game_id}: stored results {stored} are not the replay's")
    finally:
        connection.close()
    for move in acknowledged:
        seat = seat_of.get((move.table_id, move.user_id))
        code = json.dumps(move.action, sort_keys=True)
        if seat is None or (seat, move.window, code) not in played.get(move.table_id, set()):
            report.lost.append(move)


# --------------------------------------------------------------------------- the players


class Players:
    """Three people per channel playing Incan Gold through what Discord shows them."""

    def __init__(self, fake: FakeDiscord, server: LoopbackServer, database: Path, tables: int, seed: int) -> None:
        self.fake, self.server, self.database = fake, server, database
        self.rng = random.Random(seed)
        self.channels = [fake.text_channel(f"table-{n}") for n in range(tables)]
        self.people = {channel.id: [fake.user(f"P{n}-{k}") for k in range(3)] for n, channel in
                       enumerate(self.channels)}
        self.acknowledged: list[Move] = []
        self.db = sqlite3.connect(database, timeout=30, check_same_thread=False)
        self.spent: set[tuple[int, str]] = set()  # (message, custom_id) pressed and refused: not again
        self.asked: dict[int, float] = {}  # user id -> when they last ran /incan status
        self.up = asyncio.Event()
        """Set while a bot process is connected: nobody clicks into a dead bot."""
        # The messages carrying a table's buttons, by (kind, table id) — "act" for moves, "lobby":
        # kept up to date as messages are made, edited and deleted, so a player finds their
        # buttons however long the run's history grows (a scan of the newest N messages lost a
        # table whose players waited while status replies scrolled its message out of the window).
        self.marked: dict[tuple[str, int], dict[int, FakeMessage]] = {}
        self._marks: dict[int, set[tuple[str, int]]] = {}
        fake.add_message_listener(self._mark)
        self.errors = 0  # a player's turn that raised (the bot died under a click): counted, retried

    def close(self) -> None:
        """Close the players' read connection."""
        self.db.close()

    def _active(self, channel: FakeChannel) -> tuple[int, str, list[int | None]] | None:
        row = self.db.execute("SELECT id, status FROM games WHERE channel_id = ? AND status IN ('lobby', 'playing')",
                              (channel.id,)).fetchone()
        if row is None:
            return None
        seats = [r[0] for r in self.db.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (row[0],))]
        return int(row[0]), str(row[1]), seats

    async def _answered(self, rec: InteractionRecord, timeout: float = 2.0) -> bool:
        deadline = time.monotonic() + timeout
        while not rec.acknowledged and not rec.errors:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.005)
        return rec.acknowledged

    async def _click(self, user: FakeUser, message: FakeMessage, custom_id: str) -> InteractionRecord | None:
        try:
            rec, payload = self.fake._component_interaction(user, message, custom_id, (2,), None)
        except Exception:  # the message changed meanwhile (its button is gone)
            return None
        await self.server.dispatch("INTERACTION_CREATE", payload)
        await self._answered(rec)
        return rec

    async def _command(self, user: FakeUser, channel: FakeChannel, command: str,
                       options: dict[str, Any] | None = None) -> None:
        """Run ``/incan <sub>`` as Discord's client would send it (from the commands the bot synced)."""
        synced = next((c for c in self.fake.commands.get(None, []) if c["name"] == "incan"), None)
        if synced is None:
            return  # the bot has not synced its commands yet
        leaf = [p.option_payload(name, 3, value) for name, value in (options or {}).items()]
        data = p.command_data(int(synced["id"]), "incan", [p.option_payload(command, 1, options=leaf)])
        rec, payload = self.fake._new_interaction(user, channel, p.INTERACTION_APPLICATION_COMMAND, data)
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
                if head in ("act", "lobby") and table.isdigit():
                    now.add((head, int(table)))
        for key in self._marks.pop(message.id, set()) - now:
            self.marked.get(key, {}).pop(message.id, None)
        for key in now:
            self.marked.setdefault(key, {})[message.id] = message
        if now:
            self._marks[message.id] = now

    def _carrying(self, kind: str, table_id: int) -> list[FakeMessage]:
        """The messages with the table's buttons of ``kind``, newest first."""
        found = self.marked.get((kind, table_id), {})
        return [found[number] for number in sorted(found, reverse=True)]

    def _lobby(self, channel: FakeChannel, table_id: int) -> FakeMessage | None:
        return next((m for m in self._carrying("lobby", table_id)
                     if m.channel_id == channel.id and m.ephemeral_to is None), None)

    async def _fill(self, channel: FakeChannel, table_id: int, seats: list[int | None]) -> None:
        """Seat everyone and two bots, then start: with the lobby's buttons, or with the commands
        when its message is missing (the bot was killed between opening the table and posting it)."""
        lobby = self._lobby(channel, table_id)
        host, *others = self.people[channel.id]
        for user in others:
            if user.id not in seats:
                if lobby is not None:
                    await self._click(user, lobby, f"lobby:{table_id}:join")
                else:
                    await self._command(user, channel, "join")
        level = self.rng.choice(["easy", "medium"])
        if len(seats) < 5:
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
        for message in self._carrying("act", table_id):
            visible = (message.channel_id == channel.id and message.ephemeral_to is None) or (
                dm is not None and message.channel_id == dm) or message.ephemeral_to == user.id
            if visible:
                yield message

    async def _move(self, user: FakeUser, channel: FakeChannel, table_id: int) -> None:
        prompt = next(self._prompts(user, channel, table_id), None)
        choices = [] if prompt is None else [c for c in prompt.custom_ids if c.startswith(f"act:{table_id}:")
                                             and (prompt.id, c) not in self.spent]
        if prompt is not None and choices:
            custom_id = self.rng.choice(choices)
            rec = await self._click(user, prompt, custom_id)
            if rec is not None and accepted(rec):
                _, _, window, code = custom_id.split(":", 3)
                self.acknowledged.append(Move(table_id, user.id, int(window), json.loads(code)))
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

    async def _turn(self, channel: FakeChannel) -> None:
        """One look at the table in ``channel``: open it, fill it, or make the moves owed."""
        try:
            active = self._active(channel)
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

    async def play(self, channel: FakeChannel, stop: asyncio.Event) -> None:
        """Keep a table going in ``channel`` until ``stop``."""
        while not stop.is_set():
            await self.up.wait()
            try:
                await self._turn(channel)
            except Exception:  # a click into a bot killed under it: try again
                # A player task that died here would stall its table for the rest of the run.
                self.errors += 1
                if self.errors == 1:
                    traceback.print_exc()
            await asyncio.sleep(0.01)


# --------------------------------------------------------------------------- the run


async def chaos(folder: Path, *, kills: int, tables: int = 4, seed: int = 1, life_s: tuple[float, float] = (0.3, 1.2),
                say: Any = None) -> Report:
    """Kill the bot ``kills`` times at random moments of play, restarting it each time; return the report."""
    rng = random.Random(seed)
    database, log = folder / "chaos.sqlite3", folder / "bot.log"
    report = Report()
    started = time.monotonic()
    fake = FakeDiscord(patch_http=False, real_time=False)
    zygote = Zygote()
    try:
        async with LoopbackServer(fake) as server:
            pid = zygote.spawn(server.port, database, log)
            report.lives = 1
            await asyncio.wait_for(server.ready_sent.wait(), timeout=60)
            while not fake.commands.get(None):
                await asyncio.sleep(0.01)
            players = Players(fake, server, database, tables, seed)
            late_from = 0  # acknowledged moves when the last quarter of the kills began
            players.up.set()
            stop = asyncio.Event()
            tasks = [asyncio.create_task(players.play(channel, stop)) for channel in players.channels]
            try:
                for number in range(kills + 1):
                    await asyncio.sleep(rng.uniform(*life_s))
                    if number == kills:
                        break
                    players.up.clear()
                    os.kill(pid, signal.SIGKILL)
                    if not await _gone(pid, 30):
                        raise RuntimeError(f"bot process {pid} survived SIGKILL")
                    report.kills += 1
                    check_database(database, players.acknowledged, report)
                    report.acknowledged = len(players.acknowledged)
                    report.player_errors = players.errors
                    if report.kills == kills - kills // 4:
                        late_from = report.acknowledged
                    report.late = report.acknowledged - late_from
                    if say is not None and (report.kills % 50 == 0 or report.lost or report.corrupt):
                        say(report.line())
                    if report.lost or report.corrupt:
                        break
                    server.ready_sent.clear()
                    pid = zygote.spawn(server.port, database, log)
                    report.lives += 1
                    await asyncio.wait_for(server.ready_sent.wait(), timeout=60)
                    players.up.set()
            finally:
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)
                players.close()
            if _alive(pid):
                os.kill(pid, signal.SIGTERM)
                report.clean_exit = 0 if await _gone(pid, 15) else None
            check_database(database, players.acknowledged, report)
            report.acknowledged = len(players.acknowledged)
            report.late = report.acknowledged - late_from
            report.player_errors = players.errors
            report.moves = list(players.acknowledged)
    finally:
        zygote.close()
    report.tracebacks = log.read_text(errors="replace").count("Traceback") if log.exists() else 0
    report.seconds = time.monotonic() - started
    return report
