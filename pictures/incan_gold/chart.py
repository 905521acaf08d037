"""Incan Gold's end of game as a picture: each player's total after every expedition, as a chart.

One line per seat (its colour also in the legend, with the final total), a point at the end of
each expedition, and an artifact marker (a small square with its name) where a seat took one.
Drawn at 640 x 360 px: wider than 4:3, so Discord shows it 400 px wide (``canvas.shown_scale``), and
the legend's names (18 px) and final totals (23 px) are 11 and 14 px there; the scale, the
expeditions' numbers and the artifacts' names are labels, read on the enlarged picture. Words come
from the catalogue in the reader's language (``boards.*``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.incan_gold.history import ExpeditionEnd
from pictures.canvas import COUNTED, NEEDED, Canvas
from pictures.lettering import player_names, tr

__all__ = ["SEAT_COLOURS", "chart_png"]

WIDTH, HEIGHT = 640, 360
BG, INK, GRID = "#f4efe2", "#1e2430", "#dccb9c"
SEAT_COLOURS = ("#2a6fd6", "#d2372c", "#2f9a47", "#f2c318", "#7d62a6", "#b8693e", "#3f86bd", "#6d6d6d")
"""A colour per seat (up to 8), taken from the board pictures' palette."""

LEFT, RIGHT, TOP, BOTTOM = 46, 214, 40, 44
"""Margins: the scale on the left, the legend on the right, the title on top, expeditions below."""
NAME, TOTAL = 18, 23
"""The legend's names and final totals: 11 and 14 px where Discord shows the chart."""


def _nice_top(value: int) -> int:
    """Return a round upper bound of the scale at or above ``value`` (at least 10)."""
    for step in (10, 20, 25, 50, 100):
        top = -(-max(value, 1) // step) * step
        if top / step <= 6:
            return max(top, 10)
    return -(-value // 100) * 100


def chart_png(ends: Sequence[ExpeditionEnd], names: Sequence[str]) -> bytes:
    """Return the chart of each seat's total (gems and artifact points) after every expedition."""
    seats = len(names)
    shown = player_names(names, seats)
    c = Canvas(WIDTH, HEIGHT, background=BG)
    c.text(WIDTH / 2, 12, tr("boards.incan_chart_title"), 20, fill=INK, anchor="mt", bold=True)
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    top = _nice_top(max((max(e.points) for e in ends), default=0))
    step = top // 5 if top % 5 == 0 else top // 4

    def y_of(value: float) -> float:
        return y1 - (y1 - y0) * value / top

    def x_of(expedition: int) -> float:  # 0: the start, 5: after the fifth expedition
        return x0 + (x1 - x0) * expedition / 5

    for value in range(0, top + 1, max(step, 1)):
        c.line([(x0, y_of(value)), (x1, y_of(value))], GRID, 1)
        c.text(x0 - 6, y_of(value), str(value), 15, fill=INK, anchor="rm")
    for expedition in range(1, 6):
        c.text(x_of(expedition), y1 + 8, str(expedition), 16, fill=INK, anchor="mt")
    c.text((x0 + x1) / 2, HEIGHT - 6, tr("boards.incan_chart_axis"), 15, fill=INK, anchor="ms")
    for seat in range(seats):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        points = [(x_of(0), y_of(0))] + [(x_of(i + 1), y_of(e.points[seat])) for i, e in enumerate(ends)]
        c.line(points, colour, 3)
        for x, y in points[1:]:
            c.circle(x, y, 4, fill=colour)
        for i, e in enumerate(ends):
            for n, (artifact, _) in enumerate(e.artifacts[seat]):
                x, y = x_of(i + 1), y_of(e.points[seat]) - 12 - 16 * n
                c.rect(x - 11, y - 8, x + 11, y + 8, fill="#fffaf0", outline=colour, width=2, radius=3)
                c.text(x, y, artifact, 12, fill=INK, anchor="mm", bold=True)
    # The legend, best total first.
    final = ends[-1].points if ends else (0,) * seats
    order = sorted(range(seats), key=lambda s: (-final[s], s))
    row = min(30, (HEIGHT - TOP - 10) / max(seats, 1))
    for n, seat in enumerate(order):
        y = TOP + 8 + n * row
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        c.rect(WIDTH - RIGHT + 14, y - 7, WIDTH - RIGHT + 28, y + 7, fill=colour, radius=2)
        c.text(WIDTH - RIGHT + 36, y, c.fit(shown[seat], NAME, RIGHT - 92), NAME, fill=INK, anchor="lm", role=NEEDED)
        c.text(WIDTH - 10, y, str(final[seat]), TOTAL, fill=INK, anchor="rm", bold=True, role=COUNTED)
    return c.png()
