"""Game-agnostic foundations: the game protocol, outcomes, errors and dice."""

from parlour.core.dice import Dice, LoadedDice
from parlour.core.errors import (
    GameOverError,
    IllegalMoveError,
    LevelError,
    NotationError,
    ParlourError,
    UnknownGameError,
)
from parlour.core.protocol import CHANCE, Chance, Game, Outcome, Side, State
from parlour.core.registry import game_names, get_game

__all__ = [
    "CHANCE",
    "Chance",
    "Dice",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "LevelError",
    "LoadedDice",
    "NotationError",
    "Outcome",
    "ParlourError",
    "Side",
    "State",
    "UnknownGameError",
    "game_names",
    "get_game",
]
