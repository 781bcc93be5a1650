"""American checkers (English draughts): the board and its moves
(:mod:`parlour.checkers.board`), a game's rules (:mod:`parlour.checkers.rules`), moves
and positions as text (:mod:`parlour.checkers.notation`), PDN game files
(:mod:`parlour.checkers.pdn`) and the computer opponent (:mod:`parlour.checkers.engine`).

>>> from parlour.checkers import CHECKERS
>>> state = CHECKERS.new_state()
>>> state.play("11-15")
Move(path=(11, 15))
>>> state.to_text()
'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15'
"""

from parlour.checkers.board import Move
from parlour.checkers.notation import board_picture, parse_fen, parse_move, position_to_fen
from parlour.checkers.pdn import PdnGame, PdnVariation, iter_pdn, read_pdn, read_pdn_game, write_pdn
from parlour.checkers.rules import CHECKERS, CheckersGame, CheckersState

__all__ = [
    "CHECKERS",
    "CheckersGame",
    "CheckersState",
    "Move",
    "PdnGame",
    "PdnVariation",
    "board_picture",
    "iter_pdn",
    "parse_fen",
    "parse_move",
    "position_to_fen",
    "read_pdn",
    "read_pdn_game",
    "write_pdn",
]
