"""Analysis of games (the coach): how good each move was, by the published scales
of lichess (chess, and checkers on a fitted curve) and GNU Backgammon, found by each
game's engine (:mod:`.coach`) and written back into the game's file (:mod:`.annotate`)."""

from parlour.analysis.coach import (
    GameReview,
    MoveReview,
    PlayerSummary,
    PositionReview,
    analyse_game,
    analyse_position,
)
from parlour.core.judgement import (
    Judgement,
    error_rate,
    game_accuracy,
    judge_equity_loss,
    judge_win_drop,
    luck_of,
    move_accuracy,
    rating,
    win_percent,
    winning_chances,
)

__all__ = [
    "GameReview",
    "Judgement",
    "MoveReview",
    "PlayerSummary",
    "PositionReview",
    "analyse_game",
    "analyse_position",
    "error_rate",
    "game_accuracy",
    "judge_equity_loss",
    "judge_win_drop",
    "luck_of",
    "move_accuracy",
    "rating",
    "win_percent",
    "winning_chances",
]
