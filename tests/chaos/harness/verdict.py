"""The chaos harness's verdict: the database checked against what the bot acknowledged.

Every acknowledged move is in its table's log, in the decision window it was made in (lost = 0);
no human move is in a log twice or without a click or a recorded timeout behind it (duplicated =
0: a click applied twice, e.g. by two processes, would show as a second, unexplained move); every
log replays legally through the engine; every finished table's stored results are the replay's; no
table was abandoned as unreadable. The same queries read SQLite (one bot process) and PostgreSQL
(several processes sharing it), through a :class:`Reader`.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

__all__ = ["Move", "PgReader", "Reader", "Report", "SqliteReader", "check_database", "check_store"]


@dataclass(frozen=True)
class Move:
    """A move a player made: the table, who, the decision window it was made in, the action."""

    table_id: int
    user_id: int
    window: int
    action: Any


@dataclass
class Report:
    """What a chaos run did and found."""

    kills: int = 0
    lives: int = 0
    processes: int = 1
    acknowledged: int = 0
    moves: list[Move] = field(default_factory=list)  # the acknowledged moves themselves
    lost: list[Move] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    corrupt: list[str] = field(default_factory=list)
    games: int = 0
    finished: int = 0
    clean_exit: int | None = None
    tracebacks: int = 0
    errors: int = 0  # ERROR (or worse) lines in the bots' logs
    crossed: int = 0  # acknowledged DM clicks handled by another process than the table's guild's
    timers: dict[int, int] = field(default_factory=dict)  # process -> timers that played actions
    takeovers: int = 0  # (kill, table) pairs whose timers a survivor ran while the killed process was down
    by_survivors: int = 0  # timers survivors ran for the killed process's tables while it was down
    seconds: float = 0.0
    late: int = 0  # moves acknowledged in the run's last quarter of kills: play never stalled
    player_errors: int = 0  # player turns that raised (a click into a dying bot), retried

    def line(self) -> str:
        """Return the run's figures on one line."""
        several = self.processes > 1
        timers = ",".join(str(self.timers.get(n, 0)) for n in range(self.processes))
        return (f"{f'processes={self.processes} ' if several else ''}kills={self.kills} lives={self.lives} "
                f"acknowledged_moves={self.acknowledged} lost={len(self.lost)} "
                f"{f'duplicated={len(self.duplicated)} ' if several else ''}corrupt={len(self.corrupt)} "
                f"games={self.games} finished={self.finished} "
                + (f"crossed={self.crossed} takeovers={self.takeovers} timers_by_survivors={self.by_survivors} "
                   f"timers_by_process={timers} errors={self.errors} " if several else "")
                + f"clean_exit={self.clean_exit} tracebacks={self.tracebacks} late_moves={self.late} "
                f"player_errors={self.player_errors} seconds={self.seconds:.0f}")


class Reader(Protocol):
    """Read access to the bot's database (queries written with ``?`` placeholders)."""

    async def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Return every row of a query."""
        ...

    async def close(self) -> None:
        """Close the connection."""
        ...


class SqliteReader:
    """A SQLite file, read while the bot writes to it (WAL: readers never block the writer)."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(path, timeout=30, check_same_thread=False)

    async def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Return every row of a query (synchronous: the file is local and the queries are small)."""
        return self.connection.execute(sql, args).fetchall()

    async def close(self) -> None:
        """Close the connection."""
        self.connection.close()


class PgReader:
    """A PostgreSQL database shared by several bot processes (a small pool: every table's players read)."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str) -> PgReader:
        """Connect to ``url``."""
        import asyncpg  # only with PostgreSQL: the SQLite harness runs without it

        return cls(await asyncpg.create_pool(url, min_size=1, max_size=4))

    async def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Return every row of a query, its ``?`` placeholders numbered as PostgreSQL wants them."""
        numbers = iter(range(1, len(args) + 1))
        rows = await self.pool.fetch(re.sub(r"\?", lambda _: f"${next(numbers)}", sql), *args)
        return [tuple(row) for row in rows]

    async def close(self) -> None:
        """Close the connections."""
        await self.pool.close()


@dataclass
class Replay:
    """A log replayed: the final state, how often each (seat, window, action) was played (the window
    numbered as the session numbers it: the version it opened at), the window of every version, and
    the moves the session played unasked because the rules left nothing else (``GameSpec.forced``)."""

    state: Any
    played: Counter[tuple[int, int, str]]
    windows: list[int]
    forced: set[tuple[int, int, str]]
    keys: list[tuple[int, int, str]]  # (seat, window, action) of every step, in order

    def timed_out(self, version: int, absent: set[int]) -> set[tuple[int, int, str]]:
        """Return the moves the timeout agent played for the ``absent`` seats at ``version``: the
        steps from there on by those seats (whole turns of a sequential game), up to another's."""
        moves = set()
        for key in self.keys[version:]:
            if key[0] not in absent:
                break
            moves.add(key)
        return moves


def _replay(spec: Any, seats: int, seed: int, options: dict[str, Any], actions: list[tuple[int, Any]]) -> Replay:
    """Replay a log through the engine (raises on an illegal step)."""
    game = spec.game
    state = game.setup(seats, seed, options)
    replay = Replay(state, Counter(), [], set(), [])
    window = 0
    for number, (seat, action) in enumerate(actions):
        replay.windows.append(window)
        before = set(game.to_move(state))
        key = (seat, window, json.dumps(action, sort_keys=True))
        if seat >= 0 and spec.forced(state, seat) == action:
            replay.forced.add(key)
        replay.keys.append(key)
        state, _ = game.apply(state, seat, action)
        after = game.to_move(state)
        if seat >= 0:
            replay.played[key] += 1
        if seat < 0 or seat in after or not set(after) <= before:
            window = number + 1
    replay.windows.append(window)
    replay.state = state
    return replay



async def _abandoned_for_absence(reader: Reader, game_id: int, seats: list[Any]) -> bool:
    """Whether a game was abandoned by the rule of issue 42 (every person let their decisions time
    out: the session ends such a table rather than play it out): then every person's timeout is
    recorded at the game's last timed-out decision. Any other abandonment is a fault."""
    people = {seat for seat, user in seats if user is not None}
    rows = await reader.rows("SELECT seat, version FROM seat_events WHERE game_id = ? AND kind = 'timeout'",
                             game_id)
    last = max((version for _, version in rows), default=None)
    return bool(people) and last is not None and {seat for seat, version in rows if version == last} >= people

async def check_store(reader: Reader, acknowledged: list[Move], report: Report,
                      sent: list[Move] | None = None) -> None:
    """Check the database against the acknowledged moves (see the module's docstring). With ``sent``
    (every click sent, acknowledged or not), also check that no human move was applied twice."""
    from engine.session.games import SPECS

    report.lost.clear()
    report.duplicated.clear()
    report.corrupt.clear()
    clicked = {(m.table_id, m.user_id, m.window, json.dumps(m.action, sort_keys=True)) for m in sent or ()}
    games = await reader.rows("SELECT id, game, status, seed, options FROM games ORDER BY id")
    played: dict[int, Counter[tuple[int, int, str]]] = {}
    seat_of: dict[tuple[int, int], int] = {}
    report.games, report.finished = len(games), 0
    for game_id, name, status, seed, options in games:
        seats = await reader.rows("SELECT seat, user_id FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        if status == "abandoned" and not await _abandoned_for_absence(reader, game_id, seats):
            report.corrupt.append(f"game {game_id} abandoned")
        if seed is None:
            continue
        seat_of.update({(game_id, user): seat for seat, user in seats if user is not None})
        log = [(seat, json.loads(payload)) for seat, payload in await reader.rows(
            "SELECT seat, payload FROM actions WHERE game_id = ? ORDER BY seq", game_id)]
        engine = SPECS[name].game
        try:
            replay = _replay(SPECS[name], len(seats), seed, json.loads(options), log)
        except Exception as exc:  # an illegal step in a stored log: corruption
            report.corrupt.append(f"game {game_id} does not replay: {exc!r}")
            continue
        played[game_id] = replay.played
        if status == "finished":
            report.finished += 1
            stored = [row[0] for row in await reader.rows(
                "SELECT score FROM results WHERE game_id = ? ORDER BY seat", game_id)]
            if not engine.is_over(replay.state) or stored != [int(s) for s in engine.result(replay.state)["scores"]]:
                report.corrupt.append(f"game {game_id}: stored results {stored} are not the replay's")
        if sent is not None:
            absent: dict[int, set[int]] = {}
            for version, seat in await reader.rows(
                    "SELECT version, seat FROM seat_events WHERE game_id = ? AND kind = 'timeout'", game_id):
                absent.setdefault(version, set()).add(seat)
            timeouts = set().union(*(replay.timed_out(version, who) for version, who in absent.items()))
            users = {seat: user for seat, user in seats if user is not None}
            for (seat, window, code), times in replay.played.items():
                explained = ((game_id, users.get(seat), window, code) in clicked
                             or (seat, window, code) in timeouts or (seat, window, code) in replay.forced)
                if seat in users and (times > 1 or not explained):
                    report.duplicated.append(f"game {game_id}: seat {seat} played {code} {times} time(s) in window "
                                             f"{window}, {'after a click' if explained else 'unasked'}")
    for move in acknowledged:
        found = seat_of.get((move.table_id, move.user_id))
        code = json.dumps(move.action, sort_keys=True)
        if found is None or played.get(move.table_id, Counter())[(found, move.window, code)] == 0:
            report.lost.append(move)


def check_database(path: Path, acknowledged: list[Move], report: Report) -> None:
    """Check a SQLite database synchronously: :func:`check_store` on the file, on a loop of its own
    in a thread, so that it can be called inside a running event loop (an async test) or outside."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    async def check() -> None:
        reader = SqliteReader(path)
        try:
            await check_store(reader, acknowledged, report)
        finally:
            await reader.close()

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, check()).result()
