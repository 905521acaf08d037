"""Indus Hard's lookahead: a move is valued through the opponent's reply (2 players)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import play
from engine.indus import GAME, ai
from engine.indus.ai import learned, value
from engine.indus.ai.heuristics import turn_value
from engine.indus.ai.playout import Sim
from engine.indus.rules import EMPTY, State, seat_colours


def _positions(seed: int) -> list[State]:
    """Return the positions of one 2-player game between Medium and the greedy player where a
    turn starts (a placement, or the first roll's move when nothing is left to place)."""
    seen: list[State] = []

    def observe(state: State, seat: int):
        if state.phase == "place" or (state.phase == "move" and state.roll == 1):
            seen.append(state)
        return GAME.observe(state, seat)

    play(GAME, [ai.medium, ai.heuristics.medium], seed, {"layout": "default"}, observe=observe)
    return seen


def _turn(st: State) -> learned._Turn:
    """Return the player's view of one decision, ``me`` the seat that just moved before ``st``."""
    model = value.load(2)
    assert model is not None
    other = replace(st, seat=1 - st.seat)
    return learned._Turn(other, model, learned.SETTINGS)


def _reply_by_hand(turn: learned._Turn, sim: Sim) -> float:
    """The opponent's best placement and turn, one position at a time (the reference)."""
    best = float("-inf")
    for colour in seat_colours(sim.seat, 2):
        ranks = [r for r in (1, 2, 3) if sim.reserve[colour][r - 1]]
        if not ranks:
            continue
        movers = [s for s, p in enumerate(sim.frame) if p != EMPTY and p >> 2 == colour]
        table = {s: [0.0, *(-turn.learned([turn.after(sim, s, d)])[0] for d in range(1, 7))] for s in movers}
        for slot in (s for s, p in enumerate(sim.frame) if p == EMPTY):
            placed = sim.copy()
            placed.place(colour, ranks[0], slot)
            new = [0.0, *(-turn.learned([turn.after(placed, slot, d)])[0] for d in range(1, 7))]
            for rank in ranks:
                ranks_now = {s: sim.frame[s] & 3 for s in movers} | {slot: rank}
                best = max(best, turn_value({**table, slot: new}, ranks_now))
    return -best


def test_the_reply_with_a_placement_is_the_opponents_best_placement_and_turn() -> None:
    positions = [st for st in _positions(3) if st.phase == "place"][10:40:10]
    assert len(positions) == 3
    sims = [Sim(st) for st in positions]
    turns = [_turn(st) for st in positions]
    for turn, sim in zip(turns, sims, strict=True):
        assert turn.replied([sim], True) == [pytest.approx(_reply_by_hand(turn, sim), abs=1e-4)]
        # without ``place`` the position keeps its learned value
        assert turn.replied([sim], False) == turn.learned([sim])


def test_the_reply_with_nothing_to_place_is_the_expectimax_of_its_turn() -> None:
    """Late in the game: every roll, reroll and move of the opponent, each the worst for me."""
    late = [st for seed in (3, 4) for st in _positions(seed)
            if st.phase == "move" and not any(sum(st.reserve[c]) for c in seat_colours(st.seat, 2))]
    assert len(late) >= 4
    for st in late[:4]:
        turn, sim = _turn(st), Sim(st)
        slots = [s for s, p in enumerate(sim.frame) if p != EMPTY and p >> 2 in seat_colours(st.seat, 2)]
        table = {s: [0.0, *(-turn.learned([turn.after(sim, s, d)])[0] for d in range(1, 7))] for s in slots}
        expected = -turn_value(table, {s: sim.frame[s] & 3 for s in slots})
        assert turn.replied([sim], False) == [pytest.approx(expected, abs=1e-4)]


def test_the_opponent_keeps_or_returns_its_captured_piece_as_is_worst_for_me() -> None:
    """A seat that captures its own piece picks keep or return for itself: the lower value for me."""
    found = 0
    for st in _positions(5):
        if st.phase != "move":
            continue
        turn, sim = _turn(st), Sim(st)
        for slot, piece in enumerate(sim.frame):
            if piece == EMPTY or piece >> 2 not in seat_colours(st.seat, 2):
                continue
            for die in range(1, 7):
                probe = sim.copy()
                pending = probe.land(slot, die)
                if pending == EMPTY:
                    continue
                keep, back = probe, probe.copy()
                keep.settle(pending, True)
                back.settle(pending, False)
                keep.next_seat()
                back.next_seat()
                worst = min(turn.learned([keep]), turn.learned([back]))
                assert turn.learned([turn.after(sim, slot, die)]) == worst
                found += 1
    assert found > 0


def test_three_and_four_players_value_moves_without_the_reply() -> None:
    """The reply is zero-sum reasoning: with more seats a move keeps its learned value."""
    for players in (3, 4):
        model = value.load(players)
        assert model is not None
        seen: list[State] = []

        def observe(state: State, seat: int, seen: list[State] = seen):
            if state.phase == "move" and len(GAME.legal_actions(state, state.seat)) > 1:
                seen.append(state)
            return GAME.observe(state, seat)

        play(GAME, [ai.medium] * players, 9, {"layout": "default"}, observe=observe)
        assert len(seen) > 10
        for st in seen[:10]:
            legal = GAME.legal_actions(st, st.seat)
            with_reply = learned.choose_move(st, legal, model, learned.SETTINGS)
            without = learned.choose_move(st, legal, model, replace(learned.SETTINGS, reply=False))
            assert with_reply == without
