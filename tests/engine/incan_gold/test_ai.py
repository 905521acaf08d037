"""Incan Gold AI seats: legal, pure functions of what the seat may know, sensible choices."""

from __future__ import annotations

import random

import pytest

from engine.core import play
from engine.incan_gold import GAME, ai
from engine.incan_gold.rules import resample_hidden
from tests.engine.incan_gold.helpers import run

CAMP, TORCH = "camp", "torch"


def test_bust_probability_and_expected_share_count_cards_exactly():
    state, _ = run(4, ["H-fire", {}, "T9"])
    view = GAME.observe(state, 0)
    # 2 fires left among 15 - 1 treasures ... the deck: 14 treasures, 14 hazards, A1 -> 29 cards
    assert view["cards_left"] == 29
    assert ai.bust_probability(view) == pytest.approx(2 / 29)
    treasures = [1, 2, 3, 4, 5, 5, 7, 7, 11, 11, 13, 14, 15, 17]
    assert ai.expected_share(view, 4) == pytest.approx(sum(v // 4 for v in treasures) / 29)


def test_medium_leaves_with_a_big_haul_in_danger_and_stays_when_safe():
    safe, _ = run(4, ["T3"])
    assert ai.medium(GAME.observe(safe, 0), [CAMP, TORCH], random.Random(0)) == TORCH
    risky, _ = run(4, ["T17", {}, "T15", {}, "H-fire", {}, "H-snakes", {}, "H-spiders", {}, "T14"])
    assert ai.medium(GAME.observe(risky, 0), [CAMP, TORCH], random.Random(0)) == CAMP


def test_easy_plays_like_a_beginner_counting_hazards_not_cards():
    def choices(steps, n=300):
        state, _ = run(3, steps)
        view = GAME.observe(state, 0)
        return [ai.easy(view, [CAMP, TORCH], random.Random(seed)) for seed in range(n)]

    # nothing scary yet: it stays, even with an artifact waiting for a lone leaver
    assert set(choices(["T5", {}, "A1", {}, "T7"])) == {TORCH}
    # two hazards and a few gems in hand: home two times in three (sometimes it pushes its luck)
    two = choices(["T14", {}, "H-fire", {}, "H-snakes"])
    assert 0.55 < two.count(CAMP) / len(two) < 0.8
    # three hazards, or a handful of 15 gems: always home
    assert set(choices(["T2", {}, "H-fire", {}, "H-snakes", {}, "H-mummies"])) == {CAMP}
    assert set(choices(["T17", {}, "T15", {}, "T14", {}, "T13"])) == {CAMP}  # 18 gems


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_ai_choices_ignore_other_seats_pending_choices(level):
    state, _ = run(5, ["H-fire", {}, "T9", {}, "T7"])
    state, _ = GAME.apply(state, 1, CAMP)
    state, _ = GAME.apply(state, 2, TORCH)
    agent = ai.AGENTS[level]
    mine = agent(GAME.observe(state, 0), [CAMP, TORCH], random.Random(5))
    for trial in range(4):
        other = resample_hidden(state, 0, random.Random(trial))
        assert agent(GAME.observe(other, 0), [CAMP, TORCH], random.Random(5)) == mine


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_ai_levels_finish_games_with_legal_choices(level):
    for seed in range(20):
        final = play(GAME, [ai.AGENTS[level]] * 4, seed).state
        assert GAME.is_over(final)


def test_hard_plays_a_whole_game():
    final = play(GAME, [ai.hard, ai.medium, ai.leave_at_10], 3).state
    assert GAME.is_over(final)


def test_hard_maximises_the_chance_to_win_not_expected_gems():
    # Rounds 1-4: seats 1 and 2 bank, seat 0 stays in and loses everything each time.
    steps: list[object] = []
    for treasure, hazard in (("T17", "fire"), ("T15", "snakes"), ("T14", "mummies"), ("T13", "rockfall")):
        steps += [treasure, {1: CAMP, 2: CAMP}, f"H-{hazard}", {}, f"H-{hazard}"]
    # Round 5: the others bank again and seat 0 is alone with a haul and two hazards behind it.
    steps += ["T11", {1: CAMP, 2: CAMP}, "T9", {}, "H-spiders", {}, "H-fire"]
    state, _ = run(3, steps)
    view = GAME.observe(state, 0)
    assert state.round == 5 and view["inside"] == [0]
    leave_total = view["you"]["carried"] + view["path_gems"]
    assert leave_total < min(view["reckoning"]["scores"][1:])  # camping now loses for sure
    assert ai.medium(view, [CAMP, TORCH], random.Random(1)) == CAMP  # the gem-counter banks
    assert ai.hard(view, [CAMP, TORCH], random.Random(1)) == TORCH  # the winner gambles
