"""How good a move was: the published scales that players already know.

Chess (and checkers, on a curve fitted the same way) follows lichess: an engine score
becomes the mover's *winning chances* on a scale from -1 (lost) to +1 (won), and a
move is judged by how much of them it gave away -- 0.1 an inaccuracy, 0.2 a mistake,
0.3 a blunder. Accuracy is a percentage per move, from the drop in *win percent*
(50 + 50 x winning chances), and per game the mean of a volatility-weighted mean and a
harmonic mean of the moves' accuracies, as lichess combines them.

Backgammon follows GNU Backgammon: a decision is judged by the equity it lost against
the best one (0.04 doubtful, 0.08 bad, 0.16 very bad), a player by the equity lost
per decision (the *error rate*, in thousandths) and the rating band it falls in, and a
throw of the dice by its luck: its equity against the average throw's.

>>> round(winning_chances(100), 3), round(win_percent(0), 1)
(0.182, 50.0)
>>> judge_win_drop(0.25)
<Judgement.MISTAKE: 'mistake'>
>>> judge_equity_loss(0.05), rating(0.004)
(<Judgement.DOUBTFUL: 'doubtful'>, 'World class')
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence

#: lichess's slope of winning chances per centipawn (fitted on its players' games).
CHANCES_PER_CENTIPAWN = 0.00368208
#: Scores beyond this many centipawns either way count as this many.
CENTIPAWN_CEILING = 1000
#: A mate in N counts as (21 - min(N, 10)) pawns, as lichess counts it.
MATE_PAWNS = 21
MATE_DISTANCE_CAP = 10


class Judgement(enum.Enum):
    """What a move was, in the words players know (with its annotation symbol)."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"
    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very bad"

    @property
    def severity(self) -> int:
        """How grave it is, 1 to 3, the same for the two scales (an inaccuracy is
        as grave as a doubtful move): what a tutor's threshold compares.

        >>> Judgement.MISTAKE.severity == Judgement.BAD.severity == 2
        True
        """
        return {
            Judgement.INACCURACY: 1,
            Judgement.DOUBTFUL: 1,
            Judgement.MISTAKE: 2,
            Judgement.BAD: 2,
            Judgement.BLUNDER: 3,
            Judgement.VERY_BAD: 3,
        }[self]

    @property
    def symbol(self) -> str:
        """The annotation glyph: ?! ? ?? (the same for backgammon's three)."""
        return {
            Judgement.INACCURACY: "?!",
            Judgement.MISTAKE: "?",
            Judgement.BLUNDER: "??",
            Judgement.DOUBTFUL: "?!",
            Judgement.BAD: "?",
            Judgement.VERY_BAD: "??",
        }[self]


# -- chess and checkers: winning chances --------------------------------------------------


def mate_as_centipawns(moves_to_mate: int) -> int:
    """A mate score as lichess weighs it: mate in 1 is worth 20 pawns, mate in 10 or
    more 11; negative when the mover is mated.

    >>> mate_as_centipawns(1), mate_as_centipawns(25), mate_as_centipawns(-3)
    (2000, 1100, -1800)
    """
    if moves_to_mate == 0:
        raise ValueError("a mate score counts moves to mate: 1 or more, or -1 or less")
    pawns = MATE_PAWNS - min(abs(moves_to_mate), MATE_DISTANCE_CAP)
    return int(math.copysign(pawns * 100, moves_to_mate))


def logistic_chances(score: float, slope: float, ceiling: float) -> float:
    """Winning chances from -1 to +1 on a logistic curve of ``slope`` per point of
    ``score``, a score beyond ``ceiling`` either way counting as that much: lichess's
    curve for chess, one fitted the same way for checkers.

    >>> logistic_chances(0, 0.01, 1000), round(logistic_chances(5000, 0.01, 1000), 4)
    (0.0, 0.9999)
    """
    ceiled = max(-ceiling, min(ceiling, score))
    return 2 / (1 + math.exp(-slope * ceiled)) - 1


def winning_chances(centipawns: float) -> float:
    """The mover's winning chances, from -1 to +1, for a score in centipawns (a
    score beyond ten pawns either way counts as ten, as lichess counts it)."""
    return logistic_chances(centipawns, CHANCES_PER_CENTIPAWN, CENTIPAWN_CEILING)


def win_percent(centipawns: float) -> float:
    """The winning chances on a scale of 0 to 100 (50: an even game)."""
    return 50 + 50 * winning_chances(centipawns)


def judge_win_drop(drop: float) -> Judgement | None:
    """A move that gave away ``drop`` of the mover's winning chances (on the -1..+1
    scale): an inaccuracy from 0.1, a mistake from 0.2, a blunder from 0.3."""
    if drop >= 0.3:
        return Judgement.BLUNDER
    if drop >= 0.2:
        return Judgement.MISTAKE
    if drop >= 0.1:
        return Judgement.INACCURACY
    return None


def move_accuracy(before: float, after: float) -> float:
    """A move's accuracy in percent from the mover's win percent before and after
    it (lichess's curve, with its point for the uncertainty of the analysis).

    >>> move_accuracy(60, 60), round(move_accuracy(60, 40), 1)
    (100.0, 41.0)
    """
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def game_accuracy(win_percents: Sequence[float], first_mover: int = 0) -> tuple[float, float]:
    """Each side's accuracy over a game, as lichess combines the moves: the mean of
    their volatility-weighted mean and their harmonic mean.

    ``win_percents`` are the first side's win percents: the starting position's, then
    the one after each move; ``first_mover`` (0 or 1) made the first move. A side
    that made no move has accuracy 100 by convention.

    >>> game_accuracy([50, 50, 50, 50])
    (100.0, 100.0)
    """
    moves = len(win_percents) - 1
    window = max(2, min(8, moves // 10))
    values = list(win_percents)
    windows = [values[:window]] * (min(window, len(values)) - 2)
    windows += [values[i : i + window] for i in range(len(values) - window + 1)]
    weights = [max(0.5, min(12.0, _deviation(xs))) for xs in windows]
    per_side: tuple[list[tuple[float, float]], list[tuple[float, float]]] = ([], [])
    for ply in range(moves):
        side = (first_mover + ply) % 2
        before, after = values[ply], values[ply + 1]
        if side == 1:  # the second side's win percent is the rest of the first side's
            before, after = 100 - before, 100 - after
        per_side[side].append((move_accuracy(before, after), weights[min(ply, len(weights) - 1)]))
    first, second = (_combined(marks) for marks in per_side)
    return first, second


def _deviation(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((x - mean) ** 2 for x in values) / len(values))


def _combined(marks: Sequence[tuple[float, float]]) -> float:
    if not marks:
        return 100.0
    weighted = sum(a * w for a, w in marks) / sum(w for _, w in marks)
    if any(a == 0 for a, _ in marks):
        harmonic = 0.0
    else:
        harmonic = len(marks) / sum(1 / a for a, _ in marks)
    return (weighted + harmonic) / 2


# -- backgammon: equity lost and luck -----------------------------------------------------

#: GNU Backgammon's thresholds of normalised equity lost by one decision.
DOUBTFUL, BAD, VERY_BAD = 0.04, 0.08, 0.16
#: A throw is lucky (or unlucky) from this much equity against the average throw...
LUCKY = 0.3
#: ...and very lucky (or very unlucky) from this much.
VERY_LUCKY = 0.6

#: GNU Backgammon's rating bands: the error rate per decision (normalised equity)
#: below which each name holds, best first.
RATING_BANDS: tuple[tuple[float, str], ...] = (
    (0.002, "Supernatural"),
    (0.005, "World class"),
    (0.008, "Expert"),
    (0.012, "Advanced"),
    (0.018, "Intermediate"),
    (0.026, "Casual player"),
    (0.035, "Beginner"),
)
WORST_RATING = "Awful!"


def judge_equity_loss(loss: float) -> Judgement | None:
    """A backgammon decision that lost ``loss`` (normalised equity) against the best."""
    if loss >= VERY_BAD:
        return Judgement.VERY_BAD
    if loss >= BAD:
        return Judgement.BAD
    if loss >= DOUBTFUL:
        return Judgement.DOUBTFUL
    return None


def luck_of(throw_equity: float) -> str | None:
    """A throw's luck in words, from its equity against the average throw's."""
    size = abs(throw_equity)
    if size < LUCKY:
        return None
    lucky = "lucky" if throw_equity > 0 else "unlucky"
    return f"very {lucky}" if size >= VERY_LUCKY else lucky


def error_rate(losses: Sequence[float]) -> float:
    """The equity lost per decision, in thousandths (gnubg's "mEMG" per move)."""
    return 1000 * sum(losses) / len(losses) if losses else 0.0


def rating(error_per_decision: float) -> str:
    """GNU Backgammon's name for a player who loses ``error_per_decision`` equity a
    decision on average (not in thousandths)."""
    for ceiling, name in RATING_BANDS:
        if error_per_decision < ceiling:
            return name
    return WORST_RATING
