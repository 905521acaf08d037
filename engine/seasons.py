"""Quarterly seasons (issue 44, item 2): which season a moment belongs to, and a season's table.

A season is a calendar quarter in UTC, named ``"2026-Q4"``. A finished game belongs to the season
of its finish time. A season's ratings are the fold (:mod:`engine.ratings`) of that season's games
only, from the default prior: every season starts level. Pure: no clock, no store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Generic, TypeVar

from engine.ratings import GameOutcome, Rating, recompute

__all__ = ["SeasonLine", "bounds", "next_start", "parse", "previous", "season_of", "season_table"]

K = TypeVar("K", bound=Hashable)

_NAME = re.compile(r"^\s*(\d{4})\s*-?\s*[Qq]([1-4])\s*$")


def season_of(ms: int) -> str:
    """Return the name of the season holding a moment (milliseconds since the epoch)."""
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return f"{moment.year}-Q{(moment.month - 1) // 3 + 1}"


def parse(text: str) -> str | None:
    """Return the canonical name of a season written as ``2026-Q4`` (or ``2026q4``), else None."""
    found = _NAME.match(text)
    if found is None or not 1970 <= int(found[1]) <= 9998:
        return None
    return f"{int(found[1])}-Q{found[2]}"


def bounds(season: str) -> tuple[int, int]:
    """Return a season's [start, end) in milliseconds since the epoch."""
    year, quarter = int(season[:4]), int(season[-1])
    start = datetime(year, 3 * quarter - 2, 1, tzinfo=UTC)
    end = datetime(year + 1, 1, 1, tzinfo=UTC) if quarter == 4 else datetime(year, 3 * quarter + 1, 1, tzinfo=UTC)
    return int(start.timestamp() * 1000), int(end.timestamp() * 1000)


def previous(season: str) -> str:
    """Return the season before ``season``."""
    return season_of(bounds(season)[0] - 1)


def next_start(ms: int) -> int:
    """Return when the season after the one holding ``ms`` starts (the next rollover), in ms."""
    return bounds(season_of(ms))[1]


@dataclass(frozen=True, slots=True)
class SeasonLine(Generic[K]):
    """One player's final line of a season in one game: rank (ties share it), rating, games, wins."""

    rank: int
    key: K
    rating: Rating
    wins: int


def season_table(games: Iterable[GameOutcome[K]], listed: Callable[[K], bool] = lambda key: True
                 ) -> list[SeasonLine[K]]:
    """Return a season's table: its games folded from the default prior, best ordinal first.

    Only players ``listed`` accepts get a line (the others still count as opponents). A win is a
    first place (shared first places all win). Players whose games all had a single player are
    not rated and not listed. Equal ordinals share a rank; order within is by key.
    """
    played = list(games)
    run = recompute(played)
    wins: dict[K, int] = {}
    for game in played:
        for key in {key for key, place in game.seats if place == 1 and key in run.book}:
            wins[key] = wins.get(key, 0) + 1
    ordered = sorted(((k, r) for k, r in run.book.items() if listed(k)),
                     key=lambda item: (-item[1].ordinal, repr(item[0])))
    lines: list[SeasonLine[K]] = []
    for n, (key, rating) in enumerate(ordered):
        tied = bool(lines) and abs(lines[-1].rating.ordinal - rating.ordinal) < 1e-12
        lines.append(SeasonLine(lines[-1].rank if tied else n + 1, key, rating, wins.get(key, 0)))
    return lines
