"""Board images (pictures/sakkara/board.py, pictures/indus/board.py, drawn with pictures/): they render
for many positions, keep secrets, and match a golden.

Positions come from seeded random playouts (chance from the state's own seed), so every run
draws the same ones. The golden images pin one scripted position per game and compare pixels
with a tolerance (mean absolute difference < 1.0 on 0-255), so a FreeType or zlib update does
not fail the suite while a changed drawing does. Regenerate after an intended change with

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/bot/pictures/test_boards.py -k golden
"""

from __future__ import annotations

import io
import os
import random
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image, ImageChops, ImageStat
from playout_kit import playout, sakkara_moments

import engine.indus as indus_engine
import engine.sakkara as sakkara_engine
from cogs.table.messages.attach import board_file
from engine.sakkara.game import resample_forgetful
from pictures.canvas import printable
from pictures.indus import board as indus_board_mod
from pictures.sakkara import board as sakkara_board_mod
from pictures.sakkara import motifs as sakkara_motifs

SAKKARA = sakkara_engine.GAME
INDUS = indus_engine.GAME
GOLDEN = Path(__file__).parent / "golden"
TOLERANCE = 1.0


def sample(states: list[Any], k: int, seed: int) -> list[Any]:
    """Return ``k`` states spread over a game, always including the last one."""
    rng = random.Random(seed)
    picked = rng.sample(states[:-1], min(k, len(states) - 1))
    return [*picked, states[-1]]


def decode(png: bytes) -> Image.Image:
    """Return the decoded PNG (fails the test if it is not a complete PNG)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def mean_abs_diff(a: Image.Image, b: Image.Image) -> float:
    """Return the mean absolute difference of two images' RGB pixels (0-255)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


# --- rendering many positions ---------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_sakkara_board_and_racks_render_for_random_positions(seed: int) -> None:
    states = list(playout(SAKKARA, 2, seed))
    assert SAKKARA.is_over(states[-1])
    phases = set()
    for state in sample(states, 8, seed):
        phases.add(state.phase)
        image = decode(sakkara_board_mod.board_image(SAKKARA.view(state, None)))
        assert image.size == sakkara_board_mod.SIZE
        for seat in (0, 1):
            rack = decode(sakkara_board_mod.rack_image(SAKKARA.view(state, seat)))
            assert rack.width == sakkara_board_mod.RACK_WIDTH
    assert "over" in phases


@pytest.mark.parametrize("seed", [3, 4])
def test_a_seats_private_pictures_are_the_public_board_and_its_rack(seed: int) -> None:
    """Two pictures, each within Discord's 4:3 box (shown 400 px wide): the board as the channel sees
    it, and the seat's rack."""
    for state in sample(list(playout(SAKKARA, 2, seed)), 4, seed):
        for seat in (0, 1):
            view = SAKKARA.view(state, seat)
            board, rack = sakkara_board_mod.private_pictures(view, ["Ann", "Bob"])
            assert board == sakkara_board_mod.board_image(SAKKARA.view(state, None), ["Ann", "Bob"])
            assert rack == sakkara_board_mod.rack_image(view, ["Ann", "Bob"])
            width, height = decode(rack).size
            assert width == sakkara_board_mod.RACK_WIDTH and height <= width * 3 / 4


def test_sakkara_images_cover_every_phase() -> None:
    """The deal, placement, both turn halves, a Snake steal, discards and the return all draw."""
    seen = sakkara_moments(SAKKARA)
    for state in seen.values():
        assert decode(sakkara_board_mod.board_image(SAKKARA.view(state, None))).size == sakkara_board_mod.SIZE
    steal = seen["steal"]
    thief = SAKKARA.view(steal, steal.turn)
    assert "revealed_rack" in thief
    with_reveal = decode(sakkara_board_mod.rack_image(thief))
    without = decode(sakkara_board_mod.rack_image(SAKKARA.view(steal, 1 - steal.turn)))
    assert with_reveal.height > without.height  # the reveal is drawn, for the thief only


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("layout", ["default", "random"])
def test_indus_board_renders_for_random_positions(players: int, layout: str) -> None:
    seed = 10 * players + len(layout)
    states = list(playout(INDUS, players, seed, {"layout": layout}))
    assert INDUS.is_over(states[-1])
    phases = set()
    for state in sample(states, 8, seed):
        phases.add(state.phase)
        image = decode(indus_board_mod.board_image(INDUS.view(state, None)))
        assert image.size == indus_board_mod.SIZE
    assert "over" in phases


def test_indus_two_player_keep_choice_renders() -> None:
    """The 2-player own-capture decision (a pending piece) has its own panel line."""
    for seed in range(40):
        for state in playout(INDUS, 2, seed):
            if state.phase == "keep":
                view = INDUS.view(state, None)
                assert view["pending"] is not None
                assert decode(indus_board_mod.board_image(view)).size == indus_board_mod.SIZE
                return
    pytest.skip("no own capture in 40 random 2-player games")


# --- secrets ----------------------------------------------------------------------------------


def test_sakkara_board_is_the_same_whatever_the_racks_hold() -> None:
    """Two states that differ only in hidden tiles (racks, covered tiles) draw the same bytes."""
    states = list(playout(SAKKARA, 2, 5))
    rng = random.Random(5)
    changed = 0
    for state in [*sample(states, 5, 5)[:-1], next(s for s in states if s.phase == "steal")]:
        public = sakkara_board_mod.board_image(SAKKARA.view(state, None))
        for seat in (0, 1):
            # forgetful: the racks are redrawn too (resample_hidden keeps the remembered rack)
            other = resample_forgetful(state, seat, rng)
            changed += other.racks != state.racks or other.board != state.board
            assert sakkara_board_mod.board_image(SAKKARA.view(other, None)) == public
            # handed a seat's private view by mistake, the public board still shows nothing private
            assert sakkara_board_mod.board_image(SAKKARA.view(state, seat)) == public
    assert changed > 0  # the resampling did hide something, so the equality above means something


def test_sakkara_rack_image_depends_on_the_rack() -> None:
    """The private image shows the rack: a different rack draws a different image."""
    state = next(s for s in playout(SAKKARA, 2, 4) if s.phase == "before" and sum(s.racks[1]) >= 3)
    mine = sakkara_board_mod.rack_image(SAKKARA.view(state, 0))
    other = resample_forgetful(state, 1, random.Random(1))  # redraws seat 0's rack (seat 1 forgets it)
    while other.racks[0] == state.racks[0]:
        other = resample_forgetful(other, 1, random.Random(len(str(other.racks))))
    assert sakkara_board_mod.rack_image(SAKKARA.view(other, 0)) != mine


# --- golden images ----------------------------------------------------------------------------


def pinned_sakkara() -> Any:
    """A mid-game Sakkara position: seeded deal, 90 seeded random actions (pending tiles shown)."""
    states = list(playout(SAKKARA, 2, 2026))
    return next(s for s in states[90:] if s.phase == "return" and len(s.pending) >= 3)


def pinned_indus() -> Any:
    """A mid-game 4-player Indus position on the default layout, during a move decision."""
    states = list(playout(INDUS, 4, 2026, {"layout": "default"}))
    return next(s for s in states[100:] if s.phase == "move")


GOLDENS = {
    "sakkara_board": lambda: sakkara_board_mod.board_image(SAKKARA.view(pinned_sakkara(), None), names=["Ann", "Bob"]),
    "sakkara_rack": lambda: sakkara_board_mod.rack_image(SAKKARA.view(pinned_sakkara(), 1), names=["Ann", "Bob"]),
    "indus_board": lambda: indus_board_mod.board_image(INDUS.view(pinned_indus(), None),
                                                       names=["Ann", "Bob", "Cy", "Dee"]),
}


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden_image(name: str) -> None:
    png = GOLDENS[name]()
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
    assert path.exists(), f"missing golden {path}: run with UPDATE_GOLDEN=1"
    got, want = decode(png), decode(path.read_bytes())
    assert got.size == want.size
    assert mean_abs_diff(got, want) < TOLERANCE


def test_golden_check_detects_one_more_move() -> None:
    """The tolerance is tight enough: the pinned position one action later fails the comparison."""
    state = pinned_indus()
    seat = INDUS.to_move(state)[0]
    nxt, _ = INDUS.apply(state, seat, INDUS.legal_actions(state, seat)[0])
    moved = decode(indus_board_mod.board_image(INDUS.view(nxt, None), names=["Ann", "Bob", "Cy", "Dee"]))
    assert mean_abs_diff(moved, decode((GOLDEN / "indus_board.png").read_bytes())) > TOLERANCE
    state = pinned_sakkara()
    seat = SAKKARA.to_move(state)[0]
    nxt, _ = SAKKARA.apply(state, seat, SAKKARA.legal_actions(state, seat)[0])
    moved = decode(sakkara_board_mod.board_image(SAKKARA.view(nxt, None), names=["Ann", "Bob"]))
    assert mean_abs_diff(moved, decode((GOLDEN / "sakkara_board.png").read_bytes())) > TOLERANCE


# --- helpers ----------------------------------------------------------------------------------


def test_board_file_wraps_the_png() -> None:
    png = indus_board_mod.board_image(INDUS.view(INDUS.setup(3, 1), None))
    file = board_file(png)
    assert isinstance(file, discord.File)
    assert file.filename == "board.png"
    assert file.fp.read() == png
    assert board_file(png, "rack.png").filename == "rack.png"


def test_warm_fills_the_caches_without_error() -> None:
    sakkara_board_mod.warm()
    indus_board_mod.warm()
    assert sakkara_motifs._tile.cache_info().currsize >= 16


def test_labels_match_the_coordinates_printed_on_the_images() -> None:
    assert [sakkara_board_mod.space_label(i) for i in (0, 6, 7, 48)] == ["A1", "G1", "A2", "G7"]
    assert [sakkara_board_mod.worker_label(s, i) for s in (0, 1) for i in (0, 1)] == ["1A", "1B", "2A", "2B"]
    assert indus_board_mod.square_label(0, 0) == "A1"
    assert indus_board_mod.square_label(5, 2) == "C6"


def test_names_the_font_cannot_draw_are_made_printable() -> None:
    assert printable("Zoë Ørsted") == "Zoë Ørsted"  # the font has Latin-1: Finnish, Swedish, Italian
    assert printable("Łukasz Ŝ") == "?ukasz S"  # beyond it: the bare letter, else ?
    assert printable("李") == "?"
    view = SAKKARA.view(next(playout(SAKKARA, 2, 1)), None)
    named = decode(sakkara_board_mod.board_image(view, names=["Zoë", "李 Wei"]))
    assert named.size == sakkara_board_mod.SIZE
    assert sakkara_board_mod.board_image(view, names=["Ann", "Bob"]) != sakkara_board_mod.board_image(view)


# --- the end of a game as a picture (issue 13, item 8) ---------------------------------------------

WIN = (0x2F, 0x8A, 0x3E)  # the winners' frame on both final pictures


def _green(png: bytes, x: float, y: float) -> bool:
    """Return True when the pixel is the winners' green (the PNG's palette shifts it a little)."""
    pixel = Image.open(io.BytesIO(png)).convert("RGB").getpixel((round(x), round(y)))
    return sum(abs(a - b) for a, b in zip(pixel, WIN, strict=True)) < 48


def test_the_indus_final_picture_frames_the_winners():
    from engine.core import play
    from engine.indus import ai as indus_ai
    from pictures.indus.final import final_image

    game = play(INDUS, [indus_ai.easy] * 3, 7)
    view, result = INDUS.view(game.state, None), INDUS.result(game.state)
    names = ["Ann", "[x](https://e.com)", "Cy"]
    png = final_image(view, names, result)
    assert Image.open(io.BytesIO(png)).size == indus_board_mod.SIZE
    [winner] = result["winners"]
    for seat in range(3):  # the frame lies on the chip's left edge
        x, y, _, h = indus_board_mod.player_chip(seat, 3)
        assert _green(png, x, y + h / 2) == (seat == winner)


def test_the_sakkara_final_picture_marks_the_winners_panel():
    from engine.core import play
    from engine.sakkara import ai as sakkara_ai
    from pictures.sakkara.final import final_image

    game = play(SAKKARA, [sakkara_ai.easy] * 2, 7)
    view, result = SAKKARA.view(game.state, None), SAKKARA.result(game.state)
    png = final_image(view, ["Ann", "Bo"], result)
    assert Image.open(io.BytesIO(png)).size == sakkara_board_mod.SIZE
    [winner] = result["winners"]
    for seat in (0, 1):
        x, y, _, h = sakkara_board_mod.panel_box(seat)
        assert _green(png, x + 1, y + h / 2) == (seat == winner)
    shared = final_image(view, ["Ann", "Bo"], {**result, "winners": [0, 1]})
    assert all(_green(shared, sakkara_board_mod.panel_box(s)[0] + 1, sakkara_board_mod.panel_box(s)[1] + 100)
               for s in (0, 1))
