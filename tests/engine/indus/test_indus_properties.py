"""Indus invariants over random games (hypothesis): pieces conserved, secured squares pure,
replay determinism, dumps/loads round trip, equal turns with 3–4 players."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, replay, resolve_chance
from engine.indus import GAME
from engine.indus.rules import EMPTY, NOBODY, action_key, colours_in_play

FULL = {2: (6, 4, 2), 3: (8, 5, 3), 4: (6, 4, 2)}


def census(state):
    """Return Counter of (colour, rank) over every place a piece can be."""
    seen: Counter[tuple[int, int]] = Counter()
    for colour, (w, a, p) in enumerate(state.reserve):
        seen.update({(colour, 1): w, (colour, 2): a, (colour, 3): p})
    for colour, (w, a, p) in enumerate(state.start):
        seen.update({(colour, 1): w, (colour, 2): a, (colour, 3): p})
    pieces = [p for p in state.frame if p != EMPTY]
    pieces += [p for stack in state.stacks for p in stack]
    pieces += [p for taken in state.prisoners for p in taken]
    if state.pending != EMPTY:
        pieces.append(state.pending)
    seen.update((p >> 2, p & 3) for p in pieces)
    return seen


def check_invariants(state):
    expected = Counter()
    for colour in range(colours_in_play(state.players)):
        for rank, n in zip((1, 2, 3), FULL[state.players], strict=True):
            expected[(colour, rank)] = n
    assert census(state) == expected  # every piece is in exactly one place
    for square, stack in enumerate(state.stacks):
        owner = state.owners[square]
        colours = [p >> 2 for p in stack]
        if owner == NOBODY:
            assert len(colours) == len(set(colours))  # at most one piece per colour
        else:
            assert set(colours) == {owner} and len(colours) >= 2  # secured: owner only


def random_game(players, seed, layout):
    rng = random.Random(seed)
    state = GAME.setup(players, seed, {"layout": layout})
    log = []
    moves = Counter()
    while True:
        movers = GAME.to_move(state)
        if not movers:
            return state, log, moves
        seat = movers[0]
        if seat == CHANCE:
            action = resolve_chance(GAME, state)
        else:
            legal = GAME.legal_actions(state, seat)
            assert legal and legal == sorted(legal, key=action_key)
            action = rng.choice(legal)
            if action["do"] == "move":
                moves[seat] += 1
        state, _ = GAME.apply(state, seat, action)
        log.append((seat, action))
        check_invariants(state)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32), st.sampled_from(["default", "random"]))
def test_random_games_keep_every_invariant(players, seed, layout):
    state, log, moves = random_game(players, seed, layout)
    assert GAME.is_over(state)
    assert all(p == EMPTY for p in state.frame) and not any(sum(r) for r in state.reserve)
    if players > 2:
        assert len(set(moves.values())) == 1  # every player gets the same number of turns
    again = replay(GAME, players, seed, log, {"layout": layout})
    assert again == state
    assert GAME.loads(GAME.dumps(state)) == state
    res = GAME.result(state)
    assert len(res["scores"]) == players and res["winners"]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32), st.integers(0, 200))
def test_dumps_loads_round_trip_mid_game(players, seed, stop):
    rng = random.Random(seed)
    state = GAME.setup(players, seed, {"layout": "random"})
    for _ in range(stop):
        movers = GAME.to_move(state)
        if not movers:
            break
        seat = movers[0]
        if seat == CHANCE:
            action = resolve_chance(GAME, state)
        else:
            action = rng.choice(GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, action)
    text = GAME.dumps(state)
    assert GAME.loads(text) == state and GAME.dumps(GAME.loads(text)) == text
