"""A chess position as an SVG diagram: the board with its coordinates, pieces as the
chess glyphs of Unicode (filled, in each side's colour), a king in check ringed.

>>> from parlour.chess.rules import CHESS
>>> picture = draw(CHESS.new_state())
>>> picture.count("<text") - 16  # pieces (16 coordinates)
32
"""

from __future__ import annotations

from parlour.chess.board import ChessBoard
from parlour.core.drawing import Drawing, square_board
from parlour.core.protocol import Side

#: The filled glyph of each kind; White's are drawn white with a dark outline.
GLYPHS = {"king": "♚", "queen": "♛", "rook": "♜", "bishop": "♝", "knight": "♞", "pawn": "♟"}


def draw(board: ChessBoard, *, flipped: bool = False) -> str:
    """The position as SVG, White at the bottom (at the top when ``flipped``)."""
    in_check = board.in_check()

    def square_of(row: int, column: int) -> int:
        rank, file = (row, 7 - column) if flipped else (7 - row, column)
        return rank * 8 + file

    def piece(picture: Drawing, row: int, column: int, x: float, y: float) -> None:
        found = board.piece_at(square_of(row, column))
        if found is None:
            return
        if found.kind == "king" and found.side is board.turn and in_check:
            picture.circle(x, y, 20, fill="#e03030", opacity=0.7)
        white = found.side is Side.FIRST
        picture.text(
            x,
            y + 2,
            GLYPHS[found.kind],
            size=36,
            fill="#ffffff" if white else "#000000",
            stroke="#000000" if white else "none",
            stroke_width=1,
            font_family="DejaVu Sans, Segoe UI Symbol, sans-serif",
        )

    files, ranks = "abcdefgh", "87654321"
    if flipped:
        files, ranks = files[::-1], ranks[::-1]
    return square_board(lambda row, column: None, piece, files=files, ranks=ranks).svg()
