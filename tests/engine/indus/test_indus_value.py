"""Indus's learned value: its features read the position exactly, and its player plays legally."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import play, thinking_for
from engine.indus import GAME, ai
from engine.indus.ai import learned, value
from engine.indus.ai.playout import Sim
from engine.indus.rules import State, seat_colours
from engine.indus.scoring import standing


def _positions(players: int, seed: int, layout: str) -> list[State]:
    """Return the turn-start positions of one game of random play."""
    seen: list[State] = []

    def rand(view, legal, rng):
        return rng.choice(legal)

    def observe(state: State, seat: int):
        if state.phase in ("place", "roll", "over") and state.roll == 0:
            seen.append(state)
        return GAME.observe(state, seat)

    final = play(GAME, [rand] * players, seed, {"layout": layout}, observe=observe).state
    return [*seen, final]


def _checked(agent):
    def act(view, legal, rng):
        choice = agent(view, legal, rng)
        assert choice in legal
        return choice

    return act


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10_000), layout=st.sampled_from(["default", "random"]))
def test_payout_and_prisoners_match_the_rules_scoring(players: int, seed: int, layout: str) -> None:
    positions = _positions(players, seed, layout)
    sims = [Sim(s) for s in positions]
    for me in range(players):
        enc = value.encode(sims, me)
        for i, s in enumerate(positions):
            got = standing(s)
            colour_pts = got["colour_points"]
            mine = sum(colour_pts[c] for c in seat_colours(me, players))
            others = [sum(colour_pts[c] for c in seat_colours(o, players)) for o in range(players) if o != me]
            assert enc.payout[i].sum() == pytest.approx(mine - sum(others) / len(others), abs=1e-3)
            pris = got["prisoner_points"]
            other_pris = [pris[o] for o in range(players) if o != me]
            assert enc.prison[i] == pytest.approx(pris[me] - sum(other_pris) / len(other_pris), abs=1e-3)


def test_the_final_position_is_valued_exactly_its_margin() -> None:
    """At the end nothing is left to take: the value's exact parts alone are the score margin."""
    final = _positions(2, 7, "default")[-1]
    scores = standing(final)["scores"]
    enc = value.encode([Sim(final)], 0)
    assert float(enc.payout[0].sum() + enc.prison[0]) == pytest.approx(scores[0] - scores[1])


def test_hard_plays_a_whole_game_legally_with_the_shipped_weights() -> None:
    assert value.load(2) is not None
    out = play(GAME, [_checked(ai.hard)] * 2, 11, {"layout": "default"})
    assert GAME.is_over(out.state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_count_ships_weights(players: int) -> None:
    """Without weights Hard would play as Medium: every count the lobby offers ships its own."""
    assert value.load(players) is not None


@pytest.mark.parametrize("players", [3, 4])
def test_hard_plays_legally_with_three_and_four_players(players: int) -> None:
    with thinking_for(0.1):  # 3 placements searched: quick
        out = play(GAME, [_checked(ai.hard)] * players, 5, {"layout": "random"})
    assert GAME.is_over(out.state)


def test_hard_plays_as_medium_when_no_weights_ship(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(value, "WEIGHTS_DIR", tmp_path)
    value.load.cache_clear()
    checked = 0

    def same_as_medium(view, legal, rng):
        nonlocal checked
        action = ai.hard(view, legal, random.Random(0))
        assert action == ai.medium(view, legal, random.Random(0))
        checked += 1
        return action

    try:
        assert value.load(2) is None
        out = play(GAME, [same_as_medium] * 2, 3, {"layout": "default"})
        assert GAME.is_over(out.state)
        assert checked > 30
    finally:
        value.load.cache_clear()


def test_a_move_that_ends_the_game_is_valued_at_the_exact_margin() -> None:
    """The last move of a game: the network never saw finished games, so the margin decides."""
    model = value.load(2)
    assert model is not None
    positions = _positions(2, 21, "default")
    last_turn = positions[-2]
    turn = learned._Turn(last_turn, model, learned.SETTINGS)
    final = Sim(positions[-1])
    assert final.over()
    margin = standing(positions[-1])["scores"]
    me = last_turn.seat
    assert turn.learned([final]) == [pytest.approx(margin[me] - margin[1 - me])]
