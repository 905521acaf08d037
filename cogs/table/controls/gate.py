"""The gate every interaction passes before a cog sees it: crafted input stops here.

Discord's client only offers a command's choices and ranges and a message's own buttons, but a
modified client can send anything: any option value of the declared type (discord.py checks
neither ``Literal`` choices nor ``Range`` bounds), any custom_id, an unknown command, a guild-only
command from a DM. Such input is answered privately with "That is not valid; nothing was changed."
and logs one INFO line, never an ERROR with a traceback (those stay for the bot's own bugs):

- :class:`Tree` checks a command's options against its own declared parameters before it runs,
  refuses an unknown command and a guild-only one from a DM, and answers the errors crafted input
  causes inside discord.py quietly. An autocomplete request passes only for an option declared
  with autocomplete (``/leaderboard season``); any other is answered with no choices.
- :func:`admit` turns clicks and commands away while the bot shuts down ("restarting, nothing was
  changed"), and counts the ones it lets in, so a clean shutdown can let them finish.
- :func:`claim` marks a component interaction as taken by one of the bot's items (``guarded`` in
  :mod:`cogs.table.controls.buttons` claims every one); :func:`answer_unclaimed` answers the rest: custom_ids
  that match no item, or that discord.py dropped (not on the message it names).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

from cogs.table.controls.throttle import Throttle, opens_or_ends
from cogs.table.messages.hub import TableBot
from cogs.table.messages.text import when
from db import Unavailable
from engine.session import RepoUnavailable
from i18n import t

__all__ = ["Tree", "admit", "answer_unclaimed", "claim", "options_fit", "raw_values_fit", "throttled", "turn_away",
           "unreachable"]

log = logging.getLogger("temple_table")

CLAIMED = "temple_table.claimed"
"""The key in ``Interaction.extras`` an item's callback sets when it takes the interaction."""

DISCORD_INT = 2**53
"""Discord's integer options lie within ±2^53; anything beyond is crafted (and would overflow SQLite)."""
STRING_MAX = 6000
"""The longest string option Discord sends."""

CRAFTED_ERRORS = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch,
                  app_commands.TransformerError, app_commands.NoPrivateMessage)
"""What crafted input (or a command list Discord has not synced yet) makes discord.py raise."""

_SCALAR: dict[AppCommandOptionType, tuple[type, ...]] = {
    AppCommandOptionType.string: (str,),
    AppCommandOptionType.integer: (int,),
    AppCommandOptionType.number: (int, float),
    AppCommandOptionType.boolean: (bool,),
}


# --------------------------------------------------------------------------- commands


def options_fit(command: app_commands.Command[Any, ..., Any], given: dict[str, Any]) -> bool:
    """Return True when ``given`` (option name -> value, as discord.py's namespace holds them) is what
    Discord's client could send for ``command``: known names, every required one, values of the
    declared type, among the choices, within the bounds."""
    params = {p.display_name: p for p in command.parameters}
    if set(given) - set(params):
        return False
    for name, param in params.items():
        if name not in given:
            if param.required:
                return False
        elif not _value_fits(param, given[name]):
            return False
    return True


def autocompletes(command: Any, data: Any, guild_id: int | None) -> bool:
    """Return True when an autocomplete request is one Discord's client could send: a known command
    (a guild-only one from a server), well-typed options, and a focused option that has choices to
    offer (declared with autocomplete)."""
    if not isinstance(command, app_commands.Command) or not raw_values_fit(data):
        return False
    if guild_id is None and _guild_only(command):
        return False
    focused = _focused(data)
    return any(p.display_name == focused and p.autocomplete for p in command.parameters)


def _focused(data: Any) -> str | None:
    """Return the name of the option a user is typing in (a subcommand's, too), if one is focused."""
    for option in data.get("options", []) if isinstance(data, dict) else []:
        if isinstance(option, dict) and option.get("type") in (1, 2):
            return _focused(option)
        if isinstance(option, dict) and option.get("focused") is True:
            return str(option.get("name"))
    return None


_RAW: dict[int, tuple[type, ...]] = {3: (str,), 4: (int,), 5: (bool,), 10: (int, float)}
"""The JSON types Discord sends for a string, integer, boolean and number option."""


def raw_values_fit(data: Any) -> bool:
    """Return True when every scalar option in a command's payload carries a value of its type.

    discord.py turns a number option's value into a float (``float("0")`` passes), so a string sent
    for a number would reach the command as a number; the payload itself is checked here."""
    options = data.get("options", []) if isinstance(data, dict) else []
    for option in options if isinstance(options, list) else [None]:
        if not isinstance(option, dict):
            return False
        kind = option.get("type")
        if kind in (1, 2):  # a subcommand (group): its own options
            if not raw_values_fit(option):
                return False
        elif kind in _RAW and not option.get("focused"):
            value = option.get("value")
            if not isinstance(value, _RAW[kind]) or (kind != 5 and isinstance(value, bool)):
                return False
    return True


def _value_fits(param: app_commands.Parameter, value: Any) -> bool:
    kind = param.type
    scalar = _SCALAR.get(kind)
    if scalar is None:  # users, channels, roles, attachments: unresolved ids arrive as bare Objects
        return not isinstance(value, discord.Object)
    if not isinstance(value, scalar) or (kind is not AppCommandOptionType.boolean and isinstance(value, bool)):
        return False
    if param.choices and value not in [choice.value for choice in param.choices]:
        return False
    if isinstance(value, str):
        measure: float = len(value)
        if measure > STRING_MAX:
            return False
    elif isinstance(value, int | float):  # bool included: 0 or 1, no bounds
        measure = float(value)
        if not math.isfinite(measure) or abs(measure) > DISCORD_INT:
            return False
    else:
        return False
    low, high = param.min_value, param.max_value
    return (low is None or measure >= low) and (high is None or measure <= high)


def _guild_only(command: app_commands.Command[Any, ..., Any]) -> bool:
    """Return True when the command is for servers only: ``guild_only``, or contexts that leave out
    the DM with the bot (``/notify`` and ``/games`` declare theirs with the DM included)."""
    node: app_commands.Command[Any, ..., Any] | app_commands.Group | None = command
    while node is not None:
        if node.guild_only:
            return True
        contexts = node.allowed_contexts
        if contexts is not None and not contexts.dm_channel:
            return True
        node = node.parent
    return False


async def _private(interaction: discord.Interaction[Any], key: str, **values: Any) -> None:
    """Answer privately with the catalogue text ``key`` (a late or repeated answer is dropped)."""
    text = t(key, interaction.locale.value, **values)
    with contextlib.suppress(discord.HTTPException):
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


async def _withdraw_thinking(interaction: discord.Interaction[Any]) -> None:
    """Delete the public "thinking..." placeholder of a command that deferred before it failed, if
    nothing was answered into it: the first followup would fill it, so a private refusal would show
    to everyone. A placeholder already answered (a posted lobby, a board) stays."""
    if not interaction.response.is_done():
        return
    with contextlib.suppress(discord.HTTPException):
        original = await interaction.original_response()
        if original.flags.loading and not original.flags.ephemeral:
            await interaction.delete_original_response()


def admit(bot: TableBot) -> bool:
    """Return False while the bot shuts down (the caller answers "restarting"); else count the
    current task as handling an interaction until it ends (a clean shutdown waits for it)."""
    if bot.stopping:
        return False
    task = asyncio.current_task()
    if task is not None and task not in bot.in_flight:
        bot.in_flight.add(task)
        task.add_done_callback(bot.in_flight.discard)
    return True


async def turn_away(interaction: discord.Interaction[Any]) -> None:
    """Answer an interaction that came in while the bot shuts down."""
    log.info("interaction turned away: the bot is shutting down")
    await _private(interaction, "error.restarting")


async def throttled(interaction: discord.Interaction[Any], tree: Tree) -> bool:
    """Return True (and answer "slow down" privately) when the interaction opens, starts or ends a
    table and its member has spent their budget for that (:mod:`cogs.table.controls.throttle`)."""
    command = interaction.command.qualified_name if interaction.command is not None else None
    custom_id = None if command is not None else str(dict(interaction.data or {}).get("custom_id", ""))
    if not opens_or_ends(command, custom_id):
        return False
    again = tree.throttle.admit(interaction.guild_id, interaction.channel_id, interaction.user.id)
    if again is None:
        return False
    log.info("interaction refused: member %s opens and ends tables too fast", interaction.user.id)
    await _private(interaction, "error.slow_down", when=when(again))
    return True


def unreachable(error: BaseException | None) -> bool:
    """Return True when ``error`` is, or was caused by, the database being out of reach (discord.py
    wraps a command's error in CommandInvokeError; the table's adapter chains the store's)."""
    for _ in range(8):  # a cause chain is short; the bound only guards against a cycle
        if error is None:
            return False
        if isinstance(error, Unavailable | RepoUnavailable):
            return True
        error = getattr(error, "original", None) or error.__cause__
    return False


class Tree(app_commands.CommandTree[TableBot]):
    """The command tree: checks a command's input, refuses commands where the bot cannot post or
    that come too fast, answers errors privately. It keeps the members' budgets for opening and
    ending tables (``throttle``), which the buttons spend from too."""

    def __init__(self, client: TableBot, *args: Any, **kwargs: Any) -> None:
        super().__init__(client, *args, **kwargs)
        # On the session's clock (the world's time: tests move it, as they move the game's timers).
        self.throttle = Throttle(lambda: client.sessions.clock.now())

    async def interaction_check(self, interaction: discord.Interaction[TableBot]) -> bool:
        """Refuse crafted input, and commands in a channel where the bot lacks what a table needs."""
        self.client.hub.readers.saw(interaction)  # this command's replies are in its user's language
        # What Discord says the bot may do here, known before the command draws anything.
        self.client.hub.permissions.learn(interaction.channel_id, interaction.guild_id, interaction.app_permissions)
        command = interaction.command
        if interaction.type is discord.InteractionType.autocomplete:
            if autocompletes(command, interaction.data, interaction.guild_id):
                return True  # the option's own handler reads what was typed as untrusted text
            # Discord's client asks only for an option declared with autocomplete: this is crafted.
            log.info("autocomplete refused as crafted")
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.autocomplete([])
            return False
        if not isinstance(command, app_commands.Command):
            return await self._crafted(interaction, "no such command")
        if interaction.guild_id is None and _guild_only(command):
            log.info("command %s refused: guild-only, sent from a DM", command.qualified_name)
            await _private(interaction, "error.guild_only")
            return False
        if not raw_values_fit(interaction.data):
            return await self._crafted(interaction, f"/{command.qualified_name}: an option's value is not of its type")
        try:
            given = dict(iter(interaction.namespace))  # iter: its __getattr__ answers None for "keys"
        except (ValueError, TypeError, KeyError, OverflowError):  # e.g. a user id that is no number, or infinite
            return await self._crafted(interaction, f"/{command.qualified_name}: unreadable options")
        if not options_fit(command, given):
            return await self._crafted(interaction, f"/{command.qualified_name}: options outside its declaration")
        perms = interaction.app_permissions
        if interaction.guild is not None and not (perms.send_messages and perms.embed_links):
            await interaction.response.send_message(t("error.no_permission"), ephemeral=True)
            return False
        return not await throttled(interaction, self)

    @staticmethod
    async def _crafted(interaction: discord.Interaction[TableBot], what: str) -> bool:
        log.info("interaction refused as crafted: %s", what)
        await _private(interaction, "error.not_valid")
        return False

    async def on_error(self, interaction: discord.Interaction[TableBot],
                       error: app_commands.AppCommandError) -> None:
        """Answer crafted input quietly; log an unexpected error and tell the user nothing changed."""
        if isinstance(error, app_commands.NoPrivateMessage):
            await _private(interaction, "error.guild_only")
            return
        if isinstance(error, CRAFTED_ERRORS):
            log.info("command refused: %s", error)
            await _private(interaction, "error.not_valid")
            return
        if unreachable(error):  # an outage, not a bug: a warning without a traceback; the store retries
            log.warning("command %s: the database is unreachable; answered 'reconnecting'",
                        interaction.command and interaction.command.qualified_name)
            await _withdraw_thinking(interaction)
            await _private(interaction, "error.reconnecting")
            return
        log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                  exc_info=error)
        await _private(interaction, "error.internal")


# --------------------------------------------------------------------------- components


def claim(interaction: discord.Interaction[Any]) -> None:
    """Mark the interaction as taken by one of the bot's items (its callback answers it)."""
    interaction.extras[CLAIMED] = True


async def answer_unclaimed(interaction: discord.Interaction[Any]) -> None:
    """Answer a component or modal interaction no item of the bot took, privately: "not valid".

    discord.py runs a matching ``DynamicItem`` in a task created before the ``interaction`` event's,
    and the item's callback claims the interaction before its first await; so when this handler
    runs, an unclaimed interaction will not be answered by anyone (its custom_id matches no item,
    or its component is not on the message it names, and discord.py dropped it silently).
    """
    if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
        return
    await asyncio.sleep(0)  # one more turn of the loop: an item's task has surely started by then
    if interaction.extras.get(CLAIMED) or interaction.response.is_done():
        return
    data: dict[str, Any] = dict(interaction.data or {})
    # Only the id's first two parts: a move's custom_id goes on to name the secret choice.
    log.info("interaction refused as crafted: custom_id %r matches no button on its message",
             ":".join(str(data.get("custom_id", "")).split(":", 2)[:2])[:40])
    await _private(interaction, "error.not_valid")
