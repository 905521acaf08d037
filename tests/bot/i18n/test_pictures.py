"""The pictures in every language: every word the boards print is drawable by the bundled font,
and each board draws in each language."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from playout_kit import playout

from engine.indus import GAME as INDUS
from engine.sakkara import GAME as SAKKARA
from i18n import reading
from i18n.catalogue import book
from i18n.languages import LANGUAGES
from pictures.canvas import printable
from pictures.indus import board as indus_board
from pictures.sakkara import board as sakkara_board

PRINTED = ("boards.", "sakkara.m.", "level.")



@pytest.mark.parametrize("language", LANGUAGES)
def test_every_printed_word_has_its_letters_in_the_font(language):
    lost = {}
    for key, entry in book(language).entries.items():
        if key.startswith(PRINTED):
            for text in (entry.source if language == "en" else entry.forms):
                if printable(text) != text:
                    lost[key] = text
    assert lost == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_board_draws_in_each_language(language):
    sakkara = list(playout(SAKKARA, 2, 7))[60]
    indus = list(playout(INDUS, 3, 7, {"layout": "default"}))[80]
    with reading(language):
        pictures = [sakkara_board.board_image(SAKKARA.view(sakkara, None), names=["Äinö", "Sven"]),
                    sakkara_board.rack_image(SAKKARA.view(sakkara, 0), names=["Äinö", "Sven"]),
                    indus_board.board_image(INDUS.view(indus, None), names=["Lia", "Åsa", "Cy"])]
    for png in pictures:
        assert Image.open(io.BytesIO(png)).size[0] > 300
    with reading("en"):
        english = indus_board.board_image(INDUS.view(indus, None), names=["Lia", "Åsa", "Cy"])
    assert (pictures[2] == english) == (language == "en")
