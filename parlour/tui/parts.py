"""The per-game parts of the terminal app beyond the core protocol: its board widget,
its file format for export, and (backgammon) the choices offered as buttons, the moves
made for the player when there is nothing to choose, and the next game of a match.
Each game's board module builds its :class:`GameUI`; :mod:`parlour.tui.games` finds
them by name.
"""

from __future__ import annotations

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


def side_to_act(state: State[Any]) -> Side | None:
    """The side to act, or None at a chance node or when the game is over."""
    if state.is_over():
        return None
    turn = state.turn
    return None if turn is CHANCE else Side(turn)
