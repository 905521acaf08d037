"""The Docker image runs as the README documents it (issue 15, item 6). No container engine runs in
the tests, so the image's environment is worked out from the Dockerfile, the README's ``docker run``
line, the ``.env`` it tells people to make (a copy of ``.env.example``) and compose.yaml, the way
Docker would: an ``--env-file`` value overrides the image's ``ENV``, a relative path is relative to
``WORKDIR``. The README's ``.env`` once set ``DATABASE_PATH=data/...``: /app/data, which the image's
unprivileged user cannot create (PermissionError at start)."""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[2]


def dockerfile() -> dict[str, list[str]]:
    """The Dockerfile's instructions: name -> the arguments of each occurrence (continuations joined)."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, rest = line.partition(" ")
            found.setdefault(name.upper(), []).append(rest.strip())
    return found


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for args in dockerfile().get("ENV", []):
        for pair in shlex.split(args):
            key, _, value = pair.partition("=")
            env[key] = value
    return env


def env_file(path: Path) -> dict[str, str]:
    """What ``docker run --env-file`` reads: KEY=VALUE lines, whole-line comments skipped."""
    out: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            out[key.strip()] = value
    return out


def readme_run() -> list[str]:
    """The README's ``docker run`` command, as words."""
    lines = [line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("docker run ")]
    assert len(lines) == 1, lines
    return shlex.split(lines[0])


def volume_dirs() -> list[PurePosixPath]:
    out = []
    for args in dockerfile().get("VOLUME", []):
        names = re.findall(r'"([^"]+)"', args) if args.startswith("[") else args.split()
        out += [PurePosixPath(name) for name in names]
    return out


def owned_by_the_user(folder: PurePosixPath) -> bool:
    """Whether a RUN line creates ``folder`` and gives it to the image's USER."""
    user = dockerfile()["USER"][-1].split(":")[0]
    runs = " ".join(dockerfile().get("RUN", []))
    return (f"mkdir -p {folder}" in runs
            and re.search(rf"chown (-R )?{re.escape(user)}(:{re.escape(user)})? {re.escape(str(folder))}\b", runs)
            is not None)


def database_in_the_container(extra: dict[str, str]) -> PurePosixPath:
    from wiring.config import Config

    env = {**image_env(), **extra}
    path = PurePosixPath(env.get("DATABASE_PATH") or Config.database_path)
    return path if path.is_absolute() else PurePosixPath(dockerfile()["WORKDIR"][-1]) / path


def test_the_readme_docker_run_keeps_the_database_on_a_volume_the_bot_user_owns():
    words = readme_run()
    env_path = ROOT / words[words.index("--env-file") + 1]
    if not env_path.exists():  # the README has people copy .env.example to .env
        env_path = ROOT / ".env.example"
    mounts = [words[i + 1].split(":")[1] for i, word in enumerate(words) if word in ("-v", "--volume")]
    database = database_in_the_container(env_file(env_path))
    volume = next((PurePosixPath(m) for m in mounts if PurePosixPath(m) in (database, *database.parents)), None)
    assert volume is not None, f"the database {database} is on no volume the README mounts ({mounts})"
    assert volume in volume_dirs()
    assert owned_by_the_user(volume), f"{volume} is not created and given to the image's user"
    assert dockerfile()["USER"][-1] not in ("root", "0")


def test_compose_runs_the_same_image_with_the_same_volume_and_stop_signal():
    text = (ROOT / "compose.yaml").read_text()
    bot = re.search(r"^  bot:\n((?:    .*\n|\n)+)", text, re.MULTILINE)
    assert bot is not None, "compose.yaml has no bot service"
    service = bot.group(1)
    assert re.search(r"^    build: \.$", service, re.MULTILINE)
    assert re.search(r"^    env_file: \.env$", service, re.MULTILINE)
    mounts = re.findall(r"^      - ([\w-]+):(/\S+)$", service, re.MULTILINE)
    database = database_in_the_container(env_file(ROOT / ".env.example"))
    assert any(PurePosixPath(target) in (database, *database.parents) for _, target in mounts), mounts
    assert all(re.search(rf"^  {name}:", text, re.MULTILINE) for name, _ in mounts)  # declared volumes
    stop = re.search(r"^    stop_signal: (\S+)$", service, re.MULTILINE)
    assert stop is not None and stop.group(1) == dockerfile()["STOPSIGNAL"][-1]
    grace = re.search(r"^    stop_grace_period: (\d+)s$", service, re.MULTILINE)
    from bot import SHUTDOWN_GRACE_S

    assert grace is not None and int(grace.group(1)) > SHUTDOWN_GRACE_S


def test_docker_stops_the_bot_with_a_signal_it_handles():
    import bot

    assert getattr(signal, dockerfile()["STOPSIGNAL"][-1]) in bot.STOP_SIGNALS


def test_the_image_holds_every_module_the_bot_loads():
    """Every project module `python bot.py` imports (its cogs too) lies in something the Dockerfile copies."""
    probe = ("import importlib, sys, bot\n"
             "for name in bot.EXTENSIONS: importlib.import_module(name)\n"
             "files = {getattr(m, '__file__', None) for m in list(sys.modules.values())}\n"
             "print('\\n'.join(sorted(f for f in files if f)))")
    files = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True,
                           timeout=120).stdout.split()
    ours = {Path(f).resolve().relative_to(ROOT) for f in files if Path(f).resolve().is_relative_to(ROOT)
            and ".venv" not in Path(f).parts}
    copied = {Path(shlex.split(args)[0]) for args in dockerfile()["COPY"]}
    missing = sorted(str(f) for f in ours if not any(f == c or c in f.parents for c in copied))
    assert ours and not missing, f"not in the image: {missing}"
