#!/usr/bin/env bash
# Set up Parlour and start it. Until the web app lands, this starts a game in the
# terminal: GAME (default chess) for two players at one keyboard.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
exec .venv/bin/parlour play "${1:-chess}"
