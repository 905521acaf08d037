"""A table's pace: live (minutes per decision) or correspondence (hours to days), from its decision time.

Discord communities play across hours; a table's decision time says which kind of table it is, and
everything that depends on the pace (how long its lobby waits, when its people are reminded, how
they are told that a decision is theirs) reads it from here, so the thresholds cannot drift apart.
A decision time is written by people as a duration (``90``, ``90s``, ``10m``, ``8h``, ``3d``,
``1d12h``); :func:`parse_duration` reads it.
"""

from __future__ import annotations

import re
from typing import Final, Literal

__all__ = ["CORRESPONDENCE", "CORRESPONDENCE_AFTER_S", "CORRESPONDENCE_LOBBY_S", "LIVE", "MAX_DECISION_S",
           "MIN_DECISION_S", "DurationError", "Pace", "check_decision_time", "lobby_idle_s", "pace_of",
           "parse_duration", "patience_s", "reminder_offsets"]

Pace = Literal["live", "correspondence"]
LIVE: Final[Pace] = "live"
CORRESPONDENCE: Final[Pace] = "correspondence"

MIN_DECISION_S: Final[float] = 30.0
"""The shortest decision time a table may have (a person needs time to read and click)."""

MAX_DECISION_S: Final[float] = 7 * 24 * 3600.0
"""The longest decision time: a week (a decision nobody makes in a week is not coming)."""

CORRESPONDENCE_AFTER_S: Final[float] = 15 * 60.0
"""A table whose decision time is over this is a correspondence table: its people are not expected
to be online together, so they are told by DM and reminded at half time."""

CORRESPONDENCE_LOBBY_S: Final[float] = 24 * 3600.0
"""The least time a correspondence lobby stays open to gather players (a day)."""

_UNITS: Final[dict[str, float]] = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([smhd]?)")


class DurationError(ValueError):
    """A duration that cannot be read, or lies outside what a decision time may be.

    ``code`` names the problem for the reader's language: ``"unreadable"``, ``"too_short"`` or
    ``"too_long"``.
    """

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{code}: {text!r}")
        self.code = code


def parse_duration(text: str | float | int) -> float:
    """Return the seconds of a duration written as ``90``, ``90s``, ``10m``, ``8h``, ``3d`` or a sum
    of such parts (``1d12h``, ``1h 30m``); a bare number is seconds. Raises :class:`DurationError`
    ("unreadable") for anything else. The range is not checked here (:func:`check_decision_time`)."""
    if isinstance(text, bool):
        raise DurationError("unreadable", str(text))
    if isinstance(text, int | float):
        return float(text)
    cleaned = text.strip().lower()
    if not cleaned:
        raise DurationError("unreadable", text)
    total, position = 0.0, 0
    for match in _PART.finditer(cleaned):
        if cleaned[position:match.start()].strip():
            raise DurationError("unreadable", text)
        number, unit = match.groups()
        if not unit and match.end() != len(cleaned.rstrip()):
            raise DurationError("unreadable", text)  # "10 5m": a bare number only stands alone or last
        total += float(number) * _UNITS[unit or "s"]
        position = match.end()
    if position == 0 or cleaned[position:].strip():
        raise DurationError("unreadable", text)
    return total


def check_decision_time(text: str | float | int) -> float:
    """Return the decision time ``text`` says, in seconds, if it lies between 30 s and 7 days;
    raise :class:`DurationError` otherwise."""
    seconds = parse_duration(text)
    if seconds < MIN_DECISION_S:
        raise DurationError("too_short", str(text))
    if seconds > MAX_DECISION_S:
        raise DurationError("too_long", str(text))
    return seconds


def pace_of(decision_time_s: float) -> Pace:
    """Return the pace of a table with this decision time."""
    return CORRESPONDENCE if decision_time_s > CORRESPONDENCE_AFTER_S else LIVE


def lobby_idle_s(decision_time_s: float, live_idle_s: float) -> float:
    """How long a lobby stays open after its last change: ``live_idle_s`` for a live table, or the
    table's decision time when longer; a correspondence lobby at least a day."""
    floor = CORRESPONDENCE_LOBBY_S if pace_of(decision_time_s) == CORRESPONDENCE else live_idle_s
    return max(floor, decision_time_s)


def reminder_offsets(decision_time_s: float, live_before_s: float) -> tuple[float, ...]:
    """Return how long before a decision's deadline its people are reminded, earliest first.

    A live table: once, ``live_before_s`` before the end. A correspondence table: at half time and
    near the end (an hour before, or an eighth of the time when that is shorter), so a person who
    looks once a day still has time to act.
    """
    if pace_of(decision_time_s) == LIVE:
        return (live_before_s,) if live_before_s < decision_time_s else ()
    near_end = min(3600.0, decision_time_s / 8)
    return (decision_time_s / 2, near_end)


def patience_s(decision_time_s: float, live_s: float) -> float:
    """Return how long a table lets a wait go on before it redraws or nudges for it: ``live_s`` on a
    live table; on a correspondence table an eighth of the decision time (3 hours at a day), at least
    ``live_s``. People who come back every hour or two are not pinged, nor the channel's board edited,
    for every decision somebody else made meanwhile; a wait that drags on is still acted on."""
    if pace_of(decision_time_s) == LIVE:
        return live_s
    return max(live_s, decision_time_s / 8)
