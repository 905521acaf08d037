"""The defaults of a table's options: each one written once, here.

A table stores its ``table_options`` (what it was opened with, or its server's ``/settings``);
where a table names none, these apply. The session, the bot's environment defaults and the
renderers that show a table's options all read them, so the numbers cannot drift apart.
"""

from __future__ import annotations

from typing import Final

__all__ = ["AWAY_DECISIONS", "DEFAULT_AI_DELAY_S", "DEFAULT_DECISION_TIMEOUT_S", "DEFAULT_TABLES_PER_HOST",
           "DEFAULT_THREADS", "LOBBY_IDLE_S", "TABLE_DEFAULTS", "TAKEOVER_DECISIONS", "TAKEOVER_LEVEL"]

DEFAULT_DECISION_TIMEOUT_S: Final[float] = 120.0
"""How long the people owing a decision have before the game's timeout agent plays for them."""

DEFAULT_AI_DELAY_S: Final[float] = 1.5
"""How long a bot seat waits before it acts, so people can follow the game."""

DEFAULT_THREADS: Final[bool] = True
"""Whether a game's log goes to a thread of its own (else to the channel)."""

DEFAULT_TABLES_PER_HOST: Final[int] = 5
"""How many lobbies and games one member may host at once on a server (``/settings host_tables``):
a member cannot squat every channel of a server with lobbies."""

AWAY_DECISIONS: Final[int] = 3
"""A game whose every person let this many decisions in a row time out, whatever the pace, is
abandoned: nobody is playing it, and bots playing it out for them would count as a result."""

TAKEOVER_DECISIONS: Final[int] = 2
"""In a correspondence table, a person who let this many decisions in a row time out is away: the
table's bot plays their seat until they come back (table option ``takeover_after``). Live tables
never take a seat over: their people are there, and a timeout plays only what was owed."""

TAKEOVER_LEVEL: Final[str] = "easy"
"""The level that plays an away person's seat at a table without bot seats (with bot seats: theirs)."""

LOBBY_IDLE_S: Final[float] = 30 * 60.0
"""How long a lobby stays open after its last change (a join, a leave, a bot) when nobody starts it;
a table whose decision time is longer waits that long instead (a slow table gathers slowly)."""

TABLE_DEFAULTS = ("decision_timeout_s", "ai_delay_s", "threads")
"""Server settings (``/settings``) a new table of that server starts with, unless opened otherwise:
the three options whose defaults are above."""
