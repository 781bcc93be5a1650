#!/usr/bin/env bash
# Set up Parlour and start the web app at http://127.0.0.1:8000 (games are kept in
# an SQLite file in the user's data directory; see `parlour serve --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
exec .venv/bin/parlour serve "$@"
