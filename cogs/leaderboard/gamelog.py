"""A finished game as text for ``/game log``: setup, every action (hidden choices included, the game
being over), the result. Incan Gold is narrated by replaying it; other games list their actions."""

from __future__ import annotations

import json
from collections.abc import Sequence

from db import GameLog, ResultRow
from engine.core import CHANCE, IllegalAction
from engine.incan_gold import GAME as INCAN
from i18n import moment, t, tn
from i18n.names import visible

__all__ = ["render_log"]

STATUSES = ("finished", "cancelled", "abandoned")
"""The statuses of a game whose log can be read (the catalogue names them: lb.hist.<status>)."""


def _seat_name(log: GameLog, seat: int) -> str:
    found = next((s for s in log.seats if s.seat == seat), None)
    if found is None:
        return f"seat {seat}"
    name = visible(found.display_name) or f"seat {seat}"
    return f"{name} (bot, {found.ai_level})" if found.is_ai else name


def _incan_lines(log: GameLog) -> list[str]:
    """Narrate an Incan Gold game by replaying it: cards, everyone's choices, camps, collapses."""
    name = {s.seat: _seat_name(log, s.seat) for s in log.seats}
    assert log.game.seed is not None
    state = INCAN.setup(len(log.seats), log.game.seed, log.game.options)
    lines = [t("lb.log.round", round=1)]
    for action in log.actions:
        state, events = INCAN.apply(state, action.seat, action.payload)
        for e in events:
            kind = e["type"]
            if kind == "card" and "value" in e:
                lines.append(tn("lb.log.treasure", e["value"], each=e["each"], left=e["left"]))
            elif kind == "card" and "hazard" in e:
                lines.append(t("lb.log.hazard", hazard=e["hazard"]))
            elif kind == "card":
                lines.append(t("lb.log.artifact", card=e["card"]))
            elif kind == "collapse":
                lines.append(t("lb.log.collapse", hazard=e["hazard"],
                               lost=", ".join(f"{name[s]} {g}" for s, g in e["lost"]) or "-"))
            elif kind == "reveal":
                picks = [f"{name[s]}: {c}" for s, c in enumerate(e["choices"]) if c]
                lines.append(t("lb.log.choices", choices=", ".join(picks)))
            elif kind == "camp":
                homes = ", ".join(f"{name[s]} +{h}" for s, h in zip(e["seats"], e["home"], strict=True))
                arts = "".join(f" {a['artifact']}={a['points']}" for a in e["artifacts"])
                lines.append(t("lb.log.camp", homes=homes, left=e["left_on_path"], artifacts=arts))
            elif kind == "round_end":
                lines.append(t("lb.log.round_end", round=e["round"], reason=e["reason"]))
            elif kind == "round_start":
                lines.append("\n" + t("lb.log.round", round=e["round"]))
    return lines


def _generic_lines(log: GameLog) -> list[str]:
    """List every action of the log by seat name, as stored (no replay: also for an unreadable game)."""
    return [f"{a.seq:>5}  {t('lb.log.chance') if a.seat == CHANCE else _seat_name(log, a.seat)}: "
            f"{json.dumps(a.payload, sort_keys=True)}" for a in log.actions]


def render_log(log: GameLog, results: Sequence[ResultRow]) -> str:
    """Return the whole game as text: setup, every action (hidden choices included), the result."""
    g = log.game
    head = [t("lb.log.title", id=g.id, game=t(f"lb.game.{g.game}"), preset=g.preset or "-"),
            t("lb.log.status", status=t(f"lb.hist.{g.status}") if g.status in STATUSES else g.status, seed=g.seed,
              started=moment(g.started_at) if g.started_at else "-",
              finished=moment(g.finished_at) if g.finished_at else "-",
              minutes=round(g.duration.total_seconds() / 60) if g.duration else "-"),
            t("lb.log.players", players=", ".join(f"{s.seat}: {_seat_name(log, s.seat)}" for s in log.seats)), ""]
    try:
        body = _incan_lines(log) if g.game == "incan_gold" else _generic_lines(log)
    except (IllegalAction, ValueError, KeyError, TypeError):  # a log that no longer replays: list it raw
        body = _generic_lines(log)
    tail = ["", t("lb.log.result")] + [
        t("lb.log.result_line", place=r.placement, name=_seat_name(log, r.seat), score=r.score,
          win=" 🏆" if r.is_winner else "") for r in sorted(results, key=lambda r: (r.placement, r.seat))]
    return "\n".join(head + body + (tail if results else [])) + "\n"
