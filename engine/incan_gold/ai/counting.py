"""Card counting for Incan Gold AI seats: what one seat can compute from its observation.

Shared by every level (Medium's thresholds, Hard's shortcut when nothing is at stake): the
chance that the next card collapses the temple, the expected share of the next treasure, and
what the artifacts on the path would be worth to a lone leaver.
"""

from __future__ import annotations

from typing import Any

from engine.incan_gold import editions as ed

__all__ = ["artifact_points_on_path", "bust_probability", "expected_share"]


def bust_probability(view: dict[str, Any]) -> float:
    """Return the probability that the next card collapses the temple."""
    left = view["cards_left"]
    if not left:
        return 0.0
    deck = view["deck"]
    deadly = sum(int(deck.get(f"H-{h}", 0)) for h in set(view["hazards_seen"]))
    return deadly / int(left)


def expected_share(view: dict[str, Any], explorers: int) -> float:
    """Return the expected gems one explorer gets from the next card when ``explorers`` share it."""
    left = view["cards_left"]
    if not left or explorers <= 0:
        return 0.0
    deck = view["deck"]
    gems = sum(int(n) * (int(c[1:]) // explorers) for c, n in deck.items() if c[0] == "T")
    return gems / int(left)


def artifact_points_on_path(view: dict[str, Any]) -> int:
    """Return what the artifacts on the path would be worth to a lone leaver now."""
    scoring = view["artifact_scoring"]
    claimed = view["claimed"]
    total = 0
    for relic in view["artifacts_on_path"]:
        total += ed.artifact_value(scoring or "claim-order", int(relic[1:]), view["round"], claimed)
        claimed += 1
    return total
