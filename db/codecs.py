"""The codecs between Python values and the store's columns, shared by every record.

Times are aware UTC datetimes in Python and INTEGER milliseconds in SQL. JSON values are stored
as compact text with sorted keys, so equal values always store identically. Every decoder
validates what a row holds and raises :class:`CorruptRow` instead of letting a
``JSONDecodeError``, ``KeyError`` or a wrong type escape.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from db.errors import CorruptRow

__all__ = [
    "check_int64",
    "column_int",
    "column_opt_int",
    "column_opt_str",
    "column_opt_time",
    "column_str",
    "decode_json",
    "decode_object",
    "encode_json",
    "from_ms",
    "to_ms",
]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)
_INT64 = (-(2**63), 2**63 - 1)


def to_ms(moment: datetime) -> int:
    """Return an aware datetime as integer milliseconds since the Unix epoch (sub-ms truncated)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: the store needs aware datetimes (UTC)")
    return (moment - _EPOCH) // _MS


def from_ms(ms: int) -> datetime:
    """Return the aware UTC datetime of integer milliseconds since the Unix epoch."""
    return _EPOCH + ms * _MS


def check_int64(value: int, what: str) -> int:
    """Return ``value`` if it is an int that fits SQLite's INTEGER, else raise ValueError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an int, not {type(value).__name__}")
    if not _INT64[0] <= value <= _INT64[1]:
        raise ValueError(f"{what} {value} does not fit a signed 64-bit integer")
    return value


def encode_json(value: object, what: str) -> str:
    """Return ``value`` as compact, key-sorted JSON; raise ValueError when it is not JSON data."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} is not JSON-serialisable: {exc}") from exc


def _refuse_constant(name: str) -> object:
    """Refuse NaN and Infinity, which json.loads accepts but JSON does not define."""
    raise ValueError(f"non-finite number {name}")


def decode_json(text: object, game_id: int, what: str) -> Any:
    """Return the JSON value stored in ``text``; raise CorruptRow when it is not valid JSON."""
    if not isinstance(text, str):
        raise CorruptRow(game_id, f"{what}: expected JSON text, found {type(text).__name__}")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise CorruptRow(game_id, f"{what}: malformed JSON ({exc})") from exc


def decode_object(text: object, game_id: int, what: str) -> dict[str, Any]:
    """Return the JSON object stored in ``text``; raise CorruptRow for anything else."""
    value = decode_json(text, game_id, what)
    if not isinstance(value, dict):
        raise CorruptRow(game_id, f"{what}: expected a JSON object, found {type(value).__name__}")
    return cast(dict[str, Any], value)


def column_int(value: object, game_id: int, what: str) -> int:
    """Return ``value`` if it is an int, else raise CorruptRow."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CorruptRow(game_id, f"{what}: expected an integer, found {value!r}")
    return value


def column_opt_int(value: object, game_id: int, what: str) -> int | None:
    """Return ``value`` if it is an int or None, else raise CorruptRow."""
    return None if value is None else column_int(value, game_id, what)


def column_str(value: object, game_id: int, what: str) -> str:
    """Return ``value`` if it is a str, else raise CorruptRow."""
    if not isinstance(value, str):
        raise CorruptRow(game_id, f"{what}: expected text, found {value!r}")
    return value


def column_opt_str(value: object, game_id: int, what: str) -> str | None:
    """Return ``value`` if it is a str or None, else raise CorruptRow."""
    return None if value is None else column_str(value, game_id, what)


def column_opt_time(value: object, game_id: int, what: str) -> datetime | None:
    """Return the datetime of a nullable millisecond column."""
    ms = column_opt_int(value, game_id, what)
    return None if ms is None else from_ms(ms)
