"""A finished game cut into the steps ``/game replay`` shows, replayed through the rules.

The stored action log is applied action by action with :func:`engine.session.loading.step`, the
same call that rebuilds a table and audits a copied database, so the state shown at a step is
exactly ``replay(log[:end])``. Nothing here reads a picture or a message: only the log.

What a step is differs by game (one screen of the replay, a moment players talk about):

- Incan Gold: one card (the choices revealed before it, then the card), and an expedition's end;
- Sakkara: one worker placed, then one turn (each builder's actions up to their "end");
- Indus: one piece placed during the setup, then one turn (rolls, move, what it captured).

A *chapter* groups steps for the jump menu: an expedition (Incan Gold) or a round (everyone's
turn: Sakkara, Indus), as each game's public log already groups its lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Event
from engine.session import GameSpec
from engine.session.loading import step

__all__ = ["Frame", "cut"]

Marker = Callable[[GameSpec, Sequence[Event], Any, int], bool]
"""(spec, an action's events, the state after it, the number of seats) -> True when it ends a step/chapter."""


def _has(*kinds: str) -> Marker:
    return lambda spec, events, state, seats: any(e["type"] in kinds for e in events)


def _indus_step(spec: GameSpec, events: Sequence[Event], state: Any, seats: int) -> bool:
    # During the setup each placement is a step; afterwards a turn ends when the next one is announced.
    if any(e["type"] in ("turn", "game_over") for e in events):
        return True
    return any(e["type"] == "place" for e in events) and spec.game.view(state, None)["phase"] == "setup"


STEP_ENDS: dict[str, Marker] = {
    "incan_gold": _has("card", "round_end"),
    "sakkara": _has("place", "end"),
    "indus": _indus_step,
}
"""What closes a step, per game."""

CHAPTER_ENDS: dict[str, Marker] = {
    "incan_gold": _has("round_end"),
    # a round ends with the last seat's turn (the renderers' log chapters say the same)
    "sakkara": lambda spec, events, state, seats: any(
        e["type"] == "end" and e.get("seat") == seats - 1 for e in events),
    "indus": lambda spec, events, state, seats: any(e["type"] == "turn" and e["seat"] == 0 for e in events),
}
"""What closes a chapter (the jump menu's groups), per game."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a replay: the state after ``end`` actions of the log and the events of the
    actions since the previous step (step 0 is the setup: no action, no event)."""

    index: int
    end: int
    chapter: int
    state: Any
    events: tuple[Event, ...]


def cut(spec: GameSpec, seats: int, seed: int, options: dict[str, Any], moves: Sequence[tuple[int, Any]]
        ) -> list[Frame]:
    """Return every step of the game the log ``moves`` plays, from its setup.

    Raises what the rules raise for a log that does not replay (the caller refuses such a game).
    """
    ends_step, ends_chapter = STEP_ENDS[spec.name], CHAPTER_ENDS[spec.name]
    state = spec.game.setup(seats, seed, options)
    frames = [Frame(0, 0, 1, state, ())]
    events: list[Event] = []
    chapter = next_chapter = 1
    for done, (seat, action) in enumerate(moves, start=1):
        state, happened, _ = step(spec, state, seat, action)
        events += happened
        if ends_chapter(spec, happened, state, seats):
            next_chapter += 1
        if ends_step(spec, happened, state, seats) or done == len(moves):
            frames.append(Frame(len(frames), done, chapter, state, tuple(events)))
            events, chapter = [], next_chapter
    return frames
