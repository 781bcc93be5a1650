"""The games Parlour knows, by name. A new game is a package and one line here.

Games are imported on first use, so ``parlour --help`` stays fast and a game's
import cost is paid only by those who play it.
"""

from __future__ import annotations

import importlib
from typing import Any

from parlour.core.errors import UnknownGameError
from parlour.core.protocol import Game

#: Game name -> "module:attribute" of its :class:`Game` instance.
GAMES: dict[str, str] = {
    "backgammon": "parlour.backgammon.rules:BACKGAMMON",
    "checkers": "parlour.checkers.rules:CHECKERS",
    "chess": "parlour.chess.rules:CHESS",
}

#: Games named in the design that have no rules engine yet.
PLANNED: tuple[str, ...] = ("chess", "checkers", "backgammon")

_loaded: dict[str, Game[Any]] = {}


def game_names() -> list[str]:
    """The names of the games that can be played now."""
    return sorted(GAMES)


def get_game(name: str) -> Game[Any]:
    """The game called ``name``.

    >>> get_game("tic-tac-toe")
    Traceback (most recent call last):
    ...
    parlour.core.errors.UnknownGameError: no game called 'tic-tac-toe' ...
    """
    if name in _loaded:
        return _loaded[name]
    if name not in GAMES:
        known = ", ".join(game_names()) or "none yet"
        if name in PLANNED:
            raise UnknownGameError(f"{name} is not built yet (games available: {known})")
        raise UnknownGameError(f"no game called {name!r} (games available: {known})")
    module_name, _, attribute = GAMES[name].partition(":")
    game: Game[Any] = getattr(importlib.import_module(module_name), attribute)
    _loaded[name] = game
    return game


def register(name: str, target: str) -> None:
    """Add a game (used by tests for the internal test game)."""
    GAMES[name] = target
    _loaded.pop(name, None)
