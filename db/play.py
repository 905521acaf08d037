"""A game in play: its action log (appends, with the timers that ride on them) and its end.

:class:`PlayRecords` is a part of :class:`db.store.Store` (it uses the store's backend). Kept
apart from :mod:`db.store`, which opens the store, sets a game up in the lobby (seats, start) and
reads tables back: here are the writes of a game that is playing, from its first action to its
results, and the checks they make before anything is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Literal, cast

from db.backend import Conn, Refused
from db.codecs import check_int64, encode_json, to_ms
from db.errors import GameNotFound, NoSuchSeat, StaleVersion, WrongStatus
from db.plumbing import StoreBase
from db.records import ACTIVE_STATUSES, CHANCE_SEAT, ActionRow, GameRow, NewResult, ResultRow

__all__ = ["PlayRecords"]


class PlayRecords(StoreBase):
    """The action log and the end of a game (a part of ``db.store.Store``)."""

    # ------------------------------------------------------------------ the action log

    async def append_action(self, game_id: int, expected_seq: int, seat: int, payload: object) -> int:
        """Append one action at ``expected_seq`` and return the game's new version.

        ``expected_seq`` must equal the game's version (the number of actions so far): a double
        click or a race raises StaleVersion and writes nothing. Raises WrongStatus when the game is
        not playing, NoSuchSeat for a seat that is neither chance (-1) nor at the table.
        """
        return await self.append_actions(game_id, expected_seq, [(seat, payload)])

    async def append_actions(
        self,
        game_id: int,
        expected_seq: int,
        actions: Sequence[tuple[int, object]],
        *,
        deadline: tuple[str, datetime, int] | None = None,
        deadlines: Sequence[tuple[str, datetime, int]] = (),
    ) -> int:
        """Append ``actions`` ((seat, payload) pairs) at ``expected_seq``, ``expected_seq + 1``, ...
        atomically (all or nothing) and return the game's new version.

        Each of ``deadline`` and ``deadlines`` (at most two in all) = (kind, due_at, version) arms or
        re-arms the game's timer ``kind`` as :meth:`set_deadline` would, in the same statement: it is
        written with the actions and only if they are. Errors as :meth:`append_action`; a payload
        that is not JSON data or a deadline the schema would refuse raises ValueError before
        anything is written.
        """
        rows = append_rows(game_id, expected_seq, actions,
                           ([deadline] if deadline is not None else []) + list(deadlines), self._now_ms())
        try:
            await self._backend.append(rows)
        except Refused as exc:
            async with self._read() as db:
                raise await self._append_refused(db, game_id, expected_seq, rows, exc) from exc
        return expected_seq + len(rows)

    async def _append_refused(
        self, db: Conn, game_id: int, expected_seq: int, rows: Iterable[tuple[object, ...]], exc: Refused
    ) -> Exception:
        """Return the typed error for an append the schema refused."""
        found = await db.fetch("SELECT status, version FROM games WHERE id = ?", (game_id,))
        if not found:
            return GameNotFound(game_id)
        status, version = found[0]
        if exc.reason == "game_not_playing":
            return WrongStatus(game_id, str(status), ("playing",))
        if exc.reason == "stale_version" or exc.mentions("actions_pkey", "actions.game_id, actions.seq"):
            return StaleVersion(game_id, expected_seq, int(version))
        if exc.reason == "no_such_seat":
            seats = {int(r[0]) for r in await db.fetch("SELECT seat FROM seats WHERE game_id = ?", (game_id,))}
            named = [cast(int, row[2]) for row in rows]
            return NoSuchSeat(game_id, next((n for n in named if n != CHANCE_SEAT and n not in seats), -2))
        return exc

    async def actions(self, game_id: int, *, since: int = 0) -> list[ActionRow]:
        """Return the game's actions with ``seq >= since``, in order (an unknown game has none)."""
        async with self._read() as db:
            rows = await self._fetch(
                db,
                f"SELECT {ActionRow.COLUMNS} FROM actions WHERE game_id = ? AND seq >= ? ORDER BY seq",
                (game_id, since),
            )
        return [ActionRow.decode(row) for row in rows]

    # ------------------------------------------------------------------ ending a game

    async def finish_game(
        self,
        game_id: int,
        results: Sequence[NewResult],
        finished_at: datetime | None = None,
        *,
        expected_version: int | None = None,
    ) -> GameRow:
        """Mark a playing game finished and write its results in the same transaction.

        ``results`` has exactly one entry per seat; placements start at 1 and a winner is placed
        first. With ``expected_version``, a game that moved on raises StaleVersion. Its deadlines
        are cleared. Raises GameNotFound, WrongStatus, or ValueError for inconsistent results.
        Two processes finishing one game at once: one writes the results, the other gets
        WrongStatus (the game is 'finished'), on either database.
        """
        ended = self._ms(finished_at)
        async with self._write() as db:
            _, version = await self._status(db, game_id, ("playing",), lock=True)
            if expected_version is not None and version != expected_version:
                raise StaleVersion(game_id, expected_version, version)
            seats = [row.seat for row in await self._seats(db, game_id)]
            _check_results(results, seats)
            await db.executemany(
                "INSERT INTO results (game_id, seat, user_id, ai_level, score, placement, is_winner)"
                " SELECT game_id, seat, user_id, ai_level, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT)"
                " FROM seats WHERE game_id = ? AND seat = ?",
                [(r.score, r.placement, int(r.is_winner), game_id, r.seat) for r in results],
            )
            await db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
            rows = await self._fetch(
                db,
                "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?"
                f" RETURNING {GameRow.COLUMNS}",
                (ended, game_id),
            )
            return GameRow.decode(rows[0])

    async def cancel_game(
        self,
        game_id: int,
        status: Literal["cancelled", "abandoned"] = "cancelled",
        *,
        at: datetime | None = None,
    ) -> None:
        """End a game in the lobby or playing without results (cancelled by a user, or abandoned
        after an error/timeout), clearing its deadlines. Works on a game whose JSON is corrupt.
        """
        if status not in ("cancelled", "abandoned"):
            raise ValueError(f"status must be 'cancelled' or 'abandoned', not {status!r}")
        ended = self._ms(at)
        async with self._write() as db:
            await self._status(db, game_id, ACTIVE_STATUSES, lock=True)  # a finish at the same moment: WrongStatus
            await db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
            await db.execute(
                "UPDATE games SET status = ?, finished_at = ? WHERE id = ?", (status, ended, game_id)
            )

    async def results(self, game_id: int) -> list[ResultRow]:
        """Return the game's results in seat order (empty unless finished)."""
        async with self._read() as db:
            rows = await self._fetch(
                db, f"SELECT {ResultRow.COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        return [ResultRow.decode(row) for row in rows]


_Timer = tuple[str | None, int | None, int | None]
_NO_TIMER: _Timer = (None, None, None)


def append_rows(game_id: int, expected_seq: int, actions: Sequence[tuple[int, object]],
                deadlines: Sequence[tuple[str, datetime, int]], now_ms: int) -> list[tuple[object, ...]]:
    """Return the ``action_appends`` rows of one append: ``actions`` at ``expected_seq``, ... and at
    most two timers riding on the last row; raise ValueError where the schema would refuse them."""
    if not actions:
        raise ValueError("append_actions needs at least one action")
    check_int64(expected_seq, "expected_seq")
    timers = [_timer(*d) for d in deadlines]
    if len(timers) > 2 or len({t[0] for t in timers}) != len(timers):
        raise ValueError("an append arms at most two timers, of different kinds")
    timers += [_NO_TIMER] * (2 - len(timers))
    rows: list[tuple[object, ...]] = []
    for offset, (seat, payload) in enumerate(actions):
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < CHANCE_SEAT:
            raise ValueError(f"seat must be an int >= {CHANCE_SEAT}, not {seat!r}")
        # The timers ride on the last row, so they are upserted once and after every action passed.
        row_timers = (*timers[0], *timers[1]) if offset == len(actions) - 1 else (*_NO_TIMER, *_NO_TIMER)
        rows.append((game_id, expected_seq + offset, seat, encode_json(payload, "payload"), now_ms, *row_timers))
    return rows


def _timer(kind: str, due_at: datetime, version: int) -> _Timer:
    """Return an append's deadline as the view's columns; raise ValueError where the schema would refuse it."""
    if not isinstance(kind, str) or not 1 <= len(kind) <= 32:
        raise ValueError(f"deadline kind must be 1 to 32 characters, not {kind!r}")
    check_int64(version, "deadline version")
    if version < 0:
        raise ValueError(f"deadline version must be >= 0, not {version}")
    return (kind, to_ms(due_at), version)


def _check_results(results: Sequence[NewResult], seats: Sequence[int]) -> None:
    """Raise ValueError unless ``results`` name every seat once with sane placements."""
    named = sorted(result.seat for result in results)
    if named != sorted(seats):
        raise ValueError(f"results must name each seat once: seats {list(seats)}, results for {named}")
    for result in results:
        check_int64(result.score, "score")
        if not 1 <= result.placement <= len(seats):
            raise ValueError(f"seat {result.seat}: placement {result.placement} outside 1..{len(seats)}")
        if result.is_winner and result.placement != 1:
            raise ValueError(f"seat {result.seat} is a winner but placed {result.placement}")
