"""Incan Gold / Diamant editions as data: decks, hazard names, artifact scorings, presets.

Everything a table might want to correct for the copy it owns lives here, not in the rules
module: treasure values, hazard copies, hazard names, artifact values per scoring.
Decisions of this project (see ``rules/incan_gold.md``) are marked **[decision]**.
"""

from __future__ import annotations

from dataclasses import dataclass

ROUNDS = 5
"""The game is five expeditions (temples)."""

TREASURES: tuple[int, ...] = (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)
"""Face values of the 15 treasure cards (sum 124; Board Game Arena's 14-card deck lacks the 17)."""

HAZARD_COPIES = 3
"""Copies of each of the five hazard types in the standard deck."""

INCAN_HAZARDS: tuple[str, ...] = ("spiders", "snakes", "mummies", "fire", "rockfall")
DIAMANT_HAZARDS: tuple[str, ...] = ("scorpions", "snakes", "poison-gas", "explosions", "rockfall")

ROUND_VALUES: tuple[int, ...] = (5, 7, 8, 10, 12)
"""Artifact values by round for the ``printed`` and ``pickup-round`` scorings."""

# forsvunna-diamanten [decision]: the seed gives the shape ("rising substantially", "more hazards
# each temple"), these numbers are the project's.
TEMPLE_TREASURE_FACTOR: tuple[float, ...] = (1.0, 1.5, 2.0, 2.5, 3.0)
TEMPLE_HAZARD_COPIES: tuple[int, ...] = (2, 2, 3, 3, 4)

ARTIFACT_SCORINGS: tuple[str, ...] = ("claim-order", "entry-order", "printed", "pickup-round")


@dataclass(frozen=True, slots=True)
class Edition:
    """One preset: its deck shape, hazard names and default artifact scoring."""

    name: str
    hazards: tuple[str, ...]
    artifacts: bool
    default_scoring: str | None
    per_temple_piles: bool


PRESETS: dict[str, Edition] = {
    "incan-gold": Edition("incan-gold", INCAN_HAZARDS, True, "claim-order", False),
    "incan-gold-modern": Edition("incan-gold-modern", INCAN_HAZARDS, True, "printed", False),
    "diamant": Edition("diamant", DIAMANT_HAZARDS, False, None, False),
    "forsvunna-diamanten": Edition("forsvunna-diamanten", INCAN_HAZARDS, True, "pickup-round", True),
}


def temple_treasures(temple: int) -> tuple[int, ...]:
    """Return the treasure values of temple ``temple`` (1-5) in the per-temple edition."""
    factor = TEMPLE_TREASURE_FACTOR[temple - 1]
    return tuple(int(v * factor) for v in TREASURES)


def artifact_value(scoring: str, entered: int, claimed_round: int, claimed_before: int) -> int:
    """Return the points of an artifact under ``scoring``.

    ``entered`` is the round the card was shuffled in (its number), ``claimed_round`` the round
    it is taken home, ``claimed_before`` how many artifacts were claimed earlier in the game.
    """
    if scoring == "claim-order":
        return 5 if claimed_before < 3 else 10
    if scoring == "entry-order":
        return 5 if entered <= 3 else 10
    if scoring == "printed":
        return ROUND_VALUES[entered - 1]
    if scoring == "pickup-round":
        return ROUND_VALUES[claimed_round - 1]
    raise ValueError(f"artifact_scoring: unknown scoring {scoring!r}")
