"""Run ``parlour serve`` with the race game registered, as a real server process for
the restart and fleet tests: ``python -m tests.server.serve_race PORT DB_URL
[OPTION...]``; PARLOUR_TEST_LEASE sets the seconds an engine job is held by a process
that stops renewing it (one killed), PARLOUR_TEST_THINKING how long the "slow" level
thinks."""

from __future__ import annotations

import os
import sys

from parlour import cli
from parlour.core import registry
from parlour.server import jobs, players

if __name__ == "__main__":
    registry.register("race", registry.GameEntry(rules="tests.conformance.toygame:RACE"))
    players.LEVELS["slow"] = "tests.server.slowplayer:slow_move"
    jobs.LEASE = float(os.environ.get("PARLOUR_TEST_LEASE", jobs.LEASE))
    port, db = sys.argv[1], sys.argv[2]
    raise SystemExit(cli.main(["serve", "--port", port, "--db", db, *sys.argv[3:]]))
