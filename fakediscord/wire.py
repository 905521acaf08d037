"""Request parsing helpers shared by both seams: what crossing the wire does to a request.

`round_trip` (a JSON round trip), multipart form parsing into `SentFile`s, route templates compiled to
regexes, and `Request`, what a route handler receives (`Handler` answers with a `Reply`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fakediscord.objects import FakeDiscordError, SentFile
from fakediscord.payloads import Json

__all__ = ["Handler", "Reply", "Request", "parse_multipart", "round_trip", "template_regex"]

Reply = tuple[int, Any]


def round_trip(value: Any) -> Any:
    """A JSON round trip: what crossing the network does to a payload (fast deep copy, JSON only)."""
    return None if value is None else json.loads(json.dumps(value))


def _read_file_value(value: Any) -> bytes:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, str):
        return value.encode()
    if hasattr(value, "read"):
        pos = value.tell() if hasattr(value, "tell") else None
        data = value.read()
        if pos is not None and hasattr(value, "seek"):
            value.seek(pos)
        return data if isinstance(data, bytes) else str(data).encode()
    raise FakeDiscordError(f"cannot read multipart value {value!r}")


def parse_multipart(form: Sequence[Json]) -> tuple[Any, list[SentFile]]:
    payload: Any = None
    files: list[SentFile] = []
    for part in form:
        if part.get("name") == "payload_json":
            payload = json.loads(part["value"])
        elif str(part.get("name", "")).startswith("files["):
            files.append(
                SentFile(
                    part.get("filename") or "file",
                    _read_file_value(part["value"]),
                    part.get("content_type") or "application/octet-stream",
                )
            )
    return payload, files


def template_regex(template: str) -> re.Pattern[str]:
    out = ""
    for piece in re.split(r"(\{[a-z_]+\})", template):
        if piece.startswith("{") and piece.endswith("}"):
            out += f"(?P<{piece[1:-1]}>[^/]+)"
        else:
            out += re.escape(piece)
    return re.compile(out + "$")


@dataclass
class Request:
    method: str
    route: str
    path: str
    params: dict[str, str]  # path parameters
    query: dict[str, str]
    payload: Any
    files: list[SentFile]


Handler = Callable[[Request], Reply]
