"""Indus (Wolfgang Panning, Queen Games 2004): the rules engine.

Archaeologists of three ranks enter a 6×6 dig from 24 start spaces on the frame. Each turn a
player places a piece from reserve on a free start space, rolls the die (up to three times, each
reroll narrowing the ranks that may move) and moves one frame piece straight in by exactly the
die. Pieces stack; a second piece of a colour on a square secures it and captures every other
colour there, and any other colour landing on it later is captured at once. When every piece
has entered the dig, buildings pay first and second place by all pieces, the other ruins pay
their majority of top pieces, and prisoners pay 1 / 2 / 3 by rank.

Hidden information: none. The only unknown is the future dice, which are chance events
(outcome ``1``–``6``, 1/6 each) drawn from ``chance_key(seed, draws)``. Every seat's view equals
the public view, and ``resample_hidden`` returns the state itself.

Binding source: ``shared/rules/indus.md`` (its "Implementation answers" settle the open points).
Colours: with 3–4 players colour = seat; with 2 players seat s owns colours s and s + 2. Every
rule is keyed by colour; scoring treats each colour as its own pseudo-player and sums a seat's
colours (§8). Decisions where the rules file is silent are noted where they are implemented:
- a custom layout's values may be any non-negative integers (a real board may print several
  finds next to a ruin); the §9.4 clamp to 1..12 applies to formula values only;
- ``result`` before the end gives the standing with ``winners == []``.

Pieces are ints ``4 * colour + rank`` with rank 1 Worker, 2 Assistant, 3 Professor (the star
count, which is also the prisoner value). Frame start spaces are named by side and line:
``N0``–``N5`` (top of columns 0–5), ``E0``–``E5`` (right of rows), ``S0``–``S5``, ``W0``–``W5``.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any

from engine.core import CHANCE, Event, IllegalAction, Reason, check_seat, is_listed, is_seat, pick_weighted

from .layout import SIZE, TYPE_NAMES, Layout, build_layout, layout_from_option

__all__ = [
    "COLOUR_NAMES",
    "DIE",
    "GAME",
    "RANKS",
    "SPACES",
    "IndusGame",
    "State",
    "action_key",
    "colour_scores",
    "landing",
    "seat_colours",
    "seat_of",
]

COLOUR_NAMES = ("blue", "yellow", "green", "red")
RANKS = {1: "W", 2: "A", 3: "P"}
"""Rank number (stars, prisoner value) → letter: Worker, Assistant, Professor."""
RANK_OF = {v: k for k, v in RANKS.items()}
RANK_NAMES = {1: "worker", 2: "assistant", 3: "professor"}

SIDES = "NESW"
SPACES = tuple(f"{side}{i}" for side in SIDES for i in range(SIZE))
"""The 24 start spaces in frame-slot order."""
SPACE_INDEX = {name: i for i, name in enumerate(SPACES)}
_SPACES_BY_NAME = tuple(SPACE_INDEX[name] for name in sorted(SPACES))
_RANKS_BY_LETTER = tuple(sorted(RANKS, key=RANKS.__getitem__))

DIE = tuple(range(1, 7))
_DIE_OUTCOMES: list[tuple[Any, float]] = [(d, 1 / 6) for d in DIE]

EMPTY = -1
NOBODY = -1

# Per player count: pieces per colour (W, A, P) and start pieces per colour (W, A, P); §4.1.
_FULL = {2: (6, 4, 2), 3: (8, 5, 3), 4: (6, 4, 2)}
_START = {2: (1, 1, 0), 3: (2, 1, 0), 4: (1, 1, 0)}


def landing(space: int, die: int) -> int:
    """Return the square a piece reaches from frame slot ``space`` with ``die`` (§5.2)."""
    side, line = divmod(space, SIZE)
    if side == 0:  # N_c → (d−1, c)
        return (die - 1) * SIZE + line
    if side == 1:  # E_r → (r, 6−d)
        return line * SIZE + (SIZE - die)
    if side == 2:  # S_c → (6−d, c)
        return (SIZE - die) * SIZE + line
    return line * SIZE + (die - 1)  # W_r → (r, d−1)


# LANDING[space][die] precomputed: movement is on the hot path of playouts and AI search.
LANDING = tuple(tuple(landing(s, d) if d else -1 for d in range(7)) for s in range(4 * SIZE))


def colours_in_play(players: int) -> int:
    """Return how many colours a game of ``players`` uses (2 players: two each)."""
    return 3 if players == 3 else 4


def seat_of(colour: int, players: int) -> int:
    """Return the seat that owns ``colour``."""
    return colour % players if players == 2 else colour


def seat_colours(seat: int, players: int) -> tuple[int, ...]:
    """Return the colours ``seat`` owns (2 players: ``seat`` and ``seat + 2``)."""
    return (seat, seat + 2) if players == 2 else (seat,)


def action_key(action: Any) -> str:
    """Return the sort key of an action (its canonical JSON)."""
    return json.dumps(action, sort_keys=True)


@dataclass(frozen=True)
class State:
    """A whole game of Indus as plain immutable data.

    ``phase`` is one of ``setup`` (start pieces), ``place`` (reserve piece to a start space),
    ``roll`` (a die is due), ``move`` (choose a frame piece or reroll), ``keep`` (2 players:
    decide the fate of one's own captured piece) and ``over``.
    """

    players: int
    seed: int
    draws: int
    layout: Layout
    phase: str
    seat: int
    frame: tuple[int, ...]  # 24 slots: piece or EMPTY
    stacks: tuple[tuple[int, ...], ...]  # 36 squares, bottom → top
    owners: tuple[int, ...]  # 36 squares: securing colour or NOBODY
    start: tuple[tuple[int, int, int], ...]  # per colour: start pieces still to place (W, A, P)
    reserve: tuple[tuple[int, int, int], ...]  # per colour (W, A, P)
    prisoners: tuple[tuple[int, ...], ...]  # per seat, pieces in capture order
    roll: int = 0  # number of the current roll (0 before the first)
    die: int = 0  # the current die, 0 when none
    placed: int = NOBODY  # colour placed this turn (fixes the colour that moves in 2p)
    pending: int = EMPTY  # own piece captured by a securing, awaiting keep / return (2p)
    turn: int = 0  # turns begun so far (1 = seat 0's first turn after setup)


def _bump(counts: tuple[int, int, int], rank: int, delta: int) -> tuple[int, int, int]:
    """Return (W, A, P) counts with ``rank`` changed by ``delta``."""
    w, a, p = counts
    if rank == 1:
        return (w + delta, a, p)
    if rank == 2:
        return (w, a + delta, p)
    return (w, a, p + delta)


def _set(tup: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """Return ``tup`` with item ``i`` replaced."""
    return (*tup[:i], value, *tup[i + 1 :])


def _piece_json(piece: int) -> dict[str, Any]:
    """Return a piece as a JSON dict: colour and rank letter."""
    return {"colour": piece >> 2, "rank": RANKS[piece & 3]}


def movable_colours(state: State) -> tuple[int, ...]:
    """Return the colours the mover may move now (2p: the colour placed this turn, if any)."""
    if state.placed != NOBODY:
        return (state.placed,)
    return seat_colours(state.seat, state.players)


def _eligible(state: State, min_rank: int) -> list[int]:
    """Return frame slots holding a movable piece of at least ``min_rank``."""
    colours = movable_colours(state)
    return [
        i for i, p in enumerate(state.frame) if p != EMPTY and (p >> 2) in colours and (p & 3) >= min_rank
    ]


def reroll_allowed(state: State) -> bool:
    """Return True if the mover may reject the current roll (§5.1: a piece for the next roll)."""
    return state.phase == "move" and state.roll < 3 and bool(_eligible(state, state.roll + 1))


def _has_pieces(state: State, seat: int) -> bool:
    """Return True if ``seat`` holds anything in reserve or on the frame."""
    colours = seat_colours(seat, state.players)
    if any(sum(state.reserve[c]) for c in colours):
        return True
    return any(p != EMPTY and (p >> 2) in colours for p in state.frame)


def _begin_turn(state: State, seat: int, events: list[Event]) -> State:
    """Return the state at the start of ``seat``'s turn, skipping seats with nothing left."""
    if not any(sum(r) for r in state.reserve) and all(p == EMPTY for p in state.frame):
        return replace(state, phase="over", roll=0, die=0, placed=NOBODY, pending=EMPTY)
    while not _has_pieces(state, seat):
        events.append({"type": "skipped", "seat": seat})
        seat = (seat + 1) % state.players
    has_reserve = any(sum(state.reserve[c]) for c in seat_colours(seat, state.players))
    events.append({"type": "turn", "seat": seat, "turn": state.turn + 1, "place": has_reserve})
    return replace(
        state,
        phase="place" if has_reserve else "roll",
        seat=seat,
        roll=0,
        die=0,
        placed=NOBODY,
        pending=EMPTY,
        turn=state.turn + 1,
    )


def _legal(state: State, seat: int) -> list[Any]:
    """Return the legal actions of ``seat``, already in ``action_key`` order."""
    phase = state.phase
    if phase == "over" or not is_seat(seat):
        return []
    if phase == "roll":
        return list(DIE) if seat == CHANCE else []
    if seat != state.seat:
        return []
    out: list[Any] = []
    if phase in ("setup", "place"):
        # Generated directly in action_key order (colour, rank letter, space name): placements
        # are the longest lists and sorting them by JSON text dominated random playouts.
        pool = state.start if phase == "setup" else state.reserve
        free = [i for i in _SPACES_BY_NAME if state.frame[i] == EMPTY]
        for colour in seat_colours(seat, state.players):
            for rank in _RANKS_BY_LETTER:
                if pool[colour][rank - 1]:
                    letter = RANKS[rank]
                    out.extend(
                        {"do": "place", "colour": colour, "rank": letter, "space": SPACES[i]} for i in free
                    )
    elif phase == "move":
        for i in _eligible(state, state.roll):
            piece = state.frame[i]
            row, col = divmod(LANDING[i][state.die], SIZE)
            out.append(
                {
                    "do": "move",
                    "space": SPACES[i],
                    "colour": piece >> 2,
                    "rank": RANKS[piece & 3],
                    "row": row,
                    "col": col,
                }
            )
        # Same order as action_key (its JSON keys sort as col, colour, do, rank, row, space;
        # every number is one digit), without encoding JSON on the hot path.
        out.sort(key=lambda a: (a["col"], a["colour"], a["rank"], a["row"], a["space"]))
        if reroll_allowed(state):
            out.append({"do": "reroll"})  # '{"do"' sorts after every '{"col' of a move
    elif phase == "keep":
        pj = _piece_json(state.pending)
        out.append({"do": "keep", **pj})
        out.append({"do": "return", **pj})
    return out


def _land(state: State, slot: int, events: list[Event]) -> State:
    """Return the state after the frame piece in ``slot`` moves in by the die (§5.2, §5.3)."""
    piece = state.frame[slot]
    colour = piece >> 2
    square = LANDING[slot][state.die]
    frame = _set(state.frame, slot, EMPTY)
    row, col = divmod(square, SIZE)
    events.append({"type": "move", "seat": state.seat, "space": SPACES[slot], "row": row, "col": col,
                   "die": state.die, **_piece_json(piece)})
    owner = state.owners[square]
    players = state.players
    if owner != NOBODY and owner != colour:
        # A later arrival on a square secured by another colour is captured by its owner at
        # once; in 2 players also by one's own other colour, with no keep/return choice (note 6).
        captor = seat_of(owner, players)
        prisoners = _set(state.prisoners, captor, (*state.prisoners[captor], piece))
        events.append({"type": "captured", "by": captor, "by_colour": owner, "row": row, "col": col,
                       "pieces": [_piece_json(piece)], "arrival": True})
        return replace(state, frame=frame, prisoners=prisoners)
    stack = (*state.stacks[square], piece)
    owners = state.owners
    pending = EMPTY
    prisoners = state.prisoners
    if owner == NOBODY and sum(1 for p in stack if p >> 2 == colour) >= 2:
        owners = _set(owners, square, colour)
        captured = [p for p in stack if p >> 2 != colour]
        stack = tuple(p for p in stack if p >> 2 == colour)
        events.append({"type": "secured", "seat": state.seat, "colour": colour, "row": row, "col": col})
        taken = tuple(p for p in captured if seat_of(p >> 2, players) != state.seat)
        own = [p for p in captured if seat_of(p >> 2, players) == state.seat]
        if taken:
            prisoners = _set(prisoners, state.seat, (*prisoners[state.seat], *taken))
            events.append({"type": "captured", "by": state.seat, "by_colour": colour, "row": row,
                           "col": col, "pieces": [_piece_json(p) for p in taken], "arrival": False})
        if own:
            # An unsecured square holds at most one piece per colour, so at most one own piece.
            pending = own[0]
            events.append({"type": "own_capture", "seat": state.seat, **_piece_json(pending)})
    stacks = _set(state.stacks, square, stack)
    return replace(state, frame=frame, stacks=stacks, owners=owners, prisoners=prisoners, pending=pending)


def _apply(state: State, seat: int, action: Any) -> tuple[State, list[Event]]:
    """Return the next state for an action already known to be legal."""
    events: list[Event] = []
    phase = state.phase
    if seat == CHANCE:
        die = int(action)
        events.append({"type": "roll", "seat": state.seat, "roll": state.roll + 1, "die": die})
        return replace(state, phase="move", roll=state.roll + 1, die=die, draws=state.draws + 1), events
    do = action["do"]
    if do == "place":
        colour, rank, slot = action["colour"], RANK_OF[action["rank"]], SPACE_INDEX[action["space"]]
        piece = 4 * colour + rank
        frame = _set(state.frame, slot, piece)
        events.append({"type": "place", "seat": seat, "space": action["space"], **_piece_json(piece)})
        if phase == "setup":
            start = _set(state.start, colour, _bump(state.start[colour], rank, -1))
            nxt = replace(state, frame=frame, start=start, seat=(seat + 1) % state.players)
            if not any(sum(s) for s in start):
                nxt = _begin_turn(replace(nxt, seat=0), 0, events)
            return nxt, events
        reserve = _set(state.reserve, colour, _bump(state.reserve[colour], rank, -1))
        # The colour placed fixes the colour that must move (2 players); with 3–4 it is the seat's.
        return replace(state, frame=frame, reserve=reserve, phase="roll", placed=colour), events
    if do == "reroll":
        events.append({"type": "reroll", "seat": seat, "roll": state.roll, "rejected": state.die})
        return replace(state, phase="roll", die=0), events
    if do == "move":
        nxt = _land(state, SPACE_INDEX[action["space"]], events)
        if nxt.pending != EMPTY:
            return replace(nxt, phase="keep"), events
        return _begin_turn(nxt, (seat + 1) % state.players, events), events
    # keep / return of one's own piece captured by one's own securing (2 players, §8)
    piece = state.pending
    if do == "keep":
        prisoners = _set(state.prisoners, seat, (*state.prisoners[seat], piece))
        nxt = replace(state, prisoners=prisoners, pending=EMPTY)
    else:
        colour = piece >> 2
        reserve = _set(state.reserve, colour, _bump(state.reserve[colour], piece & 3, +1))
        nxt = replace(state, reserve=reserve, pending=EMPTY)
    events.append({"type": "kept" if do == "keep" else "returned", "seat": seat, **_piece_json(piece)})
    return _begin_turn(nxt, (seat + 1) % state.players, events), events


def colour_scores(state: State) -> tuple[list[int], dict[str, dict[str, int]]]:
    """Return each colour's ruin points and, per ruin, the points each colour took (§7, §8).

    Buildings count every piece on their squares (1st and 2nd place); the other ruins count
    the squares whose top piece is the colour's (majority only). Ties follow §7.3: an even split
    rounded down; a tie for first in a building shares first + second and awards no second; a
    colour needs at least one counted piece to place.
    """
    ncol = colours_in_play(state.players)
    points = [0] * ncol
    breakdown: dict[str, dict[str, int]] = {}
    for ruin in state.layout.ruins:
        counts = [0] * ncol
        if ruin.kind == "B":
            for sq in ruin.squares:
                for p in state.stacks[sq]:
                    counts[p >> 2] += 1
        else:
            for sq in ruin.squares:
                stack = state.stacks[sq]
                if stack:
                    counts[stack[-1] >> 2] += 1
        top = max(counts)
        if top == 0:
            continue
        firsts = [c for c in range(ncol) if counts[c] == top]
        got: dict[str, int] = {}
        if ruin.kind == "B" and len(firsts) == 1:
            got[str(firsts[0])] = ruin.first
            rest = [counts[c] for c in range(ncol) if c != firsts[0]]
            runner = max(rest)
            if runner > 0:
                seconds = [c for c in range(ncol) if c != firsts[0] and counts[c] == runner]
                for c in seconds:
                    got[str(c)] = ruin.second // len(seconds)
        else:
            pot = ruin.first + ruin.second if ruin.kind == "B" else ruin.first
            for c in firsts:
                got[str(c)] = pot // len(firsts)
        for key, v in got.items():
            points[int(key)] += v
        breakdown[ruin.id] = got
    return points, breakdown


def prisoner_points(state: State) -> list[int]:
    """Return each seat's prisoner points (Worker 1, Assistant 2, Professor 3)."""
    return [sum(p & 3 for p in taken) for taken in state.prisoners]


def standing(state: State) -> dict[str, Any]:
    """Return scores per seat, prisoner points, per-colour ruin points and the breakdown."""
    ruin_pts, breakdown = colour_scores(state)
    prison = prisoner_points(state)
    scores = [
        prison[s] + sum(ruin_pts[c] for c in seat_colours(s, state.players)) for s in range(state.players)
    ]
    return {"scores": scores, "prisoner_points": prison, "colour_points": ruin_pts, "ruins": breakdown}


def winners(scores: list[int], prison: list[int]) -> list[int]:
    """Return the winning seats: highest score, then highest prisoner points, else shared."""
    best = max(scores)
    tied = [s for s, v in enumerate(scores) if v == best]
    top_prison = max(prison[s] for s in tied)
    return [s for s in tied if prison[s] == top_prison]


def _new_state(players: int, seed: int, layout: Layout) -> State:
    """Return the state before the first start piece is placed."""
    ncol = colours_in_play(players)
    full, start = _FULL[players], _START[players]
    reserve = tuple(f - s for f, s in zip(full, start, strict=True))
    return State(
        players=players,
        seed=seed,
        draws=0,
        layout=layout,
        phase="setup",
        seat=0,
        frame=(EMPTY,) * (4 * SIZE),
        stacks=((),) * (SIZE * SIZE),
        owners=(NOBODY,) * (SIZE * SIZE),
        start=tuple((start[0], start[1], start[2]) for _ in range(ncol)),
        reserve=tuple((reserve[0], reserve[1], reserve[2]) for _ in range(ncol)),
        prisoners=((),) * players,
    )


class IndusGame:
    """The Indus rules behind the engine contract (see engine/core.py ``Game``)."""

    name = "indus"
    min_players = 2
    max_players = 4

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """Return a new game; option ``layout``: "default", "random" or a custom layout."""
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"players: Indus is for 2 to 4 players, got {players!r}")
        opts = dict(options or {})
        unknown = set(opts) - {"layout"}
        if unknown:
            raise ValueError(f"unknown option(s) {sorted(unknown)}; Indus knows only 'layout'")
        layout = layout_from_option(opts.get("layout", "default"), seed)
        return _new_state(players, seed, layout)

    def to_move(self, state: State) -> list[int]:
        """Return ``[seat]`` of the player to act, ``[CHANCE]`` when a die is due, ``[]`` at the end."""
        if state.phase == "over":
            return []
        if state.phase == "roll":
            return [CHANCE]
        return [state.seat]

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """Return the die faces 1–6 with probability 1/6 each when a roll is due."""
        return list(_DIE_OUTCOMES) if state.phase == "roll" else []

    def sample_chance(self, state: State, key: int) -> Any:
        """Return the die face the 64-bit key selects."""
        return pick_weighted(_DIE_OUTCOMES, key)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        """Return the sorted legal actions of ``seat`` (die faces for CHANCE when a roll is due)."""
        return _legal(state, seat)

    def apply(self, state: State, seat: int, action: Any) -> tuple[State, list[Event]]:
        """Return the next state and events; raise IllegalAction if ``action`` is not legal."""
        check_seat(seat)
        if state.phase == "over":
            raise IllegalAction(Reason.GAME_OVER, "the game has ended")
        if state.phase == "roll" and seat != CHANCE:
            raise IllegalAction(Reason.CHANCE_DUE, "the die must be rolled first")
        if seat not in self.to_move(state):
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"seat {seat} is not to move")
        if not is_listed(action, _legal(state, seat)) or (seat == CHANCE and type(action) is not int):
            raise IllegalAction(Reason.ILLEGAL_MOVE, f"{action!r} is not legal now")
        nxt, events = _apply(state, seat, action)
        if nxt.phase == "over":
            res = self.result(nxt)
            events.append({"type": "game_over", "scores": res["scores"], "winners": res["winners"]})
        return nxt, events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return the public view (every seat sees the same: nothing in Indus is hidden)."""
        layout = state.layout
        ruins = [
            {"id": r.id, "type": TYPE_NAMES[r.kind], "squares": [list(divmod(s, SIZE)) for s in r.squares],
             "first": r.first, **({"second": r.second} if r.kind == "B" else {})}
            for r in layout.ruins
        ]
        board = [
            {
                "row": sq // SIZE,
                "col": sq % SIZE,
                "types": layout.cells[sq],
                "stack": [_piece_json(p) for p in state.stacks[sq]],
                "owner": state.owners[sq],
            }
            for sq in range(SIZE * SIZE)
        ]
        frame = {SPACES[i]: _piece_json(p) for i, p in enumerate(state.frame) if p != EMPTY}
        ncol = colours_in_play(state.players)
        ranks = [RANKS[r] for r in (1, 2, 3) if r >= max(state.roll, 1)] if state.phase == "move" else []
        return {
            "game": "indus",
            "players": state.players,
            "phase": state.phase,
            "seat": state.seat if state.phase != "over" else None,
            "turn": state.turn,
            "colours": [
                {"colour": c, "name": COLOUR_NAMES[c], "seat": seat_of(c, state.players)} for c in range(ncol)
            ],
            "seat_colours": [list(seat_colours(s, state.players)) for s in range(state.players)],
            "layout": {"source": layout.source, "cells": list(layout.cells), "ruins": ruins},
            "board": board,
            "frame": frame,
            "reserve": [dict(zip("WAP", r, strict=True)) for r in state.reserve],
            "start_pieces": [dict(zip("WAP", s, strict=True)) for s in state.start],
            "prisoners": [[_piece_json(p) for p in taken] for taken in state.prisoners],
            "roll": state.roll,
            "die": state.die or None,
            "ranks_allowed": ranks,
            "reroll_allowed": reroll_allowed(state),
            "placed_colour": state.placed if state.placed != NOBODY else None,
            "pending": _piece_json(state.pending) if state.pending != EMPTY else None,
            "standing": standing(state),
        }

    def observe(self, state: State, seat: int) -> dict[str, Any]:
        """Return what an AI seat perceives: the public view (nothing is hidden)."""
        return self.view(state, seat)

    def resample_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """Return ``state`` itself: Indus hides nothing but the future dice."""
        return state

    def is_over(self, state: State) -> bool:
        """Return True once every piece has entered the dig."""
        return state.phase == "over"

    def result(self, state: State) -> dict[str, Any]:
        """Return scores per seat, winners (empty before the end) and the scoring breakdown."""
        st = standing(state)
        won = winners(st["scores"], st["prisoner_points"]) if state.phase == "over" else []
        return {**st, "winners": won}

    def dumps(self, state: State) -> str:
        """Return the state as JSON (the layout as cells + values)."""
        data = {
            "players": state.players,
            "seed": state.seed,
            "draws": state.draws,
            "layout": {"cells": list(state.layout.cells), "values": state.layout.values(),
                       "source": state.layout.source},
            "phase": state.phase,
            "seat": state.seat,
            "frame": list(state.frame),
            "stacks": [list(s) for s in state.stacks],
            "owners": list(state.owners),
            "start": [list(s) for s in state.start],
            "reserve": [list(r) for r in state.reserve],
            "prisoners": [list(p) for p in state.prisoners],
            "roll": state.roll,
            "die": state.die,
            "placed": state.placed,
            "pending": state.pending,
            "turn": state.turn,
        }
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def loads(self, data: str) -> State:
        """Return the state that ``dumps`` wrote."""
        d = json.loads(data)
        lay = d["layout"]
        layout = build_layout(lay["cells"], lay["values"], lay["source"])

        def triple(x: list[int]) -> tuple[int, int, int]:
            return (int(x[0]), int(x[1]), int(x[2]))

        return State(
            players=d["players"],
            seed=d["seed"],
            draws=d["draws"],
            layout=layout,
            phase=d["phase"],
            seat=d["seat"],
            frame=tuple(d["frame"]),
            stacks=tuple(tuple(s) for s in d["stacks"]),
            owners=tuple(d["owners"]),
            start=tuple(triple(s) for s in d["start"]),
            reserve=tuple(triple(r) for r in d["reserve"]),
            prisoners=tuple(tuple(p) for p in d["prisoners"]),
            roll=d["roll"],
            die=d["die"],
            placed=d["placed"],
            pending=d["pending"],
            turn=d["turn"],
        )


GAME = IndusGame()
"""The Indus game object of the engine contract."""
