"""Computer players, run in worker processes so the server's event loop never waits.

The interface is one function per level::

    def choose(game_name: str, position: str, seed: int) -> str

given the position in the game's text encoding (FEN, PDN FEN, gnubg IDs), it returns
a legal move as text (anything the game's ``parse_move`` reads). The server runs it in
a :class:`concurrent.futures.ProcessPoolExecutor` and checks the answer like any
player's move.

Levels are named in :data:`LEVELS` as ``"module:function"`` (imported in the worker,
so they work under any process start method). The game engines of a later issue add
their levels here. **Until then the only computer player is "random": it plays a
legal move chosen at random (seeded by the game and its version, so a game can be
replayed), which is no opponent at all, only a stand-in that exercises the path.**
"""

from __future__ import annotations

import importlib
import os
import random
import signal
import threading
import time
from collections.abc import Callable

from parlour.core import registry

#: Level name -> "module:function" of its chooser.
LEVELS: dict[str, str] = {
    "random": "parlour.server.players:random_move",
}

#: What each level is, in a player's words (shown by the API).
ABOUT: dict[str, str] = {
    "random": "plays a random legal move: a stand-in until the real computer opponents come",
}

Chooser = Callable[[str, str, int], str]


def random_move(game_name: str, position: str, seed: int) -> str:
    """A legal move picked at random (level "random": a stand-in, not an engine).

    >>> from parlour.core import registry
    >>> registry.register("race", "tests.conformance.toygame:RACE")
    >>> random_move("race", "0,0,0,3", seed=1) in ("+1", "+3")
    True
    """
    state = registry.get_game(game_name).state_from_text(position)
    moves = state.legal_moves()
    if not moves:
        raise ValueError("no legal move to choose from")
    return state.move_to_text(random.Random(seed).choice(moves))


def start_worker(server_pid: int) -> None:
    """Run first in each worker process. A forked worker inherits the server's signal
    handlers (uvicorn's, which would only set a flag nobody reads here): restore the
    defaults so that stopping it works. And a worker must not outlive its server, even
    one killed outright: a watcher thread ends it once its parent is gone."""
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_DFL)

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parlour-watch-server", daemon=True).start()


def ready() -> bool:
    """A no-op run once in each new worker pool, so its processes start at once."""
    return True


def think(level_target: str, game_target: str, game_name: str, position: str, seed: int) -> str:
    """What runs in the worker process: make sure the game is known there (a fresh
    worker may not share the server's registry), then ask the level's chooser."""
    if game_name not in registry.GAMES:
        registry.register(game_name, game_target)
    module_name, _, attribute = level_target.partition(":")
    chooser: Chooser = getattr(importlib.import_module(module_name), attribute)
    return chooser(game_name, position, seed)
