"""Private prompts redrawn through their player's latest click: no rate-limited call.

A player's private prompt (a DM, or an ephemeral message in the channel) changes when their turn
comes, often long after their last click on it. Editing a DM by REST costs a rate-limited call;
an ephemeral message cannot be edited by REST at all. But every click on the prompt is an
interaction whose token edits that message (``edit_original_response``) for 15 minutes, through
an interaction endpoint that Discord exempts from the bot's rate limits. :class:`Panels`
remembers, per message, the latest click on it (and, per table and player, their ephemeral
prompt), and redraws through it while the token lives.

A panel left open longer keeps working: a click on it is a new interaction with a fresh token,
answered by redrawing the panel it pressed, and from then on that click is the one to redraw it
through (and to show the player's private notes on). The token's age is measured on the world's
clock (the session's, which tests move as the fake Discord moves its own): a token Discord
expired is never tried, since each try would be an invalid request (401).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import Any

import discord

__all__ = ["TOKEN_LIFE_S", "Panels"]

log = logging.getLogger(__name__)

TOKEN_LIFE_S = 14 * 60.0
"""Interaction tokens live 15 minutes; a minute's margin (an expired token answers 401, an
invalid request)."""

_TABLE_OF = re.compile(r"^[a-z:]+?:(\d{1,18})(?::|$)")  # every table control: "<kind>:<table id>[:...]"


class Panels:
    """The latest click on each private prompt, whose token redraws it while it lives."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now  # seconds; the hub passes the session's clock
        self._by_message: dict[int, tuple[discord.Interaction, float]] = {}  # message id -> (click, when)
        self._ephemeral: dict[tuple[int, int], int] = {}  # (table id, user id) -> their ephemeral prompt
        self._replies: dict[tuple[int, int], tuple[discord.Interaction, float, int | None]] = {}
        """(table id, user id) -> their latest press on a public message answered by a private reply
        (the interaction's original response, or the id of its private followup when the response
        redrew the public message): that reply can be redrawn too."""

    def clicked(self, interaction: discord.Interaction) -> None:
        """Note a click on a private message (a DM, or an ephemeral reply): its token can redraw it."""
        message = interaction.message
        if message is None or interaction.type != discord.InteractionType.component:
            return
        ephemeral = message.flags.ephemeral
        if not ephemeral and interaction.guild_id is not None:
            return  # a public message: edited by the click's own response or by REST
        now = self.now()
        self._by_message.pop(message.id, None)  # re-inserted last: the dict stays oldest first
        self._by_message[message.id] = (interaction, now)
        if ephemeral:
            data: dict[str, Any] = dict(interaction.data or {})
            match = _TABLE_OF.match(str(data.get("custom_id", "")))
            if match is not None:
                self._ephemeral[(int(match[1]), interaction.user.id)] = message.id
        self._forget_before(now - TOKEN_LIFE_S)

    def replied(self, table_id: int, interaction: discord.Interaction, followup: int | None = None) -> None:
        """Note that ``interaction`` was answered by a private reply (its original response, or the
        private ``followup`` message sent after a response that redrew a public message), so that
        reply can be redrawn later (e.g. what a camper banked, once the choices are revealed)."""
        self._replies[(table_id, interaction.user.id)] = (interaction, self.now(), followup)

    async def redraw_reply(self, table_id: int, user_id: int, fields: dict[str, Any]) -> bool:
        """Redraw the player's latest private answer of this table: the reply to their press on a
        public message, or their private panel if they pressed it since (a panel pressed after the
        reply's token expired is redrawn through that newer click); False when none can be."""
        key = (table_id, user_id)
        panel = self._ephemeral.get(key)
        reply = self._replies.get(key)
        candidates = [reply, (*self._by_message[panel], None) if panel in self._by_message else None]
        usable = [entry for entry in candidates if entry is not None and self._usable(entry[:2])]
        if not usable:
            self._replies.pop(key, None)
            return False
        interaction, _, followup = max(usable, key=lambda entry: entry[1])
        try:
            if followup is not None:
                await interaction.followup.edit_message(followup, **fields)
            else:
                await interaction.edit_original_response(**fields)
        except discord.HTTPException as exc:
            log.info("a private reply could not be redrawn (%s)", exc.status)
            self._replies.pop(key, None)
            return False
        return True

    def ephemeral_of(self, table_id: int, user_id: int) -> int | None:
        """Return the id of the player's ephemeral prompt of this table, if they clicked one lately."""
        message_id = self._ephemeral.get((table_id, user_id))
        if message_id is not None and message_id not in self._by_message:
            del self._ephemeral[(table_id, user_id)]
            return None
        return message_id

    def live(self, message_id: int) -> bool:
        """Return True when a click on the message can still redraw it."""
        entry = self._by_message.get(message_id)
        return entry is not None and self._usable(entry)

    async def redraw(self, message_id: int, fields: dict[str, Any]) -> bool:
        """Show ``fields`` on the message through its latest click; False when that is not possible."""
        entry = self._by_message.get(message_id)
        if entry is None or not self._usable(entry):
            return False
        interaction = entry[0]
        try:
            await interaction.edit_original_response(**fields)
        except discord.HTTPException as exc:
            log.info("a prompt could not be redrawn through its last click (%s); sending it instead", exc.status)
            self._by_message.pop(message_id, None)
            for item in fields.get("attachments") or []:
                if isinstance(item, discord.File):
                    item.reset()
            return False
        return True

    def _usable(self, entry: tuple[discord.Interaction, float]) -> bool:
        """Return True when a click's token can edit its message now: younger than
        :data:`TOKEN_LIFE_S`, and already answered (a click still being handled is answered by its
        own callback, with what is latest; its token edits nothing before that: 404)."""
        interaction, at = entry
        return self.now() - at < TOKEN_LIFE_S and interaction.response.is_done()

    def _forget_before(self, cutoff: float) -> None:
        stale = []
        for message_id, (_, at) in self._by_message.items():
            if at >= cutoff:
                break
            stale.append(message_id)
        for message_id in stale:
            del self._by_message[message_id]
