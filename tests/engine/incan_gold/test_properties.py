"""Hypothesis properties of Incan Gold over random play (invariants of the rules file)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, replay, resolve_chance
from engine.incan_gold import GAME
from engine.incan_gold.editions import PRESETS

PRESET = st.sampled_from(sorted(PRESETS))


def _random_game(players: int, seed: int, preset: str, data: st.DataObject):
    """Play a game with hypothesis choosing every choice; yield (state, seat, action, next, events)."""
    state = GAME.setup(players, seed, {"preset": preset})
    while not GAME.is_over(state):
        movers = GAME.to_move(state)
        if movers == [CHANCE]:
            seat, action = CHANCE, resolve_chance(GAME, state)
        else:
            seat = movers[0]
            action = data.draw(st.sampled_from(GAME.legal_actions(state, seat)))
        new, events = GAME.apply(state, seat, action)
        yield state, seat, action, new, events
        state = new


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32), preset=PRESET, data=st.data())
def test_gems_are_conserved_and_hazards_behave(players, seed, preset, data):
    revealed = 0
    lost = 0
    claimed: list[str] = []
    removed_before: tuple[str, ...] = ()
    last = None
    for state, seat, action, new, events in _random_game(players, seed, preset, data):
        last = new
        for event in events:
            if event["type"] == "card" and "value" in event:
                revealed += event["value"]
            if event["type"] == "collapse":
                lost += sum(amount for _, amount in event["lost"])
            if event["type"] == "round_end":
                lost += event["gems_left"]
            if event["type"] == "camp":
                claimed += [a["artifact"] for a in event["artifacts"]]
        if seat == CHANCE and action.startswith("H-"):
            twin_on_path = any(card == action for card, _ in state.path)
            collapsed = any(e["type"] == "collapse" for e in events)
            assert collapsed == twin_on_path  # exactly on the second copy within a round
        # Gem conservation: every revealed point is banked, carried, on the path or lost.
        on_path = sum(g for _, g in new.path)
        assert sum(new.banked) + sum(new.carried) + on_path + lost == revealed
        # Removed hazards never return: only ever appended, never back in the deck beyond copies.
        assert new.removed[: len(removed_before)] == removed_before
        removed_before = new.removed
        if not PRESETS[preset].per_temple_piles:
            left = Counter(new.deck)
            on = Counter(c for c, _ in new.path)
            gone = Counter(new.removed)
            for h in PRESETS[preset].hazards:
                assert left[f"H-{h}"] + on[f"H-{h}"] + gone[f"H-{h}"] <= 3
    assert last is not None and GAME.is_over(last)
    # Artifacts are never claimed twice and at most five exist.
    assert len(claimed) == len(set(claimed)) <= 5
    held = [a for arts in last.artifacts for a, _ in arts]
    assert sorted(held) == sorted(claimed)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32), preset=PRESET, data=st.data())
def test_replay_and_round_trip_are_exact(players, seed, preset, data):
    log = []
    final = None
    for state, seat, action, new, _ in _random_game(players, seed, preset, data):
        log.append((seat, action))
        assert GAME.loads(GAME.dumps(state)) == state
        final = new
    assert final is not None
    assert GAME.dumps(replay(GAME, players, seed, log, {"preset": preset})) == GAME.dumps(final)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_no_view_or_event_reveals_a_choice_before_the_reveal(seed, data):
    for _, seat, _, new, events in _random_game(5, seed, "incan-gold", data):
        if seat == CHANCE:
            continue
        for event in events:
            if event["type"] == "chosen":
                assert set(event) == {"type", "chosen", "deciding"}
        if new.phase == "decide" and any(new.pending):
            for other in range(5):
                if other != seat:
                    assert GAME.view(new, other)["you"]["pending"] in (None, new.pending[other])
            assert "pending" not in GAME.view(new, None)
