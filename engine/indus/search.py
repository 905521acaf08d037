"""Indus's Hard AI: expectimax over the dice, a ply deeper than the heuristic players.

Indus hides nothing; the only unknown is the dice. Hard values a move by the position it leaves
*after the next seat's reply*: for each of the six faces of that seat's die, the reply is that
seat's greedy best move, and the position reached is scored by a value function
(:func:`position_value`: ruin majorities, softened early in the game; prisoners; the pieces
left open to capture, and one's own lone pieces that may be secured later). A reroll is valued
as the mean over the next die of the best move it allows (each again valued after the reply).
Everything is enumerated, nothing sampled: the same position gives the same move.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .evaluation import _Eval
from .heuristics import _turn_value
from .layout import SIZE
from .rules import (
    EMPTY,
    GAME,
    LANDING,
    NOBODY,
    RANK_OF,
    RANKS,
    SPACE_INDEX,
    SPACES,
    State,
    colours_in_play,
    seat_colours,
    standing,
    winners,
)

__all__ = ["position_value", "reply_value"]

Action = dict[str, Any]

FOLLOW = 0.5
"""Weight of one's own best move on the coming turn, after the reply (its chances are not all
one's own: the turn has one move, and the other seats move in between with 3-4 players)."""
PLACE_SEARCH = False
"""Whether placements are searched too (measured: no gain over the heuristic's expectimax)."""
REFINE = 3
"""Placements valued again with the next seat's reply (the best of the quick valuation)."""
RISK = 0.6
"""Weight of the threats and chances one more turn away (the next reply is searched)."""
FLEX = (0.0, 0.0, 0.25, 0.45)
"""What an Assistant / a Professor on the frame is worth for the rerolls it keeps open."""
WIN_BONUS = 15.0
"""What winning is worth beyond the points, once the game is over in a searched line."""


def _final(st: State, me: int) -> float:
    """Return the utility of a finished game: margin over the others, and the win."""
    table = standing(st)
    scores: list[int] = table["scores"]
    others = [scores[s] for s in range(st.players) if s != me]
    won = winners(scores, table["prisoner_points"])
    bonus = WIN_BONUS / len(won) if me in won else 0.0
    return float(scores[me] - max(others)) + bonus


def position_value(st: State, me: int) -> float:
    """Return what the position is worth to ``me``: majorities now (softened while the game is
    young), prisoners, and the captures one turn away on either side."""
    if st.phase == "over":
        return _final(st, me)
    ev = _Eval(st, me, True)
    value = 0.0
    for i in range(len(ev.ruins)):
        value += ev.ruin_value(i)
    for s, taken in enumerate(st.prisoners):
        value += ev.wseat[s] * sum(p & 3 for p in taken)
    mine = seat_colours(me, st.players)
    for p in st.frame:
        if p != EMPTY:
            # a high rank waiting on the frame keeps rerolls open for later turns
            value += ev.wcol[p >> 2] * FLEX[p & 3] * ev.future
    for q in range(SIZE * SIZE):
        if st.owners[q] != NOBODY or not st.stacks[q]:
            continue
        value += RISK * (ev.square_risk(q, -1) + ev.cover_risk(q))
        for c in mine:
            value += ev.secure_chance(q, c)
    return value


def _move_action(st: State, slot: int) -> Action:
    piece = st.frame[slot]
    square = LANDING[slot][st.die]
    return {"do": "move", "space": SPACES[slot], "colour": piece >> 2, "rank": RANKS[piece & 3],
            "row": square // SIZE, "col": square % SIZE}


def _settle(st: State) -> State:
    """Answer a pending keep/return of one's own captured piece by the heuristic rule."""
    if st.phase != "keep":
        return st
    ev = _Eval(st, st.seat, False)
    piece = st.pending
    keep = float(piece & 3) >= 2.5 * ev.future + 0.5
    nxt, _ = GAME.apply(st, st.seat, {"do": "keep" if keep else "return", **_piece(piece)})
    return nxt


def _piece(piece: int) -> dict[str, Any]:
    return {"colour": piece >> 2, "rank": RANKS[piece & 3]}


def after_move(st: State, slot: int) -> State:
    """Return the state after the mover moves the frame piece in ``slot`` with the current die."""
    nxt, _ = GAME.apply(st, st.seat, _move_action(st, slot))
    return _settle(nxt)


def reply_value(st: State, me: int) -> float:
    """Return ``me``'s value of ``st`` after the seat to move makes its greedy best move, averaged
    over its die (its placement is not modelled: any of its frame pieces may move)."""
    if st.phase == "over" or st.seat == me:
        return position_value(st, me)
    seat = st.seat
    colours = seat_colours(seat, st.players)
    slots = [i for i, p in enumerate(st.frame) if p != EMPTY and p >> 2 in colours]
    if not slots:
        return position_value(st, me)
    ev = _Eval(st, seat, False)
    total = 0.0
    base = replace(st, phase="move", roll=1, placed=NOBODY, pending=EMPTY)
    for die in range(1, 7):
        best = max(slots, key=lambda s: (ev.move_value(s, st.frame[s], die), -s))
        reached = after_move(replace(base, die=die), best)
        total += position_value(reached, me) + FOLLOW * follow_up(reached, me)
    return total / 6.0


def follow_up(st: State, me: int) -> float:
    """Return ``me``'s expected best move gain on its coming turn (its frame pieces, any die)."""
    if st.phase == "over" or st.seat != me:
        return 0.0
    colours = seat_colours(me, st.players)
    slots = [i for i, p in enumerate(st.frame) if p != EMPTY and p >> 2 in colours]
    if not slots:
        return 0.0
    ev = _Eval(st, me, True)
    return sum(max(ev.move_value(s, st.frame[s], d) for s in slots) for d in range(1, 7)) / 6.0


def move_values(st: State, me: int, slots: list[int]) -> dict[int, float]:
    """Return the reply-aware value of moving each of ``slots`` with the current die."""
    return {s: reply_value(after_move(st, s), me) for s in slots}


def reroll_value(st: State, me: int, slots_of_rank: list[int]) -> float:
    """Return the mean over the next die of the best reply-aware move among ``slots_of_rank``."""
    total = 0.0
    for die in range(1, 7):
        nxt = replace(st, phase="move", roll=st.roll + 1, die=die)
        total += max(move_values(nxt, me, slots_of_rank).values())
    return total / 6.0


def choose_move(st: State, legal: list[Action]) -> Action:
    """Return the move (or reroll) with the best reply-aware value."""
    me = st.seat
    moves = [a for a in legal if a["do"] == "move"]
    values = move_values(st, me, [_slot(a) for a in moves])
    best = max(moves, key=lambda a: (values[_slot(a)], -moves.index(a)))
    if {"do": "reroll"} in legal:
        ncol = colours_in_play(st.players)
        colours = (st.placed,) if st.placed != NOBODY else seat_colours(me, st.players)
        assert all(0 <= c < ncol for c in colours)
        nxt_slots = [i for i, p in enumerate(st.frame) if p != EMPTY and p >> 2 in colours and p & 3 >= st.roll + 1]
        if reroll_value(st, me, nxt_slots) > values[_slot(best)] + 1e-9:
            return {"do": "reroll"}
    return best


def choose_place(st: State, legal: list[Action], refine: int = REFINE) -> Action:
    """Return the placement with the best expectimax turn: every placement is valued through
    the roll / reroll tree with the position each move leaves; the best few again with the
    position after the next seat's reply."""
    me = st.seat
    future = _Eval(st, me, False).future
    quick: dict[tuple[int, int], list[float]] = {}  # (piece, slot) -> value by die

    def outcome(slot: int, piece: int, die: int, reply: bool) -> float:
        frame = list(st.frame)
        frame[slot] = piece
        moving = replace(st, frame=tuple(frame), phase="move", roll=1, die=die, placed=piece >> 2)
        after = after_move(moving, slot)
        return reply_value(after, me) if reply else position_value(after, me)

    def values(slot: int, piece: int, reply: bool) -> list[float]:
        return [0.0, *(outcome(slot, piece, d, reply) for d in range(1, 7))]

    def turn(action: Action, reply: bool, cache: dict[tuple[int, int], list[float]]) -> float:
        colour, rank, slot = int(action["colour"]), RANK_OF[action["rank"]], SPACE_INDEX[action["space"]]
        movers = (colour,) if st.players == 2 else seat_colours(me, st.players)
        table: dict[int, list[float]] = {}
        ranks: dict[int, int] = {}
        for s, p in enumerate(st.frame):
            if p != EMPTY and p >> 2 in movers:
                if (p, s) not in cache:
                    cache[(p, s)] = values(s, p, reply)
                table[s], ranks[s] = cache[(p, s)], p & 3
        key = (4 * colour + 1, slot)
        if key not in cache:
            cache[key] = values(slot, 4 * colour + 1, reply)  # the landing does not depend on rank
        table[slot], ranks[slot] = cache[key], rank
        # a high rank that stays on the frame keeps rerolls open for later turns
        return _turn_value(table, ranks) + FLEX[rank] * future

    scored = sorted(((turn(a, False, quick), -i, a) for i, a in enumerate(legal)), key=lambda t: (t[0], t[1]),
                    reverse=True)
    if refine <= 1:
        return scored[0][2]
    deep: dict[tuple[int, int], list[float]] = {}
    best = max(((turn(a, True, deep), neg, a) for _, neg, a in scored[:refine]), key=lambda t: (t[0], t[1]))
    return best[2]


def _slot(action: Action) -> int:
    return SPACES.index(action["space"])
