"""A deliberately slow computer level for the tests: it waits, then plays like
"random". It stands for an engine thinking hard. The wait is THINKING seconds, or
what the environment variable PARLOUR_TEST_THINKING says (for server processes)."""

from __future__ import annotations

import os
import time
from typing import Any

from parlour.core.protocol import Game
from parlour.server.players import random_move

#: How long the slow level thinks, in seconds, unless the environment says.
THINKING = 3.0


def slow_move(game: Game[Any], position: str, seed: int) -> str:
    time.sleep(float(os.environ.get("PARLOUR_TEST_THINKING", THINKING)))
    return random_move(game, position, seed)
