"""Per-game board data and options for the front end, found through the registry.

A game may have a ``view`` module beside its rules (``parlour/<game>/view.py``) with
any of these functions:

- ``board(state) -> dict``: what a board on screen needs (pieces, the legal moves by
  their squares, the last move...), sent with the game as ``board``;
- ``steps(state, texts) -> dict``: a turn entered one piece at a time (backgammon);
- ``export(state, names) -> (extension, text)``: the game in its notation's file
  (a game with ``series`` is also given the earlier games: ``export(state, names,
  earlier)``, so a whole match is written);
- ``series(rules) -> Series``: the game played under optional rules (a dict of plain
  values from the client, checked and normalised by the series; ValueError names
  what is wrong), possibly as a series of games, such as a backgammon match.

The server knows no game: a game without a view module simply has no board data,
and a game without ``series`` is one game under its standard rules (:class:`OneGame`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from functools import cache
from types import ModuleType
from typing import Any, Protocol

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


class Series(Protocol):
    """Games played one after another under one set of rules: a backgammon match,
    say, or one game on its own (:class:`OneGame`). A series holds no games itself;
    the server keeps the finished ones and asks what follows them."""

    @property
    def game(self) -> Game[Any]:
        """The game with this series' optional rules."""
        ...

    @property
    def rules(self) -> dict[str, Any]:
        """The optional rules, normalised: what the server stores and shows."""
        ...

    def first(self) -> State[Any]:
        """The first game's starting position."""
        ...

    def next(self, finished: Sequence[State[Any]]) -> State[Any] | None:
        """The game that follows ``finished`` (every game so far, each over), or None
        when the series is over."""
        ...

    def summary(self, finished: Sequence[State[Any]]) -> dict[str, Any] | None:
        """What a page shows of the series after ``finished`` and while the game
        in play goes on (the score, the games so far), or None for a lone game."""
        ...


class OneGame:
    """A game on its own, under its standard rules: the series of a game without
    optional rules."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.rules: dict[str, Any] = {}

    def first(self) -> State[Any]:
        return self.game.new_state()

    def next(self, finished: Sequence[State[Any]]) -> State[Any] | None:
        return None

    def summary(self, finished: Sequence[State[Any]]) -> dict[str, Any] | None:
        return None


def series(game: Game[Any], rules: Mapping[str, Any] | None) -> Series:
    """``game`` under the optional ``rules`` a client asked for (None or empty: the
    standard rules). Raises ValueError naming what is wrong with them."""
    module = view_of(game)
    if module is None or not hasattr(module, "series"):
        if rules:
            raise ValueError(f"{game.title} has no optional rules (asked for: {', '.join(rules)})")
        return OneGame(game)
    made: Series = module.series(dict(rules or {}))
    return made


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


def export(
    state: State[Any], names: tuple[str, str], earlier: Sequence[State[Any]] = ()
) -> tuple[str, str]:
    """The game in play (with the ``earlier`` games of its series) as a file."""
    module = view_of(state.game)
    assert module is not None
    if hasattr(module, "series"):
        written: tuple[str, str] = module.export(state, names, earlier)
    else:
        written = module.export(state, names)
    return written
