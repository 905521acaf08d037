"""Sakkara invariants over random play (hypothesis): conservation, caps, no leaks, determinism."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, IllegalAction, replay, resolve_chance
from engine.sakkara import GAME
from engine.sakkara.game import resample_forgetful
from engine.sakkara.rules import action_key, tiles_everywhere
from engine.sakkara.tiles import TILES

TABLE = [t.count for t in TILES]
# A returned piece holds at most 9; it lands on an empty space, or (no eligible empty space) on the
# lowest eligible stack, which is at most 2 high (37+ eligible spaces, 75 tiles), hence 11.
MAX_STACK = 11


def check(state, log):
    assert tiles_everywhere(state) == TABLE
    assert max(len(s) for s in state.board) <= MAX_STACK
    placed = [w for w in state.workers if w >= 0]
    assert len(placed) == len(set(placed))
    assert GAME.loads(GAME.dumps(state)) == state
    movers = GAME.to_move(state)
    for seat in (0, 1):
        legal = GAME.legal_actions(state, seat)
        assert legal == sorted(legal, key=action_key)
        if seat not in movers:
            assert legal == []
        view = GAME.view(state, seat)
        json.dumps(view)
        other = GAME.resample_hidden(state, seat, random.Random(len(log)))
        assert tiles_everywhere(other) == TABLE
        assert GAME.view(other, seat) == view
        assert GAME.legal_actions(other, seat) == legal
    json.dumps(GAME.view(state, None))


def playout(seed, rng, steps, every=1):
    state = GAME.setup(2, seed)
    log = []
    for i in range(steps):
        movers = GAME.to_move(state)
        if not movers:
            break
        seat = movers[0]
        if seat == CHANCE:
            action = resolve_chance(GAME, state)
        else:
            legal = GAME.legal_actions(state, seat)
            # a light bias towards progress, so games reach the pyramid's upper levels
            useful = [a for a in legal if a["do"] in ("build", "display")]
            action = rng.choice(useful if useful and rng.random() < 0.8 else legal)
        state, events = GAME.apply(state, seat, action)
        json.dumps(events)
        for e in events:
            if e["type"] == "return":
                assert 1 <= e["count"] <= 9
        log.append((seat, action))
        if i % every == 0:
            check(state, log)
    return state, log


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), choice_seed=st.integers(0, 2**32))
def test_invariants_hold_in_every_state(seed, choice_seed):
    state, log = playout(seed, random.Random(choice_seed), 250)
    assert replay(GAME, 2, seed, log) == state


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**40))
def test_whole_games_end_and_replay(seed):
    state, log = playout(seed, random.Random(seed), 100_000, every=25)
    assert GAME.is_over(state)
    check(state, log)
    res = GAME.result(state)
    assert res["winners"] and set(res["winners"]) <= {0, 1}
    assert replay(GAME, 2, seed, log) == state


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    choice_seed=st.integers(0, 2**32),
    junk=st.sampled_from(
        [{"do": "step", "worker": 2, "dir": "N"}, {"do": "fly"}, "end", {"do": "build", "motif": "apex"}]
    ),
)
def test_anything_not_legal_is_refused_and_the_state_kept(seed, choice_seed, junk):
    state, _ = playout(seed, random.Random(choice_seed), 60, every=1000)
    before = GAME.dumps(state)
    for seat in (0, 1):
        if junk not in GAME.legal_actions(state, seat):
            try:
                GAME.apply(state, seat, junk)
            except IllegalAction:
                pass
            else:
                raise AssertionError("an illegal action was accepted")
    assert GAME.dumps(state) == before


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**40), choice_seed=st.integers(0, 2**32), steps=st.integers(5, 200))
def test_the_opponent_view_ignores_what_the_hidden_rack_holds(seed, choice_seed, steps):
    state, _ = playout(seed, random.Random(choice_seed), steps, every=1000)
    for seat in (0, 1):
        opp = 1 - seat
        other = GAME.resample_hidden(state, seat, random.Random(choice_seed))
        assert sum(other.racks[opp]) == sum(state.racks[opp])
        assert other.racks[seat] == state.racks[seat]
        assert [(len(s), s[-1:]) for s in other.board] == [(len(s), s[-1:]) for s in state.board]
        assert GAME.view(other, seat) == GAME.view(state, seat)


def test_resampling_really_moves_hidden_tiles_but_not_a_revealed_rack():
    """The forgetful resampling (Medium's worlds) moves the opponent's rack unless a Snake opened it;
    ``GAME.resample_hidden`` moves covered tiles only (the rack is remembered, test_sakkara_memory)."""
    from sakkara_kit import act, make

    s = make(racks=({"snake": 1, "moon": 2}, {"apex": 3}), board={10: ["ship", "ox"], 11: ["grain", "bird"]})
    moved = [resample_forgetful(s, 0, random.Random(i)) for i in range(20)]
    assert any(m.racks[1] != s.racks[1] for m in moved)
    assert any(m.board != s.board for m in moved)
    assert all(m.racks[0] == s.racks[0] for m in moved)
    assert all(GAME.resample_hidden(s, 0, random.Random(i)).racks == s.racks for i in range(20))
    s, _ = act(s, 0, {"do": "snake"})  # the rack is open to seat 0 for the steal
    assert all(resample_forgetful(s, 0, random.Random(i)).racks[1] == s.racks[1] for i in range(20))
    assert any(resample_forgetful(s, 1, random.Random(i)).racks[0] != s.racks[0] for i in range(20))
