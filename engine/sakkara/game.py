"""Sakkara (Manfred Grabmeier, KOSMOS 2007) for two players under the engine contract.

Hidden information: each rack is private (the opponent sees its size only; a Snake opens it to
the Snake's player for that one steal), and every tile below the top of a stack is covered
(views show each stack's height and top motif only). Everything else is public, including the
used-tile stack, which is placed face up. The AI seats remember the game: their observation
(``observe``) adds the opponent's rack, which public events determine, so only covered tiles are
hidden from them (``resample_hidden``).

Chance: the only random event is the opening deal. Its space (~10^60 layouts) cannot be
enumerated, so ``sample_chance`` draws it with ``random.Random(key)`` locally, and
``chance_outcomes`` lists the one deal the state's own seed selects with probability 1.0
(binding answer 2). A deal may also be pinned with the option ``layout``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ..core import CHANCE, IllegalAction, Reason, chance_key, check_seat, is_listed
from . import effects, rules
from .state import State, deal, dumps, loads, validate_layout
from .tiles import MOTIF_INDEX, MOTIFS, SPACES

__all__ = ["GAME", "Sakkara", "resample_forgetful"]

_EMPTY_RACK: tuple[int, ...] = (0,) * len(MOTIFS)
_OPTIONS = frozenset({"layout"})


def _rack_dict(rack: tuple[int, ...]) -> dict[str, int]:
    return {m: c for m, c in zip(MOTIFS, rack, strict=True) if c}


def _public_board(board: tuple[tuple[str, ...], ...]) -> list[dict[str, Any]]:
    return [{"height": len(s), "top": s[-1] if s else None} for s in board]


def _cover(board: tuple[tuple[str, ...], ...], pool: list[str]) -> tuple[tuple[str, ...], ...]:
    """Return ``board`` with its covered tiles replaced, in order, by the front of ``pool`` (which
    is consumed); heights and tops stay."""
    out = []
    for stack in board:
        k = len(stack) - 1
        if k > 0:
            out.append((*pool[:k], stack[-1]))
            del pool[:k]
        else:
            out.append(stack)
    return tuple(out)


def resample_forgetful(state: State, seat: int, rng: random.Random) -> State:
    """Return ``state`` with what a seat *without memory* cannot see reshuffled: the opponent's
    rack (unless a Snake has just opened it to ``seat``) and all covered tiles; heights, tops and
    sizes stay. Medium's check of the opponent's reply samples its worlds this way (as it did
    before the AI seats remembered the opponent's rack), so its moves are unchanged."""
    if state.phase == "deal":
        return state
    opp = rules.opponent(seat)
    rack_hidden = not (state.phase == "steal" and state.turn == seat)
    pool: list[str] = [m for stack in state.board for m in stack[:-1]]
    if rack_hidden:
        pool += [m for m, c in zip(MOTIFS, state.racks[opp], strict=True) for _ in range(c)]
    rng.shuffle(pool)
    board = _cover(state.board, pool)
    racks = list(state.racks)
    if rack_hidden:
        counts = [0] * len(MOTIFS)
        for m in pool:
            counts[MOTIF_INDEX[m]] += 1
        racks[opp] = tuple(counts)
    return replace(state, board=board, racks=(racks[0], racks[1]))


class Sakkara:
    """The Sakkara game object (``GAME``): contract verbs over :class:`State`."""

    name = "sakkara"
    min_players = 2
    max_players = 2

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """Return a new two-player game; ``layout`` pins the deal (49 stacks, bottom to top)."""
        if players != 2:
            raise ValueError(f"players: Sakkara is for exactly 2 players, not {players}")
        options = dict(options or {})
        unknown = sorted(set(options) - _OPTIONS)
        if unknown:
            raise ValueError(f"{unknown[0]}: unknown option")
        board: tuple[tuple[str, ...], ...] = ((),) * SPACES
        phase = "deal"
        if options.get("layout") is not None:
            board = validate_layout(options["layout"])
            phase = "place"
        return State(
            seed=int(seed),
            draws=0,
            phase=phase,
            board=board,
            workers=(-1, -1, -1, -1),
            racks=(_EMPTY_RACK, _EMPTY_RACK),
            ships=(0, 0),
            grains=(0, 0),
            pyramids=(_EMPTY_RACK, _EMPTY_RACK),
            turn=0,
            stepped=-1,
            step_dir="",
            birded=0,
            horse_used=False,
            level=0,
            resume="",
            pending=(),
            destroyed=(),
            turns=(0, 0),
            history=(),
            ended="",
        )

    def to_move(self, state: State) -> list[int]:
        """Return ``[CHANCE]`` for the deal, the seat owing an action, or ``[]`` when over."""
        return rules.to_move(state)

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """Return the one deal the state's seed selects, with probability 1.0 (binding answer 2:
        the space of deals cannot be enumerated, so the deal is drawn from the seeded RNG)."""
        if state.phase != "deal":
            return []
        return [(deal(chance_key(state.seed, state.draws)), 1.0)]

    def sample_chance(self, state: State, key: int) -> Any:
        """Return the opening deal the 64-bit key selects (49 stacks of motif names)."""
        return deal(key)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        """Return the sorted actions ``seat`` may take now (flat dicts, see rules.py)."""
        return rules.legal(state, seat)

    def apply(self, state: State, seat: int, action: Any) -> tuple[State, list[dict[str, Any]]]:
        """Return the next state and its events; refuse anything not legal with IllegalAction."""
        check_seat(seat)
        movers = rules.to_move(state)
        if not movers:
            raise IllegalAction(Reason.GAME_OVER)
        if seat == CHANCE:
            if movers != [CHANCE]:
                raise IllegalAction(Reason.NOT_YOUR_TURN, "no chance event is due")
            try:
                board = validate_layout(action)
            except ValueError as exc:
                raise IllegalAction(Reason.ILLEGAL_MOVE, str(exc)) from None
            new = replace(state, board=board, phase="place", draws=state.draws + 1)
            return new, [{"type": "deal", "board": _public_board(board)}]
        if movers == [CHANCE]:
            raise IllegalAction(Reason.CHANCE_DUE, "the deal comes first")
        if seat not in movers:
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"seat {movers[0]} is to move")
        if not is_listed(action, rules.legal(state, seat)):
            raise IllegalAction(Reason.ILLEGAL_MOVE, f"{action!r} is not legal now")
        return effects.do(state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return the public view (``None``) or a seat's view: its own rack, and a Snake's reveal."""
        out: dict[str, Any] = {
            "game": self.name,
            "phase": state.phase,
            "turn": state.turn,
            "to_move": rules.to_move(state),
            "board": _public_board(state.board),
            "workers": [list(state.workers[0:2]), list(state.workers[2:4])],
            "rack_sizes": [sum(state.racks[0]), sum(state.racks[1])],
            "ships": list(state.ships),
            "grains": list(state.grains),
            "pyramids": [_rack_dict(p) for p in state.pyramids],
            "pyramid_sizes": [rules.pyramid_size(p) for p in state.pyramids],
            "levels": [rules.completed_levels(p) for p in state.pyramids],
            "pending": list(state.pending),
            "destroyed": list(state.destroyed),
            "stepped": state.stepped,
            "step_dir": state.step_dir,
            "birded": state.birded,
            "horse_used": state.horse_used,
            "level_this_turn": state.level,
            "resume": state.resume,
            "turns": list(state.turns),
            "ended": state.ended,
        }
        if seat is not None and seat in (0, 1):
            out["seat"] = seat
            out["rack"] = _rack_dict(state.racks[seat])
            if state.phase == "steal" and state.turn == seat:
                out["revealed_rack"] = _rack_dict(state.racks[rules.opponent(seat)])
        return out

    def observe(self, state: State, seat: int) -> dict[str, Any]:
        """Return what an AI seat perceives: its view plus ``opponent_rack``, the opponent's rack
        as a player who remembers the game knows it.

        Every tile entering a rack is a top tile (public) or a Snake's steal (shown to both
        players), and every tile leaving one is a public event, so the rack follows from the
        events the seat may see. ``tests/engine/sakkara/test_sakkara_memory.py`` tracks it that
        way over random games and finds it equal to the true rack after every action; reading it
        from the state is therefore information-equivalent, not a leak. ``view`` (what the
        Discord UI shows) still gives the opponent's rack size only.
        """
        out = self.view(state, seat)
        if seat in (0, 1):
            out["opponent_rack"] = _rack_dict(state.racks[rules.opponent(seat)])
        return out

    def resample_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """Return ``state`` with what ``seat`` cannot know reshuffled: the covered tiles only.
        Both racks stay (the opponent's is known from public events, see :meth:`observe`);
        heights and tops stay."""
        if state.phase == "deal":
            return state
        pool: list[str] = [m for stack in state.board for m in stack[:-1]]
        rng.shuffle(pool)
        return replace(state, board=_cover(state.board, pool))

    def is_over(self, state: State) -> bool:
        """Return True once the apex is placed or the safety end is reached."""
        return state.phase == "over"

    def result(self, state: State) -> dict[str, Any]:
        """Return pyramid tiles per seat and the winners (apex; else tiles, then grain; else both)."""
        scores = [rules.pyramid_size(p) for p in state.pyramids]
        apex = MOTIF_INDEX["apex"]
        winners = [s for s in (0, 1) if state.pyramids[s][apex]]
        if not winners:
            key = [(scores[s], state.grains[s]) for s in (0, 1)]
            winners = [s for s in (0, 1) if key[s] == max(key)]
        return {"scores": scores, "winners": winners, "ended": state.ended}

    def dumps(self, state: State) -> str:
        """Return the state as a JSON string."""
        return dumps(state)

    def loads(self, data: str) -> State:
        """Return the state encoded by ``dumps``."""
        return loads(data)


GAME = Sakkara()
