"""OpenSpiel's checkers as an independent oracle for legal move sets (test only).

OpenSpiel draws its board the other way up: its first player ('o', our Black)
starts on the bottom three rows and moves up, so its board is ours turned half
a turn. Its actions are single legs: a multi-jump is several actions by the same
player, which :func:`openspiel_moves` composes into full paths of our square
numbers. Its move sets are correct; its draw rule (40 plies without a capture)
and its ``undo_action`` are not, so only ``child()`` is used and only move sets
are compared.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from parlour.checkers.rules import CheckersState

GAME = pyspiel.load_game("checkers")
#: OpenSpiel ends the game after this many actions without a capture.
OPENSPIEL_DRAW_PLIES = 40
#: OpenSpiel's piece letters -> ours ('o' moves first: our Black).
PIECES = {"o": "b", "8": "B", "+": "w", "*": "W", ".": None}


def our_square(label: str) -> int:
    """Our square number of an OpenSpiel square label such as ``a3``."""
    os_column, os_row = "abcdefgh".index(label[0]), 8 - int(label[1])
    row, column = 7 - os_row, 7 - os_column
    assert (row + column) % 2 == 1, f"{label} is a light square"
    return 4 * row + column // 2 + 1


def leg(state: Any, action: int) -> tuple[int, int]:
    text = state.action_to_string(state.current_player(), action)
    return our_square(text[:2]), our_square(text[2:])


def openspiel_moves(state: Any) -> dict[tuple[int, ...], list[int]]:
    """Every legal move of the player to act, as our square path -> the actions
    that play it."""
    found: dict[tuple[int, ...], list[int]] = {}
    player = state.current_player()

    def walk(node: Any, path: tuple[int, ...], actions: list[int]) -> None:
        for action in node.legal_actions():
            start, end = leg(node, action)
            assert not path or start == path[-1], "a multi-jump continued with another piece"
            longer = (*path, end) if path else (start, end)
            child = node.child(action)
            jump = abs(start - end) > 5  # a step moves 3 to 5 square numbers, a jump 7 or 9
            if jump and not child.is_terminal() and child.current_player() == player:
                walk(child, longer, [*actions, action])
            else:
                assert longer not in found, f"{longer} reached twice"
                found[longer] = [*actions, action]

    if not state.is_terminal():
        walk(state, (), [])
    return found


def openspiel_board(state: Any) -> dict[int, str]:
    """The pieces on OpenSpiel's board, by our square numbers."""
    rows = str(state).splitlines()[:8]
    pieces: dict[int, str] = {}
    for line in rows:
        rank = int(line[0])
        for os_column, char in enumerate(line[1:9]):
            piece = PIECES[char]
            if piece is not None:
                pieces[our_square("abcdefgh"[os_column] + str(rank))] = piece
    return pieces


def our_board(state: CheckersState) -> dict[int, str]:
    return {
        square: piece for square in range(1, 33) if (piece := state.piece_at(square)) is not None
    }
