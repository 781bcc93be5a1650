"""Ratings for several players at once from matches against each other and against
anchors of known rating: the maximum-likelihood fit under the logistic Elo curve.

Run from the repository root, one argument a match::

    .venv/bin/python benchmarks/elo_fit.py L4-1350:37/40 L4-1600:32.5/40 \\
        L5-L4:13.5/18 L5-2000:2/22 L6-L5:6.5/8 L6-1800:11/22

``L5-L4:13.5/18`` says that L5 scored 13.5 points in 18 games against L4; a side
written as a number is an anchor (Stockfish's ``UCI_Elo``, taken at its word), any
other name a rating to find. Each match's points count as that many wins of its
games (a draw half a win each side), so the likelihood is
``p ** points * (1 - p) ** (games - points)`` with ``p`` the expected score; its
logarithm is concave in the ratings, so Newton's method finds the one maximum.
Every player must meet an anchor, directly or through others.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass

import numpy as np

#: The slope of ln(p / (1 - p)) per Elo point.
SLOPE = math.log(10) / 400
NO_ANCHOR = "a player meets no anchor, even through others"
NO_MAXIMUM = "no finite fit: a player won (or lost) every point, which bounds a rating, not sets it"
MATCH = re.compile(r"(?P<first>[^-:]+)-(?P<second>[^:]+):(?P<points>[\d.]+)/(?P<games>\d+)")


@dataclass(frozen=True)
class Match:
    first: str | float
    second: str | float
    points: float
    games: int

    @classmethod
    def parse(cls, text: str) -> Match:
        found = MATCH.fullmatch(text)
        if found is None:
            raise ValueError(f"{text!r} is not a match: write it FIRST-SECOND:POINTS/GAMES")
        points, games = float(found["points"]), int(found["games"])
        if not 0 <= points <= games:
            raise ValueError(f"{text!r}: {points} points cannot be scored in {games} games")
        first, second = (_side(found[name]) for name in ("first", "second"))
        return cls(first, second, points, games)


def _side(text: str) -> str | float:
    try:
        return float(text)
    except ValueError:
        return text


def fit(matches: list[Match], steps: int = 100) -> dict[str, float]:
    """The ratings that make ``matches`` most likely together."""
    names = sorted({side for m in matches for side in (m.first, m.second) if isinstance(side, str)})
    anchors = [side for m in matches for side in (m.first, m.second) if isinstance(side, float)]
    if not anchors:
        raise ValueError("no anchor: at least one side of some match must be a rating")
    index = {name: i for i, name in enumerate(names)}
    ratings = np.full(len(names), sum(anchors) / len(anchors))

    def rating(side: str | float) -> float:
        return side if isinstance(side, float) else float(ratings[index[side]])

    for done in range(steps):
        gradient = np.zeros(len(names))
        hessian = np.zeros((len(names), len(names)))
        for m in matches:
            expected = 1 / (1 + math.exp(-SLOPE * (rating(m.first) - rating(m.second))))
            # The match's difference first minus second, as a vector over the unknowns.
            sides = np.zeros(len(names))
            for side, sign in ((m.first, 1.0), (m.second, -1.0)):
                if isinstance(side, str):
                    sides[index[side]] += sign
            gradient += SLOPE * (m.points - m.games * expected) * sides
            hessian -= SLOPE**2 * m.games * expected * (1 - expected) * np.outer(sides, sides)
        try:
            step = np.linalg.solve(hessian, -gradient)
        except np.linalg.LinAlgError:
            # At the start every match bends the likelihood, so only a player cut off
            # from the anchors leaves it flat; later, ratings run off to infinity.
            raise ValueError(NO_MAXIMUM if done else NO_ANCHOR) from None
        ratings += np.clip(step, -400, 400)  # bounded: a far first guess cannot overshoot
        if np.abs(step).max() < 1e-6:
            break
    else:
        raise ValueError(NO_MAXIMUM)
    return {name: float(ratings[index[name]]) for name in names}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("matches", nargs="+", help="FIRST-SECOND:POINTS/GAMES")
    args = parser.parse_args()
    try:
        ratings = fit([Match.parse(text) for text in args.matches])
    except ValueError as error:
        print(f"elo_fit: {error}", file=sys.stderr)
        return 2
    for name, value in ratings.items():
        print(f"{name} {value:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
