"""Crafted interactions: what a modified client can make Discord deliver, unchecked by the fake.

`UserActions` only lets a test's users do what Discord's client offers (a button that is on the
message, an option among the choices). An attacker's client can name any custom_id, any select
value and any option value of the declared type; Discord does not promise to check them against
the message or the command's choices and ranges (discord.py does not either: a ``Range`` or a
``Literal`` reaches the callback unchecked). These actions inject such interactions so tests can
check the bot refuses them privately and changes nothing.

The worst case is modelled: the message a crafted component interaction names carries the crafted
component (``carried=True``), so discord.py's ``DynamicItem`` dispatch runs the item it matches;
with ``carried=False`` the message is sent as it is and discord.py drops the click unless the bot
answers unmatched interactions itself.
"""

from __future__ import annotations

from typing import Any

import discord

from fakediscord import interactions as ix
from fakediscord.actions import UserActions
from fakediscord.objects import FakeChannel, FakeMessage, FakeRole, FakeUser, InteractionRecord
from fakediscord.payloads import Json

__all__ = ["BUTTON", "SELECT", "CraftedActions"]

BUTTON, SELECT = 2, 3

_OPTION_TYPES: dict[type, int] = {bool: ix.OPTION_BOOLEAN, int: ix.OPTION_INTEGER, float: ix.OPTION_NUMBER,
                                  str: ix.OPTION_STRING}


class CraftedActions:
    """Interactions no honest client sends, built from the honest client's building blocks."""

    def __init__(self, actions: UserActions) -> None:
        self.actions = actions

    async def craft_component(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        *,
        component_type: int = BUTTON,
        values: list[str] | None = None,
        carried: bool = True,
        channel: FakeChannel | None = None,
        bot: discord.Client | None = None,
        expect_ack: bool = True,
    ) -> InteractionRecord:
        """Press a component with any ``custom_id`` (and any select ``values``) on ``message``.

        ``channel`` defaults to the message's own; the user must be able to see the message.
        """
        msg = self.actions.visible_message(user, message)
        wire = _crafted_message(msg, custom_id, component_type, values) if carried else msg.data
        data = ix.component_data(custom_id, component_type, values if component_type != BUTTON else None)
        where = channel or self.actions.world.channels[msg.channel_id]
        rec, payload = self.actions.new_interaction(user, where, ix.INTERACTION_COMPONENT, data, msg)
        payload["message"] = wire
        return await self.actions.run_interaction(rec, payload, bot, expect_ack)

    async def craft_slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        bot: discord.Client | None = None,
        expect_ack: bool = True,
        focused: str | None = None,
    ) -> InteractionRecord:
        """Run ``command`` ("incan new") with ``options`` sent as given: any value, any name.

        An option the command declares is sent with its declared type; an unknown one with the
        type of its Python value. Nothing is checked against choices, ranges or lengths, and a
        guild-only command may be sent from a DM. An unknown command name is sent as it is. A
        FakeRole is sent as its id with the role in ``resolved``, as Discord fills it for any client.
        With ``focused`` it is an autocomplete request (type 4) typing in that option, whether or
        not it declares autocomplete (the choices sent back are ``autocomplete_choices``).
        """
        names = command.split()
        declared: dict[str, int] = {}
        scope_guild: int | None = None
        try:
            schema, _ = self.actions.resolve_command(self.actions.runner.current(bot), command, channel)
        except Exception:  # not registered: sent anyway, as a client with a stale command list would
            schema = {}
        else:
            scope_guild = int(schema["guild_id"]) if "guild_id" in schema else None
            level = schema
            for sub in names[1:]:
                level = next((o for o in level.get("options", []) if o["name"] == sub), {})
            declared = {o["name"]: o["type"] for o in level.get("options", []) if o["type"] not in (1, 2)}
        leaf = [ix.option_payload(name, declared.get(name, _OPTION_TYPES.get(type(value), ix.OPTION_STRING)),
                                 str(value.id) if isinstance(value, FakeRole)
                                 else value.id if isinstance(value, FakeUser | FakeChannel) else value,
                                 focused=name == focused)
                for name, value in (options or {}).items()]
        roles = {str(v.id): v.payload() for v in (options or {}).values() if isinstance(v, FakeRole)}
        for sub in reversed(names[1:]):
            leaf = [ix.option_payload(sub, 1 if sub == names[-1] else 2, options=leaf)]
        cmd_id = self.actions.command_id(schema) if schema else self.actions.world.ids.next()
        data = ix.command_data(cmd_id, names[0], leaf, guild_id=scope_guild,
                               resolved={"roles": roles} if roles else None)
        kind = ix.INTERACTION_APPLICATION_COMMAND if focused is None else ix.INTERACTION_AUTOCOMPLETE
        rec, payload = self.actions.new_interaction(user, channel, kind, data)
        return await self.actions.run_interaction(rec, payload, bot, expect_ack)


def _crafted_message(msg: FakeMessage, custom_id: str, component_type: int, values: list[str] | None) -> Json:
    """The message as a crafted interaction names it: one row holding the crafted component."""
    if component_type == SELECT:
        options = [{"label": v[:100] or "-", "value": v} for v in values or ["-"]]
        component: Json = {"type": SELECT, "custom_id": custom_id, "options": options,
                           "min_values": 1, "max_values": max(1, len(options))}
    else:
        component = {"type": component_type, "custom_id": custom_id, "style": 1, "label": "crafted"}
    data = dict(msg.data)
    data["components"] = [{"type": 1, "components": [component]}]
    return data
