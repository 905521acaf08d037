"""``python -m i18n``: extract the message ids the code uses, update the translations, report.

1. Reads every ``t(...)``/``tn(...)``/``tr(...)`` call in the bot's code (``cogs/``, ``pictures/``, ``bot.py``)
   and lists the ids that have no English text in ``locale/en.po`` (an error: the bot would show
   the id) and the English entries nothing seems to use (a hint; ids built at run time such as
   ``f"incan.hz.{name}"`` count as used by their prefix).
2. Merges ``en.po`` into every other catalogue, by id: a new id is added untranslated, an id whose
   English text changed keeps its translation marked fuzzy (with the old English as
   ``#| msgid``), an id gone from English is removed. ``--check`` only reports.
3. Reports per language what is untranslated, fuzzy or broken (placeholders differing from the
   English text, malformed templates, wrong number of plural forms).

The exit status is 1 when anything is missing or broken, so the command can guard a commit.
``--add xx`` starts a catalogue for a new language (see docs/languages.md).
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po

from i18n.catalogue import FOLDER, Entry, catalogue_path, problems, read_catalogue
from i18n.languages import DEFAULT, LANGUAGES

__all__ = ["extract", "main", "merge", "report"]

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("cogs", "pictures", "bot.py")
CALLS = {"t", "tn", "tr", "tnr"}
VOLATILE = ('"POT-Creation-Date', '"PO-Revision-Date', '"Report-Msgid-Bugs-To', '"Last-Translator',
            '"Language-Team', '"Generated-By', '"Project-Id-Version')
HEADER = """\
# Temple Table: the {name} texts ({language}). Kept in step with en.po by `python -m i18n`:
# translate the msgstr lines; an entry marked fuzzy was translated from an older English text
# (shown after #| msgid) and is not used until it is checked and the fuzzy mark removed.
# The words of the games are in glossary-{language}.md beside this file.
#"""


def _python_files(root: Path) -> Iterable[Path]:
    for source in SOURCES:
        path = root / source
        yield from ([path] if path.is_file() else sorted(path.rglob("*.py")))


def extract(root: Path = ROOT) -> tuple[dict[str, list[str]], set[str], set[str]]:
    """Return the literal ids passed to the text functions (with where), the prefixes of ids
    built at run time, and every other string constant of the code (ids kept in tables)."""
    literal: dict[str, list[str]] = {}
    prefixes: set[str] = set()
    constants: set[str] = set()
    for path in _python_files(root):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        where = str(path.relative_to(root))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                constants.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                prefixes.add(str(node.values[0].value))
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            first = node.args[0]
            if name in CALLS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                literal.setdefault(first.value, []).append(f"{where}:{node.lineno}")
    return literal, prefixes, constants


def _entry(message: Message) -> Entry:
    source = tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)
    raw = message.string
    forms = tuple(raw) if isinstance(raw, (list, tuple)) else ((raw,) if raw else ())
    return Entry(str(message.context), source, tuple(f or "" for f in forms), message.fuzzy)


def merge(english: Catalog, old: Catalog) -> Catalog:
    """Return ``old`` brought up to date with ``english``, matching entries by id (msgctxt)."""
    language = str(old.locale)
    new = Catalog(locale=old.locale, project="Temple Table", fuzzy=False, header_comment=HEADER.format(
        name=old.locale.english_name if old.locale else language, language=language))
    by_key = {m.context: m for m in old if m.id and m.context}
    for source in english:
        if not source.id or not source.context:
            continue
        previous = by_key.get(source.context)
        flags = set(source.flags) - {"fuzzy"}
        if previous is None:
            string: str | tuple[str, ...] = ("",) * new.num_plurals if source.pluralizable else ""
            new.add(source.id, string, context=source.context, flags=flags, auto_comments=source.auto_comments)
            continue
        fuzzy = previous.fuzzy or previous.id != source.id
        raw = previous.string or ""
        forms = list(raw) if isinstance(raw, (list, tuple)) else [raw]
        if source.pluralizable and len(forms) != new.num_plurals:
            forms, fuzzy = (forms + [forms[-1]] * new.num_plurals)[:new.num_plurals], True
        elif not source.pluralizable and len(forms) > 1:
            forms, fuzzy = forms[:1], True
        if not any(forms):
            fuzzy = False  # nothing translated yet: plainly missing, not fuzzy
        old_id = list(previous.previous_id) or (
            ([previous.id] if isinstance(previous.id, str) else list(previous.id)) if previous.id != source.id else [])
        text: str | tuple[str, ...] = tuple(forms) if source.pluralizable else forms[0]
        new.add(source.id, text, context=source.context, flags=flags | ({"fuzzy"} if fuzzy else set()),
                auto_comments=source.auto_comments, user_comments=previous.user_comments,
                previous_id=old_id if fuzzy else ())
    return new


def write(catalog: Catalog, path: Path) -> None:
    """Write a catalogue without wrapping lines (translators grep and edit it by hand too) and
    without the header fields that change on every run (they would only make merge conflicts)."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, omit_header=False, include_previous=True)
    lines = buffer.getvalue().decode("utf-8").split("\n")
    kept = [line for line in lines if not line.startswith(VOLATILE)]
    path.write_text("\n".join(kept), encoding="utf-8")


def report(language: str, catalog: Catalog) -> list[str]:
    """Return the report lines of a translated catalogue (empty when complete)."""
    lines, untranslated = [], []
    for message in catalog:
        if not message.id or not message.context:
            continue
        wrong = problems(_entry(message), catalog.num_plurals)
        if wrong == ["not translated"]:
            untranslated.append(str(message.context))
        elif wrong:
            lines.append(f"  {language} {message.context}: {'; '.join(wrong)}")
    if untranslated:
        lines.append(f"  {language} not translated: {', '.join(untranslated)}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Run the extraction, the merge and the report; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m i18n", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report; change no file")
    parser.add_argument("--add", metavar="LANG", help="start the catalogue of a new language (e.g. de)")
    args = parser.parse_args(argv)
    english = read_catalogue(catalogue_path(DEFAULT))
    known = {m.context for m in english if m.id and m.context}
    literal, prefixes, constants = extract()
    status = 0
    missing = sorted(set(literal) - known)
    for key in missing:
        print(f"no English text for {key!r} (used at {', '.join(literal[key])}): add it to locale/en.po")
        status = 1
    unused = sorted(k for k in known - set(literal) - constants if not k.startswith(("cmd.", "choice."))
                    and not any(k.startswith(p) for p in prefixes if p.count(".")))
    for key in unused:
        print(f"hint: {key!r} in en.po looks unused")
    languages = [lang for lang in LANGUAGES if lang != DEFAULT]
    if args.add:
        if catalogue_path(args.add).exists():
            print(f"{catalogue_path(args.add)} exists already")
            return 1
        write(Catalog(locale=args.add, project="Temple Table", fuzzy=False), catalogue_path(args.add))
        languages.append(args.add)
    for language in languages:
        path = catalogue_path(language)
        old = read_catalogue(path) if path.exists() else Catalog(locale=language, project="Temple Table")
        new = merge(english, old)
        if not args.check:
            write(new, path)
        lines = report(language, new)
        todo = sum(1 for m in new if m.id and m.context and problems(_entry(m), new.num_plurals))
        print(f"{language}: {len(known) - todo} of {len(known)} messages translated" + (":" if lines else ""))
        if lines:
            print("\n".join(lines))
        status = status or (1 if lines else 0)
    print(f"catalogues in {FOLDER.relative_to(ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
