"""The interaction route handlers: the callback that acknowledges, and the webhook routes after it.

`InteractionCallbacks` answers `POST /interactions/{id}/{token}/callback` (the 3-second window,
"already acknowledged", the callback types each interaction type allows, messages, deferrals,
updates, autocomplete choices, modals) and the interaction webhook routes: the `@original`
response and followups (get, edit, delete; the 15-minute token lifetime). It lists its routes
(`routes`); the REST router serves them beside the bot's own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from fakediscord import interactions as ix
from fakediscord import payloads as p
from fakediscord.objects import Fail, FakeMessage, InteractionRecord, invalid, walk_components
from fakediscord.payloads import Json
from fakediscord.store import MessageStore
from fakediscord.validate import (
    MAX_AUTOCOMPLETE_CHOICES,
    MAX_CHOICE_NAME,
    MAX_CHOICE_VALUE,
    MAX_MODAL_COMPONENTS,
    MAX_MODAL_TITLE,
    check_custom_id,
    check_interactive,
    validate_message_body,
)
from fakediscord.wire import Handler, Reply, Request
from fakediscord.world import World

__all__ = ["ACK_WINDOW_S", "TOKEN_LIFETIME_S", "InteractionCallbacks"]

# Discord's 3-second window to acknowledge an interaction, and the token lifetime for followups.
ACK_WINDOW_S = 3.0
TOKEN_LIFETIME_S = 15 * 60.0


class InteractionCallbacks:
    """Interaction callback and webhook routes, over the world's messages and interactions."""

    def __init__(self, world: World, store: MessageStore, now: Callable[[], float]) -> None:
        self.world = world
        self.store = store
        self.now = now  # the fake's clock: the acknowledgement window and the token lifetime

    def routes(self) -> list[tuple[str, str, Handler]]:
        """(method, route template, handler) of every route served here."""
        return [
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._r_callback),
            ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", self._r_get_original),
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", self._r_edit_original),
            ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", self._r_delete_original),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self._r_followup),
            (
                "GET",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._r_get_webhook_message,
            ),
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._r_edit_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._r_delete_webhook_message,
            ),
        ]

    # ---------------------------------------------------------------- route handlers: interactions

    def _live_interaction(self, r: Request) -> InteractionRecord:
        rec = self.store.interaction_by_token(r.params["interaction_token"])
        if rec is None or str(rec.id) != r.params["interaction_id"]:
            raise Fail(404, 10062, "Unknown interaction")
        return rec

    def _r_callback(self, r: Request) -> Reply:
        rec = self._live_interaction(r)
        body = r.payload or {}
        ctype = int(body.get("type", 0))
        rec.callbacks.append(ctype)
        if rec.acknowledged:
            raise Fail(400, 40060, "Interaction has already been acknowledged.")
        if self.now() - rec.created_at > ACK_WINDOW_S:
            raise Fail(404, 10062, "Unknown interaction")
        data = body.get("data") or {}
        allowed = {
            ix.INTERACTION_APPLICATION_COMMAND: {4, 5, 9},
            ix.INTERACTION_COMPONENT: {4, 5, 6, 7, 9},
            ix.INTERACTION_AUTOCOMPLETE: {8},
            ix.INTERACTION_MODAL_SUBMIT: {4, 5, 6, 7} if rec.message_id else {4, 5},
        }[rec.type]
        if ctype not in allowed:
            raise invalid(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Callback type {ctype} is not valid for interaction type {rec.type}",
            )
        ch = self.world.channels[rec.channel_id]
        user = self.world.users[rec.user_id]
        message: FakeMessage | None = None
        if ctype == ix.CALLBACK_MESSAGE:
            validate_message_body(data, has_files=bool(r.files), creating=True)
            eph = rec.user_id if int(data.get("flags") or 0) & p.MESSAGE_FLAG_EPHEMERAL else None
            message = self.store.create(ch, self.world.bot_user, data, r.files, ephemeral_to=eph, interaction=rec)
            rec.original_message_id = message.id
        elif ctype == ix.CALLBACK_DEFERRED_MESSAGE:
            eph = rec.user_id if int(data.get("flags") or 0) & p.MESSAGE_FLAG_EPHEMERAL else None
            message = self.store.create(
                ch,
                self.world.bot_user,
                {"content": ""},
                [],
                ephemeral_to=eph,
                interaction=rec,
                extra_flags=p.MESSAGE_FLAG_LOADING,
            )
            rec.original_message_id = message.id
        elif ctype in (ix.CALLBACK_DEFERRED_UPDATE, ix.CALLBACK_UPDATE_MESSAGE):
            assert rec.message_id is not None
            target = self.store.messages[rec.message_id]
            if ctype == ix.CALLBACK_UPDATE_MESSAGE:
                self.store.edit(target, data, r.files)
                message = target
                rec.update_content = target.content
            rec.original_message_id = target.id
        elif ctype == ix.CALLBACK_AUTOCOMPLETE:
            choices = data.get("choices") or []
            if len(choices) > MAX_AUTOCOMPLETE_CHOICES:
                raise invalid("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            for i, choice in enumerate(choices):
                if not 1 <= len(str(choice.get("name", ""))) <= MAX_CHOICE_NAME:
                    raise invalid(f"data.choices.{i}.name", "BASE_TYPE_BAD_LENGTH",
                                  f"Must be between 1 and {MAX_CHOICE_NAME} in length.")
                if isinstance(choice.get("value"), str) and len(choice["value"]) > MAX_CHOICE_VALUE:
                    raise invalid(f"data.choices.{i}.value", "BASE_TYPE_MAX_LENGTH",
                                  f"Must be {MAX_CHOICE_VALUE} or fewer in length.")
            rec.autocomplete_choices = choices
        elif ctype == ix.CALLBACK_MODAL:
            self._validate_modal(data)
            rec.modal = data
            self.store.open_modals[user.id] = rec
        rec.ack_type = ctype
        rec.acked_at = time.perf_counter()
        if "with_response" not in r.query:
            return 204, None
        msg_json = message.data if message is not None else None
        return 200, ix.callback_response(
            rec.id,
            ctype,
            message=msg_json,
            loading=ctype == ix.CALLBACK_DEFERRED_MESSAGE,
            ephemeral=bool(message and message.ephemeral),
        )

    def _validate_modal(self, data: Json) -> None:
        if not 1 <= len(data.get("title") or "") <= MAX_MODAL_TITLE:
            raise invalid(
                "data.title", "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_MODAL_TITLE} in length."
            )
        comps = data.get("components") or []
        if not 1 <= len(comps) <= MAX_MODAL_COMPONENTS:
            raise invalid(
                "data.components",
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_MODAL_COMPONENTS} in length.",
            )
        seen: set[str] = set()
        check_custom_id("data", data, set())
        for comp in walk_components(comps):
            if comp.get("type") in (3, 4, 5, 6, 7, 8):
                check_interactive("data.components", comp, seen)

    def _webhook_interaction(self, r: Request) -> InteractionRecord:
        rec = self.store.interaction_by_token(r.params["webhook_token"])
        if rec is None or int(r.params["webhook_id"]) != self.world.application_id:
            raise Fail(404, 10015, "Unknown Webhook")
        if self.now() - rec.created_at > TOKEN_LIFETIME_S:
            raise Fail(401, 50027, "Invalid Webhook Token")
        if not rec.acknowledged:
            raise Fail(404, 10015, "Unknown Webhook")
        return rec

    def _original(self, rec: InteractionRecord) -> FakeMessage:
        if rec.original_message_id is None or self.store.messages[rec.original_message_id].deleted:
            raise Fail(404, 10008, "Unknown Message")
        return self.store.messages[rec.original_message_id]

    def _r_get_original(self, r: Request) -> Reply:
        return 200, self._original(self._webhook_interaction(r)).data

    def _r_edit_original(self, r: Request) -> Reply:
        rec = self._webhook_interaction(r)
        msg = self._original(rec)
        self.store.edit(msg, r.payload or {}, r.files)
        rec.original_edits += 1
        return 200, msg.data

    def _r_delete_original(self, r: Request) -> Reply:
        self.store.delete(self._original(self._webhook_interaction(r)))
        return 204, None

    def _r_followup(self, r: Request) -> Reply:
        rec = self._webhook_interaction(r)
        body = r.payload or {}
        validate_message_body(body, has_files=bool(r.files), creating=True)
        orig = self.store.messages.get(rec.original_message_id) if rec.original_message_id else None
        if orig is not None and not orig.deleted and orig.loading and orig.interaction_id == rec.id:
            # Discord: the first followup after a deferred response completes the "thinking" message,
            # which keeps the defer's ephemerality.
            self.store.edit(orig, {**body, "flags": orig.flags}, r.files)
            rec.followup_ids.append(orig.id)
            return 200, orig.data
        eph = rec.user_id if int(body.get("flags") or 0) & p.MESSAGE_FLAG_EPHEMERAL else None
        msg = self.store.create(
            self.world.channels[rec.channel_id], self.world.bot_user, body, r.files, ephemeral_to=eph, interaction=rec
        )
        rec.followup_ids.append(msg.id)
        return 200, msg.data

    def _webhook_message(self, r: Request) -> FakeMessage:
        rec = self._webhook_interaction(r)
        mid = int(r.params["message_id"])
        if (mid not in rec.followup_ids and mid != rec.original_message_id) or self.store.messages[mid].deleted:
            raise Fail(404, 10008, "Unknown Message")
        return self.store.messages[mid]

    def _r_get_webhook_message(self, r: Request) -> Reply:
        return 200, self._webhook_message(r).data

    def _r_edit_webhook_message(self, r: Request) -> Reply:
        msg = self._webhook_message(r)
        self.store.edit(msg, r.payload or {}, r.files)
        return 200, msg.data

    def _r_delete_webhook_message(self, r: Request) -> Reply:
        self.store.delete(self._webhook_message(r))
        return 204, None
