"""Indus's search player: Hard's turn planned again with every move charged with the replies.

Indus hides nothing; the only unknown is the dice, which are enumerated (1/6 each), never
sampled and never peeked at. Today's Hard (:mod:`engine.indus.ai.heuristics`) values a move by its immediate
gain (:meth:`Eval.move_value`) and, at move time only, charges its best few moves with the next
seat's greedy reply. The search player values every candidate in the whole turn the same way:

- a **move** is worth its gain minus the opponents' expected best reply (over their die, with
  the rerolls their ranks on the frame allow) in the position it leaves;
- a **reroll** is worth the expectimax of the rolls still to come, each move again charged with
  the replies;
- a **placement** is worth the expectimax of its turn (roll, reroll, reroll) with those move
  values. Every placement is first ranked by Hard's quick value; the best ones are searched in
  that order while the budget lasts.

One reply evaluation is a *node*. The budget bounds the nodes per decision (deterministic: the
same position gives the same move on any machine); its seconds are only a safety cap for a
machine far slower than expected.

Measured (bench/indus_ai.py, paired seeds, 2 players, 400 games, default budget of 100 nodes):
58.4 % against today's Hard, 95 % CI [53.5, 63.1] %. Most of the gain is the evaluation's own
weights (:data:`SEARCH_WEIGHTS`, which also has the 4-player figures); the reply-charged search
of the best placements measured no gain by itself (46.7 % over 60 games at 400 nodes with
Hard's weights).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from engine.core import thinking_scaled
from engine.indus.ai.evaluation import HARD_WEIGHTS, Eval, Weights
from engine.indus.ai.heuristics import turn_value
from engine.indus.game import GAME
from engine.indus.layout import SIZE
from engine.indus.rules import EMPTY, LANDING, RANK_OF, RANKS, SPACE_INDEX, SPACES, State, movable_colours, seat_colours

__all__ = ["BUDGET", "SEARCH_WEIGHTS", "STYLE", "SearchBudget", "Style", "budget_now", "choose_move", "choose_place"]

Action = dict[str, Any]


@dataclass(frozen=True)
class SearchBudget:
    """How much one decision may search: reply evaluations (the bound), and a wall-clock cap."""

    nodes: int
    seconds: float


@dataclass(frozen=True)
class Style:
    """The search's settings."""

    reply_weight: float = 0.5  # what an opponent's expected reply gain costs me
    reply_all: bool = False  # 3-4 players: every other seat replies (else the next one)
    reply_rerolls: bool = True  # the reply uses the rerolls the replier's ranks allow
    hand: float = 0.0  # weight of what the frame pieces left promise for the next turn
    weights: Weights = HARD_WEIGHTS  # the evaluation's with 2 players
    weights_many: Weights = HARD_WEIGHTS  # the evaluation's with 3-4 players

    def at(self, players: int) -> Style:
        """Return the settings for a game of ``players`` (its evaluation weights in ``weights``)."""
        return self if players == 2 else replace(self, weights=self.weights_many)


SEARCH_WEIGHTS = replace(HARD_WEIGHTS, cover=0.0, place_flex=(0.0, 0.0, 0.5, 0.9))
"""Hard's weights with the changes that measured best against Hard (each alone, Hard with the
weight against today's Hard, 2 players, paired 80 games): cover 1.0 → 38.8 %, 0.25 → 53.7 %,
0.0 → 55.0 %; place_flex doubled → 52.5 %. Measured and left alone: soft 2.0 → 50.6 %,
secure 0.8 → 51.2 %, secured 1.6 → 51.2 %, threat_future 1.2 → 53.1 %, reply weight 1.0 over 8
moves → 52.5 %, flex and place_flex ×2 → 62.5 % (×3 → 50.0 %, ×5 → 48.7 %, flex ×2 alone
46.9 %: noise). The hand term: 0.5 → 38.8 % (with a reroll bug), 0.3 → 41.2 %. With 4 players (one search
against three Hards, 240 games, fair 25 %) these weights lost: 20.0 %; Hard's own weights
27.8 % and Hard's with place_flex doubled 27.8 % (160 games each), so 3-4 players keep Hard's
(then 25.1 %, 95 % CI [21.1, 29.6] %, over 400 games: no better than fair)."""
BUDGET = SearchBudget(nodes=100, seconds=1.0)
"""The budget per decision at the default thinking time (1 s); it scales with the bot's thinking
time (AI_THINK_S, :func:`budget_now`)."""


def budget_now() -> SearchBudget:
    """Return the budget of the decision being made: :data:`BUDGET` scaled by the thinking time."""
    count, seconds = thinking_scaled(BUDGET.nodes, BUDGET.seconds)
    return replace(BUDGET, nodes=count, seconds=seconds)
STYLE = Style(weights=SEARCH_WEIGHTS)


class _Clock:
    """Counts nodes against the budget and reads the clock as a safety cap."""

    def __init__(self, budget: SearchBudget) -> None:
        self.left = budget.nodes
        self.deadline = time.perf_counter() + budget.seconds

    def spend(self, nodes: int) -> bool:
        """Return True if ``nodes`` more may be spent (and spend them)."""
        if self.left < nodes or time.perf_counter() > self.deadline:
            return False
        self.left -= nodes
        return True


def _reply(after: State, me: int, style: Style) -> float:
    """Return the opponents' expected best gain on their next turn after my move, as my loss."""
    if after.phase == "over" or after.seat == me:
        return 0.0
    players = after.players
    seats = [s for s in range(players) if s != me] if style.reply_all else [after.seat]
    ev = Eval(after, after.seat, False)
    total = 0.0
    for seat in seats:
        slots = ev.movable(seat_colours(seat, players), 1)
        if not slots:
            continue
        opp = 1.0 / (players - 1)
        ev.wcol = [1.0 if ev.seat_of[c] == seat else -opp for c in range(ev.ncol)]
        ev.wseat = [1.0 if s == seat else -opp for s in range(players)]
        ev.me = seat
        values = {s: [0.0, *(ev.move_value(s, ev.frame[s], d) for d in range(1, 7))] for s in slots}
        if style.reply_rerolls:
            total += turn_value(values, {s: ev.frame[s] & 3 for s in slots})
        else:
            total += sum(max(values[s][d] for s in slots) for d in range(1, 7)) / 6.0
    # a reply's gain to that seat costs me about its weight among my opponents
    return total * (1.0 if players == 2 else 1.0 / (players - 1))


def _move_action(st: State, slot: int, die: int) -> Action:
    piece = st.frame[slot]
    square = LANDING[slot][die]
    return {"do": "move", "space": SPACES[slot], "colour": piece >> 2, "rank": RANKS[piece & 3],
            "row": square // SIZE, "col": square % SIZE}


def _deep_values(st: State, me: int, slot: int, style: Style) -> list[float]:
    """Return, per die face, the value of moving the frame piece in ``slot``: its gain minus the
    replies it leaves (``st`` is in its move phase; the die is set per face)."""
    out = [0.0]
    for die in range(1, 7):
        moving = replace(st, die=die)
        gain = Eval(moving, me, True, style.weights).move_value(slot, st.frame[slot], die)
        after, _ = GAME.apply(moving, me, _move_action(moving, slot, die))
        if after.phase == "keep":
            after = _settle(after)
        out.append(gain - style.reply_weight * _reply(after, me, style))
    return out


def _settle(st: State) -> State:
    """Answer a pending keep / return of one's own captured piece as Hard does."""
    ev = Eval(st, st.seat, False)
    piece = st.pending
    keep = float(piece & 3) >= 2.5 * ev.future + 0.5
    nxt, _ = GAME.apply(st, st.seat, {"do": "keep" if keep else "return", "colour": piece >> 2,
                                      "rank": RANKS[piece & 3]})
    return nxt


def choose_move(st: State, legal: list[Action], style: Style | None = None,
                budget: SearchBudget | None = None) -> Action:
    """Return the move (or reroll) with the best reply-charged value; Hard's gain ranks the
    candidates and breaks what the budget leaves unsearched."""
    style = (style or STYLE).at(st.players)
    me = st.seat
    clock = _Clock(budget or budget_now())
    ev = Eval(st, me, True, style.weights)
    moves = [a for a in legal if a["do"] == "move"]
    quick = sorted(((ev.move_value(SPACE_INDEX[a["space"]], st.frame[SPACE_INDEX[a["space"]]], st.die), -i, a)
                    for i, a in enumerate(moves)), key=lambda t: (t[0], t[1]), reverse=True)
    scored: list[tuple[float, int, Action]] = []
    for gain, neg, a in quick:
        if not clock.spend(1):
            break
        after, _ = GAME.apply(st, me, a)
        if after.phase == "keep":
            after = _settle(after)
        scored.append((gain - style.reply_weight * _reply(after, me, style), neg, a))
    best_val, _, best = max(scored, key=lambda t: (t[0], t[1])) if scored else quick[0]
    if {"do": "reroll"} in legal:
        nxt_roll = st.roll + 1
        colours = movable_colours(st)
        slots = [s for s, p in enumerate(st.frame) if p != EMPTY and p >> 2 in colours and p & 3 >= nxt_roll]
        if clock.spend(6 * len(slots)):
            table = {s: _deep_values(replace(st, roll=nxt_roll), me, s, style) for s in slots}
            future = turn_value(table, {s: st.frame[s] & 3 for s in slots}, nxt_roll)
        else:
            values = {s: [0.0, *(ev.move_value(s, st.frame[s], d) for d in range(1, 7))] for s in slots}
            future = turn_value(values, {s: st.frame[s] & 3 for s in slots}, nxt_roll)
        if future > best_val + 1e-9:
            return {"do": "reroll"}
    return best


def _hand_value(hand: dict[int, tuple[int, list[float]]], colours: tuple[int, ...]) -> float:
    """Return what the frame pieces in ``hand`` (slot -> (piece, gain by die)) promise for the
    next turn: the best colour's expectimax turn (the colour placed is the colour that moves)."""
    best = 0.0
    for colour in colours:
        group = {s: v for s, (p, v) in hand.items() if p >> 2 == colour}
        if group:
            best = max(best, turn_value(group, {s: hand[s][0] & 3 for s in group}))
    return best


def choose_place(st: State, legal: list[Action], style: Style | None = None,
                 budget: SearchBudget | None = None) -> Action:
    """Return the placement whose turn (roll, rerolls, reply-charged moves) is worth the most.

    Each move of the turn is also credited with ``style.hand`` times what the frame pieces it
    leaves promise for the next turn. A quick value (each move's immediate gain) ranks every
    placement; the best are searched in that order while the budget lasts (a placement's
    landing does not depend on its rank, only its rerolls do)."""
    style = (style or STYLE).at(st.players)
    me = st.seat
    clock = _Clock(budget or budget_now())
    ev = Eval(st, me, True, style.weights)
    flex = style.weights.place_flex
    mine = seat_colours(me, st.players)
    gains: dict[tuple[int, int], list[float]] = {}  # (piece, slot) -> immediate gain by die

    def gain(piece: int, slot: int) -> list[float]:
        key = (piece, slot)
        if key not in gains:
            saved = ev.frame[slot]
            ev.frame[slot] = piece
            gains[key] = [0.0, *(ev.move_value(slot, piece, d) for d in range(1, 7))]
            ev.frame[slot] = saved
        return gains[key]

    def turn(a: Action, deep: dict[tuple[int, int], list[float]] | None, moving: State | None) -> float:
        colour, rank, slot = int(a["colour"]), RANK_OF[a["rank"]], SPACE_INDEX[a["space"]]
        movers = (colour,) if st.players == 2 else mine
        hand = {s: (p, gain(p, s)) for s, p in enumerate(st.frame) if p != EMPTY and p >> 2 in mine}
        hand[slot] = (4 * colour + rank, gain(4 * colour + rank, slot))
        table: dict[int, list[float]] = {}
        ranks: dict[int, int] = {}
        for s, (p, vals) in hand.items():
            if p >> 2 not in movers:
                continue
            if deep is not None and moving is not None:
                key = (p if s != slot else 4 * colour + 1, s)
                if key not in deep:
                    deep[key] = _deep_values(moving, me, s, style)
                vals = deep[key]
            bonus = style.hand * _hand_value({t: h for t, h in hand.items() if t != s}, mine) if style.hand else 0.0
            table[s] = [v + bonus for v in vals]
            ranks[s] = p & 3
        return turn_value(table, ranks) + flex[rank] * ev.future

    ranked = sorted(((turn(a, None, None), -i, a) for i, a in enumerate(legal)), key=lambda t: (t[0], t[1]),
                    reverse=True)
    deep: dict[tuple[int, int], list[float]] = {}  # (piece, slot) -> reply-charged value by die
    best: tuple[float, int, Action] | None = None
    for _, neg, a in ranked:
        colour, slot = int(a["colour"]), SPACE_INDEX[a["space"]]
        movers = (colour,) if st.players == 2 else mine
        placed, _ = GAME.apply(st, me, a)
        keys = {(p if s != slot else 4 * colour + 1, s) for s, p in enumerate(placed.frame)
                if p != EMPTY and p >> 2 in movers}
        if not clock.spend(6 * len(keys - deep.keys())):
            break
        val = turn(a, deep, replace(placed, phase="move", roll=1))
        if best is None or (val, neg) > (best[0], best[1]):
            best = (val, neg, a)
    return best[2] if best is not None else ranked[0][2]
