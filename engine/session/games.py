"""The games the bot hosts, as the session layer sees them: engine, AI levels, timeout default."""

from __future__ import annotations

import random
from typing import Any

from engine.incan_gold import GAME as INCAN_GOLD
from engine.incan_gold import ai as incan_ai
from engine.indus import GAME as INDUS
from engine.indus import ai as indus_ai
from engine.sakkara import GAME as SAKKARA
from engine.sakkara import ai as sakkara_ai
from engine.session.records import GameSpec

__all__ = ["SPECS"]


def _return_to_camp(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Incan Gold's timeout: an absent explorer returns to camp (Board Game Arena's convention)."""
    return "camp" if "camp" in legal else legal[0]


SPECS: dict[str, GameSpec] = {
    "incan_gold": GameSpec(INCAN_GOLD, incan_ai.AGENTS, _return_to_camp, "returned to camp",
                           min_players=2, max_players=8),
    # Sequential games: the Easy AI plays the absent player's whole turn (labelled as such).
    "sakkara": GameSpec(SAKKARA, sakkara_ai.AGENTS, sakkara_ai.easy, "the Easy bot played their turn",
                        min_players=SAKKARA.min_players, max_players=SAKKARA.max_players),
    "indus": GameSpec(INDUS, indus_ai.AGENTS, indus_ai.easy, "the Easy bot played their turn",
                      min_players=INDUS.min_players, max_players=INDUS.max_players),
}
"""Every hosted game by engine name."""
