"""What a board on screen needs from a checkers position, as plain data: the pieces
by square number, every legal move as its path of squares, the last move, and
whether a capture is compulsory (so a board can say why another piece may not move).

>>> from parlour.checkers.rules import CHECKERS
>>> data = board(CHECKERS.new_state())
>>> data["pieces"]["1"], data["moves"][0]["path"], data["must_capture"]
('b', [9, 13], False)
"""

from __future__ import annotations

from typing import Any

from parlour.checkers.notation import PdnGame, write_pdn
from parlour.checkers.rules import CheckersState


def board(state: CheckersState) -> dict[str, Any]:
    pieces: dict[str, str] = {}
    for square in range(1, 33):
        piece = state.piece_at(square)
        if piece is not None:
            pieces[str(square)] = piece
    moves = []
    if not state.is_over():
        moves = [
            {"path": list(move.path), "text": state.move_to_text(move), "capture": move.is_capture}
            for move in state.legal_moves()
        ]
    stack = state.move_stack
    return {
        "pieces": pieces,
        "moves": moves,
        "last": list(stack[-1].path) if stack else None,
        "must_capture": bool(moves) and all(move["capture"] for move in moves),
    }


def export(state: CheckersState, names: tuple[str, str]) -> tuple[str, str]:
    """The game as PDN: (file extension, text)."""
    tags = {"Event": "Parlour game", "Black": names[0], "White": names[1]}
    return "pdn", write_pdn(PdnGame.from_state(state, tags))
