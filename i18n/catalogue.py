"""The gettext catalogues (``locale/<language>.po``), read with Babel, and the checks on them.

Every message is one .po entry: ``msgctxt`` is the message id the code uses (``"lobby.join"``),
``msgid`` the English text (a counted message also has ``msgid_plural``), ``msgstr`` the
translation (``msgstr[0..n]`` for a counted one, as many forms as the language's
``Plural-Forms`` header says). ``en.po`` is the source: its ``msgstr`` stay empty. Templates are
``str.format`` templates; :func:`placeholders` names their fields.

A broken entry (a placeholder the English text lacks, one it misses, unbalanced braces, the wrong
number of plural forms) never reaches a player: it is dropped when the catalogue is read, the
English text is shown instead, and one warning is logged. The tests fail on it
(``tests/bot/i18n``), and so does ``python -m i18n``.
"""

from __future__ import annotations

import gettext
import logging
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from i18n.languages import DEFAULT, LANGUAGES

__all__ = ["FOLDER", "Book", "Entry", "book", "catalogue_path", "placeholders", "problems", "read_catalogue"]

log = logging.getLogger(__name__)

FOLDER = Path(__file__).parent / "locale"
"""The one folder of locale files: ``<language>.po`` per language, plus a glossary per language."""


@dataclass(frozen=True)
class Entry:
    """One message: its English source and, per form, its text in this catalogue's language."""

    key: str
    source: tuple[str, ...]  # the English text: one form, or (singular, plural)
    forms: tuple[str, ...]  # the text in this language (empty: not translated)
    fuzzy: bool = False


@dataclass
class Book:
    """A language's messages by id, with its plural rule (from the catalogue's Plural-Forms)."""

    language: str
    entries: dict[str, Entry] = field(default_factory=dict)
    plural: Callable[[int], int] = field(default=lambda n: int(n != 1))

    def form(self, key: str, count: int | None) -> str | None:
        """Return the usable text of ``key`` (the form for ``count`` when counted), or None."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        texts = entry.source if self.language == DEFAULT else entry.forms
        if not texts:
            return None
        if count is None or len(texts) == 1:
            return texts[0]
        index = self.plural(count) if self.language != DEFAULT else int(count != 1)
        return texts[min(index, len(texts) - 1)]


def catalogue_path(language: str) -> Path:
    """Return the .po file of a language."""
    return FOLDER / f"{language}.po"


def read_catalogue(path: Path) -> Catalog:
    """Parse one .po file with Babel."""
    with path.open("rb") as handle:
        return read_po(handle, abort_invalid=False)


def placeholders(template: str) -> frozenset[str]:
    """Return the field names of a ``str.format`` template; ValueError when it is malformed."""
    names = set()
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is not None:
            if not name or name.isdigit():
                raise ValueError("positional placeholder")
            names.add(name.split(".")[0].split("[")[0])
            if spec and "{" in spec:
                raise ValueError("nested placeholder")
    return frozenset(names)


def problems(entry: Entry, num_plurals: int) -> list[str]:
    """Return what is wrong with a translated entry (empty when it may be shown)."""
    if not entry.forms or not any(entry.forms):
        return ["not translated"]
    if entry.fuzzy:
        return ["fuzzy (the English text changed since it was translated)"]
    out = []
    if len(entry.source) > 1 and len(entry.forms) != num_plurals:
        out.append(f"{len(entry.forms)} plural forms, the language has {num_plurals}")
    try:
        english = frozenset().union(*(placeholders(s) for s in entry.source))
    except ValueError as exc:
        return [f"the English text is malformed: {exc}"]
    for number, form in enumerate(entry.forms):
        if not form:
            out.append(f"plural form {number} is empty")
            continue
        try:
            names = placeholders(form)
        except ValueError as exc:
            out.append(f"malformed template: {exc}")
            continue
        if names != english:
            extra, missing = sorted(names - english), sorted(english - names)
            out.append("placeholders differ from English" + (f"; unknown {extra}" if extra else "")
                       + (f"; missing {missing}" if missing else ""))
    return out


def _entries(catalog: Catalog) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for message in catalog:
        if not message.id or not message.context:
            continue  # the header
        source = tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)
        raw = message.string
        forms = tuple(raw) if isinstance(raw, (list, tuple)) else ((raw,) if raw else ())
        out[message.context] = Entry(message.context, source, tuple(f or "" for f in forms), message.fuzzy)
    return out


@cache
def book(language: str) -> Book:
    """Return a language's messages, read once; broken translations are dropped with a warning."""
    path = catalogue_path(language)
    if language not in LANGUAGES or not path.exists():
        return book(DEFAULT) if language != DEFAULT else Book(DEFAULT)
    catalog = read_catalogue(path)
    entries = _entries(catalog)
    result = Book(language, entries, gettext.c2py(catalog.plural_expr) if catalog.plural_expr else
                  (lambda n: int(n != 1)))
    if language == DEFAULT:
        for key, entry in entries.items():
            try:
                for text in entry.source:
                    placeholders(text)
            except ValueError as exc:
                log.warning("catalogue en: %s is malformed (%s); its id is shown instead", key, exc)
                del result.entries[key]
        return result
    english = book(DEFAULT).entries
    for key, entry in list(entries.items()):
        wrong = problems(entry, catalog.num_plurals)
        if key not in english:
            del result.entries[key]  # obsolete: the English text is gone
        elif entry.source != english[key].source and not wrong:
            # Translated from an older English text: shown anyway would say something else.
            log.warning("catalogue %s: %s was translated from an older English text; English shown", language, key)
            del result.entries[key]
        elif wrong:
            if wrong != ["not translated"]:
                log.warning("catalogue %s: %s is broken (%s); English shown", language, key, "; ".join(wrong))
            del result.entries[key]
    return result
