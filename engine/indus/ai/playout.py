"""Indus's fast playout position: Hard's look-ahead (:mod:`.learned`) and the learned value play on it.

:class:`Sim` is a mutable, copy-light copy of a :class:`~engine.indus.rules.State` between turns: lists
instead of tuples, prisoners as points per seat, no events, no JSON actions. Copying one for a
rollout costs a few list copies; :meth:`Sim.land` and :meth:`Sim.place` follow ``rules._land``
and the placement of ``rules.apply_action`` exactly (tests/engine/indus/test_indus_playout.py plays
random games through both and compares them after every action). Rollouts with the real rules
engine cost about 75 µs per action in building tuples, events and action dicts, which is most of
a search's budget.

A :class:`Sim` shares its lists with an :class:`~.evaluation.Eval` (:meth:`Sim.bind`), so the
evaluation's move values read the rollout position without another copy.
"""

from __future__ import annotations

from ..layout import Layout
from ..rules import EMPTY, LANDING, NOBODY, State, colours_in_play, seat_colours, seat_of
from .evaluation import Eval, ruin_counts, ruin_tables

__all__ = ["Sim"]


class Sim:
    """A position between (or inside) turns as mutable lists, for rollouts."""

    __slots__ = ("frame", "layout", "ncol", "owners", "players", "prison", "reserve", "seat", "stacks")

    def __init__(self, st: State | None = None) -> None:
        if st is None:
            return  # filled by copy()
        self.players = st.players
        self.ncol = colours_in_play(st.players)
        self.layout: Layout = st.layout
        self.seat = st.seat
        self.frame = list(st.frame)
        self.stacks = [list(s) for s in st.stacks]
        self.owners = list(st.owners)
        self.reserve = [list(r) for r in st.reserve]
        # prisoner points per seat: all that scoring and its tie-break read of the prisoners
        self.prison = [sum(p & 3 for p in taken) for taken in st.prisoners]

    def copy(self) -> Sim:
        """Return an independent copy (the layout is shared: it is immutable)."""
        new = Sim()
        new.players = self.players
        new.ncol = self.ncol
        new.layout = self.layout
        new.seat = self.seat
        new.frame = self.frame[:]
        new.stacks = [s[:] for s in self.stacks]
        new.owners = self.owners[:]
        new.reserve = [r[:] for r in self.reserve]
        new.prison = self.prison[:]
        return new

    def bind(self, ev: Eval) -> Eval:
        """Point ``ev`` at this position's lists (no copy) and return it."""
        ev.frame, ev.stacks, ev.owners, ev.reserve = self.frame, self.stacks, self.owners, self.reserve
        return ev

    # -- the rules, as in rules.py ------------------------------------------------------------

    def place(self, colour: int, rank: int, slot: int) -> None:
        """Put a reserve piece of ``colour`` and ``rank`` on the free frame ``slot``."""
        self.reserve[colour][rank - 1] -= 1
        self.frame[slot] = 4 * colour + rank

    def land(self, slot: int, die: int) -> int:
        """Move the frame piece in ``slot`` in by ``die`` for the seat to move (rules._land);
        return its own piece captured by its securing (2 players, awaiting keep / return) or EMPTY."""
        piece = self.frame[slot]
        colour = piece >> 2
        q = LANDING[slot][die]
        self.frame[slot] = EMPTY
        owner = self.owners[q]
        players = self.players
        if owner != NOBODY and owner != colour:
            self.prison[seat_of(owner, players)] += piece & 3  # captured on arrival
            return EMPTY
        stack = self.stacks[q]
        stack.append(piece)
        if owner != NOBODY or sum(1 for p in stack if p >> 2 == colour) < 2:
            return EMPTY
        self.owners[q] = colour
        pending = EMPTY
        for p in stack:
            if p >> 2 != colour:
                if seat_of(p >> 2, players) == self.seat:
                    pending = p  # at most one: an unsecured square holds one piece per colour
                else:
                    self.prison[self.seat] += p & 3
        stack[:] = [p for p in stack if p >> 2 == colour]
        return pending

    def settle(self, piece: int, keep: bool) -> None:
        """Keep one's own captured ``piece`` as a prisoner, or return it to its reserve."""
        if keep:
            self.prison[self.seat] += piece & 3
        else:
            self.reserve[piece >> 2][(piece & 3) - 1] += 1

    def has_pieces(self, seat: int) -> bool:
        """Return True if ``seat`` holds anything in reserve or on the frame."""
        colours = seat_colours(seat, self.players)
        if any(sum(self.reserve[c]) for c in colours):
            return True
        return any(p != EMPTY and p >> 2 in colours for p in self.frame)

    def over(self) -> bool:
        """Return True once every piece has entered the dig."""
        return all(p == EMPTY for p in self.frame) and not any(sum(r) for r in self.reserve)

    def next_seat(self) -> bool:
        """Pass the turn to the next seat with pieces (rules._begin_turn); False at the end."""
        if self.over():
            return False
        seat = (self.seat + 1) % self.players
        while not self.has_pieces(seat):
            seat = (seat + 1) % self.players
        self.seat = seat
        return True

    def left(self) -> int:
        """Return the pieces still to enter the dig (reserves and frame)."""
        return sum(sum(r) for r in self.reserve) + sum(1 for p in self.frame if p != EMPTY)

    # -- the value of a position ----------------------------------------------------------

    def scores(self, soft: float) -> list[float]:
        """Return each seat's score if the game ended now (§7, §8), each ruin's exact payout
        blended with a share proportional to the pieces counted (weight ``soft``: early on a
        lead can still be overturned)."""
        ncol = self.ncol
        pts = [0.0] * ncol
        stacks = self.stacks
        rows, _ = ruin_tables(self.layout)
        for building, squares, first, second in rows:
            counts = ruin_counts(building, squares, stacks, ncol)
            top = max(counts)
            if top == 0:
                continue
            pot = first + second if building else first
            firsts = [c for c in range(ncol) if counts[c] == top]
            exact = [0] * ncol
            if building and len(firsts) == 1:
                f = firsts[0]
                exact[f] = first
                runner = max(counts[c] for c in range(ncol) if c != f)
                if runner > 0:
                    seconds = [c for c in range(ncol) if c != f and counts[c] == runner]
                    for c in seconds:
                        exact[c] = second // len(seconds)
            else:
                for c in firsts:
                    exact[c] = pot // len(firsts)
            if soft > 0.0:
                total = sum(counts)
                for c in range(ncol):
                    pts[c] += (1.0 - soft) * exact[c] + soft * pot * counts[c] / total
            else:
                for c in range(ncol):
                    pts[c] += exact[c]
        out = [float(p) for p in self.prison]
        for c in range(ncol):
            out[seat_of(c, self.players)] += pts[c]
        return out
