"""The one-sided bear-off database against GNU Backgammon's (gnubg-nn, test-only): the
same distribution of throws for every board of up to four checkers and for 3,000
random boards of up to fifteen; the race chances built from it against gnubg's own
evaluation of bear-offs; and the engine judging such races by it."""

from __future__ import annotations

import random

import gnubg_nn
import numpy as np
import pytest

from parlour.backgammon.bearoff import (
    MAX_THROWS,
    BearoffTable,
    board_count,
    boards,
    is_bearoff,
    shipped_table,
)
from parlour.backgammon.board import Position
from parlour.backgammon.engine import BackgammonEngine

#: gnubg keeps each probability in 16 bits.
GNUBG_PRECISION = 5e-5


def gnubg_distribution(board: tuple[int, ...]) -> np.ndarray:
    """gnubg's P(off in exactly n throws), n from 0, for a non-empty board."""
    row = np.zeros(MAX_THROWS)
    probabilities = gnubg_nn.bearoff_probabilities(board)
    row[1 : 1 + len(probabilities)] = probabilities
    return row


def random_board(rng: random.Random, checkers: int) -> tuple[int, ...]:
    board = [0] * 6
    for _ in range(checkers):
        board[rng.randrange(6)] += 1
    return tuple(board)


@pytest.fixture(scope="module")
def table() -> BearoffTable:
    return shipped_table()  # built on first use (about a minute), then cached


def test_the_table_holds_every_board(table: BearoffTable) -> None:
    assert table.off.shape == (board_count(), MAX_THROWS) == (54264, 32)
    assert np.allclose(table.off.sum(axis=1), 1.0, atol=1e-5)


@pytest.mark.slow
def test_every_small_board_and_many_large_ones_match_gnubg(table: BearoffTable) -> None:
    """The expected throws agree everywhere; the distributions agree to gnubg's
    16 bits except where two plays' expected throws tie to within that rounding
    (gnubg built its table from rounded figures, so it sometimes picks the other of
    two equal plays: about 1 % of all boards, by at most 0.003 in one probability)."""
    rng = random.Random(7)
    sample = [b for b in boards(4) if any(b)]
    sample += [random_board(rng, rng.randint(5, 15)) for _ in range(3000)]
    throws = np.arange(MAX_THROWS)
    differences = []
    for board in sample:
        theirs = gnubg_distribution(board)
        ours = table.distribution(board)
        assert abs(float((ours - theirs) @ throws)) < 3e-4, board  # 16-bit rounding
        differences.append(float(np.abs(ours - theirs).max()))
    assert max(differences[: len(sample) - 3000]) < GNUBG_PRECISION  # every small board
    assert max(differences) < 0.003
    assert sum(d < GNUBG_PRECISION for d in differences) >= 0.98 * len(differences)


def test_the_first_checker_off_and_a_known_gammon() -> None:
    small = BearoffTable.build_small(3)
    # Three on the six-point: a 6, or 5-1, 4-2, 3-3, 2-2 bears one off at once, and
    # so do 4-4 and 5-5 (three checkers down first, then the lowest off).
    assert small.first_off[small.index((0, 0, 0, 0, 0, 3))][1] == pytest.approx(19 / 36)
    # Against three checkers on the ace-point (off in two throws for sure unless a
    # double), one checker on the ace point wins at once; gammons both ways follow.
    win, win_gammon, _, lose_gammon, _ = small.chances((1, 0, 0, 0, 0, 0), (3, 0, 0, 0, 0, 0))
    assert (win, win_gammon, lose_gammon) == pytest.approx((1.0, 1.0, 0.0))
    win, win_gammon, _, lose_gammon, _ = small.chances((0, 0, 0, 0, 0, 3), (1, 0, 0, 0, 0, 0))
    # All three off at once only with 6-6 (after 5-5 the checkers on 6 block the 1s).
    assert win == pytest.approx(1 / 36)
    # If I fail, the opponent is off before my first checker only if none came off.
    assert lose_gammon == pytest.approx(1 - 19 / 36)


@pytest.mark.slow
def test_race_chances_agree_with_gnubgs_evaluation_of_bear_offs(table: BearoffTable) -> None:
    rng = random.Random(11)
    worst = 0.0
    for _ in range(300):
        mover = random_board(rng, rng.randint(1, 15))
        opponent = random_board(rng, rng.randint(1, 15))
        ours = table.chances(mover, opponent)
        board = [list(opponent) + [0] * 19, list(mover) + [0] * 19]  # gnubg: roller second
        theirs = np.array(gnubg_nn.probabilities(board, 0))
        worst = max(worst, float(np.abs(ours - theirs).max()))
    # gnubg's exact two-sided tables play for the win, ours for the fewest throws.
    assert worst < 0.02, worst


def test_the_engine_judges_bear_offs_by_the_table(table: BearoffTable) -> None:
    mover = (2, 3, 0, 1, 0, 0) + (0,) * 19
    opponent = (0, 0, 4, 0, 2, 3) + (0,) * 19
    race = Position(mover, opponent)
    assert is_bearoff(race) and not is_bearoff(Position.start())
    exact = BackgammonEngine().probabilities([race, Position.start()])
    assert np.allclose(exact[0], table.chances(mover[:6], opponent[:6]))
    guessed = BackgammonEngine(bearoff=False).probabilities([race])
    assert not np.allclose(exact[0], guessed[0])
