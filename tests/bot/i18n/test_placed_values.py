"""Values placed into sentences (issue 43): a bot level or a tile name stands as a word of its own
("helppo-botti pelaa", "lätt-boten spelar" were glued), a sentence still starts with a capital
whatever value opens it, and a move that took no tile is told by a sentence of its own instead of
"takes nothing" ("ottaa laatan ei mitään", "e prende niente").

Rendered through the real ``t()`` / ``tn()`` and, for Sakkara's log, through the real
``cogs.sakkara.words.event_line``."""

from __future__ import annotations

import ast
import re

import pytest

from cogs.sakkara import words
from engine.sakkara.tiles import MOTIFS
from engine.session import SeatSpec, Table
from engine.session.games import SPECS
from i18n import reading, t, tn
from i18n.catalogue import book, placeholders
from i18n.tool import ROOT, _python_files

LEVELS = ("easy", "medium", "hard")
TRANSLATED = ("fi", "sv", "it")
SAMPLE = {"name": "Aino", "names": "Aino", "game": "Incan Gold", "channel": "#pelit", "number": 2,
          "url": "https://discord.com/channels/1/2/3", "games": 3, "ahead": 1, "behind": 1, "level_with": 1}
GLUED = r"(?<![\w-]){}(?![\w-])"


def bot_level_keys() -> set[str]:
    """The ids the code fills with a bot level's name, found in the code: ``level=t(f"level.…")``, or
    ``level=level`` where a variable holds it (a Sakkara pyramid level is a number, ``level=e.get(…)``)."""
    keys = set()
    for path in _python_files(ROOT):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("t", "tn")
                    and node.args and isinstance(node.args[0], ast.Constant)
                    and any(k.arg == "level" and ("level." in ast.unparse(k.value) or ast.unparse(k.value) == "level")
                            for k in node.keywords)):
                keys.add(str(node.args[0].value))
    return keys


def unstarted(text: str) -> list[str]:
    """Return the sentences of ``text`` that start with a small letter (after any emoji or markup)."""
    starts = [m.group(1) for m in re.finditer(r"(?:^|[.!?]\s+)[^\w]*(\w+)", text)]
    return [word for word in starts if word[0].isalpha() and not word[0].isupper() and not word.startswith("http")]


def test_the_code_fills_a_bot_level_into_these_texts():
    assert {"resign.ask", "lobby.add_bot", "play.away_log", "lb.stats.vs_ai_line"} <= bot_level_keys()


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_bot_level_stands_apart_and_no_sentence_starts_small(language):
    """Rendered with the level's own word as the catalogue gives it (small: "helppo", "lätt",
    "facile"), wherever the template puts it: the text may not lean on a caller's capitalize()."""
    broken = []
    for key in sorted(bot_level_keys()):
        names = set().union(*(placeholders(s) for s in book("en").entries[key].source))
        for level in LEVELS:
            word = t(f"level.{level}", language)
            text = t(key, language, level=word, **{n: SAMPLE.get(n, "X") for n in names - {"level"}})
            if re.search(GLUED.format(re.escape(word)), text) is None or unstarted(text):
                broken.append(f"{key} [{level}]: {text}")
    assert broken == []


def table() -> Table:
    return Table(1, SPECS["sakkara"], 10, 20, 1, {}, {}, "playing", [SeatSpec("Ann", 1), SeatSpec("Bo", 2)], seed=0)


def moves(took: list[str | None]) -> dict[str, list[dict[str, object]]]:
    """Sakkara's events that take tiles, taking ``took`` (None: an empty space)."""
    first = took[0] if took else None
    return {
        "place": [{"type": "place", "seat": 0, "worker": 0, "space": 24, "took": first}],
        "bird": [{"type": "bird", "seat": 0, "worker": 0, "from": 24, "to": 10, "took": first}],
        "step": [{"type": "step", "seat": 0, "worker": 0, "dir": "N", "from": 24, "to": 17, "took": first,
                  "stairs": False}],
        "horse": [{"type": "horse", "seat": 0, "worker": 0, "dir": "N",
                   "moves": [{"from": 17 + 7 * i, "to": 10 - 7 * i, "took": m, "stairs": False}
                             for i, m in enumerate(took)]}],
        "cast": [{"type": "cast", "seat": 0, "spell": spell, "order": "moon,circle,eye", "worker": 0,
                  "took": [[sp, m] for sp, m in enumerate(took) if m], **extra}
                 for spell, extra in (("firestorm", {"line": "row"}), ("whirlwind", {}))],
    }


NOTHING = re.compile(r"\b(nothing|ei mitään|ingenting|inget|niente|nulla)\b", re.IGNORECASE)


@pytest.mark.parametrize("language", ("en", *TRANSLATED))
def test_a_move_that_took_no_tile_has_a_sentence_of_its_own(language):
    with reading(language):
        lines = [words.event_line(table(), e) for took in ([None], [None, None])
                 for events in moves(took).values() for e in events]
    assert len(set(lines)) == 7  # place, bird, step, the Horse by one and by two steps, two spells
    assert [line for line in lines if NOTHING.search(line) or unstarted(line) or "{" in line] == []


@pytest.mark.parametrize("language", ("en", *TRANSLATED))
def test_every_tile_a_move_takes_is_named_as_a_word_of_its_own(language):
    broken = []
    with reading(language):
        for motif in MOTIFS:
            name = words.motif(motif)
            for took in ([motif], [motif, None], [None, motif]):
                for kind, events in moves(took).items():
                    for e in events if took[0] == motif or kind in ("horse", "cast") else []:
                        line = words.event_line(table(), e)
                        if re.search(GLUED.format(re.escape(name)), line) is None or unstarted(line):
                            broken.append(f"{kind} {took}: {line}")
    assert broken == []


@pytest.mark.parametrize("language", ("en", *TRANSLATED))
def test_a_treasure_card_in_the_game_log_reads_right_with_one_gem_left(language):
    """The count chooses the card's noun; the gems left on the path are a value of their own and
    must not need a plural ("1 restano sul percorso")."""
    line = tn("lb.log.treasure", 9, language, each=2, left=1)
    assert "1" in line and re.search(r"\b1 (restano|stay|ligger|jäävät)\b", line) is None
