"""Indus's Monte-Carlo player (EXPERIMENTS["mcts"], under trial): determinised rollouts of whole turns.

Indus hides nothing; the only unknown is the future dice, which the search samples from its own
generator (seeded by the agent's RNG), never from the game's. For a placement or a move, the
search:

1. ranks the candidates by today's Hard (its expectimax turn value for a placement, its move
   gain for a move) and keeps the best :attr:`MctsSettings.place_k` placements (every move, and the
   reroll when it is legal);
2. plays each candidate out on a fast copy of the position (:class:`engine.indus.ai.playout.Sim`): the rest of
   its own turn, then :attr:`MctsSettings.horizon` more turns of the seats in order, with a greedy
   rollout policy (Medium's move value; the placement chosen with the turn's first die known,
   which is cheap and close to what a placement plus up to three rolls can reach). Every
   candidate sees the same dice in rollout ``j`` (common random numbers: a turn's three rolls
   are fixed per turn of the rollout), so the differences between candidates are not drowned
   in the dice;
3. scores the cut-off position from its own seat: its score if the game ended now (majorities
   softened early, as Hard does) minus the opponents' (3-4 players: a mix of the best and the
   mean opponent, since only first place wins);
4. spends the rollouts by sequential halving: in each round every surviving candidate gets the
   same rollouts, and the worse half is dropped.

The budget counts rollouts (deterministic: the same view and RNG give the same move on any
machine); its seconds are only a safety cap. Setup and keep / return decisions are Hard's.

Measured against today's Hard (bench/indus_ai.py --matchups mcts:hard, paired seeds, default layout, 96 rollouts,
about 0.1 s per decision on the project machine): it does not beat Hard. Probes over 60 games
(2 players, horizon 3 unless noted; ±12 points of noise each): place_k 8 → 48.0 % (100 games),
horizon 1 → 36.7 %, horizon 5 at 72 rollouts → 50.0 %, place_k 3 → 56.7 %, place_k 2 → 50.0 %,
place_k 1 (Hard's placement, searched moves) → 45.0 %; 4 players, place_k 8, 80 games: 18.8 %
(fair 25 %). With the defaults (place_k 3, horizon 3 / 4), 400 games each:
2 players 49.1 %, 95 % CI [44.3, 54.0] %; 4 players (one seat against three Hards) 26.4 %,
CI [22.3, 30.9] %; decision p50 / p99 102 / 267 ms (2 players), 98 / 190 ms (4 players) against
the 1 s cap. The reply-charged search (:mod:`.search`) measured 58.4 % / 25.1 %. A longer horizon did not help, a
shorter one hurt, and the fewer placements it may overrule Hard on, the nearer it stays to Hard:
the rollout policy (Medium's greedy moves) probably plays too unlike Hard for its outcomes to
rank Hard's candidates better than Hard's own expectimax does.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from engine.core import Budget
from engine.indus.ai.evaluation import HARD_WEIGHTS, Eval
from engine.indus.ai.heuristics import place_values
from engine.indus.ai.playout import Sim
from engine.indus.rules import EMPTY, RANK_OF, SPACE_INDEX, State, movable_colours, seat_colours

__all__ = ["BUDGET", "SETTINGS", "MctsSettings", "budget_now", "decide"]

Action = dict[str, Any]
Dice = tuple[int, int, int]


@dataclass(frozen=True)
class MctsSettings:
    """The search's knobs (bench/indus_ai.py studies them)."""

    place_k: int = 3
    """Placements kept for the rollouts (ranked by Hard's turn value)."""
    horizon: int = 3
    """Turns played after the searcher's own turn before the position is scored."""
    horizon_many: int = 4
    """The same with 3-4 players."""
    soft: float = 1.0
    """Weight of proportional ruin shares at the cut-off (times the share of the game to come)."""
    leader: float = 0.5
    """3-4 players: weight of the best opponent's score (the rest on the mean opponent's)."""


BUDGET = Budget(rollouts=96, seconds=1.0)
"""The budget per decision at the default thinking time (1 s); it scales with the bot's thinking
time (AI_THINK_S, :func:`budget_now`)."""
SETTINGS = MctsSettings()


def budget_now() -> Budget:
    """Return the budget of the decision being made: :data:`BUDGET` scaled by the thinking time."""
    return BUDGET.scaled()


# -- the rollout policy ------------------------------------------------------------------------


def _keep(piece: int, sim: Sim) -> bool:
    """Return whether to keep one's own captured piece (Hard's rule: return it while young)."""
    future = min(1.0, sim.left() / 48)
    return float(piece & 3) >= HARD_WEIGHTS.keep_slope * future + HARD_WEIGHTS.keep_base


def _best(ev: Eval, slots: list[int], die: int) -> tuple[float, int]:
    """Return the best move value and its slot among ``slots`` for ``die``."""
    best, at = float("-inf"), -1
    frame = ev.frame
    for s in slots:
        v = ev.move_value(s, frame[s], die)
        if v > best:
            best, at = v, s
    return best, at


def _roll_and_move(sim: Sim, ev: Eval, dice: Dice, colours: tuple[int, ...], roll: int) -> None:
    """Play the rolls from ``roll`` on and the move, greedily (Medium's move value and reroll)."""
    frame = sim.frame
    while True:
        slots = [s for s, p in enumerate(frame) if p != EMPTY and p >> 2 in colours and p & 3 >= roll]
        if not slots:
            return  # cannot happen in a legal position; nothing to move
        value, slot = _best(ev, slots, dice[roll - 1])
        if roll < 3:
            nxt = [s for s in slots if frame[s] & 3 > roll]
            if nxt and sum(_best(ev, nxt, d)[0] for d in range(1, 7)) / 6.0 > value + 1e-9:
                roll += 1
                continue
        pending = sim.land(slot, dice[roll - 1])
        if pending != EMPTY:
            sim.settle(pending, _keep(pending, sim))
        return


def _turn(sim: Sim, ev: Eval, dice: Dice) -> None:
    """Play the whole turn of ``sim.seat``: the placement is chosen knowing the first die (the
    best landing of a new lowest-rank piece or of a piece already waiting), then the rolls."""
    seat = sim.seat
    mine = seat_colours(seat, sim.players)
    frame = sim.frame
    colours = [c for c in mine if sum(sim.reserve[c])]
    if not colours:
        _roll_and_move(sim, ev, dice, mine, 1)
        return
    d = dice[0]
    free = [s for s in range(24) if frame[s] == EMPTY]
    best = (float("-inf"), colours[0], free[0], 1)
    for c in colours:
        rank = next(r for r in (1, 2, 3) if sim.reserve[c][r - 1])
        piece = 4 * c + rank
        top, top_slot = float("-inf"), free[0]
        for s in free:
            frame[s] = piece
            v = ev.move_value(s, piece, d)
            frame[s] = EMPTY
            if v > top:
                top, top_slot = v, s
        waiting = [s for s, p in enumerate(frame) if p != EMPTY and p >> 2 == c]
        if waiting:
            top = max(top, _best(ev, waiting, d)[0])
        if top > best[0]:
            best = (top, c, top_slot, rank)
    _, colour, slot, rank = best
    sim.place(colour, rank, slot)
    _roll_and_move(sim, ev, dice, (colour,) if sim.players == 2 else mine, 1)


# -- the search ---------------------------------------------------------------------------------


class _Search:
    """One decision's rollouts: the root position, the evaluators and the common dice."""

    def __init__(self, st: State, rng: random.Random, settings: MctsSettings) -> None:
        self.st = st
        self.me = st.seat
        self.root = Sim(st)
        self.settings = settings
        self.horizon = settings.horizon if st.players == 2 else settings.horizon_many
        # one Medium evaluator per seat for the rollout policy (they read the Sim's lists)
        self.evs = [Eval(st, s, False) for s in range(st.players)]
        self.base = rng.getrandbits(64)
        self.dice: list[list[Dice]] = []

    def dice_of(self, j: int) -> list[Dice]:
        """Return the dice of rollout ``j``: three rolls per turn, the same for every candidate."""
        while len(self.dice) <= j:
            r = random.Random(self.base + len(self.dice))
            rows = [(int(r.random() * 6) + 1, int(r.random() * 6) + 1, int(r.random() * 6) + 1)
                    for _ in range(self.horizon + 1)]
            self.dice.append(rows)
        return self.dice[j]

    def rollout(self, action: Action, j: int) -> float:
        """Return the value for the searcher of ``action`` followed by rollout ``j``."""
        st, me = self.st, self.me
        sim = self.root.copy()
        dice = self.dice_of(j)
        ev = sim.bind(self.evs[me])
        do = action["do"]
        if do == "move":
            slot = SPACE_INDEX[action["space"]]
            pending = sim.land(slot, st.die)
            if pending != EMPTY:
                sim.settle(pending, _keep(pending, sim))
        elif do == "reroll":
            # roll k + 1 uses the turn's die number k + 1
            _roll_and_move(sim, ev, dice[0], movable_colours(st), st.roll + 1)
        else:
            colour, rank = int(action["colour"]), RANK_OF[action["rank"]]
            sim.place(colour, rank, SPACE_INDEX[action["space"]])
            movers = (colour,) if st.players == 2 else seat_colours(me, st.players)
            _roll_and_move(sim, ev, dice[0], movers, 1)
        alive = sim.next_seat()
        for t in range(1, self.horizon + 1):
            if not alive:
                break
            _turn(sim, sim.bind(self.evs[sim.seat]), dice[t])
            alive = sim.next_seat()
        return self.value(sim)

    def value(self, sim: Sim) -> float:
        """Return the searcher's score lead in ``sim`` (softened while the game is young)."""
        soft = 0.0 if sim.over() else min(1.0, self.settings.soft * sim.left() / 48)
        scores = sim.scores(soft)
        mine = scores[self.me]
        others = [v for s, v in enumerate(scores) if s != self.me]
        if len(others) == 1:
            return mine - others[0]
        lead = self.settings.leader
        return mine - lead * max(others) - (1.0 - lead) * sum(others) / len(others)


def _halving(search: _Search, cands: list[Action], budget: Budget) -> Action:
    """Return the candidate with the best mean value after sequential halving over the budget
    (candidates listed best-first by Hard, whose order breaks ties)."""
    if len(cands) == 1:
        return cands[0]
    deadline = time.perf_counter() + budget.seconds
    sums = [0.0] * len(cands)
    counts = [0] * len(cands)
    alive = list(range(len(cands)))
    rounds = max(1, math.ceil(math.log2(len(cands))))
    left, j = budget.rollouts, 0
    for r in range(rounds):
        per = max(1, left // (len(alive) * (rounds - r)))
        for k in range(j, j + per):
            if time.perf_counter() > deadline:
                break  # the safety cap: the rollouts so far decide
            for i in alive:
                sums[i] += search.rollout(cands[i], k)
                counts[i] += 1
                left -= 1
        j += per
        alive.sort(key=lambda i: (-sums[i] / max(1, counts[i]), i))
        alive = alive[: max(1, (len(alive) + 1) // 2)]
        if len(alive) == 1 or left <= 0 or time.perf_counter() > deadline:
            break
    best = max(alive, key=lambda i: (counts[i], sums[i] / max(1, counts[i]), -i))
    return cands[best]


def decide(st: State, legal: list[Action], rng: random.Random, settings: MctsSettings | None = None,
           budget: Budget | None = None) -> Action:
    """Return the searched placement or move (or reroll) of the seat to move in ``st``."""
    settings = settings or SETTINGS
    budget = budget or budget_now()
    ev = Eval(st, st.seat, True)
    if legal[0]["do"] == "place":
        vals = place_values(ev, st, legal)
        order = sorted(range(len(legal)), key=lambda i: (-vals[i], i))
        cands = [legal[i] for i in order[: settings.place_k]]
    else:
        moves = [a for a in legal if a["do"] == "move"]

        def gain(a: Action) -> float:
            slot = SPACE_INDEX[a["space"]]
            return ev.move_value(slot, st.frame[slot], st.die)

        gains = [gain(a) for a in moves]
        cands = [moves[i] for i in sorted(range(len(moves)), key=lambda i: (-gains[i], i))]
        cands += [a for a in legal if a["do"] == "reroll"]
    return _halving(_Search(st, rng, settings), cands, budget)

