"""The bot's configuration (:class:`Config`): every value from the environment (see .env.example),
checked at start-up so that a malformed value stops the bot with a message naming it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from db import URL_SCHEMES
from engine.core import THINKING_S
from engine.session import default_workers
from engine.session.options import DEFAULT_AI_DELAY_S, DEFAULT_DECISION_TIMEOUT_S
from engine.session.pace import MAX_DECISION_S

__all__ = ["Config"]


@dataclass(frozen=True)
class Config:
    """The bot's configuration; every value comes from the environment (see .env.example)."""

    token: str | None
    database_path: str = "data/temple_table.sqlite3"
    database_url: str | None = None  # postgresql://... (or sqlite:///path); overrides database_path
    shard_ids: tuple[int, ...] | None = None  # this process's shards (None: discord.py's single shard)
    shard_count: int | None = None
    ai_workers: int = 0  # from the environment: one per core beyond the first (AI_WORKERS)
    ai_budget_s: float = 10.0
    ai_think_s: float = THINKING_S
    draw_workers: int = 0  # from the environment: 1 (DRAW_WORKERS; 0: the drawing thread, as tests do)
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    sync_commands: bool = True  # when the command tree changed (a hash in the database says)
    force_sync: bool = False  # python bot.py --sync: sync now, changed or not
    decision_timeout_s: float = DEFAULT_DECISION_TIMEOUT_S
    reminder_before_s: float = 30.0
    ai_delay_s: float = DEFAULT_AI_DELAY_S
    rest_per_second: float = 50.0  # this process's share of the bot token's 50 requests/s
    rate_limited: bool = True  # keep within Discord's budgets (off only for tests and the offline demo)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Return the configuration from ``env``; a malformed value raises ValueError naming it."""
        env = os.environ if env is None else env

        def number(name: str, default: float, low: float, high: float) -> float:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            try:
                value = float(raw)
            except ValueError:
                raise ValueError(f"{name} must be a number, got {raw!r}") from None
            if not low <= value <= high:
                raise ValueError(f"{name} must be between {low:g} and {high:g}, got {raw}")
            return value

        budget = number("AI_BUDGET_S", cls.ai_budget_s, 0.5, 120)
        shard_ids, shard_count = _shards(env.get("SHARD_IDS", ""), env.get("SHARD_COUNT", ""))
        url = env.get("DATABASE_URL", "").strip() or None
        if url is not None:
            _check_url(url)
        workers = env.get("AI_WORKERS", "").strip()
        if workers and not workers.isdigit():
            raise ValueError(f"AI_WORKERS must be a whole number (0: no worker processes), got {workers!r}")
        drawers = env.get("DRAW_WORKERS", "").strip()
        if drawers and not drawers.isdigit():
            raise ValueError(f"DRAW_WORKERS must be a whole number (0: a thread of the bot's process), got {drawers!r}")
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"DEV_GUILD_ID must be a server id (digits), got {guild!r}")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, got {level!r}")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database_path=env.get("DATABASE_PATH", "").strip() or cls.database_path,
            database_url=url,
            shard_ids=shard_ids,
            shard_count=shard_count,
            ai_workers=int(workers) if workers else default_workers(),
            ai_budget_s=budget,
            ai_think_s=_think_s(number("AI_THINK_S", 0, 0.1, 30), budget),
            draw_workers=int(drawers) if drawers else 1,
            log_level=level,
            dev_guild_id=int(guild) if guild else None,
            sync_commands=env.get("SYNC_COMMANDS", "true").strip().lower() not in ("0", "false", "no"),
            decision_timeout_s=number("DECISION_TIMEOUT_S", cls.decision_timeout_s, 10, MAX_DECISION_S),
            reminder_before_s=number("REMINDER_BEFORE_S", cls.reminder_before_s, 0, 600),
            ai_delay_s=number("AI_DELAY_S", cls.ai_delay_s, 0, 30),
            rest_per_second=number("REST_PER_SECOND", cls.rest_per_second, 1, 50),
        )


def _check_url(url: str) -> None:
    """Raise ValueError when DATABASE_URL is not a URL the store can open; the message never shows
    the URL itself (it may carry a password)."""
    if not url.startswith(URL_SCHEMES):
        raise ValueError(f"DATABASE_URL must start with postgresql:// or sqlite://, got {url.split(':')[0]!r}")
    if url.startswith("sqlite://"):
        return
    try:
        urlsplit(url).port  # noqa: B018 - reading it checks it: asyncpg would fail on it with a traceback
    except ValueError as exc:
        raise ValueError(f"DATABASE_URL is not a valid URL ({exc}): the form is "
                         "postgresql://user:password@host:port/database") from None


def _think_s(think_s: float, budget_s: float) -> float:
    """Return the thinking time of a searching bot: AI_THINK_S (0: unset), within AI_BUDGET_S.

    Past AI_BUDGET_S a seat's move is replaced by the game's safe default, so thinking must leave
    room for a busy worker: at most half of it. Unset, it is 1 s, or half a smaller budget.
    """
    if not think_s:
        return min(THINKING_S, budget_s / 2)
    if think_s * 2 > budget_s:
        raise ValueError(f"AI_THINK_S ({think_s:g}) must be at most half of AI_BUDGET_S ({budget_s:g})")
    return think_s


def _shards(ids: str, count: str) -> tuple[tuple[int, ...] | None, int | None]:
    """Return (shard ids, shard count) from SHARD_IDS ("0,1") and SHARD_COUNT ("4"); both or neither."""
    ids, count = ids.strip(), count.strip()
    if not ids and not count:
        return None, None
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"SHARD_COUNT must be a positive whole number, got {count!r}")
    total = int(count)
    if not ids:
        return tuple(range(total)), total  # every shard in this one process (AutoShardedBot)
    try:
        found = tuple(sorted({int(part) for part in ids.split(",") if part.strip()}))
    except ValueError:
        raise ValueError(f"SHARD_IDS must be shard numbers separated by commas, got {ids!r}") from None
    if not found or any(not 0 <= shard < total for shard in found):
        raise ValueError(f"SHARD_IDS must name shards 0 to {total - 1}, got {ids!r}")
    return found, total
