"""Sakkara: what a legal action does — the next state and its events, and the hand-over between turns.

Separate from ``rules.py``, which lists the legal actions: this module applies one (the caller
has checked legality) on a mutable scratch copy of the state, then closes the turn and starts
the next one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .rules import MAX_TURNS, SLOT, Action, opponent
from .state import LINES, NEIGHBOURS, RING, State, digest
from .tiles import LEVEL_OF, MOTIF_INDEX, MOTIFS, RACK_LIMIT

__all__ = ["do", "stairs_spent", "start_turns"]

Event = dict[str, Any]


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
        for _ in range(SLOT[m][2]):
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


def stairs_spent(state: State, seat: int, action: Action) -> int:
    """Return how many Stairs a legal ``step`` or ``horse`` action spends (answer 3: only when a
    climb is above 2, automatically), so that a control can say what a step costs."""
    if action.get("do") not in ("step", "horse"):
        return 0
    after, _ = do(state, seat, action)
    return after.pending.count("stairs") - state.pending.count("stairs")
