"""One contract test for every game (after OpenSpiel's random_sim_test and ResampleInfostateTest).

Seeded random playouts must finish; legal actions are sorted, JSON values, empty for seats that
owe nothing; apply never raises on a legal action and never changes its input; dumps/loads
round-trips; replay(seed, log) reproduces the live state; a seat's view is unchanged when
what it cannot see is redrawn; every view is JSON.
"""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest

from engine.core import CHANCE, Game, IllegalAction, Reason, replay, resolve_chance

_NAMES = ("incan_gold", "sakkara", "indus")


def _games() -> list[Any]:
    return [pytest.param(importlib.import_module(f"engine.{name}").GAME, id=name) for name in _NAMES]


GAMES = _games()
MAX_STEPS = 20_000


def _sort_key(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def _playout(game: Game, players: int, seed: int) -> tuple[Any, list[tuple[int, Any]]]:
    rng = random.Random(seed)
    state = game.setup(players, seed)
    log: list[tuple[int, Any]] = []
    for _ in range(MAX_STEPS):
        movers = game.to_move(state)
        if not movers:
            break
        assert movers == sorted(movers)
        for seat in range(game.max_players if players > game.max_players else players):
            if seat not in movers and CHANCE not in movers:
                # a seat that owes nothing has nothing to play (house rules that allow an
                # optional change are off by default)
                assert game.legal_actions(state, seat) == [], (seat, movers)
        if movers == [CHANCE]:
            outcomes = game.chance_outcomes(state)
            if outcomes:
                total = sum(p for _, p in outcomes)
                assert abs(total - 1.0) < 1e-9
            action = resolve_chance(game, state)
            seat = CHANCE
        else:
            seat = rng.choice(movers)
            legal = game.legal_actions(state, seat)
            assert legal, f"seat {seat} owes an action but has none"
            assert legal == sorted(legal, key=_sort_key)
            json.dumps(legal)
            action = rng.choice(legal)
        before = game.dumps(state)
        state, events = game.apply(state, seat, action)
        assert game.dumps(game.loads(before)) == before
        json.dumps(events)
        log.append((seat, action))
    else:
        pytest.fail(f"{game.name}: no end within {MAX_STEPS} steps")
    return state, log


def _any_action(game: Game, state: Any, seat: int, rng: random.Random) -> Any:
    if seat == CHANCE:
        return resolve_chance(game, state)
    return rng.choice(game.legal_actions(state, seat))


def _player_counts(game: Game) -> list[int]:
    return sorted({game.min_players, game.max_players, (game.min_players + game.max_players) // 2})


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_finish_and_replay(game: Game, seed: int) -> None:
    for players in _player_counts(game):
        state, log = _playout(game, players, seed)
        assert game.is_over(state)
        assert game.to_move(state) == []
        result = game.result(state)
        assert len(result["scores"]) == players
        assert result["winners"] and set(result["winners"]) <= set(range(players))
        assert game.dumps(replay(game, players, seed, log)) == game.dumps(state)
        # The log as the database returns it (JSON: tuples come back as lists) replays the same.
        stored = [(seat, action) for seat, action in json.loads(json.dumps(log))]
        assert game.dumps(replay(game, players, seed, stored)) == game.dumps(state)
        assert game.dumps(game.loads(game.dumps(state))) == game.dumps(state)
        assert game.loads(game.dumps(state)) == state
        with pytest.raises(IllegalAction):
            game.apply(state, 0, log[-1][1])


@pytest.mark.parametrize("game", GAMES)
def test_apply_does_not_modify_its_input(game: Game) -> None:
    state = game.setup(game.min_players, 3)
    snapshot = game.dumps(state)
    rng = random.Random(1)
    for _ in range(60):
        movers = game.to_move(state)
        if not movers:
            break
        seat = movers[0]
        action = _any_action(game, state, seat, rng)
        new, _ = game.apply(state, seat, action)
        assert game.dumps(state) == snapshot
        state, snapshot = new, game.dumps(new)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(4))
def test_views_do_not_change_when_hidden_information_is_redrawn(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    counts = _player_counts(game)
    players = counts[len(counts) // 2]
    state = game.setup(players, seed)
    for _ in range(400):
        movers = game.to_move(state)
        if not movers:
            break
        for seat in range(players):
            mine = game.view(state, seat)
            public = game.view(state, None)
            json.dumps(mine)
            for trial in range(3):
                other = game.resample_hidden(state, seat, random.Random(trial))
                assert game.view(other, seat) == mine
                assert game.view(other, None) == public
        seat = rng.choice(movers)
        action = _any_action(game, state, seat, rng)
        state, _ = game.apply(state, seat, action)


@pytest.mark.parametrize("game", GAMES)
def test_unknown_option_is_a_value_error_naming_it(game: Game) -> None:
    with pytest.raises(ValueError, match="no_such_option"):
        game.setup(game.min_players, 0, {"no_such_option": 1})


def _look_alikes(action: Any) -> list[Any]:
    """Values a sloppy comparison could take for ``action``: ``False`` or ``0.0`` for the first int
    field of a dict action; another case, padding, a list or bytes for a string action."""
    if isinstance(action, dict):
        fields = [k for k, v in action.items() if type(v) is int]
        return [{**action, name: fake} for name in fields[:1] for fake in (float(action[name]), bool(action[name]))]
    if isinstance(action, str):
        return [action.upper(), f" {action}", [action], action.encode()]
    return []


@pytest.mark.parametrize("game", GAMES)
def test_look_alike_actions_are_refused(game: Game) -> None:
    """A look-alike of a legal action must not pass for it: the log keeps only canonical actions."""
    rng = random.Random(5)
    state = game.setup(game.min_players, 5)
    tried = 0
    for _ in range(300):
        movers = game.to_move(state)
        if not movers:
            break
        seat = movers[0]
        if seat != CHANCE:
            for action in game.legal_actions(state, seat):
                for forged in _look_alikes(action):
                    with pytest.raises(IllegalAction):
                        game.apply(state, seat, forged)
                    tried += 1
        state, _ = game.apply(state, seat, _any_action(game, state, seat, rng))
    assert tried > 0
    with pytest.raises(IllegalAction):
        game.apply(game.setup(game.min_players, 5), CHANCE, object())


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_that_is_not_an_int_is_refused(game: Game) -> None:
    """``True`` is an int to Python: it must not play for seat 1, nor ``0.0`` / ``"0"`` for seat 0
    (Incan Gold took ``apply(state, True, "camp")`` as seat 1 and raised TypeError for others)."""
    rng = random.Random(6)
    state = game.setup(game.min_players, 6)
    checked = 0
    for _ in range(60):
        movers = game.to_move(state)
        if not movers:
            break
        seat = movers[0]
        if seat != CHANCE:
            action = game.legal_actions(state, seat)[0]
            dump = game.dumps(state)
            for forged in (bool(seat), not seat, float(seat), str(seat), None, [seat]):
                assert game.legal_actions(state, forged) == []  # type: ignore[arg-type]
                with pytest.raises(IllegalAction) as err:
                    game.apply(state, forged, action)  # type: ignore[arg-type]
                assert err.value.reason is Reason.NOT_A_SEAT
                checked += 1
            assert game.dumps(state) == dump
        state, _ = game.apply(state, seat, _any_action(game, state, seat, rng))
    assert checked > 0
