"""Sakkara's opponent rack is known from public events (rules, answer 14): the premise of the AI's memory.

Every tile that enters a rack is a top tile (public) or a Snake's steal (shown to both players);
every tile that leaves it is a public event (use, spell, build, display, discard). So a seat that
remembers the events it may see knows the opponent's rack exactly. These tests replay random
legal games and track, for each seat, the opponent's rack from the events that seat may see only
(no ``private_to``, or the seat in it) and check it against the true rack after every action.
``GAME.observe`` relies on this (it reads the opponent's rack from the state for the AI seats),
and so does Hard's determinisation; Easy and Medium must not use it (pinned below).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, agent_rng, resolve_chance
from engine.sakkara import GAME
from engine.sakkara.ai import AGENTS, CHECKED, state_from_view
from engine.sakkara.ai.search import HARD
from engine.sakkara.game import resample_forgetful
from engine.sakkara.rules import tiles_everywhere
from engine.sakkara.tiles import LEVEL_SLOTS, MOTIFS, TILES

TABLE = tuple(t.count for t in TILES)
HANDS = {m: hands for group, _, hands in LEVEL_SLOTS for m in group}


def visible(event: dict[str, Any], seat: int) -> bool:
    """Whether ``seat`` sees ``event`` (public, or private to a group that holds the seat)."""
    return "private_to" not in event or seat in event["private_to"]


class Memory:
    """What ``seat`` knows of the opponent's rack from the events it has seen, and nothing else."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.opp = 1 - seat
        self.rack: Counter[str] = Counter()
        self.kinds: Counter[str] = Counter()  # the rack-changing events met (coverage)

    def _add(self, m: str | None, kind: str) -> None:
        if m is not None:
            self.rack[m] += 1
            self.kinds[kind] += 1

    def _sub(self, m: str, kind: str) -> None:
        self.rack[m] -= 1
        assert self.rack[m] >= 0, (m, kind)  # a tile left that the memory never saw come in
        self.kinds[kind] += 1

    def _moves(self, moves: list[dict[str, Any]], kind: str) -> None:
        for mv in moves:
            if mv["stairs"]:
                self._sub("stairs", kind + "+stairs")
            self._add(mv["took"], kind)

    def see(self, event: dict[str, Any]) -> None:
        """Update the memory with one event the seat is allowed to see."""
        assert visible(event, self.seat)
        kind = event["type"]
        if kind == "stolen":  # private to both players
            if event["seat"] == self.opp:
                self._add(event["motif"], "stolen")
            elif event["from"] == self.opp:
                self._sub(event["motif"], "stolen")
            return
        if kind == "reveal":
            # the Snake opens the rack to this seat: the memory must already know it
            assert event["seat"] == self.opp
            assert dict(+self.rack) == event["rack"], "the Snake revealed something the memory missed"
            return
        if event.get("seat") != self.opp or kind in ("deal", "end", "return", "steal"):
            return  # "return" names the placer (its tiles are the used-tile stack); "stolen" tells a steal
        if kind in ("place", "bird"):
            if kind == "bird":
                self._sub("bird", kind)
            self._add(event["took"], kind)
        elif kind == "step":
            self._moves([event], kind)
        elif kind == "horse":
            self._sub("horse", kind)
            self._moves(event["moves"], kind)
        elif kind in ("ox", "snake"):
            self._sub(kind, kind)
        elif kind == "cast":
            for m in str(event["order"]).split(","):
                self._sub(m, kind)
            for _, m in event.get("took", []):
                self._add(m, kind)
        elif kind in ("display", "discard"):
            self._sub(event["motif"], kind)
        elif kind == "build":
            self._sub(event["motif"], kind)
            for _ in range(HANDS[event["motif"]]):
                self._sub("helping_hand", kind)
        else:
            raise AssertionError(f"an event the memory does not know: {kind}")

    def counts(self) -> tuple[int, ...]:
        """The remembered rack as motif counts in MOTIFS order."""
        return tuple(self.rack[m] for m in MOTIFS)


def remembered_game(seed: int, rng: random.Random, steps: int) -> list[Memory]:
    """Play random legal actions (biased towards progress and the Snake); check both memories
    against the true racks and the seats' own views after every action; return the memories."""
    memories = [Memory(0), Memory(1)]
    state = GAME.setup(2, seed)
    for _ in range(steps):
        movers = GAME.to_move(state)
        if not movers:
            break
        seat = movers[0]
        if seat == CHANCE:
            action = resolve_chance(GAME, state)
        else:
            legal = GAME.legal_actions(state, seat)
            useful = [a for a in legal if a["do"] in ("build", "display", "snake", "cast", "horse")]
            action = rng.choice(useful if useful and rng.random() < 0.7 else legal)
        state, events = GAME.apply(state, seat, action)
        for mem in memories:
            for e in events:
                if visible(e, mem.seat):
                    mem.see(e)
            assert mem.counts() == state.racks[mem.opp]
            assert sum(mem.counts()) == GAME.view(state, mem.seat)["rack_sizes"][mem.opp]
            assert GAME.observe(state, mem.seat)["opponent_rack"] == dict(+mem.rack)  # what the AIs get
    return memories


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), choice_seed=st.integers(0, 2**32))
def test_each_seat_knows_the_opponent_rack_from_the_events_it_sees(seed, choice_seed):
    remembered_game(seed, random.Random(choice_seed), 1500)


def test_the_seeded_games_meet_every_way_a_rack_changes():
    """The property above means something: its games take, steal, spend, build and discard."""
    kinds: Counter[str] = Counter()
    for seed in range(6):
        for mem in remembered_game(seed, random.Random(seed), 100_000):
            kinds += mem.kinds
    for kind in ("place", "step", "step+stairs", "horse", "bird", "ox", "snake", "stolen", "cast",
                 "display", "build", "discard"):
        assert kinds[kind] > 0, (kind, kinds)


# ---------------------------------------------------------------------------------------------
# the AI seats' memory: observe, resample_hidden, determinisation; Easy and Medium unchanged


def test_observe_adds_the_remembered_rack_and_the_view_stays_as_it_was():
    _, state, _ = _positions()[5]
    for seat in (0, 1):
        view = GAME.view(state, seat)
        seen = GAME.observe(state, seat)
        assert "opponent_rack" not in view and "opponent_rack" not in GAME.view(state, None)
        assert {k: v for k, v in seen.items() if k != "opponent_rack"} == view
        assert seen["opponent_rack"] == {m: c for m, c in zip(MOTIFS, state.racks[1 - seat], strict=True) if c}


def test_resampling_moves_covered_tiles_only_and_the_forgetful_one_the_rack_too():
    from sakkara_kit import make

    s = make(racks=({"snake": 1, "moon": 2}, {"apex": 3}), board={10: ["ship", "ox"], 11: ["grain", "bird"]})
    kept = [GAME.resample_hidden(s, 0, random.Random(i)) for i in range(20)]
    assert all(m.racks == s.racks for m in kept)
    assert any(m.board != s.board for m in kept)
    forgot = [resample_forgetful(s, 0, random.Random(i)) for i in range(20)]
    assert any(m.racks[1] != s.racks[1] for m in forgot)
    assert all(m.racks[0] == s.racks[0] for m in forgot)


def test_hard_determinises_with_the_remembered_rack_the_others_without():
    _, state, seat = _positions()[9]
    seen = GAME.observe(state, seat)
    opp = 1 - seat
    worlds = [state_from_view(seen, random.Random(i), memory=True) for i in range(10)]
    assert all(w.racks == state.racks for w in worlds)
    assert all(tiles_everywhere(w) == list(TABLE) for w in worlds)
    assert len({w.board for w in worlds}) > 1  # the covered tiles are still drawn
    assert all(GAME.view(w, seat) == GAME.view(state, seat) for w in worlds)
    blind = [state_from_view(seen, random.Random(i)) for i in range(10)]
    assert any(w.racks[opp] != state.racks[opp] for w in blind)
    assert HARD.memory and CHECKED.replies > 0  # Hard remembers; Medium checks replies (forgetfully)


def _short(action: dict[str, Any]) -> str:
    if action["do"] == "step":
        return f"{action['worker']}{action['dir']}"
    return f"{action['do']}:{action.get('motif', '')}"


_POSITIONS: list[tuple[int, Any, int]] = []


def _positions() -> list[tuple[int, Any, int]]:
    """32 seeded positions at a turn's start (4 per seed, after 8, 30, 60 and 100 random actions)."""
    if _POSITIONS:
        return _POSITIONS
    for seed in range(8):
        rng = random.Random(seed)
        state = GAME.setup(2, 700 + seed)
        step = 0
        targets = [8, 30, 60, 100]
        while targets and not GAME.is_over(state):
            seat = GAME.to_move(state)[0]
            if seat == CHANCE:
                state, _ = GAME.apply(state, seat, resolve_chance(GAME, state))
                continue
            legal = GAME.legal_actions(state, seat)
            if step >= targets[0] and state.phase == "before" and len(legal) > 1:
                _POSITIONS.append((seed, state, seat))
                targets.pop(0)
            useful = [a for a in legal if a["do"] in ("build", "display")]
            state, _ = GAME.apply(state, seat, rng.choice(useful if useful and rng.random() < 0.8 else legal))
            step += 1
    return _POSITIONS


# Easy's / Medium's moves in those positions, recorded with the code before the memory existed
# (main at b216420): they are the yardstick of Hard, so the memory must not change them.
BEFORE_MEMORY = (  # easy/medium per position; a step is worker + direction
    "0S/1W 1S/0N 0W/1W 0S/0S 1S/1S 0E/0S build:stairs/build:stairs 0E/1E 0S/0S 0E/0N 1S/1W 1E/1E "
    "1S/0W 0W/1W 0W/1S 0S/0S 1N/1N 0E/0E 0E/0S 0N/0N 1E/1E 0E/1E 0N/0W 1W/1W 0E/1E 0E/1E 0E/1S "
    "1N/0E 1N/0E 1S/1W 0W/0W 0S/1W"
)


def test_easy_and_medium_play_as_before_the_memory():
    got = []
    for seed, state, seat in _positions():
        legal = GAME.legal_actions(state, seat)
        moves = [AGENTS[n](GAME.observe(state, seat), legal, agent_rng(seed, seat)) for n in ("easy", "medium")]
        # the remembered rack is not read: the plain view gives the same moves
        assert moves == [AGENTS[n](GAME.view(state, seat), legal, agent_rng(seed, seat)) for n in ("easy", "medium")]
        got.append("/".join(_short(a) for a in moves))
    assert " ".join(got) == BEFORE_MEMORY
