"""Vectorised Incan Gold: thousands of games at once with numpy, for AI rollouts and benchmarks.

The contract engine (:mod:`engine.incan_gold.rules`) is the reference; this simulator plays the
same rules on arrays (one row per game, one column per seat) and, in *keyed* mode, draws every
card from the same ``chance_key(seed, draws)`` over the same canonical order as the engine, so
a test can check that both agree game by game. In *rollout* mode the cards come from a numpy
``Generator`` instead, and a game may start from an AI seat's observation mid-round.

Only what a decision or a score depends on is tracked: deck counts per card kind, the gems on
the path (a total), artifacts on the path (a bit mask: which artifact decides its value, their
order never changes a total), hazards seen this round, seats inside, carried, banked,
artifact counts and points.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.core import GOLDEN, MASK64, splitmix64
from engine.incan_gold import editions as ed

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

HAZARDS = 5
ARTIFACTS = ed.ROUNDS
_TREASURE_VALUES: tuple[int, ...] = tuple(
    sorted({v for t in range(1, ed.ROUNDS + 1) for v in ed.temple_treasures(t)} | set(ed.TREASURES))
)
T_KINDS = len(_TREASURE_VALUES)
KINDS = T_KINDS + HAZARDS + ARTIFACTS
"""Card kinds in the engine's canonical order: treasures by value, hazards, artifacts A1-A5."""
VALUES: IntArray = np.array(list(_TREASURE_VALUES) + [0] * (HAZARDS + ARTIFACTS), dtype=np.int64)
_H0 = T_KINDS
_A0 = T_KINDS + HAZARDS
_SCORINGS = {name: i for i, name in enumerate(ed.ARTIFACT_SCORINGS)}
_ROUND_VALUES = np.array((0, *ed.ROUND_VALUES), dtype=np.int64)


def kind_of(card: str, hazards: tuple[str, ...]) -> int:
    """Return the kind index of an engine card label."""
    if card[0] == "T":
        return _TREASURE_VALUES.index(int(card[1:]))
    if card[0] == "H":
        return _H0 + hazards.index(card[2:])
    return _A0 + int(card[1:]) - 1


def label_of(kind: int, hazards: tuple[str, ...]) -> str:
    """Return the engine card label of a kind index."""
    if kind < _H0:
        return f"T{_TREASURE_VALUES[kind]}"
    if kind < _A0:
        return f"H-{hazards[kind - _H0]}"
    return f"A{kind - _A0 + 1}"


def _splitmix(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    x = x + np.uint64(GOLDEN)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@dataclass
class Batch:
    """N games of P seats, as arrays (mutated in place by :func:`run`)."""

    preset: str
    scoring: int  # index into editions.ARTIFACT_SCORINGS; -1 without artifacts
    players: int
    counts: IntArray  # (N, KINDS) cards left in the deck
    path_gems: IntArray  # (N,)
    relics: IntArray  # (N,) bit r-1 set: artifact A<r> lies on the path
    gone: IntArray  # (N,) bit mask of artifacts claimed or lost
    seen: BoolArray  # (N, HAZARDS) hazard types seen this round
    revealed: IntArray  # (N,) cards revealed this round
    hazards_on_path: IntArray  # (N,)
    removed: IntArray  # (N, HAZARDS) copies removed by collapses
    inside: BoolArray  # (N, P)
    carried: IntArray  # (N, P)
    banked: IntArray  # (N, P)
    art_points: IntArray  # (N, P)
    art_count: IntArray  # (N, P)
    claimed: IntArray  # (N,)
    round: IntArray  # (N,) 1..5; 6 when over
    draws: IntArray  # (N,)
    seed_mix: npt.NDArray[np.uint64] | None  # keyed mode: splitmix64(seed) per game
    limits: IntArray | None = None  # (N, P) per-row parameters of modelled opponents
    kinds: IntArray | None = None  # (N, P) per-row policy kinds of modelled opponents (models.py)
    exact: bool = True  # keyed mode: draw as the engine does (False: the cheaper integer slot)

    @property
    def n(self) -> int:
        """Return the number of games."""
        return int(self.counts.shape[0])


Policy = Callable[[Batch, int, IntArray], BoolArray]
"""A vectorised seat policy: (batch, seat, rows deciding) -> rows where the seat returns to camp."""


def _edition(preset: str) -> ed.Edition:
    return ed.PRESETS[preset]


@functools.cache
def _treasure_counts(per_temple: bool, rnd: int) -> IntArray:
    counts = np.zeros(KINDS, dtype=np.int64)
    for v in ed.temple_treasures(rnd) if per_temple else ed.TREASURES:
        counts[_TREASURE_VALUES.index(v)] += 1
    counts.setflags(write=False)
    return counts


def round_counts(preset: str, rnd: int, removed: IntArray, gone: IntArray) -> IntArray:
    """Return the (N, KINDS) deck counts at the start of round ``rnd`` (the engine's round_deck)."""
    n = removed.shape[0]
    edn = _edition(preset)
    counts = np.repeat(_treasure_counts(edn.per_temple_piles, rnd)[None, :], n, axis=0)
    if edn.per_temple_piles:
        counts[:, _H0:_A0] = ed.TEMPLE_HAZARD_COPIES[rnd - 1]
        counts[:, _A0 + rnd - 1] = 1
    else:
        counts[:, _H0:_A0] = ed.HAZARD_COPIES - removed
        if edn.artifacts:
            for r in range(1, rnd + 1):
                counts[:, _A0 + r - 1] = ((gone >> (r - 1)) & 1) == 0
    return counts


def new_batch(players: int, seeds: Sequence[int] | None = None, n: int | None = None,
              options: dict[str, Any] | None = None) -> Batch:
    """Return games at the start of round 1: keyed by ``seeds`` (engine-exact) or ``n`` rollouts."""
    opts = dict(options or {})
    preset = str(opts.get("preset", "incan-gold"))
    edn = _edition(preset)
    scoring_name = opts.get("artifact_scoring") or edn.default_scoring
    count = len(seeds) if seeds is not None else int(n or 0)
    zeros_p = np.zeros((count, players), dtype=np.int64)
    removed = np.zeros((count, HAZARDS), dtype=np.int64)
    gone = np.zeros(count, dtype=np.int64)
    seed_mix = None
    if seeds is not None:
        seed_mix = np.array([splitmix64(s & MASK64) for s in seeds], dtype=np.uint64)
    return Batch(
        preset=preset,
        scoring=_SCORINGS[scoring_name] if scoring_name else -1,
        players=players,
        counts=round_counts(preset, 1, removed, gone),
        path_gems=np.zeros(count, dtype=np.int64),
        relics=np.zeros(count, dtype=np.int64),
        gone=gone,
        seen=np.zeros((count, HAZARDS), dtype=np.bool_),
        revealed=np.zeros(count, dtype=np.int64),
        hazards_on_path=np.zeros(count, dtype=np.int64),
        removed=removed,
        inside=np.ones((count, players), dtype=np.bool_),
        carried=zeros_p.copy(),
        banked=zeros_p.copy(),
        art_points=zeros_p.copy(),
        art_count=zeros_p.copy(),
        claimed=np.zeros(count, dtype=np.int64),
        round=np.ones(count, dtype=np.int64),
        draws=np.zeros(count, dtype=np.int64),
        seed_mix=seed_mix,
    )


def from_observation(obs: dict[str, Any], n: int) -> Batch:
    """Return ``n`` rollout copies of the game an AI seat observes (``GAME.observe``), mid-decision."""
    preset = str(obs["preset"])
    hazards = _edition(preset).hazards
    players = int(obs["players"])
    b = new_batch(players, n=n, options={"preset": preset, "artifact_scoring": obs["artifact_scoring"]})
    counts = np.zeros(KINDS, dtype=np.int64)
    for card, k in obs["deck"].items():
        counts[kind_of(card, hazards)] = k
    b.counts[:] = counts
    rnd = int(obs["round"])
    relics = 0
    for card in obs["artifacts_on_path"]:
        relics |= 1 << (int(card[1:]) - 1)
    gone = 0
    for r in range(1, rnd + 1):
        label = f"A{r}"
        if label not in obs["deck"] and label not in obs["artifacts_on_path"]:
            gone |= 1 << (r - 1)  # claimed, or drawn and lost in an earlier round
    b.relics[:] = relics
    b.gone[:] = gone
    b.path_gems[:] = int(obs["path_gems"])
    for h in obs["hazards_seen"]:
        b.seen[:, hazards.index(h)] = True
    b.revealed[:] = len(obs["path"])
    b.hazards_on_path[:] = len(obs["hazards_seen"])
    for h in obs["removed_hazards"]:
        b.removed[:, hazards.index(h)] += 1
    inside = np.zeros(players, dtype=np.bool_)
    inside[list(obs["inside"])] = True
    b.inside[:] = inside
    b.carried[:] = np.array(obs["carried"], dtype=np.int64)
    banked = np.array(obs["reckoning"]["banked"], dtype=np.int64)
    b.banked[:] = banked
    b.art_points[:] = np.array(obs["reckoning"]["scores"], dtype=np.int64) - banked
    b.art_count[:] = np.array([len(a) for a in obs["artifacts"]], dtype=np.int64)
    b.claimed[:] = int(obs["claimed"])
    b.round[:] = rnd
    return b


def _uniforms(b: Batch, rows: IntArray, rng: np.random.Generator | None) -> FloatArray:
    if b.seed_mix is None:
        assert rng is not None, "rollout mode needs a numpy Generator"
        drawn: FloatArray = np.asarray(rng.random(size=int(rows.shape[0])), dtype=np.float64)
        return drawn
    with np.errstate(over="ignore"):
        x = b.seed_mix[rows] + b.draws[rows].astype(np.uint64) * np.uint64(GOLDEN)
        key = _splitmix(x)
    return (key >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def _draw(b: Batch, rows: IntArray, rng: np.random.Generator | None) -> IntArray:
    """Draw one card in each of ``rows``; return its kind (keyed: the engine's pick_weighted)."""
    counts = b.counts[rows]
    total = counts.sum(axis=1)
    u = _uniforms(b, rows, rng)
    if b.seed_mix is None or not b.exact:
        # Rollouts need no engine-exact draw: an integer slot in the cumulative counts is cheaper.
        slot = (u * total).astype(np.int64)
        kind = (np.cumsum(counts, axis=1) <= slot[:, None]).sum(axis=1)
    else:
        # Same float64 operations in the same order as the engine: p = count / n, cumulative sum.
        cum = np.cumsum(counts / total[:, None], axis=1)
        below = u[:, None] < cum
        # Float rounding can leave u above the last cumulative sum: the engine then takes the
        # last card present, and so does this.
        last_present = KINDS - 1 - np.argmax((counts > 0)[:, ::-1], axis=1)
        kind = np.where(below.any(axis=1), below.argmax(axis=1), last_present)
    b.counts[rows, kind] -= 1
    b.draws[rows] += 1
    out: IntArray = kind.astype(np.int64)
    return out


_POPCOUNT = np.array([bin(m).count("1") for m in range(1 << ARTIFACTS)], dtype=np.int64)
# points of the artifacts in a mask when each is worth a fixed value (entry-order, printed)
_FIXED_POINTS = {
    _SCORINGS["entry-order"]: np.array(
        [sum(5 if r <= 3 else 10 for r in range(1, ARTIFACTS + 1) if m >> (r - 1) & 1) for m in range(1 << ARTIFACTS)],
        dtype=np.int64),
    _SCORINGS["printed"]: np.array(
        [sum(ed.ROUND_VALUES[r - 1] for r in range(1, ARTIFACTS + 1) if m >> (r - 1) & 1)
         for m in range(1 << ARTIFACTS)], dtype=np.int64),
}


def artifact_points(b: Batch, rows: IntArray, mask: IntArray) -> tuple[IntArray, IntArray]:
    """Return (points, count) of the artifacts in ``mask`` taken by a lone leaver in ``rows``."""
    count = _POPCOUNT[mask]
    if b.scoring == _SCORINGS["claim-order"]:
        # the first three claimed in the game are worth 5, every later one 10
        claimed = b.claimed[rows]
        tens = np.maximum(0, claimed + count - 3) - np.maximum(0, claimed - 3)
        points: IntArray = 5 * count + 5 * tens
    elif b.scoring in _FIXED_POINTS:
        points = _FIXED_POINTS[b.scoring][mask]
    else:  # pickup-round: the round of the claim
        points = count * _ROUND_VALUES[b.round[rows]]
    return points, count


def _camp(b: Batch, rows: IntArray, leaving: BoolArray) -> None:
    """Leavers in ``rows`` (mask (len(rows), P)) share the path, a lone one takes the artifacts."""
    n_leave = leaving.sum(axis=1)
    has = n_leave > 0
    if not has.any():
        return
    rows, leaving, n_leave = rows[has], leaving[has], n_leave[has]
    share = b.path_gems[rows] // n_leave
    b.path_gems[rows] -= share * n_leave
    lone = (n_leave == 1) & (b.relics[rows] != 0)
    if lone.any():
        lr = rows[lone]
        points, count = artifact_points(b, lr, b.relics[lr])
        seat = leaving[lone].argmax(axis=1)
        b.art_points[lr, seat] += points
        b.art_count[lr, seat] += count
        b.claimed[lr] += count
        b.gone[lr] |= b.relics[lr]
        b.relics[lr] = 0
    home = np.where(leaving, b.carried[rows] + share[:, None], 0)
    b.banked[rows] += home
    b.carried[rows] = np.where(leaving, 0, b.carried[rows])
    b.inside[rows] = b.inside[rows] & ~leaving


def _end_round(b: Batch, rows: IntArray) -> None:
    """Close the round in ``rows``: lose path artifacts, rebuild the deck, everyone back inside."""
    b.gone[rows] |= b.relics[rows]
    b.relics[rows] = 0
    b.path_gems[rows] = 0
    b.seen[rows] = False
    b.revealed[rows] = 0
    b.hazards_on_path[rows] = 0
    b.carried[rows] = 0
    b.round[rows] += 1
    live = rows[b.round[rows] <= ed.ROUNDS]
    b.inside[rows] = False
    if live.size:
        b.inside[live] = True
        for rnd in np.unique(b.round[live]):
            sel = live[b.round[live] == rnd]
            b.counts[sel] = round_counts(b.preset, int(rnd), b.removed[sel], b.gone[sel])


def _reveal(b: Batch, rows: IntArray, rng: np.random.Generator | None) -> BoolArray:
    """Reveal one card in each of ``rows``; return the mask of rows whose round goes on."""
    kind = _draw(b, rows, rng)
    b.revealed[rows] += 1
    inside = b.inside[rows]
    n_inside = inside.sum(axis=1)
    value = VALUES[kind]
    each = value // n_inside
    b.carried[rows] += np.where(inside, each[:, None], 0)
    b.path_gems[rows] += value - each * n_inside
    is_h = (kind >= _H0) & (kind < _A0)
    is_a = kind >= _A0
    collapse = np.zeros(rows.shape[0], dtype=np.bool_)
    if is_h.any():
        hr = rows[is_h]
        h = kind[is_h] - _H0
        twin = b.seen[hr, h]
        collapse[is_h] = twin
        b.seen[hr, h] = True
        b.hazards_on_path[hr] += 1
        if twin.any():
            cr = hr[twin]
            b.removed[cr, h[twin]] += 1
            b.carried[cr] = np.where(b.inside[cr], 0, b.carried[cr])
            b.inside[cr] = False
    if is_a.any():
        b.relics[rows[is_a]] |= np.left_shift(1, kind[is_a] - _A0)
    if collapse.any():
        _end_round(b, rows[collapse])
    going: BoolArray = ~collapse
    return going


def decide(b: Batch, rows: IntArray, policies: Sequence[Policy], forced: BoolArray | None = None) -> None:
    """Every seat inside ``rows`` chooses by its policy (``forced`` rows all leave); reveal and resolve."""
    leaving = np.zeros((rows.shape[0], b.players), dtype=np.bool_)
    deciding = b.inside[rows]
    for seat, policy in enumerate(policies):
        mask = deciding[:, seat]
        if mask.any():
            leaving[mask, seat] = policy(b, seat, rows[mask])
    if forced is not None:
        leaving[forced] = deciding[forced]
    _camp(b, rows, leaving & deciding)
    empty = ~b.inside[rows].any(axis=1)
    if empty.any():
        _end_round(b, rows[empty])


def step(b: Batch, policies: Sequence[Policy], rng: np.random.Generator | None = None,
         until_round: int = ed.ROUNDS) -> bool:
    """Reveal one card in every game still in a round <= ``until_round``; False when none is."""
    rows = np.flatnonzero(b.round <= min(until_round, ed.ROUNDS)).astype(np.int64)
    if rows.size == 0:
        return False
    going = _reveal(b, rows, rng)
    rows = rows[going]
    if rows.size:
        # Guard (impossible with every preset): an empty pile ends the temple, all leave together.
        deck_out = b.counts[rows].sum(axis=1) == 0
        decide(b, rows, policies, deck_out)
    return True


def run(b: Batch, policies: Sequence[Policy], rng: np.random.Generator | None = None,
        until_round: int = ed.ROUNDS) -> Batch:
    """Play every game of the batch to its end (or to the end of round ``until_round``); return it."""
    while step(b, policies, rng, until_round):
        pass
    return b


def scores(b: Batch) -> IntArray:
    """Return the (N, P) final scores: banked gems plus artifact points."""
    return b.banked + b.art_points


def winners(b: Batch) -> BoolArray:
    """Return the (N, P) winner mask: best score, then most artifacts; ties shared."""
    key = scores(b) * 16 + b.art_count
    best: BoolArray = key == key.max(axis=1, keepdims=True)
    return best
