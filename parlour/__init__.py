"""Parlour: chess, checkers and backgammon, the games of the classic boxed set."""

__version__ = "0.1.0"
