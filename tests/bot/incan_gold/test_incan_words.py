"""Incan Gold's words on Discord: counted nouns, one picture per hazard, what "removed" means.

Rendered from pinned cards through the real renderer (no Discord needed to read its text)."""

from __future__ import annotations

from typing import Any

from cogs.incan_gold.render import IncanRenderer
from cogs.incan_gold.summary import tie_lines
from cogs.incan_gold.words import HAZARD_ICONS
from engine.core import CHANCE
from engine.incan_gold import GAME
from engine.incan_gold import editions as ed
from engine.session import SeatSpec, Table
from engine.session.games import SPECS


class Logged(IncanRenderer):
    """The renderer with the game's log kept in ``lines[table id]`` (as the story gets it)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[int, list[str]] = {}

    def _log(self, table: Table, events: list[Any], timed_out: list[int]) -> None:
        self.lines.setdefault(table.id, []).extend(self.event_lines(table, events))


def play(steps: list[Any], options: dict[str, Any] | None = None) -> tuple[Table, Logged]:
    """Three seats; a str is the next card, a dict {seat: "camp"} a decision (the others torch).
    Every event goes through the renderer's log, as the session's updates would."""
    table = Table(1, SPECS["incan_gold"], 10, 20, 1, dict(options or {}), {}, "playing",
                  [SeatSpec("Ann", 1), SeatSpec("Bo", 2), SeatSpec("Cy", 3)], seed=0)
    table.state = GAME.setup(3, 0, options)
    renderer = Logged()
    for step in steps:
        if isinstance(step, str):
            assert GAME.to_move(table.state) == [CHANCE]
            table.state, events = GAME.apply(table.state, CHANCE, step)
            renderer._log(table, events, [])
            continue
        for seat in GAME.to_move(table.state):
            table.state, events = GAME.apply(table.state, seat, step.get(seat, "torch"))
            renderer._log(table, events, [])
    return table, renderer


def test_one_gem_is_singular_everywhere():
    table, renderer = play(["T1", {0: "camp"}, "T4", {1: "camp"}])
    log = "\n".join(renderer.lines[1])
    assert "💎 1 gem: 0 each, 1 stays on the path." in log
    assert "Ann returned to camp and took 1 gem from the path." in log
    assert "1 gems" not in log
    mine, _ = renderer.prompt(None, table, 2)  # type: ignore[arg-type]
    assert "You carry **2** gems; **0** gems are safe in your tent." in str(mine.description)
    camper, _ = renderer.prompt(None, table, 0)  # type: ignore[arg-type]
    assert "**1** gem is safe in your tent" in str(camper.description)


def test_one_gem_left_is_singular_too():
    _, renderer = play(["T7", {0: "camp", 1: "camp"}])  # 2 each, 1 on the path: two campers, 0 each, 1 stays
    log = "\n".join(renderer.lines[1])
    assert "1 stays on the path" in log and "1 stay on the path" not in log


def test_every_hazard_has_its_own_picture_and_a_collapse_reads_well():
    names = {h for edition in ed.PRESETS.values() for h in edition.hazards}
    assert names <= set(HAZARD_ICONS)
    assert len({HAZARD_ICONS[h] for h in names}) == len(names) and "⚠️" not in HAZARD_ICONS.values()
    _, renderer = play(["H-spiders"])
    assert renderer.lines[1] == ["🕷️ Spiders: a warning. Another one collapses the temple."]
    _, renderer = play(["H-spiders", {}, "H-spiders"])
    log = "\n".join(renderer.lines[1])
    assert "💥 🕷️ Spiders again! The temple collapses; Ann, Bo and Cy lose what they carried." in log
    assert "second spiders" not in log.lower() and "⚠️" not in log


def test_forsvunna_never_lists_an_earlier_temples_hazard_as_removed():
    table, renderer = play(["H-fire", {}, "H-fire", "T1", {}], {"preset": "forsvunna-diamanten"})
    assert table.state.round == 2
    fields = {f.name: f.value for f in renderer.round_embed(table).fields}
    assert "Removed from the game" not in fields
    assert fields["Hazards seen"] == "none"
    table, renderer = play(["H-fire", {}, "H-fire", "T1", {}])
    fields = {f.name: f.value for f in renderer.round_embed(table).fields}
    assert fields["Removed from the game"] == "🔥 Fire"


def test_a_lone_explorer_reads_as_one():
    """Issue 43: a lone explorer read "Everyone carries the torch deeper", "💎 4 gems: 4 each" and
    "... lose what they carried"."""
    _, renderer = play(["T1", {0: "camp", 1: "camp"}, "T4", {}, "H-spiders", {}, "H-spiders"])
    log = "\n".join(renderer.lines[1])
    assert "💎 4 gems, all for the lone explorer." in log and "4 each" not in log
    assert "Cy carries the torch deeper, alone." in log and "Everyone" not in log
    assert "The temple collapses; Cy loses what they carried." in log


def test_a_tie_says_how_it_was_broken():
    tied = tie_lines({"scores": [12, 9, 9]})
    assert tied == ["Tied on points: more artifacts wins; players still level share their place."]
    assert tie_lines({"scores": [12, 9, 7]}) == []
