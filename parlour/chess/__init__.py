"""Chess by the FIDE Laws: the rules engine (:mod:`parlour.chess.rules`) and its text
formats, FEN, SAN, UCI and PGN (:mod:`parlour.chess.notation`).

>>> from parlour.chess import CHESS
>>> state = CHESS.new_state()
>>> state.play("e4")
Move.from_uci('e2e4')
>>> state.to_text()
'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
"""

from parlour.chess.rules import CHESS, ChessGame, ChessState, Move, Piece, square, square_name

__all__ = ["CHESS", "ChessGame", "ChessState", "Move", "Piece", "square", "square_name"]
