"""The expedition history the end-of-game chart draws: read from a replay of the game's actions."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import CHANCE
from engine.incan_gold import GAME, rules
from engine.incan_gold.editions import PRESETS
from engine.incan_gold.history import expeditions


def play(players: int, seed: int, options: dict[str, object], choices: random.Random) -> tuple[rules.State, list]:
    """Play a whole game with random choices and draws; return the end and its actions."""
    state, actions = GAME.setup(players, seed, options), []
    while not GAME.is_over(state):
        movers = GAME.to_move(state)
        if movers == [CHANCE]:
            card = sorted(state.deck)[choices.randrange(len(state.deck))]
            state, _ = GAME.apply(state, CHANCE, card)
            actions.append((CHANCE, card))
            continue
        for seat in movers:
            action = choices.choice(GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
            actions.append((seat, action))
    return state, actions


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32),
       preset=st.sampled_from(sorted(PRESETS)))
def test_five_expeditions_whose_last_totals_are_the_final_scores(players, seed, choices, preset):
    options = {"preset": preset}
    end, actions = play(players, seed, options, random.Random(choices))
    ends = expeditions(players, seed, options, actions)
    assert [e.round for e in ends] == [1, 2, 3, 4, 5]
    assert list(ends[-1].points) == rules.scores(end) and ends[-1].banked == end.banked
    for before, after in itertools.pairwise(ends):
        assert all(a >= b for a, b in zip(after.banked, before.banked, strict=True))  # tents never shrink
    taken = [[a for e in ends for a in e.artifacts[s]] for s in range(players)]
    assert taken == [list(arts) for arts in end.artifacts]  # every artifact once, in the expedition it was taken
