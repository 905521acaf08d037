"""Messages and interactions as Discord stores them, and the accessors the tests read them by.

`MessageStore` creates messages (flags, interaction metadata, attachments with their bytes) and
edits them (keeping every earlier version in `FakeMessage.history`, re-validating the result),
tells its listeners of every create, edit and delete, and keeps the interactions (by id and by
token) and the modals open; the accessors answer what a test asks: a channel's messages, a user's
DMs and ephemeral replies, every public text (for leak scans), the last interaction.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from fakediscord import payloads as p
from fakediscord.objects import (
    Fail,
    FakeChannel,
    FakeDiscordError,
    FakeMessage,
    FakeUser,
    InteractionRecord,
    SentFile,
    invalid,
)
from fakediscord.payloads import Json
from fakediscord.validate import validate_message_body
from fakediscord.world import World

__all__ = ["MessageStore"]


class MessageStore:
    """Messages, interactions and open modals, in the world they are sent in."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.open_modals: dict[int, InteractionRecord] = {}  # user id -> interaction that opened it
        self._by_token: dict[str, InteractionRecord] = {}
        self._listeners: list[Callable[[str, FakeMessage], None]] = []

    # ---------------------------------------------------------------- interactions

    def add_interaction(self, rec: InteractionRecord) -> None:
        """Keep an interaction Discord sent, findable by its id and its token."""
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        """The interaction with this token (its callback and webhook routes name it so), or None."""
        return self._by_token.get(token)

    # ---------------------------------------------------------------- listeners

    def add_listener(self, listener: Callable[[str, FakeMessage], None]) -> None:
        """Call `listener(kind, message)` on each "create", "edit", "delete" (the demo prints from here)."""
        self._listeners.append(listener)

    def _event(self, kind: str, msg: FakeMessage) -> None:
        if kind == "delete":
            msg.deleted = True
        for listener in self._listeners:
            listener(kind, msg)

    # ---------------------------------------------------------------- messages

    def create(
        self,
        ch: FakeChannel,
        author: FakeUser,
        body: Json,
        files: list[SentFile],
        *,
        ephemeral_to: int | None,
        interaction: InteractionRecord | None,
        extra_flags: int = 0,
    ) -> FakeMessage:
        """Store a new message in `ch` (ephemeral to one user, or the answer to an interaction)."""
        mid = self.world.ids.next()
        flags = int(body.get("flags") or 0) | extra_flags
        if ephemeral_to is not None:
            flags |= p.MESSAGE_FLAG_EPHEMERAL
        else:
            flags &= ~p.MESSAGE_FLAG_EPHEMERAL
        flags &= ~(1 << 12)  # SUPPRESS_NOTIFICATIONS is a send option, not shown on the message
        metadata = None
        if interaction is not None:
            metadata = p.interaction_metadata_payload(
                interaction.id, interaction.type, self.world.users[interaction.user_id].payload()
            )
        attachments = self._attachments(body, files, [])
        data = p.message_payload(
            mid,
            ch.id,
            author.payload(),
            content=str(body.get("content") or ""),
            guild_id=ch.guild_id,
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            attachments=attachments[0],
            flags=flags,
            interaction_metadata=metadata,
            message_type=20 if interaction is not None and interaction.type == 2 else 0,
        )
        msg = FakeMessage(
            mid,
            ch.id,
            data,
            attachments[1],
            ephemeral_to=ephemeral_to,
            interaction_id=interaction.id if interaction else None,
            notified=self._notified(ch, author, body, ephemeral_to, interaction, self.world),
        )
        self.messages[mid] = msg
        self._event("create", msg)
        return msg

    @staticmethod
    def _notified(
        ch: FakeChannel,
        author: FakeUser,
        body: Json,
        ephemeral_to: int | None,
        interaction: InteractionRecord | None,
        world: World,
    ) -> frozenset[int]:
        """Who Discord notifies of a new message (an edit notifies nobody, play_over_time.md).

        A DM notifies its recipient, unless it answers their own click or command; a channel message
        notifies the users and the members of the roles its content mentions that its
        ``allowed_mentions`` lets through (all of them without it; a role only when it is
        mentionable or the author may Mention Everyone) and who can see the channel, unless sent
        with SUPPRESS_NOTIFICATIONS; an ephemeral message nobody.
        """
        if ephemeral_to is not None:
            return frozenset()
        if ch.is_dm:
            if interaction is not None or ch.recipient_id is None or ch.recipient_id == author.id:
                return frozenset()
            return frozenset({ch.recipient_id})
        if int(body.get("flags") or 0) & (1 << 12):
            return frozenset()
        content = str(body.get("content") or "")
        named = {int(found) for found in re.findall(r"<@!?(\d+)>", content)}
        roles = {int(found) for found in re.findall(r"<@&(\d+)>", content)}
        allowed = body.get("allowed_mentions")
        if isinstance(allowed, dict) and "users" not in (allowed.get("parse") or []):
            named &= {int(user) for user in allowed.get("users") or []}
        if isinstance(allowed, dict) and "roles" not in (allowed.get("parse") or []):
            roles &= {int(role) for role in allowed.get("roles") or []}
        may_any = (author.permissions | world.everyone_permissions) & (p.PERM_MENTION_EVERYONE | p.PERM_ADMINISTRATOR)
        for role in world.guild_roles(ch.guild_id) if roles else ():  # most messages name no role
            if role.id in roles and (role.mentionable or bool(may_any)):
                named |= role.members
        return frozenset(named - {author.id} - ch.hidden_from)

    def _attachments(
        self, body: Json, files: list[SentFile], old: list[tuple[Json, SentFile]]
    ) -> tuple[list[Json], list[SentFile]]:
        """Keep the listed existing attachments, add the uploaded files (ids in `attachments` index them)."""
        out: list[Json] = []
        out_files: list[SentFile] = []
        listed = body.get("attachments")
        if listed is None:
            listed = [{"id": i, "filename": f.filename} for i, f in enumerate(files)]
            for att, f in old:
                out.append(att)
                out_files.append(f)
        old_by_id = {str(att["id"]): (att, f) for att, f in old}
        for entry in listed:
            key = str(entry.get("id"))
            if key in old_by_id:
                att, f = old_by_id[key]
                out.append(att)
                out_files.append(f)
                continue
            idx = int(entry.get("id", 0))
            if not 0 <= idx < len(files):
                raise invalid("attachments", "ATTACHMENT_NOT_FOUND", f"Unknown attachment {entry.get('id')}")
            f = files[idx]
            out.append(
                p.attachment_payload(
                    self.world.ids.next(),
                    entry.get("filename") or f.filename,
                    len(f.data),
                    description=entry.get("description"),
                )
            )
            out_files.append(f)
        return out, out_files

    def edit(self, msg: FakeMessage, body: Json, files: list[SentFile]) -> None:
        """Edit a message as Discord does: the earlier version kept in its history, the result re-validated."""
        new = dict(msg.data)  # nested values are replaced, never mutated, so history stays intact
        for key in ("content", "embeds", "components"):
            if key in body:
                new[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "flags" in body and body["flags"] is not None:
            keep = msg.flags & (p.MESSAGE_FLAG_EPHEMERAL | p.MESSAGE_FLAG_COMPONENTS_V2)
            new["flags"] = (int(body["flags"]) & ~p.MESSAGE_FLAG_EPHEMERAL) | keep
        new["flags"] = int(new.get("flags") or 0) & ~p.MESSAGE_FLAG_LOADING
        check = {k: new.get(k) for k in ("content", "embeds", "components", "flags")}
        validate_message_body(check, has_files=True, creating=False)
        old = list(zip(msg.data.get("attachments") or [], msg.files, strict=False))
        if "attachments" in body or files:
            new["attachments"], msg.files = self._attachments(body, files, old)
        if not (new.get("content") or new.get("embeds") or new.get("components") or new.get("attachments")):
            raise Fail(400, 50006, "Cannot send an empty message")
        new["edited_timestamp"] = p.snowflake_time_iso(self.world.ids.next())
        msg.history.append(msg.data)
        msg.data = new
        self._event("edit", msg)

    def delete(self, msg: FakeMessage) -> None:
        """Delete a message (it is kept, marked deleted, for leak scans)."""
        self._event("delete", msg)

    # ---------------------------------------------------------------- accessors

    def channel_messages(
        self, channel: FakeChannel | int, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Messages currently in a channel, oldest first (ephemeral ones only if asked)."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and not m.deleted and (include_ephemeral or m.ephemeral_to is None)
        ]

    def dm_messages(self, user: FakeUser | int) -> list[FakeMessage]:
        """Messages in the bot's DM channel with this user, oldest first."""
        uid = user if isinstance(user, int) else user.id
        cid = self.world.dm_channel_ids.get(uid)
        return [] if cid is None else self.channel_messages(cid, include_ephemeral=True)

    def ephemeral_replies(self, user: FakeUser | int) -> list[FakeMessage]:
        """Every ephemeral message only this user could see, oldest first."""
        uid = user if isinstance(user, int) else user.id
        return [m for m in self.messages.values() if m.ephemeral_to == uid and not m.deleted]

    def notifications(self, user: FakeUser | int) -> list[FakeMessage]:
        """Every message whose creation notified this user (a DM, or a mention let through), oldest first."""
        uid = user if isinstance(user, int) else user.id
        return [m for m in self.messages.values() if uid in m.notified]

    def public_messages(self) -> list[FakeMessage]:
        """Every non-ephemeral guild channel message, including deleted ones (for leak scans)."""
        return [
            m
            for m in self.messages.values()
            if m.ephemeral_to is None and not self.world.channels[m.channel_id].is_dm
        ]

    def public_texts(self) -> list[str]:
        """The visible text of every version of every public guild message (what must never leak)."""
        return [text for m in self.public_messages() for text in m.all_texts()]

    def last_interaction_response(self, user: FakeUser | int | None = None) -> InteractionRecord:
        """The most recent interaction (of this user, if given), with what the bot answered."""
        uid = user if isinstance(user, int) or user is None else user.id
        for rec in reversed(self.interactions.values()):
            if uid is None or rec.user_id == uid:
                return rec
        raise FakeDiscordError("no interaction yet")
