"""Chess by the FIDE Laws: the rules engine (:mod:`parlour.chess.rules`) and its text
formats: FEN, SAN and UCI (:mod:`parlour.chess.notation`) and PGN
(:mod:`parlour.chess.pgn`).

>>> from parlour.chess import CHESS
>>> state = CHESS.new_state()
>>> state.play("e4")
Move.from_uci('e2e4')
>>> state.to_text()
'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
"""

from parlour.chess.notation import board_fen, parse_fen, parse_san, san
from parlour.chess.pgn import GameNode, PgnGame, read_pgn, write_pgn
from parlour.chess.rules import (
    CHESS,
    STARTING_FEN,
    ChessGame,
    ChessState,
    Move,
    Piece,
    square,
    square_name,
)

__all__ = [
    "CHESS",
    "STARTING_FEN",
    "ChessGame",
    "ChessState",
    "GameNode",
    "Move",
    "PgnGame",
    "Piece",
    "board_fen",
    "parse_fen",
    "parse_san",
    "read_pgn",
    "san",
    "square",
    "square_name",
    "write_pgn",
]
