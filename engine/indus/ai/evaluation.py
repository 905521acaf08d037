"""Indus's position evaluation for the heuristic and search players (split from heuristics.py).

:class:`Eval` is a mutable scratch copy of a position scored for one seat: ruin majorities
(exact, or softened early in the game for Hard), the captures one turn away on either side, and
the gain of a single move. :func:`state_from_view` rebuilds the exact state from a view (Indus
hides nothing; only the future dice are unknown).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..layout import SIZE, Layout, build_layout
from ..rules import (
    EMPTY,
    LANDING,
    NOBODY,
    RANK_OF,
    SPACE_INDEX,
    State,
    colours_in_play,
    seat_of,
)
from ..scoring import standing

__all__ = ["ALIGNED", "HARD_WEIGHTS", "NSQ", "Eval", "Weights", "ruin_counts", "ruin_tables", "state_from_view"]


@dataclass(frozen=True)
class Weights:
    """The evaluation's tunable weights (Hard's extras; Medium and Easy use none of them)."""

    leader: float = 0.3
    """3–4 players: the extra weight of the leading opponent in the utility. Measured, 4 players,
    Hard vs Medium, paired 200 games: 0.0 → 65.5 %, 0.3 → 72.0 %, 0.5 → 66.2 %."""
    soft: float = 1.0
    """Weight of proportional (not winner-takes-all) ruin shares at the start of a game (times
    the share of the game still to come). Measured, 2 players, Hard vs Medium, 200 games:
    0.0 → 65.0 %, 0.5 → 71.5 %, 1.0 → 73.0 %; 4 players 66.0 % → 65.5 % (no change)."""
    threat_future: float = 0.6
    """How much more likely an opponent's capture is because more than one turn may pass."""
    cover: float = 0.5
    """Weight of the loss when another seat covers my top piece."""
    secure: float = 0.4
    """Weight of my lone piece's chance to be secured by me later (times what it would capture)."""
    secured: float = 0.8
    """What a square secured by a move is worth beyond its points (it is permanent)."""
    arrival: float = 1.0
    """The extra cost of a move into a square another colour secured (the piece is lost)."""
    flex: tuple[float, float, float, float] = (0.0, 0.0, 0.35, 0.7)
    """What moving an Assistant / a Professor off the frame costs (the rerolls it kept open)."""
    place_flex: tuple[float, float, float, float] = (0.0, 0.0, 0.25, 0.45)
    """What placing an Assistant / a Professor is worth for the rerolls it keeps open."""
    reply_top: int = 4
    """Hard charges this many best candidate moves with the next seat's expected reply..."""
    reply_weight: float = 0.5
    """...times this weight."""
    keep_slope: float = 2.5
    keep_base: float = 0.5
    """One's own captured piece is worth its return while the game is young: keep_slope times the
    share of the game still to come plus keep_base."""


HARD_WEIGHTS = Weights()
"""Today's Hard."""

NSQ = SIZE * SIZE
# ALIGNED[q]: the (frame slot, die) pairs that land on square q (4 per square, §5.2).
ALIGNED: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((s, d) for s in range(4 * SIZE) for d in range(1, 7) if LANDING[s][d] == q) for q in range(NSQ)
)


@lru_cache(maxsize=32)
def _layout(cells: tuple[str, ...], values: str, source: str) -> Layout:
    """Return the layout of a view (cached: agents rebuild it on every decision)."""
    return build_layout(cells, json.loads(values), source)


RuinRow = tuple[bool, tuple[int, ...], int, int]
"""A ruin as the evaluation reads it: (is a building, squares, first value, second value)."""


@lru_cache(maxsize=32)
def ruin_tables(layout: Layout) -> tuple[tuple[RuinRow, ...], tuple[tuple[int, ...], ...]]:
    """Return a layout's ruins as rows and, per square, the ruins through it (cached: every
    evaluated position of a search builds an evaluator)."""
    rows = tuple((r.kind == "B", tuple(r.squares), r.first, r.second) for r in layout.ruins)
    at = tuple(tuple(i for i, r in enumerate(layout.ruins) if q in r.squares) for q in range(NSQ))
    return rows, at


def ruin_counts(building: bool, squares: tuple[int, ...], stacks: Sequence[Sequence[int]], ncol: int) -> list[int]:
    """Return the pieces each colour counts in a ruin (§7): every piece of a building's stacks,
    the top piece of each square of any other ruin."""
    counts = [0] * ncol
    if building:
        for q in squares:
            for p in stacks[q]:
                counts[p >> 2] += 1
    else:
        for q in squares:
            s = stacks[q]
            if s:
                counts[s[-1] >> 2] += 1
    return counts


def _piece(d: dict[str, Any]) -> int:
    """Return the piece code of a view's piece dict."""
    return 4 * int(d["colour"]) + RANK_OF[d["rank"]]


def state_from_view(view: dict[str, Any]) -> State:
    """Return the State described by a view (exact: Indus has nothing hidden; dice unknown)."""
    lay = view["layout"]
    values = {r["id"]: ([r["first"], r["second"]] if "second" in r else r["first"]) for r in lay["ruins"]}
    layout = _layout(tuple(lay["cells"]), json.dumps(values, sort_keys=True), lay["source"])
    frame = [EMPTY] * (4 * SIZE)
    for name, p in view["frame"].items():
        frame[SPACE_INDEX[name]] = _piece(p)
    board = view["board"]
    return State(
        players=view["players"],
        seed=0,
        draws=0,
        layout=layout,
        phase=view["phase"],
        seat=view["seat"] if view["seat"] is not None else 0,
        frame=tuple(frame),
        stacks=tuple(tuple(_piece(p) for p in b["stack"]) for b in board),
        owners=tuple(b["owner"] for b in board),
        start=tuple((s["W"], s["A"], s["P"]) for s in view["start_pieces"]),
        reserve=tuple((r["W"], r["A"], r["P"]) for r in view["reserve"]),
        prisoners=tuple(tuple(_piece(p) for p in taken) for taken in view["prisoners"]),
        roll=view["roll"],
        die=view["die"] or 0,
        placed=view["placed_colour"] if view["placed_colour"] is not None else NOBODY,
        pending=_piece(view["pending"]) if view["pending"] else EMPTY,
        turn=view["turn"],
    )


class Eval:
    """A mutable scratch copy of a position, scored for one seat (``me``)."""

    def __init__(self, st: State, me: int, hard: bool, weights: Weights = HARD_WEIGHTS) -> None:
        self.hard = hard
        self.w = weights
        self.careful = True  # False: blind to the captures the other seats may make next (Easy)
        self.me = me
        self.ncol = colours_in_play(st.players)
        self.seat_of = [seat_of(c, st.players) for c in range(self.ncol)]
        opp = 1.0 / (st.players - 1)
        self.wseat = [1.0 if s == me else -opp for s in range(st.players)]
        leader = weights.leader
        if hard and st.players > 2 and leader > 0.0:
            # with 3-4 players the seat to beat is the leading opponent: weigh it more
            scores = standing(st)["scores"]
            lead = max((s for s in range(st.players) if s != me), key=lambda s: scores[s])
            self.wseat = [w * (1.0 - leader) for w in self.wseat]
            self.wseat[me] = 1.0
            self.wseat[lead] -= leader
        self.wcol = [self.wseat[self.seat_of[c]] for c in range(self.ncol)]
        self.stacks = [list(s) for s in st.stacks]
        self.owners = list(st.owners)
        self.frame = list(st.frame)
        self.reserve = [list(r) for r in st.reserve]
        self.ruins, self.ruins_at = ruin_tables(st.layout)
        left = sum(sum(r) for r in st.reserve) + sum(1 for p in st.frame if p != EMPTY)
        total = 48
        # How much of the game is still to come (1 at the start, 0 at the end): threats, cover
        # and frame flexibility matter less as the game runs out.
        self.future = min(1.0, left / total)

    # -- scoring --------------------------------------------------------------------------

    def ruin_value(self, i: int) -> float:
        """Return the utility to ``me`` of ruin ``i`` if the game ended now."""
        building, squares, first, second = self.ruins[i]
        counts = ruin_counts(building, squares, self.stacks, self.ncol)
        top = max(counts)
        if top == 0:
            return 0.0
        w = self.wcol
        exact = self._majority(counts, top, building, first, second)
        if not self.hard or self.w.soft == 0.0:
            return exact
        # Hard: early on a lead can still be overturned, so blend the exact payout with a share
        # proportional to the pieces counted (λ·future of the weight; exact at the end).
        total = sum(counts)
        pot = first + second if building else first
        prop = pot * sum(w[c] * counts[c] for c in range(self.ncol)) / total
        mix = min(1.0, self.w.soft * self.future)
        return (1.0 - mix) * exact + mix * prop

    def _majority(self, counts: list[int], top: int, building: bool, first: int, second: int) -> float:
        """Return the utility of a ruin's exact end-of-game payout for ``counts``."""
        firsts = [c for c in range(self.ncol) if counts[c] == top]
        w = self.wcol
        if building and len(firsts) == 1:
            f = firsts[0]
            val = w[f] * first
            runner = max(counts[c] for c in range(self.ncol) if c != f)
            if runner > 0:
                seconds = [c for c in range(self.ncol) if c != f and counts[c] == runner]
                share = second // len(seconds)
                val += share * sum(w[c] for c in seconds)
            return val
        pot = first + second if building else first
        share = pot // len(firsts)
        return share * sum(w[c] for c in firsts)

    def square_value(self, q: int) -> float:
        """Return the utility of every ruin through square ``q``."""
        return sum(self.ruin_value(i) for i in self.ruins_at[q])

    # -- threats --------------------------------------------------------------------------

    def hit_prob(self, colour: int, q: int) -> float:
        """Return the chance that ``colour`` can land a piece on ``q`` on its next turn."""
        faces: set[int] = set()
        high = False
        seat = self.seat_of[colour]
        for slot, die in ALIGNED[q]:
            p = self.frame[slot]
            if p != EMPTY and p >> 2 == colour:
                faces.add(die)
                high = high or (p & 3) >= 2
            elif self.hard and p == EMPTY and sum(self.reserve[colour]) > 0:
                faces.add(die)  # it may place a piece there first
        if not faces:
            return 0.0
        miss = 1.0 - len(faces) / 6.0
        if self.hard:
            # rerolls give more tries when a higher rank waits on the frame
            high = high or any(p != EMPTY and p >> 2 == colour and p & 3 >= 2 for p in self.frame)
            tries = 2 if high else 1
            prob = 1.0 - miss**tries
            # more than one turn may pass before the square is safe; other seats compete too
            return min(1.0, prob * (1.0 + self.w.threat_future * self.future)) if seat != self.me else prob
        return 1.0 - miss

    def capture_loss(self, q: int, attacker: int) -> float:
        """Return the utility change if ``attacker`` secures ``q`` now (capturing the others)."""
        stack = self.stacks[q]
        before = self.square_value(q)
        kept = [p for p in stack if p >> 2 == attacker]
        gone = [p for p in stack if p >> 2 != attacker]
        self.stacks[q] = [*kept, 4 * attacker + 1]
        after = self.square_value(q)
        self.stacks[q] = stack
        captor = self.seat_of[attacker]
        prison = sum((p & 3) * self.wseat[captor] for p in gone if self.seat_of[p >> 2] != captor)
        return after - before + prison

    def square_risk(self, q: int, colour: int) -> float:
        """Return the expected utility change at ``q`` from other seats securing it next."""
        risk = 0.0
        stack = self.stacks[q]
        for o in range(self.ncol):
            if self.seat_of[o] == self.me or o == colour:
                continue
            if sum(1 for p in stack if p >> 2 == o) == 1:
                prob = self.hit_prob(o, q)
                if prob > 0.0:
                    risk += prob * min(0.0, self.capture_loss(q, o))
        return risk

    def cover_risk(self, q: int) -> float:
        """Return the expected loss when another seat covers my top piece on ``q`` (Hard)."""
        stack = self.stacks[q]
        if not stack or self.seat_of[stack[-1] >> 2] != self.me or self.owners[q] != NOBODY:
            return 0.0
        nonb = [i for i in self.ruins_at[q] if not self.ruins[i][0]]
        if not nonb:
            return 0.0
        before = sum(self.ruin_value(i) for i in nonb)
        worst = 0.0
        for o in range(self.ncol):
            if self.seat_of[o] == self.me or any(p >> 2 == o for p in stack):
                continue
            stack.append(4 * o + 1)
            loss = sum(self.ruin_value(i) for i in nonb) - before
            stack.pop()
            worst = min(worst, loss * self.hit_prob(o, q))
        return self.w.cover * worst * self.future

    def secure_chance(self, q: int, colour: int) -> float:
        """Return the value of my lone piece on ``q`` being secured by me later (Hard)."""
        stack = self.stacks[q]
        if self.owners[q] != NOBODY or sum(1 for p in stack if p >> 2 == colour) != 1:
            return 0.0
        prob = self.hit_prob(colour, q)
        if prob == 0.0:
            return 0.0
        others = sum(p & 3 for p in stack if self.seat_of[p >> 2] != self.me)
        return self.w.secure * prob * (others + 1.0) * self.future

    # -- moves ----------------------------------------------------------------------------

    def move_value(self, slot: int, piece: int, die: int) -> float:
        """Return the utility gain of moving ``piece`` from frame ``slot`` with ``die``."""
        q = LANDING[slot][die]
        colour, rank = piece >> 2, piece & 3
        owner = self.owners[q]
        flex = self.w.flex[rank] * self.future if self.hard else 0.0
        if owner != NOBODY and owner != colour:
            # captured on arrival: the piece becomes the owner's prisoner
            return self.wseat[self.seat_of[owner]] * rank - flex - (self.w.arrival if self.hard else 0.0)
        stack = self.stacks[q]
        before = self.square_value(q)
        before_risk = self.square_risk(q, -1) if self.hard else 0.0
        secures = owner == NOBODY and any(p >> 2 == colour for p in stack)
        gain = 0.0
        if secures:
            new = [p for p in stack if p >> 2 == colour]
            new.append(piece)
            for p in stack:
                if p >> 2 != colour:
                    if self.seat_of[p >> 2] == self.me:
                        gain += self.own_capture_value(p)
                    else:
                        gain += p & 3
            self.stacks[q] = new
            self.owners[q] = colour
            after = self.square_value(q)
            if self.hard:
                after += self.w.secured * self.future  # a secured square is permanent
        else:
            self.stacks[q] = [*stack, piece]
            after = self.square_value(q)
            if owner == NOBODY and self.careful:
                after += self.square_risk(q, colour)
                if self.hard:
                    after += self.cover_risk(q) + self.secure_chance(q, colour) - before_risk
        self.stacks[q] = stack
        self.owners[q] = owner
        return after - before + gain - flex

    def own_capture_value(self, piece: int) -> float:
        """Return what one's own captured piece is worth: the better of keep and return."""
        return max(float(piece & 3), self.w.keep_slope * self.future + self.w.keep_base)

    def movable(self, colours: tuple[int, ...], min_rank: int) -> list[int]:
        """Return frame slots with a piece of ``colours`` and rank at least ``min_rank``."""
        return [s for s, p in enumerate(self.frame) if p != EMPTY and p >> 2 in colours and p & 3 >= min_rank]

