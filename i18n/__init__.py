"""Every text the bot shows, in English, Finnish, Swedish and Italian: ``t(key, **values)``.

The texts live in gettext catalogues, one per language, in ``i18n/locale/``:
``en.po`` (the source, edited by hand), ``fi.po``, ``sv.po``, ``it.po`` (translations), read with
Babel (:mod:`i18n.catalogue`). **New text goes into ``locale/en.po``** as an entry whose
``msgctxt`` is the message id the code passes to :func:`t` and whose ``msgid`` is the English
``str.format`` template; then ``python -m i18n`` adds it to the other catalogues and lists
what is still untranslated (see docs/languages.md).

Which language: :func:`t` uses its ``locale`` argument when given, otherwise the language of
whoever reads the text being drawn, which the code that knows it sets with :func:`reading`
(a context variable): the hub and listener set the server's language around public messages and
the seat's language around a private prompt, and every interaction starts in its user's
language. Unknown locales read English. A missing message shows its id; a broken translation
shows the English text and logs one warning. Numbers in templates are formatted for the
language with Babel: ``{x:.1f}``, ``{x:.0%}`` and ``{x:n}`` (grouped digits) are localised.

Counted text ("1 gem", "3 gems") goes through :func:`tn`: one entry with ``msgid_plural`` and a
form per plural category of the language (Italian has three), chosen by the catalogue's
``Plural-Forms``.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import string
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from babel.dates import format_datetime
from babel.numbers import format_decimal, format_percent

from i18n.catalogue import book
from i18n.languages import BABEL_LOCALES, DEFAULT, LANGUAGES, NATIVE_NAMES, language_of

__all__ = ["LANGUAGES", "NATIVE_NAMES", "current_language", "language_of", "moment", "number", "reader_is",
           "reading", "t", "tn"]

log = logging.getLogger(__name__)

_READER: contextvars.ContextVar[str] = contextvars.ContextVar("reader_language", default=DEFAULT)
"""The language of whoever reads what is being drawn in this task (see :func:`reading`)."""

_warned: set[tuple[str, str]] = set()


@contextlib.contextmanager
def reading(locale: Any) -> Iterator[str]:
    """Draw the texts of this block for a reader of ``locale`` (any Discord locale or language)."""
    language = language_of(locale)
    token = _READER.set(language)
    try:
        yield language
    finally:
        _READER.reset(token)


def reader_is(locale: Any) -> str:
    """Draw every text of the rest of this task for a reader of ``locale`` (an interaction's
    handler runs in a task of its own, so this ends with it); return the language."""
    language = language_of(locale)
    _READER.set(language)
    return language


def current_language() -> str:
    """Return the language texts are drawn in here (English unless :func:`reading` set one)."""
    return _READER.get()


def _warn_once(language: str, key: str, message: str, *args: Any) -> None:
    if (language, key) not in _warned:
        _warned.add((language, key))
        log.warning(message, *args)


class _Formatter(string.Formatter):
    """``str.format`` with numbers written the language's way (decimal comma, grouping, percent)."""

    def __init__(self, language: str) -> None:
        self.locale = BABEL_LOCALES.get(language, "en")

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and format_spec:
            kind = format_spec[-1]
            if kind in "f%n":
                return _number(value, format_spec, self.locale)
        return str(super().format_field(value, format_spec))


def number(value: float, spec: str = "n", locale: Any = None) -> str:
    """Return ``value`` written for the reader (or ``locale``) after a ``str.format`` spec: ``.1f``,
    ``+.1f``, ``.0%`` or ``n`` (grouped digits)."""
    language = language_of(locale) if locale is not None else _READER.get()
    return _number(value, spec, BABEL_LOCALES.get(language, "en"))


def moment(when: datetime, locale: Any = None) -> str:
    """Return a date and time written for the reader (or ``locale``), in UTC, e.g. Finnish
    "3.12.2026 klo 8.18.08 UTC" (for texts read outside Discord, which has no timestamp markup)."""
    language = language_of(locale) if locale is not None else _READER.get()
    aware = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    return f"{format_datetime(aware, 'medium', tzinfo=UTC, locale=BABEL_LOCALES.get(language, 'en'))} UTC"


def _number(value: float, spec: str, locale: str) -> str:
    body = spec.lstrip("+")
    decimals = int(body[1:-1]) if body.startswith(".") and body[1:-1].isdigit() else 0
    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    if body.endswith("%"):
        text = format_percent(value, pattern + "%", locale=locale)
    else:
        text = format_decimal(value, pattern if body != "n" else None, locale=locale)
    if spec.startswith("+") and value >= 0:
        text = "+" + text
    return text


def _render(key: str, language: str, count: int | None, values: dict[str, Any]) -> str:
    template = book(language).form(key, count)
    if template is None and count is not None:  # a counted message kept as two plain entries
        template = book(language).form(f"{key}.{'one' if count == 1 else 'other'}", None)
    if template is None:
        if language != DEFAULT:
            return _render(key, DEFAULT, count, values)
        _warn_once(DEFAULT, key, "missing message %s", key)
        return key
    try:
        return _Formatter(language).format(template, **values)
    except (KeyError, IndexError, ValueError, AttributeError) as exc:
        if language != DEFAULT:
            _warn_once(language, key, "message %s in %s cannot be filled (%r); English shown", key, language, exc)
            return _render(key, DEFAULT, count, values)
        _warn_once(DEFAULT, key, "message %s lacks a value (%r): %s", key, exc, sorted(values))
        return template


def t(key: str, locale: Any = None, **values: Any) -> str:
    """Return the text of ``key`` for the reader (or ``locale``), formatted with ``values``."""
    language = language_of(locale) if locale is not None else _READER.get()
    return _render(key, language, None, values)


def tn(key: str, count: int, locale: Any = None, **values: Any) -> str:
    """Return the counted text of ``key``: the language's plural form for ``count``, formatted with
    ``count`` and ``values``."""
    language = language_of(locale) if locale is not None else _READER.get()
    return _render(key, language, count, {"count": count, **values})
