"""What a board on screen needs from a chess position, as plain data: the pieces,
every legal move by its squares (so a picked-up piece can show where it may go),
the last move and a king in check. The apps draw; this module only describes.

>>> from parlour.chess.rules import CHESS
>>> data = board(CHESS.new_state())
>>> data["pieces"]["e1"], len(data["moves"]), data["check"]
('K', 20, None)
"""

from __future__ import annotations

from typing import Any

from parlour.chess.notation import PgnGame, write_pgn
from parlour.chess.rules import SQUARE_NAMES, ChessState


def board(state: ChessState) -> dict[str, Any]:
    """The pieces by square name (FEN letters), the legal moves with their from and
    to squares, the last move's squares and the square of a king in check."""
    pieces: dict[str, str] = {}
    check: str | None = None
    for number, name in enumerate(SQUARE_NAMES):
        piece = state.piece_at(number)
        if piece is None:
            continue
        pieces[name] = piece.symbol()
        if piece.kind == "king" and piece.side is state.turn and state.is_check():
            check = name
    moves = []
    if not state.is_over():
        for move in state.legal_moves():
            moves.append(
                {
                    "from": SQUARE_NAMES[move.from_square],
                    "to": SQUARE_NAMES[move.to_square],
                    "promotion": move.promotion,
                    "text": state.move_to_text(move),
                }
            )
    stack = state.move_stack
    last = None
    if stack:
        last = [SQUARE_NAMES[stack[-1].from_square], SQUARE_NAMES[stack[-1].to_square]]
    return {"pieces": pieces, "moves": moves, "last": last, "check": check}


def export(state: ChessState, names: tuple[str, str]) -> tuple[str, str]:
    """The game as PGN: (file extension, text)."""
    game = PgnGame.from_state(state, Event="Parlour game", White=names[0], Black=names[1])
    return "pgn", write_pgn(game)
