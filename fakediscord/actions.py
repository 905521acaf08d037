"""What a test's users do: the interactions and messages a test sends to the bot, checked as Discord would.

`UserActions` runs a slash command (`slash`, its options checked against the synced schema and
the user's access), asks for `autocomplete` choices, `click`s a button, `select`s values,
`submit_modal`s the modal the bot opened, and `say`s a plain message. Each builds the interaction
Discord would send (only for components that are on a message the user can see), injects it,
waits until the bot is done, and fails if it was never acknowledged. The building blocks
(`slash_interaction`, `component_interaction`, `new_interaction`, `run_interaction`) serve the
loopback server, which sends the interaction over its socket instead, and `CraftedActions`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord

from fakediscord import interactions as ix
from fakediscord import payloads as p
from fakediscord.bots import BotRunner
from fakediscord.objects import (
    FakeChannel,
    FakeDiscordError,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionRecord,
    walk_components,
)
from fakediscord.payloads import Json
from fakediscord.store import MessageStore
from fakediscord.wire import round_trip
from fakediscord.world import World

__all__ = ["UserActions"]


class UserActions:
    """The test-facing interaction API: what users do in the world, delivered by the runner."""

    def __init__(self, world: World, store: MessageStore, runner: BotRunner, now: Callable[[], float]) -> None:
        self.world = world
        self.store = store
        self.runner = runner
        self.now = now  # the fake's clock: when an interaction was created
        self._schemas: dict[tuple[int, int], tuple[Any, Json]] = {}  # command schemas by (tree, command)

    # ---------------------------------------------------------------- building interactions

    def new_interaction(
        self,
        user: FakeUser,
        channel: FakeChannel,
        itype: int,
        data: Json | None,
        message: FakeMessage | None = None,
    ) -> tuple[InteractionRecord, Json]:
        """The interaction Discord creates when `user` acts in `channel`, kept in the store, and its payload."""
        iid = self.world.ids.next()
        token = f"itok{iid}"
        payload = self.world.interaction_payload(iid, token, user, channel, itype, data, message)
        rec = InteractionRecord(
            iid,
            token,
            itype,
            user.id,
            channel.id,
            None if channel.is_dm else channel.guild_id,
            self.now(),
            payload,
            message_id=message.id if message else None,
            _fake=self.store,
        )
        self.store.add_interaction(rec)
        return rec, payload

    def resolve_command(
        self, bot: discord.Client, command: str, channel: FakeChannel
    ) -> tuple[Json, list[str]]:
        """The schema of a command as the bot's tree declares it (scoped to the guild if it is), and its names."""
        tree = getattr(bot, "tree", None)
        if tree is None:
            raise FakeDiscordError("the bot has no CommandTree")
        names = command.split()
        guild = None if channel.is_dm else discord.Object(self.world.guild_id)
        root = tree.get_command(names[0], guild=guild) if guild else None
        scope_guild = root is not None
        if root is None:
            root = tree.get_command(names[0])
        if root is None:
            raise FakeDiscordError(
                f"/{names[0]} is not registered in the bot's tree (Discord would not offer it)"
            )
        key = (id(tree), id(root))
        cached = self._schemas.get(key)
        if cached is None or cached[0] is not root:
            cached = (root, root.to_dict(tree))  # keeps `root` alive so its id cannot be reused
            self._schemas[key] = cached
        schema: Json = dict(cached[1])
        if scope_guild:
            schema["guild_id"] = str(self.world.guild_id)
        return schema, names

    def _check_command_access(self, schema: Json, user: FakeUser, channel: FakeChannel) -> None:
        contexts = schema.get("contexts")
        if channel.is_dm and (
            schema.get("dm_permission") is False or (contexts is not None and 1 not in contexts)
        ):
            raise FakeDiscordError(f"/{schema['name']} is guild-only; Discord does not offer it in DMs")
        needed = schema.get("default_member_permissions")
        if needed is not None and not channel.is_dm and user.id != self.world.owner.id:
            have = user.permissions
            if not have & p.PERM_ADMINISTRATOR and int(needed) & ~have:
                raise FakeDiscordError(
                    f"{user.name} lacks the permissions /{schema['name']} requires; Discord hides it"
                )

    def _option_value(self, opt: Json, value: Any, resolved: Json) -> Any:
        otype = opt["type"]
        name = opt["name"]
        if otype == ix.OPTION_USER:
            if not isinstance(value, FakeUser):
                raise FakeDiscordError(f"option {name}: pass a FakeUser")
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if value.in_guild:
                member = self.world.member_payload(value, with_permissions=True)
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if otype == ix.OPTION_CHANNEL:
            if not isinstance(value, FakeChannel):
                raise FakeDiscordError(f"option {name}: pass a FakeChannel")
            ch = self.world.channel_payload(value)
            ch["permissions"] = str(self.world.app_permissions(value))
            resolved.setdefault("channels", {})[str(value.id)] = ch
            return str(value.id)
        if otype == ix.OPTION_ROLE:
            if not isinstance(value, FakeRole):
                raise FakeDiscordError(f"option {name}: pass a FakeRole")
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if otype == ix.OPTION_INTEGER:
            if isinstance(value, bool) or not isinstance(value, int):
                raise FakeDiscordError(f"option {name}: Discord only sends integers here, got {value!r}")
        elif otype == ix.OPTION_NUMBER:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise FakeDiscordError(f"option {name}: Discord only sends numbers here, got {value!r}")
        elif otype == ix.OPTION_BOOLEAN:
            if not isinstance(value, bool):
                raise FakeDiscordError(f"option {name}: Discord only sends booleans here, got {value!r}")
        elif otype == ix.OPTION_STRING:
            if not isinstance(value, str):
                raise FakeDiscordError(f"option {name}: Discord only sends strings here, got {value!r}")
            if ("min_length" in opt and len(value) < opt["min_length"]) or len(value) > opt.get(
                "max_length", 6000
            ):
                raise FakeDiscordError(f"option {name}: length outside what Discord's client allows")
        else:
            raise FakeDiscordError(f"option {name}: option type {otype} is not emulated")
        if otype in (ix.OPTION_INTEGER, ix.OPTION_NUMBER):
            if opt.get("min_value") is not None and value < opt["min_value"]:
                raise FakeDiscordError(f"option {name}: {value} is below min_value {opt['min_value']}")
            if opt.get("max_value") is not None and value > opt["max_value"]:
                raise FakeDiscordError(f"option {name}: {value} is above max_value {opt['max_value']}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise FakeDiscordError(f"option {name}: {value!r} is not one of the choices")
        return value

    def _command_options(
        self, schema: Json, names: list[str], options: dict[str, Any], focused: str | None = None
    ) -> tuple[list[Json], Json]:
        level = schema
        path: list[Json] = []
        for sub in names[1:]:
            found = next(
                (o for o in level.get("options", []) if o["name"] == sub and o["type"] in (1, 2)), None
            )
            if found is None:
                raise FakeDiscordError(f"/{' '.join(names)}: no subcommand {sub!r}")
            path.append(found)
            level = found
        if any(o["type"] in (1, 2) for o in level.get("options", [])):
            raise FakeDiscordError(f"/{' '.join(names)} is a group; name a subcommand")
        resolved: Json = {}
        leaf: list[Json] = []
        declared = {o["name"]: o for o in level.get("options", [])}
        unknown = set(options) - set(declared)
        if unknown:
            raise FakeDiscordError(f"/{' '.join(names)} has no option(s) {sorted(unknown)}")
        for name, opt in declared.items():
            if name not in options:
                if opt.get("required") and name != focused:
                    raise FakeDiscordError(f"/{' '.join(names)}: required option {name!r} missing")
                continue
            if name == focused:
                if not opt.get("autocomplete"):  # the client asks only for an option declared so
                    raise FakeDiscordError(f"/{' '.join(names)}: option {name!r} does not autocomplete")
                leaf.append(ix.option_payload(name, opt["type"], options[name], focused=True))
            else:
                leaf.append(
                    ix.option_payload(name, opt["type"], self._option_value(opt, options[name], resolved))
                )
        for node in reversed(path):
            leaf = [ix.option_payload(node["name"], node["type"], options=leaf)]
        return leaf, resolved

    def slash_interaction(
        self,
        bot: discord.Client,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: dict[str, Any] | None,
        *,
        focused: str | None = None,
    ) -> tuple[InteractionRecord, Json]:
        """A slash command's interaction (its autocomplete, with `focused`), checked as Discord's client does."""
        schema, names = self.resolve_command(bot, command, channel)
        self._check_command_access(schema, user, channel)
        opts, resolved = self._command_options(schema, names, options or {}, focused)
        cmd_id = self.command_id(schema)
        guild_id = int(schema["guild_id"]) if "guild_id" in schema else None
        data = ix.command_data(cmd_id, names[0], opts, guild_id=guild_id, resolved=resolved)
        itype = ix.INTERACTION_AUTOCOMPLETE if focused else ix.INTERACTION_APPLICATION_COMMAND
        return self.new_interaction(user, channel, itype, data)

    def command_id(self, schema: Json) -> int:
        """The id Discord gave the command when the bot synced it."""
        scope = int(schema["guild_id"]) if "guild_id" in schema else None
        for cmd in self.world.commands.get(scope, []):
            if cmd["name"] == schema["name"]:
                return int(cmd["id"])
        # Not synced in this test: a stable made-up id per name is what Discord would have assigned.
        return (self.world.application_id + sum(map(ord, schema["name"]))) & ((1 << 63) - 1)

    async def run_interaction(
        self, rec: InteractionRecord, payload: Json, bot: discord.Client | None, expect_ack: bool
    ) -> InteractionRecord:
        """Deliver the interaction, wait until the bot is done, and fail if it was never acknowledged."""
        await self.runner.dispatch("INTERACTION_CREATE", payload, bot=bot)
        if expect_ack and not rec.acknowledged:
            raise AssertionError(
                f"interaction {rec.id} ({_describe(payload)}) was never acknowledged: the user sees "
                f"'This interaction failed'. Refused callbacks: {rec.errors}"
            )
        return rec

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        bot: discord.Client | None = None,
        expect_ack: bool = True,
    ) -> InteractionRecord:
        """Run a slash command ("incan new" = subcommand `new` of group `incan`) and wait until handled.

        Options are checked against the command's schema (types, required, choices, min/max) as
        Discord's client would; USER/CHANNEL/ROLE options take FakeUser/FakeChannel/FakeRole and fill
        `resolved`.
        """
        rec, payload = self.slash_interaction(self.runner.current(bot), user, channel, command, options)
        return await self.run_interaction(rec, payload, bot, expect_ack)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: dict[str, Any],
        focused: str,
        *,
        bot: discord.Client | None = None,
    ) -> list[Json]:
        """Ask for autocomplete choices of the `focused` option; returns the choices the bot sent."""
        rec, payload = self.slash_interaction(
            self.runner.current(bot), user, channel, command, options, focused=focused
        )
        await self.run_interaction(rec, payload, bot, expect_ack=True)
        return rec.autocomplete_choices or []

    def visible_message(self, user: FakeUser, message: FakeMessage | int) -> FakeMessage:
        """The message, if this user can see it (not deleted, not someone else's ephemeral or DM)."""
        msg = self.store.messages.get(message if isinstance(message, int) else message.id)
        if msg is None or msg.deleted:
            raise FakeDiscordError("that message does not exist (deleted or never sent)")
        if msg.ephemeral_to is not None and msg.ephemeral_to != user.id:
            raise FakeDiscordError(f"{user.name} cannot see an ephemeral message meant for someone else")
        ch = self.world.channels[msg.channel_id]
        if ch.is_dm and ch.recipient_id != user.id:
            raise FakeDiscordError(f"{user.name} cannot see another user's DMs")
        return msg

    def component_interaction(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        kinds: tuple[int, ...],
        values: list[str] | None,
    ) -> tuple[InteractionRecord, Json]:
        """The interaction of using a component of one of `kinds` that is on the message and enabled."""
        msg = self.visible_message(user, message)
        comp = msg.component(custom_id)
        if comp is None or comp.get("type") not in kinds:
            raise FakeDiscordError(
                f"no component {custom_id!r} of type {kinds} on message {msg.id}; it has {msg.custom_ids} "
                "(Discord only lets users use components that are on the message)"
            )
        if comp.get("disabled"):
            raise FakeDiscordError(f"component {custom_id!r} is disabled; Discord does not let users use it")
        if values is not None and comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if (
                any(v not in allowed for v in values)
                or not lo <= len(values) <= hi
                or len(set(values)) != len(values)
            ):
                raise FakeDiscordError(
                    f"select {custom_id!r} cannot send {values}: options {allowed}, {lo}..{hi}"
                )
        data = ix.component_data(custom_id, comp["type"], values)
        if values is not None and comp["type"] in (5, 6):
            # user/member selects: resolve the picked users as Discord does
            data["resolved"] = {"users": {v: self.world.users[int(v)].payload() for v in values}}
        return self.new_interaction(user, self.world.channels[msg.channel_id], ix.INTERACTION_COMPONENT, data, msg)

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        *,
        bot: discord.Client | None = None,
        expect_ack: bool = True,
    ) -> InteractionRecord:
        """Click a button; it must be on the message (channel, DM or the user's ephemeral) and enabled."""
        rec, payload = self.component_interaction(user, message, custom_id, (2,), None)
        return await self.run_interaction(rec, payload, bot, expect_ack)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        values: list[str],
        *,
        bot: discord.Client | None = None,
        expect_ack: bool = True,
    ) -> InteractionRecord:
        """Pick values in a select menu on the message (values checked against its options)."""
        rec, payload = self.component_interaction(user, message, custom_id, (3, 5, 6, 7, 8), values)
        return await self.run_interaction(rec, payload, bot, expect_ack)

    async def submit_modal(
        self,
        user: FakeUser,
        values: dict[str, str],
        *,
        custom_id: str | None = None,
        bot: discord.Client | None = None,
        expect_ack: bool = True,
    ) -> InteractionRecord:
        """Submit the modal the bot last opened for this user, with text values by custom_id."""
        opener = self.store.open_modals.get(user.id)
        if opener is None or opener.modal is None:
            raise FakeDiscordError(f"no modal is open for {user.name}")
        modal = opener.modal
        if custom_id is not None and modal["custom_id"] != custom_id:
            raise FakeDiscordError(f"the open modal is {modal['custom_id']!r}, not {custom_id!r}")
        inputs = [c for c in walk_components(modal.get("components", [])) if c.get("type") == 4]
        known = {c["custom_id"] for c in inputs}
        if set(values) - known:
            raise FakeDiscordError(f"the modal has no text inputs {sorted(set(values) - known)}")
        for c in inputs:
            val = values.get(c["custom_id"], "")
            if c.get("required", True) and not val:
                raise FakeDiscordError(f"text input {c['custom_id']!r} is required")
            if len(val) > c.get("max_length", 4000) or (val and len(val) < c.get("min_length", 0)):
                raise FakeDiscordError(f"text input {c['custom_id']!r}: length outside its limits")

        def submitted(comp: Json) -> Json:
            if comp["type"] == 1:
                return {"type": 1, "components": [submitted(c) for c in comp["components"]]}
            if comp["type"] == 18:
                return {"type": 18, "component": submitted(comp["component"])}
            if comp["type"] == 4:
                return {"type": 4, "custom_id": comp["custom_id"], "value": values.get(comp["custom_id"], "")}
            return {k: v for k, v in comp.items() if k in ("type", "custom_id")}

        data = ix.modal_submit_data(modal["custom_id"], [submitted(c) for c in modal.get("components", [])])
        del self.store.open_modals[user.id]
        msg = self.store.messages.get(opener.message_id) if opener.message_id else None
        rec, payload = self.new_interaction(
            user, self.world.channels[opener.channel_id], ix.INTERACTION_MODAL_SUBMIT, data, msg
        )
        return await self.run_interaction(rec, payload, bot, expect_ack)

    async def say(
        self, user: FakeUser, channel: FakeChannel, content: str, *, bot: discord.Client | None = None
    ) -> FakeMessage:
        """A user posts a plain message (MESSAGE_CREATE), e.g. for prefix commands."""
        msg = self.store.create(
            channel, user, {"content": content}, [], ephemeral_to=None, interaction=None
        )
        data = round_trip(msg.data)
        # As Discord does: the users named by <@id> in the text are the message's mentions.
        named = {int(found) for found in re.findall(r"<@!?(\d+)>", content)}
        known = {self.world.bot_user.id: self.world.bot_user, **self.world.users}
        data["mentions"] = [known[uid].payload() for uid in sorted(named) if uid in known]
        if not channel.is_dm:
            member = self.world.member_payload(user)
            member.pop("user")
            data["member"] = member
        await self.runner.dispatch("MESSAGE_CREATE", data, bot=bot)
        return msg


def _describe(payload: Json) -> str:
    data = payload.get("data") or {}
    if payload["type"] == ix.INTERACTION_COMPONENT:
        return f"component {data.get('custom_id')!r}"
    if payload["type"] == ix.INTERACTION_MODAL_SUBMIT:
        return f"modal {data.get('custom_id')!r}"
    names = [data.get("name", "?")]
    opts = data.get("options") or []
    while opts and opts[0].get("type") in (1, 2):
        names.append(opts[0]["name"])
        opts = opts[0].get("options") or []
    return "/" + " ".join(names)
