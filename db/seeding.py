"""Many games already in play, written in one transaction: how benchmarks and load tests fill a store.

Setting up one table the way the bot does takes three transactions (the lobby, the start, the first
append), each committed on its own; a benchmark that needs 100,000 open tables would spend minutes
committing. :meth:`SeedRecords.add_playing_games` writes a whole batch of tables, each exactly as
those three steps would leave it (a ``games`` row marked playing, its seats, its first actions with
the timers riding on them, through the same view and triggers), in one transaction.

:class:`SeedRecords` is a part of :class:`db.store.Store`; the bot itself never calls it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from db.backend import insert_appends_sql
from db.codecs import check_int64, encode_json
from db.play import append_rows
from db.plumbing import StoreBase
from db.records import NewSeat

__all__ = ["SeedRecords", "StartedGame"]


@dataclass(frozen=True)
class StartedGame:
    """A game to write as started: its setup, its seats in order, its seed, and its first actions
    ((seat, payload) pairs) with at most two timers (kind, due, version) armed by them."""

    game: str
    guild_id: int
    channel_id: int
    host_id: int
    seats: Sequence[NewSeat]
    seed: int
    actions: Sequence[tuple[int, object]]
    deadlines: Sequence[tuple[str, datetime, int]] = ()
    options: dict[str, Any] = field(default_factory=dict)
    table_options: dict[str, Any] = field(default_factory=dict)


class SeedRecords(StoreBase):
    """Writing many started games at once (a part of ``db.store.Store``)."""

    async def add_playing_games(self, games: Sequence[StartedGame]) -> list[int]:
        """Write ``games`` as started tables in one transaction and return their ids, in order.

        Each is left as ``create_game`` + ``start_game`` + ``append_actions`` would leave it; the
        schema checks them the same way (a busy channel, a user seated twice, an unknown game type
        refuse the whole batch: StoreError). Raises ValueError for an empty seat list, no actions or a value
        the schema would refuse, before anything is written.
        """
        now = self._now_ms()
        prepared = []
        for game in games:
            if not game.seats:
                raise ValueError("a game needs at least one seat to start")
            for value, what in ((game.guild_id, "guild_id"), (game.channel_id, "channel_id"),
                                (game.host_id, "host_id"), (game.seed, "seed")):
                check_int64(value, what)
            prepared.append((game, encode_json(dict(game.options), "options"),
                             encode_json(dict(game.table_options), "table_options"),
                             append_rows(0, 0, game.actions, game.deadlines, now)))
        ids: list[int] = []
        async with self._write() as db:
            for game, options_json, table_json, rows in prepared:
                found = await db.fetch(
                    "INSERT INTO games (game, preset, options, table_options, guild_id, channel_id, host_id,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (game.game, game.options.get("preset"), options_json, table_json, game.guild_id,
                     game.channel_id, game.host_id, now),
                )
                game_id = int(found[0][0])
                await self._insert_seats(db, game_id, game.seats)
                await db.execute("UPDATE games SET status = 'playing', seed = ?, started_at = ? WHERE id = ?",
                                 (game.seed, now, game_id))
                await db.execute(insert_appends_sql(len(rows)),
                                 [value for row in rows for value in (game_id, *row[1:])])
                ids.append(game_id)
        return ids
