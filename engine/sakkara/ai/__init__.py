"""AI players for Sakkara: Easy, Medium and Hard (``AGENTS``).

Each agent is a pure function of one seat's observation (``GAME.observe``: its own rack, stack
heights and tops only, and the opponent's rack as known from public events), its legal actions
and its own RNG. To plan, an agent rebuilds a full state from it by *determinisation*: the tiles
it cannot see are drawn from the unseen pool. Hard remembers the game: only the covered tiles are
drawn (the distribution of ``GAME.resample_hidden``). Easy and Medium ignore ``opponent_rack``
and draw the opponent's rack with the covered tiles, as before the memory existed
(``game.resample_forgetful``), so they play exactly as they did.

- **Easy** plays like a beginner: the tile its pyramid needs most within one move, built at
  once; the opponent's tiles placed anywhere allowed (:func:`easy`).
- **Medium**: a whole-turn planner with a determinised check of the opponent's reply (the Hard
  of the first ladder). Builds and displays are always made at once (they never hurt: one level
  per turn is kept by the rules); the rest of the turn (Bird, step, Horse, Ox, spells, Snake,
  end) is a beam search over whole turns, scored by pyramid progress, rack value (tiles still
  needed by the pyramid), position (each still-needed motif valued by walking distance to its
  nearest visible copy) and denial (the opponent's progress and rack size count against). Before
  the step, each of the 5 best turns is replayed on the same 5 samples of the hidden tiles
  (common random numbers), the opponent's greedy reply is simulated, and the turn with the best
  mean outcome is played.
- **Hard**: determinised Monte-Carlo search over whole-turn plans (:mod:`.search`): the
  planner's best few turns are each played on, a few turns deep for both seats, in many samples
  of the covered tiles (the opponent's rack is remembered, issue 18); the plan with the best
  mean value is played. Its budget per decision is :data:`BUDGET` (a rollout count; the seconds
  only cap it).
- :func:`greedy` (the Medium of the first ladder, the planner without the reply check) is no
  longer a lobby level; tests and transcripts use it as a quick, sensible scripted player.

Beside them in this package: the value function and determinisation (:mod:`.evaluation`) and
the whole-turn planner (:mod:`.planner`).
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Agent, Budget

from ..tiles import MOTIF_INDEX
from .evaluation import MEDIUM, Style, evaluate, marginals, state_from_view
from .planner import check_replies, discard_choice, place_stack, place_worker, plan_turn, steal_choice
from .search import HARD, SearchStyle, search_turn

__all__ = ["AGENTS", "BUDGET", "CHECKED", "easy", "evaluate", "greedy", "hard", "hard_budget", "medium",
           "searcher", "state_from_view"]

Action = dict[str, Any]

CHECKED = Style(width=5, depth=5, birds=5, denial=0.8, reach=0.45, replies=5, samples=5, far=0.5)
"""The planner with the determinised check of the opponent's reply."""


def _decide(view: dict[str, Any], legal: list[Action], rng: random.Random, style: Style,
            memory: bool = False) -> Action:
    if len(legal) == 1:
        return legal[0]
    seat = int(view["seat"])
    state = state_from_view(view, rng, memory=memory)
    phase = state.phase
    if phase == "place":
        return place_worker(state, seat, legal)
    if phase == "return":
        return place_stack(state, seat, legal)
    if phase == "discard":
        return discard_choice(state, seat)
    if phase == "steal":
        return steal_choice(state, seat)
    for a in legal:
        if a["do"] in ("build", "display"):
            return a  # always make them at once (see the module docstring)
    plans = plan_turn(state, seat, style, lambda s: evaluate(s, seat, style))
    if style.replies and phase == "before" and len(plans) > 1:
        plans = check_replies(state, seat, plans, style, rng)
    for _, path, _ in plans:
        if path and path[0] in legal:
            return path[0]
    # no whole turn found within the search depth: make progress towards ending the turn
    for kind in ("step", "end"):
        fallback = [a for a in legal if a["do"] == kind]
        if fallback:
            return fallback[rng.randrange(len(fallback))]
    return legal[rng.randrange(len(legal))]



BEGINNER = Style(width=1, depth=2, birds=1, denial=0.0, reach=0.0, replies=0, samples=0)
"""Easy's planner: the best next two actions for its own pyramid, nothing further."""


def easy(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Return what a beginner plays: the tile it needs most within one move, built at once."""
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase == "return":
        # a beginner puts the opponent's used tiles anywhere allowed, without a thought for who
        # will pick them up
        return legal[rng.randrange(len(legal))]
    if phase == "place":
        state = state_from_view(view, rng)
        seat = int(view["seat"])
        marg = marginals(state.racks[seat], state.pyramids[seat], state.ships[seat], state.grains[seat])
        tops = [str(state.board[int(a["space"])][-1]) for a in legal]
        best = max(range(len(legal)), key=lambda i: (marg[MOTIF_INDEX[tops[i]]], -i))
        return legal[best]
    return _decide(view, legal, rng, BEGINNER)


def greedy(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Return the first action of the best whole turn a greedy beam search finds."""
    return _decide(view, legal, rng, MEDIUM)


def medium(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Return the first action of the best turn after a determinised check of the opponent's reply."""
    return _decide(view, legal, rng, CHECKED)


BUDGET = Budget(rollouts=48, seconds=1.0)
"""Hard's budget per decision: the rollout count bounds it (deterministic), the seconds cap it (at
48 rollouts a decision's p99 measured 0.35–0.80 s on a shared 2-core machine at load 6–10; with
the memory, whose worlds differ in the covered tiles only, 110 ms, at most 261 ms, over 400 games
on 2026-12-05)."""


def hard_budget() -> Budget:
    """Return Hard's budget for the decision being made: :data:`BUDGET` (sized for the default 1 s)
    scaled by the bot's thinking time (AI_THINK_S)."""
    return BUDGET.scaled()


def searcher(style: SearchStyle = HARD, budget: Budget | None = None) -> Agent:
    """Return a search player with its own settings (``budget`` None: :func:`hard_budget`)."""

    def agent(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if phase in style.phases and not any(a["do"] in ("build", "display") for a in legal):
            choice = search_turn(view, legal, rng, style, budget or hard_budget())
            if choice is not None:
                return choice
        return _decide(view, legal, rng, style.plans, style.memory)

    return agent


def hard(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Return the first action of the whole turn a determinised Monte-Carlo search rates best."""
    return searcher()(view, legal, rng)


AGENTS: dict[str, Agent] = {
    "easy": easy,
    "medium": medium,
    "hard": hard,
}
"""The AI seats by difficulty (each measured to beat the one below, see ``bench/sakkara_ai.py``)."""
