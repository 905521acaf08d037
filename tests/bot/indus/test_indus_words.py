"""Indus's words and picture: one naming of squares and start spaces everywhere, readable labels at
the size Discord shows the picture, a turn counter that says what it counts, the tie-breaks."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs.indus import words
from cogs.indus.cog import RULE_SECTIONS
from cogs.indus.controls import controls
from cogs.indus.render import IndusRenderer
from engine.core import CHANCE, resolve_chance
from engine.indus import GAME
from engine.indus.rules import SPACES, landing
from engine.session import SeatSpec, Table
from engine.session.games import SPECS
from i18n import t
from pictures import canvas
from pictures.indus import board as indus_board


def test_start_spaces_are_named_by_the_boards_own_columns_and_rows():
    """The menu used to count from 0 ("W1 (left edge, row 1)" lay beside the board's row 2)."""
    for space in SPACES:
        name = words.space_label(space)
        square = words.square_name(*divmod(landing(SPACES.index(space), 1), 6))
        # the piece enters the column (top/bottom edge) or row (left/right edge) its name says
        assert name[2:] == (square[0] if space[0] in "NS" else square[1:]), (space, name, square)
        assert words.space_name(space).startswith(name + ":")
        assert "0" not in name and "row 0" not in words.space_name(space)
    assert [words.space_label(s) for s in ("N0", "E5", "S2", "W0")] == ["N-A", "E-6", "S-C", "W-1"]
    assert words.space_name("W0") == "W-1: left edge, enters row 1"


def table_at(state: Any, players: int = 2) -> Table:
    seats = [SeatSpec(n, i + 1) for i, n in enumerate(("Ann", "Bo", "Cy", "Di")[:players])]
    table = Table(1, SPECS["indus"], 10, 20, 1, {}, {}, "playing", seats, seed=0)
    table.state = state
    return table


def test_the_menu_the_log_and_the_picture_use_the_same_names(monkeypatch):
    state = GAME.setup(2, 1)
    table = table_at(state)
    view = controls(table)
    assert view is not None
    options = [o.label for item in view.children for o in getattr(getattr(item, "item", None), "options", [])]
    assert options and options[0].startswith("N-A:") and all(o[:3] in {words.space_label(s) for s in SPACES}
                                                             for o in options)
    action = GAME.legal_actions(state, 0)[0]
    _, events = GAME.apply(state, 0, action)
    line = IndusRenderer._event_line(table, events[0])
    assert line is not None and words.space_label(action["space"]) in line and action["space"] not in line
    printed = _texts_drawn(monkeypatch, GAME.view(state, None))
    assert {words.space_label(s) for s in SPACES} <= printed
    assert not {s for s in SPACES} & printed  # no engine name (counted from 0) on the picture
    assert {"A", "F", "1", "6"} <= printed


def _texts_drawn(monkeypatch: pytest.MonkeyPatch, view: dict[str, Any]) -> set[str]:
    return {text for text, _ in _draw_and_record(monkeypatch, view)}


def _draw_and_record(monkeypatch: pytest.MonkeyPatch, view: dict[str, Any]) -> list[tuple[str, int]]:
    """Draw a board with every cache empty and return each (text, size) written on it."""
    drawn: list[tuple[str, int]] = []
    original = canvas.Canvas.text

    def record(self: canvas.Canvas, x: float, y: float, text: str, size: int, *args: Any, **kw: Any) -> None:
        drawn.append((text, size))
        original(self, x, y, text, size, *args, **kw)

    for cached in (indus_board._base, indus_board._token_sprite):
        cached.cache_clear()
    monkeypatch.setattr(canvas.Canvas, "text", record)
    indus_board.board_image(view, ["Ann", "Bo", "Cy", "Di"][: view["players"]])
    monkeypatch.undo()
    for cached in (indus_board._base, indus_board._token_sprite):
        cached.cache_clear()
    return drawn


def test_the_turn_counter_says_it_counts_player_turns():
    state = GAME.setup(3, 0)
    while GAME.view(state, None)["phase"] == "setup" or GAME.view(state, None)["turn"] < 4:
        seat = GAME.to_move(state)[0]
        action = resolve_chance(GAME, state) if seat == CHANCE else GAME.legal_actions(state, seat)[0]
        state, _ = GAME.apply(state, seat, action)
    embed = IndusRenderer().board_embed(table_at(state, 3), png=True)
    assert embed.title == "Indus — player turn 4"
    rules = " ".join(t(f"indus.rules{n}") for n in range(1, RULE_SECTIONS + 1))
    assert "counts player turns" in rules


def test_the_rules_give_the_tie_breaks():
    """rules/indus.md §7.3: building ties, the need for a counted piece, the winner's tie-break."""
    rules = " ".join(t(f"indus.rules{n}") for n in range(1, RULE_SECTIONS + 1))
    for phrase in ("tie for first adds the first and second values", "no second place", "tie for second",
                   "at least one counted piece", "higher prisoner total", "shared win", "N-A", "W-6"):
        assert phrase in rules, phrase


def test_one_notation_per_thing_in_the_texts():
    """Issue 43: W named the worker, the city wall and the West start spaces; P the professor and
    the wooden path ("`B1 T W`", reserves "`W5 A3 P1`"). In the texts a rank is ①②③, a ruin type
    an icon; W-1 … names only a start space, as on the picture."""
    state = GAME.setup(3, 0)
    for _ in range(12):  # a few pieces placed: pieces on the frame and in the dig
        seat = GAME.to_move(state)[0]
        action = resolve_chance(GAME, state) if seat == CHANCE else GAME.legal_actions(state, seat)[0]
        state, _ = GAME.apply(state, seat, action)
    embed = IndusRenderer().board_embed(table_at(state, 3), png=False)
    text = "\n".join([str(embed.description)] + [f"{f.name}\n{f.value}" for f in embed.fields])
    players = embed.fields[0].value or ""
    assert re.search(r"[WAP]\d", players) is None and "①" in players  # reserves: "①6 ②3 ③3", not "W6 A3 P3"
    assert re.search(r"(?<![A-Za-z-])[BTCWRP]{2,}(?![A-Za-z])", text) is None  # no ruin letters in the grid
    ruins = embed.fields[1].value or ""
    assert "🧱**W1**" in ruins and "🪵**P1**" in ruins  # a ruin's id as the picture prints it, with its icon
    assert "①" in text and "🧱" in text and "🪵" in text


@pytest.mark.parametrize("language", ["en", "fi", "sv", "it"])
def test_the_pictures_legend_gives_each_mark_one_meaning(language: str) -> None:
    """Issue 43: W was a worker and a city wall, P a professor and a wooden path. The picture's
    pieces now show their rank's number (the text board's ①②③), so each mark means one thing."""
    legend = t("indus.legend", language)
    items = [item.strip() for part in re.split(r"\.\s+", legend) for item in re.split(r"[:·]", part)[1:]]
    marks = [item.split()[0] for item in items if item and len(item.split()[0]) == 1]
    assert sorted(marks) == sorted(set(marks)), legend
    assert {"1", "2", "3"} <= set(marks)
    assert indus_board.RANK_NUMBER == {"W": "1", "A": "2", "P": "3"}
