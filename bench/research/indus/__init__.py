"""Indus players under trial (``EXPERIMENTS``): measured by bench/indus_ai.py, not offered in the lobby.

- ``EXPERIMENTS["search"]`` plans Medium's whole turn again with every move charged with the
  opponents' expected replies, within a node budget (:mod:`.search`); ``EXPERIMENTS["mcts"]``
  plays Medium's best placements and every move out in determinised Monte-Carlo rollouts within a
  rollout budget (:mod:`.mcts`). Both lost to Hard's design (docs/benchmarks.md) and are kept for
  ``bench/indus_ai.py --matchups search:medium`` studies.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Agent
from engine.indus.ai import heuristics, state_from_view

from . import mcts, search

__all__ = ["EXPERIMENTS", "mcts_player", "search_player"]


def search_player(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Search (under trial): Hard's whole turn searched with every move charged with the replies."""
    kind = legal[0]["do"]
    if len(legal) == 1 or kind not in ("move", "place"):
        return heuristics.hard(view, legal, rng)
    st = state_from_view(view)
    if kind == "place" and st.phase == "place":
        return search.choose_place(st, legal)
    if kind == "move":
        return search.choose_move(st, legal)
    return heuristics.hard(view, legal, rng)


def mcts_player(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Monte-Carlo (under trial): Hard's best placements and every move played out in rollouts."""
    if len(legal) == 1 or legal[0]["do"] not in ("move", "place"):
        return heuristics.hard(view, legal, rng)
    st = state_from_view(view)
    if st.phase not in ("place", "move"):
        return heuristics.hard(view, legal, rng)  # setup: Hard's placement
    return mcts.decide(st, legal, rng)


EXPERIMENTS: dict[str, Agent] = {"search": search_player, "mcts": mcts_player}
"""Players measured by the benchmarks but not offered in the lobby (see the module docstring)."""
