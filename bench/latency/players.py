"""The simulated people: what controls a person can see, and which one they press.

A person only acts on what Discord would show them: the table's public messages, their DMs and
the private (ephemeral) replies they got, as the fake Discord holds them now. They know it is
their turn (as the message says), find the controls of the current decision, choose among the
moves those controls offer (``GameSetup.choose``), and press; a control that only opens a
sub-menu (Sakkara's specials, Indus' piece choice) is pressed on the way, and the game's
"Choose" button when the controls are private and not shown yet.
"""

from __future__ import annotations

import json
import random
import re
from collections import deque
from dataclasses import dataclass
from typing import Any

from bench.latency.games import GameSetup
from engine.session import Table
from fakediscord import FakeMessage

_CONTROL = re.compile(r"^(act|pick|skn|sks|indus:pc):(\d+):(\d+)")
MAX_NAV = 4  # sub-menu presses per decision before the person gives up and waits for the timeout


@dataclass(frozen=True)
class Control:
    """One pressable thing: a button, or one option of a select menu."""

    message: FakeMessage
    custom_id: str
    value: str | None = None  # the chosen option of a select menu
    action: Any = None  # the move it plays; None for a sub-menu or the Choose button

    @property
    def moves(self) -> bool:
        """Return True when pressing it plays a move (not only a navigation)."""
        return self.action is not None


def _items(message: FakeMessage) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for row in message.components:
        out.extend(row.get("components") or [row])
    return out


def controls(message: FakeMessage, table_id: int, window: int) -> list[Control]:
    """Return the enabled controls of ``message`` for this table's decision ``window``."""
    out: list[Control] = []
    for item in _items(message):
        cid = str(item.get("custom_id", ""))
        match = _CONTROL.match(cid)
        if match is None or item.get("disabled") or int(match[2]) != table_id or int(match[3]) != window:
            continue
        kind = match[1]
        if kind == "act":
            out.append(Control(message, cid, None, json.loads(cid.split(":", 3)[3])))
        elif kind == "pick":
            out.extend(Control(message, cid, o["value"], json.loads(o["value"])) for o in item.get("options", []))
        elif kind == "sks":
            out.extend(Control(message, cid, o["value"]) for o in item.get("options", []))
        elif not cid.endswith(":"):  # a sub-menu button ("skn:...:" with no group is Back)
            out.append(Control(message, cid))
    return out


def peek_button(message: FakeMessage, table_id: int) -> Control | None:
    """Return the message's "Choose" button of this table (opens the private prompt), if any."""
    cid = f"peek:{table_id}"
    return Control(message, cid) if cid in message.custom_ids else None


class Seen:
    """The last few messages with controls each person can see (kept as the fake reports them)."""

    def __init__(self, keep: int = 3) -> None:
        self.keep = keep
        self.by_place: dict[tuple[str, int], deque[FakeMessage]] = {}

    def add(self, place: tuple[str, int], message: FakeMessage) -> None:
        """Note a created or edited message at ``place`` ("board", channel) / ("dm", user) / ("eph", user)."""
        shown = self.by_place.setdefault(place, deque(maxlen=self.keep))
        if message not in shown:
            shown.append(message)

    def newest_first(self, *places: tuple[str, int]) -> list[FakeMessage]:
        """Return the messages at these places, the newest first."""
        out: list[FakeMessage] = []
        for place in places:
            out.extend(reversed(self.by_place.get(place, ())))
        return out


class Person:
    """One simulated player: what they have pressed in the current decision."""

    def __init__(self, user_id: int, channel_id: int, setup: GameSetup, rng: random.Random) -> None:
        self.user_id, self.channel_id, self.setup, self.rng = user_id, channel_id, setup, rng
        self.table_id: int | None = None
        self.window = -1  # the decision window of the presses below
        self.presses = 0  # in this window
        self.peeked = False  # pressed Choose in this window

    def next_press(self, table: Table, seen: Seen) -> Control | None:
        """Return what this person presses now, or None when there is nothing for them to do."""
        seat = table.seat_of(self.user_id)
        if table.status != "playing" or seat is None or seat not in table.humans_owing():
            return None
        if table.window != self.window:
            self.window, self.presses, self.peeked = table.window, 0, False
        found: list[Control] = []
        messages = seen.newest_first(("eph", self.user_id), ("dm", self.user_id), ("board", self.channel_id))
        for message in messages:
            found = controls(message, table.id, table.window)
            if found:
                break
        moves = [c for c in found if c.moves]
        if moves:
            choice = self.setup.choose(table, seat, [c.action for c in moves], self.rng)
            return next(c for c in moves if c.action == choice)
        if found and self.presses < MAX_NAV:
            return self.rng.choice(found)
        if not found and not self.peeked:
            for message in seen.newest_first(("board", self.channel_id)):
                peek = peek_button(message, table.id)
                if peek is not None:
                    return peek
        return None

    def pressed(self, control: Control) -> None:
        """Note a press in this window."""
        self.presses += 1
        if control.custom_id.startswith("peek:"):
            self.peeked = True
