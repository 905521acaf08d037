"""A table's pace and the durations people write (engine.session.pace)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.session.pace import (
    CORRESPONDENCE,
    LIVE,
    DurationError,
    check_decision_time,
    lobby_idle_s,
    pace_of,
    parse_duration,
    patience_s,
    reminder_offsets,
)


@pytest.mark.parametrize(("text", "seconds"), [
    ("90", 90.0), ("90s", 90.0), ("10m", 600.0), ("8h", 28800.0), ("3d", 259200.0), (" 2D ", 172800.0),
    ("1d12h", 129600.0), ("1h 30m", 5400.0), ("1.5h", 5400.0), ("1m30", 90.0), (120, 120.0), (45.5, 45.5),
])
def test_durations_people_write(text: str | float, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "  ", "soon", "10x", "m", "-5m", "10 5m", "1h and 2m", "3d!", True])
def test_unreadable_durations_are_refused(text: str) -> None:
    with pytest.raises(DurationError) as refused:
        parse_duration(text)
    assert refused.value.code == "unreadable"


def test_decision_time_lies_between_thirty_seconds_and_a_week() -> None:
    assert check_decision_time("30s") == 30.0
    assert check_decision_time("7d") == 7 * 86400.0
    with pytest.raises(DurationError) as short:
        check_decision_time("29")
    assert short.value.code == "too_short"
    with pytest.raises(DurationError) as long:
        check_decision_time("7d1s")
    assert long.value.code == "too_long"


def test_over_fifteen_minutes_is_correspondence() -> None:
    assert pace_of(900.0) == LIVE
    assert pace_of(901.0) == CORRESPONDENCE


def test_a_correspondence_lobby_waits_at_least_a_day() -> None:
    assert lobby_idle_s(120.0, 1800.0) == 1800.0
    assert lobby_idle_s(3600.0, 1800.0) == 86400.0
    assert lobby_idle_s(3 * 86400.0, 1800.0) == 3 * 86400.0


def test_reminders_scale_with_the_pace() -> None:
    assert reminder_offsets(120.0, 30.0) == (30.0,)
    assert reminder_offsets(30.0, 30.0) == ()
    assert reminder_offsets(86400.0, 30.0) == (43200.0, 3600.0)  # half time, then an hour before
    assert reminder_offsets(3600.0, 30.0) == (1800.0, 450.0)


@given(st.integers(min_value=0, max_value=6), st.integers(min_value=0, max_value=23),
       st.integers(min_value=0, max_value=59), st.integers(min_value=0, max_value=59))
def test_parts_add_up(days: int, hours: int, minutes: int, seconds: int) -> None:
    text = "".join(f"{n}{u}" for n, u in ((days, "d"), (hours, "h"), (minutes, "m"), (seconds, "s")) if n) or "0"
    assert parse_duration(text) == days * 86400 + hours * 3600 + minutes * 60 + seconds


@given(st.floats(min_value=30.0, max_value=7 * 86400.0))
def test_reminders_fall_inside_the_decision_time(timeout: float) -> None:
    offsets = reminder_offsets(timeout, 30.0)
    assert all(0 < offset < timeout for offset in offsets)
    assert list(offsets) == sorted(offsets, reverse=True)


def test_patience_is_the_live_wait_at_a_live_table_and_an_eighth_of_a_correspondence_decision() -> None:
    assert patience_s(600.0, 30.0) == 30.0
    assert patience_s(86400.0, 30.0) == 10800.0  # three hours at a day per decision
    assert patience_s(86400.0, 0.0) == 10800.0
    assert patience_s(16 * 60.0, 300.0) == 300.0  # never shorter than the live wait
