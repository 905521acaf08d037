"""Configuration from the environment, and the run command without a token."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wiring.config import Config

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_and_values():
    config = Config.from_env({"DISCORD_TOKEN": " abc ", "DEV_GUILD_ID": "123", "DECISION_TIMEOUT_S": "45"})
    assert config.token == "abc" and config.dev_guild_id == 123 and config.decision_timeout_s == 45
    assert Config.from_env({}).database_path == "data/temple_table.sqlite3"
    assert Config.from_env({}).ai_think_s == 1.0
    assert Config.from_env({"AI_THINK_S": "2.5"}).ai_think_s == 2.5
    assert Config.from_env({"AI_BUDGET_S": "1.5"}).ai_think_s == 0.75  # unset: within a small budget
    assert Config.from_env({}).draw_workers == 1 and Config.from_env({"DRAW_WORKERS": "0"}).draw_workers == 0


def test_the_default_decision_time_may_be_a_week():
    assert Config.from_env({"DECISION_TIMEOUT_S": "604800"}).decision_timeout_s == 7 * 24 * 3600
    with pytest.raises(ValueError, match="DECISION_TIMEOUT_S"):
        Config.from_env({"DECISION_TIMEOUT_S": "604801"})


@pytest.mark.parametrize(("env", "name"), [({"DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
                                           ({"DECISION_TIMEOUT_S": "soon"}, "DECISION_TIMEOUT_S"),
                                           ({"AI_DELAY_S": "-1"}, "AI_DELAY_S"),
                                           ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
                                           ({"AI_THINK_S": "0"}, "AI_THINK_S"),
                                           ({"AI_THINK_S": "6"}, "AI_THINK_S"),  # over half of AI_BUDGET_S (10)
                                           ({"AI_THINK_S": "2", "AI_BUDGET_S": "3"}, "AI_THINK_S"),
                                           ({"DRAW_WORKERS": "two"}, "DRAW_WORKERS")])
def test_malformed_values_name_the_setting(env, name):
    with pytest.raises(ValueError, match=name):
        Config.from_env(env)


def test_run_without_token_exits_with_one_clear_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env.example" in lines[0]


def test_the_bot_runs_with_full_collections_made_rare(tmp_path, monkeypatch):
    """main() tunes the garbage collector before the bot runs (full collections were the p99 at 1,000 tables)."""
    import bot

    seen = []

    async def fake_run(config):  # stands in for the bot itself: record the collector's settings it runs with
        seen.append(gc.get_threshold())
        return 0

    before = gc.get_threshold()
    monkeypatch.setattr(bot, "run", fake_run)
    monkeypatch.setattr(bot, "configure_logging", lambda level: None)  # leave the test run's logging alone
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    try:
        assert bot.main([]) == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
    assert seen == [bot.GC_THRESHOLDS] and bot.GC_THRESHOLDS[2] > before[2]
