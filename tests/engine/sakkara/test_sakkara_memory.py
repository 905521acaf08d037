"""Sakkara's opponent rack is known from public events (rules, answer 14): the premise of the AI's memory.

Every tile that enters a rack is a top tile (public) or a Snake's steal (shown to both players);
every tile that leaves it is a public event (use, spell, build, display, discard). So a seat that
remembers the events it may see knows the opponent's rack exactly. These tests replay random
legal games and track, for each seat, the opponent's rack from the events that seat may see only
(no ``private_to``, or the seat in it) and check it against the true rack after every action.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, resolve_chance
from engine.sakkara import GAME
from engine.sakkara.tiles import LEVEL_SLOTS, MOTIFS

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

