"""Run ``parlour serve`` with the race game registered, as a real server process for
the restart tests: ``python -m tests.server.serve_race PORT DB_URL [OPTION...]``."""

from __future__ import annotations

import sys

from parlour import cli
from parlour.core import registry
from parlour.server import players

if __name__ == "__main__":
    registry.register("race", registry.GameEntry(rules="tests.conformance.toygame:RACE"))
    players.LEVELS["slow"] = "tests.server.slowplayer:slow_move"
    port, db = sys.argv[1], sys.argv[2]
    raise SystemExit(cli.main(["serve", "--port", port, "--db", db, *sys.argv[3:]]))
