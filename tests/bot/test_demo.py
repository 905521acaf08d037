"""The offline demo (issue 5 item 6): it plays a whole table and prints what Discord would show."""

from __future__ import annotations

import io
import itertools
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from bot import offline_bot
from demo import parse_answer, run_demo, scripted_choice

ROOT = Path(__file__).resolve().parents[2]
SEATS = ("You", "Easy bot 1", "Medium bot 1", "Hard bot 1", "Medium bot 2")


def summary_of(text: str) -> str:
    """Return the closing summary block the demo prints after the game."""
    assert "Final summary" in text, text[-2000:]
    return text[text.index("Final summary"):]


def check_complete_game(text: str) -> None:
    """The output shows the channel and the private replies, and the summary names every seat and a winner."""
    assert "── #table ──" in text and "── #table, only You sees this ──" in text
    assert "expedition 5/5" in text  # all five expeditions were played
    assert "Incan Gold — final scores" in text  # the channel's summary message
    summary = summary_of(text)
    for name in SEATS:
        assert re.search(rf"^\s+\d\. {re.escape(name)}\b.*: -?\d+ points", summary, re.M), (name, summary)
    winner = re.search(r"^Winners?: (.+)$", summary, re.M)
    assert winner is not None and set(winner[1].split(", ")) <= set(SEATS)
    assert "← winner" in summary


async def test_scripted_demo_plays_a_whole_game() -> None:
    out = io.StringIO()
    assert await run_demo(offline_bot, seed=7, out=out) == 0
    text = out.getvalue()
    check_complete_game(text)
    assert "(seed 7)" in text
    # An unchanged edit is printed once: no two consecutive blocks for a message are identical.
    blocks = re.split(r"\n── ", text)
    assert all(a != b for a, b in itertools.pairwise(blocks))


async def test_same_seed_same_game() -> None:
    first, second = io.StringIO(), io.StringIO()
    await run_demo(offline_bot, seed=3, out=first)
    await run_demo(offline_bot, seed=3, out=second)
    assert summary_of(first.getvalue()) == summary_of(second.getvalue())


async def test_interactive_demo_reasks_on_bad_input_and_camps_at_end_of_input() -> None:
    answers = iter(["maybe", "t", "T", "c"])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)  # StopIteration is not EOFError: turned into EOF below

    def ask_or_eof(prompt: str) -> str:
        try:
            return ask(prompt)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    assert await run_demo(offline_bot, interactive=True, seed=11, out=out, ask=ask_or_eof) == 0
    text = out.getvalue()
    check_complete_game(text)
    assert "Please answer t (torch, go deeper) or c (camp, go home), not 'maybe'." in text
    assert "(no more input: returning to camp)" in text
    # The first real answer was Torch, so "You" pressed Torch before ever pressing Camp.
    presses = re.findall(r">>> You press \[(Torch|Camp)\]", text)
    assert presses[:4] == ["Torch", "Torch", "Camp", "Camp"]  # maybe (asked again), t, T, c, then EOF
    assert len(asked) == len(presses) + 1  # one question per decision, plus the re-ask


def test_scripted_rule_and_answers() -> None:
    def view(carried: int, hazards: int) -> dict[str, object]:
        return {"you": {"carried": carried}, "hazards_seen": ["fire", "snakes", "mummy"][:hazards]}

    assert scripted_choice(view(7, 1)) == "torch"
    assert scripted_choice(view(8, 0)) == "camp"
    assert scripted_choice(view(0, 2)) == "camp"
    assert [parse_answer(a) for a in ("t", " Torch ", "C", "camp", "x", "")] == [
        "torch", "torch", "camp", "camp", None, None]


def test_demo_command_exits_zero_within_a_minute() -> None:
    started = time.monotonic()
    env = {**os.environ, "DISCORD_TOKEN": ""}
    proc = subprocess.run([sys.executable, "demo.py", "--seed", "1"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert time.monotonic() - started < 60
    check_complete_game(proc.stdout)
