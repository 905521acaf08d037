"""Scripted play for Incan Gold scenario tests: pinned cards and pinned choices."""

from __future__ import annotations

from typing import Any

from engine.core import CHANCE, Event
from engine.incan_gold import GAME, State


def draw(state: State, card: str) -> tuple[State, list[Event]]:
    """Reveal ``card`` (pinned chance outcome)."""
    assert GAME.to_move(state) == [CHANCE], f"no card due: {GAME.to_move(state)}"
    return GAME.apply(state, CHANCE, card)


def decide(state: State, choices: dict[int, str]) -> tuple[State, list[Event]]:
    """Every seat inside chooses; ``choices`` names the campers, the rest take the torch."""
    events: list[Event] = []
    for seat in GAME.to_move(state):
        state, ev = GAME.apply(state, seat, choices.get(seat, "torch"))
        events += ev
    return state, events


def run(players: int, steps: list[Any], options: dict[str, Any] | None = None,
        seed: int = 0) -> tuple[State, list[Event]]:
    """Play ``steps``: a str is a card, a dict {seat: "camp"} is a decision (others torch)."""
    state = GAME.setup(players, seed, options)
    events: list[Event] = []
    for step in steps:
        state, ev = draw(state, step) if isinstance(step, str) else decide(state, step)
        events += ev
    return state, events


def of_type(events: list[Event], kind: str) -> list[Event]:
    """Return the events of one type."""
    return [e for e in events if e["type"] == kind]
