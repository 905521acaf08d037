"""Indus AI seats (``AGENTS``): the levels offered in the lobby.

- **Easy** plays like a beginner (:func:`easy`).
- **Medium** is the expectimax player of :mod:`.heuristics` (the Hard of the first releases).
- **Hard** plans its turn by expectimax like Medium and values every position a move leaves by
  Medium's move value plus a value learned from self-play (:mod:`.learned`, :mod:`.value`); with
  2 players each move is valued through the opponent's best reply.
  With no weights file for a player count it plays as Medium (every count ships one).

The greedy player of the first releases' Medium (:func:`.heuristics.medium`) left the lobby; the
tests and the click benchmarks still play it (it is the quickest).

Beside them in this package: the position evaluation (:mod:`.evaluation`), the fast playout
position (:mod:`.playout`) and the learned value's weights (``value_<players>p.npz``, package
data). The players under trial are research and live in bench/research/indus, not here.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Agent

from ..rules import EMPTY, RANK_OF, SPACE_INDEX
from . import evaluation, heuristics, learned, value

__all__ = ["AGENTS", "easy", "hard", "medium", "state_from_view"]

state_from_view = heuristics.state_from_view
medium = heuristics.hard


def easy(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Easy: what a beginner plays. It places its lowest rank first (rerolls mean nothing to it
    yet) where that piece's own landings look best, moves for the points it would score if the
    game ended now, never rerolls, keeps every prisoner, and does not see the captures the
    other players may make next turn."""
    if len(legal) == 1:
        return legal[0]
    st = state_from_view(view)
    kind = legal[0]["do"]
    if kind in ("keep", "return"):
        return next(a for a in legal if a["do"] == "keep")
    ev = evaluation.Eval(st, st.seat, False)
    ev.careful = False
    if kind == "place":
        low = min(RANK_OF[a["rank"]] for a in legal)

        def landing_value(a: dict[str, Any]) -> float:
            slot = SPACE_INDEX[a["space"]]
            piece = 4 * int(a["colour"]) + RANK_OF[a["rank"]]
            ev.frame[slot] = piece
            value = sum(ev.move_value(slot, piece, d) for d in range(1, 7))
            ev.frame[slot] = EMPTY
            return value

        lowest = [a for a in legal if RANK_OF[a["rank"]] == low]
        return max(lowest, key=lambda a: (landing_value(a), -lowest.index(a)))
    moves = [a for a in legal if a["do"] == "move"]

    def gain(a: dict[str, Any]) -> float:
        slot = SPACE_INDEX[a["space"]]
        return ev.move_value(slot, ev.frame[slot], st.die)

    return max(moves, key=lambda a: (gain(a), -moves.index(a)))


def hard(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Hard: Medium's expectimax over the turn, every position valued with the learned value too."""
    model = value.load(view["players"])
    kind = legal[0]["do"]
    if model is None or len(legal) == 1 or view["phase"] == "setup":
        return heuristics.hard(view, legal, rng)  # the setup placements are Medium's
    st = state_from_view(view)
    if kind == "place":
        return learned.choose_place(st, legal, model)
    if kind in ("keep", "return"):
        return learned.choose_keep(st, legal, model)
    return learned.choose_move(st, legal, model)


AGENTS: dict[str, Agent] = {"easy": easy, "medium": medium, "hard": hard}
"""The AI seats by difficulty."""
