"""compose.postgres.yaml runs PostgreSQL and two bot processes that split the shards (issue 16, item 5).

No container engine runs in the tests: the file is read as Docker Compose reads it (YAML with the
``x-bot`` anchor merged, ``environment`` over ``env_file``, ``${VAR}`` from the shell or .env) and
each bot's environment is handed to the bot's own configuration parser.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import yaml

from tests.house.test_docker import database_in_the_container, dockerfile, env_file

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "s3cret"


def compose() -> dict[str, Any]:
    text = (ROOT / "compose.postgres.yaml").read_text()
    # ${NAME} and ${NAME:?message} are filled from .env by Compose; the test's .env sets the password.
    text = re.sub(r"\$\{POSTGRES_PASSWORD(:\?[^}]*)?\}", PASSWORD, text)
    loaded: dict[str, Any] = yaml.safe_load(text)
    return loaded


def bots() -> dict[str, dict[str, Any]]:
    """The bot processes: the image's services that `up` starts (a profile's one-off jobs excepted)."""
    return {name: service for name, service in compose()["services"].items()
            if service.get("build") == "." and "profiles" not in service}


def bot_config(service: dict[str, Any]) -> Any:
    from wiring.config import Config

    env = {**env_file(ROOT / ".env.example"), **{k: str(v) for k, v in service["environment"].items()}}
    return Config.from_env(env)


def test_two_bot_processes_split_every_shard_between_them():
    configs = [bot_config(service) for service in bots().values()]
    assert len(configs) == 2
    counts = {config.shard_count for config in configs}
    assert len(counts) == 1
    (count,) = counts
    shards = [set(config.shard_ids) for config in configs]
    assert shards[0].isdisjoint(shards[1])
    assert shards[0] | shards[1] == set(range(count))


def test_the_processes_share_the_token_s_budget_and_the_database_service():
    services = compose()["services"]
    configs = [bot_config(service) for service in bots().values()]
    assert sum(config.rest_per_second for config in configs) <= 50
    for name, service in bots().items():
        url = urlsplit(bot_config(service).database_url)
        assert url.scheme == "postgresql", name
        assert url.hostname in services and "postgres" in services[url.hostname]["image"], name
        assert url.password == PASSWORD
        database = services[url.hostname]
        assert url.path.lstrip("/") == database["environment"]["POSTGRES_DB"]
        assert url.username == database["environment"]["POSTGRES_USER"]
        # The bot migrates at start: it must wait until PostgreSQL answers, not just until it started.
        assert service["depends_on"][url.hostname]["condition"] == "service_healthy"
        assert database["healthcheck"]["test"]


def test_the_bots_stop_cleanly_and_every_volume_is_declared():
    from bot import SHUTDOWN_GRACE_S

    document = compose()
    for service in bots().values():
        assert service["stop_signal"] == dockerfile()["STOPSIGNAL"][-1]
        assert int(str(service["stop_grace_period"]).rstrip("s")) > SHUTDOWN_GRACE_S
        assert service["env_file"] == ".env"
    mounts = [volume.split(":")[0] for service in document["services"].values()
              for volume in service.get("volumes", [])]
    assert mounts and all(name in document["volumes"] for name in mounts)


def test_compose_refuses_to_start_without_a_database_password():
    text = (ROOT / "compose.postgres.yaml").read_text()
    assert "${POSTGRES_PASSWORD:?" in text
    assert "POSTGRES_PASSWORD" in (ROOT / ".env.example").read_text()


def test_the_copy_job_reads_the_sqlite_database_compose_yaml_keeps_and_writes_the_bots_database():
    """`docker compose -f compose.postgres.yaml run --rm copy` moves compose.yaml's history over."""
    services = compose()["services"]
    copy = services["copy"]
    assert copy["profiles"] == ["copy"]  # `up` does not run it
    python, flag, module, source, target = copy["command"]
    assert (python, flag, module) == ("python", "-m", "db.copy")
    assert (ROOT / "db" / "copy.py").is_file()
    from db.urls import sqlite_path

    database = database_in_the_container(env_file(ROOT / ".env.example"))
    assert PurePosixPath(sqlite_path(source)) == database
    (bot_url,) = {bot_config(service).database_url for service in bots().values()}
    assert target == bot_url
    # The same named volume as compose.yaml's bot, mounted where the image keeps the database.
    sqlite_bot = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["bot"]
    assert set(copy["volumes"]) & set(sqlite_bot["volumes"])
    assert any(PurePosixPath(v.split(":")[1]) in database.parents for v in copy["volumes"])
