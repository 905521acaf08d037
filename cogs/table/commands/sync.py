"""Slash commands are synced to Discord only when they changed (or when asked: ``bot.py --sync``).

Discord rate-limits command syncs, and a sync at every start changes nothing most of the time.
The bot hashes the very payload ``CommandTree.sync`` would send for a scope (the commands with
their localised names, through the tree's translator) and keeps the hash in the database per scope
(``"global"``, or ``"guild:<id>"`` with ``DEV_GUILD_ID``); a start syncs a scope only when its hash
differs from the stored one.

With ``DEV_GUILD_ID`` the commands live in that server only (instantly there), not globally: a
scope this database synced before and no longer uses (the global commands before a switch to a
development server, or that server's after a switch back) is synced empty, so no command shows
twice. A scope it never synced is left alone (another deployment of the same application may own it).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from db import Store

__all__ = ["payload_hash", "place_commands", "sync_commands"]

log = logging.getLogger("temple_table")

GLOBAL = "global"


def _scope(guild: discord.abc.Snowflake | None) -> str:
    return GLOBAL if guild is None else f"guild:{guild.id}"


async def payload_hash(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None) -> str:
    """Return the sha256 of the payload ``tree.sync(guild=guild)`` would send."""
    translator = tree.translator
    payload = [await command.get_translated_payload(tree, translator) if translator else command.to_dict(tree)
               for command in tree.get_commands(guild=guild)]
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def place_commands(tree: app_commands.CommandTree[Any], dev_guild_id: int | None) -> list[discord.abc.Snowflake | None]:
    """Put the commands where they are served, and return those scopes: global, or with
    ``dev_guild_id`` that server only (its copies of the commands; none global)."""
    if dev_guild_id is None:
        return [None]
    guild = discord.Object(dev_guild_id)
    tree.copy_global_to(guild=guild)
    tree.clear_commands(guild=None)
    return [guild]


async def sync_commands(tree: app_commands.CommandTree[Any], store: Store,
                        wanted: list[discord.abc.Snowflake | None], force: bool = False) -> list[str]:
    """Sync the ``wanted`` scopes whose commands changed (all of them with ``force``), and empty the
    scopes this database synced before and no longer wants; return the scopes synced."""
    known = await store.synced_commands()
    names = {_scope(g) for g in wanted}
    scopes = list(wanted) + [None if scope == GLOBAL else discord.Object(int(scope.removeprefix("guild:")))
                             for scope in known if scope not in names]
    synced = []
    for guild in scopes:
        scope, digest = _scope(guild), await payload_hash(tree, guild)
        if known.get(scope) == digest and not (force and scope in names):
            continue
        await tree.sync(guild=guild)
        await store.set_synced_commands(scope, digest)
        synced.append(scope)
    log.info("slash commands: %s", f"synced {', '.join(synced)}" if synced else "unchanged, not synced")
    return synced
