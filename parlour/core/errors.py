"""The errors every game raises, so the apps can explain them the same way.

Two kinds of mistake matter to a player and are kept apart:

* :class:`NotationError` -- text that cannot be read at all: a malformed FEN, a PDN
  square number out of range, a Position ID of the wrong length, move text like
  ``e9``. The message names what is wrong with the text.
* :class:`IllegalMoveError` -- a move that reads well but which the rules forbid. The
  message names the rule, in a player's words ("a capture is available: 22x15 must
  be played", "your king would be in check"). The apps show it as it is.

Both derive from :class:`ValueError`, so library users may catch either broadly.
"""

from __future__ import annotations


class ParlourError(Exception):
    """The base of every error Parlour raises on purpose."""


class NotationError(ParlourError, ValueError):
    """Text that cannot be read: a malformed position encoding or move text.

    >>> raise NotationError("FEN has 7 ranks, a board has 8")
    Traceback (most recent call last):
    ...
    parlour.core.errors.NotationError: FEN has 7 ranks, a board has 8
    """


class IllegalMoveError(ParlourError, ValueError):
    """A well-formed move that the rules forbid.

    ``rule`` is a short, stable key for the rule that was broken (for tests and for
    the apps to pick an illustration); the message is the sentence a player reads.

    >>> error = IllegalMoveError("your king would be in check", rule="king-in-check")
    >>> str(error), error.rule
    ('your king would be in check', 'king-in-check')
    """

    def __init__(self, message: str, *, rule: str = "illegal") -> None:
        super().__init__(message)
        self.rule = rule


class GameOverError(IllegalMoveError):
    """A move was offered in a finished game."""

    def __init__(self, message: str = "the game is over") -> None:
        super().__init__(message, rule="game-over")


class UnknownGameError(ParlourError, LookupError):
    """A game name that is not in the registry."""


class LevelError(ParlourError, ValueError):
    """A computer level the engine does not have.

    >>> raise LevelError("levels run from 1 to 10, not 11")
    Traceback (most recent call last):
    ...
    parlour.core.errors.LevelError: levels run from 1 to 10, not 11
    """
