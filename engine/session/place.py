"""Where a request comes from, and whether a table may be reached from there.

A button carries its table's id in its custom_id, which a modified client can forge: a cancel
button naming another server's table, pressed in one's own server. So every request on a table
says where it was made, and the table answers only there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.session.contract import SeatSpec, SessionError

__all__ = ["Place", "check_place"]


@dataclass(frozen=True, slots=True)
class Place:
    """A server's channel, or a direct message (``guild_id`` None)."""

    guild_id: int | None
    channel_id: int | None


def check_place(place: Place, guild_id: int, channel_id: int, seats: Sequence[SeatSpec], user_id: int) -> None:
    """Raise SessionError("not_valid") unless a table of that guild and channel may be reached from
    ``place``: from its own channel, or from a direct message of someone seated at it (a DM has no
    channel of the table's to compare; a seated player's DM prompts are the only buttons there)."""
    if place.guild_id is None:
        allowed = any(seat.user_id == user_id for seat in seats)
    else:
        allowed = place.guild_id == guild_id and place.channel_id == channel_id
    if not allowed:
        raise SessionError("not_valid")
