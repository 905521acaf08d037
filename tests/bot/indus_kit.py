"""Helpers for Indus bot tests: find a move's control on a message that carries the board's controls."""

from __future__ import annotations

import json
from typing import Any

from fakediscord import FakeMessage


def first_choice(message: FakeMessage, action: Any = None) -> tuple[str, str | None]:
    """Return (custom_id, select value or None) of the control of ``action`` on the board message
    (default: the first move control)."""
    for cid in message.custom_ids:
        if cid.startswith("pick:"):
            comp = message.component(cid)
            assert comp is not None
            for option in comp["options"]:
                if action is None or json.loads(option["value"]) == action:
                    return cid, option["value"]
        if cid.startswith("act:") and (action is None or json.loads(cid.split(":", 3)[3]) == action):
            return cid, None
    raise AssertionError(f"no control for {action} on the board: {message.custom_ids}")
