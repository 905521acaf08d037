"""The replay audit of a stored game: equal logs give equal audits, a damaged log is caught."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Any

import pytest

from engine.core import play
from engine.session import SeatSpec, Snapshot, StoredTable
from engine.session.audit import audit
from engine.session.games import SPECS

PLAYERS = {"incan_gold": 3, "sakkara": 2, "indus": 2}


def _stored(game: str, log: list[tuple[int, Any]], status: str = "finished", seed: int | None = 11) -> StoredTable:
    """A table as the store gives it back: every payload through JSON, as it was written."""
    moves = tuple((seat, json.loads(json.dumps(action))) for seat, action in log)
    seats = tuple(SeatSpec(f"P{n}", 100 + n) for n in range(PLAYERS[game]))
    return StoredTable(1, game, {}, {}, seed, 9, 8, 100, status, seats, moves)


def _played(game: str) -> tuple[Any, list[tuple[int, Any]]]:
    spec = SPECS[game]
    done = play(spec.game, [spec.agents["easy"]] * PLAYERS[game], 11)
    return done.state, done.log


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_finished_game_replays_to_the_state_it_was_played_to(game: str):
    state, log = _played(game)
    found = audit(_stored(game, log))
    assert (found.error, found.over, found.as_recorded, found.actions) == (None, True, True, len(log))
    assert found == audit(_stored(game, log))
    assert found.digest != audit(_stored(game, log[:-1], "playing")).digest
    assert found.digest == hashlib.sha256(SPECS[game].game.dumps(state).encode()).hexdigest()


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_game_cut_short_is_consistent_only_while_not_stored_as_finished(game: str):
    _, log = _played(game)
    half = log[: len(log) // 2]
    assert audit(_stored(game, half, "playing")).as_recorded
    assert audit(_stored(game, half, "abandoned")).as_recorded
    assert not audit(_stored(game, half, "finished")).as_recorded


def test_a_damaged_action_is_reported_not_raised():
    _, log = _played("incan_gold")
    seat, _ = next((s, a) for s, a in log if s >= 0)
    at = next(n for n, (s, _) in enumerate(log) if s >= 0)
    damaged = [*log[:at], (seat, "fly"), *log[at + 1:]]
    found = audit(_stored("incan_gold", damaged))
    assert (found.as_recorded, found.digest) == (False, "")
    assert "IllegalAction" in (found.error or "")


def test_another_legal_choice_changes_the_digest():
    _, log = _played("incan_gold")
    at = next(n for n, (s, a) in enumerate(log) if s >= 0 and a == "torch")
    other = [*log[:at], (log[at][0], "camp")]
    assert audit(_stored("incan_gold", other, "playing")).digest != audit(_stored("incan_gold", log[: at + 1],
                                                                                   "playing")).digest


def test_a_lobby_has_nothing_to_replay_and_an_unknown_game_is_reported():
    assert audit(_stored("indus", [], "lobby", seed=None)).as_recorded
    unknown = StoredTable(2, "chess", {}, {}, 1, 9, 8, 100, "playing", (), ())
    assert audit(unknown).error == "unknown game 'chess'"


def test_the_audit_refuses_a_snapshot_and_tail():
    stored = _stored("incan_gold", [], "playing")
    with pytest.raises(ValueError, match="whole log"):
        audit(replace(stored, snapshot=Snapshot(0, 0, "{}")))
