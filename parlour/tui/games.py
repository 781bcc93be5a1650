"""Each game's parts of the terminal app (:class:`~parlour.tui.parts.GameUI`), found by
the game's name: a new game is one more entry here and one board widget.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from parlour.core.protocol import Side
from parlour.tui.parts import GameUI


def _checkers() -> GameUI:
    from parlour.tui.checkers_board import CheckersBoard

    return GameUI(board=CheckersBoard, bottom_side=Side.SECOND)


_FACTORIES: dict[str, Callable[[], GameUI]] = {
    "checkers": _checkers,
    "chess": lambda: importlib.import_module("parlour.tui.chess_board").game_ui(),
    "backgammon": lambda: importlib.import_module("parlour.tui.backgammon_board").game_ui(),
}


def game_ui(name: str) -> GameUI:
    """The app's parts for the game called ``name``: a game with no widget of its own
    is drawn as its face's text picture."""
    if name not in _FACTORIES:
        from parlour.tui.text_board import TextBoard

        return GameUI(board=TextBoard)
    return _FACTORIES[name]()
