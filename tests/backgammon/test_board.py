"""The rules of moving, case by case, each rule with a position made for it."""

from __future__ import annotations

import doctest

import parlour.backgammon.board as board
from parlour.backgammon.board import CheckerMove, Position, legal_plays, next_steps


def test_doctests() -> None:
    result = doctest.testmod(board)
    assert result.attempted > 5 and result.failed == 0


def test_opening_counts() -> None:
    start = Position.start()
    assert len(legal_plays(start, (3, 1))) == 16
    assert len(legal_plays(start, (2, 2))) == 75


def test_next_steps_after_a_first_move() -> None:
    start = Position.start()
    steps = next_steps(start, (6, 5), [CheckerMove(24, 18)])
    assert steps == [CheckerMove(18, 13), CheckerMove(13, 8), CheckerMove(8, 3)]
