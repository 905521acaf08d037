"""Sakkara's words and pictures: what a step costs, one name per tile, rounds, workers told apart.

Drawn through the real prompt, labels and board modules from hand-built positions (no Discord is
needed to read a label)."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

from PIL import Image

from cogs.sakkara import words
from cogs.sakkara.controls import Controls, private_embed
from engine.sakkara import GAME
from engine.sakkara.state import State
from engine.sakkara.tiles import MOTIF_INDEX, MOTIFS, SPACES
from engine.session import SeatSpec, Table
from engine.session.games import SPECS
from pictures.sakkara import board as sakkara_board
from pictures.sakkara.motifs import motif_word

C = 3 * 7 + 3  # D4, the centre


def position(board: dict[int, list[str]], rack: dict[str, int] | None = None, **fields: Any) -> State:
    """Seat 0 on turn with worker 1A on D4; other spaces hold one moon (tile counts do not matter
    to the labels, only to the engine's invariants, which these positions are not played on)."""
    stacks = [tuple(board.get(sp, ["moon"])) for sp in range(SPACES)]
    counts = [0] * len(MOTIFS)
    for m, n in (rack or {}).items():
        counts[MOTIF_INDEX[m]] = n
    fields.setdefault("phase", "before")
    return replace(GAME.setup(2, 0), board=tuple(stacks), workers=(C, 0, 6, 48), draws=1,
                   racks=(tuple(counts), (0,) * len(MOTIFS)), **fields)


def table_at(state: State) -> Table:
    table = Table(1, SPECS["sakkara"], 10, 20, 1, {}, {}, "playing", [SeatSpec("Ann", 1), SeatSpec("Bo", 2)],
                  seed=0)
    table.state = state
    return table


def step_labels(state: State) -> dict[str, str]:
    """The step buttons of seat 0's prompt, by direction."""
    table = table_at(state)
    legal = GAME.legal_actions(state, 0)
    items = Controls(table, GAME.view(state, 0), legal).build("").children
    out = {}
    for item in items:
        button = getattr(item, "item", item)
        cid = str(getattr(button, "custom_id", ""))
        if '"do":"step"' in cid and '"worker":0' in cid:
            out[cid.split('"dir":"', 1)[1][0]] = str(button.label)
    return out


def test_a_step_label_says_what_it_takes_and_when_it_spends_a_stairs():
    board = {C: ["moon"], C - 7: ["cross", "braid", "eye", "apex"],  # north: climb 3, needs a Stairs
             C + 1: ["cross", "braid", "eye"], C + 7: [], C - 1: ["grain"]}  # east: climb 2; south: empty
    labels_ = step_labels(position(board, {"stairs": 1}))
    assert labels_["N"] == "⚫1A to D3: takes Apex · climbs 3: spends a Stairs"
    assert labels_["E"] == "⚫1A to E4: takes Eye"
    assert labels_["S"] == "⚫1A to D5: empty, takes nothing"
    assert all("((" not in label and "Stairs" not in label for d, label in labels_.items() if d != "N")


def test_the_horse_is_offered_in_words_only_when_it_can_be_ridden():
    after = position({C: ["moon"]}, {"eye": 1}, phase="after", stepped=0, step_dir="N")
    text = str(private_embed(table_at(after), 0, GAME.view(after, 0), True).description)
    assert "Use more tiles or end your turn." in text and "Horse" not in text
    horse = replace(after, racks=(tuple(1 if m == "horse" else 0 for m in MOTIFS), after.racks[1]))
    assert any(a["do"] == "horse" for a in GAME.legal_actions(horse, 0))
    assert "ride the Horse" in str(private_embed(table_at(horse), 0, GAME.view(horse, 0), True).description)


def test_the_title_counts_rounds_of_two_turns():
    state = position({}, turns=(4, 3), turn=1)  # Bo's 4th turn: round 4, not "turn 8"
    assert words.round_title(GAME.view(state, None)) == "Sakkara — round 4"
    assert words.round_title(GAME.view(replace(state, turns=(4, 4), turn=0), None)) == "Sakkara — round 5"


def test_the_log_names_the_worker_and_a_skipped_step():
    table = table_at(position({}))
    step = {"type": "step", "seat": 1, "worker": 1, "dir": "N", "from": 48, "to": 41, "took": "eye",
            "stairs": False}
    assert words.event_line(table, step) == "Bo steps worker ⚪2B north to G6 and takes Eye."
    assert words.event_line(table, {"type": "end", "seat": 0, "step_skipped": True}) == (
        "Ann has no legal step: the turn ends.")


def test_the_picture_and_the_text_name_every_tile_alike():
    assert {m: motif_word(m) for m in MOTIFS} == {m: words.motif(m) for m in MOTIFS}


def test_workers_of_the_two_seats_are_told_apart_in_words_and_pictures():
    assert {words.worker_name(s, w)[0] for s in (0, 1) for w in (0, 1)} == {"⚫", "⚪"}
    sprites = [sakkara_board._worker(seat, 0).convert("L") for seat in (0, 1)]
    head = (sprites[0].width // 2, sprites[0].height * 16 // 56)  # the middle of the pawn's head
    assert sprites[1].getpixel(head) - sprites[0].getpixel(head) > 200  # black pawns against white pawns
    # a pawn, not a disc: the height badges are discs with a number, and must not read as workers
    alpha = sakkara_board._worker(0, 0).split()[3]
    assert alpha.getbbox() is not None and alpha.getbbox()[3] - alpha.getbbox()[1] > 40


def test_the_final_picture_shows_no_used_tile_stack_left_pending():
    over = position({}, phase="over", ended="apex", pending=("helping_hand", "helping_hand"))
    view = GAME.view(over, None)
    assert view["pending"]
    drawn = Image.open(io.BytesIO(sakkara_board.board_image(view)))
    empty = Image.open(io.BytesIO(sakkara_board.board_image({**view, "pending": [], "destroyed": []})))
    assert drawn.tobytes() == empty.tobytes()
