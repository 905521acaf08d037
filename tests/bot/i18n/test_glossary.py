"""The customer's words (issue 43): each catalogue names the games' things with the words of the
seeds (the original rules in each language), as its glossary-<language>.md says; the Italian texts
address a player without a gender."""

from __future__ import annotations

import re

from i18n import t, tn
from i18n.catalogue import book

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
