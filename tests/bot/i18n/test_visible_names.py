"""What can be seen of a player-chosen name (i18n.names.visible): nothing that steers or hides text."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from i18n.names import visible


@pytest.mark.parametrize(("name", "shown"), [
    ("al\u202eice", "alice"),  # a right-to-left override would reverse the rest of the line
    ("sam\u2066x\u2069\u200f", "samx"),  # isolates and marks
    ("\u200b\u200d", ""),  # zero-width only: nothing visible
    ("\u3164\u3164", ""),  # Hangul fillers look empty
    ("\u2800", ""),  # the blank Braille pattern
    ("  Bo \u2003\t x\n", "Bo x"),  # any run of spaces is one space; no line breaks
    ("a\u200db", "ab"),  # a joiner between letters joins nothing visible
    ("👨\u200d👩\u200d👧 fam", "👨\u200d👩\u200d👧 fam"),  # between pictographs it makes one emoji
    ("Ääkkönen", "Ääkkönen"),
    ("العربية", "العربية"),  # a right-to-left script is a name like any other
])
def test_visible_keeps_what_a_reader_sees(name: str, shown: str) -> None:
    assert visible(name) == shown


@given(st.text())
def test_nothing_visible_ever_keeps_a_control_or_format_character(name: str) -> None:
    shown = visible(name)
    assert shown == shown.strip() and "  " not in shown
    assert all(unicodedata.category(ch) not in ("Cc", "Co", "Cs", "Zl", "Zp") for ch in shown)
    assert all(unicodedata.category(ch) != "Cf" or ch == "\u200d" for ch in shown)
    assert visible(shown) == shown  # once is enough


def test_a_picture_prints_what_can_be_seen_of_a_name_else_the_seat() -> None:
    from pictures.lettering import player_names

    assert player_names(["\u200b\u200d", "al\u202eice", " Bo  "], 3) == ["Player 1", "alice", "Bo"]
