"""The catalogues: every id the code uses has English text, the translations are in step with the
English and have its placeholders, and a broken or missing entry never breaks the bot."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

import i18n
from i18n import catalogue, language_of, number, reading, t, tn
from i18n.catalogue import Entry, book, catalogue_path, placeholders, problems, read_catalogue
from i18n.languages import LANGUAGES
from i18n.tool import extract, merge, write

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def _ids(path: Path) -> list[str]:
    return [str(m.context) for m in read_catalogue(path) if m.id and m.context]


def test_every_id_the_code_uses_has_english_text():
    literal, _, _ = extract()
    english = set(_ids(catalogue_path("en")))
    assert literal, "the extraction found no t() call at all"
    missing = {key: where for key, where in literal.items() if key not in english}
    assert missing == {}


def test_english_ids_are_unique_and_templates_well_formed():
    ids = _ids(catalogue_path("en"))
    assert len(ids) == len(set(ids))
    for message in read_catalogue(catalogue_path("en")):
        if message.id:
            for text in message.id if isinstance(message.id, (list, tuple)) else [message.id]:
                placeholders(text)  # raises on unbalanced braces or positional fields


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalogue_has_every_id_in_english_order(language):
    assert _ids(catalogue_path(language)) == _ids(catalogue_path("en")), (
        f"{language}.po is not in step with en.po: run `python -m i18n`")


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_have_the_english_placeholders(language):
    catalog = read_catalogue(catalogue_path(language))
    english = {str(m.context): m.id for m in read_catalogue(catalogue_path("en")) if m.id}
    broken = {}
    for message in catalog:
        if not message.id:
            continue
        assert message.id == english[str(message.context)] or message.fuzzy, message.context
        entry = Entry(str(message.context), tuple(message.id) if isinstance(message.id, (list, tuple))
                      else (message.id,), tuple(message.string) if isinstance(message.string, (list, tuple))
                      else ((message.string,) if message.string else ()), message.fuzzy)
        wrong = [p for p in problems(entry, catalog.num_plurals) if p != "not translated"]
        if wrong:
            broken[entry.key] = wrong
    assert broken == {}


def test_plural_forms_follow_each_language():
    assert catalogue.book("it").plural(1) == 0
    assert catalogue.book("it").plural(1_000_000) == 1
    assert catalogue.book("it").plural(3) == 2
    for language in ("en", "fi", "sv"):
        assert [book(language).plural(n) for n in (0, 1, 2, 5)] == [1, 0, 1, 1]
    assert tn("incan.gems", 1) == "1 gem"
    assert tn("incan.gems", 0) == "0 gems"


def test_locales_map_to_languages_and_unknown_ones_read_english():
    assert language_of("sv-SE") == "sv"
    assert language_of("fi") == "fi"
    assert language_of("it") == "it"
    assert language_of("en-GB") == "en"
    assert language_of("pl") == "en"
    assert language_of(None) == "en"
    assert language_of("") == "en"
    assert t("lobby.join", "pl") == t("lobby.join", "en") == "Join"


def test_reading_sets_the_language_for_the_block_only():
    with reading("fi") as language:
        assert language == "fi"
        assert i18n.current_language() == "fi"
        with reading("sv-SE"):
            assert i18n.current_language() == "sv"
        assert i18n.current_language() == "fi"
    assert i18n.current_language() == "en"


def test_numbers_are_written_the_languages_way():
    assert number(1234.5, ".1f", "fi") == "1\xa0234,5"
    assert number(1234.5, ".1f", "it") == "1.234,5"
    assert number(1234.5, ".1f", "en") == "1,234.5"
    assert number(0.5, ".0%", "en") == "50%"
    assert number(2.25, "+.1f", "sv") == "+2,2"
    with reading("it"):
        assert number(12.34, ".1f") == "12,3"
    assert t("lb.stats.rating", rating=12.34, mu=3.0, sigma=1.25) == "Rating **12.3** (skill 3.0 ± 1.2)"


def test_a_missing_id_shows_the_id_and_warns_once(caplog):
    with caplog.at_level(logging.WARNING, logger="i18n"):
        assert t("no.such.message") == "no.such.message"
        assert t("no.such.message") == "no.such.message"
    assert len([r for r in caplog.records if "no.such.message" in r.getMessage()]) == 1


def test_a_missing_value_shows_the_template_not_an_error(caplog):
    with caplog.at_level(logging.WARNING, logger="i18n"):
        assert t("lobby.seats", count=1) == "Seats ({count}/{max})"


def _write(path: Path, language: str, entries: dict[str, str]) -> None:
    english = read_catalogue(catalogue_path("en"))
    catalog = merge(english, Catalog(locale=language))
    for key, text in entries.items():
        message = next(m for m in catalog if m.context == key)
        message.string = text
    write(catalog, path)


def test_a_broken_translation_shows_english_and_warns_once(tmp_path, monkeypatch, caplog):
    import shutil

    shutil.copy(catalogue_path("en"), tmp_path / "en.po")
    _write(tmp_path / "fi.po", "fi", {"lobby.join": "Liity", "lobby.seats": "Paikat ({count}/{maximi})",
                                      "lobby.title": "{game — pöytä"})
    monkeypatch.setattr(catalogue, "FOLDER", tmp_path)
    book.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="i18n"):
            assert t("lobby.join", "fi") == "Liity"
            assert t("lobby.seats", "fi", count=2, max=8) == "Seats (2/8)"
            assert t("lobby.title", "fi", game="Indus") == "Indus — table open"
            assert t("lobby.seats", "fi", count=2, max=8) == "Seats (2/8)"
        warned = [r.getMessage() for r in caplog.records]
        assert len([w for w in warned if "lobby.seats" in w]) == 1
        assert len([w for w in warned if "lobby.title" in w]) == 1
    finally:
        book.cache_clear()


def test_a_stale_translation_is_not_shown(tmp_path, monkeypatch):
    import shutil

    shutil.copy(catalogue_path("en"), tmp_path / "en.po")
    _write(tmp_path / "fi.po", "fi", {"lobby.join": "Liity"})
    text = (tmp_path / "en.po").read_text(encoding="utf-8").replace('msgid "Join"', 'msgid "Sit down"')
    (tmp_path / "en.po").write_text(text, encoding="utf-8")
    monkeypatch.setattr(catalogue, "FOLDER", tmp_path)
    book.cache_clear()
    try:
        assert t("lobby.join", "fi") == "Sit down"  # the Finnish was made for "Join"
        merged = merge(read_catalogue(tmp_path / "en.po"), read_catalogue(tmp_path / "fi.po"))
        message = next(m for m in merged if m.context == "lobby.join")
        assert message.fuzzy and message.string == "Liity" and message.previous_id == ["Join"]
    finally:
        book.cache_clear()


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_shipped_catalogue_falls_back_to_english(language):
    """Every English id has a usable translation (not missing, not fuzzy, not broken): from here on
    a new text lands in all four catalogues at once (docs/languages.md)."""
    english = book("en").entries
    translated = book(language).entries
    assert sorted(set(english) - set(translated)) == []
    for key, entry in english.items():
        if len(entry.source) > 1:
            assert all(translated[key].forms), key


def test_every_catalogue_is_a_well_formed_po_file():
    """Babel only warns about a malformed entry (a msgid without msgstr) and reads on; refuse it here."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    from i18n.catalogue import FOLDER

    for path in sorted(Path(FOLDER).glob("*.po")):
        with path.open("rb") as handle:
            read_po(handle, abort_invalid=True)
