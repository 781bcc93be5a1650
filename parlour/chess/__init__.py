"""Chess by the FIDE Laws: the rules engine (:mod:`parlour.chess.rules`) and its text
formats, FEN, SAN, UCI and PGN (:mod:`parlour.chess.notation`).

>>> from parlour.chess import CHESS
>>> state = CHESS.new_state()
>>> state.play("e4")
Move.from_uci('e2e4')
>>> state.to_text()
'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
"""

from parlour.chess.notation import (
    GameNode,
    PgnGame,
    board_fen,
    parse_fen,
    parse_san,
    read_pgn,
    san,
    write_pgn,
)
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
