"""A sequential probability ratio test over a match's results, as fastchess and
OpenBench run one: is the engine under test ``elo1`` stronger than its opponent, or
no better than ``elo0``?

Run from the repository root with the wins, draws and losses of the engine under
test, or with the logs of ``benchmarks/chess_match.py`` (every game line counted)::

    .venv/bin/python benchmarks/sprt.py --wins 85 --draws 41 --losses 74
    .venv/bin/python benchmarks/sprt.py match-24000.log match-30000.log --elo1 10

The log-likelihood ratio is the generalised one over game scores (0, 1/2, 1) in its
usual approximation: with ``n`` games of mean score ``m`` and variance ``v`` a game,
and ``s0``, ``s1`` the scores that ``elo0`` and ``elo1`` predict under the logistic
curve, ``LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v)``. The test accepts ``elo1`` once
the ratio passes ``ln((1 - beta) / alpha)`` and ``elo0`` once it falls below
``ln(beta / (1 - alpha))``; in between, more games are needed. Because the ratio
may be checked after every game without spoiling its error rates, a match can be
stopped as soon as it decides.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

#: A game's line in chess_match.py's log: ``game 12: Parlour (White) 0.5 (...)``.
GAME = re.compile(r"^game \d+: Parlour \((?:White|Black)\) (1|0\.5|0) \(", re.MULTILINE)


def expected_score(elo: float) -> float:
    """The score a player ``elo`` points stronger expects, under the logistic curve.

    >>> expected_score(0), round(expected_score(100), 3)
    (0.5, 0.64)
    """
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class Verdict:
    llr: float
    lower: float
    upper: float

    @property
    def decision(self) -> str:
        if self.llr >= self.upper:
            return "H1 accepted: stronger by the test's elo1"
        if self.llr <= self.lower:
            return "H0 accepted: not stronger than the test's elo0"
        return "undecided: more games needed"


def sprt(
    wins: int,
    draws: int,
    losses: int,
    elo0: float = 0.0,
    elo1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> Verdict:
    """The test's log-likelihood ratio and its two bounds.

    >>> verdict = sprt(85, 41, 74, elo0=0, elo1=10)
    >>> round(verdict.llr, 2), round(verdict.upper, 2), verdict.decision
    (0.3, 2.94, 'undecided: more games needed')
    """
    games = wins + draws + losses
    if games == 0:
        raise ValueError("no games to test")
    if not elo0 < elo1:
        raise ValueError("elo0 must be below elo1")
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError("alpha and beta must lie between 0 and 1")
    lower = math.log(beta / (1 - alpha))
    upper = math.log((1 - beta) / alpha)
    mean = (wins + draws / 2) / games
    variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / games
    if variance == 0:
        # Every game the same result: the evidence points one way without a measure of
        # its spread; the ratio is infinite on the side the score lies.
        llr = math.inf if mean > 0.5 else -math.inf
        return Verdict(llr, lower, upper)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    llr = games * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    return Verdict(llr, lower, upper)


def results_from_logs(texts: list[str]) -> tuple[int, int, int]:
    """Wins, draws and losses of the engine under test over chess_match.py logs.

    >>> results_from_logs(["game 1: Parlour (White) 1 (checkmate); x\\n"
    ...                    "game 2: Parlour (Black) 0.5 (stalemate); x\\n"])
    (1, 1, 0)
    """
    scores = [score for text in texts for score in GAME.findall(text)]
    return scores.count("1"), scores.count("0.5"), scores.count("0")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="*", type=Path, help="chess_match.py logs")
    parser.add_argument("--wins", type=int)
    parser.add_argument("--draws", type=int)
    parser.add_argument("--losses", type=int)
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    args = parser.parse_args(argv)
    given = (args.wins, args.draws, args.losses)
    if args.logs and any(count is not None for count in given):
        parser.error("give either logs or --wins/--draws/--losses, not both")
    if args.logs:
        try:
            wins, draws, losses = results_from_logs([path.read_text() for path in args.logs])
        except OSError as error:
            parser.error(f"cannot read a log: {error}")
    elif all(count is not None for count in given):
        wins, draws, losses = args.wins, args.draws, args.losses
        if min(wins, draws, losses) < 0:
            parser.error("counts of games cannot be negative")
    else:
        parser.error("give the logs, or all of --wins, --draws and --losses")
    try:
        verdict = sprt(wins, draws, losses, args.elo0, args.elo1, args.alpha, args.beta)
    except ValueError as error:
        parser.error(str(error))
    print(
        f"+{wins} ={draws} -{losses} ({wins + draws + losses} games): "
        f"LLR {verdict.llr:.2f} in [{verdict.lower:.2f}, {verdict.upper:.2f}] "
        f"for elo0 {args.elo0:g}, elo1 {args.elo1:g}: {verdict.decision}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
