"""``/<game> rules`` says the same in every language, and what the binding rules and the engine say.

Issue 43: the rules texts had drifted apart per language (only the Finnish Sakkara rules gave the
spell recipes and the stack limit, only the Swedish Incan Gold rules the relic values). Every
language now has the same sections; every number of an English section is in each translation
of it (and no other); the key facts are checked in every language against the engine's data
(which follows shared/rules/*.md), or, where the engine keeps no such table, against the rule
file's numbers; and the answer through the fake Discord is private and within Discord's limits.
"""

from __future__ import annotations

import re
from collections import Counter

import discord
import pytest
from incan_kit import start_bot
from lang_kit import foreign, over_limits

from cogs.incan_gold.cog import RULES as INCAN_RULES
from cogs.indus.cog import RULES as INDUS_RULES
from cogs.sakkara.cog import RULES as SAKKARA_RULES
from cogs.table.messages.rulebook import EMBEDS_PER_MESSAGE, MESSAGE_LIMIT, pack
from engine.incan_gold import editions as ed
from engine.indus.layout import SIZE as INDUS_SIZE
from engine.indus.layout import formula_values
from engine.indus.rules import SPACES as INDUS_SPACES
from engine.sakkara import rules as sakkara_rules
from engine.sakkara import tiles
from i18n import t
from i18n.catalogue import book

LANGUAGES = ("en", "fi", "sv", "it")
TRANSLATIONS = ("fi", "sv", "it")
GAMES = {"incan": INCAN_RULES, "sakkara": SAKKARA_RULES, "indus": INDUS_RULES}
LOCALES = {"en": "en-US", "fi": "fi", "sv": "sv-SE", "it": "it"}


def template(key: str, language: str) -> str:
    """Return the catalogue's text of ``key`` in ``language`` (None-safe: a missing one fails the caller)."""
    text = book(language).form(key, None)
    assert text is not None, f"{language}: {key} is missing, untranslated or fuzzy"
    return text


def numbers(text: str) -> list[int]:
    """Return the numbers written in digits in ``text``, in order (placeholders left out)."""
    return [int(n) for n in re.findall(r"\d+", re.sub(r"\{[^{}]*\}", "", text))]


def has_run(text: str, run: list[int]) -> bool:
    """Return True when ``run`` is written in ``text`` as consecutive numbers (whatever the words between)."""
    found = numbers(text)
    return any(found[i:i + len(run)] == run for i in range(len(found) - len(run) + 1))


def rules_text(game: str, language: str) -> str:
    return "\n".join(template(key, language) for key in GAMES[game])


def section(game: str, language: str, number: int) -> str:
    return template(GAMES[game][number - 1], language)


@pytest.mark.parametrize("game", GAMES)
def test_every_language_has_every_section_translated(game):
    for key in GAMES[game]:
        for language in LANGUAGES:
            template(f"{key}_title", language)
            template(key, language)
    assert f"{GAMES[game][-1]}_title" in book("en").entries  # the last section (the bot levels) is listed
    assert f"{game}.rules{len(GAMES[game]) + 1}" not in book("en").entries  # and none is left out


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("game", GAMES)
def test_every_number_of_a_section_is_in_its_translation_and_no_other(game, language):
    for key in GAMES[game]:
        english, translated = Counter(numbers(template(key, "en"))), Counter(numbers(template(key, language)))
        assert english - translated == Counter(), f"{key}: {language} lacks {dict(english - translated)}"
        assert set(translated) <= set(english), f"{key}: {language} adds {set(translated) - set(english)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_incan_gold_rules_give_the_deck_the_hazards_and_every_artifact_scoring(language):
    text = rules_text("incan", language)
    assert has_run(section("incan", language, 1), [ed.ROUNDS])  # 5 expeditions
    assert has_run(section("incan", language, 2), [len(ed.TREASURES), *ed.TREASURES])
    assert has_run(section("incan", language, 2), [len(ed.TREASURES), len(ed.INCAN_HAZARDS), ed.HAZARD_COPIES])
    for hazard in {*ed.INCAN_HAZARDS, *ed.DIAMANT_HAZARDS}:
        assert t(f"incan.hz.{hazard}", language).lower() in text.lower(), hazard
    # The worked examples of seeds 000 and 002: 9 shared by 4, 7 on the path shared by 2 or taken by 1.
    assert has_run(section("incan", language, 3), [9, 4, 2, 1, 7, 2, 3, 1, 1, 7])
    scoring = section("incan", language, 6)
    claimed_cheap = sum(ed.artifact_value("claim-order", 1, 1, before) == 5 for before in range(5))
    assert has_run(scoring, [claimed_cheap, ed.artifact_value("claim-order", 1, 1, 0),
                             ed.artifact_value("claim-order", 1, 1, claimed_cheap)])  # first 3 worth 5, later 10
    assert has_run(scoring, [1, 3, ed.artifact_value("entry-order", 3, 1, 0),
                             4, 5, ed.artifact_value("entry-order", 4, 4, 0)])  # rounds 1-3 worth 5, 4-5 worth 10
    values = [ed.artifact_value("printed", r, r, 0) for r in range(1, ed.ROUNDS + 1)]
    assert values == [ed.artifact_value("pickup-round", 1, r, 0) for r in range(1, ed.ROUNDS + 1)]
    found = numbers(scoring)
    runs = [i for i in range(len(found)) if found[i:i + 10] == [1, 2, 3, 4, 5, *values]]
    assert len(runs) == 2  # printed and pickup-round: 1, 2, 3, 4, 5 -> 5, 7, 8, 10, 12
    editions = section("incan", language, 7)
    factors = [int(d) for f in ed.TEMPLE_TREASURE_FACTOR for d in re.findall(r"\d+", f"{f:g}")]
    assert has_run(editions, factors)  # ×1, ×1.5, ×2, ×2.5, ×3
    assert has_run(editions, list(ed.TEMPLE_HAZARD_COPIES))  # 2, 2, 3, 3, 4 cards of each hazard


@pytest.mark.parametrize("language", LANGUAGES)
def test_sakkara_rules_give_the_tiles_the_spell_recipes_and_the_limits(language):
    text = rules_text("sakkara", language).lower()
    assert has_run(section("sakkara", language, 1), [tiles.BOARD_SIDE, tiles.BOARD_SIDE, tiles.SPACES,
                                                     tiles.TOTAL_TILES, len(tiles.MOTIFS)])
    for tile in tiles.TILES:
        assert f"{t(f'sakkara.m.{tile.motif}', language)} {tile.count}".lower() in text, tile.motif
    for spell in tiles.SPELLS:
        recipe = " + ".join(t(f"sakkara.m.{motif}", language) for motif in spell.recipe)
        assert f"**{t(f'boards.sakkara.spell.{spell.name}', language)}** = {recipe}".lower() in text, spell.name
    assert has_run(section("sakkara", language, 3), [2, tiles.RACK_LIMIT])  # climb at most 2; rack at most 10
    # Level 1: 9 tiles = 4 corners with 1 hand each, 2 stairs, 3 glyphs; level 2: 4 glyphs; the apex with 2 hands.
    slots = {group: (count, hands) for group, count, hands in tiles.LEVEL_SLOTS}
    assert has_run(section("sakkara", language, 4), [1, 9, *slots[("corner_stone",)], slots[("stairs",)][0],
                                                     slots[("moon", "circle", "double_line")][0]])
    assert has_run(section("sakkara", language, 4), [3, slots[("apex",)][1]])
    # The used-tile stack (rules/sakkara.md, answer 10): <= 5 one piece, 6-9 may split (>= 3), >= 10 must (3-9).
    assert has_run(section("sakkara", language, 7), [5, 6, 9, 3, 10, 3, 9])
    assert has_run(section("sakkara", language, 8), [sakkara_rules.MAX_TURNS, 3])


@pytest.mark.parametrize("language", LANGUAGES)
def test_indus_rules_give_the_pieces_the_prisoners_and_the_ruin_values(language):
    idea = section("indus", language, 1)
    assert has_run(idea, [INDUS_SIZE, INDUS_SIZE]) and len(INDUS_SPACES) in numbers(idea)
    # rules/indus.md §4.1: per player count, colours each, then Professors / Assistants / Workers and start pieces.
    assert has_run(idea, [4, 1, 2, 4, 6, 1, 1])
    assert has_run(idea, [3, 1, 3, 5, 8, 1, 2])
    assert has_run(idea, [2, 2, 2, 4, 6, 1, 1])
    prisoners = ", ".join(f"{t(f'indus.rank_{rank}', language)} {value}"
                          for rank, value in (("W", 1), ("A", 2), ("P", 3)))
    assert prisoners in section("indus", language, 3)
    # The values the bot's boards use (rules/indus.md §9.4): building 2n + 2 / n + 1, tomb 2n, others n, at most 12.
    assert all(formula_values("B", n) == (2 * n + 2, n + 1) and formula_values("T", n) == (2 * n, 0)
               and formula_values("C", n) == (n, 0) for n in range(1, 6))
    assert formula_values("T", 7)[0] == 12
    assert has_run(section("indus", language, 4), [2, 2, 1, 2, 12])


def test_pack_keeps_the_order_and_each_message_within_discords_limits():
    sizes = [4000, 1500, 600, 3000, 2990, 5]
    embeds = [discord.Embed(title=f"s{n}", description="x" * size) for n, size in enumerate(sizes)]
    embeds += [discord.Embed(title=f"t{n}", description="y") for n in range(12)]
    messages = pack(embeds)
    assert [e for m in messages for e in m] == embeds
    assert all(sum(len(e) for e in m) <= MESSAGE_LIMIT and len(m) <= EMBEDS_PER_MESSAGE for m in messages)
    assert [len(m) for m in messages] == [2, 2, 10, 4]  # 4000+1500; 600+3000; 2990 + 5 + 8 small; 4 small


@pytest.mark.parametrize("language", LANGUAGES)
async def test_each_rules_command_answers_privately_with_every_section_within_discords_limits(
        fake, table, store, clock, language):
    reader = fake.user("Reader", locale=LOCALES[language])
    bot = await start_bot(fake, store, clock)
    for game, sections in GAMES.items():
        rec = await fake.slash(reader, table, f"{game} rules", {})
        assert rec.replies and all(m.ephemeral for m in rec.replies)
        assert [over_limits(m) for m in rec.replies] == [[] for _ in rec.replies]
        embeds = [e for m in rec.replies for e in m.embeds]
        assert [e["title"] for e in embeds] == [t(f"{key}_title", language) for key in sections]
        text = "\n".join(f"{e['title']}\n{e['description']}" for e in embeds)
        assert "{" not in text and "}" not in text  # every placeholder filled
        assert foreign(text, language) == []
        assert not fake.channel_messages(table)  # nothing public
    await fake.stop(bot)


@pytest.mark.parametrize(("locale", "words"), [
    ("en-US", ("`/incan new` chooses the edition with `preset`", "`incan-gold-modern`", "`open_tents`")),
    ("fi", ("`/incan uusi` valitsee painoksen asetuksella `painos`", "`Incan Gold, uusi painos`", "`avoimet_teltat`")),
    ("sv-SE", ("`/incan ny`", "`Incan Gold, ny utgåva`", "`öppna_tält`")),
    ("it", ("`/incan nuovo`", "`Incan Gold, nuova edizione`", "`tende_aperte`"))])
async def test_the_incan_rules_name_the_editions_and_options_as_the_readers_discord_shows_them(
        fake, table, store, clock, locale, words):
    reader = fake.user("Reader", locale=locale)
    bot = await start_bot(fake, store, clock)
    rec = await fake.slash(reader, table, "incan rules", {})
    text = "\n".join(m.render() for m in rec.replies)
    assert [w for w in words if w not in text] == []
    await fake.stop(bot)
