"""The fake Discord's clock: real elapsed time (unless turned off) plus the seconds a test advances it.

Discord's time decides the 3-second acknowledgement window and the 15-minute token lifetime
(`now`); the rate limits refill on `limit_clock`, which always runs in real time because discord.py
sleeps on the loop's real clock before it retries a 429.
"""

from __future__ import annotations

import time

__all__ = ["FakeClock"]


class FakeClock:
    """Monotonic seconds since the fake was made, plus every `advance`."""

    def __init__(self, *, real_time: bool) -> None:
        self.real_time = real_time
        self._t0 = time.monotonic()
        self._offset = 0.0

    def now(self) -> float:
        """The fake's notion of time in seconds: real elapsed time (if real_time) plus `advance`s."""
        real = time.monotonic() - self._t0 if self.real_time else 0.0
        return real + self._offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward (e.g. to make an acknowledgement late, or to refill a rate limit)."""
        self._offset += seconds

    def limit_clock(self) -> float:
        """The rate limits' clock: real monotonic time plus `advance`s, whatever `real_time` says.

        discord.py sleeps on the loop's real clock before it retries a 429, so the buckets must
        refill in real time; an `advance` refills them without a sleep.
        """
        return time.monotonic() - self._t0 + self._offset
