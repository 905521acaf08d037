"""Sakkara's rules: the legal actions of a position and what each one does.

Pure functions over :class:`~engine.sakkara.state.State`. A turn is a sequence of small actions
(binding answer 2): *before* (tile uses, or the one mandatory step) -> *after* (tile uses, the
Horse, or ``end``) -> *discard* (down to the rack limit) -> *return* (the **opponent** places the
used-tile stack piece by piece) -> the next turn. Hidden information: the racks and the covered
tiles of every stack; events that would reveal them carry ``private_to``.

Spaces are numbered row-major, ``row * 7 + col``, row 0 at the top ("N"); a seat's workers are
0 and 1. The actions (flat dicts; ``do`` names the kind), each self-describing for a button:

- ``{"do": "place", "space": s}``: put the next worker on ``s`` and take its top tile;
- ``{"do": "step", "worker": w, "dir": "N"|"E"|"S"|"W"}``: the mandatory step (a Stairs is
  spent automatically when, and only when, the climb is above 2);
- ``{"do": "horse", "steps": 1|2}``: after the step, the same worker goes on;
- ``{"do": "bird", "worker": w, "space": s}``; ``{"do": "ox", "worker": w, "dir": d, "count": k}``;
- ``{"do": "snake"}``, then ``{"do": "steal", "motif": m}``;
- ``{"do": "cast", "spell": name, "order": "a,b,c", ...}``: ``order`` lists the three spent tiles
  bottom to top as they join the used-tile stack; Firestorm adds ``worker`` and ``line`` ("row" or
  "col"), Whirlwind adds ``worker``; Shipwreck and Drought have no target;
- ``{"do": "display", "motif": "ship"|"grain"}``; ``{"do": "build", "motif": m}``;
- ``{"do": "end"}``; ``{"do": "discard", "motif": m}`` (rack limit);
- ``{"do": "return", "count": k, "space": s}``: the opponent puts the top ``k`` tiles of the
  used-tile stack on ``s``.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..core import is_seat
from .state import LINES, NEIGHBOURS, RING, State, digest
from .tiles import LEVEL_OF, LEVEL_SLOTS, MOTIF_INDEX, MOTIFS, RACK_LIMIT, SPACES, SPELLS

__all__ = [
    "MAX_TURNS",
    "Action",
    "action_key",
    "build_ok",
    "completed_levels",
    "do",
    "forced",
    "grain_cap",
    "legal",
    "opponent",
    "pyramid_size",
    "stairs_spent",
    "start_turns",
    "tiles_everywhere",
    "to_move",
    "turn_key",
]

Action = dict[str, Any]
Event = dict[str, Any]

MAX_TURNS = 200  # the safety cap: the game ends after seat 1's 200th turn

SHIP = MOTIF_INDEX["ship"]
GRAIN = MOTIF_INDEX["grain"]
STAIRS = MOTIF_INDEX["stairs"]
HAND = MOTIF_INDEX["helping_hand"]
SNAKE = MOTIF_INDEX["snake"]
HORSE = MOTIF_INDEX["horse"]
BIRD = MOTIF_INDEX["bird"]
OX = MOTIF_INDEX["ox"]

# motif -> (indices sharing its slots, number of slots, hands spent with it), from the table
_SLOT: dict[str, tuple[tuple[int, ...], int, int]] = {
    m: (tuple(MOTIF_INDEX[g] for g in group), n, hands)
    for group, n, hands in LEVEL_SLOTS
    for m in group
}
_LEVEL_GROUPS: dict[int, list[tuple[tuple[int, ...], int]]] = {}
for _group, _n, _hands in LEVEL_SLOTS:
    _LEVEL_GROUPS.setdefault(LEVEL_OF[_group[0]], []).append((tuple(MOTIF_INDEX[g] for g in _group), _n))
_TOP_LEVEL = max(_LEVEL_GROUPS)
_ORDERS: dict[str, list[str]] = {
    s.name: sorted(",".join(p) for p in itertools.permutations(s.recipe)) for s in SPELLS
}


def action_key(action: Any) -> str:
    """Return the sort key of an action (its canonical JSON); legal lists are sorted by it."""
    return json.dumps(action, sort_keys=True)


def opponent(seat: int) -> int:
    """Return the other seat."""
    return 1 - seat


@lru_cache(maxsize=4096)
def completed_levels(pyramid: tuple[int, ...]) -> int:
    """Return how many pyramid levels (0..3) are complete, counting built motifs (cached: the
    searches ask it of the same few pyramids hundreds of thousands of times)."""
    done = 0
    for level in range(1, _TOP_LEVEL + 1):
        if all(sum(pyramid[i] for i in group) == n for group, n in _LEVEL_GROUPS[level]):
            done = level
        else:
            break
    return done


def pyramid_size(pyramid: tuple[int, ...]) -> int:
    """Return the number of tiles built into a pyramid (0..14)."""
    return sum(pyramid)


def tiles_everywhere(state: State) -> list[int]:
    """Return the motif counts over board, racks, displays, pyramids and pending (always the table)."""
    counts = [0] * len(MOTIFS)
    for stack in state.board:
        for m in stack:
            counts[MOTIF_INDEX[m]] += 1
    for m in state.pending + state.destroyed:
        counts[MOTIF_INDEX[m]] += 1
    for seat in (0, 1):
        for i in range(len(MOTIFS)):
            counts[i] += state.racks[seat][i] + state.pyramids[seat][i]
        counts[SHIP] += state.ships[seat]
        counts[GRAIN] += state.grains[seat]
    return counts


def to_move(state: State) -> list[int]:
    """Return the seats owing an action: [-1] for the deal, the placer while returning, [] when over."""
    if state.phase == "deal":
        return [-1]
    if state.phase == "over":
        return []
    if state.phase == "return":
        return [opponent(state.turn)]
    return [state.turn]


# ---------------------------------------------------------------------------------------------
# legal actions


def _step_cost(board: tuple[tuple[str, ...], ...], frm: int, to: int) -> int:
    """Return 1 when stepping frm -> to needs a Stairs (climb above 2), else 0."""
    return 1 if len(board[to]) - len(board[frm]) > 2 else 0


def _steps(state: State) -> list[Action]:
    seat = state.turn
    rack = state.racks[seat]
    out: list[Action] = []
    for w in (0, 1):
        if state.birded >> w & 1:
            continue  # a worker moved by a Bird does not make the step (answer 5)
        pos = state.workers[2 * seat + w]
        for d, to in NEIGHBOURS[pos].items():
            if to < 0 or to in state.workers:
                continue
            if _step_cost(state.board, pos, to) and not rack[STAIRS]:
                continue
            out.append({"do": "step", "worker": w, "dir": d})
    return out


def _horse_steps(state: State, n: int) -> bool:
    """Return whether the stepped worker can make ``n`` more steps in the step's direction."""
    seat = state.turn
    pos = state.workers[2 * seat + state.stepped]
    stairs = state.racks[seat][STAIRS]
    heights: dict[int, int] = {}
    for _ in range(n):
        to = NEIGHBOURS[pos][state.step_dir]
        if to < 0 or to in state.workers:
            return False
        h_to = heights.get(to, len(state.board[to]))
        if h_to - heights.get(pos, len(state.board[pos])) > 2:
            if not stairs:
                return False
            stairs -= 1
        if h_to:
            stairs += state.board[to][-1] == "stairs"  # a tile just taken may be used at once
            heights[to] = h_to - 1
        pos = to
    return True


def build_ok(state: State, seat: int, m: str) -> bool:
    """Return whether ``seat`` may build one ``m`` into its pyramid now."""
    level = LEVEL_OF.get(m)
    if level is None:
        return False
    rack, pyr = state.racks[seat], state.pyramids[seat]
    group, n, hands = _SLOT[m]
    i = MOTIF_INDEX[m]
    return (
        rack[i] > 0
        and completed_levels(pyr) == level - 1
        and sum(pyr[g] for g in group) < n
        and state.ships[seat] > 0
        and state.grains[seat] >= level
        and state.level in (0, level)
        and rack[HAND] >= hands
    )


def grain_cap(state: State, seat: int) -> int:
    """Return how many grain ``seat`` may have displayed: min(3, completed levels + 1)."""
    return min(3, completed_levels(state.pyramids[seat]) + 1)


def _uses(state: State) -> list[Action]:
    """Return the tile uses open to the player on turn (before or after the step)."""
    seat = state.turn
    rack = state.racks[seat]
    opp = opponent(seat)
    occupied = state.workers
    out: list[Action] = []
    if rack[SHIP] and not state.ships[seat]:
        out.append({"do": "display", "motif": "ship"})
    if rack[GRAIN] and state.grains[seat] < grain_cap(state, seat):
        out.append({"do": "display", "motif": "grain"})
    for m in LEVEL_OF:
        if build_ok(state, seat, m):
            out.append({"do": "build", "motif": m})
    if rack[SNAKE] and sum(state.racks[opp]):
        out.append({"do": "snake"})
    if rack[BIRD]:
        targets = [sp for sp in range(SPACES) if state.board[sp] and sp not in occupied]
        for w in (0, 1):
            if state.stepped != w:
                out.extend({"do": "bird", "worker": w, "space": sp} for sp in targets)
    if rack[OX]:
        for w in (0, 1):
            pos = state.workers[2 * seat + w]
            for d, src in NEIGHBOURS[pos].items():
                if src < 0 or src in occupied or not state.board[src]:
                    continue
                dst = NEIGHBOURS[src][d]
                if dst < 0 or dst in occupied:
                    continue
                h_src, h_dst = len(state.board[src]), len(state.board[dst])
                for k in range(1, h_src - h_dst + 1):  # never uphill: h_dst <= h_src - k
                    out.append({"do": "ox", "worker": w, "dir": d, "count": k})
    for spell in SPELLS:
        if not all(rack[MOTIF_INDEX[m]] for m in spell.recipe):
            continue
        targets2: list[dict[str, Any]] = []
        if spell.name == "firestorm":
            for w in (0, 1):
                pos = state.workers[2 * seat + w]
                for line, spaces in LINES[pos].items():
                    if any(state.board[sp] and sp not in occupied for sp in spaces):
                        targets2.append({"worker": w, "line": line})
        elif spell.name == "whirlwind":
            for w in (0, 1):
                pos = state.workers[2 * seat + w]
                if any(state.board[sp] and sp not in occupied for sp in RING[pos]):
                    targets2.append({"worker": w})
        elif spell.name == "shipwreck":
            if state.ships[opp]:
                targets2.append({})
        elif spell.name == "drought" and state.grains[opp]:
            targets2.append({})
        for target in targets2:
            for order in _ORDERS[spell.name]:
                out.append({"do": "cast", "spell": spell.name, "order": order, **target})
    return out


def _return_actions(state: State) -> list[Action]:
    placer = opponent(state.turn)
    n = len(state.pending)
    sizes = [n] if n <= 9 else []
    if n >= 6:
        sizes += [k for k in range(3, min(9, n - 3) + 1) if k != n]
    own = {state.workers[2 * placer], state.workers[2 * placer + 1]}
    banned = own | {nb for sp in own for nb in NEIGHBOURS[sp].values()}
    eligible = [sp for sp in range(SPACES) if sp not in banned and sp not in state.workers]
    empty = [sp for sp in eligible if not state.board[sp]]
    if not empty:
        low = min(len(state.board[sp]) for sp in eligible)
        empty = [sp for sp in eligible if len(state.board[sp]) == low]
    return [{"do": "return", "count": k, "space": sp} for k in sizes for sp in empty]


def legal(state: State, seat: int, *, ordered: bool = True) -> list[Action]:
    """Return the actions ``seat`` may take now, sorted by :func:`action_key` (AIs may skip that)."""
    if not is_seat(seat) or seat not in to_move(state) or seat < 0:
        return []
    phase = state.phase
    out: list[Action]
    if phase == "place":
        out = [{"do": "place", "space": sp} for sp in range(SPACES) if sp not in state.workers]
    elif phase == "before":
        steps = _steps(state)
        out = _uses(state) + steps
        if not steps:
            out.append({"do": "end"})  # no legal step: the mandatory step is skipped
    elif phase == "after":
        out = _uses(state)
        if state.stepped >= 0 and state.racks[seat][HORSE] and not state.horse_used:
            out.extend({"do": "horse", "steps": n} for n in (1, 2) if _horse_steps(state, n))
        out.append({"do": "end"})
    elif phase == "steal":
        rack = state.racks[opponent(seat)]
        out = [{"do": "steal", "motif": m} for i, m in enumerate(MOTIFS) if rack[i]]
    elif phase == "discard":
        rack = state.racks[seat]
        out = [{"do": "discard", "motif": m} for i, m in enumerate(MOTIFS) if rack[i]]
    elif phase == "return":
        out = _return_actions(state)
    else:
        out = []
    if ordered:
        out.sort(key=action_key)
    return out


def forced(state: State, seat: int) -> Action | None:
    """Return the action ``seat`` cannot avoid, or None: the only legal one (e.g. ``end`` after a
    step when no tile can be used). Binding answer 2 lets the host submit it without asking; the
    engine itself never plays for a player."""
    actions = legal(state, seat, ordered=False)
    return actions[0] if len(actions) == 1 else None


def stairs_spent(state: State, seat: int, action: Action) -> int:
    """Return how many Stairs a legal ``step`` or ``horse`` action spends (answer 3: only when a
    climb is above 2, automatically), so that a control can say what a step costs."""
    if action.get("do") not in ("step", "horse"):
        return 0
    after, _ = do(state, seat, action)
    return after.pending.count("stairs") - state.pending.count("stairs")


def turn_key(state: State) -> tuple[tuple[int, int], int]:
    """Return what names the turn in progress: completed turns and the seat on turn. The return
    of the used tiles belongs to the turn that used them; the placer's own turn is a new one."""
    return state.turns, state.turn


# ---------------------------------------------------------------------------------------------
# applying an action (the caller has checked legality)


class _Work:
    """A mutable scratch copy of a state for one action; ``freeze`` makes the next state."""

    def __init__(self, s: State) -> None:
        self.s = s
        self.board = list(s.board)
        self.workers = list(s.workers)
        self.racks = [list(s.racks[0]), list(s.racks[1])]
        self.ships = list(s.ships)
        self.grains = list(s.grains)
        self.pyramids = [list(s.pyramids[0]), list(s.pyramids[1])]
        self.pending = list(s.pending)
        self.destroyed = list(s.destroyed)
        self.events: list[Event] = []

    def take(self, seat: int, sp: int) -> str | None:
        """Move the top tile of ``sp`` into ``seat``'s rack; return its motif (None if empty)."""
        stack = self.board[sp]
        if not stack:
            return None
        self.board[sp] = stack[:-1]
        self.racks[seat][MOTIF_INDEX[stack[-1]]] += 1
        return stack[-1]

    def spend(self, seat: int, m: str) -> None:
        """Move one ``m`` from the rack onto the used-tile stack."""
        self.racks[seat][MOTIF_INDEX[m]] -= 1
        self.pending.append(m)

    def move(self, seat: int, w: int, to: int) -> dict[str, Any]:
        """Step worker ``w`` onto ``to`` (spending a Stairs if the climb needs it); take its top."""
        frm = self.workers[2 * seat + w]
        stairs = len(self.board[to]) - len(self.board[frm]) > 2
        if stairs:
            self.spend(seat, "stairs")
        self.workers[2 * seat + w] = to
        took = self.take(seat, to)
        return {"from": frm, "to": to, "took": took, "stairs": stairs}

    def freeze(self, **changes: Any) -> State:
        """Return the new immutable state with the scratch fields and ``changes``."""
        s = self.s
        base: dict[str, Any] = {
            "seed": s.seed,
            "draws": s.draws,
            "phase": s.phase,
            "board": tuple(self.board),
            "workers": tuple(self.workers),
            "racks": (tuple(self.racks[0]), tuple(self.racks[1])),
            "ships": (self.ships[0], self.ships[1]),
            "grains": (self.grains[0], self.grains[1]),
            "pyramids": (tuple(self.pyramids[0]), tuple(self.pyramids[1])),
            "turn": s.turn,
            "stepped": s.stepped,
            "step_dir": s.step_dir,
            "birded": s.birded,
            "horse_used": s.horse_used,
            "level": s.level,
            "resume": s.resume,
            "pending": tuple(self.pending),
            "destroyed": tuple(self.destroyed),
            "turns": s.turns,
            "history": s.history,
            "ended": s.ended,
        }
        base.update(changes)
        return State(**base)


def start_turns(state: State) -> State:
    """Return the state of the first turn's start (after the 4 workers are placed)."""
    return _fresh_turn(state, 0, state.turns)


def _fresh_turn(state: State, seat: int, turns: tuple[int, int]) -> State:
    # the repetition key first, so the new turn's state is built once (a hot path of the searches)
    key = digest(state, turn=seat)
    history = (*state.history, key)
    repeated = history.count(key) >= 3  # a third repetition of the position ends the game
    return State(
        seed=state.seed,
        draws=state.draws,
        phase="over" if repeated else "before",
        board=state.board,
        workers=state.workers,
        racks=state.racks,
        ships=state.ships,
        grains=state.grains,
        pyramids=state.pyramids,
        turn=seat,
        stepped=-1,
        step_dir="",
        birded=0,
        horse_used=False,
        level=0,
        resume="",
        pending=(),
        destroyed=(),
        turns=turns,
        history=history,
        ended="repetition" if repeated else "",
    )


def _next_turn(state: State) -> State:
    seat = state.turn
    turns = (state.turns[0] + (seat == 0), state.turns[1] + (seat == 1))
    if turns[1] >= MAX_TURNS:
        return replace(state, turns=turns, phase="over", ended="cap")
    return _fresh_turn(state, opponent(seat), turns)


def _close_turn(work: _Work) -> State:
    """The turn's tiles are settled: stack the destroyed tiles on top and hand over to the placer."""
    # bottom to top: used tiles, discards, destroyed grain, a destroyed ship on top (answer 9)
    work.pending += sorted(work.destroyed, key=lambda m: m == "ship")
    work.destroyed = []
    if work.pending:
        return work.freeze(phase="return")
    return _next_turn(work.freeze())


def do(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """Apply a legal action of ``seat``; return the next state and its events."""
    work = _Work(state)
    kind = action["do"]
    ev: Event = {"type": kind, "seat": seat}
    events = [ev]
    opp = opponent(seat)
    if kind == "place":
        sp = int(action["space"])
        placed = sum(1 for w in state.workers if w >= 0)
        # placement order 0, 1, 0, 1: seat s's worker number placed // 2
        work.workers[2 * seat + placed // 2] = sp
        ev.update(worker=placed // 2, space=sp, took=work.take(seat, sp))
        if placed + 1 == 4:
            return start_turns(work.freeze(turn=0)), events
        return work.freeze(turn=opponent(seat)), events
    if kind == "step":
        w = int(action["worker"])
        to = NEIGHBOURS[state.workers[2 * seat + w]][str(action["dir"])]
        ev.update(worker=w, dir=action["dir"], **work.move(seat, w, to))
        return work.freeze(phase="after", stepped=w, step_dir=action["dir"]), events
    if kind == "horse":
        work.spend(seat, "horse")
        moves = []
        for _ in range(int(action["steps"])):
            to = NEIGHBOURS[work.workers[2 * seat + state.stepped]][state.step_dir]
            moves.append(work.move(seat, state.stepped, to))
        ev.update(worker=state.stepped, dir=state.step_dir, moves=moves)
        return work.freeze(horse_used=True), events
    if kind == "end":
        if state.phase == "before":
            ev["step_skipped"] = True  # no step was legal (answer 2): say so, it is not a choice
        if sum(work.racks[seat]) > RACK_LIMIT:
            return work.freeze(phase="discard"), events
        return _close_turn(work), events
    if kind == "discard":
        m = str(action["motif"])
        work.spend(seat, m)
        ev["motif"] = m  # discards join the face-up used-tile stack, so they are public
        if sum(work.racks[seat]) > RACK_LIMIT:
            return work.freeze(), events
        return _close_turn(work), events
    if kind == "return":
        k, sp = int(action["count"]), int(action["space"])
        piece = work.pending[-k:]
        del work.pending[-k:]
        work.board[sp] = work.board[sp] + tuple(piece)
        ev.update(seat=opponent(state.turn), count=k, space=sp, tiles=piece)
        if work.pending:
            return work.freeze(), events
        return _next_turn(work.freeze()), events
    if kind == "display":
        m = str(action["motif"])
        work.racks[seat][MOTIF_INDEX[m]] -= 1
        if m == "ship":
            work.ships[seat] += 1
        else:
            work.grains[seat] += 1
        ev["motif"] = m
        return work.freeze(), events
    if kind == "build":
        m = str(action["motif"])
        work.racks[seat][MOTIF_INDEX[m]] -= 1
        work.pyramids[seat][MOTIF_INDEX[m]] += 1
        for _ in range(_SLOT[m][2]):
            work.spend(seat, "helping_hand")
        level = LEVEL_OF[m]
        ev.update(motif=m, level=level)
        if m == "apex":  # the first apex wins at once: no discard, no return (answer 12)
            return work.freeze(phase="over", ended="apex", level=level), events
        return work.freeze(level=level), events
    if kind == "snake":
        work.spend(seat, "snake")
        events.append(
            {
                "type": "reveal",
                "seat": opp,
                "rack": {m: c for m, c in zip(MOTIFS, state.racks[opp], strict=True) if c},
                "private_to": [seat],
            }
        )
        return work.freeze(phase="steal", resume=state.phase), events
    if kind == "steal":
        m = str(action["motif"])
        work.racks[opp][MOTIF_INDEX[m]] -= 1
        work.racks[seat][MOTIF_INDEX[m]] += 1
        events.append({"type": "stolen", "seat": seat, "from": opp, "motif": m, "private_to": [0, 1]})
        return work.freeze(phase=state.resume, resume=""), events
    if kind == "bird":
        w, sp = int(action["worker"]), int(action["space"])
        frm = work.workers[2 * seat + w]
        work.spend(seat, "bird")
        work.workers[2 * seat + w] = sp
        ev.update(worker=w, **{"from": frm}, to=sp, took=work.take(seat, sp))
        return work.freeze(birded=state.birded | (1 << w)), events
    if kind == "ox":
        w, d, k = int(action["worker"]), str(action["dir"]), int(action["count"])
        work.spend(seat, "ox")
        src = NEIGHBOURS[state.workers[2 * seat + w]][d]
        dst = NEIGHBOURS[src][d]
        block = work.board[src][-k:]
        work.board[src] = work.board[src][:-k]
        work.board[dst] = work.board[dst] + block
        # only the block's top is public: the tiles under it stay covered on the new stack
        ev.update(worker=w, dir=d, count=k, **{"from": src}, to=dst, top=block[-1])
        return work.freeze(), events
    if kind == "cast":
        name = str(action["spell"])
        for m in str(action["order"]).split(","):
            work.spend(seat, m)  # the caster's order, bottom to top
        ev.update(spell=name, order=action["order"])
        if name in ("firestorm", "whirlwind"):
            w = int(action["worker"])
            pos = state.workers[2 * seat + w]
            spaces = LINES[pos][str(action["line"])] if name == "firestorm" else RING[pos]
            took = {}
            for sp in spaces:
                if sp not in state.workers:
                    top = work.take(seat, sp)
                    if top is not None:
                        took[sp] = top
            ev.update(worker=w, took=[[sp, m] for sp, m in took.items()])
            if name == "firestorm":
                ev["line"] = action["line"]
        elif name == "shipwreck":
            work.ships[opp] -= 1
            work.destroyed.append("ship")
        else:
            work.grains[opp] -= 1
            work.destroyed.append("grain")
        return work.freeze(), events
    raise ValueError(f"unknown action kind {kind!r}")  # unreachable after the legality check
