"""Per-game board data for the front end, found through the registry.

A game may have a ``view`` module beside its rules (``parlour/<game>/view.py``) with
any of these functions, each taking the game's State:

- ``board(state) -> dict``: what a board on screen needs (pieces, the legal moves by
  their squares, the last move...), sent with the game as ``board``;
- ``steps(state, texts) -> dict``: a turn entered one piece at a time (backgammon);
- ``export(state, names) -> (extension, text)``: the game in its notation's file.

The server knows no game: a game without a view module simply has no board data.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

from parlour.core import registry
from parlour.core.protocol import Game, State


@cache
def _module(target: str) -> ModuleType | None:
    package = target.partition(":")[0].rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.view")
    except ModuleNotFoundError:
        return None


def view_of(game: Game[Any]) -> ModuleType | None:
    """The game's view module, or None."""
    target = registry.GAMES.get(game.name)
    return None if target is None else _module(target)


def board(state: State[Any]) -> dict[str, Any] | None:
    module = view_of(state.game)
    if module is None or not hasattr(module, "board"):
        return None
    data: dict[str, Any] = module.board(state)
    return data


def has(game: Game[Any], function: str) -> bool:
    module = view_of(game)
    return module is not None and hasattr(module, function)


def steps(state: State[Any], texts: list[str]) -> dict[str, Any]:
    module = view_of(state.game)
    assert module is not None
    data: dict[str, Any] = module.steps(state, texts)
    return data


def export(state: State[Any], names: tuple[str, str]) -> tuple[str, str]:
    module = view_of(state.game)
    assert module is not None
    result: tuple[str, str] = module.export(state, names)
    return result
