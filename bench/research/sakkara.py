"""Sakkara players under trial (``EXPERIMENTS``): measured by bench/sakkara_ai.py, not offered in the lobby."""

from __future__ import annotations

from engine.core import Agent

__all__ = ["EXPERIMENTS"]

EXPERIMENTS: dict[str, Agent] = {}
"""Players measured by the benchmarks but not offered in the lobby (none now: the search is Hard)."""
