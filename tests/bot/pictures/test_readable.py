"""Every picture the bot sends is readable where Discord shows it (issue 43).

Discord shows a picture in a chat scaled down into a 400 x 300 px box (``pictures.canvas.shown_scale``):
a 606 x 1054 px picture is shown 172 px wide. The drawing records the size of every text it draws and
what the text is for (``role`` of ``Canvas.text``); here each size is multiplied by the picture's own
display scale: text a player reads for a decision (tile kinds, names, whose turn, scores) must be at
least 11 px on screen, numbers players count (stack heights, rack counts, points) at least 14 px.
The players' names are checked by their text as well, whatever role they were given.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any

import pytest
from PIL import Image
from playout_kit import playout, sakkara_moments

import engine.indus as indus_engine
import engine.sakkara as sakkara_engine
import pictures.indus.board as indus_board
import pictures.sakkara.board as sakkara_board
import pictures.sakkara.motifs as sakkara_motifs
import pictures.sakkara.rack as sakkara_rack
from engine.core import play
from engine.incan_gold.history import ExpeditionEnd
from engine.indus import ai as indus_ai
from engine.sakkara import ai as sakkara_ai
from pictures.canvas import COUNTED, MIN_SHOWN, NEEDED, Canvas, shown_scale, sizes_drawn, smallest_shown
from pictures.incan_gold.chart import chart_png
from pictures.indus.final import final_image as indus_final
from pictures.sakkara.final import final_image as sakkara_final

SAKKARA = sakkara_engine.GAME
INDUS = indus_engine.GAME
TWO = ["Annabelle", "Bartholomew"]
FOUR = ["Melissa", "Bartholomew", "Cy", "Dee"]


def fresh(*modules: ModuleType) -> None:
    """Empty the drawing caches, so text drawn into cached sprites is drawn (and recorded) again."""
    for module in modules:
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()
    sakkara_board._BOARDS.clear()


def measured(draw: Callable[[], bytes]) -> tuple[dict[str, float], dict[str, float]]:
    """Return, per role and per text, the smallest size ``draw``'s picture shows a text at on screen."""
    fresh(sakkara_board, sakkara_rack, sakkara_motifs, indus_board)
    with sizes_drawn() as seen:
        png = draw()
    width, height = Image.open(io.BytesIO(png)).size
    scale = shown_scale(width, height)
    texts: dict[str, float] = {}
    for _, size, text in seen:
        texts[text] = min(texts.get(text, size * scale), size * scale)
    return smallest_shown(seen, width, height), texts


def assert_readable(draw: Callable[[], bytes], names: Sequence[str], roles: set[str], what: str) -> None:
    by_role, by_text = measured(draw)
    assert set(by_role) == roles, what  # what must be measured was drawn with its role
    for role, least in by_role.items():
        assert least >= MIN_SHOWN[role], (what, role, round(least, 1))
    for name in names:  # each player's name whole, and readable
        assert by_text.get(name, 0) >= MIN_SHOWN[NEEDED], (what, name, by_text.get(name))


def test_the_display_scale_is_discords_box() -> None:
    assert shown_scale(606, 1054) == pytest.approx(300 / 1054)  # a tall column is shown 172 px wide
    assert shown_scale(800, 600) == 0.5 and shown_scale(1200, 300) == pytest.approx(1 / 3)
    assert shown_scale(200, 100) == 1.0  # never enlarged


def test_the_measure_sees_a_small_text() -> None:
    """The recorder is not blind: a needed text drawn small on a tall canvas is seen as small."""

    def tiny() -> bytes:
        c = Canvas(400, 600)
        c.text(10, 10, "3", 20, role=COUNTED)
        c.text(10, 50, "Ship", 22, role=NEEDED)
        c.text(10, 80, "decoration", 8)
        return c.png()

    assert measured(tiny)[0] == {COUNTED: 10.0, NEEDED: 11.0}


def sakkara_positions() -> Iterator[tuple[str, Any]]:
    """Positions of seeded games: every phase a board is drawn in (a Snake's steal shows the thief the
    other rack), a destroyed stack, and a finished game."""
    seen = sakkara_moments(SAKKARA)
    assert "revealed_rack" in SAKKARA.view(seen["steal"], seen["steal"].turn)
    yield from sorted(seen.items())


@pytest.mark.parametrize(("phase", "state"), list(sakkara_positions()))
def test_sakkara_board_and_racks_are_readable(phase: str, state: Any) -> None:
    assert_readable(lambda: sakkara_board.board_image(SAKKARA.view(state, None), TWO), TWO, {NEEDED, COUNTED},
                    f"board {phase}")
    for seat in (0, 1):
        view = SAKKARA.view(state, seat)
        counted = {COUNTED} if any(view["rack"].values()) else set()  # an empty rack counts nothing
        assert_readable(lambda view=view: sakkara_board.rack_image(view, TWO), [], {NEEDED} | counted,
                        f"rack {phase} {seat}")


def test_sakkara_final_picture_is_readable() -> None:
    game = play(SAKKARA, [sakkara_ai.easy] * 2, 7)
    view, result = SAKKARA.view(game.state, None), SAKKARA.result(game.state)
    assert_readable(lambda: sakkara_final(view, TWO, result), TWO, {NEEDED, COUNTED}, "final")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_indus_board_and_final_picture_are_readable(players: int) -> None:
    names = FOUR[:players]
    states = list(playout(INDUS, players, 2026 + players, {"layout": "default" if players != 3 else "random"}))
    for state in [states[0], *states[len(states) // 3::len(states) // 3]]:
        assert_readable(lambda state=state: indus_board.board_image(INDUS.view(state, None), names), names,
                        {NEEDED, COUNTED},
                        f"board {players}p {state.phase}")
    game = play(INDUS, [indus_ai.easy] * players, 7)
    view, result = INDUS.view(game.state, None), INDUS.result(game.state)
    assert_readable(lambda: indus_final(view, names, result), names, {NEEDED, COUNTED}, f"final {players}p")


@pytest.mark.parametrize("players", [2, 5, 8])
def test_incan_gold_chart_is_readable(players: int) -> None:
    names = [*FOUR, "Annabelle", "Zoë", "Ed", "Fay"][:players]
    ends = [ExpeditionEnd(r, "all-left", tuple(r * (s + 3) for s in range(players)),
                          tuple(r * (s + 3) + (5 if r >= 2 and s == 1 else 0) for s in range(players)),
                          tuple((("A2", 5),) if r == 2 and s == 1 else () for s in range(players)))
            for r in range(1, 6)]
    assert_readable(lambda: chart_png(ends, names), names, {NEEDED, COUNTED}, f"chart {players}p")
