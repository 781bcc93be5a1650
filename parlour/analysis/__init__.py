"""Analysis of games (the coach): how good each move was, by the published scales
of lichess (chess, and checkers on a fitted curve) and GNU Backgammon."""

from parlour.analysis.judgement import (
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
    "Judgement",
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
