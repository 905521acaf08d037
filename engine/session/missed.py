"""What a timeout plays for the people who let a decision run out (:func:`owed_actions`).

The timer work plays it (:meth:`TimerWork.expire`, asking the timeout agent); a replay of the
stored log can walk it over the logged actions to find the ones a timeout played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core import CHANCE
from engine.session.contract import GameSpec
from engine.session.loading import step

__all__ = ["owed_actions"]

Choose = Callable[[int, Any, int], Any]
"""(mover, state, actions chosen so far) -> the action the mover plays (a seat's, or a chance
draw's), or None to stop there."""


def owed_actions(spec: GameSpec, state: Any, seats: Sequence[int], choose: Choose) -> list[tuple[int, Any]]:
    """Return what a timeout plays for the absent ``seats``, in order, each action given by ``choose``.

    For a sequential game the timeout agent plays what the absent seat owes: the rest of the turn
    in progress, chance draws inside it included (Indus: place, roll, move), and never a turn of
    the seat's that begins after it. Live, ``choose`` asks the timeout agent; replaying a stored
    log, it hands back the logged actions while they are the ones such a timeout would play.
    """
    game = spec.game
    actions: list[tuple[int, Any]] = []
    for seat in seats:
        turn = spec.turn_of(state)
        while True:
            movers = game.to_move(state)
            if spec.turn_of(state) != turn:
                break
            if seat in movers:
                mover = seat
            elif movers == [CHANCE] and actions:
                mover = CHANCE
            else:
                break
            action = choose(mover, state, len(actions))
            if action is None:
                return actions
            state, _, _ = step(spec, state, mover, action)
            actions.append((mover, action))
            if mover == CHANCE and seat not in game.to_move(state):
                break
    return actions
