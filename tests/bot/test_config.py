"""Configuration from the environment, and the run command without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import Config

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_and_values():
    config = Config.from_env({"DISCORD_TOKEN": " abc ", "DEV_GUILD_ID": "123", "DECISION_TIMEOUT_S": "45"})
    assert config.token == "abc" and config.dev_guild_id == 123 and config.decision_timeout_s == 45
    assert Config.from_env({}).database_path == "data/temple_table.sqlite3"


@pytest.mark.parametrize(("env", "name"), [({"DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
                                           ({"DECISION_TIMEOUT_S": "soon"}, "DECISION_TIMEOUT_S"),
                                           ({"AI_DELAY_S": "-1"}, "AI_DELAY_S"),
                                           ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL")])
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
