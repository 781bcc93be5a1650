"""Tests of backgammon: the board, the legal plays, the notation and the game."""
