"""Helpers for the language tests: which texts belong to which language, and Discord's limits."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from fakediscord import FakeMessage
from i18n.catalogue import catalogue_path, read_catalogue
from i18n.languages import LANGUAGES

MIN_CHUNK = 14
"""A template's literal piece at least this long names its language (shorter ones, such as
"Indus" or " · ", are shared)."""


def _forms(message: Any, language: str) -> list[str]:
    raw = message.id if language == "en" else message.string
    return [f for f in (raw if isinstance(raw, (list, tuple)) else [raw]) if f]


@cache
def chunks(language: str) -> frozenset[str]:
    """The literal pieces (between placeholders) of every template of a language."""
    out = set()
    for message in read_catalogue(catalogue_path(language)):
        if not message.id or str(message.context).startswith(("cmd.", "choice.")):
            continue
        for form in _forms(message, language):
            for piece in re.split(r"\{[^{}]*\}", form):
                piece = piece.strip(" .,:;()*`\n—-…")
                if len(piece) >= MIN_CHUNK:
                    out.add(piece)
    return frozenset(out)


@cache
def _own_text(language: str) -> str:
    return "\n".join(f for m in read_catalogue(catalogue_path(language)) if m.id for f in _forms(m, language))


def foreign(text: str, language: str) -> list[str]:
    """Return the pieces of other languages' texts found in ``text`` that ``language`` lacks."""
    own = _own_text(language)
    found = []
    for other in LANGUAGES:
        if other == language:
            continue
        found += [c for c in chunks(other) if c in text and c not in own]
    return sorted(set(found))


def over_limits(message: FakeMessage) -> list[str]:
    """Return every Discord limit a message (any of its versions) breaks."""
    problems = []
    for data in [*message.history, message.data]:
        embeds = data.get("embeds") or []
        total = 0
        for embed in embeds:
            fields = embed.get("fields") or []
            parts = [embed.get("title") or "", embed.get("description") or "",
                     (embed.get("footer") or {}).get("text") or "", (embed.get("author") or {}).get("name") or ""]
            parts += [f.get("name") or "" for f in fields] + [f.get("value") or "" for f in fields]
            total += sum(len(p) for p in parts)
            problems += [f"field {f['name']!r} has {len(f['value'])} > 1024" for f in fields if len(f["value"]) > 1024]
            if len(embed.get("description") or "") > 4096:
                problems.append("description over 4096")
        if total > 6000:
            problems.append(f"embeds total {total} > 6000")
        stack = list(data.get("components") or [])
        while stack:
            comp = stack.pop()
            stack.extend(comp.get("components") or [])
            if comp.get("type") == 2 and len(comp.get("label") or "") > 80:
                problems.append(f"button label {comp['label']!r} > 80")
            for option in comp.get("options") or []:
                if len(option.get("label") or "") > 100 or len(option.get("description") or "") > 100:
                    problems.append(f"select option {option['label']!r} > 100")
            if len(comp.get("placeholder") or "") > 150:
                problems.append(f"placeholder {comp['placeholder']!r} > 150")
    return problems
