"""A finished game's standings: one order for the stored result and for what the channel shows.

The engine says who won and what each seat scored; the session turns that into places:

- seats are ordered by (winner, score), and seats that compare equal **share a place** (two
  players tied for second are both 2nd, the next is 4th), as the leaderboard's ratings expect;
- a person who **resigned** ranks after every seat still played by its owner or a bot seat, so
  last among the people at the table whatever the bot that took over scored; of several, the
  one who left earlier ranks lower (two who left at the same moment share a place). A resigned
  seat never wins: if the engine's winners all resigned, the best other seats win instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.session.contract import ResultSpec, SeatEvent, SeatSpec

__all__ = ["placements"]


def placements(result: dict[str, Any], seats: Sequence[SeatSpec], events: Sequence[SeatEvent] = ()) -> list[ResultSpec]:
    """Return every seat's result line (in seat order) from the engine's ``result``."""
    scores = [int(s) for s in result["scores"]]
    winners = set(result["winners"])
    left_at = {e.seat: e.version for e in events if e.kind == "resign"}
    for seat, spec in enumerate(seats):
        if spec.resigned and seat not in left_at:
            left_at[seat] = -1  # resigned, moment unknown: ranks with the earliest leavers
    playing = [s for s in range(len(scores)) if s not in left_at]
    if playing and not winners & set(playing):
        # Every engine winner resigned: the best remaining seats win (same key as the engine's order).
        best = max(scores[s] for s in playing)
        winners = {s for s in playing if scores[s] == best}

    def key(seat: int) -> tuple[int, int, int, int]:
        if seat in left_at:
            return (0, left_at[seat], 0, 0)
        return (1, 0, int(seat in winners), scores[seat])

    keys = [key(s) for s in range(len(scores))]
    places = [1 + sum(1 for k in keys if k > keys[s]) for s in range(len(scores))]
    return [ResultSpec(s, scores[s], places[s], places[s] == 1 and s in winners and s not in left_at)
            for s in range(len(scores))]
