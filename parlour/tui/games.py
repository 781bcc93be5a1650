"""What the app needs to know about each game beyond the core protocol: its board
widget, its file format for export, and (backgammon) the choices offered as
buttons, the moves made for the player when there is nothing to choose, and the
next game of a match. A new game is one more entry here and one board widget.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parlour.core.protocol import CHANCE, Side, State
from parlour.tui.board import Board
from parlour.tui.choice import Choice
from parlour.tui.session import Session


def numbered_moves(session: Session) -> list[str]:
    """The moves as numbered pairs, ``1. e4 e5``; a game starting with the second
    side's move begins ``1. ... e5``."""
    probe = session.game.state_from_text(session.start_text)
    lines: list[str] = []
    number = 1
    current = ""
    for text in session.texts:
        if probe.turn is Side.FIRST:
            current = f"{number}. {text}"
        else:
            current = (current or f"{number}. ...") + f"  {text}"
            lines.append(current)
            current = ""
            number += 1
        probe.push(probe.parse_move(text))
    if current:
        lines.append(current)
    return lines


@dataclass
class GameUI:
    """The per-game parts of the app."""

    board: type[Board]
    #: The file suffix of the game's record format ("pgn", "pdn", "mat").
    export_suffix: str
    #: The game (or match) as text in that format.
    export: Callable[[Session], str]
    move_list: Callable[[Session], list[str]] = numbered_moves
    #: Choices shown as buttons for the side to act: (label, move text).
    actions: Callable[[Session], list[tuple[str, str]]] = field(default=lambda session: [])
    #: A move to make for a person who has no choice (backgammon's roll when the
    #: cube may not be turned, a turn with no legal play): its text, or None.
    automatic: Callable[[Session], str | None] = field(default=lambda session: None)
    #: The next game of a match once this one is over, or None when there is none.
    next_game: Callable[[Session], State[Any] | None] = field(default=lambda session: None)
    #: Extra lines for the side panel (dice, cube, pips, match score).
    details: Callable[[Session], list[str]] = field(default=lambda session: [])
    #: The last move, as the side panel shows it.
    last_move: Callable[[Session], str | None] = field(
        default=lambda session: session.last_move_text()
    )
    #: Whether resigning is a move of the game (backgammon: an offer to answer).
    resign_is_move: bool = False
    #: What F7 offers: the resignations, by their key and the command that makes each.
    resign_choices: list[Choice] = field(
        default_factory=lambda: [Choice("r", "Resign the game", "resign")]
    )
    #: The side whose pieces are at the bottom of the board when it is not flipped
    #: (White in chess; White in checkers, whose books put Black at the top);
    #: None for a board that always shows the player's own side (backgammon).
    bottom_side: Side | None = Side.FIRST


def _checkers() -> GameUI:
    from parlour.checkers.notation import PdnGame, write_pdn
    from parlour.checkers.rules import CheckersState
    from parlour.tui.checkers_board import CheckersBoard

    def export(session: Session) -> str:
        state = session.state
        assert isinstance(state, CheckersState)
        names = {
            Side.FIRST: session.player_name(Side.FIRST),
            Side.SECOND: session.player_name(Side.SECOND),
        }
        tags = {"Event": "Parlour game", "Black": names[Side.FIRST], "White": names[Side.SECOND]}
        return write_pdn(PdnGame.from_state(state, tags))

    return GameUI(board=CheckersBoard, export_suffix="pdn", export=export, bottom_side=Side.SECOND)


_FACTORIES: dict[str, Callable[[], GameUI]] = {
    "checkers": _checkers,
    "chess": lambda: importlib.import_module("parlour.tui.chess_board").game_ui(),
    "backgammon": lambda: importlib.import_module("parlour.tui.backgammon_board").game_ui(),
}


def game_ui(name: str) -> GameUI:
    """The app's parts for the game called ``name``."""
    if name not in _FACTORIES:
        raise LookupError(f"the terminal app does not know how to draw {name}")
    return _FACTORIES[name]()


def side_to_act(state: State[Any]) -> Side | None:
    """The side to act, or None at a chance node or when the game is over."""
    if state.is_over():
        return None
    turn = state.turn
    return None if turn is CHANCE else Side(turn)
