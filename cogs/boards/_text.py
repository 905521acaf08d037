"""The words printed on the board images (English), in one catalogue like ``cogs.i18n``.

The keys follow the ``boards.*`` block of the bot's catalogue: when ``cogs.i18n`` holds a key,
its (possibly translated) text wins; otherwise the English text here is used, so the images
never depend on another module's progress.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cogs import i18n

from ._canvas import printable

__all__ = ["TEXT", "player_names", "tr"]

TEXT: dict[str, str] = {
    # boards
    "boards.turn": "turn {n}",
    "boards.to_move": "TO MOVE",
    "boards.player": "Player {n}",
    "boards.bottom": "bottom",
    "boards.top": "top",
    "boards.sakkara.deal": "Dealing the tiles",
    "boards.sakkara.place": "{who} places a worker",
    "boards.sakkara.before": "{who}: use tiles, then step a worker",
    "boards.sakkara.after": "{who}: use tiles or end the turn",
    "boards.sakkara.steal": "{who} steals a tile (Snake)",
    "boards.sakkara.discard": "{who} discards down to 10 tiles",
    "boards.sakkara.return": "{who} places {owner}'s used tiles",
    "boards.sakkara.over.apex": "Game over: {who} placed the apex",
    "boards.sakkara.over.cap": "Game over: turn limit reached",
    "boards.sakkara.over.repetition": "Game over: position repeated",
    "boards.sakkara.rack": "Rack: {n} tiles (hidden)",
    "boards.sakkara.rack_one": "Rack: 1 tile (hidden)",
    "boards.sakkara.building": "This turn: building level {level}",
    "boards.sakkara.stepped": "Worker {worker} stepped {dir}",
    "boards.sakkara.horse_used": "Horse used this turn",
    "boards.sakkara.display": "Displayed:",
    "boards.sakkara.pyramid": "Pyramid: {n} of 14 tiles",
    "boards.sakkara.used_none": "Used-tile stack: empty",
    "boards.sakkara.used": "Used-tile stack of {owner} ({n}), to be placed by {placer}:",
    "boards.sakkara.your_rack": "Your rack, {name}: {n} tile(s)",
    "boards.sakkara.revealed": "{name}'s rack, opened by your Snake: {n} tile(s)",
    "boards.sakkara.rack_empty": "(empty)",
    "boards.sakkara.spells": "Spells (3 tiles each)",
    "boards.sakkara.spell.firestorm": "Firestorm",
    "boards.sakkara.spell.shipwreck": "Shipwreck",
    "boards.sakkara.spell.whirlwind": "Whirlwind",
    "boards.sakkara.spell.drought": "Drought",
    "boards.indus.setup": "{who} places a start piece",
    "boards.indus.place": "{who} places a piece on a start space",
    "boards.indus.roll": "{who} rolls the die",
    "boards.indus.move": "{who} moves a piece (die {die})",
    "boards.indus.keep": "{who}: keep or return the captured piece",
    "boards.indus.over": "Game over: final scores",
    "boards.indus.reserve": "reserve",
    "boards.indus.start": "to place",
    "boards.indus.prisoners": "Prisoners",
    "boards.indus.points": "{n} pts",
    "boards.indus.die": "Die",
    "boards.indus.roll_no": "roll {n} of 3",
    "boards.indus.no_die": "not rolled",
    "boards.indus.may_move": "may move: {ranks}",
    "boards.indus.reroll": "reroll possible",
    "boards.indus.pending": "Captured own piece: keep or return",
    "boards.indus.ruins": "Ruins: value, and who scores it if the game ended now",
    "boards.indus.ruins_final": "Ruins: value, and who scored it",
    "boards.indus.secured": "secured",
    "boards.indus.type.B": "building",
    "boards.indus.type.T": "tomb",
    "boards.indus.type.C": "canal",
    "boards.indus.type.W": "city wall",
    "boards.indus.type.R": "stone road",
    "boards.indus.type.P": "wooden path",
    "boards.indus.ranks": "W worker · A assistant · P professor",
    "boards.indus.colour.blue": "blue",
    "boards.indus.colour.yellow": "yellow",
    "boards.indus.colour.green": "green",
    "boards.indus.colour.red": "red",
}


def tr(key: str, **values: Any) -> str:
    """Return the text of ``key`` filled with ``values`` (the bot's catalogue first, then ours)."""
    if key in i18n.EN:
        return i18n.t(key, **values)
    template = TEXT.get(key, key)
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return template


def player_names(names: Sequence[str] | None, seats: int) -> list[str]:
    """Return one printable name per seat: the given names (glyphs the font lacks replaced), else "Player N"."""
    out = [tr("boards.player", n=i + 1) for i in range(seats)]
    for i, name in enumerate(list(names or [])[:seats]):
        if name and name.strip():
            out[i] = printable(name.strip())
    return out
