"""Sakkara's words on Discord: names of spaces, workers and motifs, menu labels, log lines, the
text board. Presentation only: every name is drawn from the engine's views and events."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from cogs.table.messages.text import name_of
from engine.core import CHANCE, Event
from engine.session import Table
from i18n import t, tn

__all__ = ["ARROWS", "SEAT_MARKS", "SPELL_GROUPS", "action_label", "boards", "builder_text", "counts_text",
           "event_line", "group_of", "motif", "names", "round_title", "seat_field", "space_name", "step_label",
           "taken", "text_board", "whose_turn", "worker_name"]

SIDE = 7
ARROWS = {"N": "⬆️", "E": "➡️", "S": "⬇️", "W": "⬅️"}
SHORT = {  # two letters per motif for the text board (presentation only)
    "ship": "Sh", "grain": "Gr", "apex": "Ap", "corner_stone": "Co", "stairs": "St", "moon": "Mo",
    "circle": "Ci", "double_line": "Dl", "cross": "Cr", "braid": "Br", "eye": "Ey", "helping_hand": "Hh",
    "snake": "Sn", "horse": "Ho", "bird": "Bi", "ox": "Ox",
}
MOTIF_ORDER = list(SHORT)  # the engine's motif order (tiles.MOTIFS)
SPELL_GROUPS = ("firestorm", "whirlwind", "shipwreck", "drought")
SEAT_MARKS = ("⚫", "⚪")  # the physical game's black and white workers, as the board image draws them


def boards() -> ModuleType | None:
    """Return ``pictures.drawing`` (board images) when installed, else None: the text board is used."""
    try:
        return importlib.import_module("pictures.sakkara.board")
    except ImportError:
        return None


def space_name(space: int) -> str:
    """Return a space's name: column letter A-G (west to east), row 1-7 (north to south)."""
    row, col = divmod(space, SIDE)
    return f"{'ABCDEFG'[col]}{row + 1}"


def worker_name(seat: int, worker: int) -> str:
    """Return a worker's name: its colour mark, then the label the board image prints on it
    (⚫1A, ⚫1B of player 1, ⚪2A, ⚪2B of player 2)."""
    return f"{SEAT_MARKS[seat]}{seat + 1}{'AB'[worker]}"


def seat_field(table: Table, seat: int, label: str) -> str:
    """Return a builder's heading: number, worker colour and (labelled) name."""
    return t("sakkara.seat_field", number=seat + 1, mark=SEAT_MARKS[seat], name=label)


def round_title(view: dict[str, Any]) -> str:
    """Return the public title: the round (one turn of each player; seat 0 starts every round)."""
    if view["phase"] in ("deal", "place"):
        return t("sakkara.title_place")
    return t("sakkara.title", round=view["turns"][1] + 1)


def step_label(view: dict[str, Any], action: dict[str, Any], to: int, stairs: int) -> str:
    """Return a step button's label: the worker, where it goes, what it takes, what it costs."""
    seat = int(view["seat"])
    worker = worker_name(seat, int(action["worker"]))
    cell = view["board"][to]
    if cell["height"]:
        label = t("sakkara.step", worker=worker, space=space_name(to), top=motif(cell["top"]))
    else:
        label = t("sakkara.step_empty", worker=worker, space=space_name(to))
    if stairs:
        frm = view["workers"][seat][int(action["worker"])]
        climb = cell["height"] - view["board"][frm]["height"]
        label = t("sakkara.step_stairs", label=label, climb=climb)
    return label


def motif(name: str) -> str:
    """Return a motif's display name."""
    return t(f"sakkara.m.{name}")


def taken(motifs: list[str]) -> str:
    """Return the tiles a move took, as the object of "takes …" (a language may need the word
    "tile" and its number there: Italian "la tessera Nave", "le tessere Nave, Luna"). With no tile
    there is no object: the caller tells the move with its own ``*_empty`` sentence instead of
    saying it "takes nothing" (issue 43: "ottaa laatan ei mitään")."""
    return tn("sakkara.log.tiles", len(motifs), took=", ".join(motif(m) for m in motifs))


def counts_text(counts: dict[str, int]) -> str:
    """Return a rack-like multiset as text, in the table's motif order."""
    items = [(m, counts[m]) for m in MOTIF_ORDER if counts.get(m)]
    return ", ".join(f"{c}× {motif(m)}" if c > 1 else motif(m) for m, c in items) or t("sakkara.empty")


def group_of(action: dict[str, Any]) -> str:
    """Return the prompt group an action is shown in (presentation only)."""
    kind = action["do"]
    if kind == "bird":
        return f"bird{action['worker']}"
    if kind == "cast":
        return str(action["spell"])
    if kind == "return":
        return f"ret{action['count']}"
    return str(kind)


def _space_label(view: dict[str, Any], space: int) -> str:
    cell = view["board"][space]
    if not cell["height"]:
        return t("sakkara.space_empty", space=space_name(space))
    return t("sakkara.space", space=space_name(space), height=cell["height"], top=motif(cell["top"]))


def action_label(view: dict[str, Any], action: dict[str, Any], stairs: int = 0) -> str:
    """Return a menu label for one legal action, from the seat's view (``stairs``: what a Horse
    ride spends, from the engine)."""
    kind = action["do"]
    if kind in ("place", "return"):
        return _space_label(view, int(action["space"]))
    if kind == "bird":
        return _space_label(view, int(action["space"]))
    if kind == "ox":
        seat = int(view["seat"])
        pos = view["workers"][seat][int(action["worker"])]
        return tn("sakkara.ox_option", int(action["count"]), worker=worker_name(seat, int(action["worker"])),
                  dir=t(f"sakkara.dir.{action['dir']}"), space=space_name(pos))
    if kind == "cast":
        order = " → ".join(motif(m) for m in str(action["order"]).split(","))
        if "worker" in action:
            target = t("sakkara.cast_worker", worker=worker_name(int(view["seat"]), int(action["worker"])))
            if "line" in action:
                target += " " + t(f"sakkara.line.{action['line']}")
            return f"{target} · {order}"
        return order
    if kind in ("display", "build", "steal", "discard"):
        return t(f"sakkara.do.{kind}", motif=motif(str(action["motif"])))
    if kind == "horse":
        worker = worker_name(int(view["seat"]), int(view["stepped"]))
        label = tn("sakkara.do.horse", int(action["steps"]), worker=worker)
        return tn("sakkara.costs_stairs", stairs, label=label) if stairs else label
    return t(f"sakkara.do.{kind}")


def names(table: Table) -> list[str]:
    """Return the seats' display names (printed on the board image)."""
    return [s.display_name for s in table.seats]


def text_board(table: Table, view: dict[str, Any]) -> str:
    """Return the board as a text grid (used when board images are not installed)."""
    marks = {pos: worker_name(seat, w) for seat, ws in enumerate(view["workers"]) for w, pos in enumerate(ws)
             if pos >= 0}
    rows = ["    " + "".join(f"{c:<6}" for c in "ABCDEFG")]
    for r in range(SIDE):
        cells = []
        for c in range(SIDE):
            sp = r * SIDE + c
            cell = view["board"][sp]
            text = f"{cell['height']}{SHORT[cell['top']]}" if cell["height"] else " ·"
            cells.append(f"{text + marks.get(sp, ''):<6}")
        rows.append(f"{r + 1:<4}" + "".join(cells).rstrip())
    return "```\n" + "\n".join(rows) + "\n```"


def whose_turn(table: Table, view: dict[str, Any]) -> str:
    """Return who is to do what now, from the public view."""
    if view["phase"] == "over":
        return t("sakkara.over")
    movers = [s for s in view["to_move"] if s != CHANCE]
    if not movers:
        return t("sakkara.dealing")
    name = name_of(table.seats[movers[0]])
    return t(f"sakkara.phase.{view['phase']}", name=name)


def builder_text(view: dict[str, Any], seat: int, rack: bool = True) -> str:
    """Return a builder's ship, grain, pyramid and (optionally) rack size."""
    ship = t("sakkara.yes") if view["ships"][seat] else t("sakkara.no")
    text = t("sakkara.builder", ship=ship, grain=view["grains"][seat], size=view["pyramid_sizes"][seat],
             levels=view["levels"][seat])
    return text + ("\n" + tn("sakkara.rack_size", view["rack_sizes"][seat]) if rack else "")


def event_line(table: Table, e: Event) -> str:
    """Return the public log line of one public event ("" for none)."""
    kind = e["type"]
    if kind == "deal":
        return t("sakkara.log.deal")
    seat = int(e["seat"]) if "seat" in e else 0
    name = name_of(table.seats[seat]) if "seat" in e else "?"
    other = name_of(table.seats[1 - seat]) if "seat" in e else "?"
    worker = worker_name(seat, int(e["worker"])) if "worker" in e else "?"
    if kind in ("place", "bird"):
        space = e["space"] if kind == "place" else e["to"]
        got = [e["took"]] if e["took"] else []
        return t(f"sakkara.log.{kind}{'' if got else '_empty'}", name=name, worker=worker,
                 space=space_name(space), took=taken(got))
    if kind == "step":
        extra = " " + t("sakkara.log.stairs") if e["stairs"] else ""
        got = [e["took"]] if e["took"] else []
        return t(f"sakkara.log.step{'' if got else '_empty'}", name=name, worker=worker,
                 dir=t(f"sakkara.dir.{e['dir']}"), space=space_name(e["to"]), took=taken(got)) + extra
    if kind == "horse":
        got = [m["took"] for m in e["moves"] if m["took"]]
        extra = " " + t("sakkara.log.stairs") if any(m["stairs"] for m in e["moves"]) else ""
        return tn(f"sakkara.log.horse{'' if got else '_empty'}", len(e["moves"]), name=name, worker=worker,
                  space=space_name(e["moves"][-1]["to"]), took=taken(got)) + extra
    if kind == "ox":
        return tn("sakkara.log.ox", int(e["count"]), name=name, worker=worker, frm=space_name(e["from"]),
                  to=space_name(e["to"]), top=motif(e["top"]))
    if kind == "cast":
        got = [m for _, m in e.get("took", [])]
        line = t(f"sakkara.log.line.{e['line']}") if "line" in e else ""
        empty = "_empty" if "worker" in e and not got else ""  # a Firestorm or Whirlwind that found no tile
        return t(f"sakkara.log.cast_{e['spell']}{empty}", name=name, other=other, worker=worker, line=line,
                 took=taken(got))
    if kind == "return":
        tiles = ", ".join(motif(m) for m in e["tiles"])
        return tn("sakkara.log.return", int(e["count"]), name=name, space=space_name(e["space"]), tiles=tiles)
    if kind in ("display", "build", "discard"):
        return t(f"sakkara.log.{kind}", name=name, motif=motif(e["motif"]), level=e.get("level", 0))
    if kind == "end" and e.get("step_skipped"):
        return t("sakkara.log.end_skipped", name=name)
    if kind in ("snake", "steal", "end"):
        return t(f"sakkara.log.{kind}", name=name, other=other)
    return ""
