"""Incan Gold's words on Discord: hazards with their pictures, path cards, what an artifact is worth.
Presentation only: every name is drawn from the engine's views and the edition's data."""

from __future__ import annotations

from typing import Any

from engine.incan_gold import editions as ed
from i18n import t, tn

__all__ = ["HAZARD_ICONS", "artifact_worth", "card_text", "hazard_name"]


HAZARD_ICONS = {  # one picture per hazard of every preset (presentation only)
    "spiders": "🕷️", "snakes": "🐍", "mummies": "🧟", "fire": "🔥", "rockfall": "🪨",
    "scorpions": "🦂", "poison-gas": "☠️", "explosions": "🧨",
}


def hazard_name(hazard: str) -> str:
    """Return a hazard's picture and display name ("🕷️ Spiders")."""
    return f"{HAZARD_ICONS.get(hazard, '⚠️')} {t(f'incan.hz.{hazard}')}"


def card_text(card: str, gems: int) -> str:
    """Return a path card as the table shows it."""
    if card[0] == "T":
        return f"💎{card[1:]}" + (f" ({tn('incan.path_left', gems)})" if gems else "")
    if card[0] == "H":
        return hazard_name(card[2:])
    return f"🏺{card}"


def artifact_worth(view: dict[str, Any], card: str) -> int:
    """Return the points an artifact on the path is worth if taken home now (the edition's scoring)."""
    scoring = view.get("artifact_scoring") or "claim-order"
    return ed.artifact_value(scoring, int(card[1:]), view["round"], view["claimed"])
