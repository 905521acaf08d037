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
from engine.sakkara import rules as sakkara_rules
from engine.session.contract import GameSpec

__all__ = ["SPECS"]


def _return_to_camp(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Incan Gold's timeout: an absent explorer returns to camp (Board Game Arena's convention)."""
    return "camp" if "camp" in legal else legal[0]


def _incan_turn(state: Any) -> tuple[int, int]:
    """Incan Gold's decision in progress: the expedition and the cards revealed in it."""
    return state.round, len(state.path)


def _incan_deciding(state: Any) -> int:
    """Incan Gold's explorers deciding now: everyone still inside the temple, while a card waits."""
    return sum(1 for inside in state.inside if inside) if state.phase == "decide" else 0


def _indus_turn(state: Any) -> int:
    """Indus's turn in progress (turns begun; a seat may take two in a row when the others have
    nothing left, so the seat alone does not name it)."""
    return int(state.turn)


SPECS: dict[str, GameSpec] = {
    "incan_gold": GameSpec(INCAN_GOLD, incan_ai.AGENTS, _return_to_camp, "returned to camp",
                           min_players=2, max_players=8, turn_of=_incan_turn, deciding=_incan_deciding),
    # Sequential games: the Easy AI plays the absent player's whole turn (labelled as such).
    "sakkara": GameSpec(SAKKARA, sakkara_ai.AGENTS, sakkara_ai.easy, "the Easy bot played their turn",
                        min_players=SAKKARA.min_players, max_players=SAKKARA.max_players,
                        turn_of=sakkara_rules.turn_key, forced=sakkara_rules.forced),
    "indus": GameSpec(INDUS, indus_ai.AGENTS, indus_ai.easy, "the Easy bot played their turn",
                      min_players=INDUS.min_players, max_players=INDUS.max_players, turn_of=_indus_turn),
}
"""Every hosted game by engine name."""
