"""Indus Hard: each turn planned by expectimax over the dice, every position it can leave valued by
Hard's move value plus the learned value of :mod:`.value`.

Every candidate move is played on a copy of the position (:class:`~.playout.Sim`, the rules' fast
path, checked action by action against the rules) and worth ``settings.hard`` times the former
Hard's move value (:meth:`~.evaluation._Eval.move_value`: the immediate gain with the capture
risks of the next turn) plus ``settings.learned`` times the learned value of the position it
leaves (what the ruins and the captures still to come are worth by the end). A reroll is worth
the expectimax of the rolls still to come; a placement is worth the expectimax of its whole turn
(roll, reroll, reroll). The former Hard's expectimax ranks the placements and the best
``place_k`` are searched (a count, scaled with the thinking time, not a clock: the same position
gives the same move on every run; float32 sums may round differently on another CPU, which can
only flip an exact tie). One's own captured piece is kept or returned, whichever leaves the
better position. The setup placements are the former Hard's. Nothing here reads the dice to come.

Measured against the former Hard (bench/indus_ai.py, paired seeds; every figure in the README): with
2 players 68.8 % (1,600 fresh games in three runs: 67.1, 68.0, 70.1 %; 75.2 % on the seeds that
chose ``place_k``), with 4 players 40.2 % (800 fresh games, fair 25 %), with 3 players 53.0 % (fair
33 %). The learned weight with Hard's at 1 (2 players, 200 games, 8 placements): the learned value
alone 43.0 %, 0.5 → 57.0 %, 1 → 66.0 %, 2 → 73.5 %, 3 → 68.0 %, 4 → 69.3 %; every move also charged
with the next seat's expected reply (Hard's estimate, weight 0.5) 67.5 %: not kept; each placement
also credited with the former Hard's value of the rank it leaves on the frame (its ``place_flex``):
66.4 % against 67.1 % on the same 400 fresh games: not kept; every candidate valued by its chance of
winning (a normal spread of the final margin around its value) instead of its points: 69.5 % against
70.1 % on the same 800 fresh games: not kept.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.core import thinking_scaled

from .evaluation import HARD_WEIGHTS, Weights, _Eval
from .heuristics import _turn_value, place_values
from .playout import Sim
from .rules import EMPTY, RANK_OF, SPACE_INDEX, State, movable_colours, seat_colours
from .value import Model, encode

__all__ = ["SETTINGS", "Settings", "choose_keep", "choose_move", "choose_place", "settings_now"]

Action = dict[str, Any]


@dataclass(frozen=True)
class Settings:
    """The player's settings."""

    place_k: int = 32
    """Placements searched (the best by the former Hard's expectimax) at the default thinking time."""
    hard: float = 1.0
    """Weight of the former Hard's move value."""
    learned: float = 2.0
    """Weight of the learned value of the position a move leaves."""
    weights: Weights = HARD_WEIGHTS
    """The former Hard's evaluation weights (its move values and its placement ranking)."""



SETTINGS = Settings()


def settings_now() -> Settings:
    """Return :data:`SETTINGS` with ``place_k`` scaled by the thinking time (AI_THINK_S)."""
    count, _ = thinking_scaled(SETTINGS.place_k, 1.0)
    return replace(SETTINGS, place_k=count)


class _Turn:
    """The values of one decision's candidate positions for the seat ``me``."""

    def __init__(self, st: State, model: Model, settings: Settings) -> None:
        self.st, self.me, self.model, self.settings = st, st.seat, model, settings

    def learned(self, sims: list[Sim]) -> list[float]:
        """Return the learned value of every position for ``me`` (one batch); a finished game is
        worth its exact margin (the network learned from positions with play still to come)."""
        if not sims:
            return []
        enc = encode(sims, self.me)
        vals = self.model.values(enc)
        exact = enc.payout.sum(axis=1) + enc.prison
        return [float(exact[i] if s.over() else vals[i]) for i, s in enumerate(sims)]

    def after(self, sim: Sim, slot: int, die: int) -> Sim:
        """Return the position after moving the piece in ``slot`` with ``die`` (``sim`` untouched),
        its own captured piece kept or returned, whichever the learned value prefers; the turn
        passed on."""
        nxt = sim.copy()
        pending = nxt.land(slot, die)
        if pending == EMPTY:
            nxt.next_seat()
            return nxt
        keep, back = nxt, nxt.copy()
        keep.settle(pending, True)
        back.settle(pending, False)
        keep.next_seat()
        back.next_seat()
        kept, returned = self.learned([keep, back])
        return keep if kept >= returned else back

    def table(self, sim: Sim, slots: list[int]) -> dict[int, list[float]]:
        """Return, per frame slot of ``sim``, the value of moving its piece with each die face
        (index 0 unused)."""
        vals = self.learned([self.after(sim, s, d) for s in slots for d in range(1, 7)])
        ev = sim.bind(_Eval(self.st, self.me, True, self.settings.weights))
        out: dict[int, list[float]] = {}
        for i, s in enumerate(slots):
            out[s] = [0.0, *(self.settings.learned * vals[6 * i + d - 1]
                             + self.settings.hard * ev.move_value(s, sim.frame[s], d) for d in range(1, 7))]
        return out


def choose_move(st: State, legal: list[Action], model: Model, settings: Settings | None = None) -> Action:
    """Return the move (or reroll) whose expectimax value is the best."""
    turn = _Turn(st, model, settings or settings_now())
    sim = Sim(st)
    moves = [a for a in legal if a["do"] == "move"]
    slots = [SPACE_INDEX[a["space"]] for a in moves]
    afters = [turn.after(sim, s, st.die) for s in slots]
    ev = _Eval(st, st.seat, True, turn.settings.weights)
    vals = [turn.settings.learned * v + turn.settings.hard * ev.move_value(s, st.frame[s], st.die)
            for v, s in zip(turn.learned(afters), slots, strict=True)]
    best = max(range(len(moves)), key=lambda i: (vals[i], -i))
    if {"do": "reroll"} in legal:
        nxt = st.roll + 1
        colours = movable_colours(st)
        eligible = [s for s, p in enumerate(st.frame) if p != EMPTY and p >> 2 in colours and p & 3 >= nxt]
        future = _turn_value(turn.table(sim, eligible), {s: st.frame[s] & 3 for s in eligible}, nxt)
        if future > vals[best] + 1e-9:
            return {"do": "reroll"}
    return moves[best]


def choose_place(st: State, legal: list[Action], model: Model, settings: Settings | None = None) -> Action:
    """Return the placement whose whole turn is worth the most (the best ``place_k`` searched)."""
    turn = _Turn(st, model, settings or settings_now())
    quick = place_values(_Eval(st, st.seat, True, turn.settings.weights), st, legal)
    ranked = sorted(range(len(legal)), key=lambda i: (-quick[i], i))[: turn.settings.place_k]
    mine = seat_colours(st.seat, st.players)
    best, best_val = legal[ranked[0]], float("-inf")
    for i in ranked:
        a = legal[i]
        colour = int(a["colour"])
        sim = Sim(st)
        sim.place(colour, RANK_OF[a["rank"]], SPACE_INDEX[a["space"]])
        movers = (colour,) if st.players == 2 else mine  # 2 players: the colour placed moves
        slots = [s for s, p in enumerate(sim.frame) if p != EMPTY and p >> 2 in movers]
        val = _turn_value(turn.table(sim, slots), {s: sim.frame[s] & 3 for s in slots})
        if val > best_val + 1e-9:
            best, best_val = a, val
    return best


def choose_keep(st: State, legal: list[Action], model: Model) -> Action:
    """Return keep or return for one's own captured piece, whichever leaves the better position."""
    keep, back = Sim(st), Sim(st)
    keep.settle(st.pending, True)
    back.settle(st.pending, False)
    keep.next_seat()
    back.next_seat()
    kept, returned = _Turn(st, model, SETTINGS).learned([keep, back])
    do = "keep" if kept >= returned else "return"
    return next(a for a in legal if a["do"] == do)
