"""The published scales, checked at their defining points: lichess's winning chances,
move accuracy and judgement drops; GNU Backgammon's thresholds and rating bands."""

from __future__ import annotations

import math

import pytest

from parlour.core.judgement import (
    Judgement,
    error_rate,
    game_accuracy,
    judge_equity_loss,
    judge_win_drop,
    luck_of,
    mate_as_centipawns,
    move_accuracy,
    rating,
    win_percent,
    winning_chances,
)


def test_winning_chances_are_lichess_sigmoid() -> None:
    assert winning_chances(0) == 0
    # The curve's definition at a few points, and its symmetry.
    for cp in (35, 100, 300, 999):
        expected = 2 / (1 + math.exp(-0.00368208 * cp)) - 1
        assert winning_chances(cp) == pytest.approx(expected)
        assert winning_chances(-cp) == pytest.approx(-expected)
    # Beyond ten pawns (a mate, say) the score counts as ten pawns.
    assert winning_chances(2000) == winning_chances(1000) == pytest.approx(0.95, abs=0.01)
    assert winning_chances(-(10**6)) == pytest.approx(-winning_chances(1000))
    assert win_percent(300) == pytest.approx(50 + 50 * winning_chances(300))


def test_mates_count_as_lichess_counts_them() -> None:
    assert [mate_as_centipawns(n) for n in (1, 2, 10, 11, 40)] == [2000, 1900, 1100, 1100, 1100]
    assert mate_as_centipawns(-1) == -2000
    with pytest.raises(ValueError):
        mate_as_centipawns(0)


@pytest.mark.parametrize(
    ("drop", "judgement"),
    [
        (0.0, None),
        (0.099, None),
        (0.1, Judgement.INACCURACY),
        (0.199, Judgement.INACCURACY),
        (0.2, Judgement.MISTAKE),
        (0.3, Judgement.BLUNDER),
        (1.7, Judgement.BLUNDER),
    ],
)
def test_drops_in_winning_chances(drop: float, judgement: Judgement | None) -> None:
    assert judge_win_drop(drop) is judgement


def test_move_accuracy_follows_the_curve() -> None:
    assert move_accuracy(70, 70) == 100 and move_accuracy(40, 55) == 100
    for drop in (1, 5, 10, 30):
        raw = 103.1668100711649 * math.exp(-0.04354415386753951 * drop) - 3.166924740191411
        assert move_accuracy(60, 60 - drop) == pytest.approx(min(100, raw + 1))
    assert move_accuracy(100, 0) == 0


def test_game_accuracy_of_a_worked_example() -> None:
    # White keeps the balance; Black drops 20 points of win percent on its move.
    win_percents = [50.0, 50.0, 70.0, 70.0, 70.0]
    white, black = game_accuracy(win_percents)
    assert white == 100.0
    accuracy = move_accuracy(50, 30)  # Black's view: 50 before, 30 after its move
    # Black moved twice: once losing 20 points, once losing none.
    weights = game_accuracy_weights(win_percents)
    weighted = (accuracy * weights[1] + 100 * weights[3]) / (weights[1] + weights[3])
    harmonic = 2 / (1 / accuracy + 1 / 100)
    assert black == pytest.approx((weighted + harmonic) / 2)
    # Colours swapped: the same accuracies for the other sides.
    swapped = game_accuracy([100 - wp for wp in win_percents], first_mover=1)
    assert swapped == pytest.approx((black, white))


def game_accuracy_weights(values: list[float]) -> list[float]:
    """The volatility weights of lichess's scheme for a short game (window of 2)."""
    windows = [values[i : i + 2] for i in range(len(values) - 1)]
    return [max(0.5, min(12.0, abs(a - b) / 2)) for a, b in windows]


@pytest.mark.parametrize(
    ("loss", "judgement"),
    [
        (0.0, None),
        (0.039, None),
        (0.04, Judgement.DOUBTFUL),
        (0.08, Judgement.BAD),
        (0.16, Judgement.VERY_BAD),
        (0.9, Judgement.VERY_BAD),
    ],
)
def test_backgammon_equity_losses(loss: float, judgement: Judgement | None) -> None:
    assert judge_equity_loss(loss) is judgement


def test_luck_and_ratings_by_gnubgs_bands() -> None:
    assert [luck_of(x) for x in (0.1, 0.3, 0.7, -0.35, -0.61)] == [
        None,
        "lucky",
        "very lucky",
        "unlucky",
        "very unlucky",
    ]
    assert error_rate([0.01, 0.0, 0.02]) == pytest.approx(10.0) and error_rate([]) == 0
    assert [rating(x) for x in (0.0, 0.0049, 0.0079, 0.01, 0.02, 0.03, 0.04)] == [
        "Supernatural",
        "World class",
        "Expert",
        "Advanced",
        "Casual player",
        "Beginner",
        "Awful!",
    ]
    assert [Judgement.BLUNDER.symbol, Judgement.DOUBTFUL.symbol] == ["??", "?!"]
