"""The README's links to its own sections and to files in the repository lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_section_link_names_a_heading():
    text = (ROOT / "README.md").read_text()
    headings = {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE)}
    links = set(re.findall(r"\]\(#([^)]+)\)", text))
    assert links, "no section links found: the pattern is wrong"
    assert sorted(links - headings) == []


def test_every_file_link_names_a_file():
    text = (ROOT / "README.md").read_text()
    targets = [t for t in re.findall(r"\]\(([^)#:]+)\)", text)]
    assert targets
    assert [t for t in targets if not (ROOT / t).exists()] == []
