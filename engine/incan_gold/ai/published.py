"""The bots of the public Incan Gold simulator 2222-42/incangold_strategy, ported decision for decision.

Source: https://github.com/2222-42/incangold_strategy (Go), ``internal/domain/strategy/*.go`` and
``cmd/simulator/main.go`` at commit c7465b0. Each bot here takes exactly the decision its Go
``Decide`` takes, computed from what our observation holds (``GAME.observe``):

- ``Round.Deck.RemainingCards()`` is our ``view["deck"]`` (the composition of the draw pile);
- ``Round.RevealedHazards`` (the hazard types seen this round) is ``view["hazards_seen"]``;
- ``Round.RevealedArtifacts`` is ``len(view["artifacts_on_path"])``;
- ``Round.ActivePlayers()`` (the explorers inside, the decider included) is ``view["inside"]``;
- ``Player.PocketScore`` is the carried gems, ``Player.TentScore`` the banked gems plus artifact
  points (``view["reckoning"]["scores"]``, what perfect memory of public splits gives);
- ``artifactEstimate`` (5 each for the first three artifacts claimed in the game, then 10) is our
  edition's artifact value, which is exactly that under the default ``claim-order`` scoring.

The simulator's game differs from ours in ways that are not the bots' business and are not
ported: it asks for a decision before the first card (ours reveals one first, as the rulebook
does), its deck lacks the 17 treasure, and it keeps drawn-but-unclaimed artifacts in the deck.

The simulator's "all" scenario field (``scenarioAll``) is :data:`ANCHOR_FIELD`.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Agent
from engine.incan_gold import editions as ed
from engine.incan_gold.rules import CAMP, TORCH

__all__ = [
    "ANCHOR_FIELD",
    "PUBLISHED",
    "artifact_estimate",
    "ev",
    "hazard_count",
    "random_leave",
    "risky",
]

View = dict[str, Any]


def _choose(leave: bool, legal: list[Any]) -> str:
    want = CAMP if leave else TORCH
    return want if want in legal else str(legal[0])


def artifact_estimate(view: View, labels: list[str]) -> int:
    """Return what claiming the artifacts ``labels`` now would score, in that order
    (``artifactEstimate``: it counts on from the artifacts already claimed in the game)."""
    scoring = view["artifact_scoring"]
    if scoring is None:
        return 0
    claimed = int(view["claimed"])
    total = 0
    for label in labels:
        total += ed.artifact_value(scoring, int(label[1:]), int(view["round"]), claimed)
        claimed += 1
    return total


def random_leave(probability: float) -> Agent:
    """``RandomStrategy``: return to camp with a fixed probability at every decision."""

    def agent(view: View, legal: list[Any], rng: random.Random) -> str:
        return _choose(rng.random() < probability, legal)

    agent.__doc__ = f"Published bot: return to camp with probability {probability:g} at each decision."
    return agent


def hazard_count(max_hazards: int) -> Agent:
    """``ThresholdStrategy``: return to camp once ``max_hazards`` hazard types are on the path."""

    def agent(view: View, legal: list[Any], rng: random.Random) -> str:
        return _choose(len(set(view["hazards_seen"])) >= max_hazards, legal)

    agent.__doc__ = f"Published bot: return to camp once {max_hazards} hazard types are on the path."
    return agent


def risky(base: int = 9, lead_margin: int = 2, s1: int = 4, s2: int = 2, artifact_ev: bool = True) -> Agent:
    """``RiskyStrategy`` (the simulator's best parameters by default: base 9, R 2, S1 4, S2 2, with
    artifact EV): leave once the carried gems (plus the path's artifacts divided by the explorers
    inside) reach base + S1 when leading by R or more (tent + carried against the best other
    seat's), base + S2 otherwise."""

    def agent(view: View, legal: list[Any], rng: random.Random) -> str:
        me = int(view["you"]["seat"])
        totals = [t + c for t, c in zip(view["reckoning"]["scores"], view["carried"], strict=True)]
        best_other = max([0, *(t for s, t in enumerate(totals) if s != me)])
        lead = totals[me] - best_other
        target = base + (s1 if lead >= lead_margin else s2)
        effective = int(view["you"]["carried"])
        relics = list(view["artifacts_on_path"])
        if artifact_ev and relics:
            active = len(view["inside"])
            if active > 0:
                effective += artifact_estimate(view, relics) // active  # Go's integer division
        return _choose(effective >= target, legal)

    agent.__doc__ = f"Published bot: Risky (base {base}, R {lead_margin}, S1 {s1}, S2 {s2})."
    return agent


def ev(view: View, legal: list[Any], rng: random.Random) -> str:
    """``EVStrategy`` ("Upside - Downside"): upside = the mean value of the good cards left
    (treasures, and the artifacts left valued together as if claimed now) x their share of the
    deck / the explorers inside; downside = carried gems x the share of deadly hazards (types
    already on the path) in the deck; return to camp when upside - downside <= 0."""
    deck: dict[str, int] = view["deck"]
    total = sum(int(n) for n in deck.values())
    active = len(view["inside"])
    if total == 0 or active == 0:
        return _choose(True, legal)
    seen = set(view["hazards_seen"])
    good = 0
    bad = 0
    good_value = 0.0
    artifacts: list[str] = []
    for card, n in sorted(deck.items()):
        n = int(n)
        if card[0] == "T":
            good += n
            good_value += int(card[1:]) * n
        elif card[0] == "A":
            good += n
            artifacts += [card] * n
        elif card[2:] in seen:
            bad += n
    upside = 0.0
    if good > 0:
        if artifacts:
            good_value += artifact_estimate(view, artifacts)
        upside = (good_value / good) * (good / total) / active
    downside = int(view["you"]["carried"]) * (bad / total)
    return _choose(upside - downside <= 0, legal)


PUBLISHED: dict[str, Agent] = {
    "random-50": random_leave(0.5),
    "random-10": random_leave(0.1),
    "cowardly": hazard_count(1),
    "leave-at-2-hazards": hazard_count(2),
    "risky": risky(),
    "ev": ev,
}
"""The simulator's bots under the names of this project's benchmarks (``cowardly`` is its
"Threshold (1 Hazard)", ``leave-at-2-hazards`` its "Normal", ``risky`` its "Risky (Best+ArtEV)")."""

ANCHOR_FIELD: tuple[str, ...] = ("random-50", "random-10", "cowardly", "leave-at-2-hazards", "risky", "ev")
"""The simulator's own 6-seat field (``scenarioAll``), in its order."""

