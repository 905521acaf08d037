"""Names, places, deadlines and links as every game's text shows them.

Display names are chosen by players, so every name goes through :func:`player_name`, the one
place that shows one, exactly once: what cannot be seen or would steer the text is left out
(:func:`i18n.names.visible`), a right-to-left name is isolated so it cannot reorder the words
around it, and the rest is escaped before it reaches Discord's markdown (``[click](https://…)``
must stay text, ``@everyone`` must not ping). Every other helper here goes through it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import discord

from engine.session import SeatSpec, Table, bot_seconds
from engine.session.absence import takeover_after
from engine.session.options import DEFAULT_DECISION_TIMEOUT_S
from engine.session.pace import CORRESPONDENCE, pace_of
from i18n import t, tn
from i18n.names import visible

__all__ = [
    "absence_lines",
    "deadline_line",
    "decision_time",
    "duration",
    "escape",
    "jump_url",
    "moment",
    "name_of",
    "pace_line",
    "pace_rules",
    "pace_text",
    "place_of",
    "player_name",
    "seat_label",
    "seat_names",
    "standings",
    "when",
    "winner_line",
]

FSI, PDI = "\u2068", "\u2069"
"""First-strong isolate and its end: a right-to-left name between them keeps to itself."""


def escape(text: str) -> str:
    """Return player-chosen text safe to show: no markdown, links or mentions of its own."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def player_name(name: str, fallback: str | None = None) -> str:
    """Return a player-chosen name as every message shows it: visible characters only (else
    ``fallback``, else "no visible name"), a right-to-left name isolated, escaped once."""
    shown = visible(name) or (visible(fallback) if fallback else "") or t("play.unnamed")
    if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in shown):
        return f"{FSI}{escape(shown)}{PDI}"
    return escape(shown)


def name_of(seat: SeatSpec) -> str:
    """Return a seat's name as every message shows it (:func:`player_name`)."""
    return player_name(seat.display_name)


def standings(result: dict[str, Any], table: Table | None = None) -> list[int]:
    """Return the seats in final order: by the session's places when known (resigners last), else
    the engine's winners first, then by score."""
    if table is not None and table.results is not None:
        places = {r.seat: r.placement for r in table.results}
        return sorted(places, key=lambda s: (places[s], -result["scores"][s], s))
    return sorted(range(len(result["scores"])), key=lambda s: (s not in result["winners"], -result["scores"][s]))


def place_of(table: Table, seat: int, fallback: int) -> int:
    """Return a seat's place in the stored result (tied seats share it); ``fallback`` before it is known."""
    if table.results is None:
        return fallback
    return next((r.placement for r in table.results if r.seat == seat), fallback)


def winner_line(table: Table, result: dict[str, Any]) -> str:
    """Return the summary's "Winner: ..." (or shared win) line, from the stored result when known."""
    winners = ([r.seat for r in table.results if r.is_winner] if table.results is not None
               else list(result["winners"]))
    key = "play.winner" if len(winners) == 1 else "play.winners"
    return "\n" + t(key, names=seat_names(table, winners))


def seat_label(seat: SeatSpec) -> str:
    """Return how a seat is named at the table: bots tagged, a resigned or away person's seat as its bot."""
    if seat.resigned:
        return t("play.stand_in", level=t(f"level.{seat.stand_in}").capitalize(), name=name_of(seat))
    if seat.away is not None:
        return t("play.away_stand_in", level=t(f"level.{seat.away}").capitalize(), name=name_of(seat))
    return f"🤖 {name_of(seat)}" if seat.is_ai else name_of(seat)


def absence_lines(table: Table, now: float) -> list[str]:
    """Return the standings' lines saying which seats a bot played while their person was away, and
    for how long (none when nobody was away)."""
    # To the minute: how long a bot played for someone is read in hours and days, not seconds.
    return [t("play.bot_played", name=name_of(table.seats[seat]), time=duration(max(60.0, round(seconds / 60) * 60)))
            for seat, seconds in sorted(bot_seconds(table.seat_events, now).items())]


def seat_names(table: Table, seats: Sequence[int]) -> str:
    """Return seat names (escaped) joined for a sentence."""
    names = [name_of(table.seats[s]) for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return t("play.and", first=", ".join(names[:-1]), last=names[-1])


def when(moment: float) -> str:
    """Return an epoch time as a live relative Discord timestamp ("in 2 minutes")."""
    return discord.utils.format_dt(datetime.fromtimestamp(moment, UTC), "R")


def moment(at: float) -> str:
    """Return an epoch time as live Discord timestamps: the date and time in the reader's own time
    zone, and how far it is ("Tuesday, 8 December 2026 18:30 (in 3 hours)")."""
    shown = datetime.fromtimestamp(at, UTC)
    return f"{discord.utils.format_dt(shown, 'F')} ({discord.utils.format_dt(shown, 'R')})"


_UNITS = (("time.days", 86400), ("time.hours", 3600), ("time.minutes", 60), ("time.seconds", 1))


def duration(seconds: float) -> str:
    """Return a duration in words, in its two largest units ("1 day and 12 hours", "2 minutes")."""
    left = max(round(seconds), 0)
    parts = []
    for key, size in _UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(tn(key, count))
    parts = parts[:2] or [tn("time.seconds", 0)]
    return parts[0] if len(parts) == 1 else t("play.and", first=parts[0], last=parts[1])


def pace_line(table: Table) -> str:
    """Return the table's pace and decision time ("Correspondence · 1 day per decision")."""
    return pace_text(decision_time(table))


def pace_rules(table: Table) -> str:
    """Return what the lobby says of the table's pace: :func:`pace_line`, and on a correspondence
    table when the bot plays the seat of a person who stays away."""
    line = pace_line(table)
    if pace_of(decision_time(table)) == CORRESPONDENCE:
        line = f"{line}\n{tn('play.takeover_rule', takeover_after(table))}"
    return line


def pace_text(seconds: float) -> str:
    """Return the pace a decision time makes, with the time in words ("Live · 2 minutes per decision")."""
    return t(f"play.pace_{pace_of(seconds)}", time=duration(seconds))


def decision_time(table: Table) -> float:
    """Return the table's decision time in seconds (as it was opened with)."""
    return float(table.table_options.get("decision_timeout_s", DEFAULT_DECISION_TIMEOUT_S))


def deadline_line(table: Table) -> str:
    """Return "⏳ time runs out in …" for the current decision window, or "" when nobody is timed;
    a correspondence table's line names its pace (people who look in once a day see what to expect)."""
    if table.deadline is None or table.status != "playing" or not table.humans_owing():
        return ""
    if pace_of(decision_time(table)) == CORRESPONDENCE:
        return t("play.deadline_pace", when=when(table.deadline), pace=pace_line(table))
    return t("play.deadline", when=when(table.deadline))


def jump_url(guild_id: int, channel_id: int, message_id: int) -> str:
    """Return the link that opens a message."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
