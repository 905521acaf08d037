"""Incan Gold / Diamant: what an action does — a card revealed, the choices revealed, the return
to camp and the end of an expedition.

Separate from ``rules.py``, which holds the state and what can be asked of it (legal actions,
scores, views): this module moves the state machine on by one action and says what happened.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import CHANCE, Event, IllegalAction, Reason, check_seat
from engine.incan_gold import editions as ed
from engine.incan_gold.rules import CAMP, State, legal_actions, round_deck, scores, winners

__all__ = ["apply"]


def apply(state: State, seat: int, action: Any) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` plays ``action`` (a card label for CHANCE), and events."""
    check_seat(seat)
    if state.phase == "over":
        raise IllegalAction(Reason.GAME_OVER, "the game is over")
    if seat == CHANCE:
        if state.phase != "chance":
            raise IllegalAction(Reason.NOT_YOUR_TURN, "no card is due")
        if not isinstance(action, str) or action not in state.deck:
            raise IllegalAction(Reason.ILLEGAL_MOVE, f"{action!r} is not in the deck")
        return _reveal_card(state, action)
    if state.phase == "chance":
        raise IllegalAction(Reason.CHANCE_DUE, "a card is due first")
    legal = legal_actions(state, seat)
    if not legal:
        raise IllegalAction(Reason.NOT_YOUR_TURN, f"seat {seat} has no choice to make")
    if action not in legal:
        raise IllegalAction(Reason.ILLEGAL_MOVE, f"{action!r} is not one of {legal}")
    return _choose(state, seat, action)


def _choose(state: State, seat: int, action: str) -> tuple[State, list[Event]]:
    pending = list(state.pending)
    changed = state.changed
    if pending[seat]:
        changed = tuple(c or s == seat for s, c in enumerate(changed))
    pending[seat] = action
    state = replace(state, pending=tuple(pending), changed=changed)
    deciding = [s for s in range(state.players) if state.inside[s]]
    chosen = sum(1 for s in deciding if state.pending[s])
    # Only the count is public; which seat chose stays secret until the reveal.
    events: list[Event] = [{"type": "chosen", "chosen": chosen, "deciding": len(deciding)}]
    if chosen < len(deciding):
        return state, events
    state, more = _reveal_choices(state)
    return state, events + more


def _reveal_choices(state: State) -> tuple[State, list[Event]]:
    deciding = [s for s in range(state.players) if state.inside[s]]
    choices: list[str | None] = [state.pending[s] if state.inside[s] else None for s in range(state.players)]
    events: list[Event] = [{"type": "reveal", "round": state.round, "choices": choices}]
    leavers = [s for s in deciding if state.pending[s] == CAMP]
    state = replace(state, pending=("",) * state.players)
    if leavers:
        state, camp = _return_to_camp(state, leavers)
        events.append(camp)
    if not any(state.inside):
        state, more = _end_round(state, "all-left")
        return state, events + more
    return replace(state, phase="chance"), events


def _return_to_camp(state: State, leavers: list[int]) -> tuple[State, Event]:
    """Leavers share the path's gems, a lone leaver takes every artifact, all bank and leave."""
    on_path = sum(g for _, g in state.path)
    share = on_path // len(leavers)
    rest = on_path - share * len(leavers)
    # [decision] the gems that stay lie on the cards nearest the entrance (the leavers pick up
    # the deeper ones first on their way out); only the display depends on this.
    path = []
    keep = rest
    for card, gems in state.path:
        left = min(gems, keep)
        keep -= left
        path.append((card, left))
    inside = list(state.inside)
    carried = list(state.carried)
    banked = list(state.banked)
    artifacts = [list(a) for a in state.artifacts]
    claimed = state.claimed
    gone = state.gone
    relics = state.relics
    taken: list[dict[str, Any]] = []
    if len(leavers) == 1 and relics:
        lone = leavers[0]
        for relic in relics:  # several at once: taken in the order they appeared on the path
            value = ed.artifact_value(state.scoring or "claim-order", int(relic[1:]), state.round, claimed)
            artifacts[lone].append((relic, value))
            taken.append({"artifact": relic, "points": value})
            claimed += 1
        gone = gone + relics
        relics = ()
    home: list[int] = []
    exits = list(state.exits or (0,) * state.players)
    for s in leavers:
        exits[s] = len(state.path)
        home.append(carried[s] + share)
        banked[s] += carried[s] + share
        carried[s] = 0
        inside[s] = False
    event: Event = {
        "type": "camp",
        "seats": leavers,
        "share": share,
        "left_on_path": rest,
        "home": home,
        "artifacts": taken,
        "lone": leavers[0] if len(leavers) == 1 else None,
    }
    new = replace(
        state,
        path=tuple(path),
        inside=tuple(inside),
        carried=tuple(carried),
        banked=tuple(banked),
        artifacts=tuple(tuple(a) for a in artifacts),
        claimed=claimed,
        gone=gone,
        relics=relics,
        exits=tuple(exits),
    )
    return new, event


def _reveal_card(state: State, card: str) -> tuple[State, list[Event]]:
    deck = list(state.deck)
    deck.remove(card)
    state = replace(state, deck=tuple(deck), draws=state.draws + 1)
    inside = [s for s in range(state.players) if state.inside[s]]
    events: list[Event] = []
    kind = card[0]
    if kind == "T":
        value = int(card[1:])
        each, left = divmod(value, len(inside))
        carried = tuple(c + each if state.inside[s] else c for s, c in enumerate(state.carried))
        state = replace(state, carried=carried, path=(*state.path, (card, left)))
        events.append({"type": "card", "card": card, "value": value, "each": each, "left": left,
                       "inside": inside})
    elif kind == "H":
        hazard = card[2:]
        twin_seen = any(c == card for c, _ in state.path)
        state = replace(state, path=(*state.path, (card, 0)))
        events.append({"type": "card", "card": card, "hazard": hazard, "collapse": twin_seen})
        if twin_seen:
            lost = [[s, state.carried[s]] for s in inside]
            carried = tuple(0 if state.inside[s] else c for s, c in enumerate(state.carried))
            # The card that caused the collapse leaves the game; its twin goes back in the deck.
            state = replace(state, carried=carried, inside=(False,) * state.players,
                            removed=(*state.removed, card))
            events.append({"type": "collapse", "hazard": hazard, "card": card, "lost": lost})
            more_state, more = _end_round(state, "collapse")
            return more_state, events + more
    else:
        state = replace(state, path=(*state.path, (card, 0)), relics=(*state.relics, card))
        events.append({"type": "card", "card": card, "artifact": True})
    if not state.deck:
        # Guard (impossible with every preset): the pile is finished, the temple ends and
        # everyone inside leaves together, without the collapse penalty (seed 003) [decision].
        state, camp = _return_to_camp(state, inside)
        state, more = _end_round(state, "deck-out")
        return state, [*events, camp, *more]
    return replace(state, phase="decide", pending=("",) * state.players), events


def _end_round(state: State, reason: str) -> tuple[State, list[Event]]:
    lost_relics = list(state.relics)
    gone = state.gone + state.relics  # drawn but unclaimed artifacts are gone for good
    # Gems still on the path stay in the temple: they leave the game with the round.
    # The path as it lay when the expedition ended: the next round clears it, and the table's
    # record of the expedition keeps it.
    events: list[Event] = [{"type": "round_end", "round": state.round, "reason": reason,
                            "lost_artifacts": lost_relics, "gems_left": sum(g for _, g in state.path),
                            "path": [{"card": c, "gems": g} for c, g in state.path]}]
    story = (*state.story, (tuple(c for c, _ in state.path), tuple(state.exits or (0,) * state.players)))
    base = replace(state, gone=gone, relics=(), path=(), pending=("",) * state.players,
                   carried=(0,) * state.players, exits=(0,) * state.players, story=story)
    if state.round >= ed.ROUNDS:
        final = replace(base, phase="over", inside=(False,) * state.players)
        events.append({"type": "game_over", "scores": scores(final), "winners": winners(final)})
        return final, events
    rnd = state.round + 1
    deck = round_deck(state.preset, rnd, state.removed, gone)
    nxt = replace(base, round=rnd, phase="chance", deck=deck, inside=(True,) * state.players)
    events.append({"type": "round_start", "round": rnd, "cards": len(deck)})
    return nxt, events
