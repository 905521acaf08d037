#!/usr/bin/env sh
# Installs what the bot needs (into .venv) and runs it; arguments go to bot.py (e.g. --demo).
set -eu
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
exec .venv/bin/python bot.py "$@"
