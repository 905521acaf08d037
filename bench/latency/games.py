"""What a benchmark table of each game looks like, and how its simulated people choose a move."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.incan_gold import GAME as INCAN_GOLD
from engine.session import Table

CARRY_ENOUGH, HAZARDS_ENOUGH = 8, 2  # an Incan Gold player camps with 8+ gems or facing 2 hazards

Choose = Callable[[Table, int, list[Any], random.Random], Any]
"""(table, seat, the legal actions the person can see, rng) -> the one they press."""


def incan_choice(table: Table, seat: int, visible: list[Any], rng: random.Random) -> Any:
    """Camp when carrying 8+ gems or facing two hazards, else press on (as the demo's players do)."""
    view = INCAN_GOLD.view(table.state, seat)
    wish = "camp" if view["you"]["carried"] >= CARRY_ENOUGH or len(view["hazards_seen"]) >= HAZARDS_ENOUGH \
        else "torch"
    return wish if wish in visible else visible[0]


def agent_choice(level: str) -> Choose:
    """A person who plays like the game's AI of ``level``, among the moves they can see."""

    def choose(table: Table, seat: int, visible: list[Any], rng: random.Random) -> Any:
        agent = table.spec.agents[level]
        return agent(table.spec.game.view(table.state, seat), visible, rng)

    return choose


@dataclass(frozen=True)
class GameSetup:
    """A benchmark table: the game, its seats, what is counted per move, how people choose."""

    name: str  # engine name, e.g. "incan_gold"
    command: str  # slash group, e.g. "incan"
    humans: int
    ai: tuple[str, ...]  # AI seats' levels
    unit: str  # "card" (Incan Gold: per revealed card) or "move" (per accepted action)
    choose: Choose


GAMES: dict[str, GameSetup] = {
    "incan_gold": GameSetup("incan_gold", "incan", 3, ("medium", "easy"), "card", incan_choice),
    "sakkara": GameSetup("sakkara", "sakkara", 2, (), "move", agent_choice("easy")),
    "indus": GameSetup("indus", "indus", 2, ("easy",), "move", agent_choice("easy")),
}
"""Incan Gold: 3 people and 2 bots (docs/benchmarks.md's table); Sakkara: 2 people; Indus: 2 people and a bot."""

ALIASES = {"incan": "incan_gold", "incan-gold": "incan_gold", "incan_gold": "incan_gold", "sakkara": "sakkara",
           "indus": "indus"}


def setup_for(game: str, humans: int | None, ai: list[str] | None) -> GameSetup:
    """Return the game's benchmark table, with the seats overridden when asked."""
    base = GAMES[ALIASES[game]]
    return GameSetup(base.name, base.command, base.humans if humans is None else humans,
                     base.ai if ai is None else tuple(ai), base.unit, base.choose)
