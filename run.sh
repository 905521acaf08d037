#!/usr/bin/env sh
# Installs what the bot needs (into .venv) and runs it; arguments go to bot.py.
# ./run.sh --demo [--interactive] [--seed N] plays the offline demo (demo.py) instead.
set -eu
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
if [ "${1:-}" = "--demo" ]; then
    shift
    exec .venv/bin/python demo.py "$@"
fi
exec .venv/bin/python bot.py "$@"
