"""Indus's learned position value: what a position between turns is worth to one seat.

The value is learned from self-play (bench/indus_value_data.py, bench/indus_value_train.py) and
read from a small weights file beside this module (``value_<players>p.npz``). It is built from
parts that do not depend on one board, so it holds for the default, random and custom layouts:

- every **ruin** is valued by one small network (shared by all ruins) from what decides its
  majority: its values, the pieces each side counts, the payout if the game ended now, the
  squares still open, owned or covered, and how many of each side's frame pieces can land on it;
  it predicts the ruin's final payout to me minus the others';
- every **square** is valued by a second network from its capture threats (lone pieces, who can
  land there next, what it would capture), plus a linear term of the whole position (reserves,
  ranks on the frame); together they predict the prisoner points still to be taken;
- the prisoner points already taken are added exactly.

Utility = my score minus the mean of the other seats' (2 players: minus the other seat's).
Everything here is pure numpy over :class:`~.playout.Sim` positions; nothing reads the dice.

The shipped weights (2026-12-05, project machine, 2 cores) came from, per player count N::

    python bench/indus_value_data.py --players N --games G --seed S --out pos.pkl
    python bench/indus_value_train.py pos.pkl --players N --epochs 8 --out engine/indus/ai/value_Np.npz

with N=2: G=3000, S=100000 (held-out error per ruin 3.69 points, against 4.48 for "the game ends
now"); N=3: G=2000, S=500000 (2.63 against 3.22); N=4: G=3000, S=300000 (2.16 against 2.57).
The prisoners still to come are mostly dice: their error drops only from 4.29 to 3.97 points (2
players). Twice the 2-player data, and 1,200 more games with Hard itself in half the seats, made a
player no better against the former Hard (67.7 % against 71.9 % over the same 400 games, 16
placements searched): the shipped 2-player weights are the first set.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ..layout import SIZE, Layout
from ..rules import EMPTY, NOBODY, seat_colours, seat_of
from .evaluation import ALIGNED, NSQ
from .playout import Sim

__all__ = ["GLOBAL_FEATURES", "RUIN_FEATURES", "SQUARE_FEATURES", "Encoded", "Model", "encode", "load"]

F = NDArray[np.float32]
RUIN_FEATURES = 22
SQUARE_FEATURES = 16
GLOBAL_FEATURES = 16
SLOTS = 4 * SIZE
TOTAL_PIECES = 48

# ALIGN[q, slot] = 1 when a frame piece in ``slot`` can land on square q with some die.
ALIGN = np.zeros((NSQ, SLOTS), dtype=np.float32)
for _q in range(NSQ):
    for _slot, _die in ALIGNED[_q]:
        ALIGN[_q, _slot] = 1.0


@dataclass(frozen=True)
class _Board:
    """A layout's ruins as matrices (cached per layout)."""

    building: F  # (R,) 1 for a building
    first: F  # (R,)
    second: F  # (R,)
    size: F  # (R,)
    member_b: F  # (R, 36) building membership
    member_n: F  # (R, 36) other-ruin membership
    member: F  # (R, 36) any membership
    square_value: F  # (36,) the first values of the ruins through each square


@lru_cache(maxsize=32)
def _board(layout: Layout) -> _Board:
    """Return ``layout`` as matrices."""
    r = len(layout.ruins)
    mb = np.zeros((r, NSQ), dtype=np.float32)
    mn = np.zeros((r, NSQ), dtype=np.float32)
    for i, ruin in enumerate(layout.ruins):
        for q in ruin.squares:
            (mb if ruin.kind == "B" else mn)[i, q] = 1.0
    first = np.array([ru.first for ru in layout.ruins], dtype=np.float32)
    second = np.array([ru.second for ru in layout.ruins], dtype=np.float32)
    member = mb + mn
    return _Board(
        building=np.array([1.0 if ru.kind == "B" else 0.0 for ru in layout.ruins], dtype=np.float32),
        first=first, second=second, size=member.sum(axis=1), member_b=mb, member_n=mn, member=member,
        square_value=(member * first[:, None]).sum(axis=0),
    )


@dataclass
class Encoded:
    """The features of N positions of one layout, seen by one seat."""

    ruins: F  # (N, R, RUIN_FEATURES)
    squares: F  # (N, 36, SQUARE_FEATURES)
    globals: F  # (N, GLOBAL_FEATURES)
    prison: F  # (N,) prisoner points taken: mine minus the others' mean
    payout: F  # (N, R) each ruin's payout if the game ended now: mine minus the others' mean


def _payouts(counts: F, b: _Board) -> F:
    """Return each colour's exact payout of every ruin for ruin counts (N, R, C) (§7, §7.3)."""
    top = counts.max(axis=2, keepdims=True)
    firsts = (counts == top) & (top > 0)
    nf = firsts.sum(axis=2, keepdims=True)
    building = b.building[None, :, None] > 0
    first = b.first[None, :, None]
    second = b.second[None, :, None]
    pot = np.where(building, first + second, first)
    shared = np.where(firsts, np.floor(pot / np.maximum(nf, 1)), 0.0)
    # a building with a single first: first to it, second shared by the runners-up
    rest = np.where(firsts, -1.0, counts)
    runner = rest.max(axis=2, keepdims=True)
    seconds = (rest == runner) & (runner > 0)
    ns = seconds.sum(axis=2, keepdims=True)
    single = np.where(firsts, first, 0.0) + np.where(seconds, np.floor(second / np.maximum(ns, 1)), 0.0)
    return np.where(building & (nf == 1), single, shared).astype(np.float32)


def _ones_at(index: list[int], size: int) -> F:
    """Return a flat float32 array of ``size`` zeros with ones at ``index``."""
    out: F = np.zeros(size, dtype=np.float32)
    out[index] = 1.0
    return out


def encode(sims: list[Sim], me: int) -> Encoded:
    """Return the features of ``sims`` (positions of one game's layout) for seat ``me``."""
    n = len(sims)
    s0 = sims[0]
    players, ncol = s0.players, s0.ncol
    b = _board(s0.layout)
    # flat indices gathered in plain lists, then one numpy call per array: item by item numpy
    # writes cost most of a decision's time when thousands of positions are valued
    pieces: list[int] = []  # (position, square, colour) of every piece in the dig
    ranks: list[int] = []
    tops: list[int] = []
    owns: list[int] = []
    framed: list[int] = []  # (position, slot, colour) of every frame piece
    frees: list[int] = []
    highs: list[int] = []  # (position, colour) of every Assistant and Professor on the frame
    reserves: list[list[list[int]]] = []
    prisons: list[list[int]] = []
    acting: list[float] = []
    for i, s in enumerate(sims):
        k = i * NSQ * ncol
        for stack, owner in zip(s.stacks, s.owners, strict=True):
            if stack:
                for p in stack:
                    pieces.append(k + (p >> 2))
                    ranks.append(p & 3)
                tops.append(k + (stack[-1] >> 2))
            if owner != NOBODY:
                owns.append(k + owner)
            k += ncol
        k = i * SLOTS
        for p in s.frame:
            if p == EMPTY:
                frees.append(k)
            else:
                framed.append(k * ncol + (p >> 2))
                if p & 3 >= 2:
                    highs.append(i * ncol + (p >> 2))
            k += 1
        reserves.append(s.reserve)
        prisons.append(s.prison)
        acting.append(1.0 if s.seat == me else 0.0)
    size3 = n * NSQ * ncol
    cnt = np.bincount(pieces, minlength=size3).astype(np.float32).reshape(n, NSQ, ncol)
    rks = np.bincount(pieces, weights=ranks, minlength=size3).astype(np.float32).reshape(n, NSQ, ncol)
    top = _ones_at(tops, size3).reshape(n, NSQ, ncol)
    own = _ones_at(owns, size3).reshape(n, NSQ, ncol)
    frame = _ones_at(framed, n * SLOTS * ncol).reshape(n, SLOTS, ncol)
    free = _ones_at(frees, n * SLOTS).reshape(n, SLOTS)
    high = np.bincount(highs, minlength=n * ncol).astype(np.float32).reshape(n, ncol)
    reserve = np.array(reserves, dtype=np.float32).reshape(n, ncol, 3)
    prison = np.array(prisons, dtype=np.float32).reshape(n, players)
    to_act = np.array(acting, dtype=np.float32)
    mine = list(seat_colours(me, players))
    theirs = [c for c in range(ncol) if seat_of(c, players) != me]
    wcol = np.array([1.0 if seat_of(c, players) == me else -1.0 / (players - 1) for c in range(ncol)],
                    dtype=np.float32)
    wseat = np.array([1.0 if s == me else -1.0 / (players - 1) for s in range(players)], dtype=np.float32)
    left = reserve.sum(axis=(1, 2)) + (1.0 - free).sum(axis=1)
    future = np.minimum(1.0, left / TOTAL_PIECES)
    # ruins
    rcount = np.einsum("rq,nqc->nrc", b.member_b, cnt) + np.einsum("rq,nqc->nrc", b.member_n, top)
    pay = _payouts(rcount, b)
    payout = (pay * wcol).sum(axis=2)
    m_sorted = -np.sort(-rcount[:, :, mine], axis=2)
    t_sorted = -np.sort(-rcount[:, :, theirs], axis=2)
    t_pad = np.zeros((n, rcount.shape[1], 3), dtype=np.float32)
    t_pad[:, :, : t_sorted.shape[2]] = t_sorted
    m_pad = np.zeros((n, rcount.shape[1], 2), dtype=np.float32)
    m_pad[:, :, : m_sorted.shape[2]] = m_sorted
    owned = own.sum(axis=2)
    stacked = (cnt.sum(axis=2) > 0).astype(np.float32)
    faces = np.einsum("qs,nsc->nqc", ALIGN, frame)  # frame pieces that can land on q, per colour
    avail = np.where(owned[:, :, None] > 0, own, 1.0)  # may land without being captured
    reach = faces * avail
    my_reach = reach[:, :, mine].sum(axis=2)
    their_reach = reach[:, :, theirs].sum(axis=2)
    free_aligned = np.einsum("qs,ns->nq", ALIGN, free)
    size = b.size[None, :]

    def per_ruin(x: F) -> F:
        return np.asarray(np.einsum("rq,nq->nr", b.member, x) / size, dtype=np.float32)

    unsec = 1.0 - owned
    rf = np.zeros((n, rcount.shape[1], RUIN_FEATURES), dtype=np.float32)
    rf[:, :, 0] = b.building
    rf[:, :, 1] = b.first / 10.0
    rf[:, :, 2] = b.second / 10.0
    rf[:, :, 3] = b.size / 6.0
    rf[:, :, 4:6] = m_pad / 3.0
    rf[:, :, 6:9] = t_pad / 3.0
    rf[:, :, 9] = payout / 10.0
    rf[:, :, 10] = per_ruin((1.0 - stacked) * unsec)
    rf[:, :, 11] = per_ruin(own[:, :, mine].sum(axis=2))
    rf[:, :, 12] = per_ruin(own[:, :, theirs].sum(axis=2))
    rf[:, :, 13] = per_ruin(top[:, :, mine].sum(axis=2) * unsec)
    rf[:, :, 14] = per_ruin(top[:, :, theirs].sum(axis=2) * unsec)
    rf[:, :, 15] = per_ruin(my_reach) / 2.0
    rf[:, :, 16] = per_ruin(their_reach) / 2.0
    rf[:, :, 17] = per_ruin(free_aligned * unsec) / 4.0
    rf[:, :, 18] = future[:, None]
    rf[:, :, 19] = to_act[:, None]
    rf[:, :, 20] = (pay[:, :, mine].sum(axis=2) > 0) * 1.0
    rf[:, :, 21] = (pay[:, :, theirs].sum(axis=2) > 0) * 1.0
    # squares: capture threats
    lone = (cnt == 1) & (owned[:, :, None] == 0)
    lone_rank = np.where(cnt >= 1, rks, 0.0) * (owned[:, :, None] == 0)
    my_lone_faces = (faces * lone)[:, :, mine].max(axis=2)
    their_lone_faces = (faces * lone)[:, :, theirs].max(axis=2)
    my_ranks = lone_rank[:, :, mine].sum(axis=2)
    their_ranks = lone_rank[:, :, theirs].sum(axis=2)
    sf = np.zeros((n, NSQ, SQUARE_FEATURES), dtype=np.float32)
    sf[:, :, 0] = own[:, :, mine].sum(axis=2)
    sf[:, :, 1] = own[:, :, theirs].sum(axis=2)
    sf[:, :, 2] = stacked * unsec
    sf[:, :, 3] = my_ranks / 3.0
    sf[:, :, 4] = their_ranks / 3.0
    sf[:, :, 5] = my_lone_faces / 2.0
    sf[:, :, 6] = their_lone_faces / 2.0
    sf[:, :, 7] = my_reach / 2.0
    sf[:, :, 8] = their_reach / 2.0
    sf[:, :, 9] = free_aligned / 4.0
    sf[:, :, 10] = b.square_value[None, :] / 10.0
    sf[:, :, 11] = future[:, None]
    sf[:, :, 12] = to_act[:, None]
    sf[:, :, 13] = cnt.sum(axis=2) / 4.0
    sf[:, :, 14] = my_lone_faces * their_ranks / 6.0
    sf[:, :, 15] = their_lone_faces * my_ranks / 6.0
    g = np.zeros((n, GLOBAL_FEATURES), dtype=np.float32)
    g[:, 0:3] = reserve[:, mine, :].sum(axis=1) / 6.0
    g[:, 3:6] = reserve[:, theirs, :].sum(axis=1) / (6.0 * len(theirs) / len(mine))
    g[:, 6] = high[:, mine].sum(axis=1) / 4.0
    g[:, 7] = high[:, theirs].sum(axis=1) * len(mine) / (4.0 * len(theirs))
    g[:, 8] = frame[:, :, mine].sum(axis=(1, 2)) / 4.0
    g[:, 9] = frame[:, :, theirs].sum(axis=(1, 2)) * len(mine) / (4.0 * len(theirs))
    g[:, 10] = future
    g[:, 11] = to_act
    g[:, 12] = future * to_act
    g[:, 13] = 1.0
    g[:, 14] = (prison * wseat).sum(axis=1) / 10.0
    g[:, 15] = payout.sum(axis=1) / 20.0
    return Encoded(rf, sf, g, (prison * wseat).sum(axis=1).astype(np.float32), payout.astype(np.float32))


@dataclass(frozen=True)
class Model:
    """The learned value's weights: a ruin network, a square network and a linear global term."""

    r1: F
    rb1: F
    r2: F
    rb2: F
    s1: F
    sb1: F
    s2: F
    sb2: F
    g: F

    def ruin_values(self, enc: Encoded) -> F:
        """Return each ruin's predicted final payout (mine minus the others'), (N, R)."""
        h = np.maximum(enc.ruins @ self.r1 + self.rb1, 0.0)
        return np.asarray(((h @ self.r2)[..., 0] + self.rb2[0]) * 10.0, dtype=np.float32)

    def prisoners_to_come(self, enc: Encoded) -> F:
        """Return the predicted prisoner points still to be taken (mine minus the others'), (N,)."""
        h = np.maximum(enc.squares @ self.s1 + self.sb1, 0.0)
        per_square = (h @ self.s2)[..., 0] + self.sb2[0]
        return np.asarray((per_square.sum(axis=1) + enc.globals @ self.g) * 10.0, dtype=np.float32)

    def values(self, enc: Encoded) -> F:
        """Return the predicted final utility of every position (its score margin)."""
        total = self.ruin_values(enc).sum(axis=1) + self.prisoners_to_come(enc) + enc.prison
        return np.asarray(total, dtype=np.float32)

    def save(self, path: Path) -> None:
        """Write the weights to ``path`` (.npz)."""
        np.savez(path, **{k: getattr(self, k) for k in self.__dataclass_fields__})


WEIGHTS_DIR = Path(__file__).parent


@lru_cache(maxsize=4)
def load(players: int) -> Model | None:
    """Return the learned value for ``players`` (None when no weights file ships for it)."""
    path = WEIGHTS_DIR / f"value_{players}p.npz"
    if not path.exists():
        return None
    with np.load(path) as data:
        return Model(**{k: data[k].astype(np.float32) for k in Model.__dataclass_fields__})
