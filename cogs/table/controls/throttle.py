"""Per-member budgets for what opens or ends a table: a flood is refused privately, never queued.

One member's burst of ``/incan new`` and ``/incan cancel`` (100 of each in 1.9 s in the issue)
used to be served in full: every one queued public sends for tables already gone, and another
member's new lobby waited minutes behind them. Each such command or click now spends from two
budgets of the member's, over a sliding window: one in the channel, one on the whole server (a
member cannot spread a flood over channels). Over either, the member is told privately when to
try again; the refusal is the interaction's own response, which Discord does not rate-limit.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

__all__ = ["PER_CHANNEL", "PER_MEMBER", "WINDOW_S", "Throttle", "opens_or_ends"]

WINDOW_S = 10.0
"""The sliding window the budgets count over."""

PER_CHANNEL = 3
"""What opens or ends a table, per member and channel, per window (open, cancel, open again)."""

PER_MEMBER = 6
"""The same per member on the whole server, per window."""

_COMMANDS = ("new", "cancel")
"""The last word of a slash command that opens or ends a table (``/incan new``, ``/sakkara cancel``)."""

_CLICKS = ("rematch:",)
"""custom_id prefixes of the buttons that open a table."""

_LOBBY_OPS = ("cancel",)
"""Lobby buttons (``lobby:<table>:<op>``) that end a table."""


def opens_or_ends(command: str | None, custom_id: str | None) -> bool:
    """Return True for a command (its qualified name) or a click (its custom_id) that opens or
    ends a table."""
    if command is not None:
        return command.rsplit(" ", 1)[-1] in _COMMANDS
    if custom_id is None:
        return False
    if custom_id.startswith(_CLICKS):
        return True
    return custom_id.startswith("lobby:") and custom_id.rsplit(":", 1)[-1] in _LOBBY_OPS


class Throttle:
    """The members' recent openings and endings, by (server, member) and (channel, member)."""

    def __init__(self, now: Callable[[], float], per_channel: int = PER_CHANNEL, per_member: int = PER_MEMBER,
                 window_s: float = WINDOW_S) -> None:
        self.now = now
        self.limits = {"channel": per_channel, "member": per_member}
        self.window_s = window_s
        self._spent: dict[tuple[str, int, int], deque[float]] = {}

    def admit(self, guild_id: int | None, channel_id: int | None, user_id: int) -> float | None:
        """Spend one from the member's budgets and return None, or return when (epoch seconds) the
        member may try again, spending nothing."""
        now = self.now()
        keys = [("channel", channel_id or 0, user_id), ("member", guild_id or 0, user_id)]
        again = 0.0
        for key in keys:
            spent = self._spent.setdefault(key, deque())
            while spent and spent[0] <= now - self.window_s:
                spent.popleft()
            if len(spent) >= self.limits[key[0]]:
                again = max(again, spent[0] + self.window_s)
        if again:
            return again
        for key in keys:
            self._spent[key].append(now)
        self._forget_idle(now)
        return None

    def _forget_idle(self, now: float) -> None:
        """Drop members whose window is empty (so the book stays as small as the last window)."""
        if len(self._spent) > 1024:
            self._spent = {k: v for k, v in self._spent.items() if v and v[-1] > now - self.window_s}
