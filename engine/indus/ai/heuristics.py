"""Indus's heuristic players: the greedy one and the expectimax one over the dice.

The lobby's levels (:mod:`engine.indus.ai`) seat the expectimax player (:func:`hard`, the lobby's
Hard until 2026-12-05) as Medium; the greedy player (:func:`medium`) left the lobby and plays on
in the tests and benchmarks. Below, "Medium" and "Hard" are these two functions.

Indus hides nothing, so every agent rebuilds the exact state from its view
(:func:`state_from_view`); the only uncertainty is the future dice, which the agents treat as
chance (1/6 each), never by peeking at the seeded generator.

- **Medium** is greedy on this roll: each move is scored by the change in the end-of-game
  score if the game ended now (majorities, first and second places, captures, securing) minus
  the expected loss when an opponent can secure the square next turn. It rerolls when the
  expected best move of the next roll (with its rank restriction) beats the best move now, and
  places the piece whose single roll has the best expected move.
- **Hard** plays the whole turn by expectimax: every placement (colour, rank, space) is
  valued through the full roll / reroll / reroll tree (up to three dice), so it places
  Assistants and Professors where rerolls pay. Its evaluation adds what Medium ignores: capture
  chances that count placements and rerolls, the chance to secure its own lone pieces later,
  pieces on top of unsecured squares that may be covered, the ranks kept on the frame for
  future rerolls, and soft majorities (early in the game a ruin is valued partly by the share
  of pieces counted, since a lead can still be overturned; exact payouts at the end). At move
  time it also charges each candidate with the opponents' best expected reply on the next turn.

Utility of a seat = its score minus the mean score of the other seats (2 players: minus the
other seat's two colours; Hard with 3–4 players weighs the leading opponent more); each colour
is scored as its own pseudo-player, as in §8.
"""

from __future__ import annotations

import random
from typing import Any

from ..game import GAME
from ..layout import SIZE
from ..rules import (
    EMPTY,
    LANDING,
    RANK_OF,
    RANKS,
    SPACE_INDEX,
    SPACES,
    State,
    movable_colours,
    seat_colours,
)
from .evaluation import HARD_WEIGHTS, Eval, Weights, state_from_view

__all__ = ["hard", "medium", "place_values", "state_from_view", "turn_value"]


_REPLY_ALL = False
"""Whether every other seat replies (4 players), or only the next one."""
_REPLY_PLACE = False
"""Whether the reply includes the opponent's placement of a new piece before its roll.
Measured with _REPLY_ALL and 6 candidates (paired 200 games): 64 % / 66 % against 65 % / 66 %
without (2 / 4 players), so both stay off; the knobs are kept for bench/indus_ai.py studies."""


def _seat_reply(ev: Eval, st: State, seat: int) -> float:
    """Return the expected best next-turn gain of ``seat`` in ``ev``'s position (its utility)."""
    colours = seat_colours(seat, st.players)
    slots = ev.movable(colours, 1)
    place = _REPLY_PLACE and any(sum(ev.reserve[c]) for c in colours)
    if not slots and not place:
        return 0.0
    saved = (ev.wcol, ev.wseat, ev.me, ev.hard)
    opp = 1.0 / (st.players - 1)
    ev.wcol = [1.0 if ev.seat_of[c] == seat else -opp for c in range(ev.ncol)]
    ev.wseat = [1.0 if s == seat else -opp for s in range(st.players)]
    ev.me, ev.hard = seat, False
    base = [max((ev.move_value(s, ev.frame[s], d) for s in slots), default=float("-inf")) for d in range(7)]
    total = sum(base[1:]) / 6.0
    if place:
        # it places first: the best free start space for a new worker of one of its colours
        for colour in colours:
            if not sum(ev.reserve[colour]):
                continue
            piece = 4 * colour + 1
            for slot in range(4 * SIZE):
                if ev.frame[slot] != EMPTY:
                    continue
                ev.frame[slot] = piece
                val = sum(max(base[d], ev.move_value(slot, piece, d)) for d in range(1, 7)) / 6.0
                ev.frame[slot] = EMPTY
                total = max(total, val)
    ev.wcol, ev.wseat, ev.me, ev.hard = saved
    return total


def _opponent_reply(ev: Eval, st: State) -> float:
    """Return the opponents' expected best gain on their next turn(s), as my utility loss."""
    if st.phase == "over" or st.seat == ev.me:
        return 0.0
    seats = [s for s in range(st.players) if s != ev.me] if _REPLY_ALL else [st.seat]
    total = sum(_seat_reply(ev, st, s) for s in seats)
    # a reply's gain to that seat costs me about its weight among my opponents
    return total * (1.0 if st.players == 2 else 1.0 / (st.players - 1))


def _moves_by_die(ev: Eval, slots: list[int]) -> dict[int, list[float]]:
    """Return each slot's move value for every die face."""
    return {s: [0.0, *(ev.move_value(s, ev.frame[s], d) for d in range(1, 7))] for s in slots}


def turn_value(values: dict[int, list[float]], ranks: dict[int, int], start: int = 1) -> float:
    """Return the expectimax value of a turn from roll ``start`` (rerolls up to roll 3).

    ``values[slot][die]`` is the move value of a frame piece, ``ranks[slot]`` its rank; roll k
    may move ranks ≥ k and a reroll to roll k + 1 needs a piece of rank ≥ k + 1.
    """
    nxt = float("-inf")  # value of rerolling into roll k + 1
    for k in (3, 2, 1):
        if k < start:
            break
        eligible = [s for s in values if ranks[s] >= k]
        if not eligible:
            nxt = float("-inf")
            continue
        tot = 0.0
        for d in range(1, 7):
            tot += max(max(values[s][d] for s in eligible), nxt)
        nxt = tot / 6.0
    return nxt


def _medium_place(ev: Eval, st: State, legal: list[Any]) -> Any:
    """Return the placement whose single roll gives the best expected move (Medium)."""
    best, best_val = legal[0], float("-inf")
    cache: dict[tuple[int, ...], list[float]] = {}
    for action in legal:
        colour, rank, slot = action["colour"], RANK_OF[action["rank"]], SPACE_INDEX[action["space"]]
        piece = 4 * colour + rank
        movers = (colour,) if st.players == 2 else seat_colours(st.seat, st.players)
        key = movers
        if key not in cache:
            slots = ev.movable(movers, 1)
            cache[key] = [max((ev.move_value(s, ev.frame[s], d) for s in slots), default=float("-inf"))
                          for d in range(7)]
        base = cache[key]
        ev.frame[slot] = piece
        val = sum(max(base[d], ev.move_value(slot, piece, d)) for d in range(1, 7)) / 6.0
        ev.frame[slot] = EMPTY
        # ties: the earliest action in the stable legal order
        if val > best_val + 1e-9:
            best, best_val = action, val
    return best


def _hard_place(ev: Eval, st: State, legal: list[Any]) -> Any:
    """Return the placement with the best expectimax turn value (Hard)."""
    best, best_val = legal[0], float("-inf")
    for action, val in zip(legal, place_values(ev, st, legal), strict=True):
        if val > best_val + 1e-9:
            best, best_val = action, val
    return best


def place_values(ev: Eval, st: State, legal: list[Any]) -> list[float]:
    """Return Hard's expectimax turn value of every placement in ``legal`` (the search ranks
    its candidates by it)."""
    out: list[float] = []
    cache: dict[tuple[int, ...], tuple[dict[int, list[float]], dict[int, int]]] = {}
    for action in legal:
        colour, rank, slot = action["colour"], RANK_OF[action["rank"]], SPACE_INDEX[action["space"]]
        piece = 4 * colour + rank
        movers = (colour,) if st.players == 2 else seat_colours(st.seat, st.players)
        if movers not in cache:
            slots = ev.movable(movers, 1)
            cache[movers] = (_moves_by_die(ev, slots), {s: ev.frame[s] & 3 for s in slots})
        values, ranks = cache[movers]
        ev.frame[slot] = piece
        new_vals = [0.0, *(ev.move_value(slot, piece, d) for d in range(1, 7))]
        ev.frame[slot] = EMPTY
        val = turn_value({**values, slot: new_vals}, {**ranks, slot: rank})
        if st.phase == "place":
            # a high rank left on the frame keeps rerolls open for later turns
            val += ev.w.place_flex[rank] * ev.future
        out.append(val)
    return out


def _choose_move(ev: Eval, st: State, legal: list[Any], hard: bool) -> Any:
    """Return the move (or reroll) for the current roll."""
    moves = [a for a in legal if a["do"] == "move"]
    scored: list[tuple[float, int, Any]] = []
    for i, a in enumerate(moves):
        slot = SPACE_INDEX[a["space"]]
        scored.append((ev.move_value(slot, ev.frame[slot], st.die), -i, a))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    best_val, _, best = scored[0]
    if hard:
        # charge the best few with the next seat's best expected reply
        rescored = []
        for val, neg_i, a in scored[: ev.w.reply_top]:
            slot = SPACE_INDEX[a["space"]]
            nxt_state = _after_move(st, slot, ev.frame[slot])
            reply = _opponent_reply(Eval(nxt_state, ev.me, True, ev.w), nxt_state)
            rescored.append((val - ev.w.reply_weight * reply, neg_i, a))
        best = max(rescored, key=lambda t: (t[0], t[1]))[2]
    if {"do": "reroll"} in legal:
        colours = movable_colours(st)
        nxt_roll = st.roll + 1
        slots = ev.movable(colours, nxt_roll)
        if hard:
            values = _moves_by_die(ev, slots)
            ranks = {s: ev.frame[s] & 3 for s in slots}
            # the value of continuing from roll k + 1 with its own rerolls
            future = turn_value(values, ranks, nxt_roll)
        else:
            future = sum(max(ev.move_value(s, ev.frame[s], d) for s in slots) for d in range(1, 7)) / 6.0
        if future > best_val + 1e-9:
            return {"do": "reroll"}
    return best


def _after_move(st: State, slot: int, piece: int) -> State:
    """Return the state after a move, through the real rules (for the reply estimate)."""
    action = {"do": "move", "space": SPACES[slot], "colour": piece >> 2, "rank": RANKS[piece & 3],
              "row": LANDING[slot][st.die] // SIZE, "col": LANDING[slot][st.die] % SIZE}
    nxt, _ = GAME.apply(st, st.seat, action)
    return nxt


def _decide(view: dict[str, Any], legal: list[Any], hard: bool, weights: Weights = HARD_WEIGHTS) -> Any:
    """Return Medium's or Hard's choice."""
    if len(legal) == 1:
        return legal[0]
    st = state_from_view(view)
    ev = Eval(st, st.seat, hard, weights)
    kind = legal[0]["do"]
    if kind == "place":
        return _hard_place(ev, st, legal) if hard else _medium_place(ev, st, legal)
    if kind in ("keep", "return"):
        piece = st.pending
        # keep a prisoner (1/2/3) or return it for one more move later
        keep = float(piece & 3) >= weights.keep_slope * ev.future + weights.keep_base if hard else piece & 3 == 3
        return next(a for a in legal if a["do"] == ("keep" if keep else "return"))
    return _choose_move(ev, st, legal, hard)


def medium(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Medium: greedy on this roll (majorities, captures, securing, capture risk)."""
    return _decide(view, legal, hard=False)


def hard(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Hard: expectimax over the turn's rolls and rerolls with a richer evaluation."""
    return _decide(view, legal, hard=True)

