"""Indus: the game object ``GAME`` (``IndusGame``), the rules behind the engine contract.

Separate from ``rules.py`` so that the rules stay plain functions over ``State``: this module only
wraps them in the contract's verbs (setup, legal actions, apply, views, result, JSON).
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine.core import CHANCE, Event, IllegalAction, Reason, check_seat, is_listed, pick_weighted

from .generator import layout_from_option
from .layout import SIZE, TYPE_NAMES, build_layout
from .rules import (
    COLOUR_NAMES,
    DIE,
    EMPTY,
    NOBODY,
    RANKS,
    SPACES,
    State,
    apply_action,
    colours_in_play,
    legal,
    new_state,
    piece_json,
    reroll_allowed,
    seat_colours,
    seat_of,
)
from .scoring import standing, winners

__all__ = ["GAME", "IndusGame"]

_DIE_OUTCOMES: list[tuple[Any, float]] = [(d, 1 / 6) for d in DIE]


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
        return new_state(players, seed, layout)

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
        return legal(state, seat)

    def apply(self, state: State, seat: int, action: Any) -> tuple[State, list[Event]]:
        """Return the next state and events; raise IllegalAction if ``action`` is not legal."""
        check_seat(seat)
        if state.phase == "over":
            raise IllegalAction(Reason.GAME_OVER, "the game has ended")
        if state.phase == "roll" and seat != CHANCE:
            raise IllegalAction(Reason.CHANCE_DUE, "the die must be rolled first")
        if seat not in self.to_move(state):
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"seat {seat} is not to move")
        if not is_listed(action, legal(state, seat)) or (seat == CHANCE and type(action) is not int):
            raise IllegalAction(Reason.ILLEGAL_MOVE, f"{action!r} is not legal now")
        nxt, events = apply_action(state, seat, action)
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
                "stack": [piece_json(p) for p in state.stacks[sq]],
                "owner": state.owners[sq],
            }
            for sq in range(SIZE * SIZE)
        ]
        frame = {SPACES[i]: piece_json(p) for i, p in enumerate(state.frame) if p != EMPTY}
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
            "prisoners": [[piece_json(p) for p in taken] for taken in state.prisoners],
            "roll": state.roll,
            "die": state.die or None,
            "ranks_allowed": ranks,
            "reroll_allowed": reroll_allowed(state),
            "placed_colour": state.placed if state.placed != NOBODY else None,
            "pending": piece_json(state.pending) if state.pending != EMPTY else None,
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
