"""The steps of a replay (cogs.replay.steps): every step's state is the engine's replay of the log up
to it, the steps cover the whole log once, and the chapters grow as the games' own logs group them."""

from __future__ import annotations

import importlib
import itertools

import pytest

from cogs.replay.steps import cut
from engine.core import play, replay
from engine.session.games import SPECS


def _random(view, legal, rng):  # an Agent
    return rng.choice(legal)


@pytest.mark.parametrize(("name", "players"), [("incan_gold", 3), ("sakkara", 2), ("indus", 2), ("indus", 4)])
def test_every_step_is_the_engines_replay_of_the_log_up_to_it(name, players):
    game = importlib.import_module(f"engine.{name}").GAME
    run = play(game, [_random] * players, seed=23)
    frames = cut(SPECS[name], players, 23, {}, run.log)
    assert frames[0].end == 0 and frames[0].events == () and frames[-1].end == len(run.log)
    assert [f.index for f in frames] == list(range(len(frames)))
    assert all(a.end < b.end for a, b in itertools.pairwise(frames))  # no empty step
    for frame in frames:
        assert game.dumps(frame.state) == game.dumps(replay(game, players, 23, run.log[:frame.end]))
    # the steps' events are the whole game's events, in order, each once
    state, events = game.setup(players, 23, {}), []
    for seat, action in run.log:
        state, happened = game.apply(state, seat, action)
        events += happened
    assert [e for f in frames for e in f.events] == events
    chapters = [f.chapter for f in frames]
    assert chapters == sorted(chapters) and chapters[0] == 1 and chapters[-1] > 1


def test_an_incan_step_is_one_card_with_the_choices_before_it():
    run = play(SPECS["incan_gold"].game, [_random] * 3, seed=5)
    frames = cut(SPECS["incan_gold"], 3, 5, {}, run.log)
    for frame in frames[1:]:
        cards = [e for e in frame.events if e["type"] == "card"]
        ended = any(e["type"] == "round_end" for e in frame.events)
        assert len(cards) <= 1 and (cards or ended)
        assert not cards or frame.events[-1]["type"] in ("card", "collapse", "round_end", "round_start", "game_over")
    rounds = [e["round"] for f in frames for e in f.events if e["type"] == "round_end"]
    assert rounds == [1, 2, 3, 4, 5] and frames[-1].chapter == 5
