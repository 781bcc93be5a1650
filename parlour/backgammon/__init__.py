"""Backgammon: the board and the legal plays (:mod:`parlour.backgammon.board`), a game
through the core protocol (:mod:`parlour.backgammon.rules`), matches and money sessions
(:mod:`parlour.backgammon.match`), the gnubg text formats
(:mod:`parlour.backgammon.notation`: Position and Match IDs, plays) and .mat files
(:mod:`parlour.backgammon.matchfile`), and the computer opponent
(:mod:`parlour.backgammon.engine`).

>>> from parlour.backgammon import BACKGAMMON, position_id
>>> state = BACKGAMMON.new_state()
>>> state.play("31")
Throw(dice=(3, 1))
>>> position_id(state.position)
'4HPwATDgc/ABMA'
"""

from parlour.backgammon.board import CheckerMove, Position
from parlour.backgammon.cube import CubeOptions
from parlour.backgammon.match import BackgammonMatch
from parlour.backgammon.matchfile import MatchFile, read_mat, write_mat
from parlour.backgammon.notation import (
    MatchId,
    format_play,
    match_id,
    match_id_from_text,
    parse_dice,
    parse_play,
    position_from_id,
    position_id,
)
from parlour.backgammon.rules import BACKGAMMON, BackgammonGame, BackgammonState

__all__ = [
    "BACKGAMMON",
    "BackgammonGame",
    "BackgammonMatch",
    "BackgammonState",
    "CheckerMove",
    "CubeOptions",
    "MatchFile",
    "MatchId",
    "Position",
    "format_play",
    "match_id",
    "match_id_from_text",
    "parse_dice",
    "parse_play",
    "position_from_id",
    "position_id",
    "read_mat",
    "write_mat",
]
