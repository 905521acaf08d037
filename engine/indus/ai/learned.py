"""Indus Hard: each turn planned by expectimax over the dice, every position it can leave valued by
Hard's move value plus the learned value of :mod:`.value`.

Every candidate move is played on a copy of the position (:class:`~.playout.Sim`, the rules' fast
path, checked action by action against the rules) and worth ``settings.hard`` times the former
Hard's move value (:meth:`~.evaluation.Eval.move_value`: the immediate gain with the capture
risks of the next turn) plus ``settings.learned`` times the learned value of the position it
leaves (what the ruins and the captures still to come are worth by the end). A reroll is worth
the expectimax of the rolls still to come; a placement is worth the expectimax of its whole turn
(roll, reroll, reroll). The former Hard's expectimax ranks the placements and the best
``place_k`` are searched (a count, scaled with the thinking time, not a clock: the same position
gives the same move on every run; float32 sums may round differently on another CPU, which can
only flip an exact tie). One's own captured piece is kept or returned, whichever leaves the
better position. The setup placements are the former Hard's. Nothing here reads the dice to come.

With 2 players a move, once its die is known, looks one turn further (:meth:`_Turn.replied`): the
position it leaves is worth the opponent's best answer for it, its placement (colour, rank, free
space) and the expectimax of its rolls, rerolls and moves, each over the learned value of the
positions its moves leave. Zero-sum, so the answer best for it is worst for me; with 3–4 seats the
next seat's best is not the others' worst, and moves keep their plain value. The reroll compares
that against the rolls to come, valued one turn further only where the opponent has nothing to
place: with its placement too it played no better (docs/benchmarks.md).

Measured against the former Hard (bench/indus_ai.py, paired seeds; every figure in docs/benchmarks.md): with
2 players 70.4 % with the reply (4,800 fresh games in six runs), 68.8 % before it (1,600 fresh games
in three runs: 67.1, 68.0, 70.1 %; 75.2 % on the seeds that chose ``place_k``), with 4 players
40.6 % (3,600 fresh games in six runs, fair 25 %), with 3 players 53.0 % (fair 33 %). The learned weight with
Hard's at 1 (2 players, 200 games, 8 placements): the learned value alone 43.0 %, 0.5 → 57.0 %,
1 → 66.0 %, 2 → 73.5 %, 3 → 68.0 %, 4 → 69.3 %; every move also charged with the next seat's
expected reply (Hard's estimate, weight 0.5) 67.5 %: not kept; each placement also credited with the
former Hard's value of the rank it leaves on the frame (its ``place_flex``): 66.4 % against 67.1 %
on the same 400 fresh games: not kept; every candidate valued by its chance of winning (a normal
spread of the final margin around its value) instead of its points: 69.5 % against 70.1 % on the
same 800 fresh games: not kept. Weighing the opponent's reply (2 players): 71.9 % on those same 800
games, then 70.6, 68.0, 70.6, 71.0 and 70.6 % on 800 fresh games each (70.1 % pooled); the reroll compared on the
plain values instead: 69.7 % on the 800: not kept. The start placements chosen by the learned value
instead of the former Hard's: 66.7 % on those 800 games (one start placement ahead), 64.1 % (the
opponent's next one weighed too), 66.3 % (valued like a placement); the former Hard's value plus
twice the learned value 73.0 % there, then 68.8 % on 1,600 fresh games where the shipped rule took
70.8 % (docs/benchmarks.md): none kept. The opponent in the reply choosing and valued as Hard is (its own move
value added): 60.2 % on those 800 games (it rerolls far more); choosing so but valued by the
learned value alone: 69.0 %; the rolls after a reroll valued through the reply with the
opponent's placement too: 69.8 % there, 68.4 % on 800 fresh games; with the reply, learned weight
3: 68.6 % there, 1.5: 69.0 %; a reroll taken from 1 point below the best move: 71.7 %; the moves
valued through the reply without their move value's guesses at the opponent's next captures and
covers (``threat_future``, ``cover``; the reply plays them out): 69.3 % there: none kept. With 4
players (800 games from 130000, where the shipped Hard took 37.6 %): the learned value blended
half and half with the margin to the best other seat (each seat's value from its own view) 41.9 %,
but 40.7 % on 800 fresh games where the shipped took 42.4 %; the margin to the best other seat
alone 39.5 %; every move valued through the next seat's best turn by that seat's own learned
value 41.4 %; both 36.9 %: none kept. Two
players on the same seeds end 64–72 % of the games alike (independent runs: 58 %), so a 2-point
difference needs about 3,000 games a player to show (docs/benchmarks.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.core import thinking_scaled

from ..rules import EMPTY, LANDING, RANK_OF, SPACE_INDEX, State, movable_colours, seat_colours
from .evaluation import HARD_WEIGHTS, Eval, Weights
from .heuristics import place_values, turn_value
from .playout import Sim
from .value import Model, encode

__all__ = ["SETTINGS", "HardSettings", "choose_keep", "choose_move", "choose_place", "settings_now"]

Action = dict[str, Any]


@dataclass(frozen=True)
class HardSettings:
    """The player's settings."""

    place_k: int = 32
    """Placements searched (the best by the former Hard's expectimax) at the default thinking time."""
    hard: float = 1.0
    """Weight of the former Hard's move value."""
    learned: float = 2.0
    """Weight of the learned value of the position a move leaves."""
    weights: Weights = HARD_WEIGHTS
    """The former Hard's evaluation weights (its move values and its placement ranking)."""
    reply: bool = True
    """Whether a move (2 players) is valued through the opponent's reply (:meth:`_Turn.replied`)."""


SETTINGS = HardSettings()


def settings_now() -> HardSettings:
    """Return :data:`SETTINGS` with ``place_k`` scaled by the thinking time (AI_THINK_S)."""
    count, _ = thinking_scaled(SETTINGS.place_k, 1.0)
    return replace(SETTINGS, place_k=count)


def _faces(vals: list[float], first: int, slots: list[int], sign: float) -> dict[int, list[float]]:
    """Return, per slot, ``sign`` times its six leaf values (one per die face, index 0 unused)
    from ``vals[first:]``, laid out slot by slot, six faces each."""
    return {s: [0.0, *(sign * vals[first + 6 * j + d - 1] for d in range(1, 7))] for j, s in enumerate(slots)}


class _Turn:
    """The values of one decision's candidate positions for the seat ``me``."""

    def __init__(self, st: State, model: Model, settings: HardSettings) -> None:
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
        its own captured piece kept or returned, whichever the learned value prefers for the seat
        moving (2 players: what is worse for ``me`` is better for the other); the turn passed on."""
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
        return keep if (kept >= returned) == (sim.seat == self.me) else back

    def replied(self, sims: list[Sim], place: bool) -> list[float]:
        """Return the value for ``me`` of every position (2 players, ``me`` just moved), one turn
        ahead: where the seat to move has nothing to place, the expectimax of its turn (its rolls
        and rerolls, each move the best for that seat: for ``me`` the highest value, for the
        other the lowest) over the learned value of the positions it leaves; where the other
        seat has pieces to place, its best placement and turn (:meth:`placed`) if ``place``;
        elsewhere the learned value. One batch per kind."""
        out = [0.0] * len(sims)
        placing: list[int] = []
        plain: list[int] = []
        leaves: list[Sim] = []
        plans: list[tuple[int, list[int], int]] = []  # (index, the mover's slots, first leaf)
        for i, sim in enumerate(sims):
            colours = seat_colours(sim.seat, sim.players)
            if sim.players != 2 or sim.over():
                plain.append(i)
            elif any(sum(sim.reserve[c]) for c in colours):
                (placing if place and sim.seat != self.me else plain).append(i)
            else:
                slots = [s for s, p in enumerate(sim.frame) if p != EMPTY and p >> 2 in colours]
                plans.append((i, slots, len(leaves)))
                leaves.extend(self.after(sim, s, d) for s in slots for d in range(1, 7))
        for i, v in zip(placing, self.placed([sims[i] for i in placing]), strict=True):
            out[i] = v
        vals = self.learned(leaves + [sims[i] for i in plain])
        for i, v in zip(plain, vals[len(leaves):], strict=True):
            out[i] = v
        for i, slots, first in plans:
            sign = 1.0 if sims[i].seat == self.me else -1.0  # 2 players: zero-sum
            table = _faces(vals, first, slots, sign)
            out[i] = sign * turn_value(table, {s: sims[i].frame[s] & 3 for s in slots})
        return out

    def placed(self, sims: list[Sim]) -> list[float]:
        """Return the value for ``me`` of positions where the other seat moves next with pieces to
        place (2 players): the best of its placements (colour, rank, free space) by the
        expectimax of its turn over the learned value of the positions its moves leave (each
        move the worst for ``me``). A move of a piece already on the frame is valued without
        the piece placed, and the piece placed lands as its colour's lowest rank in reserve (the
        rank changes only its rerolls and the rare prisoner it becomes). A piece placed and moved
        at once leaves the same position from every space that lands it on the same square, so
        one batch holds, per colour, its frame pieces' moves and one landing per square."""
        leaves: list[Sim] = []
        groups: list[tuple[int, list[int], list[int], list[int], int, dict[int, int]]] = []
        for i, sim in enumerate(sims):
            free = [s for s, p in enumerate(sim.frame) if p == EMPTY]
            for c in seat_colours(sim.seat, 2):
                ranks = [r for r in (1, 2, 3) if sim.reserve[c][r - 1]]
                if not ranks:
                    continue
                movers = [s for s, p in enumerate(sim.frame) if p != EMPTY and p >> 2 == c]
                first = len(leaves)
                leaves.extend(self.after(sim, s, d) for s in movers for d in range(1, 7))
                landed: dict[int, int] = {}  # square → its leaf
                for s in free:
                    for d in range(1, 7):
                        if LANDING[s][d] not in landed:
                            landed[LANDING[s][d]] = len(leaves)
                            base = sim.copy()
                            base.place(c, ranks[0], s)
                            leaves.append(self.after(base, s, d))
                groups.append((i, movers, free, ranks, first, landed))
        vals = self.learned(leaves)
        best = [float("-inf")] * len(sims)
        for i, movers, free, ranks, first, landed in groups:
            table = _faces(vals, first, movers, -1.0)
            have = {s: sims[i].frame[s] & 3 for s in movers}
            for s in free:
                new = [0.0, *(-vals[landed[LANDING[s][d]]] for d in range(1, 7))]
                for r in ranks:
                    best[i] = max(best[i], turn_value({**table, s: new}, {**have, s: r}))
        return [-b for b in best]

    def table(self, sim: Sim, slots: list[int], reply: bool = False) -> dict[int, list[float]]:
        """Return, per frame slot of ``sim``, the value of moving its piece with each die face
        (index 0 unused); if ``reply``, valued one turn ahead where the opponent has nothing to
        place (:meth:`replied`; with its placement too it played no better, docs/benchmarks.md)."""
        afters = [self.after(sim, s, d) for s in slots for d in range(1, 7)]
        vals = self.replied(afters, False) if reply else self.learned(afters)
        ev = sim.bind(Eval(self.st, self.me, True, self.settings.weights))
        out: dict[int, list[float]] = {}
        for i, s in enumerate(slots):
            out[s] = [0.0, *(self.settings.learned * vals[6 * i + d - 1]
                             + self.settings.hard * ev.move_value(s, sim.frame[s], d) for d in range(1, 7))]
        return out


def choose_move(st: State, legal: list[Action], model: Model, settings: HardSettings | None = None) -> Action:
    """Return the move (or reroll) whose expectimax value is the best."""
    turn = _Turn(st, model, settings or settings_now())
    sim = Sim(st)
    moves = [a for a in legal if a["do"] == "move"]
    slots = [SPACE_INDEX[a["space"]] for a in moves]
    afters = [turn.after(sim, s, st.die) for s in slots]
    ev = Eval(st, st.seat, True, turn.settings.weights)
    reply = turn.settings.reply and st.players == 2  # the reply's minimum is zero-sum reasoning
    vals = [turn.settings.learned * v + turn.settings.hard * ev.move_value(s, st.frame[s], st.die)
            for v, s in zip(turn.replied(afters, True) if reply else turn.learned(afters), slots, strict=True)]
    best = max(range(len(moves)), key=lambda i: (vals[i], -i))
    if {"do": "reroll"} in legal:
        nxt = st.roll + 1
        colours = movable_colours(st)
        eligible = [s for s, p in enumerate(st.frame) if p != EMPTY and p >> 2 in colours and p & 3 >= nxt]
        future = turn_value(turn.table(sim, eligible, reply), {s: st.frame[s] & 3 for s in eligible}, nxt)
        if future > vals[best] + 1e-9:
            return {"do": "reroll"}
    return moves[best]


def choose_place(st: State, legal: list[Action], model: Model, settings: HardSettings | None = None) -> Action:
    """Return the placement whose whole turn is worth the most (the best ``place_k`` searched)."""
    turn = _Turn(st, model, settings or settings_now())
    quick = place_values(Eval(st, st.seat, True, turn.settings.weights), st, legal)
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
        val = turn_value(turn.table(sim, slots), {s: sim.frame[s] & 3 for s in slots})
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
