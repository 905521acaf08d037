"""A table opened for later (``/<game> new start_at:``): reading the time people write, and the
table options that say when it starts and who fills its empty seats.

A scheduled lobby stores ``start_at`` (epoch seconds) and, when the host asked for it,
``fill_with`` (a bot level) in its table options. Its start is a stored timer (:data:`START`, kind
``"start"``): it outlives a restart and runs in the process that runs the table's timers. Shortly
before it, the seated people are reminded (an in-memory timer derived from the stored one, like a
decision's reminders). At the time, the table starts by itself if it has enough players, or once
bots of ``fill_with`` fill the seats it lacks; without ``fill_with`` it waits for its host.

The time is read in UTC: Discord does not tell a bot a member's time zone. The lobby shows it as a
live Discord timestamp, which every reader sees in their own time, so a host who meant their own
time sees at once what was understood.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any, Final

__all__ = [
    "FILL_WITH",
    "SCHEDULE_MAX_S",
    "START_AT",
    "START_REMINDER_S",
    "StartAtError",
    "check_schedule",
    "check_start_at",
]

START_AT: Final[str] = "start_at"
"""Table option: when a scheduled table starts (epoch seconds)."""

FILL_WITH: Final[str] = "fill_with"
"""Table option: the level of the bots that fill a scheduled table's empty seats at its start."""

SCHEDULE_MAX_S: Final[float] = 7 * 24 * 3600.0
"""A table may be scheduled at most a week ahead (a lobby holds its channel until then)."""

START_REMINDER_S: Final[float] = 10 * 60.0
"""The seated people are reminded this long before a scheduled start."""

_WRITTEN = re.compile(r"(?:(\d{4})-(\d{1,2})-(\d{1,2})[ t])?(\d{1,2})[:.](\d{2})(?: ?utc)?")


class StartAtError(ValueError):
    """A start time that cannot be read (``"unreadable"``), is past (``"past"``) or is more than a
    week ahead (``"too_far"``)."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{code}: {text!r}")
        self.code = code


def check_start_at(text: str, now: float) -> float:
    """Return the moment ``text`` names (epoch seconds), read in UTC: ``"18:30"`` (today) or
    ``"2026-12-08 18:30"`` (that day), later than ``now`` and at most a week ahead."""
    cleaned = " ".join(text.split()).lower()
    found = _WRITTEN.fullmatch(cleaned)
    if found is None:
        raise StartAtError("unreadable", text)
    year, month, day, hour, minute = found.groups()
    today = datetime.fromtimestamp(now, UTC)
    try:
        moment = datetime(int(year) if year else today.year, int(month) if month else today.month,
                          int(day) if day else today.day, int(hour), int(minute), tzinfo=UTC)
    except ValueError as exc:  # 25:00, 2026-02-30
        raise StartAtError("unreadable", text) from exc
    if moment.timestamp() <= now:
        raise StartAtError("past", text)
    if moment - today > timedelta(seconds=SCHEDULE_MAX_S):
        raise StartAtError("too_far", text)
    return moment.timestamp()


def check_schedule(table_options: dict[str, Any], levels: set[str] | frozenset[str], now: float) -> None:
    """Raise ValueError unless a new table's schedule is one a table may have: a start after ``now``
    and at most a week ahead, and bots to fill with only at a scheduled table, of a known level."""
    start_at = table_options.get(START_AT)
    fill_with = table_options.get(FILL_WITH)
    if start_at is not None:
        if isinstance(start_at, bool) or not isinstance(start_at, int | float):
            raise ValueError(f"start_at must be a time, not {start_at!r}")
        if not now < start_at <= now + SCHEDULE_MAX_S:
            raise ValueError("start_at must be later today or within a week")
    if fill_with is not None and (start_at is None or fill_with not in levels):
        raise ValueError(f"fill_with must be a bot level of a scheduled table, not {fill_with!r}")
