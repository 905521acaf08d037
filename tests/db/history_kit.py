"""A server's history written through the store API: real games of all three kinds, played by the
engine (easy bots for every seat), finished or cut short, for the copy tests and its benchmark."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from db import NewResult, NewSeat, Store
from engine.core import play
from engine.session import SeatSpec
from engine.session.games import SPECS
from engine.session.results import placements

PLAYERS = {"incan_gold": 3, "sakkara": 2, "indus": 3}
T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


@cache
def played(game: str, seed: int) -> tuple[tuple[tuple[int, Any], ...], tuple[int, ...], tuple[int, ...]]:
    """Return a whole seeded game: its log as stored (JSON-shaped), scores and winners."""
    spec = SPECS[game]
    done = play(spec.game, [spec.agents["easy"]] * PLAYERS[game], seed)
    result = spec.game.result(done.state)
    # What the store gives back: JSON shapes (tuples become lists).
    log = tuple((seat, json.loads(json.dumps(action))) for seat, action in done.log)
    return log, tuple(result["scores"]), tuple(result["winners"])


def seats_for(game: str, people: list[int]) -> list[NewSeat]:
    """Return the seats of a game: the ``people`` (user ids) first, easy bots after them."""
    seats = [NewSeat.human(user, f"user{user}") for user in people[: PLAYERS[game]]]
    return seats + [NewSeat.ai("easy", f"bot {n}") for n in range(PLAYERS[game] - len(seats))]


def results_of(game: str, seed: int, seats: list[NewSeat]) -> list[NewResult]:
    """Return the places the session would store for the seeded game."""
    _, scores, winners = played(game, seed)
    specs = [SeatSpec(s.display_name, s.user_id, s.ai_level) for s in seats]
    return [NewResult(r.seat, r.score, r.placement, r.is_winner)
            for r in placements({"scores": list(scores), "winners": list(winners)}, specs)]


async def write_game(store: Store, game: str, seed: int, *, channel: int, people: list[int], guild: int = 1,
                     cut: int | None = None, at: datetime = T0) -> int:
    """Write a game to ``store``: finished at ``at``, or (``cut``) playing with its first ``cut`` actions."""
    log, _, _ = played(game, seed)
    seats = seats_for(game, people)
    row = await store.create_game(game, guild_id=guild, channel_id=channel, host_id=people[0],
                                  preset="base" if game == "incan_gold" else None, seats=seats[:1])
    await store.start_game(row.id, seats, seed=seed, started_at=at - timedelta(minutes=15))
    moves = list(log if cut is None else log[:cut])
    for start in range(0, len(moves), 400):
        await store.append_actions(row.id, start, moves[start : start + 400])
    if cut is None:
        await store.finish_game(row.id, results_of(game, seed, seats), finished_at=at)
    return row.id
