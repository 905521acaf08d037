"""Counted texts (issue 43: "**1** peliä · 1 voittoa", "1 pistettä", "1 gemma rimaste"): every text
given a count goes through ``tn()`` (plural forms), and every counted text (each ``msgid_plural``
entry) renders with 0, 1, 2 and 5 in every language, without a warning or a fallback, showing its
number wherever its English form does."""

from __future__ import annotations

import ast
import logging
import re

import pytest

from i18n import tn
from i18n.catalogue import book, catalogue_path, placeholders, read_catalogue
from i18n.languages import LANGUAGES
from i18n.tool import ROOT, _python_files

COUNTS = (0, 1, 2, 5)
FILLER = 7  # every other placeholder: a number none of COUNTS is part of


def counted() -> list[tuple[str, tuple[str, str]]]:
    """Return (id, (singular, plural)) of every counted English entry."""
    return [(str(m.context), (m.id[0], m.id[1])) for m in read_catalogue(catalogue_path("en"))
            if m.context and isinstance(m.id, (list, tuple))]


def test_no_text_is_given_a_count_without_its_plural_forms():
    """A number next to a word needs the word's form for that number: ``t(key, count=n)`` is wrong."""
    wrong = []
    for path in _python_files(ROOT):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("t", "tr")
                    and any(k.arg == "count" for k in node.keywords)):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert wrong == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_counted_text_renders_with_its_number(language, caplog):
    caplog.set_level(logging.WARNING, logger="i18n")
    assert len(counted()) > 20
    broken = []
    for key, forms in counted():
        names = set().union(*(placeholders(form) for form in forms)) - {"count"}
        for count in COUNTS:
            text = tn(key, count, language, **dict.fromkeys(names, FILLER))
            # A list's count only chooses its noun ("the artifact A1"): no number to show then.
            shown = "count" in placeholders(forms[0] if count == 1 else forms[1])
            if text == key or (shown and re.search(rf"(?<!\d){count}(?!\d)", text) is None):
                broken.append(f"{key} [{count}]: {text}")
        if language != "en":
            assert book(language).entries[key].forms, f"{key} is not translated into {language}"
    assert broken == [], "\n".join(broken)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_word_is_built_by_gluing_a_value_to_it(language):
    """A value glued to a word ("{level}-botti": "helppo-botti pelaa") cannot agree with it nor
    start a sentence in capitals, and an ending glued to a value ("{name}s ställ": "Bot 1 (lätt)s
    ställ") breaks on a name that ends in s or in a bracket: the word and the value stand apart."""
    glued = [m.context for m in read_catalogue(catalogue_path(language)) if m.context
             for text in ([m.string] if isinstance(m.string, str) else list(m.string)) + [str(m.id)]
             if re.search(r"\}-\w|\w-\{|\}:?[^\W\d_]", text or "")]
    assert glued == []
