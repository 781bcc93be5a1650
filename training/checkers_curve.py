"""Fit the checkers coach's winning-chances curve: from the engine's score to the
result a position goes on to, by maximum likelihood over engine games.

Chess has lichess's curve, fitted on millions of human games; checkers has none
published. So: the engine plays itself from the ACF three-move ballots (each
ballot twice, with a few deliberately loose moves by the beginner level after it,
seeded, so that the games differ and some are decided), searching every move to a
fixed depth. Each position after the opening gives a pair (the search's score for
the side to move, the result for that side: 1, 1/2 or 0), and the curve

    expected result = 1 / (1 + exp(-k * score))     (winning chances = 2 * that - 1)

is fitted for k by maximising the log-likelihood of the results (a one-parameter
search). Positions whose score is a seen win or loss are left out: they are not
on the curve.

Run from the repository root (about ten minutes on this machine)::

    .venv/bin/python training/checkers_curve.py --games 96 --depth 6 --seed 1

It prints the number of games and positions, the result counts and the fitted k
with its standard error (from the likelihood's curvature). The figure goes into
``CHANCES_PER_POINT`` in ``parlour/checkers/engine.py`` and docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlour.ai.search import MATE_BOUND
from parlour.checkers.engine import CheckersEngine
from parlour.checkers.rules import CHECKERS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from checkers_match import BALLOTS

#: Games longer than this many plies are counted as draws.
LONGEST = 250
#: Loose moves by the beginner level after the ballot, to vary the games.
LOOSE_PLIES = 4
#: Positions before this ply are the opening: not used.
FIRST_USED_PLY = 10


def play(ballot: str, depth: int, rng: random.Random) -> list[tuple[float, float]]:
    """One game of the engine against itself; (score, result) for each position
    from the side to move's point of view."""
    state = CHECKERS.new_state()
    state.play_line(ballot)
    engine = CheckersEngine()
    seen: list[tuple[float, int]] = []  # (score, side to move)
    ply = 3
    while not state.is_over() and ply < LONGEST:
        mover = state.turn
        if ply < 3 + LOOSE_PLIES:
            move = engine.choose_move(state, level=2, rng=rng)
        else:
            result = engine.search(state, depth=depth)
            assert result.best_move is not None
            if ply >= FIRST_USED_PLY and abs(result.score) < MATE_BOUND:
                seen.append((float(result.score), int(mover)))
            move = engine.to_move(state, result.best_move)
        state.push(move)
        ply += 1
    outcome = state.outcome()
    winner = None if outcome is None else outcome.winner
    return [
        (score, 0.5 if winner is None else 1.0 if int(winner) == side else 0.0)
        for score, side in seen
    ]


def log_likelihood(k: float, pairs: list[tuple[float, float]]) -> float:
    total = 0.0
    for score, result in pairs:
        p = 1 / (1 + math.exp(-k * score))
        p = min(max(p, 1e-12), 1 - 1e-12)
        total += result * math.log(p) + (1 - result) * math.log(1 - p)
    return total


def fit(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """The k of greatest likelihood (golden-section search) and its standard error."""
    low, high = 1e-5, 0.1
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        a = high - ratio * (high - low)
        b = low + ratio * (high - low)
        if log_likelihood(a, pairs) > log_likelihood(b, pairs):
            high = b
        else:
            low = a
    k = (low + high) / 2
    h = k * 1e-3
    curvature = (
        log_likelihood(k + h, pairs) - 2 * log_likelihood(k, pairs) + log_likelihood(k - h, pairs)
    ) / h**2
    error = math.sqrt(-1 / curvature) if curvature < 0 else float("nan")
    return k, error


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=96)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pairs: list[tuple[float, float]] = []
    results = {1.0: 0, 0.5: 0, 0.0: 0}
    for game in range(args.games):
        ballot = BALLOTS[game % len(BALLOTS)]
        found = play(ballot, args.depth, rng)
        pairs += found
        if found:
            results[found[0][1]] += 1
        print(f"game {game + 1}: {ballot}: {len(found)} positions", file=sys.stderr, flush=True)
    k, error = fit(pairs)
    print(f"games {args.games}, positions {len(pairs)}, depth {args.depth}, seed {args.seed}")
    print(f"results for the side to move at ply {FIRST_USED_PLY}: {results}")
    print(f"k = {k:.5f} per point (a man is 100), standard error {error:.5f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
