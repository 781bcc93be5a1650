"""A deliberately slow computer level for the tests: it waits, then plays like
"random". It stands for an engine thinking hard."""

from __future__ import annotations

import time

from parlour.server.players import random_move

#: How long the slow level thinks, in seconds.
THINKING = 3.0


def slow_move(game_name: str, position: str, seed: int) -> str:
    time.sleep(THINKING)
    return random_move(game_name, position, seed)
