"""Parlour: chess, checkers and backgammon, the games of the classic boxed set."""

from parlour.compiled import guard

__version__ = "0.1.0"

# The engines' compiled modules, where built, are used only if built from the
# present sources (parlour.compiled).
guard()
