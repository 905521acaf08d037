"""The AI benchmarks' ``--seed a,b``: one command reproduces a figure pooled from several runs.

Issue 18 asks for one benchmark command per game that reproduces each figure; docs/benchmarks.md
figures pool runs from several seed starts. Each script runs here as a person runs it (a
subprocess, its own worker pool), once per start and once with the starts together, on quick
levels and a few games: the pooled run must show every start's own line exactly and pool them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"matchup=(\S+) win_share=([\d.]+) ci95=\[[\d.]+,[\d.]+\] games=(\d+)")

CASES = {
    "indus": ("indus_ai.py", ["--games", "2", "--matchups", "medium:easy"], (30_000, 40_000)),
    "indus-4p": ("indus_ai.py", ["--games", "4", "--players", "4", "--matchups", "medium:easy"], (30_000, 40_000)),
    "sakkara": ("sakkara_ai.py", ["--games", "2", "--matchups", "medium:easy"], (20_000, 20_011)),
    "incan-gold": ("incan_gold_tournament.py", ["--games", "3", "--sections", "field5,mixed5,ladder", "--levels",
                                                "medium", "--ladder", "medium:easy", "--rollouts", "2"], (0, 1000)),
}


def run(script: str, args: list[str], seed: str) -> list[str]:
    """Return the win-share lines (matchup lines and per-start comments) a benchmark prints."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args, "--seed", seed, "--procs", "1"],
                         cwd=ROOT, capture_output=True, text=True, check=True, timeout=300).stdout
    return [line for line in out.splitlines() if "win_share=" in line]


def by_opponent(lines: list[str]) -> dict[str, list[str]]:
    """Return the matchup lines per opponent (one section of a benchmark each)."""
    out: dict[str, list[str]] = {}
    for line in lines:
        out.setdefault(line.split(" ")[0].split("_vs_")[1], []).append(line)
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_several_starts_pool_the_runs_of_each_start(case: str):
    script, args, (first, second) = CASES[case]
    alone = {start: run(script, args, str(start)) for start in (first, second)}
    pooled = run(script, args, f"{first},{second}")
    assert alone[first] and len(alone[first]) == len(alone[second])
    # every section's lines differ between the starts, so a block played from the wrong start shows
    one, other = by_opponent(alone[first]), by_opponent(alone[second])
    assert one.keys() == other.keys() and all(one[k] != other[k] for k in one)
    for start, lines in alone.items():
        assert [line.replace(f"# seeds from {start}: ", "matchup=") for line in pooled
                if line.startswith(f"# seeds from {start}: ")] == lines
    assert all(line.startswith("matchup=") for lines in alone.values() for line in lines)
    totals = [LINE.fullmatch(line) for line in pooled if "matchup=" in line]
    assert len(totals) == len(alone[first])
    for total, a, b in zip(totals, alone[first], alone[second], strict=True):
        ma, mb = LINE.fullmatch(a), LINE.fullmatch(b)
        assert total is not None and ma is not None and mb is not None
        assert total[1] == ma[1] == mb[1]
        assert int(total[3]) == int(ma[3]) + int(mb[3])
        wins = float(ma[2]) * int(ma[3]) + float(mb[2]) * int(mb[3])
        assert float(total[2]) == pytest.approx(wins / int(total[3]), abs=1e-3)


def test_a_start_listed_twice_or_not_a_number_is_refused():
    for seed in ("5,5", "5,x"):
        done = subprocess.run([sys.executable, str(ROOT / "bench" / "sakkara_ai.py"), "--games", "0", "--seed", seed],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and "--seed" in done.stderr


def test_mixed_tables_count_each_bot_over_the_tables_it_sat_at():
    lines = run("incan_gold_tournament.py", ["--games", "3", "--sections", "mixed5", "--rollouts", "2"], "0,1000")
    pooled = [LINE.fullmatch(line) for line in lines if line.startswith("matchup=")]
    assert len(pooled) == 9 and all(m is not None for m in pooled)
    assert sum(int(m[3]) for m in pooled if m is not None) == 5 * 3 * 2  # five seats at each of the 6 tables
