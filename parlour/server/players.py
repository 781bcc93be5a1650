"""Computer players, run in worker processes so the server's event loop never waits.

The interface is one function per level::

    def choose(game: Game, position: str, seed: int) -> str

given the game (with the optional rules it is played under) and the position in the
game's text encoding (FEN, PDN FEN, gnubg IDs), it returns a legal move as text
(anything the game's ``parse_move`` reads). The server runs it in a
:class:`concurrent.futures.ProcessPoolExecutor` and checks the answer like any
player's move.

Every level of a game's engine (:func:`parlour.core.registry.get_engine`, levels 1 to
its strongest) is offered under its number, "1" .. "7"; :func:`engine_move` plays
them. Other named levels are in :data:`LEVELS` as ``"module:function"`` (imported in
the worker, so they work under any process start method): "random" plays a legal move
chosen at random (seeded by the game and its version, so a game can be replayed): the
only opponent of a game that brings no engine, and a quick one for tests.
"""

from __future__ import annotations

import importlib
import os
import random
import signal
import threading
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from parlour.core import registry
from parlour.core.engine import Engine
from parlour.core.errors import ParlourError
from parlour.core.protocol import Game

#: Level name -> "module:function" of its chooser.
LEVELS: dict[str, str] = {
    "random": "parlour.server.players:random_move",
}

#: What each level is, in a player's words (shown by the API).
ABOUT: dict[str, str] = {
    "random": "plays a random legal move",
}

Chooser = Callable[[Game[Any], str, int], str]

#: How :func:`target_of` marks a level played by the game's own engine.
ENGINE = "engine:"


@cache
def _engine(game_name: str) -> Engine[Any] | None:
    """The game's engine (made once per process), or None if it has none yet."""
    if not registry.has_engine(game_name):
        return None
    return registry.get_engine(game_name)


def engine_levels(game_name: str) -> list[str]:
    """The engine's levels of a game, weakest first: "1" .. its strongest."""
    engine = _engine(game_name)
    return [] if engine is None else [str(n) for n in range(1, engine.strongest + 1)]


def default_level(game_name: str) -> str:
    """The level offered first: the engine's default, or "random" without one."""
    engine = _engine(game_name)
    return "random" if engine is None else str(engine.default_level)


def levels_of(game_name: str) -> list[str]:
    """Every computer level of a game: the engine's, then the named ones."""
    return [*engine_levels(game_name), *sorted(LEVELS)]


def target_of(level: str) -> str:
    """What :func:`think` runs for ``level``."""
    return LEVELS.get(level) or f"{ENGINE}{level}"


def about(game_name: str, level: str) -> str:
    """A level in a player's words."""
    if level in LEVELS:
        return ABOUT.get(level, "")
    strongest = engine_levels(game_name)[-1]
    measured = registry.level_strengths(game_name).get(int(level))
    if measured is not None:
        return f"level {level} of {strongest}: {measured}"
    if level == "1":
        return f"level 1 of {strongest}: a beginner who makes mistakes"
    if level == strongest:
        return f"level {level} of {strongest}: the strongest"
    return f"level {level} of {strongest}"


def game_under(game_target: registry.GameEntry, game_name: str, rules: dict[str, Any]) -> Game[Any]:
    """The game with its optional rules, in a worker process (which may not share
    the server's registry: the game is registered there first if need be)."""
    if game_name not in registry.GAMES:
        registry.register(game_name, game_target)
    return registry.get_face(game_name).series(rules).game


def engine_move(
    game: Game[Any], position: str, seed: int, level: int, seconds: float | None = None
) -> str:
    """The engine's move at ``level`` (its mistakes seeded, so a game replays),
    thought for at most ``seconds`` when a clock runs."""
    state = game.state_from_text(position)
    engine = _engine(game.name)
    if engine is None:
        raise ParlourError(f"{game.name} has no computer opponent")
    move = engine.choose_move(state, level, random.Random(seed), seconds=seconds)
    return state.move_to_text(move)


def hint(
    game_target: registry.GameEntry, game_name: str, rules: dict[str, Any], position: str
) -> dict[str, Any]:
    """The engine's advice for the side to act (runs in a worker process)."""
    state = game_under(game_target, game_name, rules).state_from_text(position)
    engine = _engine(game_name)
    if engine is None:
        raise ParlourError(f"{game_name} has no computer opponent to give hints")
    advice = engine.hint(state)
    return {
        "move": advice.move_text,
        "assessment": advice.assessment,
        "score": advice.score,
        "ranked": [{"move": r.move_text, "score": r.score} for r in advice.ranked],
    }


#: How long the computer looks before answering a draw offer (seconds).
DRAW_THINKING = 0.3
#: The computer accepts a draw when its winning chances (from -1, lost, to +1, won)
#: are at most this: when it is no better than even.
DRAW_ACCEPTED_BELOW = 0.0


def draw_answer(
    game_target: registry.GameEntry,
    game_name: str,
    rules: dict[str, Any],
    position: str,
    side: int,
) -> bool:
    """Whether the computer playing ``side`` accepts a draw in ``position``: when its
    winning chances there are no better than even (runs in a worker process)."""
    state = game_under(game_target, game_name, rules).state_from_text(position)
    engine = _engine(game_name)
    if engine is None:
        return False
    found = engine.analyse(state, seconds=DRAW_THINKING)
    if found is None:
        return False
    chances = engine.winning_chances(found.score)
    if found.side != side:
        chances = -chances
    return chances <= DRAW_ACCEPTED_BELOW


#: Where an analysing worker tells the server what it has found so far (set in the
#: worker by :func:`start_analyst`): (job key, message) pairs.
_heard: Any = None


def start_analyst(server_pid: int, heard: Any) -> None:
    """Run first in the analysing worker: as :func:`start_worker`, and keep the queue
    its findings go to (a queue can reach a process only as it starts)."""
    global _heard
    start_worker(server_pid)
    _heard = heard


def analyse(
    key: str,
    game_target: registry.GameEntry,
    game_name: str,
    rules: dict[str, Any],
    start: str,
    moves: list[str],
    names: tuple[str, str],
) -> dict[str, Any]:
    """The coach's review of a game (its first position and its moves as text),
    each judged decision and the progress told to the server as they come, under
    ``key``; the whole review returned (runs in the analysing worker)."""
    from parlour.analysis.coach import analyse_game

    state = game_under(game_target, game_name, rules).state_from_text(start)
    for text in moves:
        state.play(text)
    engine = _engine(game_name)
    if engine is None:
        raise ParlourError(f"{game_name} has no engine to analyse with")

    def tell(message: dict[str, Any]) -> None:
        if _heard is not None:
            _heard.put((key, message))

    review = analyse_game(
        state,
        names=names,
        engine=engine,
        on_move=lambda move: tell({"move": move.to_json()}),
        on_progress=lambda done, total: tell({"done": done, "total": total}),
    )
    return review.to_json()


def judge(
    game_target: registry.GameEntry,
    game_name: str,
    rules: dict[str, Any],
    position: str,
    move: str,
) -> dict[str, Any]:
    """How good ``move`` would be in ``position``: the tutor's warning before a move
    is played, and the check of an answer when learning from a mistake (runs in a
    worker process). The rules' error for an illegal move."""
    from parlour.analysis.coach import judge_move

    state = game_under(game_target, game_name, rules).state_from_text(position)
    engine = _engine(game_name)
    if engine is None:
        raise ParlourError(f"{game_name} has no engine to judge a move")
    judged = judge_move(state, state.parse_move(move), engine=engine)
    if judged is None:
        raise ParlourError("the coach does not judge this position")
    return judged.to_json()


def random_move(game: Game[Any], position: str, seed: int) -> str:
    """A legal move picked at random (level "random", for a game with no engine).

    >>> from tests.conformance.toygame import RACE
    >>> random_move(RACE, "0,0,0,3", seed=1) in ("+1", "+3")
    True
    """
    state = game.state_from_text(position)
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


def think(
    level_target: str,
    game_target: registry.GameEntry,
    game_name: str,
    rules: dict[str, Any],
    position: str,
    seed: int,
    seconds: float | None = None,
) -> str:
    """What runs in the worker process: the game under its rules, then the level's
    chooser (an engine within ``seconds``, the clock's share, when a clock runs)."""
    game = game_under(game_target, game_name, rules)
    if level_target.startswith(ENGINE):
        level = int(level_target.removeprefix(ENGINE))
        return engine_move(game, position, seed, level, seconds)
    module_name, _, attribute = level_target.partition(":")
    chooser: Chooser = getattr(importlib.import_module(module_name), attribute)
    return chooser(game, position, seed)
