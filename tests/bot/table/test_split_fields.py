"""Long lists split at line or item boundaries, never mid-word (issue 43: the Indus ruins field was
cut at character 1,024 in the middle of a word, "**T5** luogo")."""

from __future__ import annotations

import discord

from cogs.table.messages.fields import FIELD_LIMIT, add_split_field, newest_lines, split_items


def ruins(count: int) -> list[str]:
    return [f"**T{n}** 6/3 🟥5 🟦4 luogo sacro numero {n}" for n in range(1, count + 1)]


def test_a_long_list_splits_between_items_into_fields_that_fit():
    items = ruins(60)
    parts = split_items(items, " · ")
    assert len(parts) > 1
    assert all(len(part) <= FIELD_LIMIT for part in parts)
    # Every item whole, in order: joining the parts gives the list back.
    assert " · ".join(parts) == " · ".join(items)
    embed = discord.Embed()
    add_split_field(embed, "Ruins", items, " · ")
    assert embed.fields[0].name == "Ruins" and len(embed.fields) == len(parts)
    assert all(f.value and len(f.value) <= FIELD_LIMIT for f in embed.fields)


def test_an_item_longer_than_a_field_is_cut_at_a_word():
    words = ["luogo"] * 400
    (part,) = split_items([" ".join(words)], "\n")
    assert len(part) <= FIELD_LIMIT and part.endswith("luogo…")


def test_a_log_keeps_its_newest_whole_lines():
    lines = [f"line {n}: the explorers press on" for n in range(200)]
    kept = newest_lines(lines)
    assert len(kept) <= FIELD_LIMIT
    assert kept.endswith(lines[-1]) and kept.split("\n")[0] in lines
