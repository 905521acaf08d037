"""What each participant saw, as a chat log: the fake's messages turned into readable text.

A :class:`Transcript` listens to the fake's message events (create, edit, delete) and to the
actions a script reports (:meth:`Transcript.act`), in the order they happen. It then writes the
log of one *place* (a channel, a thread) or of one *participant*: every public place, plus that
user's DMs, the private (ephemeral) replies only they saw, and what they pressed or typed.

Each message is drawn as a client shows it (title, description, fields, footer, buttons, menus,
pictures by file name); an edit shows only the lines it changed (``-`` old, ``+`` new). Messages
are numbered from 1 in order of appearance in each place, and ids are replaced by names
(``@Ann``, ``#table``), so a transcript is the same on every run and readable without the fake.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fakediscord.objects import FakeMessage, FakeUser, walk_components
from fakediscord.payloads import Json

if TYPE_CHECKING:
    from fakediscord.fake import FakeDiscord

__all__ = ["Transcript", "render_data"]

_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_SNOWFLAKE = re.compile(r"\d{15,20}")


def render_data(data: Json, files: list[str]) -> list[str]:
    """Return a message version as the lines a client shows (``files``: the attached file names)."""
    lines: list[str] = []
    if data.get("content"):
        lines += str(data["content"]).splitlines()
    for emb in data.get("embeds") or []:
        for key in ("title", "description"):
            if emb.get(key):
                lines += [f"| {x}" for x in str(emb[key]).splitlines()]
        for fld in emb.get("fields") or []:
            value = str(fld.get("value") or "").splitlines() or [""]
            lines.append(f"| {fld.get('name')}: {value[0]}")
            lines += [f"|   {x}" for x in value[1:]]
        if (emb.get("image") or {}).get("url"):
            lines.append(f"| [picture: {str(emb['image']['url']).removeprefix('attachment://')}]")
        if (emb.get("footer") or {}).get("text"):
            lines.append(f"| — {emb['footer']['text']}")
    for row in data.get("components") or []:
        cells = []
        for comp in walk_components(row.get("components") or []):
            if comp.get("type") == 2:
                emoji = (comp.get("emoji") or {}).get("name") or ""
                label = " ".join(x for x in (emoji, str(comp.get("label") or "")) if x)
                cells.append(f"[{label}]" if not comp.get("disabled") else f"[{label} (disabled)]")
            elif comp.get("type") in (3, 5, 6, 7, 8):
                options = [str(o.get("label") or "") for o in comp.get("options") or []]
                shown = "; ".join(options[:3]) + (f"; … {len(options) - 3} more" if len(options) > 3 else "")
                cells.append(f"<{comp.get('placeholder') or 'menu'}: {shown}>" if options
                             else f"<{comp.get('placeholder') or 'menu'}>")
        if cells:
            lines.append(" ".join(cells))
    shown_files = {str((e.get("image") or {}).get("url") or "").removeprefix("attachment://")
                   for e in data.get("embeds") or []}
    lines += [f"[file: {name}]" for name in files if name not in shown_files]
    return lines


@dataclass
class _Entry:
    place: str  # "#table", "#table › thread", "DM Ann"
    who: int | None  # the only user who sees it (a DM's owner, an ephemeral reply's user), or None: everyone
    text: list[str]


@dataclass
class Transcript:
    """The chat log of a fake Discord session, per place and per participant."""

    fake: FakeDiscord
    entries: list[_Entry] = field(default_factory=list)
    _numbers: dict[int, int] = field(default_factory=dict)
    _counts: dict[str, int] = field(default_factory=dict)
    _last: dict[int, list[str]] = field(default_factory=dict)
    _pictures: dict[int, list[bytes]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.fake.add_message_listener(self._on_message)

    # ------------------------------------------------------------------ recording

    def _name(self, user_id: int) -> str:
        user = self.fake.users.get(user_id)
        return user.name if user is not None else "someone"

    def _place(self, channel_id: int) -> tuple[str, int | None]:
        channel = self.fake.channels[channel_id]
        if channel.is_dm:
            return f"DM {self._name(int(channel.recipient_id or 0))}", channel.recipient_id
        parent = getattr(channel, "parent_id", None)
        if parent:
            return f"#{self.fake.channels[parent].name} › {channel.name}", None
        return f"#{channel.name}", None

    def _clean(self, line: str) -> str:
        line = _MENTION.sub(lambda m: f"@{self._name(int(m[1]))}", line)
        line = _CHANNEL.sub(lambda m: self._channel_name(int(m[1])), line)
        return _SNOWFLAKE.sub("…", line)

    def _channel_name(self, channel_id: int) -> str:
        channel = self.fake.channels.get(channel_id)
        return f"#{channel.name}" if channel is not None and not channel.is_dm else "#?"

    def _on_message(self, kind: str, msg: FakeMessage) -> None:
        place, who = self._place(msg.channel_id)
        if msg.ephemeral_to is not None:
            place, who = f"{place}, only {self._name(msg.ephemeral_to)} sees", msg.ephemeral_to
        if msg.id not in self._numbers:  # numbered per place: a new DM never renumbers the channel's
            self._counts[place] = self._counts.get(place, 0) + 1
            self._numbers[msg.id] = self._counts[place]
        number = self._numbers[msg.id]
        if kind == "delete":
            self.entries.append(_Entry(place, who, [f"message {number} deleted"]))
            return
        lines = [self._clean(x) for x in render_data(msg.data, [f.filename for f in msg.files])]
        old = self._last.get(msg.id)
        self._last[msg.id] = lines
        pictures, old_pictures = [f.data for f in msg.files], self._pictures.get(msg.id)
        self._pictures[msg.id] = pictures
        if kind == "create" or old is None:
            self.entries.append(_Entry(place, who, [f"message {number}:", *(f"  {x}" for x in lines)]))
            return
        changed = [f"  {x[0]} {x[2:]}" for x in difflib.ndiff(old, lines) if x[:1] in "+-"]
        if changed:
            self.entries.append(_Entry(place, who, [f"message {number} edited:", *changed]))
        elif pictures != old_pictures:
            self.entries.append(_Entry(place, who, [f"message {number} edited: its picture is redrawn"]))
        else:
            self.entries.append(_Entry(place, who, [f"message {number} sent again unchanged"]))

    def act(self, user: FakeUser, text: str, where: FakeMessage | None = None) -> None:
        """Record what ``user`` did (``» Ann presses [Torch]``) at the place of ``where``: only
        they see it (nobody on Discord sees another's click, only what it changed)."""
        place = ""
        if where is not None:
            place, _ = self._place(where.channel_id)
            if where.ephemeral_to is not None:
                place = f"{place}, only {self._name(where.ephemeral_to)} sees"
        number = self._numbers.get(where.id) if where is not None else None
        on = f" on message {number}" if number else ""
        self.entries.append(_Entry(place, user.id, [f"» {user.name} {self._clean(text)}{on}"]))

    def note(self, text: str) -> None:
        """Record a line for every reader (what the script did that no one clicked: time passing)."""
        self.entries.append(_Entry("", None, [f"~ {text}"]))

    # ------------------------------------------------------------------ writing

    def for_place(self, place: str) -> str:
        """Return the log of one public channel (``#table``) and its threads as an onlooker sees
        them, in order; a thread's entries are tagged with its name."""
        return self._write((e for e in self.entries
                            if e.who is None and (e.place in (place, "") or e.place.startswith(f"{place} › "))),
                           tag=True, untagged=place)

    def for_user(self, user: FakeUser) -> str:
        """Return what ``user`` saw and did: public places, their DMs and private replies, in order."""
        return self._write((e for e in self.entries if e.who in (None, user.id)), tag=True)

    def for_user_private(self, user: FakeUser) -> str:
        """Return what only ``user`` saw and did: their DMs, private replies and actions, in order
        (each tagged with its place unless it is their DM); the public places are :meth:`for_place`."""
        own = f"DM {user.name}"
        return self._write((e for e in self.entries if e.who == user.id or e.place == ""), tag=True, untagged=own)

    def _write(self, entries: Iterable[_Entry], tag: bool = False, untagged: str = "") -> str:
        out: list[str] = []
        for entry in entries:
            head = f"[{entry.place}] " if tag and entry.place and entry.place != untagged else ""
            out.append(head + entry.text[0])
            out += entry.text[1:]
        return "\n".join(out) + "\n"
