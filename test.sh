#!/usr/bin/env sh
# Installs what the tests need (into .venv) and runs the whole suite: lint, types, tests.
set -eu
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
.venv/bin/python -m ruff check .
.venv/bin/python -m mypy
exec .venv/bin/python -m pytest "$@"
