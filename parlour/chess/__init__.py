"""Chess by the FIDE Laws: the board and its moves (:mod:`parlour.chess.board`), a
game's rules (:mod:`parlour.chess.rules`) and its text formats: FEN, SAN and UCI
(:mod:`parlour.chess.notation`) and PGN (:mod:`parlour.chess.pgn`).

>>> from parlour.chess import CHESS
>>> state = CHESS.new_state()
>>> state.play("e4")
Move.from_uci('e2e4')
>>> state.to_text()
'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
"""

from parlour.chess.board import STARTING_FEN, Move, Piece, square, square_name
from parlour.chess.notation import board_fen, parse_san, read_fen, san
from parlour.chess.pgn import GameNode, PgnGame, iter_pgn, read_pgn, write_pgn
from parlour.chess.rules import CHESS, ChessGame, ChessState, parse_fen

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
    "iter_pgn",
    "parse_fen",
    "parse_san",
    "read_fen",
    "read_pgn",
    "san",
    "square",
    "square_name",
    "write_pgn",
]
