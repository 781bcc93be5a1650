#!/usr/bin/env bash
# Set up everything the tests need, then run every check: lint, format, types (Python
# and the browser's JavaScript), the API reference's build, tests.
# Extra arguments go to pytest (e.g. scripts/test.sh tests/chess -x).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh test
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
npx --no-install tsc -p .
# The API reference from the docstrings: any broken reference or warning fails.
site=$(mktemp -d)
.venv/bin/mkdocs build --strict --quiet --site-dir "$site"
rm -rf "$site"
.venv/bin/python -m pytest "$@"
