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

This module holds the state, the legal actions and their effects; the end scoring is in
``scoring.py`` and the contract object ``GAME`` (``IndusGame``) in ``game.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from engine.core import CHANCE, Event, is_seat

from .layout import SIZE, Layout

__all__ = [
    "COLOUR_NAMES",
    "DIE",
    "RANKS",
    "SPACES",
    "State",
    "action_key",
    "apply_action",
    "landing",
    "legal",
    "new_state",
    "piece_json",
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


def piece_json(piece: int) -> dict[str, Any]:
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


def legal(state: State, seat: int) -> list[Any]:
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
        pj = piece_json(state.pending)
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
                   "die": state.die, **piece_json(piece)})
    owner = state.owners[square]
    players = state.players
    if owner != NOBODY and owner != colour:
        # A later arrival on a square secured by another colour is captured by its owner at
        # once; in 2 players also by one's own other colour, with no keep/return choice (note 6).
        captor = seat_of(owner, players)
        prisoners = _set(state.prisoners, captor, (*state.prisoners[captor], piece))
        events.append({"type": "captured", "by": captor, "by_colour": owner, "row": row, "col": col,
                       "pieces": [piece_json(piece)], "arrival": True})
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
                           "col": col, "pieces": [piece_json(p) for p in taken], "arrival": False})
        if own:
            # An unsecured square holds at most one piece per colour, so at most one own piece.
            pending = own[0]
            events.append({"type": "own_capture", "seat": state.seat, **piece_json(pending)})
    stacks = _set(state.stacks, square, stack)
    return replace(state, frame=frame, stacks=stacks, owners=owners, prisoners=prisoners, pending=pending)


def apply_action(state: State, seat: int, action: Any) -> tuple[State, list[Event]]:
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
        events.append({"type": "place", "seat": seat, "space": action["space"], **piece_json(piece)})
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
    events.append({"type": "kept" if do == "keep" else "returned", "seat": seat, **piece_json(piece)})
    return _begin_turn(nxt, (seat + 1) % state.players, events), events


def new_state(players: int, seed: int, layout: Layout) -> State:
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
