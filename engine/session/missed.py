"""Decisions a person let time out: what a timeout plays for them, and how many in a row they missed.

A timeout is stored as a ``timeout`` seat event at the version where the timeout agent's actions
begin, before them (:meth:`TimerWork._note_timeouts`); a person's own move and a bot's are plain
actions in the log. :func:`missed_in_a_row` reads the two together, so the counts that hand a seat
to the bot (:mod:`engine.session.absence`) and abandon a table nobody plays survive a restart:
the log is replayed from the start, the timeout agent's actions are found again by walking
:func:`owed_actions` over the logged ones, and every other action of a person's seat that the
rules did not force is their own move, which ends their run of timeouts (as a ``back`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import CHANCE
from engine.session.contract import GameSpec, SeatEvent
from engine.session.loading import step

__all__ = ["missed_in_a_row", "owed_actions", "timed_out"]

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


def missed_in_a_row(spec: GameSpec, players: int, seed: int, options: Mapping[str, Any],
                    actions: Sequence[tuple[int, Any]], events: Sequence[SeatEvent]) -> dict[int, int]:
    """Return, for every person's seat whose last decisions timed out, how many did in a row,
    from the stored log of a game of ``players`` seats (``actions`` from version 0, ``events`` in
    the order they were written; only people's decisions time out).

    A ``timeout`` event counts one; the person's own move (an action of their seat that neither
    the timeout agent nor the rules played: a forced action is played before anyone is asked) or
    their coming back (``back``) starts the count again. A bot's action for a seat taken over
    (between ``away`` and ``back``) is no move of its person's.
    """
    if not timed_out(events):
        return {}  # no run of timeouts to count: no need to replay the log
    game = spec.game
    state = game.setup(players, seed, dict(options))
    at: dict[int, list[SeatEvent]] = {}
    for event in events:
        at.setdefault(event.version, []).append(event)
    counts: dict[int, int] = {}
    away: set[int] = set()
    agent: set[int] = set()  # positions in the log of the timeout agent's actions
    for version in range(len(actions) + 1):
        absent = []
        for event in at.get(version, ()):
            if event.kind == "timeout":
                counts[event.seat] = counts.get(event.seat, 0) + 1
                absent.append(event.seat)
            elif event.kind == "away":
                away.add(event.seat)
            elif event.kind in ("back", "resign"):
                away.discard(event.seat)
                counts.pop(event.seat, None)
        if version == len(actions):
            break
        if absent:
            agent.update(range(version, version + len(owed_actions(spec, state, absent, _logged(actions, version)))))
        seat, action = actions[version]
        # Only a seat with a count to end is looked at (forced() lists the legal actions).
        if seat in counts and seat not in away and version not in agent and spec.forced(state, seat) is None:
            counts.pop(seat, None)  # its person played this decision themselves
        state, _, _ = step(spec, state, seat, action)
    return counts


def timed_out(events: Sequence[SeatEvent]) -> bool:
    """Return True when some seat's last decisions may have timed out: a ``timeout`` event after
    that seat's last ``back`` or ``resign`` (else every count of timeouts in a row is 0)."""
    pending: set[int] = set()
    for event in events:
        if event.kind == "timeout":
            pending.add(event.seat)
        elif event.kind in ("back", "resign"):
            pending.discard(event.seat)
    return bool(pending)


def _logged(actions: Sequence[tuple[int, Any]], start: int) -> Choose:
    """Return a ``choose`` that hands back the log's actions from ``start`` while their mover is the
    one asked for (a timeout whose actions were never written, or came after another's, stops)."""

    def choose(mover: int, state: Any, played: int) -> Any:
        position = start + played
        if position >= len(actions) or actions[position][0] != mover:
            return None
        return actions[position][1]

    return choose
