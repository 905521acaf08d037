"""The customer's words (issue 43): each catalogue names the games' things with the words of the
seeds (the original rules in each language), as its glossary-<language>.md says; the Italian texts
address a player without a gender; the Swedish leaderboard says "all time" as Swedish does.

The words to keep out are read from the glossaries' "Not these words" tables, so a word found
drifting later is forbidden by adding a row there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from incan_kit import start_bot

from i18n import t, tn
from i18n.catalogue import FOLDER, book

DRIFT_LANGUAGES = ("fi", "sv", "it")


def avoided(language: str) -> dict[str, str]:
    """Return the glossary's "Not these words": {pattern: the word to use}; ``*`` is any ending."""
    text = (Path(FOLDER) / f"glossary-{language}.md").read_text(encoding="utf-8")
    table = text.split("## Not these words", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith(("| not", "|---"))]
    out = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        for word in cells[0].replace("\\*", "*").split(","):
            word = word.strip()
            ending = r"\w*" if word.endswith("*") else r"(?![\w-])"
            out[rf"(?<![\w-]){re.escape(word.rstrip('*'))}{ending}"] = cells[1]
    return out


def texts(language: str) -> dict[str, str]:
    """Every shown text of a catalogue (the rules too), its forms joined."""
    return {key: " | ".join(entry.forms) for key, entry in book(language).entries.items()}


@pytest.mark.parametrize("language", DRIFT_LANGUAGES)
def test_no_text_uses_a_word_the_glossary_rules_out(language):
    rules = avoided(language)
    assert len(rules) >= 3, "the glossary lost its table of words not to use"
    found = [f"{key}: {m.group(0)!r} (use {rules[pattern]!r})" for key, text in texts(language).items()
             for pattern in rules for m in [re.search(pattern, text, re.IGNORECASE)] if m]
    assert found == []


# The seeds' words where the texts name the games' things (the positive half of the glossaries).
SEED_WORDS = {
    "fi": {"incan.round_title": "tutkimusmatka", "incan.path_gems": "käytävällä", "incan.gems": "jalokivi",
           "boards.incan_chart_axis": "tutkimusmatka", "incan.waits_for_you": "Tutkimusmatka",
           "sakkara.m.double_line": "Kaksoisviiva", "help.level.incan_gold.medium": "käytävällä"},
    "sv": {"incan.round_title": "tempel", "incan.path_gems": "Juveler", "incan.card_artifact": "relik",
           "boards.incan_chart_axis": "tempel", "incan.waits_for_you": "Templet",
           "help.game.incan_gold": "juvelerna", "help.level.incan_gold.medium": "gången",
           "lb.period.all": "genom tiderna"},
    "it": {"help.game.indus": "pedine", "help.turn.indus": "pedine", "indus.move_placeholder": "Pedina",
           "help.level.incan_gold.medium": "percorso", "indus.status_place": "si lancia il dado"},
}


@pytest.mark.parametrize("language", DRIFT_LANGUAGES)
def test_the_texts_use_the_seeds_words(language):
    missing = {key: word for key, word in SEED_WORDS[language].items() if word not in texts(language)[key]}
    assert missing == {}


GENDERED = re.compile(
    r"\b(?:sei|è|sono|siete|ti sei|si è|si sono|vieni|vengono)\s+(?:già\s+|di nuovo\s+|più\s+)?"
    r"(?:tornat|sedut|ritirat|menzionat|avvisat)[oaie]\b"
    r"|\b(?:ben)?tornat[oaie]\b|\bbenvenut[oaie]\b|\bsedut[oaie]\b|\bmenzionat[oaie]\b"
    r"|\bvincitor[ei]\b|\bcampion[ie]\b|\bti classifichi ultim[oa]\b", re.IGNORECASE)


def test_no_italian_text_gives_a_player_a_gender():
    """"Sei tornato", "bentornato", "{names} è tornato", "seduto", "vincitore": a player may be
    anyone (glossary-it.md, "Players are addressed without a gender")."""
    found = {key: GENDERED.findall(text) for key, entry in book("it").entries.items()
             for text in ["\n".join(entry.forms)] if GENDERED.search(text)}
    assert found == {}
    assert tn("incan.you_camped", 1, "it", artifacts="", banked=4).startswith("🏕️ Hai riportato al campo **1**")
    assert "Rientro al campo" in t("lb.log.camp", "it", homes="Ann +3", left=1, artifacts="")


async def test_the_swedish_leaderboard_is_of_all_time_not_of_constantly(fake, table, store, clock):
    """"hela tiden" means "constantly"; a leaderboard of all time is "genom tiderna"."""
    fake.guild_locale = "sv"
    bot = await start_bot(fake, store, clock)
    answer = await fake.slash(fake.user("Sven", locale="sv-SE"), table, "leaderboard", {})
    board = answer.replies[-1]
    title = board.embeds[0]["title"]
    assert title.startswith("Topplista — ") and title.endswith("(genom tiderna)")
    assert "hela tiden" not in board.render()
    await fake.stop(bot)


def test_the_finnish_card_prompt_speaks_to_the_player_as_sina():
    """The prompt of every card asked "Eteneekö … vai palaatko": half third person, half second
    (glossary-fi.md: the player is "sinä" throughout)."""
    assert t("incan.you_ask", "fi") == "**Etenetkö** syvemmälle vai **palaatko** leiriin?"
    assert [key for key, text in texts("fi").items() if "eteneekö" in text.lower()] == []
