"""Incan Gold / Diamant rules: a pure, immutable state machine over five expeditions.

Hidden information: each seat's pending Torch/Camp choice until the simultaneous reveal, and
(unless ``open_tents``) the banked totals in the tents. The deck order is not hidden state: it
does not exist until a card is drawn, because each reveal is a chance outcome drawn from the
seeded key ``chance_key(seed, draws)`` over the remaining cards in canonical order.

Cards are labels: ``"T<value>"`` treasure, ``"H-<hazard>"`` hazard (the preset's name),
``"A<round it entered>"`` artifact. Binding rules: ``rules/incan_gold.md`` of the project's
shared rules; decisions where the sources are silent are noted where they are made.

This module holds the state, the cards, setup, the queries, the views and the JSON form; what an
action does (``apply``: the reveals, the return to camp, the end of an expedition) is in
``effects.py``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import asdict, dataclass, replace
from typing import Any

from engine.core import CHANCE, is_seat, pick_weighted
from engine.incan_gold import editions as ed

TORCH = "torch"
CAMP = "camp"
CHOICES: tuple[str, str] = (CAMP, TORCH)  # sorted: legal_actions returns them in this order

OPTION_KEYS = frozenset({"preset", "artifact_scoring", "open_tents", "one_change_per_game"})
MIN_PLAYERS = 2  # 2 is allowed but "not recommended" (seed 000); the lobby flags it
MAX_PLAYERS = 8


@dataclass(frozen=True, slots=True)
class State:
    """One moment of an Incan Gold game; plain immutable data (see module docstring)."""

    seed: int
    draws: int
    players: int
    preset: str
    scoring: str | None
    open_tents: bool
    one_change: bool
    round: int
    phase: str  # "chance" (a card is due), "decide" (secret choices), "over"
    deck: tuple[str, ...]  # remaining cards, canonical order
    path: tuple[tuple[str, int], ...]  # revealed cards this round and the gems left on each
    relics: tuple[str, ...]  # artifacts lying on the path now, in the order they appeared
    gone: tuple[str, ...]  # artifacts claimed or lost: they never return
    removed: tuple[str, ...]  # hazard cards removed from the game by collapses
    inside: tuple[bool, ...]
    carried: tuple[int, ...]
    banked: tuple[int, ...]
    artifacts: tuple[tuple[tuple[str, int], ...], ...]  # per seat: (artifact, points) claimed
    claimed: int  # artifacts claimed so far in the game (claim-order scoring)
    pending: tuple[str, ...]  # per seat: "" (no choice yet), "torch" or "camp" — secret
    changed: tuple[bool, ...]  # per seat: the one change of one_change_per_game is used
    # Public memory (what a careful player remembers; AI seats read it, see ``observe``): per seat,
    # the number of cards on the path when it returned to camp this expedition (0: not yet), and
    # every ended expedition's revealed cards in order with its exits.
    exits: tuple[int, ...] = ()
    story: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = ()


# --------------------------------------------------------------------------- cards


def edition(state: State) -> ed.Edition:
    """Return the preset data of a game."""
    return ed.PRESETS[state.preset]


def card_sort_key(card: str, hazards: tuple[str, ...]) -> tuple[int, int]:
    """Return the canonical order key of a card: treasures by value, hazards, artifacts."""
    if card[0] == "T":
        return (0, int(card[1:]))
    if card[0] == "H":
        return (1, hazards.index(card[2:]))
    return (2, int(card[1:]))


def hazard_of(card: str) -> str | None:
    """Return the hazard name of a hazard card, else None."""
    return card[2:] if card.startswith("H-") else None


def round_deck(preset: str, rnd: int, removed: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    """Return the cards shuffled for round ``rnd``, in canonical order."""
    edn = ed.PRESETS[preset]
    if edn.per_temple_piles:
        # Each temple has its own pile: its own treasure values, more hazards, its own relic.
        cards = [f"T{v}" for v in ed.temple_treasures(rnd)]
        cards += [f"H-{h}" for h in edn.hazards for _ in range(ed.TEMPLE_HAZARD_COPIES[rnd - 1])]
        cards.append(f"A{rnd}")
    else:
        out = Counter(removed)
        cards = [f"T{v}" for v in ed.TREASURES]
        cards += [f"H-{h}" for h in edn.hazards for _ in range(ed.HAZARD_COPIES - out[f"H-{h}"])]
        if edn.artifacts:
            # Artifacts entered in earlier rounds and never drawn are still in the deck.
            cards += [f"A{r}" for r in range(1, rnd + 1) if f"A{r}" not in gone]
    return tuple(sorted(cards, key=lambda c: card_sort_key(c, edn.hazards)))


# --------------------------------------------------------------------------- setup


def setup(players: int, seed: int, options: dict[str, Any] | None = None) -> State:
    """Return a new game at the start of round 1, a card due."""
    opts = dict(options or {})
    unknown = set(opts) - OPTION_KEYS
    if unknown:
        raise ValueError(f"{sorted(unknown)[0]}: unknown option")
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players: must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {players!r}")
    preset = opts.get("preset", "incan-gold")
    if preset not in ed.PRESETS:
        raise ValueError(f"preset: unknown preset {preset!r}")
    edn = ed.PRESETS[preset]
    scoring = opts.get("artifact_scoring")
    if scoring is not None and not edn.artifacts:
        raise ValueError(f"artifact_scoring: preset {preset!r} has no artifacts")
    if scoring is None:
        scoring = edn.default_scoring
    elif scoring not in ed.ARTIFACT_SCORINGS:
        raise ValueError(f"artifact_scoring: unknown scoring {scoring!r}")
    flags = {}
    for key in ("open_tents", "one_change_per_game"):
        value = opts.get(key, False)
        if not isinstance(value, bool):
            raise ValueError(f"{key}: must be true or false, got {value!r}")
        flags[key] = value
    if not isinstance(seed, int):
        raise ValueError(f"seed: must be an integer, got {seed!r}")
    return State(
        seed=seed,
        draws=0,
        players=players,
        preset=preset,
        scoring=scoring,
        open_tents=flags["open_tents"],
        one_change=flags["one_change_per_game"],
        round=1,
        phase="chance",
        deck=round_deck(preset, 1, (), ()),
        path=(),
        relics=(),
        gone=(),
        removed=(),
        inside=(True,) * players,
        carried=(0,) * players,
        banked=(0,) * players,
        artifacts=((),) * players,
        claimed=0,
        pending=("",) * players,
        changed=(False,) * players,
        exits=(0,) * players,
    )


# --------------------------------------------------------------------------- queries


def to_move(state: State) -> list[int]:
    """Return the seats that still owe a choice, ``[CHANCE]`` when a card is due, ``[]`` at the end."""
    if state.phase == "chance":
        return [CHANCE]
    if state.phase == "decide":
        return [s for s in range(state.players) if state.inside[s] and not state.pending[s]]
    return []


def chance_outcomes(state: State) -> list[tuple[str, float]]:
    """Return the next card's possible labels with probabilities (copies add up), canonical order."""
    if state.phase != "chance":
        return []
    n = len(state.deck)
    counts = Counter(state.deck)
    seen: list[str] = []
    for card in state.deck:  # the deck is canonical, so first appearance order is canonical
        if not seen or seen[-1] != card:
            seen.append(card)
    return [(card, counts[card] / n) for card in seen]


def sample_chance(state: State, key: int) -> str:
    """Return the card the 64-bit chance key selects."""
    return str(pick_weighted(chance_outcomes(state), key))


def legal_actions(state: State, seat: int) -> list[str]:
    """Return ``["camp", "torch"]`` for a seat still to choose (or the other choice for a change)."""
    if state.phase != "decide" or not is_seat(seat) or not 0 <= seat < state.players or not state.inside[seat]:
        return []
    mine = state.pending[seat]
    if not mine:
        return list(CHOICES)
    if state.one_change and not state.changed[seat]:
        return [CAMP if mine == TORCH else TORCH]
    return []


def is_over(state: State) -> bool:
    """Return True after the fifth expedition."""
    return state.phase == "over"


def scores(state: State) -> list[int]:
    """Return each seat's score: banked gems plus artifact points."""
    return [state.banked[s] + sum(v for _, v in state.artifacts[s]) for s in range(state.players)]


def winners(state: State) -> list[int]:
    """Return the winning seats: best score, then most artifacts; a remaining tie is shared."""
    sc = scores(state)
    best = max((sc[s], len(state.artifacts[s])) for s in range(state.players))
    return [s for s in range(state.players) if (sc[s], len(state.artifacts[s])) == best]


def result(state: State) -> dict[str, Any]:
    """Return scores, winners, banked gems and artifacts per seat."""
    return {
        "scores": scores(state),
        "winners": winners(state),
        "banked": list(state.banked),
        "artifacts": [[a for a, _ in arts] for arts in state.artifacts],
    }


# --------------------------------------------------------------------------- views


def _public(state: State) -> dict[str, Any]:
    deciding = [s for s in range(state.players) if state.inside[s]]
    hazards_seen = [c[2:] for c, _ in state.path if c[0] == "H"]
    view: dict[str, Any] = {
        "game": "incan_gold",
        "preset": state.preset,
        "artifact_scoring": state.scoring,
        "open_tents": state.open_tents,
        "players": state.players,
        "round": state.round,
        "rounds": ed.ROUNDS,
        "phase": state.phase,
        "path": [{"card": c, "gems": g} for c, g in state.path],
        "path_gems": sum(g for _, g in state.path),
        "artifacts_on_path": list(state.relics),
        "hazards_seen": hazards_seen,
        # Hazards missing from the piles still to come: with one pile per temple (seed 003) a
        # collapse removes its card from a pile that is finished anyway, so none ever are.
        "removed_hazards": [] if edition(state).per_temple_piles else [c[2:] for c in state.removed],
        "cards_left": len(state.deck),
        # The deck's composition (not its order) is public: any careful player can count it.
        "deck": dict(Counter(state.deck)),
        "inside": deciding,
        "carried": list(state.carried),  # shares lie in front of the tents, in plain sight
        "artifacts": [[a for a, _ in arts] for arts in state.artifacts],
        "claimed": state.claimed,
        "chosen": sum(1 for s in deciding if state.pending[s]) if state.phase == "decide" else 0,
        "deciding": len(deciding) if state.phase == "decide" else 0,
    }
    if state.open_tents or state.phase == "over":
        view["banked"] = list(state.banked)
        view["scores"] = scores(state)
    if state.phase == "over":
        view["winners"] = winners(state)
    return view


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Return the public view (``seat`` None) or a seat's view: public plus its own tent and choice."""
    out = _public(state)
    if seat is None:
        return out
    if not 0 <= seat < state.players:
        raise ValueError(f"seat: no seat {seat} at a table of {state.players}")
    out["you"] = {
        "seat": seat,
        "inside": state.inside[seat],
        "carried": state.carried[seat],
        "banked": state.banked[seat],
        "artifacts": [{"artifact": a, "points": v} for a, v in state.artifacts[seat]],
        "score": scores(state)[seat],
        "pending": state.pending[seat] or None,
        "can_change": state.one_change and not state.changed[seat],
    }
    return out


def observe(state: State, seat: int) -> dict[str, Any]:
    """Return an AI seat's view plus the tents a careful player reconstructs from public splits.

    Every gem a seat banks is shared in public and every artifact claim is seen, so perfect
    memory gives the banked totals exactly; the bot never renders this (tents stay closed).
    """
    out = view(state, seat)
    out["reckoning"] = {"banked": list(state.banked), "scores": scores(state)}
    # Who returned to camp when is announced at every reveal: the same memory keeps it.
    out["story"] = {
        "expeditions": [{"cards": list(cards), "exits": list(exits)} for cards, exits in state.story],
        "exits": list(state.exits or (0,) * state.players),
    }
    return out


def resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    """Return the state with every other seat's pending choice and change flag redrawn."""
    pending = list(state.pending)
    changed = list(state.changed)
    for s in range(state.players):
        if s == seat:
            continue
        if pending[s]:
            pending[s] = rng.choice(CHOICES)
        if state.one_change:
            changed[s] = rng.random() < 0.5
    return replace(state, pending=tuple(pending), changed=tuple(changed))


# --------------------------------------------------------------------------- serialisation


def dumps(state: State) -> str:
    """Return the state as a compact JSON string."""
    return json.dumps(asdict(state), separators=(",", ":"))


def loads(data: str) -> State:
    """Return the state encoded by :func:`dumps`; malformed data raises ValueError."""
    try:
        raw = json.loads(data)
        return State(
            seed=int(raw["seed"]),
            draws=int(raw["draws"]),
            players=int(raw["players"]),
            preset=str(raw["preset"]),
            scoring=None if raw["scoring"] is None else str(raw["scoring"]),
            open_tents=bool(raw["open_tents"]),
            one_change=bool(raw["one_change"]),
            round=int(raw["round"]),
            phase=str(raw["phase"]),
            deck=tuple(str(c) for c in raw["deck"]),
            path=tuple((str(c), int(g)) for c, g in raw["path"]),
            relics=tuple(str(c) for c in raw["relics"]),
            gone=tuple(str(c) for c in raw["gone"]),
            removed=tuple(str(c) for c in raw["removed"]),
            inside=tuple(bool(x) for x in raw["inside"]),
            carried=tuple(int(x) for x in raw["carried"]),
            banked=tuple(int(x) for x in raw["banked"]),
            artifacts=tuple(tuple((str(a), int(v)) for a, v in arts) for arts in raw["artifacts"]),
            claimed=int(raw["claimed"]),
            pending=tuple(str(x) for x in raw["pending"]),
            changed=tuple(bool(x) for x in raw["changed"]),
            # States stored before the public memory existed load with an empty one.
            exits=tuple(int(x) for x in raw.get("exits", [0] * int(raw["players"]))),
            story=tuple((tuple(str(c) for c in cards), tuple(int(x) for x in exits))
                        for cards, exits in raw.get("story", [])),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not an Incan Gold state: {exc}") from exc
